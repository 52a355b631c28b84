/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h - where csftop's samples come from, for the batch loop
 * (csftop.c) and the screen (tui.c) alike: the pages, through the
 * library's monitor session (source.c), or a PCP archive
 * (source_archive.c, built with PCP only).  Adding one is one file with
 * one struct source_ops and its constructor.
 */
#ifndef CSFTOP_SOURCE_H
#define CSFTOP_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "coarse_stat_fs.h"
#include "model.h"

struct machine;
struct replay;

/*
 * A clock in ns.  The pages' samples keep the times their reads took
 * unless time_sample is set: a clock that is not the pages' (the screen
 * test driver's) then times each sample just read, so that shares and
 * rates follow it.
 */
struct source_clock {
	uint64_t (*now)(const struct source_clock *c);
	void (*time_sample)(const struct source_clock *c,
			    struct csf_sample *smp);
};

/* CLOCK_MONOTONIC, the clock of every program but the test driver. */
extern const struct source_clock source_mono;

struct source;

/*
 *   to_ns     ticks of its samples to ns, for the model
 *   read      its sample @k into @m (the pages have one, now, whatever
 *             @k says): 0 or a negative error for strerror
 *   count     how many samples it has (SIZE_MAX: no end)
 *   strerror  a read's error, said
 *   close     release it
 *   hists     read the threads' histograms or not (NULL: it has none)
 *   paced     1: a sample is taken when read, so a loop waits its period
 *             between reads; 0: they are recorded, read them at once
 */
struct source_ops {
	uint64_t (*to_ns)(uint64_t ticks);
	int (*read)(struct source *s, size_t k, struct model *m);
	size_t (*count)(const struct source *s);
	const char *(*strerror)(int err);
	void (*close)(struct source *s);
	void (*hists)(struct source *s, int on);
	int paced;
};

struct source {
	const struct source_ops *ops;
	const char *name;		/* an archive's, for its errors */
	size_t pos;			/* the sample last read, or tried */
	size_t nread;			/* samples read */
	uint64_t time_ns;		/* wall-clock time of sample pos */
	const char *clock_name;		/* its clock's, untranslated */
	struct csf_session *ses;	/* the pages' */
	struct csf_sample smp;		/* ses's last sample */
	const struct source_clock *clock;	/* times the pages' samples */
	struct replay *rp;		/* an archive's */
	struct machine *all;		/* -A: scanned before each sample */
};

/* The pages of @ses, timed by @clock. */
void source_pages(struct source *s, struct csf_session *ses,
		  const struct source_clock *clock);
/* From now on the pages' samples are timed by @clock (an archive's keep
 * their recorded times). */
void source_set_clock(struct source *s, const struct source_clock *clock);
/* The samples of @rp, opened from @name. */
void source_archive(struct source *s, struct replay *rp, const char *name);

/* Sample @k into @m: 0, or a negative error (source_perror()). */
int source_read(struct source *s, size_t k, struct model *m);
/*
 * The sample after the last one read (the first, at first) into @m: 0, 1
 * when the source has no more, or a negative error.
 */
int source_next(struct source *s, struct model *m);
/* Say on stderr what error @err of sample s->pos was. */
void source_perror(const struct source *s, int err);

#endif /* CSFTOP_SOURCE_H */
