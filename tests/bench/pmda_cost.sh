#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/bench/pmda_cost.sh - the CPU time pmdacsf, the PCP agent, spends on
# one fetch, over N page-shaped files (mkfakeroot, as csftop_cost.sh's
# pages mode), N = 10, 100, 1000.  A benchmark, not a test: it prints
# figures and exits 0 when it could measure.
#
# The daemon runs under dbpmda, which speaks pmcd's pipe protocol to it;
# its CPU time is read from /proc/PID/schedstat around F fetches (default
# 200), after one fetch that maps the pages.  Three fetches are timed:
#   sample   one value (csf.module.nthreads): what a fetch costs before
#            any value, i.e. reading every page and building the instances
#   one      csf.thread.time.running: one value per thread
#   all      every csf.thread metric, as pmlogger or pmrep would ask
# "us/thr" is a fetch's cost divided by N.
#
#   usage: pmda_cost.sh [FETCHES]
# Run from the build tree (it looks for pmda/pmdacsf and
# tests/tui/mkfakeroot there, or $PMDACSF and $MKFAKEROOT).

F=${1:-200}
[ "$F" -ge 1 ] 2>/dev/null || { echo "usage: pmda_cost.sh [FETCHES >= 1]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
PMDACSF=${PMDACSF:-$(pwd)/pmda/pmdacsf}
MKFAKEROOT=${MKFAKEROOT:-$(pwd)/tests/tui/mkfakeroot}
PATH=$PATH:/usr/lib/pcp/bin
for p in dbpmda pminfo; do
	command -v $p >/dev/null || { echo "pmda_cost.sh: no $p (apt-get install pcp)" >&2; exit 1; }
done
[ -x "$PMDACSF" ] && [ -x "$MKFAKEROOT" ] ||
	{ echo "pmda_cost.sh: run it from the build tree after make check (pmda/pmdacsf, tests/tui/mkfakeroot)" >&2; exit 1; }
. "$src/tests/lib.sh"
. "$src/tests/pcp/dbpmda.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/pmda_cost.XXXXXX") || exit 1
cleanup() {
	exec 7>&- 2>/dev/null
	[ -n "$db_pid" ] && kill "$db_pid" 2>/dev/null && wait "$db_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

"$PMDACSF" --pmns > "$work/pmns" && cp "$src/pmda/root" "$work/root" || exit 1
all=$(pminfo -n "$work/root" csf.thread | paste -sd,)

# fake_root N DIR: N threads in N/10 processes, half with a growing interval
fake_root() {
	awk -v n="$1" 'BEGIN { print "cpus 2"
		split("running runnable sleeping iowait blocked", st, " ")
		for (i = 0; i < n; i++)
			printf "thread %d %d worker-%d %s run=%d runnable=%d sleep=%d nvcsw=%d nivcsw=%d wakeups=%d migrations=%d cpu=%d%s\n",
				10000 + i, 10000 + int(i / 10) * 10, i, st[i % 5 + 1],
				(i * 37) % 9000, (i * 13) % 500, (i * 101) % 90000,
				i * 11, i * 3, i * 11, i % 50, i % 2,
				i % 2 ? " since=now" : "" }' | "$MKFAKEROOT" "$2"
}

# cost PMNS AGENT METRICS: ns of AGENT's CPU per fetch of METRICS, after a
# first fetch (which maps the pages, or reads /proc once); the number of
# values of the last fetch in $work/nvalues
cost() {
	local pid a b
	db_start "$work" "$1" "$2"
	db "fetch $3"
	# libtool's wrapper execs the real binary: the same pid
	pid=$(db_pid_agent)
	a=$(awk '{ print $1 }' "/proc/$pid/schedstat" 2>/dev/null)
	db_send "$F" "fetch $3"
	b=$(awk '{ print $1 }' "/proc/$pid/schedstat" 2>/dev/null)
	db "fetch $3"
	grep -c 'inst \[' "$db_dir/db.last" > "$work/nvalues"
	db_stop
	[ -n "$a" ] && [ -n "$b" ] || { echo "?"; return; }
	echo $(((b - a) / F))
}

csf_cost() {
	CSF_ROOT=$1 cost "$work/root" "$PMDACSF -d 300 -l $work/pmdacsf.log" "$2"
}

echo "pmdacsf CPU time per fetch, over N page-shaped files ($F fetches each; dbpmda)"
printf '%6s %10s %10s %10s %10s\n' N sample_us one_us all_us all_us/thr
for n in 10 100 1000; do
	fake_root "$n" "$work/root.$n" || exit 1
	s=$(csf_cost "$work/root.$n" csf.module.nthreads)
	o=$(csf_cost "$work/root.$n" csf.thread.time.running)
	a=$(csf_cost "$work/root.$n" "$all")
	awk -v n="$n" -v s="$s" -v o="$o" -v a="$a" 'BEGIN {
		printf "%6d %10.1f %10.1f %10.1f %10.3f\n", n, s / 1000, o / 1000, a / 1000, a / 1000 / n }'
done
echo "all: the $(echo "$all" | tr , '\n' | wc -l) csf.thread metrics"

# pmdaproc -L (threads as instances) for what it has of the same: the
# times running and runnable (schedstat) and in block I/O (delay
# accounting), switches, state, CPU, process and name.  -A: dbpmda sends
# no credentials, which pmdaproc's access checks would refuse.
PMDAPROC=${PMDAPROC:-/var/lib/pcp/pmdas/proc/pmdaproc}
[ -x "$PMDAPROC" ] || { echo "pmdaproc: not installed, not compared"; exit 0; }
proc_metrics=proc.schedstat.cpu_time,proc.schedstat.run_delay,proc.psinfo.delayacct_blkio_time,proc.psinfo.vctxsw,proc.psinfo.nvctxsw,proc.psinfo.sname,proc.psinfo.processor,proc.psinfo.tgid,proc.psinfo.cmd
nproc=$(echo "$proc_metrics" | tr , '\n' | wc -l)
echo
echo "pmdaproc -L CPU time per fetch of its $nproc like metrics, with N sleeping threads in one process besides the host's ($F fetches each)"
printf '%6s %10s %10s %10s\n' N instances all_us all_us/inst
for n in 100 1000; do
	python3 -c 'import sys, threading, time
for _ in range(int(sys.argv[1])):
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
print("ready", flush=True)
time.sleep(3600)' "$n" > "$work/threads.out" &
	tpid=$!
	wait_for 300 grep -qs ready "$work/threads.out"
	a=$(cost /var/lib/pcp/pmns/root_proc "$PMDAPROC -d 3 -L -A -l $work/pmdaproc.log" "$proc_metrics")
	kill "$tpid"; wait "$tpid" 2>/dev/null
	awk -v n="$n" -v v="$(cat "$work/nvalues")" -v m="$nproc" -v a="$a" 'BEGIN {
		printf "%6d %10d %10.1f %10.3f\n", n, v / m, a / 1000, a / 1000 / (v / m) }'
done
