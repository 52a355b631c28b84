// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view.c - draw csftop: header, thread table, help, sort menu, filter
 * prompt.  Reads the model and the UI state; changes neither, except the
 * layout it records for mouse clicks and the row selection it keeps valid.
 */
#include <config.h>

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "columns.h"
#include "fmt.h"
#include "i18n.h"
#include "select.h"
#include "text.h"
#include "view.h"

/*
 * Each screen line's cells as draw_row() last put them there, while
 * drawn_ok[line] says the screen still shows them.  A row is then given to
 * ncurses from its first changed cell to its last, or not at all: ncurses
 * copies and compares every cell it is given, and from one frame to the
 * next a row changes in a few digits.  One terminal, one copy.
 */
#define ROW_CELLS 1024	/* a row's cells past these are blank */

static chtype *drawn;
static unsigned char *drawn_ok;
static int drawn_lines, drawn_cols;

/* The screen is about to change under the rows: draw them all again. */
static void forget_rows(void)
{
	if (drawn_ok)
		memset(drawn_ok, 0, (size_t)drawn_lines);
}

/* The copy in the terminal's size; none when @cols is 0 or out of memory. */
static void size_rows(int lines, int cols)
{
	if (lines == drawn_lines && cols == drawn_cols)
		return;
	view_free();
	drawn = cols ? malloc((size_t)lines * (size_t)cols * sizeof(*drawn)) :
		NULL;
	drawn_ok = drawn ? calloc((size_t)lines, 1) : NULL;
	if (!drawn_ok) {
		free(drawn);
		drawn = NULL;
	}
	drawn_lines = lines;
	drawn_cols = cols;
}

void view_free(void)
{
	free(drawn);
	free(drawn_ok);
	drawn = NULL;
	drawn_ok = NULL;
	drawn_lines = drawn_cols = 0;
}

/* Line @y no longer shows what draw_row() put there. */
static void line_changed(int y)
{
	if (drawn_ok && y >= 0 && y < drawn_lines)
		drawn_ok[y] = 0;
}

static void clear_line(int y)
{
	move(y, 0);
	clrtoeol();
	line_changed(y);
}

void view_init(struct ui *ui)
{
	ui->layout_cols = -1;
	ui->colors = has_colors();
	if (!ui->colors)
		return;
	start_color();
	use_default_colors();
	/* the CPU buckets in htop's colours, so users read them at once */
	init_pair(CP_USER, COLOR_GREEN, -1);
	init_pair(CP_NICE, COLOR_BLUE, -1);
	init_pair(CP_SYSTEM, COLOR_RED, -1);
	init_pair(CP_IRQ, COLOR_YELLOW, -1);
	init_pair(CP_SOFTIRQ, COLOR_MAGENTA, -1);
	init_pair(CP_IOWAIT, COLOR_WHITE, -1);
	init_pair(CP_STEAL, COLOR_CYAN, -1);
	init_pair(CP_BUSY, COLOR_GREEN, -1);
	init_pair(CP_TITLE, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_SELECTED, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_EXITED, COLOR_RED, -1);
	init_pair(CP_APPEARED, COLOR_GREEN, -1);
	init_pair(CP_CHANGED, COLOR_YELLOW, -1);
	init_pair(CP_KEY, COLOR_WHITE, -1);
	init_pair(CP_MODE, COLOR_BLACK, COLOR_YELLOW);
	init_pair(CP_LABEL, COLOR_BLACK, COLOR_CYAN);
	/* the detail view's bars: waiting for a CPU in red, as htop's load */
	init_pair(CP_BAR + CSF_STATE_RUNNING, COLOR_GREEN, -1);
	init_pair(CP_BAR + CSF_STATE_RUNNABLE, COLOR_RED, -1);
	init_pair(CP_BAR + CSF_STATE_SLEEPING, COLOR_BLUE, -1);
	init_pair(CP_BAR + CSF_STATE_IOWAIT, COLOR_YELLOW, -1);
	init_pair(CP_BAR + CSF_STATE_BLOCKED, COLOR_MAGENTA, -1);
}

static attr_t pair(const struct ui *ui, int p)
{
	return ui->colors ? COLOR_PAIR(p) : A_NORMAL;
}

/* --- text in cells -------------------------------------------------- */

