/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cell.h - the bottom of csftop's drawing: text put into the terminal's
 * cells, the colours, and a copy of the table's rows as last drawn, so
 * that a frame gives ncurses only the cells that changed.  Curses lives
 * here and in the drawing files above it: meters.c, table.c, help.c,
 * menu.c, detail.c and view.c.
 */
#ifndef CSFTOP_CELL_H
#define CSFTOP_CELL_H

#include <curses.h>

#include "ui.h"

/* The widest row cell_put_row() keeps a copy of; wider, it is drawn whole. */
#define CELL_MAX 1024

/* Colour pairs, see cell_colors(). */
enum {
	CP_USER = 1, CP_NICE, CP_SYSTEM, CP_IRQ, CP_SOFTIRQ, CP_IOWAIT,
	CP_STEAL, CP_BUSY, CP_TITLE, CP_SELECTED, CP_EXITED, CP_APPEARED,
	CP_CHANGED, CP_KEY, CP_MODE, CP_LABEL,
	CP_BAR,				/* + state: the detail view's bars */
	CP_BAR_END = CP_BAR + CSF_NR_STATES,
};

/* Set up the colour pairs: 1, or 0 on a terminal without colours. */
int cell_colors(void);
/* Pair @pair, or @mono on a terminal without colours. */
static inline attr_t cell_paint(const struct ui *ui, int pair, attr_t mono)
{
	return ui->colors ? COLOR_PAIR(pair) : mono;
}

/* Put @s at (@y, @x) in exactly @w cells (UTF-8 aware); @right aligns. */
void cell_put(int y, int x, int w, const char *s, int right);
/* @s in the middle of line @y. */
void cell_put_centered(int y, const char *text);

/*
 * Row @y as @cols cells of @line in attribute @a, past them blanks.  With
 * @cached, only what changed since it was last put there, if anything:
 * 0 when nothing was.  Without, it is drawn whole and not kept (cells
 * will be drawn over it).
 */
int cell_put_row(int y, const chtype *line, int cols, int cached, attr_t a);
/* Blank line @y. */
void cell_clear_line(int y);
/* Line @y no longer shows what cell_put_row() put there. */
void cell_line_changed(int y);
/* The screen is about to change under the rows: put them all again. */
void cell_forget_rows(void);
/* The copy for a terminal of @lines by @cols; none when @cols is 0. */
void cell_size(int lines, int cols);
void cell_free(void);

#endif /* CSFTOP_CELL_H */
