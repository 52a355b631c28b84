// SPDX-License-Identifier: MIT
/*
 * The module's state machine (kmod/state.h) on the host, driven by random
 * event sequences in the orders the scheduler can produce them: a running
 * thread is switched out (preempted, or to a sleep), a runnable one is
 * switched in, a sleeping one is woken, wakeups race with switch-outs
 * (a thread woken while still running or runnable never slept), any of
 * them migrates, a running one exits at any point, and a probe on another
 * CPU may read a clock that lags the page's state_since.
 *
 * After every event: the page's totals add up to the time from
 * registration to the open interval's start; each state's total, the
 * state, the CPU and the counters are what an independent model of the
 * same sequence says; so are the histograms (each closed interval in the
 * bucket the ABI header's rule gives, found here by comparing with the
 * bounds, not by a bit scan), the longest interval of each state and when
 * it ended, the last CSF_WAITS waits, the waker and the preemptor.
 * Interval lengths are drawn log-uniformly, so that every bucket fills,
 * and each thread has a clock conversion of its own.  Seeded:
 * CSF_STATE_SEED repeats a run, and a failure prints the seed and the
 * event.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmod/state.h"
#include "unit.h"

#define EVENTS 1500000		/* per run: at least a million */

struct model {
	uint32_t state, cpu;
	uint64_t since, time[CSF_NR_STATES];
	uint64_t wakeups, migrations, nvcsw, nivcsw;
	struct csf_state_clock clk;
	uint64_t closed[CSF_NR_STATES];	/* intervals closed per state */
	uint64_t hist[CSF_NR_STATES][CSF_HIST_BUCKETS];
	uint64_t max_len[CSF_NR_STATES], max_end[CSF_NR_STATES];
	uint64_t nr_waits;
	struct csf_wait waits[CSF_WAITS];
	struct csf_task_ref waker, preemptor;
};

static uint64_t rng;

