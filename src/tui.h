/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.h - interactive csftop: the screen's session (tui.c), which samples
 * and keeps the model and the UI state, run by a driver that gives it a
 * terminal, keys and a clock: the user's terminal (term.c), or the test
 * driver's (script.c).  What the keys do is keys.c's, the drawing view.c's.
 */
#ifndef CSFTOP_TUI_H
#define CSFTOP_TUI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <wchar.h>

#include "model.h"
#include "options.h"
#include "source.h"
#include "ui.h"

struct command;
struct tui;

/*
 * What the screen does with each kind of source (source.h): the pages
 * (tui_live, tui.c) or a PCP archive (tui_archive, tui_archive.c, built
 * with PCP only).  Adding one is one file with one of these.
 *   setup     the UI's clock name and, if it has its own, interval
 *   next      the next sample into the model: 0, 1 when there is none
 *             (said in the UI), or a negative error
 *   period_ns how long a sample lasts (NULL: the UI's interval)
 *   paused    1 while it must not advance by itself (NULL: never)
 *   key       a key of its own: 1 when it took @ch (NULL: none)
 *   go_to     show the sample at the time @text names: 0, or -1 and why
 *             (NULL: it has no times to go to)
 */
struct tui_source {
	void (*setup)(struct tui *t);
	int (*next)(struct tui *t);
	uint64_t (*period_ns)(const struct tui *t);
	int (*paused)(const struct tui *t);
	int (*key)(struct tui *t, wint_t ch);
	int (*go_to)(struct tui *t, const char *text, char *why, size_t len);
};

extern const struct tui_source tui_live;
extern const struct tui_source tui_archive;

struct tui {
	struct ui ui;
	struct model model;
	const struct tui_source *src;
	struct source *in;		/* the samples */
	struct command *cmd;		/* -- COMMAND: in shows its tree */
	int playing;			/* rp: advancing by itself */
	unsigned int speed;		/* rp: samples per recorded step */
	long count;
	long samples;
	uint64_t next_ns;		/* deadline of the next sample */
	int quit;
	int error;			/* negative errno that ended the loop */
	const struct source_clock *clock;
};

/*
 * What the screen runs on.  open() makes its terminal current and sets
 * it up (term_setup()), or says on stderr why it cannot: 0 or -1; run()
 * gives keys and samples until t->quit, tui_signal, t->error or the end of
 * its input; close() restores the terminal, whether open() succeeded or
 * not.
 */
struct tui_driver {
	const struct source_clock *clock;
	int (*open)(struct tui_driver *d);
	void (*run)(struct tui_driver *d, struct tui *t);
	void (*close)(struct tui_driver *d);
};

/* The signal that ends the screen (SIGINT, SIGTERM, SIGHUP, SIGQUIT). */
extern volatile sig_atomic_t tui_signal;

/*
 * The screen's life, as csftop's main runs it on a driver: tui_init()
 * before the driver opens its terminal (the signals that end the screen
 * are caught from then on), with samples from @in, which @src shows and
 * @clock times; and with @cmd the header following that command
 * and its tree's total; tui_start() once it has, for the model and the first
 * sample; tui_end() once it is closed again, to say what error ended the
 * screen and give the exit status; tui_die() to die of tui_signal.
 */
void tui_init(struct tui *t, const struct source_clock *clock,
	      const struct options *o, const struct tui_source *src,
	      struct source *in, struct command *cmd);
void tui_start(struct tui *t, const struct options *o);
int tui_end(struct tui *t);
void tui_die(struct tui *t);

/* The screen's clock. */
uint64_t tui_now(const struct tui *t);
/* Read a sample and show it: 0, or the error (also in t->error). */
int tui_sample(struct tui *t);
/* Sample if the period is up at @now_ns (unless the source is paused). */
void tui_tick(struct tui *t, uint64_t now_ns);
/* The table after a change of the model or of what it shows. */
void tui_refresh_view(struct tui *t);
/* The source's own key (a replay's [ ] p + -): 1, else 0 and nothing done. */
int tui_replay_key(struct tui *t, wint_t ch);
/*
 * Show the replay's sample at the time @text names (PCP's syntax, as -S);
 * 0, or -1 and why in @why.
 */
int tui_goto(struct tui *t, const char *text, char *why, size_t len);

#endif /* CSFTOP_TUI_H */
