/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.h - interactive csftop: the loop and its keys (tui.c), and the
 * scripted test driver (script.c) that stands in for the terminal, the
 * keyboard and the clock.
 */
#ifndef CSFTOP_TUI_H
#define CSFTOP_TUI_H

#include <curses.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <wchar.h>

#include "model.h"
#include "options.h"
#include "sampler.h"
#include "view.h"

struct replay;
struct command;

struct tui {
	struct ui ui;
	struct model model;
	struct sampler *smp;		/* the pages, or */
	struct replay *rp;		/* an archive (-a) */
	struct command *cmd;		/* -- COMMAND: smp shows its tree */
	size_t pos;			/* rp: the sample shown */
	int playing;			/* rp: advancing by itself */
	unsigned int speed;		/* rp: samples per recorded step */
	long count;
	long samples;
	uint64_t next_ns;		/* deadline of the next sample */
	int quit;
	int error;			/* negative errno that ended the loop */
	/* script mode */
	FILE *script;
	uint64_t script_now;
	SCREEN *term;
	FILE *null_in, *null_out;
};

extern volatile sig_atomic_t tui_signal;

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The interactive screen until q, a signal or an error: the exit status.
 * Samples come from @smp, or from @rp when it is not NULL; with @cmd the
 * header follows that command and its tree's total.
 */
int run_tui(const struct options *o, struct sampler *smp, struct replay *rp,
	    struct command *cmd);

/* tui.c, for the script */
void tui_restore_terminal(void);
int tui_sample(struct tui *t);
void tui_key(struct tui *t, int is_key, wint_t ch);
void tui_click(struct tui *t, int x, int y);

/* script.c: CSFTOP_SCRIPT's terminal, and one line of the script */
int script_open(struct tui *t, const char *path);
void script_line(struct tui *t, char *line);
/* Stamp the sample just read with the script's clock instead of the
 * reader's, so that a screen depends on the script alone. */
void script_stamp(struct tui *t);

#endif /* CSFTOP_TUI_H */