static uint64_t next(void)
{
	/* xorshift64*: repeatable from the seed, and plenty for this */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static uint64_t below(uint64_t n)
{
	return next() % n;
}

static const char *const names[] = {
	"running", "runnable", "sleeping", "iowait", "blocked", "exited",
};

/* The bucket by the ABI header's words: compare with each upper bound. */
static unsigned int model_bucket(uint64_t ns)
{
	unsigned int b = 0;

	while (b < CSF_HIST_BUCKETS - 1 && ns >= CSF_HIST_UPPER_NS(b))
		b++;
	return b;
}

static void model_enter(struct model *m, uint32_t state, uint64_t now)
{
	if (now > m->since) {
		uint64_t len = now - m->since, s = m->state;
		uint64_t ns = (uint64_t)(((unsigned __int128)len *
					  m->clk.mult) >> m->clk.shift);

		m->time[s] += len;
		m->since = now;
		m->closed[s]++;
		m->hist[s][model_bucket(ns)]++;
		if (len > m->max_len[s]) {
			m->max_len[s] = len;
			m->max_end[s] = now;
		}
		if (s != CSF_STATE_RUNNING) {
			struct csf_wait *w = &m->waits[m->nr_waits % CSF_WAITS];

			w->end = now;
			w->len = len;
			w->state = (uint32_t)s;
			m->nr_waits++;
		}
	}
	m->state = state;
}

static void model_name(struct csf_task_ref *ref, uint64_t now, uint32_t tid,
		       const char *comm)
{
	memset(ref, 0, sizeof(*ref));
	ref->at = now;
	ref->tid = tid;
	for (size_t i = 0; i < sizeof(ref->comm) - 1 && comm[i]; i++)
		ref->comm[i] = comm[i];
}

static int asleep(uint32_t s)
{
	return s == CSF_STATE_SLEEPING || s == CSF_STATE_IOWAIT ||
	       s == CSF_STATE_BLOCKED;
}

/*
 * Plain comparisons, ck_abort_msg() only on a difference: libcheck's
 * assertions report each pass to the parent process, a write(2) apiece,
 * which over millions of events would be the whole run.
 */
static void check_page(const struct csf_thread_page *tp, const struct model *m,
		       uint64_t seed, unsigned long ev, const char *what)
{
	uint64_t sum = 0;

	for (int s = 0; s < CSF_NR_STATES; s++) {
		sum += tp->time[s];
		if (tp->time[s] != m->time[s])
			ck_abort_msg("seed %" PRIu64 " event %lu (%s): %s total %"
				     PRIu64 ", want %" PRIu64, seed, ev, what,
				     names[s], (uint64_t)tp->time[s], m->time[s]);
	}
	if (sum != tp->state_since - tp->registered_at)
		ck_abort_msg("seed %" PRIu64 " event %lu (%s): totals %" PRIu64
			     " but %" PRIu64 " since registration", seed, ev, what,
			     sum, (uint64_t)(tp->state_since - tp->registered_at));
	if (tp->state != m->state || tp->state_since != m->since)
		ck_abort_msg("seed %" PRIu64 " event %lu (%s): %s since %" PRIu64
			     ", want %s since %" PRIu64, seed, ev, what,
			     names[tp->state], (uint64_t)tp->state_since,
			     names[m->state], m->since);
	if (tp->wakeups != m->wakeups || tp->migrations != m->migrations ||
	    tp->nvcsw != m->nvcsw || tp->nivcsw != m->nivcsw ||
	    tp->cpu != m->cpu)
		ck_abort_msg("seed %" PRIu64 " event %lu (%s): counters %" PRIu64
			     " %" PRIu64 " %" PRIu64 " %" PRIu64 " cpu %u", seed,
			     ev, what, (uint64_t)tp->wakeups,
			     (uint64_t)tp->migrations, (uint64_t)tp->nvcsw,
			     (uint64_t)tp->nivcsw, tp->cpu);
	for (int s = 0; s < CSF_NR_STATES; s++) {
		uint64_t n = 0;

		for (int b = 0; b < CSF_HIST_BUCKETS; b++) {
			n += tp->hist[s][b];
			if (tp->hist[s][b] != m->hist[s][b])
				ck_abort_msg("seed %" PRIu64 " event %lu (%s): %s bucket %d holds %" PRIu64
					     ", want %" PRIu64, seed, ev, what,
					     names[s], b,
					     (uint64_t)tp->hist[s][b],
					     m->hist[s][b]);
		}
		if (n != m->closed[s])
			ck_abort_msg("seed %" PRIu64 " event %lu (%s): %s histogram counts %" PRIu64
				     " of %" PRIu64 " closed intervals", seed,
				     ev, what, names[s], n, m->closed[s]);
		if (tp->max_len[s] != m->max_len[s] ||
		    tp->max_end[s] != m->max_end[s])
			ck_abort_msg("seed %" PRIu64 " event %lu (%s): %s longest %" PRIu64
				     " ending %" PRIu64 ", want %" PRIu64
				     " ending %" PRIu64, seed, ev, what,
				     names[s], (uint64_t)tp->max_len[s],
				     (uint64_t)tp->max_end[s], m->max_len[s],
				     m->max_end[s]);
	}
	if (tp->nr_waits != m->nr_waits ||
	    memcmp(tp->waits, m->waits, sizeof(m->waits)))
		ck_abort_msg("seed %" PRIu64 " event %lu (%s): %" PRIu64
			     " waits, want %" PRIu64 ", or the last ones differ",
			     seed, ev, what, (uint64_t)tp->nr_waits,
			     m->nr_waits);
	if (memcmp(&tp->waker, &m->waker, sizeof(m->waker)) ||
	    memcmp(&tp->preemptor, &m->preemptor, sizeof(m->preemptor)))
		ck_abort_msg("seed %" PRIu64 " event %lu (%s): waker %u '%s' at %" PRIu64
			     ", preemptor %u '%s' at %" PRIu64, seed, ev,
			     what, tp->waker.tid, tp->waker.comm,
			     (uint64_t)tp->waker.at, tp->preemptor.tid,
			     tp->preemptor.comm, (uint64_t)tp->preemptor.at);
}

/*
 * A task name of 0 to 20 bytes, padded with NULs as the kernel pads
 * task->comm: the page keeps 15 and a NUL.
 */
static const char *comm(void)
{
	static char buf[24];
	size_t n = (size_t)below(21);

	memset(buf, 0, sizeof(buf));
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)('a' + below(26));
	return buf;
}

/* The probe names the waker: a task, or an interrupt (tid 0, no name). */
static void wake(struct csf_thread_page *tp, struct model *m, uint64_t t)
{
	static const char none[16];
	const char *c = below(4) ? comm() : none;
	uint32_t tid = c == none ? 0 : (uint32_t)below(1u << 22);

	csf_state_name_task(&tp->waker, t, tid, c);
	model_name(&m->waker, t, tid, c);
}

