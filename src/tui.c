// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui.c - interactive csftop: the screen's session, see tui.h.
 *
 * It samples on a fixed schedule (every -d ms, from the screen's clock,
 * not "d ms after the last key") and the driver redraws after every
 * sample and every key.  Freezing and diffing change what is drawn, never
 * whether it samples, so a frozen screen still has a fresh live sample
 * behind it.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "spawn.h"
#include "tui.h"
#ifdef HAVE_PCP
#include "replay.h"
#endif

volatile sig_atomic_t tui_signal;

static void on_signal(int sig)
{
	tui_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the wait for a key must return to see the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

uint64_t tui_now(const struct tui *t)
{
	return t->clock->now(t->clock);
}

void tui_refresh_view(struct tui *t)
{
	if (ui_select(&t->ui))
		t->error = -ENOMEM;
}

/*
 * The command's line: how it is, and its tree's total so far, the exited
 * members' sums (the module's) and the live ones' (this frame's pages,
 * which the sampler limits to the tree).
 */
static void command_header(struct tui *t)
{
	struct ui *ui = &t->ui;
	const struct command *c = t->cmd;
	struct csf_tree tree;
	char line[CSF_DIFF_BUFSZ];
	int n;

	command_poll(t->cmd, 0);
	if (csf_thread_read_tree(c->root, &tree))
		memset(&tree, 0, sizeof(tree));
	for (size_t i = 0; i < t->smp->nsnaps; i++) {
		const struct csf_snap *s = &t->smp->snaps[i];

		if (s->state == CSF_STATE_EXITED)
			continue;	/* in the tree's sums already */
		tree.run_ns += csf_ticks_to_ns(s->time[CSF_STATE_RUNNING]);
		tree.runnable_ns +=
			csf_ticks_to_ns(s->time[CSF_STATE_RUNNABLE]);
		tree.sleep_ns += csf_ticks_to_ns(s->time[CSF_STATE_SLEEPING]);
		tree.iowait_ns += csf_ticks_to_ns(s->time[CSF_STATE_IOWAIT]);
		tree.blocked_ns += csf_ticks_to_ns(s->time[CSF_STATE_BLOCKED]);
		tree.nvcsw += s->nvcsw;
		tree.nivcsw += s->nivcsw;
		tree.wakeups += s->wakeups;
		tree.migrations += s->migrations;
		if (tree.running)
			tree.running--;
	}
	csf_format_tree(line, sizeof(line), &tree);
	if (!c->exited)
		n = snprintf(ui->command, sizeof(ui->command),
			     _("%s (pid %d) running: "), c->argv[0],
			     (int)c->pid);
	else
		n = snprintf(ui->command, sizeof(ui->command),
			     _("%s (pid %d) ended, status %d: "), c->argv[0],
			     (int)c->pid, command_status(c));
	if (n > 0 && (size_t)n < sizeof(ui->command))
		snprintf(ui->command + n, sizeof(ui->command) - (size_t)n,
			 "%s", line);
}

/* Give the model a sample: the pages now, or the replay's sample @k. */
static int feed(struct tui *t, size_t k)
{
	int err;

#ifdef HAVE_PCP
	if (t->rp) {
		err = replay_read(t->rp, k);
		if (!err)
			err = model_sample(&t->model, t->rp->snaps, NULL,
					   t->rp->nsnaps, t->rp->cpus,
					   t->rp->ncpus, replay_time(t->rp, k));
		if (!err)
			t->pos = k;
		return err;
	}
#else
	(void)k;
#endif
	err = sampler_read(t->smp);
	if (!err && t->clock->time_sample)
		t->clock->time_sample(t->clock, t->smp);
	if (!err)
		err = model_sample(&t->model, t->smp->snaps, t->smp->hists,
				   t->smp->nsnaps, t->smp->cpus, t->smp->ncpus,
				   tui_now(t));
	if (!err) {
		t->ui.denied = t->smp->denied;
		t->ui.missed = t->smp->missed;
		if (t->cmd)
			command_header(t);
	}
	return err;
}

#ifdef HAVE_PCP
/* Where the replay is, in the mode line instead of LIVE. */
static void set_place(struct tui *t)
{
	uint64_t at = replay_time(t->rp, t->pos);
	time_t sec = (time_t)(at / 1000000000);
	struct tm tm;
	char when[64] = "?", how[32];

	if (localtime_r(&sec, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	/* the archive's clock, as its last sample read gave it */
	t->ui.clock_name = _(t->rp->clock);
	if (t->playing)
		snprintf(how, sizeof(how), _("playing %ux"), t->speed);
	else
		snprintf(how, sizeof(how), "%s", _("paused"));
	snprintf(t->ui.place, sizeof(t->ui.place), "%s.%03u %zu/%zu %s",
		 when, (unsigned int)(at / 1000000 % 1000), t->pos + 1,
		 t->rp->nsamples, how);
}
#endif

int tui_sample(struct tui *t)
{
	size_t k = 0;
	int err;

#ifdef HAVE_PCP
	if (t->rp && t->samples) {
		if (t->pos + 1 >= t->rp->nsamples) {
			t->playing = 0;
			ui_message(&t->ui, "%s", _("End of the archive"));
			set_place(t);
			return 0;
		}
		k = t->pos + 1;
	}
#endif
	err = feed(t, k);
	if (err) {
		t->error = err;
		return err;
	}
#ifdef HAVE_PCP
	if (t->rp)
		set_place(t);
#endif
	t->samples++;
	if (t->count && t->samples >= t->count)
		t->quit = 1;
	tui_refresh_view(t);
	return 0;
}

#ifdef HAVE_PCP
/* Show sample @k as a sample after the one before it would show it. */
static void replay_goto(struct tui *t, size_t k)
{
	int err = 0;

	model_restart(&t->model);
	if (k > 0)
		err = feed(t, k - 1);
	if (!err)
		err = feed(t, k);
	if (err) {
		t->error = err;
		return;
	}
	set_place(t);
	tui_refresh_view(t);
}

static void replay_key(struct tui *t, wint_t ch)
{
	switch (ch) {
	case '[':
		t->playing = 0;
		if (t->pos > 0)
			replay_goto(t, t->pos - 1);
		else
			ui_message(&t->ui, "%s", _("Start of the archive"));
		break;
	case ']':
		t->playing = 0;
		tui_sample(t);
		break;
	case 'p':
		t->playing = !t->playing && t->pos + 1 < t->rp->nsamples;
		if (!t->playing && t->pos + 1 >= t->rp->nsamples)
			ui_message(&t->ui, "%s", _("End of the archive"));
		break;
	case '+':
		if (t->speed < 64)
			t->speed *= 2;
		ui_message(&t->ui, _("Speed: %ux"), t->speed);
		break;
	case '-':
		if (t->speed > 1)
			t->speed /= 2;
		ui_message(&t->ui, _("Speed: %ux"), t->speed);
		break;
	}
	t->next_ns = tui_now(t) + t->rp->step_ns / t->speed;
	set_place(t);
}
#endif

int tui_goto(struct tui *t, const char *text, char *why, size_t len)
{
#ifdef HAVE_PCP
	uint64_t at;

	if (replay_parse_time(t->rp, text, &at, why, len))
		return -1;
	ui_open(&t->ui, OVERLAY_NONE);
	t->playing = 0;
	replay_goto(t, replay_find(t->rp, at));
	return 0;
#else
	/* no go-to prompt opens without an archive */
	(void)t;
	(void)text;
	(void)why;
	(void)len;
	return -1;
#endif
}

int tui_replay_key(struct tui *t, wint_t ch)
{
#ifdef HAVE_PCP
	if (t->rp && (ch == '[' || ch == ']' || ch == 'p' || ch == '+' ||
		      ch == '-')) {
		replay_key(t, ch);
		return 1;
	}
#endif
	(void)t;
	(void)ch;
	return 0;
}

/* How long a sample lasts on the screen. */
static uint64_t period_ns(const struct tui *t)
{
	uint64_t p = (uint64_t)t->ui.interval_ms * 1000000;

#ifdef HAVE_PCP
	if (t->rp)
		p = t->rp->step_ns / t->speed;
#endif
	return p > INTERVAL_MIN_MS * 1000000ull ? p :
	       INTERVAL_MIN_MS * 1000000ull;
}

void tui_tick(struct tui *t, uint64_t now_ns)
{
	if (now_ns < t->next_ns)
		return;
	if (!t->rp || t->playing)
		tui_sample(t);
	t->next_ns += period_ns(t);
	/* fell behind (suspended, slow terminal): re-phase */
	if (t->next_ns <= now_ns)
		t->next_ns = now_ns + period_ns(t);
}

void tui_init(struct tui *t, const struct tui_clock *clock,
	      const struct options *o, struct sampler *smp, struct replay *rp,
	      struct command *cmd)
{
	memset(t, 0, sizeof(*t));
	t->smp = smp;
	t->rp = rp;
	t->cmd = cmd;
	t->playing = rp != NULL;
	t->speed = 1;
	t->count = o->count;
	t->clock = clock;
	/* before the terminal, so that ncurses keeps our handlers */
	install_signals();
}

/* The model and the UI state for @o. */
static void tui_setup(struct tui *t, const struct options *o)
{
#ifdef HAVE_PCP
	model_init(&t->model, t->rp ? replay_to_ns : csf_ticks_to_ns);
#else
	model_init(&t->model, csf_ticks_to_ns);
#endif
	t->ui.model = &t->model;
	t->ui.filter = o->filter;
	t->ui.sort_col = o->sort_col;
	t->ui.sort_desc = o->sort_desc;
	t->ui.processes = o->processes;
	t->ui.interval_ms = o->interval_ms;
	t->ui.clock_name = _(t->smp ? csf_clock_name(csf_clock()) : t->rp->clock);
#ifdef HAVE_PCP
	if (t->rp) {
		/* its step as the interval; set_place() names its clock */
		t->ui.interval_ms = (unsigned int)(t->rp->step_ns / 1000000);
	}
#endif
	t->ui.now_ns = tui_now(t);
}

void tui_start(struct tui *t, const struct options *o)
{
	tui_setup(t, o);
	tui_sample(t);
	t->next_ns = tui_now(t) + period_ns(t);
}

int tui_end(struct tui *t)
{
	int status = EXIT_SUCCESS;

	if (t->error) {
		fprintf(stderr, "%s: %s\n", PROGRAM,
#ifdef HAVE_PCP
			t->rp ? replay_strerror(t->error) :
#endif
			csf_strerror(t->error));
		status = EXIT_FAILURE;
	}
	model_free(&t->model);
	ui_free(&t->ui);
	return status;
}

void tui_die(struct tui *t)
{
	int sig = tui_signal;

	if (t->smp)
		sampler_close(t->smp);
#ifdef HAVE_PCP
	if (t->rp)
		replay_close(t->rp);
#endif
	signal(sig, SIG_DFL);
	raise(sig);
}
