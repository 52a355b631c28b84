/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * menu.h - the sort menu (F6): the columns in a list over the table.
 */
#ifndef CSFTOP_MENU_H
#define CSFTOP_MENU_H

#include "ui.h"

/* The menu from line @y0 down, ui->sort_menu_sel highlighted and shown. */
void menu_draw(struct ui *ui, int y0);

#endif /* CSFTOP_MENU_H */
