/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * help.h - csftop's help screen: the keys (from the key table), what the
 * marks and meters mean, and the columns.
 */
#ifndef CSFTOP_HELP_H
#define CSFTOP_HELP_H

#include "ui.h"

/* The help over the whole screen, from line ui->help_top of it. */
void help_draw(struct ui *ui);

#endif /* CSFTOP_HELP_H */
