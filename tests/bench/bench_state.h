/* SPDX-License-Identifier: MIT */
/*
 * bench_state.h - what bench_state's two copies of the state machine's
 * loops share (see state_loops.h).
 */
#ifndef BENCH_STATE_H
#define BENCH_STATE_H

#include <time.h>

static inline double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ns per switch-out + switch-in pair, and per sleep (out, wakeup, in) */
double pairs_10(unsigned long n);
double sleeps_10(unsigned long n);
double pairs_11(unsigned long n);
double sleeps_11(unsigned long n);

#endif /* BENCH_STATE_H */
