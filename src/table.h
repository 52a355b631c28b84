/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table.h - the thread table of csftop's screen.
 */
#ifndef CSFTOP_TABLE_H
#define CSFTOP_TABLE_H

#include "model.h"
#include "ui.h"

/*
 * The table of @s from line @y (its titles) to the line before @bottom:
 * the rows of ui->idx from ui->top, scrolled so that the selection shows.
 * Records where its columns and rows are, for the mouse.
 */
void table_draw(struct ui *ui, const struct screen *s, int y, int bottom);

#endif /* CSFTOP_TABLE_H */
