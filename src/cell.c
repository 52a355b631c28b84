// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cell.c - text in the terminal's cells, colours, and the copy of the
 * rows as drawn: see cell.h.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cell.h"
#include "text.h"

/*
 * Each screen line's cells as cell_put_row() last put them there, while
 * drawn_ok[line] says the screen still shows them.  A row is then given to
 * ncurses from its first changed cell to its last, or not at all: ncurses
 * copies and compares every cell it is given, and from one frame to the
 * next a row changes in a few digits.  One terminal, one copy.
 */
static chtype *drawn;
static unsigned char *drawn_ok;
static int drawn_lines, drawn_cols;

void cell_forget_rows(void)
{
	if (drawn_ok)
		memset(drawn_ok, 0, (size_t)drawn_lines);
}

void cell_size(int lines, int cols)
{
	if (lines == drawn_lines && cols == drawn_cols)
		return;
	cell_free();
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

void cell_free(void)
{
	free(drawn);
	free(drawn_ok);
	drawn = NULL;
	drawn_ok = NULL;
	drawn_lines = drawn_cols = 0;
}

void cell_line_changed(int y)
{
	if (drawn_ok && y >= 0 && y < drawn_lines)
		drawn_ok[y] = 0;
}

void cell_clear_line(int y)
{
	move(y, 0);
	clrtoeol();
	cell_line_changed(y);
}

int cell_put_row(int y, const chtype *line, int cols, int cached, attr_t a)
{
	int first = 0, last = cols - 1;

	if (cached && drawn_ok && y < drawn_lines && cols == drawn_cols) {
		chtype *d = drawn + (size_t)y * (size_t)cols;

		if (drawn_ok[y]) {
			/* most rows did not change: one vectorised compare */
			if (!memcmp(d, line, (size_t)cols * sizeof(*d)))
				return 0;
			while (d[first] == line[first])
				first++;
			while (d[last] == line[last])
				last--;
		}
		memcpy(d + first, line + first,
		       (size_t)(last - first + 1) * sizeof(*d));
		drawn_ok[y] = 1;
	} else {
		cell_line_changed(y);
	}
	attrset(a);
	mvaddchnstr(y, first, line + first, last - first + 1);
	if (COLS > cols)
		mvhline(y, cols, ' ' | (chtype)a, COLS - cols);
	return 1;
}

int cell_colors(void)
{
	if (!has_colors())
		return 0;
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
	return 1;
}

/* @s, printable ASCII of @len bytes, in @w cells: one call for them all. */
static void put_ascii(int y, int x, int w, const char *s, int len, int right)
{
	chtype line[CELL_MAX], a = (chtype)getattrs(stdscr);
	int c = len < w ? len : w;

	for (int i = 0; i < c; i++)
		line[i] = (chtype)(unsigned char)s[i] | a;
	if (c < w)
		mvhline(y, right ? x : x + c, ' ' | a, w - c);
	if (c)
		mvaddchnstr(y, right ? x + w - c : x, line, c);
}

void cell_put(int y, int x, int w, const char *s, int right)
{
	wchar_t in[256], out[300];
	size_t len = strlen(s), n, k = 0;
	int width = 0, pad;

	if (w <= 0)
		return;
	/* addnwstr() decodes, measures and places each character alone */
	if (len <= CELL_MAX && text_is_ascii(s, len)) {
		put_ascii(y, x, w, s, (int)len, right);
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

void cell_put_centered(int y, const char *text)
{
	int w = text_width(text);
	int x = w < COLS ? (COLS - w) / 2 : 0;

	cell_put(y, x, COLS - x, text, 0);
}