void view_put(int y, int x, int w, const char *s, int right)
{
	wchar_t in[256], out[300];
	size_t len = strlen(s), n, k = 0;
	int width = 0, pad;

	if (w <= 0)
		return;
	/*
	 * Most text is ASCII: put it as chtypes in one call, where
	 * addnwstr() decodes, measures and places each character on its own.
	 */
	if (len <= ROW_CELLS && text_is_ascii(s, len)) {
		chtype line[ROW_CELLS], a = (chtype)getattrs(stdscr);
		int c = (int)len < w ? (int)len : w;

		for (int i = 0; i < c; i++)
			line[i] = (chtype)(unsigned char)s[i] | a;
		if (c < w)
			mvhline(y, right ? x : x + c, ' ' | a, w - c);
		if (c)
			mvaddchnstr(y, right ? x + w - c : x, line, c);
		return;
	}
	n = text_decode(s, in, 256);
	for (size_t i = 0; i < n; i++) {
		int cw = wcwidth(in[i]);

		if (cw < 0)
			cw = 0;
		if (width + cw > w)
			break;
		out[k++] = in[i];
		width += cw;
	}
	pad = w - width;
	/* hline() takes no attributes from attrset(): give it the current */
	if (pad > 0)
		mvhline(y, right ? x : x + width,
			' ' | (chtype)getattrs(stdscr), pad);
	if (k)
		mvaddnwstr(y, right ? x + pad : x, out, (int)k);
}

int view_edit_text(const struct ui *ui, char *text, size_t len)
{
	wchar_t tmp[sizeof(ui->edit) / sizeof(ui->edit[0]) + 1];

	wmemcpy(tmp, ui->edit, ui->edit_len);
	tmp[ui->edit_len] = L'\0';
	return wcstombs(text, tmp, len) == (size_t)-1 ? -1 : 0;
}

void view_message(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_until_ns = ui->now_ns + 2000000000ull;
}

/* --- selection ------------------------------------------------------ */

const struct screen *view_screen(const struct ui *ui)
{
	return ui->processes ? &ui->procs.s : model_shown(ui->model);
}

static const struct row *selected_row(const struct ui *ui)
{
	if (!ui->nidx || ui->sel >= ui->nidx)
		return NULL;
	return &view_screen(ui)->rows[ui->idx[ui->sel]];
}

/* The selection is on @r now. */
static void select_row(struct ui *ui, const struct row *r)
{
	ui->sel_tid = r->snap.tid;
	ui->sel_child = !!(r->flags & ROW_CHILD);
}

void view_toggle_processes(struct ui *ui)
{
	const struct row *r = selected_row(ui);

	/* a thread's process; a process's main thread, or the thread */
	if (r) {
		ui->sel_tid = ui->processes && (r->flags & ROW_CHILD) ?
			      r->snap.tid : r->snap.tgid;
		ui->sel_child = 0;
	}
	ui->processes = !ui->processes;
}

static size_t unfolded_at(const struct ui *ui, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < ui->nunfolded; i++)
		if (ui->unfolded[i] == tgid)
			break;
	return i;
}

int view_toggle_fold(struct ui *ui)
{
	const struct row *r = selected_row(ui);
	size_t i;

	if (!ui->processes || !r || (r->flags & ROW_CHILD))
		return -1;
	i = unfolded_at(ui, r->snap.tgid);
	if (i < ui->nunfolded) {
		ui->unfolded[i] = ui->unfolded[--ui->nunfolded];
		return 0;
	}
	if (ui->nunfolded == ui->unfolded_cap) {
		size_t cap = ui->unfolded_cap ? 2 * ui->unfolded_cap : 8;
		uint32_t *u = realloc(ui->unfolded, cap * sizeof(*u));

		if (!u)
			return -1;
		ui->unfolded = u;
		ui->unfolded_cap = cap;
	}
	ui->unfolded[ui->nunfolded++] = r->snap.tgid;
	return 0;
}

void view_processes_free(struct ui *ui)
{
	model_processes_free(&ui->procs);
	free(ui->unfolded);
	free(ui->fold_idx);
	ui->unfolded = NULL;
	ui->fold_idx = NULL;
	ui->nunfolded = ui->unfolded_cap = ui->fold_cap = 0;
}

/*
 * After each unfolded process of ui->idx, its threads in the same order,
 * appended to the process screen's rows: the order in fold_idx, then
 * swapped into idx.
 */
static int unfold(struct ui *ui)
{
	const struct screen *threads = model_shown(ui->model);
	struct screen *s = &ui->procs.s;
	size_t n = 0;

	if (model_idx_reserve(&ui->fold_idx, &ui->fold_cap,
			ui->nidx + threads->nrows))
		return -1;
	for (size_t i = 0; i < ui->nidx; i++) {
		uint32_t tgid = s->rows[ui->idx[i]].snap.tgid;
		struct screen sub;
		size_t first = s->nrows;
		long k;

		ui->fold_idx[n++] = ui->idx[i];
		if (unfolded_at(ui, tgid) == ui->nunfolded)
			continue;
		k = model_processes_threads(threads, &ui->procs, tgid);
		if (k < 0)
			return -1;
		/* its threads, sorted as the processes are */
		sub = *s;
		sub.rows = s->rows + first;
		sub.nrows = (size_t)k;
		k = (long)select_rows(&sub, NULL, ui->sort_col, ui->sort_desc,
				       ui->fold_idx + n);
		for (long j = 0; j < k; j++)
			ui->fold_idx[n + (size_t)j] += first;
		n += (size_t)k;
	}
	if (model_idx_reserve(&ui->idx, &ui->idx_cap, n))
		return -1;
	memcpy(ui->idx, ui->fold_idx, n * sizeof(*ui->idx));
	ui->nidx = n;
	return 0;
}

