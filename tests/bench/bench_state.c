// SPDX-License-Identifier: MIT
/*
 * bench_state - the module's state machine (kmod/state.h) as plain
 * functions on this host: nanoseconds per switch-out and switch-in pair of
 * one registered thread's page, and per wakeup of a sleeping one.  What a
 * probe adds on top (the registry lookup, the thread's lock, the sequence
 * count) is kernel code and is timed in the VM by pingpong.
 *
 * A benchmark, not a test: it prints figures and exits 0.  The median of
 * ROUNDS runs of N events each, so that one descheduling does not count.
 *
 *   usage: bench_state [N]      (default 10,000,000 pairs per round)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "state.h"

#define ROUNDS 9

static struct csf_thread_page page;

static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The page escapes, so the compiler keeps every store to it. */
static void clobber(void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* A page registered at time 1000, running: every run starts from it. */
static unsigned long long fresh_page(void)
{
	unsigned long long now = 1000;

	memset(&page, 0, sizeof(page));
	page.state_since = page.registered_at = now;
	return now;
}

static double pairs(unsigned long n)
{
	unsigned long long now = fresh_page();
	double t0, t1;

	t0 = mono_ns();
	for (unsigned long i = 0; i < n; i++) {
		csf_state_switch_out(&page, now += 7, CSF_STATE_RUNNABLE, i,
				     i + 1);
		clobber(&page);
		csf_state_switch_in(&page, now += 5, (unsigned int)i & 1);
		clobber(&page);
	}
	t1 = mono_ns();
	return (t1 - t0) / (double)n;
}

static double sleeps(unsigned long n)
{
	unsigned long long now = fresh_page();
	double t0, t1;

	t0 = mono_ns();
	for (unsigned long i = 0; i < n; i++) {
		csf_state_switch_out(&page, now += 7, CSF_STATE_SLEEPING, i, 0);
		clobber(&page);
		csf_state_wakeup(&page, now += 11);
		clobber(&page);
		csf_state_switch_in(&page, now += 5, 0);
		clobber(&page);
	}
	t1 = mono_ns();
	return (t1 - t0) / (double)n;
}

static double median(double (*fn)(unsigned long), unsigned long n)
{
	double v[ROUNDS];

	for (int r = 0; r < ROUNDS; r++)
		v[r] = fn(n);
	qsort(v, ROUNDS, sizeof(v[0]), cmp_double);
	return v[ROUNDS / 2];
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000ul;

	if (!n) {
		fprintf(stderr, "usage: bench_state [N > 0]\n");
		return 2;
	}
	printf("state machine, median of %d rounds of %lu:\n", ROUNDS, n);
	printf("  switch out + switch in (preempted)          %6.2f ns\n",
	       median(pairs, n));
	printf("  switch out + wakeup + switch in (a sleep)   %6.2f ns\n",
	       median(sleeps, n));
	return 0;
}
