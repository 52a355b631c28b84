#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fuzz/run.sh SECONDS CORPUS_DIR BIN_DIR NAME... - make fuzz: run each
# libFuzzer target BIN_DIR/NAME for SECONDS over a copy of its seed corpus
# CORPUS_DIR/NAME (the seeds in the tree stay as they are; what the run
# adds stays in BIN_DIR/work/NAME for the next run).  A crash, a leak, a
# UB report, an input slower than 10 s or over 2 GiB is a finding: its
# input is kept as BIN_DIR/findings/NAME-*, and the exit status is 1.
# Prints one line per target, in the order named: executions, corpus size,
# findings.  FUZZ_JOBS targets run at once (default: the CPUs), each on
# one CPU for its SECONDS.
secs=$1 corpus=$2 bins=$3
shift 3
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$bins/work" "$bins/findings"

# fuzz_one NAME: its run; its line(s) in work/NAME.out, and in
# work/NAME.execs its executions, or nothing when it failed
fuzz_one() {
	name=$1
	work=$bins/work/$name
	log=$bins/work/$name.log
	mkdir -p "$work"
	[ -d "$corpus/$name" ] && cp -f "$corpus/$name"/* "$work/" 2>/dev/null
	rm -f "$bins/findings/$name-"*
	# -close_fd_mask=1: csftop's --help on stdout would cost more than
	# the code under test; stderr stays for the reports.
	"$bins/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -close_fd_mask=1 \
		-artifact_prefix="$bins/findings/$name-" "$work" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	found=$(ls "$bins/findings/$name-"* 2>/dev/null | wc -l)
	n=$(ls "$work" | wc -l)
	if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then
		tail -n 60 "$log"
		echo "fuzz: $name: FAIL (exit $rc) after ${execs:-?} executions in ${secs}s; input(s):"
		ls "$bins/findings/$name-"* 2>/dev/null | sed 's/^/  /'
	else
		echo "fuzz: $name: ${execs:-?} executions in ${secs}s, corpus $n inputs, no findings"
		echo "${execs:-0}" > "$work.execs"
	fi > "$work.out"
}

running=0
for name in "$@"; do
	rm -f "$bins/work/$name.out" "$bins/work/$name.execs"
	fuzz_one "$name" &
	running=$((running + 1))
	[ $running -lt "$jobs" ] || { wait; running=0; }
done
wait

status=0
total=0
for name in "$@"; do
	cat "$bins/work/$name.out"
	if [ -f "$bins/work/$name.execs" ]; then
		total=$((total + $(cat "$bins/work/$name.execs")))
	else
		status=1
	fi
done
[ $status -eq 0 ] && echo "fuzz: all $# targets clean, $total executions"
exit $status
