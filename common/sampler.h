/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sampler.h - read the pages for csftop and the PCP agent: the cpu page and
 * every registered thread's page, through the library's monitor API.
 *
 * The thread list is rescanned only when csf_generation() changes, so a
 * frame costs one seqcount read per thread and per CPU, no system call.
 */
#ifndef CSF_COMMON_SAMPLER_H
#define CSF_COMMON_SAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coarse_stat_fs.h"

struct sampler_map {
	pid_t tid;
	struct csf_thread_map *map;
	struct csf_hist *hist;		/* its histograms as last read, or NULL */
	uint64_t hist_since;		/* the snapshot's state_since then */
};

struct sampler {
	uint64_t gen;
	int have_gen;
	struct sampler_map *maps;	/* sorted by tid */
	size_t nmaps;
	pid_t *tids;			/* scratch for csf_threads_list */
	size_t tids_cap;
	struct csf_snap *snaps;		/* this frame's threads */
	size_t nsnaps, snaps_cap;
	/*
	 * By snapshot: its thread's histograms, read this frame because an
	 * interval closed since the last read (the page's state_since
	 * moved), or NULL: nothing new, and ~1.9 KB not copied; and the last
	 * read, whenever it was (NULL: none, as of a page of ABI 1.0).  Valid
	 * until the next sampler_read().
	 */
	const struct csf_hist **hists;
	const struct csf_hist **lasts;
	struct csf_hist **retired;	/* of unmapped threads: freed next read */
	size_t nretired;
	struct csf_cpu_snap *cpus;
	unsigned int ncpus;
	unsigned int denied;		/* registered but not ours to map */
	uint64_t missed;		/* the module's nr_missed */
	pid_t tree;			/* set: only this tree's threads */
	int no_hists;			/* set: none read, nothing needs them */
};

/* Map the cpu page.  Returns 0 or a negative errno (csf_strerror). */
int sampler_open(struct sampler *s);
/* Read one frame into s->snaps and s->cpus.  0 or a negative errno. */
int sampler_read(struct sampler *s);
void sampler_close(struct sampler *s);

#endif /* CSF_COMMON_SAMPLER_H */
