/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metrics.h - the csf metrics of Performance Co-Pilot, in one table
 * (metrics.c) that both ends read: the agent, which serves them from the
 * pages (pmda/pmdacsf.c), and csftop -a, which turns an archive of them
 * back into snapshots (src/replay.c).
 */
#ifndef CSF_PMDA_METRICS_H
#define CSF_PMDA_METRICS_H

#include <stddef.h>

#include <pcp/pmapi.h>

enum { CPU_INDOM, THREAD_INDOM, PROC_INDOM, NR_INDOMS };
enum { CL_CPU, CL_THREAD, CL_PROC, CL_MODULE };

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

struct metric {
	const char *name;	/* under "csf." */
	unsigned int cluster, item;
	int type;
	pmInDom indom;		/* serial number here; pmdaInit completes it */
	int sem;
	pmUnits units;
	const char *oneline, *help;
	/*
	 * Where a cpu metric's value is in struct csf_cpu_snap, and a thread
	 * metric's in struct csf_snap (unused for the other clusters), and
	 * whether it is kept there in ticks of the page clock.
	 */
	size_t off;
	int ticks;
};

extern const struct metric metrics[];
extern const size_t nr_metrics;

/*
 * metric_get - the value of the cpu or thread metric @m in @snap (a
 * struct csf_cpu_snap or csf_snap), in the metric's units: ticks become
 * nanoseconds, a state its name.  A string points into @snap or is static.
 */
pmAtomValue metric_get(const struct metric *m, const void *snap);

/*
 * metric_put - the inverse, for a replay: store the value @a of @m, as an
 * archive holds it, in @snap.  Times stay in nanoseconds, so the snapshot's
 * clock is nanoseconds.  Returns 0, or -EINVAL for a state name that is
 * not one.
 */
int metric_put(const struct metric *m, void *snap, const pmAtomValue *a);

#endif /* CSF_PMDA_METRICS_H */