int view_select(struct ui *ui)
{
	const struct screen *s = model_shown(ui->model);

	/*
	 * Every row's waits only to sort on them or for the detail view;
	 * the table's rows get theirs as they are drawn (draw_table()).
	 */
	model_waits(ui->model, ui->overlay == OVERLAY_DETAIL ||
		    columns[ui->sort_col].waits);

	if (ui->processes) {
		if (model_processes(s, &ui->procs))
			return -1;
		s = &ui->procs.s;
	}
	if (model_idx_reserve(&ui->idx, &ui->idx_cap, s->nrows))
		return -1;
	ui->nidx = select_rows(s, &ui->filter, ui->sort_col, ui->sort_desc,
				ui->idx);
	if (ui->processes && ui->nunfolded && unfold(ui))
		return -1;
	/* keep the cursor on its row, wherever the sort moved it */
	for (size_t i = 0; i < ui->nidx; i++) {
		const struct row *r = &s->rows[ui->idx[i]];

		if (r->snap.tid == ui->sel_tid &&
		    !!(r->flags & ROW_CHILD) == ui->sel_child) {
			ui->sel = i;
			return 0;
		}
	}
	if (ui->sel >= ui->nidx)
		ui->sel = ui->nidx ? ui->nidx - 1 : 0;
	if (ui->nidx)
		select_row(ui, &s->rows[ui->idx[ui->sel]]);
	return 0;
}

void view_move(struct ui *ui, long delta)
{
	long sel = (long)ui->sel + delta;

	if (!ui->nidx)
		return;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)ui->nidx)
		sel = (long)ui->nidx - 1;
	ui->sel = (size_t)sel;
	select_row(ui, selected_row(ui));
}

int view_column_at(const struct ui *ui, int y, int x)
{
	if (y != ui->table_y)
		return -1;
	for (int c = 0; c < COL_NR; c++)
		if (ui->col_shown[c] && x >= ui->col_x[c] &&
		    x <= ui->col_x[c] + ui->col_w[c])
			return c;
	return -1;
}

int view_row_at(struct ui *ui, int y)
{
	long i = y - ui->table_y - 1;

	if (i < 0 || i >= ui->body_lines || ui->top + (size_t)i >= ui->nidx)
		return 0;
	view_move(ui, (long)(ui->top + (size_t)i) - (long)ui->sel);
	return 1;
}

/* --- the table ------------------------------------------------------ */

/* Screen cells for column @c's values, in the language shown. */
static int value_width(enum col c)
{
	int w = 0;

	if (columns[c].width)
		return columns[c].width;
	for (unsigned int st = 0; st <= CSF_STATE_EXITED; st++)
		if (text_width(col_state_name(st)) > w)
			w = text_width(col_state_name(st));
	return w;
}

/* Choose the columns that fit @cols cells and record where they go. */
static void layout(struct ui *ui, int cols)
{
	int width[COL_NR], used = 2;	/* the mark column and a space */

	for (int c = 0; c < COL_NR; c++) {
		int t = text_width(col_title((enum col)c));

		width[c] = value_width((enum col)c);
		if (t > width[c])
			width[c] = t;
		ui->col_shown[c] = 0;
	}
	/* the sort column is always there: the user must see the order */
	ui->col_shown[ui->sort_col] = 1;
	used += width[ui->sort_col] + 1;
	/* strictly in priority order: never skip one for a later, narrower
	 * column */
	for (int p = 0, full = 0; p < COL_NR && !full; p++)
		for (int c = 0; c < COL_NR && !full; c++) {
			if (columns[c].priority != p || ui->col_shown[c])
				continue;
			full = used + width[c] + 1 > cols + 1;
			if (!full) {
				ui->col_shown[c] = 1;
				used += width[c] + 1;
			}
		}
	used = 2;
	for (int c = 0; c < COL_NR; c++) {
		ui->col_w[c] = width[c];
		ui->col_x[c] = used;
		if (ui->col_shown[c])
			used += width[c] + 1;
	}
}

/* Column @c's text for @r as a C string in @t[COL_TEXT_MAX]; its length. */
static size_t cell(const struct row *r, int c, char *t, const char **text)
{
	char *e = t + COL_TEXT_MAX - 1;

	*e = '\0';
	*text = col_render(e, r, &columns[c]);
	return (size_t)(e - *text);
}

