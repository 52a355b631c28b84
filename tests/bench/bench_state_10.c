// SPDX-License-Identifier: MIT
/*
 * bench_state_10.c - bench_state's loops over the state machine without
 * the histograms (CSF_STATE_HIST=0): the ABI 1.0 hot path, timed beside
 * the 1.1 one in the same run.
 */
#include "config.h"

#include "bench_state.h"

#define CSF_STATE_HIST 0
#define STATE_LOOP(name) name##_10
#include "state_loops.h"
