/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * term.h - the terminal under csftop's screen: the user's, as a driver of
 * the screen (term_driver()), and what every driver's terminal needs
 * (term_setup(), term_restore()).
 */
#ifndef CSFTOP_TERM_H
#define CSFTOP_TERM_H

#include "tui.h"

/*
 * The user's terminal on standard input and output, its keys, and
 * CLOCK_MONOTONIC; open() refuses, saying why, when there is no terminal
 * or it is too small.
 */
struct tui_driver *term_driver(void);

/*
 * The modes csftop's screen wants of the terminal just made current;
 * from here until term_restore(), exit() restores it too.
 */
void term_setup(void);
/* Give the terminal back as it was, if csftop had it. */
void term_restore(void);

#endif /* CSFTOP_TERM_H */