/*
 * Row @r at line @y in attribute @a.  Its cells are laid out in one line
 * of chtypes, copied into the window with one addchnstr(): addnwstr()
 * decodes, measures (wcwidth) and places every character, and drawing
 * the table that way was most of csftop's interactive cost.  A cell that
 * is not printable ASCII (a UTF-8 thread name, a translated state) is
 * drawn over it by view_put(), which measures.
 */
static void draw_row(const struct ui *ui, const struct screen *s,
		     const struct row *r, int y, attr_t a)
{
	chtype line[ROW_CELLS];
	int cols = COLS < ROW_CELLS ? COLS : ROW_CELLS, wide[COL_NR], nwide = 0;
	int first = 0, last = cols - 1;
	char t[COL_TEXT_MAX];
	const char *text;

	for (int x = 0; x < cols; x++)
		line[x] = ' ' | (chtype)a;
	line[0] = (chtype)(unsigned char)mark_of(s, r)->ch | (chtype)a;
	for (int c = 0; c < COL_NR; c++) {
		int x = ui->col_x[c], w = ui->col_w[c], n;

		if (!ui->col_shown[c] || x >= cols)
			continue;
		n = (int)cell(r, c, t, &text);
		if (!text_is_ascii(text, (size_t)n)) {
			wide[nwide++] = c;
			continue;
		}
		if (w > cols - x)
			w = cols - x;
		if (n > w)
			n = w;
		if (columns[c].align == ALIGN_RIGHT)
			x += w - n;
		for (int i = 0; i < n; i++)
			line[x + i] = (chtype)(unsigned char)text[i] | (chtype)a;
	}
	/*
	 * Only the cells that changed since the row last drawn at @y: a cell
	 * drawn by view_put() below is not in line[], so such a row is drawn
	 * whole.
	 */
	if (!nwide && drawn_ok && y < drawn_lines && cols == drawn_cols) {
		chtype *d = drawn + (size_t)y * (size_t)cols;

		if (drawn_ok[y]) {
			/* most rows did not change: one vectorised compare */
			if (!memcmp(d, line, (size_t)cols * sizeof(*d)))
				return;
			while (d[first] == line[first])
				first++;
			while (d[last] == line[last])
				last--;
		}
		memcpy(d + first, line + first,
		       (size_t)(last - first + 1) * sizeof(*d));
		drawn_ok[y] = 1;
	} else {
		line_changed(y);
	}
	attrset(a);
	mvaddchnstr(y, first, line + first, last - first + 1);
	if (COLS > cols)
		mvhline(y, cols, ' ' | (chtype)a, COLS - cols);
	for (int i = 0; i < nwide; i++) {
		int c = wide[i];

		cell(r, c, t, &text);
		view_put(y, ui->col_x[c], ui->col_w[c], text,
			 columns[c].align == ALIGN_RIGHT);
	}
	attrset(A_NORMAL);
}

static attr_t row_attr(const struct ui *ui, const struct screen *s,
		       const struct row *r)
{
	static const int color[] = {
		[MARK_NEW] = CP_APPEARED, [MARK_ENDED] = CP_EXITED,
		[MARK_CHANGED] = CP_CHANGED,
	};
	enum mark_role role = mark_of(s, r)->role;

	if (role == MARK_PLAIN)
		return A_NORMAL;
	/* without colours, exited rows are dimmed instead */
	return pair(ui, color[role]) |
	       (!ui->colors && role == MARK_ENDED ? A_DIM : 0);
}

static void draw_titles(struct ui *ui, int y)
{
	attr_t title = pair(ui, CP_TITLE) | (ui->colors ? 0 : A_REVERSE);

	attrset(title);
	mvhline(y, 0, ' ', COLS);
	for (int c = 0; c < COL_NR; c++) {
		int right = columns[c].align == ALIGN_RIGHT;

		if (!ui->col_shown[c])
			continue;
		if (c == (int)ui->sort_col)
			attrset(pair(ui, CP_LABEL) | A_BOLD |
				(ui->colors ? 0 : A_NORMAL));
		view_put(y, ui->col_x[c], ui->col_w[c],
			 col_title((enum col)c), right);
		attrset(title);
	}
	attrset(A_NORMAL);
}

static void draw_centered(int y, const char *text)
{
	int w = text_width(text);
	int x = w < COLS ? (COLS - w) / 2 : 0;

	view_put(y, x, COLS - x, text, 0);
}

