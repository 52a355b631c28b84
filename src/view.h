/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view.h - csftop's screen, drawn from the model and the UI state (ui.h):
 * view.c puts a frame together from the drawing files below it (cell.c,
 * meters.c, table.c, help.c, menu.c, detail.c), where curses lives.
 */
#ifndef CSFTOP_VIEW_H
#define CSFTOP_VIEW_H

#include "ui.h"

/* Smallest terminal csftop draws in; below it says so and waits. */
#define VIEW_MIN_COLS	50
#define VIEW_MIN_LINES	10

/* Colours and layout for a terminal just made current. */
void view_init(struct ui *ui);
/* Draw the frame ui shows, and refresh the terminal. */
void view_draw(struct ui *ui);
void view_free(void);

#endif /* CSFTOP_VIEW_H */
