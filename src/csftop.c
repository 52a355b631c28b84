// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csftop.c - csftop's main: options (options.c), then the batch loop here
 * or the screen (tui.c, on term.c's terminal or script.c's), on the pages
 * or on an archive (-a, replay.c).
 */
#include <config.h>

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "i18n.h"
#include "machine.h"
#include "options.h"
#include "script.h"
#include "source.h"
#include "spawn.h"
#include "term.h"
#include "tui.h"
#include "view.h"
#ifdef HAVE_PCP
#include "replay.h"
#endif

/*
 * The screen until q, a signal or an error: the exit status.  On the
 * user's terminal, or on the test driver's when CSFTOP_SCRIPT names a key
 * script (tests/tui).
 */
static int run_tui(const struct options *o, const struct tui_source *ts,
		   struct source *in, struct command *cmd)
{
	const char *script = getenv("CSFTOP_SCRIPT");
	struct tui_driver *d = script && *script ? script_driver(script) :
			       term_driver();
	int status = EXIT_FAILURE;
	struct tui t;

	tui_init(&t, d->clock, o, ts, in, cmd);
	if (!d->open(d)) {
		tui_start(&t, o);
		view_init(&t.ui);
		if (!t.error)
			view_draw(&t.ui);
		d->run(d, &t);
		d->close(d);
		status = tui_end(&t);
		view_free();
	} else {
		d->close(d);
	}
	/* die of it, so the parent sees why we stopped */
	if (tui_signal)
		tui_die(&t);
	return status;
}

/* --- batch ---------------------------------------------------------- */

static int print_screen(const struct model *m, const struct batch_opts *bo,
			struct batch_buf *buf)
{
	int err = batch_print(stdout, m, bo, buf);

	if (err)
		fprintf(stderr, _("%s: write error: %s\n"), PROGRAM,
			strerror(-err));
	return err;
}

/* What -b prints, from the options. */
static struct batch_opts batch_opts(const struct options *o)
{
	struct batch_opts bo = {
		.format = o->format,
		.sort_col = o->sort_col,
		.sort_desc = o->sort_desc,
		.filter = &o->filter,
		.processes = o->processes,
	};

	return bo;
}

/* Sleep until @next, a period of @ms after the last: it does not drift. */
static void sleep_period(struct timespec *next, unsigned int ms)
{
	next->tv_nsec += (long)(ms % 1000) * 1000000;
	next->tv_sec += ms / 1000 + next->tv_nsec / 1000000000;
	next->tv_nsec %= 1000000000;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) ==
	       EINTR)
		;
}

/*
 * -b: samples of @in until -n COUNT are printed, @in has no more, or the
 * command (-- COMMAND, @cmd) has exited, whichever is first.  The pages
 * are read every -d ms, an archive's samples as fast as they print.
 */
static int run_batch(const struct options *o, struct source *in,
		     struct command *cmd)
{
	struct model m;
	struct batch_opts bo = batch_opts(o);
	struct batch_buf buf = { 0 };
	struct timespec next;
	int err = 0;

	model_init(&m, in->ops->to_ns);
	/* no freeze, diff or detail view later: only the output needs them */
	if (in->ops->hists)
		in->ops->hists(in, batch_needs_hists(&bo));
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; !o->count || i < o->count; i++) {
		if (cmd && command_poll(cmd, 0))
			break;
		if (i && in->ops->paced)
			sleep_period(&next, o->interval_ms);
		err = source_next(in, &m);
		if (err) {
			if (err < 0)
				source_perror(in, err);
			break;
		}
		bo.clock_name = in->clock_name;
		bo.clock_label = _(in->clock_name);
		bo.time_ns = in->time_ns;
		err = print_screen(&m, &bo, &buf);
		if (err)
			break;
	}
	batch_buf_free(&buf);
	model_free(&m);
	return err < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The batch loop or the screen on @in, which @ts shows: the exit status. */
static int run(const struct options *o, struct source *in,
	       const struct tui_source *ts, struct command *cmd)
{
	return o->batch ? run_batch(o, in, cmd) : run_tui(o, ts, in, cmd);
}

#ifdef HAVE_PCP
static int replay(const struct options *o)
{
	struct replay rp;
	struct source in;
	char msg[512];
	int status;

	if (replay_open(&rp, o->archive, o->start, o->finish,
			o->interval_set ? o->interval_ms : 0, msg,
			sizeof(msg))) {
		fprintf(stderr, "%s: %s\n", PROGRAM, msg);
		return EXIT_FAILURE;
	}
	if (!rp.have_threads)
		fprintf(stderr, _("%s: %s has no csf.thread metrics: only the "
				  "CPUs are shown (record the threads "
				  "pmlogconf group, pmdacsf(1))\n"), PROGRAM,
			o->archive);
	source_archive(&in, &rp, o->archive);
	status = run(o, &in, &tui_archive, NULL);
	replay_close(&rp);
	return status;
}
#endif

