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
 * which the session limits to the tree).
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
	for (size_t i = 0; i < t->in->smp.nthreads; i++) {
		const struct csf_snap *s = &t->in->smp.threads[i];

		if (s->state == CSF_STATE_EXITED)
			continue;	/* in the tree's sums already */
		csf_tree_add_snap(&tree, s);
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

/* Give the model the pages now. */
static int live_next(struct tui *t)
{
	int err = source_next(t->in, &t->model);

	if (!err) {
		t->ui.denied = t->in->smp.denied;
		t->ui.missed = t->in->smp.missed;
		if (t->cmd)
			command_header(t);
	}
	return err;
}

static void live_setup(struct tui *t)
{
	t->ui.clock_name = _(t->in->clock_name);
}

const struct tui_source tui_live = {
	.setup = live_setup,
	.next = live_next,
};

int tui_sample(struct tui *t)
{
	int err = t->src->next(t);

	if (err < 0) {
		t->error = err;
		return err;
	}
	if (err > 0)
		return 0;	/* nothing new: the end of an archive */
	t->samples++;
	if (t->count && t->samples >= t->count)
		t->quit = 1;
	tui_refresh_view(t);
	return 0;
}

int tui_goto(struct tui *t, const char *text, char *why, size_t len)
{
	if (!t->src->go_to)
		return -1;	/* no go-to prompt opens without one */
	return t->src->go_to(t, text, why, len);
}

int tui_replay_key(struct tui *t, wint_t ch)
{
	return t->src->key ? t->src->key(t, ch) : 0;
}

/* How long a sample lasts on the screen. */
static uint64_t period_ns(const struct tui *t)
{
	uint64_t p = t->src->period_ns ? t->src->period_ns(t) :
		     (uint64_t)t->ui.interval_ms * 1000000;

	return p > INTERVAL_MIN_MS * 1000000ull ? p :
	       INTERVAL_MIN_MS * 1000000ull;
}

void tui_tick(struct tui *t, uint64_t now_ns)
{
	if (now_ns < t->next_ns)
		return;
	if (!t->src->paused || !t->src->paused(t))
		tui_sample(t);
	t->next_ns += period_ns(t);
	/* fell behind (suspended, slow terminal): re-phase */
	if (t->next_ns <= now_ns)
		t->next_ns = now_ns + period_ns(t);
}

void tui_init(struct tui *t, const struct source_clock *clock,
	      const struct options *o, const struct tui_source *src,
	      struct source *in, struct command *cmd)
{
	memset(t, 0, sizeof(*t));
	t->src = src;
	t->in = in;
	source_set_clock(in, clock);
	t->cmd = cmd;
	t->speed = 1;
	t->count = o->count;
	t->clock = clock;
	/* before the terminal, so that ncurses keeps our handlers */
	install_signals();
}

/* The model and the UI state for @o. */
static void tui_setup(struct tui *t, const struct options *o)
{
	model_init(&t->model, t->in->ops->to_ns);
	t->ui.model = &t->model;
	t->ui.filter = o->filter;
	t->ui.sort_col = o->sort_col;
	t->ui.sort_desc = o->sort_desc;
	t->ui.processes = o->processes;
	t->ui.interval_ms = o->interval_ms;
	t->src->setup(t);
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
			t->in->ops->strerror(t->error));
		status = EXIT_FAILURE;
	}
	model_free(&t->model);
	ui_free(&t->ui);
	return status;
}

void tui_die(struct tui *t)
{
	int sig = tui_signal;

	t->in->ops->close(t->in);
	signal(sig, SIG_DFL);
	raise(sig);
}