static void draw_table(struct ui *ui, const struct screen *s, int y,
		       int bottom)
{
	/* the titles' widths are measured in the language shown: once */
	if (ui->layout_cols != COLS || ui->layout_sort != (int)ui->sort_col) {
		layout(ui, COLS);
		ui->layout_cols = COLS;
		ui->layout_sort = (int)ui->sort_col;
	}
	ui->table_y = y;
	draw_titles(ui, y);
	ui->body_lines = bottom - y - 1;
	if (ui->body_lines < 0)
		ui->body_lines = 0;
	if (!ui->nidx) {
		const char *text;

		for (int line = 0; line < ui->body_lines; line++)
			clear_line(y + 1 + line);
		if (!s->nrows)
			text = _("No registered threads: start one that calls "
				 "csf_thread_snap(), e.g. csf-demo");
		else
			text = _("No thread matches the filter.");
		if (ui->body_lines > 1)
			draw_centered(y + 2, text);
		return;
	}
	/* scroll so that the selection stays visible */
	if (ui->sel < ui->top)
		ui->top = ui->sel;
	if (ui->body_lines && ui->sel >= ui->top + (size_t)ui->body_lines)
		ui->top = ui->sel - (size_t)ui->body_lines + 1;
	if (ui->top + (size_t)ui->body_lines > ui->nidx)
		ui->top = ui->nidx > (size_t)ui->body_lines ?
			  ui->nidx - (size_t)ui->body_lines : 0;
	for (int line = 0; line < ui->body_lines; line++) {
		size_t i = ui->top + (size_t)line;
		const struct row *r;
		struct row with_waits;
		attr_t a;

		if (i >= ui->nidx) {
			clear_line(y + 1 + line);
			continue;
		}
		r = &s->rows[ui->idx[i]];
		if (model_row_waits(ui->model, r, &with_waits))
			r = &with_waits;
		a = i == ui->sel ? (pair(ui, CP_SELECTED) |
				    (ui->colors ? 0 : A_REVERSE))
				 : row_attr(ui, s, r);
		draw_row(ui, s, r, y + 1 + line, a);
	}
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
	view_put(y, 0, COLS, line, 0);
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
		pair(ui, CP_MODE) | (ui->colors ? 0 : A_REVERSE));
	view_put(y, 0, text_width(mode) + 2 < COLS ? text_width(mode) + 2 :
		 COLS, mode, 0);
	attrset(A_NORMAL);
	x = text_width(mode) + 3;
	snprintf(sort, sizeof(sort), ui->sort_desc ? _("Sort: %s desc") :
		 _("Sort: %s asc"), col_title(ui->sort_col));
	if (x < COLS)
		view_put(y, x, COLS - x, sort, 0);
	x += text_width(sort) + 2;
	if (filter_active(&ui->filter) && x < COLS) {
		char f[200];

		snprintf(f, sizeof(f), _("Filter: %s"), ui->filter.text);
		attrset(A_BOLD);
		view_put(y, x, COLS - x, f, 0);
		attrset(A_NORMAL);
		x += text_width(f) + 2;
	}
	if (ui->msg[0] && x < COLS)
		view_put(y, x, COLS - x, ui->msg, 0);
}

struct key_hint {
	const char *key;
	const char *label;
};

static const struct key_hint hints[] = {
	{ "F1", N_("Help") }, { "F4", N_("Filter") }, { "F6", N_("SortBy") },
	{ "I", N_("Invert") }, { "z", N_("Freeze") }, { "d", N_("Diff") },
	{ "l", N_("Live") }, { "+-", N_("Interval") }, { "F10", N_("Quit") },
	{ "Enter", N_("Waits") },
};

static void draw_footer(struct ui *ui, int y)
{
	int x = 0;

	move(y, 0);
	clrtoeol();
	if (ui->overlay == OVERLAY_FILTER || ui->overlay == OVERLAY_GOTO) {
		char text[256];
		const char *label = ui->overlay == OVERLAY_GOTO ?
				    _("Go to (@ 10:30, +5min, -1min): ") :
				    _("Filter (PID,... or name): ");
		int w;

		if (view_edit_text(ui, text, sizeof(text)))
			text[0] = '\0';
		attrset(pair(ui, CP_LABEL) | (ui->colors ? 0 : A_REVERSE));
		w = text_width(label);
		view_put(y, 0, w < COLS ? w : COLS, label, 0);
		attrset(A_NORMAL);
		if (w < COLS)
			view_put(y, w, COLS - w, text, 0);
		move(y, w + text_width(text) < COLS ? w + text_width(text) :
		     COLS - 1);
		return;
	}
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		/* translated once, as the column titles */
		static const char *labels[sizeof(hints) / sizeof(hints[0])];
		const char *label = labels[i] ? labels[i] :
				    (labels[i] = _(hints[i].label));
		int kw = text_width(hints[i].key), lw = text_width(label);

		if (x + kw + lw + 1 > COLS)
			break;
		attrset(A_BOLD);
		view_put(y, x, kw, hints[i].key, 0);
		attrset(pair(ui, CP_LABEL) | (ui->colors ? 0 : A_REVERSE));
		view_put(y, x + kw, lw + 1, label, 0);
		attrset(A_NORMAL);
		x += kw + lw + 1;
	}
}

