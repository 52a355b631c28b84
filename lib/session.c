// SPDX-License-Identifier: MIT
/*
 * session.c - a monitor session: one sample of every visible thread and
 * CPU at a time, the threads mapped once each and listed again only when
 * the module's generation changes.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct csf_session_map {
	pid_t tid;		/* negated: unlisted, read once more */
	struct csf_thread_map *map;
	struct csf_hist *hist;	/* its histograms as last read, or NULL */
	uint64_t hist_since;	/* the snapshot's state_since then */
};

struct csf_session {
	uint64_t gen;
	int have_gen;
	struct csf_session_map *maps;	/* sorted by tid */
	size_t nmaps;
	pid_t *tids;			/* scratch for csf_threads_list */
	size_t tids_cap;
	struct csf_snap *snaps;		/* this sample's threads */
	size_t nsnaps, snaps_cap;
	const struct csf_hist **hists;	/* csf_sample.hists and lasts */
	const struct csf_hist **lasts;
	struct csf_hist **retired;	/* unmapped ones': freed next read */
	size_t nretired;
	struct csf_cpu_snap *cpus;
	unsigned int ncpus;
	unsigned int denied;
	uint64_t missed;
	pid_t tree;			/* set: only this tree's threads */
	int no_hists;			/* set: none read */
};

CSF_PUBLIC int csf_session_open(struct csf_session **out)
{
	struct csf_session *s;
	int n = csf_cpu_count();

	*out = NULL;
	if (n < 0)
		return n;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cpus = calloc(n ? (size_t)n : 1, sizeof(*s->cpus));
	if (!s->cpus) {
		free(s);
		return -ENOMEM;
	}
	s->ncpus = (unsigned int)n;
	*out = s;
	return 0;
}

CSF_PUBLIC void csf_session_tree(struct csf_session *s, pid_t root)
{
	s->tree = root;
}

CSF_PUBLIC void csf_session_hists(struct csf_session *s, int on)
{
	s->no_hists = !on;
}

CSF_PUBLIC void csf_session_close(struct csf_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmaps; i++) {
		csf_thread_unmap(s->maps[i].map);
		free(s->maps[i].hist);
	}
	for (size_t i = 0; i < s->nretired; i++)
		free(s->retired[i]);
	free(s->retired);
	free(s->maps);
	free(s->tids);
	free(s->snaps);
	free(s->hists);
	free(s->lasts);
	free(s->cpus);
	free(s);
}


/* The registered tids, sorted (csf_threads_list sorts them). */
static int list_tids(struct csf_session *s, size_t *n)
{
	for (;;) {
		int got = csf_threads_list(s->tids, s->tids_cap);
		pid_t *tids;
		size_t cap;

		if (got < 0)
			return got;
		if ((size_t)got <= s->tids_cap) {
			*n = (size_t)got;
			return 0;
		}
		/* threads registered since: ask again with room to spare */
		cap = (size_t)got + (size_t)got / 4 + 16;
		tids = realloc(s->tids, cap * sizeof(*tids));
		if (!tids)
			return -ENOMEM;
		s->tids = tids;
		s->tids_cap = cap;
	}
}

/*
 * Merge the fresh list into the maps: map newcomers; keep maps of tids no
 * longer listed, with map->tid negated, so that their final (exited) page is
 * read once more and then released.
 */
