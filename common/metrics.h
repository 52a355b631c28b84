/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics.h - the csf metrics of Performance Co-Pilot, in one table
 * (metrics.c) that both ends read: the agent, which serves them from the
 * pages (pmda/pmdacsf.c), and csftop -a, which turns an archive of them
 * back into snapshots (src/replay.c).
 */
#ifndef CSF_COMMON_METRICS_H
#define CSF_COMMON_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include <pcp/pmapi.h>

#include "coarse_stat_fs.h"

enum { CPU_INDOM, THREAD_INDOM, PROC_INDOM, NR_INDOMS };
enum { CL_CPU, CL_THREAD, CL_PROC, CL_MODULE, CL_WAITS };

/* Items of the thread and process clusters below CSF_NR_STATES are times. */
enum {
	IT_NVCSW = 8, IT_NIVCSW, IT_WAKEUPS, IT_MIGRATIONS,
	IT_STATE, IT_CPU, IT_TGID, IT_COMM, IT_NTHREADS,
};
/* cpu cluster: times by enum csf_cpu_state, then these, then the buckets */
enum { IT_SWITCHES = 3, IT_ONLINE, IT_STAT = 16 };
enum {
	IT_M_THREADS, IT_M_PAGES, IT_M_MAX, IT_M_GEN, IT_M_CLOCK,
	IT_M_UNREADABLE,
};

/*
 * A thread's waits since registration, from its histograms (pages of ABI
 * 1.1): the values of the waits cluster, as metric_get() reads them.
 */
struct thread_waits {
	uint64_t runnable[4];		/* p50, p90, p99, longest; ns */
	uint64_t all_p99;		/* of every wait off the CPU */
	uint32_t waker_tid, preemptor_tid;
	char waker[16], preemptor[16];	/* names; "" for none or an interrupt */
};

/* @w from histograms @h, or all zero for NULL (a page of ABI 1.0). */
void thread_waits_of(struct thread_waits *w, const struct csf_hist *h);

struct metric {
	const char *name;	/* under "csf." */
	unsigned int cluster, item;
	int type;
	pmInDom indom;		/* serial number here; pmdaInit completes it */
	int sem;
	pmUnits units;
	const char *oneline, *help;
	/*
	 * Where a cpu metric's value is in struct csf_cpu_snap, a thread
	 * metric's in struct csf_snap, a waits metric's in struct
	 * thread_waits (unused for the other clusters), and whether it is
	 * kept there in ticks of the page clock.
	 */
	size_t off;
	int ticks;
};

extern const struct metric metrics[];
extern const size_t nr_metrics;

/*
 * metric_get - the value of the cpu, thread or waits metric @m in @snap (a
 * struct csf_cpu_snap, csf_snap or thread_waits), in the metric's units:
 * ticks become nanoseconds, a state its name.  A string points into @snap
 * or is static.
 */
pmAtomValue metric_get(const struct metric *m, const void *snap);

/*
 * metric_put - the inverse, for a replay: store the value @a of @m, as an
 * archive holds it, in @snap.  Times stay in nanoseconds, so the snapshot's
 * clock is nanoseconds.  Returns 0, or -EINVAL for a state name that is
 * not one.
 */
int metric_put(const struct metric *m, void *snap, const pmAtomValue *a);

#endif /* CSF_COMMON_METRICS_H */
