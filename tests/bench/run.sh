#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/bench/run.sh - `make bench`: every benchmark, figures side by side.
# A benchmark, not a test: nothing is asserted, and it is no part of
# `make check` or CI (the VM part takes several minutes under TCG).
#
#   1. on this host: bench_snap --fake and --fake=mono, csf_thread_snap on
#      a page-shaped file (the same memory reads as the module's page) on
#      the TSC and the CLOCK_MONOTONIC read paths, next to rdtsc,
#      clock_gettime, getrusage and /proc/thread-self/schedstat;
#   2. one VM boot (tests/vm/run.sh --bench, the first kernel of
#      $CSF_VM_KERNELS or of the installed ones), which prints:
#      pingpong (context-switch cost: module not loaded, loaded with no
#      thread registered, loaded with both threads registered; median of 9
#      runs; then with both registered, without and with tests/vm/skew's
#      probe, which reads the scheduler's own stamp), forkloop (what a fork+exit+wait costs: module not loaded,
#      loaded with nothing registered, and under an inheriting registration
#      that registers every child at its fork; median of 9 runs),
#      bench_snap on the real module with clock=tsc and clock=mono,
#      and tests/bench/csftop_cost.sh (csftop -b over N = 10, 100, 1000
#      registered threads of csf-demo next to procps top -H -b).
#
# usage: tests/bench/run.sh [BUILDDIR [SRCDIR]]
# Environment: CSF_BENCH_HOST_ONLY=1 skips the VM; CSF_BENCH_FRAMES (csftop
# frames per measurement in the VM, default 100), CSF_BENCH_TOP_FRAMES (top
# frames, default 5: top -H needs seconds per frame at 1,000 threads under
# TCG); the CSF_VM_* variables of tests/vm/run.sh.
# Figures under TCG are emulated-CPU figures: compare them with each other,
# not with the host's.
set -uo pipefail

builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
status=0

echo "==== bench: on this host ($(uname -r), $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1))"
if [ -x "$builddir/tests/bench/bench_state" ]; then
	echo
	echo "== bench_state: the module's state machine as plain functions (kmod/state.h) =="
	"$builddir/tests/bench/bench_state" || status=1
fi
if [ -x "$builddir/tests/bench/bench_snap" ]; then
	for clock in counter mono; do
		echo
		echo "== bench_snap --fake=$clock: a page-shaped file, the $clock read path (ns per call) =="
		"$builddir/tests/bench/bench_snap" --fake=$clock || status=1
	done
else
	echo "bench: tests/bench/bench_snap was not built (configure found no libcheck)"
	status=1
fi

if [ "${CSF_BENCH_HOST_ONLY:-0}" = 1 ]; then
	exit $status
fi
echo
echo "==== bench: in the VM (the real module)"
bash "$srcdir/tests/vm/run.sh" --bench "$builddir" "$srcdir"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
exit $status