static int rescan(struct csf_session *s)
{
	struct csf_session_map *out;
	size_t n, i = 0, j = 0, k = 0;
	int err = list_tids(s, &n);

	if (err)
		return err;
	out = malloc((s->nmaps + n + 1) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	s->denied = 0;
	while (i < s->nmaps || j < n) {
		struct csf_session_map *o = i < s->nmaps ? &s->maps[i] : NULL;
		pid_t otid = o ? (o->tid < 0 ? -o->tid : o->tid) : 0;

		if (o && (j >= n || otid < s->tids[j])) {
			out[k] = *o;
			out[k++].tid = -otid;	/* unlisted: last read */
			i++;
		} else if (o && otid == s->tids[j]) {
			out[k] = *o;
			out[k++].tid = otid;
			i++;
			j++;
		} else {
			struct csf_thread_map *map;
			int r = csf_thread_map(s->tids[j], &map);

			if (!r) {
				memset(&out[k], 0, sizeof(out[k]));
				out[k].tid = s->tids[j];
				out[k++].map = map;
			} else if (r == -EACCES || r == -EPERM) {
				s->denied++;
			}
			/* -ENOENT: exited between list and map */
			j++;
		}
	}
	free(s->maps);
	s->maps = out;
	s->nmaps = k;
	return 0;
}

/*
 * Snapshot @k's histograms, when an interval closed since the last read:
 * most threads of a frame have not switched, and their ~1.9 KB stays
 * where it is.  A page too old to have them (ABI 1.0) has none.
 */
static void sample_hist(struct csf_session *s, struct csf_session_map *m,
			size_t k)
{
	uint64_t since = s->snaps[k].state_since;

	s->hists[k] = NULL;
	if (!m->hist || m->hist_since != since) {
		if (!m->hist)
			m->hist = malloc(sizeof(*m->hist));
		if (m->hist && !csf_thread_read_hist(m->map, m->hist)) {
			s->hists[k] = m->hist;
			m->hist_since = since;
		} else {
			free(m->hist);
			m->hist = NULL;
		}
	}
	s->lasts[k] = m->hist;
}

/* An unmapped thread's last read, kept for this frame's readers. */
static void retire_hist(struct csf_session *s, struct csf_session_map *m,
			size_t n)
{
	struct csf_hist **r;

	if (!m->hist)
		return;
	r = realloc(s->retired, (s->nretired + 1) * sizeof(*r));
	if (r) {
		s->retired = r;
		s->retired[s->nretired++] = m->hist;
	} else {
		/* without room to keep it, the frame shows it without one */
		for (size_t k = 0; k < n; k++)
			if (s->lasts[k] == m->hist)
				s->lasts[k] = s->hists[k] = NULL;
		free(m->hist);
	}
	m->hist = NULL;
}

/* How far ahead pages are prefetched (doc/measurements.md, csftop). */
#define CSF_SESSION_PREFETCH 8

static void sample_of(struct csf_session *s, struct csf_sample *out)
{
	out->threads = s->snaps;
	out->nthreads = s->nsnaps;
	out->hists = s->hists;
	out->lasts = s->lasts;
	out->cpus = s->cpus;
	out->ncpus = s->ncpus;
	out->denied = s->denied;
	out->missed = s->missed;
}

CSF_PUBLIC int csf_session_read(struct csf_session *s, struct csf_sample *out)
{
	struct csf_module_stats ms;
	size_t k = 0, keep = 0;
	int err;

	/* the last frame's unmapped threads' reads: nobody reads them now */
	for (size_t i = 0; i < s->nretired; i++)
		free(s->retired[i]);
	s->nretired = 0;
	err = csf_module_stats(&ms);
	if (err)
		return err;
	s->missed = ms.nr_missed;
	if (!s->have_gen || ms.generation != s->gen) {
		err = rescan(s);
		if (err)
			return err;
		s->gen = ms.generation;
		s->have_gen = 1;
	}
	if (s->snaps_cap < s->nmaps) {
		size_t n = s->nmaps;
		struct csf_snap *snaps = realloc(s->snaps, n * sizeof(*snaps));
		const struct csf_hist **hists;

		if (!snaps)
			return -ENOMEM;
		s->snaps = snaps;
		hists = realloc(s->hists, n * sizeof(*hists));
		if (!hists)
			return -ENOMEM;
		s->hists = hists;
		hists = realloc(s->lasts, n * sizeof(*hists));
		if (!hists)
			return -ENOMEM;
		s->lasts = hists;
		s->snaps_cap = n;
	}
	/* pages a few threads ahead are loading while one is copied */
	for (size_t i = 0; i < CSF_SESSION_PREFETCH && i < s->nmaps; i++)
		csf_thread_prefetch(s->maps[i].map);
	for (size_t i = 0; i < s->nmaps; i++) {
		struct csf_session_map *m = &s->maps[i];

		if (i + CSF_SESSION_PREFETCH < s->nmaps)
			csf_thread_prefetch(
				s->maps[i + CSF_SESSION_PREFETCH].map);

		/* a thread joins its tree at registration: ask each time */
		if (s->tree &&
		    csf_thread_tree(m->map) != (uint32_t)s->tree) {
			/* not the command's: mapped, not shown */
		} else if (!csf_thread_read(m->map, &s->snaps[k])) {
			if (s->no_hists)
				s->hists[k] = s->lasts[k] = NULL;
			else
				sample_hist(s, m, k);
			k++;
		}
		if (m->tid < 0) {
			csf_thread_unmap(m->map);
			retire_hist(s, m, k);
			continue;
		}
		s->maps[keep++] = *m;
	}
	s->nmaps = keep;
	s->nsnaps = k;
	err = csf_cpu_snap(s->cpus, s->ncpus);
	if (err < 0)
		return err;
	sample_of(s, out);
	return 0;
}
