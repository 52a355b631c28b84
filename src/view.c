// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view.c - a frame of csftop's screen: the meters, the header and mode
 * lines, the table or an overlay, the footer.  Reads the model and the UI
 * state; changes neither, except the layout it records for the mouse and
 * the scroll keys and the row selection it keeps in view.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cell.h"
#include "columns.h"
#include "detail.h"
#include "fmt.h"
#include "help.h"
#include "i18n.h"
#include "keys.h"
#include "menu.h"
#include "meters.h"
#include "table.h"
#include "text.h"
#include "view.h"

void view_init(struct ui *ui)
{
	ui->layout_cols = -1;
	ui->colors = cell_colors();
}

void view_free(void)
{
	cell_free();
}

/* --- header and footer ---------------------------------------------- */

static void draw_info(struct ui *ui, const struct screen *s, int y)
{
	char line[512], rate[FMT_BUFSZ], ival[FMT_BUFSZ];
	int n;

	n = snprintf(line, sizeof(line),
		     _("Ctx sw/s: %s  Clock: %s  Interval: %s  "
		       "Threads: %u  Processes: %u"),
		     FMT_STR(rate, fmt_rate, s->csw_rate), ui->clock_name,
		     FMT_STR(ival, fmt_interval,
			     (uint64_t)ui->interval_ms * 1000000),
		     s->nthreads, s->nprocs);
	if (ui->denied && n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      _("  (%u not readable)"), ui->denied);
	if (ui->missed && n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      _("  (%llu not registered at creation)"),
			      (unsigned long long)ui->missed);
	cell_put(y, 0, COLS, line, 0);
}

static void draw_mode(struct ui *ui, const struct screen *s, int y)
{
	const struct model *m = ui->model;
	char mode[256], sort[128], ival[FMT_BUFSZ];
	int x = 0;

	switch (m->mode) {
	case MODE_FROZEN:
		snprintf(mode, sizeof(mode), "%s", _("FROZEN (screen A)"));
		break;
	case MODE_DIFF:
		snprintf(mode, sizeof(mode), _("DIFF B-A over %s"),
			 FMT_STR(ival, fmt_interval, s->interval_ns));
		break;
	default:
		if (ui->place[0])
			snprintf(mode, sizeof(mode), _("REPLAY %s"), ui->place);
		else
			snprintf(mode, sizeof(mode), "%s", _("LIVE"));
		break;
	}
	/* where a replay is while A or B-A is shown: where B will be from */
	if (m->mode != MODE_LIVE && ui->place[0]) {
		size_t len = strlen(mode);

		snprintf(mode + len, sizeof(mode) - len, _(", replay at %s"),
			 ui->place);
	}
	if (ui->processes) {
		size_t len = strlen(mode);

		snprintf(mode + len, sizeof(mode) - len, "%s",
			 _(", processes"));
	}
	move(y, 0);
	clrtoeol();
	attrset(m->mode == MODE_LIVE ? A_BOLD :
		cell_paint(ui, CP_MODE, A_REVERSE));
	cell_put(y, 0, text_width(mode) + 2 < COLS ? text_width(mode) + 2 :
		 COLS, mode, 0);
	attrset(A_NORMAL);
	x = text_width(mode) + 3;
	snprintf(sort, sizeof(sort), ui->sort_desc ? _("Sort: %s desc") :
		 _("Sort: %s asc"), col_title(ui->sort_col));
	if (x < COLS)
		cell_put(y, x, COLS - x, sort, 0);
	x += text_width(sort) + 2;
	if (filter_active(&ui->filter) && x < COLS) {
		char f[200];

		snprintf(f, sizeof(f), _("Filter: %s"), ui->filter.text);
		attrset(A_BOLD);
		cell_put(y, x, COLS - x, f, 0);
		attrset(A_NORMAL);
		x += text_width(f) + 2;
	}
	if (ui->msg[0] && x < COLS)
		cell_put(y, x, COLS - x, ui->msg, 0);
}