/* --- overlays ------------------------------------------------------- */

static const char *const help_keys[][2] = {
	{ "F1 h ?", N_("this help") },
	{ "F6", N_("choose the sort column from a list") },
	{ "< >", N_("sort on the previous / next column") },
	{ "I", N_("invert the sort order") },
	{ N_("click"), N_("sort on a column by clicking its title") },
	{ "F4 \\", N_("filter: PIDs (1,2,3) or part of a name; Esc clears") },
	{ "z " "Space", N_("freeze the screen (sampling goes on); again: live") },
	{ "d", N_("diff: B minus the frozen screen A; d again: new B") },
	{ "l Esc", N_("back to the live view") },
	{ "H", N_("a row per process, threads summed, or per thread") },
	{ "Enter", N_("on a process (H): its threads under it, or not") },
	{ "+ -", N_("longer / shorter refresh interval (10 ms at least)") },
	{ "[ ]", N_("replay (-a): one sample back / forth") },
	{ "g", N_("replay: go to a time (PCP's syntax, as -S)") },
	{ "p", N_("replay: play or pause; + - play faster / slower") },
	{ "Up Down PgUp PgDn Home End", N_("move the selection") },
	{ "Enter", N_("the selected thread's waits: histograms, waker, "
		      "preemptor; Tab: since registration") },
	{ "Ctrl-L", N_("redraw") },
	{ "q F10", N_("quit") },
};

/* The help as lines of (key, text); @n lines at most.  Returns the count. */
static int help_lines(const char *lines[][2], int n)
{
	static const char *const extra[][2] = {
		{ "", "" },
		{ "", N_("Marks: + new or appeared, - exited between A and B, "
			 "x exited, * changed") },
		{ "", N_("Meters: user nice system irq softirq iowait steal, as "
			 "| + # ! ~ w s") },
		{ "", "" },
	};
	int k = 0;

	for (size_t i = 0; i < sizeof(help_keys) / sizeof(help_keys[0]) &&
	     k < n; i++, k++) {
		lines[k][0] = _(help_keys[i][0]);
		lines[k][1] = _(help_keys[i][1]);
	}
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]) && k < n;
	     i++, k++) {
		lines[k][0] = "";
		lines[k][1] = extra[i][1][0] ? _(extra[i][1]) : "";
	}
	for (int c = 0; c < COL_NR && k < n; c++, k++) {
		lines[k][0] = col_title((enum col)c);
		lines[k][1] = _(columns[c].help);
	}
	return k;
}

int view_help_scroll(struct ui *ui, int delta)
{
	const char *lines[64][2];
	int n = help_lines(lines, 64), room = LINES - 3, top;

	top = ui->help_top + delta;
	if (top > n - room)
		top = n - room;
	if (top < 0)
		top = 0;
	ui->help_top = top;
	return top;
}

static void draw_help(struct ui *ui)
{
	const char *lines[64][2];
	int n = help_lines(lines, 64), kw = 0, y = 2;

	erase();
	attrset(A_BOLD);
	view_put(0, 0, COLS, _("csftop: where the time of registered threads "
			       "goes, from the coarse_stat_fs pages"), 0);
	attrset(A_NORMAL);
	for (int i = 0; i < n; i++)
		if (text_width(lines[i][0]) > kw)
			kw = text_width(lines[i][0]);
	view_help_scroll(ui, 0);
	for (int i = ui->help_top; i < n && y < LINES - 1; i++, y++) {
		if (!lines[i][0][0]) {
			/* prose, not a key: the whole width */
			view_put(y, 1, COLS - 1, lines[i][1], 0);
			continue;
		}
		attrset(A_BOLD);
		view_put(y, 1, kw, lines[i][0], 0);
		attrset(A_NORMAL);
		view_put(y, kw + 3, COLS - kw - 3, lines[i][1], 0);
	}
	attrset(A_REVERSE);
	view_put(LINES - 1, 0, COLS, ui->help_top + LINES - 3 < n ?
		 _("Up/Down/Space scroll, any other key returns.") :
		 _("Press any key to return."), 0);
	attrset(A_NORMAL);
}

static void draw_sort_menu(struct ui *ui, int y0)
{
	int w = 0, lines = LINES - y0 - 1, first = 0;

	for (int c = 0; c < COL_NR; c++)
		if (text_width(col_title((enum col)c)) > w)
			w = text_width(col_title((enum col)c));
	w += 2;
	attrset(pair(ui, CP_TITLE) | (ui->colors ? 0 : A_REVERSE));
	view_put(y0, 0, w, _("Sort by"), 0);
	attrset(A_NORMAL);
	if (ui->sort_menu_sel >= lines - 1)
		first = ui->sort_menu_sel - lines + 2;
	for (int c = first, y = y0 + 1; c < COL_NR && y < LINES - 1; c++, y++) {
		attrset(c == ui->sort_menu_sel ?
			pair(ui, CP_SELECTED) | (ui->colors ? 0 : A_REVERSE) :
			A_NORMAL);
		view_put(y, 0, w, col_title((enum col)c), 0);
		attrset(A_NORMAL);
		mvaddch(y, w, '|');
		line_changed(y);
	}
}

