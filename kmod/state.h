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
 */
#ifndef CSF_STATE_H
#define CSF_STATE_H

#include "coarse_stat_fs_abi.h"

#ifndef csf_state_fn
#define csf_state_fn static inline __attribute__((__always_inline__))
#endif

/* Close [*since, now) into *total: the CPU records use it too. */
csf_state_fn void csf_close_interval(__u64 *total, __u64 *since, __u64 now)
{
	if (now > *since) {
		*total += now - *since;
		*since = now;
	}
}

csf_state_fn int csf_state_live(const struct csf_thread_page *tp)
{
	return tp->state != CSF_STATE_EXITED;
}

csf_state_fn void csf_state_enter(struct csf_thread_page *tp, __u32 state,
				  __u64 now)
{
	csf_close_interval(&tp->time[tp->state], &tp->state_since, now);
	tp->state = state;
}

/*
 * Off the CPU, to @state: RUNNABLE when preempted or still runnable, else
 * the sleep the probe decoded (SLEEPING, IOWAIT, BLOCKED).  @nvcsw and
 * @nivcsw are the task's switch counts since registration.
 */
csf_state_fn void csf_state_switch_out(struct csf_thread_page *tp,
				       __u64 now, __u32 state, __u64 nvcsw,
				       __u64 nivcsw)
{
	csf_state_enter(tp, state, now);
	tp->nvcsw = nvcsw;
	tp->nivcsw = nivcsw;
}

csf_state_fn void csf_state_switch_in(struct csf_thread_page *tp, __u64 now,
				      __u32 cpu)
{
	csf_state_enter(tp, CSF_STATE_RUNNING, now);
	tp->cpu = cpu;
}

/*
 * A wakeup ends a sleep.  A thread woken while RUNNING or RUNNABLE was
 * woken before it got off its CPU (ttwu_runnable): it never slept, and
 * nothing changes.
 */
csf_state_fn void csf_state_wakeup(struct csf_thread_page *tp, __u64 now)
{
	if (tp->state == CSF_STATE_SLEEPING || tp->state == CSF_STATE_IOWAIT ||
	    tp->state == CSF_STATE_BLOCKED) {
		csf_state_enter(tp, CSF_STATE_RUNNABLE, now);
		tp->wakeups++;
	}
}

csf_state_fn void csf_state_migrate(struct csf_thread_page *tp)
{
	tp->migrations++;
}

csf_state_fn void csf_state_exit(struct csf_thread_page *tp, __u64 now)
{
	csf_state_enter(tp, CSF_STATE_EXITED, now);
}

#endif /* CSF_STATE_H */
