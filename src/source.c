// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - csftop's samples, see source.h; the pages' source.
 */
#include <config.h>

#include <stdio.h>
#include <time.h>

#include "i18n.h"
#include "machine.h"
#include "options.h"
#include "source.h"

static uint64_t mono_now(const struct source_clock *c)
{
	struct timespec ts;

	(void)c;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const struct source_clock source_mono = { mono_now, NULL };

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int pages_read(struct source *s, size_t k, struct model *m)
{
	struct csf_sample *smp = &s->smp;
	int err;

	(void)k;
	if (s->all)
		machine_scan(s->all);
	err = csf_session_read(s->ses, smp);
	if (err)
		return err;
	if (s->clock->time_sample)
		s->clock->time_sample(s->clock, smp);
	s->time_ns = wall_ns();
	return model_sample(m, smp->threads, smp->hists, smp->nthreads,
			    smp->cpus, smp->ncpus, s->clock->now(s->clock));
}

static size_t pages_count(const struct source *s)
{
	(void)s;
	return SIZE_MAX;
}

static void pages_close(struct source *s)
{
	csf_session_close(s->ses);
}

static void pages_hists(struct source *s, int on)
{
	csf_session_hists(s->ses, on);
}

static const struct source_ops pages_ops = {
	.to_ns = csf_ticks_to_ns,
	.read = pages_read,
	.count = pages_count,
	.strerror = csf_strerror,
	.close = pages_close,
	.hists = pages_hists,
	.paced = 1,
};

void source_pages(struct source *s, struct csf_session *ses,
		  const struct source_clock *clock)
{
	*s = (struct source){
		.ops = &pages_ops,
		.ses = ses,
		.clock = clock,
		.clock_name = csf_clock_name(csf_clock()),
	};
}

void source_set_clock(struct source *s, const struct source_clock *clock)
{
	s->clock = clock;
}

int source_read(struct source *s, size_t k, struct model *m)
{
	int err;

	s->pos = k;
	err = s->ops->read(s, k, m);
	if (!err)
		s->nread++;
	return err;
}

int source_next(struct source *s, struct model *m)
{
	size_t k = s->nread ? s->pos + 1 : 0;

	if (k >= s->ops->count(s))
		return 1;
	return source_read(s, k, m);
}

void source_perror(const struct source *s, int err)
{
	if (s->name)
		fprintf(stderr, _("%s: %s, sample %zu: %s\n"), PROGRAM,
			s->name, s->pos + 1, s->ops->strerror(err));
	else
		fprintf(stderr, "%s: %s\n", PROGRAM, s->ops->strerror(err));
}