static const char *attach_strerror(int err)
{
	switch (-err) {
	case EPERM:
	case EACCES:
		return _("permission denied: not your process, or it is not "
			 "dumpable (the rule of ptrace and /proc, "
			 "coarse_stat_fs(7))");
	case ESRCH:
		return _("no such process");
	case ENOSPC:
		return _("the module's registration cap is reached (module "
			 "parameter max_threads)");
	case EOPNOTSUPP:
		return _("this coarse_stat_fs module cannot attach (it is "
			 "older than ABI 1.2)");
	default:
		return strerror(-err);
	}
}

/*
 * -p: register the threads of each process, and with inherit the threads
 * and processes it starts from now on.  One that cannot be attached is
 * named with the reason; its threads registered anyway are still shown.
 */
static void attach_pids(const struct filter *f)
{
	for (size_t i = 0; i < f->npids; i++) {
		int err = csf_attach(f->pids[i], CSF_ATTACH_INHERIT);

		if (err)
			fprintf(stderr, _("%s: cannot attach to %d: %s\n"),
				PROGRAM, (int)f->pids[i],
				attach_strerror(err));
		if (err == -EOPNOTSUPP)
			break;
	}
}

/*
 * -- COMMAND: run it registered with inherit, show only its tree, and once
 * it has exited (batch: waited for) say how it ended and the tree's total
 * as csf-run does.  The exit status is the command's once it has exited.
 */
static int run_command(const struct options *o, struct csf_session *ses)
{
	struct command cmd = {
		.argv = o->command,
		.io = o->batch ? COMMAND_IO_STDERR : COMMAND_IO_NULL,
	};
	struct csf_tree tree;
	struct source in;
	int status, err;

	err = command_start(&cmd);
	if (err) {
		if (err < 0)
			fprintf(stderr, _("%s: cannot register %s: %s\n"),
				PROGRAM, cmd.argv[0], csf_strerror(err));
		else
			fprintf(stderr, "%s: %s: %s\n", PROGRAM, cmd.argv[0],
				strerror(err));
		csf_session_close(ses);
		return EXIT_FAILURE;
	}
	csf_session_tree(ses, cmd.pid);
	source_pages(&in, ses, &source_mono);
	status = run(o, &in, &tui_live, &cmd);
	csf_session_close(ses);
	/* batch waits for it, as csf-run; q on the screen does not */
	err = command_poll(&cmd, o->batch);
	if (err < 0)
		fprintf(stderr, "%s: waitpid: %s\n", PROGRAM, strerror(-err));
	err = csf_thread_read_tree(cmd.root, &tree);
	if (err)
		fprintf(stderr, _("%s: cannot read the tree of %s: %s\n"),
			PROGRAM, cmd.argv[0], csf_strerror(err));
	else
		command_report(stderr, PROGRAM, &cmd, &tree);
	command_close(&cmd);
	if (status != EXIT_SUCCESS || err)
		return EXIT_FAILURE;
	return command_status(&cmd);
}

/* -A: the whole machine, or else the caller's processes, and why. */
static void watch_all(struct machine *all)
{
	int err = machine_start(all);

	if (err == -EPERM || err == -EACCES)
		fprintf(stderr, _("%s: not root: your own processes only\n"),
			PROGRAM);
	else if (err == -EOPNOTSUPP)
		fprintf(stderr, _("%s: this module is older than ABI 1.4: "
				  "processes are attached one by one\n"),
			PROGRAM);
	else if (err)
		fprintf(stderr, _("%s: cannot register the whole machine: "
				  "%s\n"), PROGRAM, attach_strerror(err));
}

int main(int argc, char **argv)
{
	struct options o;
	struct csf_session *ses;
	struct machine all = { 0 };
	struct source in;
	int status, err;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	status = parse_options(argc, argv, &o);
	if (status >= 0)
		return status;

	if (o.archive) {
#ifdef HAVE_PCP
		return replay(&o);
#else
		fprintf(stderr, _("%s: -a: this csftop was built without "
				  "Performance Co-Pilot (configure "
				  "--with-pcp, with libpcp3-dev installed)\n"),
			PROGRAM);
		return EXIT_USAGE;
#endif
	}
	err = csf_session_open(&ses);
	if (err) {
		fprintf(stderr, "%s: %s\n", PROGRAM, csf_strerror(err));
		return EXIT_FAILURE;
	}
	attach_pids(&o.filter);
	if (o.command)
		return run_command(&o, ses);
	source_pages(&in, ses, &source_mono);
	if (o.all) {
		in.all = &all;
		watch_all(&all);
	}
	status = run(&o, &in, &tui_live, NULL);
	csf_session_close(ses);
	machine_free(&all);
	return status;
}
