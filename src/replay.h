/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h - csftop -a: the other source of samples.  It reads a PCP
 * archive of csf metrics (pmdacsf(1)) and gives the same arrays of struct
 * csf_snap and struct csf_cpu_snap as the live session
 * (csf_session_read(3)), so the model and the view do not know where
 * samples come from.
 *
 * Samples are the archive's values interpolated, as pmrep(1) and pmval(1)
 * read archives: by default at the times of its records of threads (or
 * CPUs), so that each shows the values as they were logged; with a step,
 * at that step from the start of the window.  Times in the
 * snapshots are nanoseconds of the archive's clock (since the epoch): the
 * model is to convert them with the identity.
 */
#ifndef CSFTOP_REPLAY_H
#define CSFTOP_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "coarse_stat_fs.h"

struct metric;

struct replay {
	int ctx;			/* the archive's PCP context */
	int npmids;
	unsigned int *pmids;		/* pmID: what each sample fetches */
	const struct metric **metrics;	/* the table's entry of each */
	int *types;			/* and its type in the archive */
	uint64_t *times;		/* sample k is at times[k], or */
	uint64_t start_ns, step_ns;	/* start + k * step without times */
	uint64_t log_start_ns, log_end_ns; /* the whole archive's span */
	size_t nsamples;
	size_t pos;			/* the sample last read */
	int have_threads;		/* the archive has csf.thread metrics */
	int key;			/* the metric whose values make a thread */
	char clock[16];			/* csf.module.clock, or "unknown" */
	struct csf_snap *snaps;		/* sample pos's threads, by tid */
	size_t nsnaps, snaps_cap;
	struct csf_cpu_snap *cpus;
	unsigned int ncpus, cpus_cap;
};

/*
 * replay_open - open @archive (a file name of an archive, or its base name)
 * for samples from @start to @finish, in PCP's time syntax (PCPIntro(1),
 * "-S" and "-T"; NULL: its start and end), @step_ms apart (0: at its
 * records).  On failure returns a negative errno or PCP error
 * code, with what went wrong in @msg.
 */
int replay_open(struct replay *r, const char *archive, const char *start,
		const char *finish, unsigned int step_ms, char *msg,
		size_t msglen);

/*
 * replay_read - read sample @k (< nsamples) into snaps and cpus.  Returns
 * 0, or a negative errno or PCP error code (replay_strerror).
 */
int replay_read(struct replay *r, size_t k);

/*
 * replay_parse_time - @text, a time in PCP's syntax as for -S (an absolute
 * "@ 10:30", a "+5min" from the archive's start, "-1min" from its end), in
 * nanoseconds since the epoch.  0, or -EINVAL (not a time) or -ERANGE (not
 * in the archive) with why in @msg.
 */
int replay_parse_time(const struct replay *r, const char *text,
		      uint64_t *t_ns, char *msg, size_t msglen);

/* The sample at or before @t_ns (the first for an earlier time). */
size_t replay_find(const struct replay *r, uint64_t t_ns);

/* When sample @k is, in nanoseconds since the epoch. */
static inline uint64_t replay_time(const struct replay *r, size_t k)
{
	return r->times ? r->times[k] : r->start_ns + k * r->step_ns;
}

/* The model's conversion of a replay's times: they are nanoseconds. */
static inline uint64_t replay_to_ns(uint64_t t)
{
	return t;
}

/* What a negative value of the calls above means. */
const char *replay_strerror(int err);

void replay_close(struct replay *r);

#endif /* CSFTOP_REPLAY_H */