static void draw_footer(struct ui *ui, int y)
{
	const struct key_hint *hints;
	size_t nhints = keys_hints(&hints);
	int x = 0;

	move(y, 0);
	clrtoeol();
	if (ui->overlay == OVERLAY_FILTER || ui->overlay == OVERLAY_GOTO) {
		char text[256];
		const char *label = ui->overlay == OVERLAY_GOTO ?
				    _("Go to (@ 10:30, +5min, -1min): ") :
				    _("Filter (PID,... or name): ");
		int w;

		if (ui_edit_text(ui, text, sizeof(text)))
			text[0] = '\0';
		attrset(cell_paint(ui, CP_LABEL, A_REVERSE));
		w = text_width(label);
		cell_put(y, 0, w < COLS ? w : COLS, label, 0);
		attrset(A_NORMAL);
		if (w < COLS)
			cell_put(y, w, COLS - w, text, 0);
		move(y, w + text_width(text) < COLS ? w + text_width(text) :
		     COLS - 1);
		return;
	}
	for (size_t i = 0; i < nhints; i++) {
		/* translated once, as the column titles */
		static const char *labels[KEYS_HINTS_MAX];
		const char *label = labels[i] ? labels[i] :
				    (labels[i] = _(hints[i].label));
		int kw = text_width(hints[i].key), lw = text_width(label);

		if (x + kw + lw + 1 > COLS)
			break;
		attrset(A_BOLD);
		cell_put(y, x, kw, hints[i].key, 0);
		attrset(cell_paint(ui, CP_LABEL, A_REVERSE));
		cell_put(y, x + kw, lw + 1, label, 0);
		attrset(A_NORMAL);
		x += kw + lw + 1;
	}
}

/* --- the frame ------------------------------------------------------ */

void view_draw(struct ui *ui)
{
	const struct screen *s = ui_screen(ui);
	int y;

	ui->too_small = COLS < VIEW_MIN_COLS || LINES < VIEW_MIN_LINES;
	/* wider, a row is drawn whole: its blank end is not in the copy */
	cell_size(LINES, COLS <= CELL_MAX ? COLS : 0);
	if (ui->too_small || ui->overlay == OVERLAY_HELP ||
	    ui->overlay == OVERLAY_DETAIL)
		cell_forget_rows();
	if (ui->too_small) {
		char text[128];

		erase();
		snprintf(text, sizeof(text),
			 _("Terminal too small: %dx%d, need %dx%d"), COLS,
			 LINES, VIEW_MIN_COLS, VIEW_MIN_LINES);
		cell_put_centered(LINES / 2, text);
		refresh();
		return;
	}
	if (ui->overlay == OVERLAY_HELP) {
		help_draw(ui);
		refresh();
		return;
	}
	if (ui->overlay == OVERLAY_DETAIL) {
		curs_set(0);
		detail_draw(ui);
		refresh();
		return;
	}
	curs_set(ui->overlay == OVERLAY_FILTER || ui->overlay == OVERLAY_GOTO);
	/*
	 * Not erase(): the lines above the table body are blanked and drawn,
	 * the footer clears its own; each body line is a row, drawn whole (or
	 * left as it is, unchanged), or blanked.
	 */
	y = (s->ncpus ? meters_lines(s->ncpus, COLS, LINES) : 0) + 3 +
	    !!ui->command[0];
	for (int line = 0; line < y && line < LINES; line++)
		cell_clear_line(line);
	y = meters_draw(ui, s, 0);
	draw_info(ui, s, y++);
	draw_mode(ui, s, y++);
	if (ui->command[0])
		cell_put(y++, 0, COLS, ui->command, 0);
	table_draw(ui, s, y, LINES - 1);
	if (ui->overlay == OVERLAY_SORT)
		menu_draw(ui, y);
	draw_footer(ui, LINES - 1);
	refresh();
}