/* --- the detail view ----------------------------------------------- */

/*
 * One thread's histograms, runqlat's way: per state a summary line, then
 * a line per bucket from its first non-empty one to its last, with a bar
 * in proportion to the state's fullest bucket.  Below a fixed header, the
 * lines scroll.
 */
struct detail_line {
	signed char state;	/* -1: a blank line */
	signed char bucket;	/* -1: the state's summary */
};

#define DETAIL_MAX (CSF_NR_STATES * (CSF_HIST_BUCKETS + 2))

static int detail_lines(const struct csf_hist *h, struct detail_line *l)
{
	int n = 0;

	for (int st = 0; st < CSF_NR_STATES; st++) {
		int first = -1, last = -1;

		for (int b = 0; b < CSF_HIST_BUCKETS; b++)
			if (h->count[st][b]) {
				if (first < 0)
					first = b;
				last = b;
			}
		l[n++] = (struct detail_line){ (signed char)st, -1 };
		for (int b = first; first >= 0 && b <= last; b++)
			l[n++] = (struct detail_line){ (signed char)st,
						       (signed char)b };
		l[n++] = (struct detail_line){ -1, -1 };
	}
	return n;
}

static const struct row *detail_row(const struct ui *ui,
				    const struct screen *s)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].snap.tid == ui->detail_tid)
			return &s->rows[i];
	return NULL;
}

int view_detail_open(struct ui *ui)
{
	const struct row *r = selected_row(ui);

	/* a process row has no histograms of its own */
	if (!r || (ui->processes && !(r->flags & ROW_CHILD)))
		return -1;
	ui->detail_tid = r->snap.tid;
	ui->detail_span = HIST_SPAN;
	ui->detail_top = 0;
	ui->overlay = OVERLAY_DETAIL;
	model_waits(ui->model, 1);	/* its waker and preemptor */
	return 0;
}

void view_detail_scroll(struct ui *ui, int delta)
{
	ui->detail_top += delta;
	if (ui->detail_top < 0)
		ui->detail_top = 0;
	/* the far end is kept in view by draw_detail() */
}

/* "name (tid)", or an interrupt, or "-" for nobody yet */
static void task_text(char *buf, size_t len, const struct csf_task *t)
{
	if (!t->at)
		snprintf(buf, len, "-");
	else if (!t->tid)
		snprintf(buf, len, "%s", _("(interrupt)"));
	else
		snprintf(buf, len, "%s (%u)", t->comm, t->tid);
}

static void detail_summary(const struct csf_hist *h, int st, char *line,
			   size_t len)
{
	static const double q[] = { 0.5, 0.9, 0.99, 1.0 };
	char v[4][FMT_BUFSZ];
	const char *t[4];
	uint64_t n = 0;

	for (int b = 0; b < CSF_HIST_BUCKETS; b++)
		n += h->count[st][b];
	if (!n) {
		snprintf(line, len, _("%s: none"), col_state_name((unsigned)st));
		return;
	}
	for (int k = 0; k < 4; k++)
		t[k] = FMT_STR(v[k], fmt_dur,
			       csf_hist_quantile(h, CSF_HIST_STATE(st), q[k]));
	snprintf(line, len,
		 _("%s: %llu intervals  p50 %s  p90 %s  p99 %s  max %s%s"),
		 col_state_name((unsigned)st), (unsigned long long)n, t[0],
		 t[1], t[2], t[3],
		 h->max_known & (1u << st) ? "" : _(" (its bucket's bound)"));
}

static void detail_bucket(const struct ui *ui, const struct csf_hist *h,
			  int st, int b, int y)
{
	char lo[FMT_BUFSZ], hi[FMT_BUFSZ], head[96];
	uint64_t most = 0, n = h->count[st][b];
	int w, bar;

	for (int k = 0; k < CSF_HIST_BUCKETS; k++)
		if (h->count[st][k] > most)
			most = h->count[st][k];
	snprintf(head, sizeof(head), "  %8s -> %-8s : %8llu |",
		 FMT_STR(lo, fmt_dur, b ? CSF_HIST_UPPER_NS(b - 1) : 0),
		 b + 1 < CSF_HIST_BUCKETS ?
		 FMT_STR(hi, fmt_dur, CSF_HIST_UPPER_NS(b)) : "...",
		 (unsigned long long)n);
	view_put(y, 0, COLS, head, 0);
	w = COLS - text_width(head) - 1;
	if (w < 1)
		return;
	bar = most ? (int)((n * (uint64_t)w + most - 1) / most) : 0;
	if (bar > w)
		bar = w;
	if (bar)
		mvhline(y, text_width(head), '*' |
			(chtype)pair(ui, CP_BAR + st), bar);
	mvaddch(y, text_width(head) + w, '|');
}

