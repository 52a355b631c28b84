// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csftop.c - csftop's main: options (options.c), then the batch loop here
 * or the interactive one (tui.c).
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
#include "options.h"
#include "sampler.h"
#include "tui.h"

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* --- batch ---------------------------------------------------------- */

static int run_batch(const struct options *o, struct sampler *smp)
{
	struct model m;
	struct batch_opts bo = {
		.format = o->format,
		.sort_col = o->sort_col,
		.sort_desc = o->sort_desc,
		.filter = &o->filter,
		.clock_name = sampler_clock_key(),
		.clock_label = _(sampler_clock_key()),
	};
	struct batch_buf buf = { 0 };
	struct timespec next;
	int err = 0;

	model_init(&m, csf_ticks_to_ns);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; !o->count || i < o->count; i++) {
		if (i) {
			/* absolute deadlines: the period does not drift */
			next.tv_nsec += (long)(o->interval_ms % 1000) *
					1000000;
			next.tv_sec += o->interval_ms / 1000 +
				       next.tv_nsec / 1000000000;
			next.tv_nsec %= 1000000000;
			while (clock_nanosleep(CLOCK_MONOTONIC,
					       TIMER_ABSTIME, &next, NULL) ==
			       EINTR)
				;
		}
		err = sampler_read(smp);
		if (!err)
			err = model_sample(&m, smp->snaps, smp->nsnaps,
					   smp->cpus, smp->ncpus, mono_ns());
		if (err) {
			fprintf(stderr, "%s: %s\n", PROGRAM,
				csf_strerror(err));
			break;
		}
		bo.time_ns = wall_ns();
		err = batch_print(stdout, model_shown(&m), &bo, &buf);
		if (err) {
			fprintf(stderr, _("%s: write error: %s\n"), PROGRAM,
				strerror(-err));
			break;
		}
	}
	batch_buf_free(&buf);
	model_free(&m);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	struct options o;
	struct sampler smp;
	int status, err;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	status = parse_options(argc, argv, &o);
	if (status >= 0)
		return status;

	err = sampler_open(&smp);
	if (err) {
		fprintf(stderr, "%s: %s\n", PROGRAM, csf_strerror(err));
		return EXIT_FAILURE;
	}
	if (o.batch)
		status = run_batch(&o, &smp);
	else
		status = run_tui(&o, &smp);
	sampler_close(&smp);
	return status;
}
