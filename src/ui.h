/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ui.h - the state of csftop's screen, apart from drawing it: which rows
 * the table shows (per thread or per process, unfolded or not, filtered,
 * sorted), the selection, the overlay open over the table, the prompt
 * line and the message.  No curses: the keys (keys.c) change it, the view
 * (view.c) draws it, and tests/unit/test_ui.c drives it on the host.
 */
#ifndef CSFTOP_UI_H
#define CSFTOP_UI_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "columns.h"
#include "model.h"
#include "select.h"

enum ui_overlay { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_SORT, OVERLAY_FILTER,
		  OVERLAY_GOTO, OVERLAY_DETAIL };

/* How long a message stays on the mode line. */
#define UI_MESSAGE_NS 2000000000ull

struct ui {
	struct model *model;
	struct filter filter;
	enum col sort_col;
	int sort_desc;
	unsigned int interval_ms;
	const char *clock_name;
	unsigned int denied;		/* threads we may not map */
	uint64_t missed;		/* tasks the module could not register */
	char place[128];		/* a replay's, shown for LIVE when set */
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

	/* the rows shown, in order, from select_rows() */
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
	uint64_t now_ns;		/* the screen's clock */

	/* what the view drew last, for the mouse and the scroll keys */
	int table_y;			/* line of the column titles */
	int col_x[COL_NR];
	int col_w[COL_NR];
	int col_shown[COL_NR];
	int body_lines;			/* table rows that fit */
	int help_lines;			/* lines of the help */
	int too_small;
	int colors;

	/* layout() of (layout_cols, layout_sort) is in col_x[] and col_w[] */
	int layout_cols;
	int layout_sort;
};

/* The screen the table shows: the model's, or its processes (H). */
const struct screen *ui_screen(const struct ui *ui);
/*
 * Recompute ui->idx from the shown screen, filter and sort; keep the
 * selection on its thread.  0, or -1 without memory.
 */
int ui_select(struct ui *ui);
/* What ui_select() and the process rows allocated. */
void ui_free(struct ui *ui);

/* Move the selection by @delta rows, within the table. */
void ui_move(struct ui *ui, long delta);
/* The column whose title the last frame drew at (@y, @x), or -1. */
int ui_column_at(const struct ui *ui, int y, int x);
/* Select the table row the last frame drew at line @y; 1 if there was one. */
int ui_row_at(struct ui *ui, int y);

/* Sort on @col, in its first direction; call ui_select() after. */
void ui_set_sort(struct ui *ui, enum col col);
/* Switch between threads and processes, the selection on the same
 * process (or thread); call ui_select() after. */
void ui_toggle_processes(struct ui *ui);
/* Show or hide the threads of the selected process under it; -1 when
 * the selection is no process row (or without memory). */
int ui_toggle_fold(struct ui *ui);

/*
 * Open the help, the sort menu, the filter's prompt (with the filter
 * as it is) or the go-to prompt (empty); OVERLAY_NONE closes any.
 */
void ui_open(struct ui *ui, enum ui_overlay overlay);
/* Move the sort menu's selection by @delta, within the columns. */
void ui_sort_menu_move(struct ui *ui, int delta);
/* Scroll the help by @delta lines, @room shown at once; the new top. */
int ui_help_scroll(struct ui *ui, int delta, int room);
/* Open the detail view of the selected thread; 0, or -1 without one. */
int ui_detail_open(struct ui *ui);
/* Scroll the detail view by @delta lines (the view keeps its end shown). */
void ui_detail_scroll(struct ui *ui, int delta);
/* The detail view over the other span: the interval or the whole life. */
void ui_detail_toggle_span(struct ui *ui);

/* The prompt line's text, multibyte; 0, or -1 if it has none. */
int ui_edit_text(const struct ui *ui, char *text, size_t len);
/* Add @ch to the prompt line: 1, or 0 when full or not printable. */
int ui_edit_insert(struct ui *ui, wint_t ch);
/* Take the prompt line's last character away, if any. */
void ui_edit_erase(struct ui *ui);
void ui_edit_clear(struct ui *ui);
/*
 * Filter on the prompt line's text: 0 when that is the filter now;
 * -EINVAL, a bad PID list (an unfinished one, while typing), or -EILSEQ,
 * text that is not in the locale's charset: the filter is unchanged.
 * Call ui_select() after.
 */
int ui_filter_from_edit(struct ui *ui);

/* Show a message on the mode line for UI_MESSAGE_NS. */
void ui_message(struct ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The clock moved on to @now_ns: a message shown long enough goes. */
void ui_set_now(struct ui *ui, uint64_t now_ns);

#endif /* CSFTOP_UI_H */
