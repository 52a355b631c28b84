// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * help.c - the help screen: see help.h.
 */
#include <config.h>

#include "cell.h"
#include "columns.h"
#include "help.h"
#include "i18n.h"
#include "keys.h"
#include "text.h"

#define HELP_MAX 64

/* The help as lines of (key, text); @n lines at most.  Returns the count. */
static int help_lines(const char *lines[][2], int n)
{
	static const char *const prose[] = {
		"",
		N_("Marks: + new or appeared, - exited between A and B, "
		   "x exited, * changed"),
		N_("Meters: user nice system irq softirq iowait steal, as "
		   "| + # ! ~ w s"),
		"",
	};
	int k = keys_help(lines, n);

	for (size_t i = 0; i < sizeof(prose) / sizeof(prose[0]) && k < n;
	     i++, k++) {
		lines[k][0] = "";
		lines[k][1] = prose[i][0] ? _(prose[i]) : "";
	}
	for (int c = 0; c < COL_NR && k < n; c++, k++) {
		lines[k][0] = col_title((enum col)c);
		lines[k][1] = _(columns[c].help);
	}
	return k;
}

void help_draw(struct ui *ui)
{
	const char *lines[HELP_MAX][2];
	int n = help_lines(lines, HELP_MAX), kw = 0, y = 2;

	erase();
	attrset(A_BOLD);
	cell_put(0, 0, COLS, _("csftop: where the time of registered threads "
			       "goes, from the coarse_stat_fs pages"), 0);
	attrset(A_NORMAL);
	for (int i = 0; i < n; i++)
		if (text_width(lines[i][0]) > kw)
			kw = text_width(lines[i][0]);
	ui->help_lines = n;
	ui_help_scroll(ui, 0, LINES - 3);
	for (int i = ui->help_top; i < n && y < LINES - 1; i++, y++) {
		if (!lines[i][0][0]) {
			/* prose, not a key: the whole width */
			cell_put(y, 1, COLS - 1, lines[i][1], 0);
			continue;
		}
		attrset(A_BOLD);
		cell_put(y, 1, kw, lines[i][0], 0);
		attrset(A_NORMAL);
		cell_put(y, kw + 3, COLS - kw - 3, lines[i][1], 0);
	}
	attrset(A_REVERSE);
	cell_put(LINES - 1, 0, COLS, ui->help_top + LINES - 3 < n ?
		 _("Up/Down/Space scroll, any other key returns.") :
		 _("Press any key to return."), 0);
	attrset(A_NORMAL);
}
