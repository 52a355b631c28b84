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
 * same sequence says.  Seeded: CSF_STATE_SEED repeats a run, and a
 * failure prints the seed and the event.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state.h"
#include "unit.h"

#define EVENTS 1500000		/* per run: at least a million */

struct model {
	uint32_t state, cpu;
	uint64_t since, time[CSF_NR_STATES];
	uint64_t wakeups, migrations, nvcsw, nivcsw;
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

static void model_enter(struct model *m, uint32_t state, uint64_t now)
{
	if (now > m->since) {
		m->time[m->state] += now - m->since;
		m->since = now;
	}
	m->state = state;
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
}

START_TEST(random_sequences_keep_the_books)
{
	const char *env = getenv("CSF_STATE_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) :
			  (uint64_t)time(NULL) * 2654435761u + 1;
	unsigned long ev = 0, threads = 0, lagged = 0, raced = 0;
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
		threads++;
		while (csf_state_live(&tp) && ev < EVENTS) {
			/* a probe on another CPU may read an older clock */
			uint64_t t = now, r = below(100);
			const char *what;

			now += below(5000);
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
				csf_state_wakeup(&tp, t);
				if (asleep(m.state)) {
					model_enter(&m, CSF_STATE_RUNNABLE, t);
					m.wakeups++;
				} else {
					raced++;
				}
			} else if (m.state == CSF_STATE_RUNNING) {
				uint64_t nv = m.nvcsw + below(3), niv = m.nivcsw + below(3);

				if (r < 16) {
					what = "exit";
					csf_state_exit(&tp, t);
					model_enter(&m, CSF_STATE_EXITED, t);
				} else {
					uint32_t to = r < 50 ? CSF_STATE_RUNNABLE :
						      CSF_STATE_SLEEPING + (uint32_t)below(3);

					what = "switch out";
					csf_state_switch_out(&tp, t, to, nv, niv);
					model_enter(&m, to, t);
					m.nvcsw = nv;
					m.nivcsw = niv;
				}
			} else if (m.state == CSF_STATE_RUNNABLE) {
				uint32_t cpu = (uint32_t)below(4);

				what = "switch in";
				csf_state_switch_in(&tp, t, cpu);
				model_enter(&m, CSF_STATE_RUNNING, t);
				m.cpu = cpu;
			} else {
				what = "wakeup";
				csf_state_wakeup(&tp, t);
				model_enter(&m, CSF_STATE_RUNNABLE, t);
				m.wakeups++;
			}
			ev++;
			check_page(&tp, &m, seed, ev, what);
		}
		if (tp.state == CSF_STATE_EXITED && csf_state_live(&tp))
			ck_abort_msg("seed %" PRIu64 ": an exited page is live",
				     seed);
	}
	printf("  note: seed %" PRIu64 ": %lu events over %lu threads, %lu with a lagging clock, %lu wakeups of a thread that had not slept\n",
	       seed, ev, threads, lagged, raced);
	ck_assert_uint_gt(lagged, 0);
	ck_assert_uint_gt(raced, 0);
}
END_TEST

START_TEST(a_lagging_clock_closes_nothing)
{
	struct csf_thread_page tp;

	memset(&tp, 0, sizeof(tp));
	tp.registered_at = tp.state_since = 1000;
	tp.state = CSF_STATE_RUNNING;
	csf_state_switch_out(&tp, 900, CSF_STATE_RUNNABLE, 0, 1);
	ck_assert_uint_eq(tp.time[CSF_STATE_RUNNING], 0);
	ck_assert_uint_eq(tp.state_since, 1000);
	ck_assert_uint_eq(tp.state, CSF_STATE_RUNNABLE);
	csf_state_switch_in(&tp, 1500, 1);
	ck_assert_uint_eq(tp.time[CSF_STATE_RUNNABLE], 500);
	ck_assert_uint_eq(tp.state_since, 1500);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		random_sequences_keep_the_books,
		a_lagging_clock_closes_nothing,
		NULL,
	};

	return unit_run_tests("state", tests);
}
