/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script.h - csftop's test driver (CSFTOP_SCRIPT): see script.c.
 */
#ifndef CSFTOP_SCRIPT_H
#define CSFTOP_SCRIPT_H

#include "tui.h"

/* The screen on a terminal on /dev/null, driven by the key script @path. */
struct tui_driver *script_driver(const char *path);

#endif /* CSFTOP_SCRIPT_H */
