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
#include "ui.h"

struct replay;
struct command;

/*
 * The screen's clock, in ns.  Samples keep the times their reads took
 * unless time_sample is set: a clock that is not the pages' (the test
 * driver's) then times each sample just read, so that shares and rates
 * follow it.
 */
struct tui_clock {
	uint64_t (*now)(const struct tui_clock *c);
	void (*time_sample)(const struct tui_clock *c,
			    struct csf_sample *smp);
};

struct tui;

/*
 * Where the screen's samples come from: the pages (tui_live, tui.c) or a
 * PCP archive (tui_archive, tui_archive.c, built with PCP only).  Adding
 * one is one file with one of these.
 *   to_ns     ticks of its samples to ns, for the model
 *   setup     the UI's clock name and, if it has its own, interval
 *   next      the next sample into the model: 0, 1 when there is none
 *             (said in the UI), or a negative error for strerror
 *   period_ns how long a sample lasts (NULL: the UI's interval)
 *   paused    1 while it must not advance by itself (NULL: never)
 *   key       a key of its own: 1 when it took @ch (NULL: none)
 *   go_to     show the sample at the time @text names: 0, or -1 and why
 *             (NULL: it has no times to go to)
 *   close     release it when the screen dies of a signal
 */
struct tui_source {
	uint64_t (*to_ns)(uint64_t ticks);
	void (*setup)(struct tui *t);
	int (*next)(struct tui *t);
	uint64_t (*period_ns)(const struct tui *t);
	int (*paused)(const struct tui *t);
	int (*key)(struct tui *t, wint_t ch);
	int (*go_to)(struct tui *t, const char *text, char *why, size_t len);
	const char *(*strerror)(int err);
	void (*close)(struct tui *t);
};

extern const struct tui_source tui_live;
extern const struct tui_source tui_archive;

struct tui {
	struct ui ui;
	struct model model;
	const struct tui_source *src;
	struct csf_session *ses;	/* tui_live's pages */
	struct csf_sample smp;		/* ses's last sample */
	struct replay *rp;		/* tui_archive's archive (-a) */
	struct command *cmd;		/* -- COMMAND: ses shows its tree */
	size_t pos;			/* rp: the sample shown */
	int playing;			/* rp: advancing by itself */
	unsigned int speed;		/* rp: samples per recorded step */
	long count;
	long samples;
	uint64_t next_ns;		/* deadline of the next sample */
	int quit;
	int error;			/* negative errno that ended the loop */
	const struct tui_clock *clock;
};

/*
 * What the screen runs on.  open() makes its terminal current and sets
 * it up (term_setup()), or says on stderr why it cannot: 0 or -1; run()
 * gives keys and samples until t->quit, tui_signal, t->error or the end of
 * its input; close() restores the terminal, whether open() succeeded or
 * not.
 */
struct tui_driver {
	const struct tui_clock *clock;
	int (*open)(struct tui_driver *d);
	void (*run)(struct tui_driver *d, struct tui *t);
	void (*close)(struct tui_driver *d);
};

/* The signal that ends the screen (SIGINT, SIGTERM, SIGHUP, SIGQUIT). */
extern volatile sig_atomic_t tui_signal;

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The screen's life, as csftop's main runs it on a driver: tui_init()
 * before the driver opens its terminal (the signals that end the screen
 * are caught from then on), with samples from @src: tui_live and @smp, or
 * tui_archive and @rp; and with @cmd the header following that command
 * and its tree's total; tui_start() once it has, for the model and the first
 * sample; tui_end() once it is closed again, to say what error ended the
 * screen and give the exit status; tui_die() to die of tui_signal.
 */
void tui_init(struct tui *t, const struct tui_clock *clock,
	      const struct options *o, const struct tui_source *src,
	      struct csf_session *ses, struct replay *rp, struct command *cmd);
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