START_TEST(random_sequences_keep_the_books)
{
	const char *env = getenv("CSF_STATE_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) :
			  (uint64_t)time(NULL) * 2654435761u + 1;
	unsigned long ev = 0, threads = 0, lagged = 0, raced = 0;
	uint64_t filled[CSF_NR_STATES] = { 0 };
	static struct csf_thread_page tp;

	rng = seed ? seed : 1;
	while (ev < EVENTS) {
		struct model m;
		uint64_t now = below(1ull << 40);

		/* registered running, as csf_thread_register() leaves it */
		memset(&tp, 0, sizeof(tp));
		memset(&m, 0, sizeof(m));
		tp.registered_at = tp.state_since = m.since = now;
		tp.state = m.state = CSF_STATE_RUNNING;
		tp.cpu = m.cpu = (uint32_t)below(4);
		/* nanoseconds, or a TSC of 125 MHz to 8 GHz */
		if (below(2)) {
			m.clk.shift = 16 + (uint32_t)below(16);
			m.clk.mult = (uint32_t)((1ull << (m.clk.shift - 3)) +
						below(15ull << (m.clk.shift - 3)));
		} else {
			m.clk = (struct csf_state_clock){ 1, 0 };
		}
		threads++;
		while (csf_state_live(&tp) && ev < EVENTS) {
			/* a probe on another CPU may read an older clock */
			uint64_t t = now, r = below(100);
			const char *what;
			int woken;

			/* 0 to 2^42 ticks, log-uniform: every bucket fills */
			now += below(1ull << below(43));
			t = now;
			if (r < 5 && now > 50) {
				t = now - below(50) - 1;
				lagged++;
			}
			r = below(100);
			if (r < 8) {
				what = "migrate";
				csf_state_migrate(&tp);
				m.migrations++;
			} else if (r < 14) {
				/* a wakeup that races a switch-out, or ends a sleep */
				what = "wakeup";
				woken = asleep(m.state);
				if (csf_state_wakeup(&tp, &m.clk, t) != woken)
					ck_abort_msg("seed %" PRIu64 " event %lu: a wakeup of a %s thread says %s",
						     seed, ev, names[m.state],
						     woken ? "no sleep ended" : "a sleep ended");
				if (woken) {
					model_enter(&m, CSF_STATE_RUNNABLE, t);
					m.wakeups++;
					wake(&tp, &m, t);
				} else {
					raced++;
				}
			} else if (m.state == CSF_STATE_RUNNING) {
				uint64_t nv = m.nvcsw + below(3), niv = m.nivcsw + below(3);

				if (r < 16) {
					what = "exit";
					csf_state_exit(&tp, &m.clk, t);
					model_enter(&m, CSF_STATE_EXITED, t);
				} else {
					uint32_t to = r < 50 ? CSF_STATE_RUNNABLE :
						      CSF_STATE_SLEEPING + (uint32_t)below(3);

					what = "switch out";
					csf_state_switch_out(&tp, &m.clk, t, to, nv,
							     niv);
					model_enter(&m, to, t);
					m.nvcsw = nv;
					m.nivcsw = niv;
					/* preempted, as the probe names it */
					if (r < 32) {
						const char *c = comm();
						uint32_t tid = (uint32_t)below(1u << 22);

						csf_state_name_task(&tp.preemptor, t,
								    tid, c);
						model_name(&m.preemptor, t, tid, c);
					}
				}
			} else if (m.state == CSF_STATE_RUNNABLE) {
				uint32_t cpu = (uint32_t)below(4);

				what = "switch in";
				csf_state_switch_in(&tp, &m.clk, t, cpu);
				model_enter(&m, CSF_STATE_RUNNING, t);
				m.cpu = cpu;
			} else {
				what = "wakeup";
				if (!csf_state_wakeup(&tp, &m.clk, t))
					ck_abort_msg("seed %" PRIu64 " event %lu: the wakeup of a %s thread ended no sleep",
						     seed, ev, names[m.state]);
				model_enter(&m, CSF_STATE_RUNNABLE, t);
				m.wakeups++;
				wake(&tp, &m, t);
			}
			ev++;
			check_page(&tp, &m, seed, ev, what);
		}
		if (tp.state == CSF_STATE_EXITED && csf_state_live(&tp))
			ck_abort_msg("seed %" PRIu64 ": an exited page is live",
				     seed);
		for (int st = 0; st < CSF_NR_STATES; st++)
			for (int b = 0; b < CSF_HIST_BUCKETS; b++)
				if (m.hist[st][b])
					filled[st] |= 1ull << b;
	}
	for (int st = 0; st < CSF_NR_STATES; st++)
		if (filled[st] != (1ull << CSF_HIST_BUCKETS) - 1)
			ck_abort_msg("seed %" PRIu64 ": %s: buckets %#" PRIx64
				     " of %d used", seed, names[st], filled[st],
				     CSF_HIST_BUCKETS);
	printf("  note: seed %" PRIu64 ": %lu events over %lu threads, %lu with a lagging clock, %lu wakeups of a thread that had not slept\n",
	       seed, ev, threads, lagged, raced);
	ck_assert_uint_gt(lagged, 0);
	ck_assert_uint_gt(raced, 0);
}
END_TEST

START_TEST(a_lagging_clock_closes_nothing)
{
	struct csf_thread_page tp;

	const struct csf_state_clock ns = { 1, 0 };

	memset(&tp, 0, sizeof(tp));
	tp.registered_at = tp.state_since = 1000;
	tp.state = CSF_STATE_RUNNING;
	csf_state_switch_out(&tp, &ns, 900, CSF_STATE_RUNNABLE, 0, 1);
	ck_assert_uint_eq(tp.time[CSF_STATE_RUNNING], 0);
	ck_assert_uint_eq(tp.state_since, 1000);
	ck_assert_uint_eq(tp.state, CSF_STATE_RUNNABLE);
	ck_assert_uint_eq(tp.hist[CSF_STATE_RUNNING][0], 0);
	csf_state_switch_in(&tp, &ns, 1500, 1);
	ck_assert_uint_eq(tp.time[CSF_STATE_RUNNABLE], 500);
	ck_assert_uint_eq(tp.state_since, 1500);
	ck_assert_uint_eq(tp.hist[CSF_STATE_RUNNABLE][0], 1);
	ck_assert_uint_eq(tp.nr_waits, 1);
	ck_assert_uint_eq(tp.waits[0].len, 500);
}
END_TEST

/* The header's examples: the edges of the first, a middle and the last. */
START_TEST(buckets_follow_the_abi_rule)
{
	ck_assert_uint_eq(csf_hist_bucket(0), 0);
	ck_assert_uint_eq(csf_hist_bucket(1023), 0);
	ck_assert_uint_eq(csf_hist_bucket(1024), 1);
	ck_assert_uint_eq(csf_hist_bucket(2047), 1);
	ck_assert_uint_eq(csf_hist_bucket(2048), 2);
	ck_assert_uint_eq(csf_hist_bucket(2000000), 11);  /* 2 ms */
	ck_assert_uint_eq(CSF_HIST_UPPER_NS(11), 2097152);
	ck_assert_uint_eq(csf_hist_bucket((1ull << 34) - 1), 24);
	ck_assert_uint_eq(csf_hist_bucket(1ull << 34), 25);
	ck_assert_uint_eq(csf_hist_bucket(~0ull), 25);
	for (unsigned int b = 0; b + 1 < CSF_HIST_BUCKETS; b++) {
		ck_assert_uint_eq(csf_hist_bucket(CSF_HIST_UPPER_NS(b) - 1), b);
		ck_assert_uint_eq(csf_hist_bucket(CSF_HIST_UPPER_NS(b)), b + 1);
	}
}
END_TEST

/* 40 waits: the ring keeps the last 32, in place. */
START_TEST(the_last_waits_are_kept)
{
	static struct csf_thread_page tp;
	const struct csf_state_clock ns = { 1, 0 };
	uint64_t now = 100;

	tp.registered_at = tp.state_since = now;
	for (int i = 0; i < 40; i++) {
		csf_state_switch_out(&tp, &ns, now += 10, CSF_STATE_SLEEPING,
				     0, 0);
		csf_state_wakeup(&tp, &ns, now += 1000 + i);
		csf_state_switch_in(&tp, &ns, now += 5, 0);
	}
	/* per round a sleep and a wait for the CPU */
	ck_assert_uint_eq(tp.nr_waits, 80);
	for (uint64_t k = 80 - CSF_WAITS; k < 80; k++) {
		const struct csf_wait *w = &tp.waits[k % CSF_WAITS];

		ck_assert_uint_eq(w->state, k % 2 ? CSF_STATE_RUNNABLE :
					    CSF_STATE_SLEEPING);
		ck_assert_uint_eq(w->len, k % 2 ? 5 : 1000 + k / 2);
	}
	ck_assert_uint_eq(tp.max_len[CSF_STATE_SLEEPING], 1039);
	ck_assert_uint_eq(tp.max_end[CSF_STATE_SLEEPING],
			  tp.waits[78 % CSF_WAITS].end);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		random_sequences_keep_the_books,
		a_lagging_clock_closes_nothing,
		buckets_follow_the_abi_rule,
		the_last_waits_are_kept,
		NULL,
	};

	return unit_run_tests("state", tests);
}
