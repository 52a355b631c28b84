/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meters.h - the CPU meters at the top of csftop's screen, htop style.
 */
#ifndef CSFTOP_METERS_H
#define CSFTOP_METERS_H

#include "model.h"
#include "ui.h"

/* The meters of @s's CPUs from line @y; returns the line after them. */
int meters_draw(const struct ui *ui, const struct screen *s, int y);
/* How many lines the meters of @ncpus take on a @cols x @lines screen. */
int meters_lines(unsigned int ncpus, int cols, int lines);

#endif /* CSFTOP_METERS_H */
