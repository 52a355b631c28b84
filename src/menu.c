// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * menu.c - the sort menu: see menu.h.
 */
#include <config.h>

#include "cell.h"
#include "columns.h"
#include "i18n.h"
#include "menu.h"
#include "text.h"

void menu_draw(struct ui *ui, int y0)
{
	int w = 0, lines = LINES - y0 - 1, first = 0;

	for (int c = 0; c < COL_NR; c++)
		if (text_width(col_title((enum col)c)) > w)
			w = text_width(col_title((enum col)c));
	w += 2;
	attrset(cell_paint(ui, CP_TITLE, A_REVERSE));
	cell_put(y0, 0, w, _("Sort by"), 0);
	attrset(A_NORMAL);
	if (ui->sort_menu_sel >= lines - 1)
		first = ui->sort_menu_sel - lines + 2;
	for (int c = first, y = y0 + 1; c < COL_NR && y < LINES - 1; c++, y++) {
		attrset(c == ui->sort_menu_sel ?
			cell_paint(ui, CP_SELECTED, A_REVERSE) : A_NORMAL);
		cell_put(y, 0, w, col_title((enum col)c), 0);
		attrset(A_NORMAL);
		mvaddch(y, w, '|');
		cell_line_changed(y);
	}
}