static void draw_detail(struct ui *ui)
{
	/* a thread's, whether the table shows threads or processes */
	const struct screen *s = model_shown(ui->model);
	const struct row *r = detail_row(ui, s);
	struct detail_line l[DETAIL_MAX];
	char line[512], w[64], p[64], ival[FMT_BUFSZ], span[128];
	struct csf_hist h;
	int n, room, y = 3;

	erase();
	if (!r || model_row_hist(ui->model, s, r, ui->detail_span, &h)) {
		view_put(0, 0, COLS, r ? _("This thread's page keeps no "
					   "histograms (a module older than "
					   "ABI 1.1, or an archive).") :
			 _("The thread is gone."), 0);
		view_put(LINES - 1, 0, COLS, _("Esc: back"), 0);
		return;
	}
	if (ui->detail_span == HIST_SINCE)
		snprintf(span, sizeof(span), "%s", s->kind == SCREEN_DIFF ?
			 _("since its registration, as of B") :
			 _("since its registration"));
	else if (s->kind == SCREEN_DIFF)
		snprintf(span, sizeof(span), "%s", _("between A and B"));
	else if (s->seq <= 1 || !s->interval_ns)
		snprintf(span, sizeof(span), "%s",
			 _("since its registration (the first sample)"));
	else
		snprintf(span, sizeof(span), _("in the last %s"),
			 FMT_STR(ival, fmt_interval, s->interval_ns));
	snprintf(line, sizeof(line), _("Thread %u %.16s (PID %u): its "
				       "intervals %s"), r->snap.tid,
		 r->snap.comm, r->snap.tgid, span);
	attrset(A_BOLD);
	view_put(0, 0, COLS, line, 0);
	attrset(A_NORMAL);
	task_text(w, sizeof(w), &r->waits.waker);
	task_text(p, sizeof(p), &r->waits.preemptor);
	snprintf(line, sizeof(line), _("Last woken by %s, last preempted by "
				       "%s"), w, p);
	view_put(1, 0, COLS, line, 0);

	n = detail_lines(&h, l);
	room = LINES - 1 - y;
	if (ui->detail_top > n - room)
		ui->detail_top = n - room > 0 ? n - room : 0;
	for (int i = ui->detail_top; i < n && y < LINES - 1; i++, y++) {
		if (l[i].state < 0)
			continue;
		if (l[i].bucket >= 0) {
			detail_bucket(ui, &h, l[i].state, l[i].bucket, y);
			continue;
		}
		detail_summary(&h, l[i].state, line, sizeof(line));
		attrset(A_BOLD);
		view_put(y, 0, COLS, line, 0);
		attrset(A_NORMAL);
	}
	attrset(A_REVERSE);
	view_put(LINES - 1, 0, COLS, ui->detail_span == HIST_SPAN ?
		 _("Esc back  Tab since registration  Up/Down scroll") :
		 _("Esc back  Tab the interval  Up/Down scroll"), 0);
	attrset(A_NORMAL);
}

/* --- the frame ------------------------------------------------------ */

void view_draw(struct ui *ui)
{
	const struct screen *s = view_screen(ui);
	int y;

	ui->too_small = COLS < VIEW_MIN_COLS || LINES < VIEW_MIN_LINES;
	/* wider, a row is drawn whole: its blank end is not in the copy */
	size_rows(LINES, COLS <= ROW_CELLS ? COLS : 0);
	if (ui->too_small || ui->overlay == OVERLAY_HELP ||
	    ui->overlay == OVERLAY_DETAIL)
		forget_rows();
	if (ui->too_small) {
		char text[128];

		erase();
		snprintf(text, sizeof(text),
			 _("Terminal too small: %dx%d, need %dx%d"), COLS,
			 LINES, VIEW_MIN_COLS, VIEW_MIN_LINES);
		draw_centered(LINES / 2, text);
		refresh();
		return;
	}
	if (ui->overlay == OVERLAY_HELP) {
		draw_help(ui);
		refresh();
		return;
	}
	if (ui->overlay == OVERLAY_DETAIL) {
		curs_set(0);
		draw_detail(ui);
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
		clear_line(line);
	y = meters_draw(ui, s, 0);
	draw_info(ui, s, y++);
	draw_mode(ui, s, y++);
	if (ui->command[0])
		view_put(y++, 0, COLS, ui->command, 0);
	draw_table(ui, s, y, LINES - 1);
	if (ui->overlay == OVERLAY_SORT)
		draw_sort_menu(ui, y);
	draw_footer(ui, LINES - 1);
	refresh();
}
