/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.h - csftop's screen: meters, header, thread table, help, prompts.
 * Curses lives in view.c and meters.c only; they draw what the model holds
 * and the UI state below, and report where things are for mouse clicks.
 */
#ifndef CSFTOP_VIEW_H
#define CSFTOP_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "columns.h"
#include "model.h"
#include "select.h"

/* Smallest terminal csftop draws in; below it says so and waits. */
#define VIEW_MIN_COLS	50
#define VIEW_MIN_LINES	10

enum ui_overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_SORT, OVERLAY_FILTER,
		  OVERLAY_GOTO, OVERLAY_DETAIL };

struct ui {
	struct model *model;
	struct filter filter;
	enum col sort_col;
	int sort_desc;
	unsigned int interval_ms;
	const char *clock_name;
	unsigned int denied;		/* threads we may not map */
	uint64_t missed;		/* new tasks the module could not register */
	char place[128];		/* shown for LIVE when set: a replay's */
	char command[640];		/* -- COMMAND: its state and total */

	/*
	 * A row per process (H, -P), summed from the shown screen, and
	 * after each unfolded one (Enter) its threads.
	 */
	int processes;
	struct proc_screen procs;
	uint32_t *unfolded;		/* tgids */
	size_t nunfolded, unfolded_cap;
	size_t *fold_idx;		/* scratch: the order with threads in */
	size_t fold_cap;

	/* the rows shown, in order, from model_select() */
	size_t *idx;
	size_t idx_cap;
	size_t nidx;

	/* selection follows a thread across re-sorts, like htop; or a
	 * thread shown under its process (sel_child) */
	uint32_t sel_tid;
	int sel_child;
	size_t sel;
	size_t top;

	enum ui_overlay overlay;
	int sort_menu_sel;
	int help_top;			/* first line of the help shown */
	/* the detail view: of this thread, over this span, from this line */
	uint32_t detail_tid;
	enum hist_span detail_span;
	int detail_top;
	wchar_t edit[64];		/* filter or time being typed */
	size_t edit_len;

	char msg[200];			/* transient status line */
	uint64_t msg_until_ns;		/* shown until then */
	uint64_t now_ns;		/* the controller's clock */

	/* layout of the last frame, for the mouse */
	int table_y;			/* line of the column titles */
	int col_x[COL_NR];
	int col_w[COL_NR];
	int col_shown[COL_NR];
	int body_lines;			/* table rows that fit */
	int too_small;
	int colors;

	/* layout() of (layout_cols, layout_sort) is in col_x[] and col_w[] */
	int layout_cols;
	int layout_sort;
};

void view_init(struct ui *ui);
/* The screen the table shows: the model's, or its processes (H). */
const struct screen *view_screen(const struct ui *ui);
/* Switch between threads and processes, the selection on the same
 * process (or thread); call view_select() after. */
void view_toggle_processes(struct ui *ui);
/* Show or hide the threads of the selected process under it; -1 when
 * the selection is no process row (or without memory). */
int view_toggle_fold(struct ui *ui);
/* What the view allocated for processes. */
void view_processes_free(struct ui *ui);
void view_free(void);
/* Recompute ui->idx from the shown screen, filter and sort; keep the
 * selection on its thread. */
int view_select(struct ui *ui);
void view_draw(struct ui *ui);
/* The column whose title is at (@y, @x), or -1. */
int view_column_at(const struct ui *ui, int y, int x);
/* Select the table row at line @y; 1 if there was one. */
int view_row_at(struct ui *ui, int y);
void view_move(struct ui *ui, long delta);
/* Scroll the help by @delta lines; returns the new first line. */
int view_help_scroll(struct ui *ui, int delta);
/* Open the detail view of the selected thread; 0, or -1 without one. */
int view_detail_open(struct ui *ui);
/* Scroll the detail view by @delta lines. */
void view_detail_scroll(struct ui *ui, int delta);
/* The prompt line's text, multibyte; 0, or -1 if it has none. */
int view_edit_text(const struct ui *ui, char *text, size_t len);
void view_message(struct ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* meters.c: the CPU meters from line @y; returns the lines used. */
int meters_draw(const struct ui *ui, const struct screen *s, int y);
int meters_lines(unsigned int ncpus, int cols, int lines);

/* Color pairs, see view_init. */
enum {
	CP_USER = 1, CP_NICE, CP_SYSTEM, CP_IRQ, CP_SOFTIRQ, CP_IOWAIT,
	CP_STEAL, CP_BUSY, CP_TITLE, CP_SELECTED, CP_EXITED, CP_APPEARED,
	CP_CHANGED, CP_KEY, CP_MODE, CP_LABEL,
	CP_BAR,				/* + state: the detail view's bars */
	CP_BAR_END = CP_BAR + CSF_NR_STATES,
};

/* Put @s at (@y, @x) in exactly @w cells (UTF-8 aware); @right aligns. */
void view_put(int y, int x, int w, const char *s, int right);

#endif /* CSFTOP_VIEW_H */
