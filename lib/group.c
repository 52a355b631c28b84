// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * group.c - a process's or a tree's sums, and the exited threads' by
 * process (csf_group_add(3)).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

CSF_PUBLIC void csf_group_add(struct csf_group *g,
				const struct csf_group *t)
{
	for (int k = 0; k < CSF_NR_STATES; k++)
		g->time_ns[k] += t->time_ns[k];
	g->nvcsw += t->nvcsw;
	g->nivcsw += t->nivcsw;
	g->wakeups += t->wakeups;
	g->migrations += t->migrations;
}

CSF_PUBLIC struct csf_group csf_group_of_snap(const struct csf_snap *t)
{
	struct csf_group g = {
		.tgid = t->tgid,
		.nvcsw = t->nvcsw, .nivcsw = t->nivcsw,
		.wakeups = t->wakeups, .migrations = t->migrations,
	};

	for (int k = 0; k < CSF_NR_STATES; k++)
		g.time_ns[k] = csf_ticks_to_ns(t->time[k]);
	return g;
}

CSF_PUBLIC void csf_tree_add_snap(struct csf_tree *tree,
				    const struct csf_snap *t)
{
	struct csf_group g = csf_group_of_snap(t);

	tree->run_ns += g.time_ns[CSF_STATE_RUNNING];
	tree->runnable_ns += g.time_ns[CSF_STATE_RUNNABLE];
	tree->sleep_ns += g.time_ns[CSF_STATE_SLEEPING];
	tree->iowait_ns += g.time_ns[CSF_STATE_IOWAIT];
	tree->blocked_ns += g.time_ns[CSF_STATE_BLOCKED];
	tree->nvcsw += g.nvcsw;
	tree->nivcsw += g.nivcsw;
	tree->wakeups += g.wakeups;
	tree->migrations += g.migrations;
}

/* The first entry whose tgid is not below @tgid. */
static size_t lower_bound(const struct csf_gone *gg, uint32_t tgid)
{
	size_t lo = 0, hi = gg->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (gg->v[mid].tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

CSF_PUBLIC const struct csf_group *csf_gone_find(const struct csf_gone *gg,
						 uint32_t tgid)
{
	size_t at = lower_bound(gg, tgid);

	return at < gg->n && gg->v[at].tgid == tgid ? &gg->v[at] : NULL;
}

CSF_PUBLIC int csf_gone_reserve(struct csf_gone *gg, size_t n)
{
	size_t cap = gg->cap ? gg->cap : 16;
	struct csf_group *v;

	if (n <= gg->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	v = realloc(gg->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	gg->v = v;
	gg->cap = cap;
	return 0;
}

CSF_PUBLIC int csf_gone_copy(struct csf_gone *dst,
			     const struct csf_gone *src)
{
	if (csf_gone_reserve(dst, src->n))
		return -ENOMEM;
	if (src->n)
		memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = src->n;
	return 0;
}

CSF_PUBLIC int csf_gone_add(struct csf_gone *gg, const struct csf_group *t)
{
	size_t at = lower_bound(gg, t->tgid);

	if (at == gg->n || gg->v[at].tgid != t->tgid) {
		if (csf_gone_reserve(gg, gg->n + 1))
			return -ENOMEM;
		memmove(&gg->v[at + 1], &gg->v[at],
			(gg->n - at) * sizeof(*gg->v));
		memset(&gg->v[at], 0, sizeof(gg->v[at]));
		gg->v[at].tgid = t->tgid;
		gg->n++;
	}
	csf_group_add(&gg->v[at], t);
	return 0;
}

CSF_PUBLIC void csf_gone_keep(struct csf_gone *gg,
			      int (*shown)(const void *arg, uint32_t tgid),
			      const void *arg)
{
	size_t keep = 0;

	for (size_t i = 0; i < gg->n; i++)
		if (shown(arg, gg->v[i].tgid))
			gg->v[keep++] = gg->v[i];
	gg->n = keep;
}

CSF_PUBLIC void csf_gone_clear(struct csf_gone *gg)
{
	gg->n = 0;
}

CSF_PUBLIC void csf_gone_free(struct csf_gone *gg)
{
	free(gg->v);
	memset(gg, 0, sizeof(*gg));
}
