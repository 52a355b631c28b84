// SPDX-License-Identifier: MIT
/*
 * bench_state - the module's state machine (kmod/state.h) as plain
 * functions on this host: nanoseconds per switch-out and switch-in pair of
 * one registered thread's page, and per sleep of one (switch-out, wakeup,
 * switch-in); with the histograms of ABI 1.1 and without them (the 1.0
 * machine, CSF_STATE_HIST=0, bench_state_10.c), side by side.  And what a
 * switch between two threads nobody registered costs: the CPU record's
 * update, the module's own code, and the registry's two misses.  What a
 * probe adds on top (the thread's lock, the sequence count, the clock)
 * is kernel code and is timed in the VM by pingpong.
 *
 * A benchmark, not a test: it prints figures and exits 0.  Each figure is
 * the median of ROUNDS runs of N events, the variants interleaved round by
 * round, so that one descheduling or a change of clock speed does not
 * favour one of them.
 *
 *   usage: bench_state [N]      (default 10,000,000 per round)
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_state.h"

#define STATE_LOOP(name) name##_11
#include "state_loops.h"

#define ROUNDS 9

/*
 * The registry as the module keeps it: 2^12 buckets of hlists keyed by the
 * task pointer, hash_ptr()'s multiply and shift, an empty bucket for a
 * task nobody registered.
 */
#define HASH_BITS 12
#define GOLDEN_RATIO_64 0x61C8864680B583EBull

struct entry {
	struct entry *next;
	const void *task;
};

static struct entry *buckets[1u << HASH_BITS];
static int nr_entries = 1;	/* someone is registered: look */

static inline struct entry *lookup(const void *task)
{
	struct entry *e;

	e = __atomic_load_n(&buckets[((uintptr_t)task * GOLDEN_RATIO_64) >>
				     (64 - HASH_BITS)], __ATOMIC_RELAXED);
	for (; e; e = e->next)
		if (e->task == task)
			return e;
	return NULL;
}

static struct csf_cpu_record cpu_rec;

static double unregistered(unsigned long n)
{
	static const char tasks[2][64];
	unsigned long long now = 1000;
	unsigned long misses = 0;
	double t0, t1;

	t0 = mono_ns();
	for (unsigned long i = 0; i < n; i++) {
		const void *prev = tasks[i & 1], *next = tasks[!(i & 1)];

		/* csf_write_begin/end: a store, a compiler barrier, a store */
		__atomic_store_n(&cpu_rec.seq, cpu_rec.seq + 1,
				 __ATOMIC_RELAXED);
		CLOBBER(&cpu_rec);
		csf_cpu_state_switch(&cpu_rec, now += 5000 + (i & 1023),
				     (uint32_t)(i & 1));
		CLOBBER(&cpu_rec);
		__atomic_store_n(&cpu_rec.seq, cpu_rec.seq + 1,
				 __ATOMIC_RELAXED);
		if (__atomic_load_n(&nr_entries, __ATOMIC_RELAXED))
			misses += !lookup(prev) + !lookup(next);
	}
	t1 = mono_ns();
	CLOBBER(&misses);
	return (t1 - t0) / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define NVAR 5

int main(int argc, char **argv)
{
	static double (*const fn[NVAR])(unsigned long) = {
		pairs_10, pairs_11, sleeps_10, sleeps_11, unregistered,
	};
	static const char *const label[NVAR] = {
		"switch out + switch in (preempted), ABI 1.0",
		"  the same with the histograms, ABI 1.1",
		"switch out + wakeup + switch in, ABI 1.0",
		"  the same with the histograms, ABI 1.1",
		"a switch between two unregistered threads",
	};
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000ul;
	double v[NVAR][ROUNDS], med[NVAR];

	if (!n) {
		fprintf(stderr, "usage: bench_state [N > 0]\n");
		return 2;
	}
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < NVAR; k++)
			v[k][r] = fn[k](n);
	printf("state machine, median of %d rounds of %lu:\n", ROUNDS, n);
	for (int k = 0; k < NVAR; k++) {
		qsort(v[k], ROUNDS, sizeof(v[k][0]), cmp_double);
		med[k] = v[k][ROUNDS / 2];
		printf("  %-46s %6.2f ns\n", label[k], med[k]);
	}
	printf("  histograms add %.2f ns a pair (%.2f an event), %.2f a sleep\n",
	       med[1] - med[0], (med[1] - med[0]) / 2, med[3] - med[2]);
	return 0;
}
