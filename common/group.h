/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * group.h - a process's sums, with one rule for its exited threads, for
 * csftop's process rows and the PCP agent's csf.proc alike:
 *
 *   A process's times and counters are its threads' totals: those running
 *   now, and those that exited while the monitor watched.  The exited
 *   ones' stay in the sum until the process has no thread left to show.
 *
 * A thread that exits leaves the monitor its last page, once; the monitor
 * folds it into a table of exited sums by tgid (struct group_gone), which
 * the process's row adds to its live threads'.
 */
#ifndef CSF_COMMON_GROUP_H
#define CSF_COMMON_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "coarse_stat_fs.h"

/* What a group adds up: nanoseconds per state, and counters. */
struct group_sum {
	uint32_t tgid;
	uint64_t time_ns[CSF_NR_STATES];
	uint64_t nvcsw, nivcsw, wakeups, migrations;
};

/* The exited threads' sums, one per process, sorted by tgid. */
struct group_gone {
	struct group_sum *v;
	size_t n, cap;
};

/* Add @t's totals to @g. */
void group_add(struct group_sum *g, const struct group_sum *t);
/* A snapshot's totals, its clock ticks in nanoseconds. */
struct group_sum group_of_snap(const struct csf_snap *t);
/* Add @t's totals to the sums of the tree @tree (the command's header). */
void group_add_to_tree(struct csf_tree *tree, const struct csf_snap *t);

/* Room for @n processes in all, so that adding cannot fail; 0 or -ENOMEM. */
int group_gone_reserve(struct group_gone *gg, size_t n);
/* @dst, a copy of @src; 0 or -ENOMEM (@dst unchanged). */
int group_gone_copy(struct group_gone *dst, const struct group_gone *src);
/*
 * Fold @t, an exited thread of process @t->tgid, in; 0 or -ENOMEM, which
 * it never is with room reserved for its process.
 */
int group_gone_add(struct group_gone *gg, const struct group_sum *t);
/* Process @tgid's exited threads' sums, or NULL. */
const struct group_sum *group_gone_find(const struct group_gone *gg,
					uint32_t tgid);
/*
 * Drop the sums of the processes @shown(@arg, tgid) says are no longer
 * shown: a process with no thread left takes its exited ones' with it.
 */
void group_gone_keep(struct group_gone *gg,
		     int (*shown)(const void *arg, uint32_t tgid),
		     const void *arg);
void group_gone_clear(struct group_gone *gg);
void group_gone_free(struct group_gone *gg);

#endif /* CSF_COMMON_GROUP_H */
