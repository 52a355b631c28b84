/* SPDX-License-Identifier: MIT */
/*
 * state_loops.h - the loops bench_state times, over kmod/state.h as this
 * file's includer configures it: bench_state.c with the histograms (ABI
 * 1.1), bench_state_10.c with CSF_STATE_HIST=0, the machine before them,
 * so that both are timed in one run of one program.  STATE_LOOP(name)
 * gives each copy its own names.
 */
#include <string.h>

#include "state.h"

/* The page escapes, so the compiler keeps every store to it. */
#define CLOBBER(p) __asm__ __volatile__("" : : "r"(p) : "memory")

static struct csf_thread_page page;
/* a TSC of about 2.5 GHz: the conversion the module publishes for one */
static const struct csf_state_clock clk = { 3435973837u, 33 };

/* A page registered at time 1000, running: every run starts from it. */
static unsigned long long fresh_page(void)
{
	unsigned long long now = 1000;

	memset(&page, 0, sizeof(page));
	page.state_since = page.registered_at = now;
	return now;
}

/*
 * Intervals of 2^13 to 2^14 ticks and some, so that the buckets vary as
 * they do between real switches rather than one count always growing.
 */
double STATE_LOOP(pairs)(unsigned long n)
{
	unsigned long long now = fresh_page();
	double t0, t1;

	t0 = mono_ns();
	for (unsigned long i = 0; i < n; i++) {
		csf_state_switch_out(&page, &clk, now += 8192 + (i & 8191),
				     CSF_STATE_RUNNABLE, i, i + 1);
		CLOBBER(&page);
		csf_state_switch_in(&page, &clk, now += 5 + (i & 1023),
				    (unsigned int)i & 1);
		CLOBBER(&page);
	}
	t1 = mono_ns();
	return (t1 - t0) / (double)n;
}

double STATE_LOOP(sleeps)(unsigned long n)
{
	unsigned long long now = fresh_page();
	double t0, t1;

	t0 = mono_ns();
	for (unsigned long i = 0; i < n; i++) {
		csf_state_switch_out(&page, &clk, now += 7 + (i & 8191),
				     CSF_STATE_SLEEPING, i, 0);
		CLOBBER(&page);
		csf_state_wakeup(&page, &clk, now += 11 + (i & 65535));
		CLOBBER(&page);
		csf_state_switch_in(&page, &clk, now += 5, 0);
		CLOBBER(&page);
	}
	t1 = mono_ns();
	return (t1 - t0) / (double)n;
}
