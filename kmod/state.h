/* SPDX-License-Identifier: GPL-2.0 */
/*
 * state.h - the per-thread state machine: how an event closes the open
 * interval and changes the page.  No kernel dependency: the module's probes
 * include it (they find the page, take its lock, make its sequence count
 * odd and decode the task's state), and so do the host tests and the host
 * benchmark, which drive it with the event sequences the scheduler can
 * produce (tests/unit/test_state.c, tests/bench/bench_state.c).
 *
 * Every event first closes the open interval into the total of the
 * recorded state, so the totals always add up to the time since
 * registration whatever order events come in.  A clock read that lags
 * state_since (clocks of two CPUs) closes nothing, and the interval stays
 * open from state_since.  The callers hold the page's writer lock; the
 * page is not EXITED (csf_state_live()), which is terminal.
 *
 * A closed interval is also counted in its state's histogram, may be the
 * state's longest, and, off the CPU, is the latest of waits[] (ABI 1.1).
 * CSF_STATE_HIST=0 leaves that out: the machine as it was before 1.1,
 * which tests/bench/bench_state times beside this one.
 */
#ifndef CSF_STATE_H
#define CSF_STATE_H

#include "coarse_stat_fs_abi.h"

#ifndef csf_state_fn
#define csf_state_fn static inline __attribute__((__always_inline__))
#endif

#ifndef CSF_STATE_HIST
#define CSF_STATE_HIST 1
#endif

/* The cpu header's clock_mult and clock_shift: ticks to ns for buckets. */
struct csf_state_clock {
	__u32 mult;
	__u32 shift;
};

/* Close [*since, now) into *total: the CPU records use it too. */
csf_state_fn void csf_close_interval(__u64 *total, __u64 *since, __u64 now)
{
	if (now > *since) {
		*total += now - *since;
		*since = now;
	}
}

/*
 * A CPU's record at a context switch, @state from now on: what every
 * switch costs, registered threads or not.
 */
csf_state_fn void csf_cpu_state_switch(struct csf_cpu_record *r, __u64 now,
				       __u32 state)
{
	csf_close_interval(&r->time[r->state], &r->state_since, now);
	r->state = state;
	r->nr_switches++;
}

/* The ABI's bucket of an interval of @ns nanoseconds: a bit scan. */
csf_state_fn unsigned int csf_hist_bucket(__u64 ns)
{
	unsigned int fls = ns ? 64 - (unsigned int)__builtin_clzll(ns) : 0;

	if (fls <= CSF_HIST_MIN_SHIFT)
		return 0;
	fls -= CSF_HIST_MIN_SHIFT;
	return fls < CSF_HIST_BUCKETS - 1 ? fls : CSF_HIST_BUCKETS - 1;
}

csf_state_fn __u64 csf_state_ns(const struct csf_state_clock *clk, __u64 len)
{
	return (__u64)(((unsigned __int128)len * clk->mult) >> clk->shift);
}

csf_state_fn int csf_state_live(const struct csf_thread_page *tp)
{
	return tp->state != CSF_STATE_EXITED;
}

/* The open interval, @len ticks of tp->state, ended at @now. */
csf_state_fn void csf_state_closed(struct csf_thread_page *tp,
				   const struct csf_state_clock *clk,
				   __u64 now, __u64 len)
{
#if CSF_STATE_HIST
	__u32 s = tp->state;

	tp->hist[s][csf_hist_bucket(csf_state_ns(clk, len))]++;
	if (len > tp->max_len[s]) {
		tp->max_len[s] = len;
		tp->max_end[s] = now;
	}
	if (s != CSF_STATE_RUNNING) {
		struct csf_wait *w = &tp->waits[tp->nr_waits++ % CSF_WAITS];

		w->end = now;
		w->len = len;
		w->state = s;
	}
#else
	(void)tp, (void)clk, (void)now, (void)len;
#endif
}

csf_state_fn void csf_state_enter(struct csf_thread_page *tp,
				  const struct csf_state_clock *clk,
				  __u32 state, __u64 now)
{
	if (now > tp->state_since) {
		__u64 len = now - tp->state_since;

		tp->time[tp->state] += len;
		tp->state_since = now;
		csf_state_closed(tp, clk, now, len);
	}
	tp->state = state;
}

/* @ref names the task @tid, @comm at @now: a waker or a preemptor. */
csf_state_fn void csf_state_name_task(struct csf_task_ref *ref, __u64 now,
				      __u32 tid, const char *comm)
{
#if CSF_STATE_HIST
	ref->at = now;
	ref->tid = tid;
	__builtin_memcpy(ref->comm, comm, sizeof(ref->comm) - 1);
	ref->comm[sizeof(ref->comm) - 1] = '\0';
#else
	(void)ref, (void)now, (void)tid, (void)comm;
#endif
}

/*
 * Off the CPU, to @state: RUNNABLE when preempted or still runnable, else
 * the sleep the probe decoded (SLEEPING, IOWAIT, BLOCKED).  @nvcsw and
 * @nivcsw are the task's switch counts since registration.
 */
csf_state_fn void csf_state_switch_out(struct csf_thread_page *tp,
				       const struct csf_state_clock *clk,
				       __u64 now, __u32 state, __u64 nvcsw,
				       __u64 nivcsw)
{
	csf_state_enter(tp, clk, state, now);
	tp->nvcsw = nvcsw;
	tp->nivcsw = nivcsw;
}

csf_state_fn void csf_state_switch_in(struct csf_thread_page *tp,
				      const struct csf_state_clock *clk,
				      __u64 now, __u32 cpu)
{
	csf_state_enter(tp, clk, CSF_STATE_RUNNING, now);
	tp->cpu = cpu;
}

/*
 * A wakeup ends a sleep: 1 if it did.  A thread woken while RUNNING or
 * RUNNABLE was woken before it got off its CPU (ttwu_runnable): it never
 * slept, and nothing changes.
 */
csf_state_fn int csf_state_wakeup(struct csf_thread_page *tp,
				  const struct csf_state_clock *clk, __u64 now)
{
	if (tp->state == CSF_STATE_SLEEPING || tp->state == CSF_STATE_IOWAIT ||
	    tp->state == CSF_STATE_BLOCKED) {
		csf_state_enter(tp, clk, CSF_STATE_RUNNABLE, now);
		tp->wakeups++;
		return 1;
	}
	return 0;
}

csf_state_fn void csf_state_migrate(struct csf_thread_page *tp)
{
	tp->migrations++;
}

csf_state_fn void csf_state_exit(struct csf_thread_page *tp,
				 const struct csf_state_clock *clk, __u64 now)
{
	csf_state_enter(tp, clk, CSF_STATE_EXITED, now);
}

#endif /* CSF_STATE_H */
