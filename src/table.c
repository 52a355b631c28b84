// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * table.c - the thread table: which columns fit, their titles, and a line
 * per row shown, the selection kept in view.
 */
#include <config.h>

#include "cell.h"
#include "columns.h"
#include "i18n.h"
#include "table.h"
#include "text.h"

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
 * decodes, measures (wcwidth) and places every character, the larger part
 * of drawing the table.  A cell that is not printable ASCII (a UTF-8
 * thread name, a translated state) is drawn over it by cell_put(), which
 * measures.
 */
static void draw_row(const struct ui *ui, const struct screen *s,
		     const struct row *r, int y, attr_t a)
{
	chtype line[CELL_MAX];
	int cols = COLS < CELL_MAX ? COLS : CELL_MAX, wide[COL_NR], nwide = 0;
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
	/* a cell put over the line is not in it: such a row is put whole */
	if (!cell_put_row(y, line, cols, !nwide, a))
		return;
	for (int i = 0; i < nwide; i++) {
		int c = wide[i];

		cell(r, c, t, &text);
		cell_put(y, ui->col_x[c], ui->col_w[c], text,
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
	return cell_paint(ui, color[role],
			  role == MARK_ENDED ? A_DIM : A_NORMAL);
}

static void draw_titles(struct ui *ui, int y)
{
	attr_t title = cell_paint(ui, CP_TITLE, A_REVERSE);

	attrset(title);
	mvhline(y, 0, ' ', COLS);
	for (int c = 0; c < COL_NR; c++) {
		int right = columns[c].align == ALIGN_RIGHT;

		if (!ui->col_shown[c])
			continue;
		if (c == (int)ui->sort_col)
			attrset(cell_paint(ui, CP_LABEL, A_NORMAL) | A_BOLD);
		cell_put(y, ui->col_x[c], ui->col_w[c],
			 col_title((enum col)c), right);
		attrset(title);
	}
	attrset(A_NORMAL);
}

void table_draw(struct ui *ui, const struct screen *s, int y, int bottom)
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
			cell_clear_line(y + 1 + line);
		if (!s->nrows)
			text = _("No registered threads: start one that calls "
				 "csf_thread_snap(), e.g. csf-demo");
		else
			text = _("No thread matches the filter.");
		if (ui->body_lines > 1)
			cell_put_centered(y + 2, text);
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
			cell_clear_line(y + 1 + line);
			continue;
		}
		r = &s->rows[ui->idx[i]];
		if (model_row_waits(ui->model, r, &with_waits))
			r = &with_waits;
		a = i == ui->sel ? cell_paint(ui, CP_SELECTED, A_REVERSE) :
		    row_attr(ui, s, r);
		draw_row(ui, s, r, y + 1 + line, a);
	}
}
