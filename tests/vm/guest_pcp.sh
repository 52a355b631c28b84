#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/vm/guest_pcp.sh - pmdacsf, the PCP agent, on the real module in the
# guest while csf-demo runs.  No pmcd: PCP's local context loads the
# agent's DSO into the client (pmSpecLocalPMDA(3)), pminfo -L and
# pmlogger -o, which needs no daemon, no network and no pcp user.
#
# 1. pminfo -L -f csf.thread csf.proc: the agent lists the demo's threads
#    as csftop -b does (tids and names), and each thread's five state
#    times, wakeups and migrations, and the process's sums of them, lie
#    between csftop's totals read right before and right after.
# 2. pmlogger -o records the csf metrics, 10 samples 200 ms apart;
#    csftop -b -a replays every sample, each with the demo's threads, their
#    totals non-decreasing and between csftop's live totals before and
#    after the recording; in a record (one fetch of the agent), the
#    process's csf.proc values exactly the sums of its threads'; and the
#    workload shows in it: the spinner on or waiting for a CPU all the
#    time, the pinned pair waiting for their CPU, the sleeper sleeping,
#    the reader waiting for I/O.
#
# A guest script of the VM harness (tests/vm/run.sh runs every
# tests/vm/guest_*.sh in each clock mode with the module loaded and
# mounted; see its header), with csftop and csf-demo as
# tests/vm/guest_csftop_batch.sh has them,
# csf-vm-ship: src/csftop src/csf-demo
# the agent as built (libtool's .libs/pmda_csf.so finds the uninstalled
# library, which the harness ships to the guest's /usr/lib) and
# the PMNS it writes, and Debian's pcp: pmcpp is what pminfo -n and
# pmlogger run a PMNS or a configuration through, pcp.conf is read by
# every libpcp client, csftop -a's too.  Without them (configure without
# libpcp_pmda, no pcp package) the harness leaves this script out.
# csf-vm-needs: pmda/.libs/pmda_csf.so pmda/pmns
# csf-vm-needs: /usr/bin/pminfo /usr/bin/pmlogger /usr/lib/pcp/bin/pmcpp
# csf-vm-needs: /etc/pcp.conf
# 5 to 7 s a clock mode under TCG on Debian's kernels, 17 to 49 s on the
# debug kernel.

# shellcheck disable=SC2016 # awk programs
here=$(dirname "$0")
CSFTOP=${CSFTOP:-$here/csftop}
CSF_DEMO=${CSF_DEMO:-$here/csf-demo}
DSO=${PMDA_DSO:-$here/pmda_csf.so}
DISK=${CSF_VM_DISK:-/dev/vda}
T=${TMPDIR:-/tmp}/guest_pcp.$$
mkdir -p "$T/pcptmp" "$T/archive"

# ok, no, check, summary: lib.sh is next to this script in the guest
# (/tests), one directory up in the source tree
# shellcheck source=SCRIPTDIR/../lib.sh
if [ -f "$here/lib.sh" ]; then . "$here/lib.sh"; else . "$here/../lib.sh"; fi

# Directories of pcp.conf that the guest lacks: pmlogger's port map file
# goes in $PCP_TMP_DIR/pmlogger, its preprocessed configuration in
# $PCP_TMPFILE_DIR.  libpcp takes PCP_* from the environment first.
export PCP_TMP_DIR="$T/pcptmp" PCP_TMPFILE_DIR="$T"
# the agent's PMNS under a root of its own, as tests/pcp/run.sh has it
cp "$here/pmns" "$T/pmns" || { no "the agent's PMNS is in $here"; summary; }
printf 'root { csf }\n#include "pmns"\n' > "$T/root"
# the DSO in the client, as domain 300 (pmda/domain.h)
spec=add,300,$DSO,csf_init
# The agent looks for its help text where Install puts it, which the
# guest lacks: libpcp says so on stderr.  Nothing else may be there.
errors() { grep -v 'Unable to open help text' "$1"; }

# How far a total may be off.  Counters (wakeups, migrations) are exact:
# the module adds to them inside the page's sequence-counter section.  A
# state's time is extrapolated by each reader from the state's start to
# its own clock read, and the module stamps a switch only once the page's
# count is odd (kmod/csf.h), so a later read never shows less than an
# earlier one: csftop's read before the agent's, the agent's before
# csftop's after, the archive's records in their order.  What is left is
# the disagreement of the two clocks in mono mode (the kernel's fast
# monotonic clock against the vDSO's, nanoseconds) and a nanosecond of
# rounding per value, so 1 ms is far above anything legitimate, and far
# below any error that matters: a wrong state, unit or thread is off by
# seconds or a factor.  No comparison is tried twice.
SLACK_NS=1000000
SAMPLES=10

io=
[ -b "$DISK" ] && io="--io-file $DISK"
: > "$T/demo.out"	# before the wait below greps it
# Niced: its five spinners would otherwise leave this script's programs
# and awks a fraction of the two vCPUs (14 to 43 s a mode, 5 s niced), and
# the shorter the time between two reads, the closer they bound the
# agent's values.  A spinner still runs or waits for a CPU all the time.
# shellcheck disable=SC2086 # $io is an option and its argument
niced "$CSF_DEMO" --seconds 3600 $io > "$T/demo.out" 2>&1 &
demo=$!
wait_for 100 grep -q "registered" "$T/demo.out"
check "csf-demo registered its threads" grep -q "registered (0 failed)" "$T/demo.out"
grep -q "registered (0 failed)" "$T/demo.out" || sed 's/^/    /' "$T/demo.out"

# live FILE: csftop's first sample of the demo's threads, as CSV; a first
# sample's *_total columns are since registration, like the agent's values
live() {
	"$CSFTOP" -b -n 1 -o csv -p "$demo" > "$1" 2>> "$T/csftop.err"
}

# rows_csv FILE: csftop CSV as "SAMPLE TIME TID COMM RUN RUNNABLE SLEEP
# IOWAIT BLOCKED WAKEUPS MIGRATIONS" lines (times in ns) of the demo's
# threads, ordered by sample and tid; columns found by their header names
rows_csv() {
	awk -F, -v p="$demo" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["pid"]) == p { print $(c["sample"]), $(c["time"]),
			$(c["tid"]), $(c["comm"]), $(c["run_total"]),
			$(c["runnable_total"]), $(c["sleep_total"]),
			$(c["iowait_total"]), $(c["blocked_total"]),
			$(c["wakeups"]), $(c["migrations"]) }' "$1" | sort -n -k1,1 -k3,3
}

# rows_live FILE: rows_csv's lines without SAMPLE and TIME, and after the
# threads one line "pPID process SUMS..." of their sums: what the agent's
# csf.proc values of the demo must be (no thread of it has exited)
rows_live() {
	rows_csv "$1" | cut -d' ' -f3- | awk -v p="$demo" '
		{ print; for (i = 3; i <= NF; i++) s[i] += $i; n = NF }
		END { if (n) { printf "p%s process", p
			for (i = 3; i <= n; i++) printf " %.0f", s[i]; print "" } }'
}

# rows_agent FILE: the same from pminfo -f output: the threads whose
# csf.thread.tgid is the demo's, then the demo's csf.proc values
rows_agent() {
	awk -v p="$demo" '
		/^csf\./ { m = $1; next }
		$1 == "inst" { i = substr($2, 2); v = $0; sub(/.*\] value /, "", v)
			gsub(/"/, "", v); val[m, i] = v
			if (m == "csf.thread.tgid" && v == p) tid[i] = 1 }
		function row(pre, id, name, k, f) {
			printf "%s %s", pre id, name
			for (f = 1; f <= 7; f++) printf " %s", val[k[f], id]
			print "" }
		END {
			split("time.running time.runnable time.sleeping time.iowait time.blocked wakeups migrations", f, " ")
			for (j = 1; j <= 7; j++) { th[j] = "csf.thread." f[j]; pr[j] = "csf.proc." f[j] }
			for (i in tid) row("", i, val["csf.thread.comm", i], th)
			if (val["csf.proc.nthreads", p] != "") row("p", p, "process", pr)
		}' "$1" | sort -n
}

# between SLACK BEFORE AFTER VALUES: every line of VALUES (a key, a name,
# then the seven numbers of rows_live) against the line of the same key in
# BEFORE and in AFTER: each number at least BEFORE's and at most AFTER's,
# the five times give or take SLACK.  Prints what is not, the first five
# on one line; status 1 if anything.
between() {
	awk -v slack="$1" '
		BEGIN { split("running runnable sleeping iowait blocked wakeups migrations", n, " ") }
		FILENAME != file { file = FILENAME; while (ARGV[++f] != file) ; }
		f == 1 { for (i = 3; i <= NF; i++) lo[$1, i] = $i; next }
		f == 2 { for (i = 3; i <= NF; i++) hi[$1, i] = $i; next }
		{ for (i = 3; i <= NF; i++) {
			s = i <= 7 ? slack : 0
			if (!(($1, i) in lo) || !(($1, i) in hi) ||
			    $i + 0 < lo[$1, i] - s || $i + 0 > hi[$1, i] + s) {
				if (++bad <= 5)
					printf "%s %s %s %s not in [%s, %s]; ", $1, $2,
						n[i - 2], $i, lo[$1, i], hi[$1, i]
			} } }
		END { if (bad > 5) printf "(%d in all)", bad; exit bad > 0 }' "$2" "$3" "$4"
}

# names FILE: the "TID COMM" pairs of rows_live or rows_agent lines, on one line
names() {
	awk '!/^p/ { printf "%s %s ", $1, $2 }' "$1"
}

# ---- 1. the DSO through pminfo -L against csftop -b --------------------------
live "$T/before.csv"
pminfo -L -K clear -K "$spec" -n "$T/root" -f csf.thread csf.proc \
	> "$T/agent.txt" 2> "$T/pminfo.err"
pminfo_rc=$?
live "$T/after.csv"
rows_live "$T/before.csv" > "$T/before"
rows_live "$T/after.csv" > "$T/after"
rows_agent "$T/agent.txt" > "$T/agent"
grep -v '^p' "$T/agent" > "$T/agent.threads"
grep '^p' "$T/agent" > "$T/agent.proc"
set_before=$(names "$T/before")
set_agent=$(names "$T/agent")
set_after=$(names "$T/after")
n_threads=$(grep -c . "$T/agent.threads")
why_set='' why_threads='' why_proc=''
if [ "$n_threads" -lt 8 ] || [ "$set_agent" != "$set_before" ] ||
	[ "$set_agent" != "$set_after" ]; then
	why_set="the thread sets differ"
else
	why_threads=$(between "$SLACK_NS" "$T/before" "$T/after" "$T/agent.threads")
fi
if [ ! -s "$T/agent.proc" ]; then
	why_proc="no csf.proc values for process $demo"
else
	why_proc=$(between $((SLACK_NS * n_threads)) "$T/before" "$T/after" "$T/agent.proc")
fi
check "pminfo -L loads the agent's DSO and fetches csf.thread and csf.proc (exit $pminfo_rc)" \
	test "$pminfo_rc" = 0 -a -s "$T/agent.txt"
check "pminfo -L: no error output" test -z "$(errors "$T/pminfo.err")"
[ -n "$(errors "$T/pminfo.err")" ] && errors "$T/pminfo.err" | sed 's/^/    /'
check "the agent lists the demo's $n_threads threads as csftop does before and after it, tids and names: $set_agent" \
	test -z "$why_set"
if [ -n "$why_set" ]; then
	echo "    csftop before: $set_before"
	echo "    csftop after:  $set_after"
fi
check "each thread's times, wakeups and migrations from the agent lie between csftop's before and after${why_threads:+: $why_threads}" \
	test -z "$why_set$why_threads"
# csf.proc.nthreads of the demo's process
nthreads=$(awk -v p="$demo" '/^csf\./ { m = $1 } m == "csf.proc.nthreads" &&
	$1 == "inst" && $2 == "[" p { print $NF }' "$T/agent.txt")
check "the process's sums of them too, and its $n_threads threads (csf.proc.nthreads ${nthreads:-missing})${why_proc:+: $why_proc}" \
	test -z "$why_proc" -a "$nthreads" = "$n_threads"
# one thread for the log: the numbers compared
awk '$2 == "spin" { v[++n] = $3 }
	END { print "    spin'"'"'s running ns: before " v[1] ", agent " v[2] ", after " v[3] }' \
	"$T/before" "$T/agent" "$T/after"

# ---- 2. pmlogger -o, then csftop -b -a ---------------------------------------
# finish: the checks every run ends with
finish() {
	kill "$demo" 2>/dev/null
	wait "$demo" 2>/dev/null
	check "csftop -b: no error output" test ! -s "$T/csftop.err"
	[ -s "$T/csftop.err" ] && sed 's/^/    /' "$T/csftop.err"
	rm -rf "$T"
	summary
}
# pmlogger exits when it gets no control port (AF_INET, AF_INET6 or
# AF_UNIX) for pmlc: on a kernel without sockets (the debug kernel was
# built without networking before it got CONFIG_UNIX) say so once
if [ ! -e /proc/net/unix ] && [ ! -e /proc/net/tcp ] && [ ! -e /proc/net/tcp6 ]; then
	no "this kernel has no sockets (CONFIG_UNIX, CONFIG_INET), and pmlogger needs one: no archive (tests/vm/debug.config has CONFIG_UNIX: scripts/kernels fetch debug rebuilds a debug kernel from before)"
	finish
fi
printf 'log mandatory on every 200 msec {\n\tcsf.thread\n\tcsf.proc\n\tcsf.cpu\n\tcsf.module\n}\n' \
	> "$T/csf.config"
live "$T/before.csv"
timeout 120 pmlogger -o -K clear -K "$spec" -n "$T/root" -c "$T/csf.config" \
	-s $SAMPLES -l "$T/pmlogger.log" "$T/archive/csf" > "$T/pmlogger.out" 2>&1
pmlogger_rc=$?
live "$T/after.csv"
kill "$demo" 2>/dev/null
wait "$demo" 2>/dev/null
# the log ends so when pmlogger stopped after -s samples, as asked
check "pmlogger -o (local context, no pmcd) records $SAMPLES samples (exit $pmlogger_rc)" \
	sh -c "test '$pmlogger_rc' = 0 -a -s '$T/archive/csf.0' &&
		grep -q 'Sample limit reached' '$T/pmlogger.log'"
if [ "$pmlogger_rc" != 0 ] || [ ! -s "$T/archive/csf.0" ]; then
	sed 's/^/    /' "$T/pmlogger.out" "$T/pmlogger.log"
	finish
fi
warned=$(grep -iE 'error|warning|fail|fatal' "$T/pmlogger.log" | grep -v 'Unable to open help text')
check "pmlogger's log: no error or warning but the missing help text${warned:+: $warned}" \
	test -z "$warned"
"$CSFTOP" -b -a "$T/archive/csf" -o csv > "$T/replay.csv" 2> "$T/replay.err"
replay_rc=$?
check "csftop -b -a replays it (exit $replay_rc), no error output" \
	test "$replay_rc" = 0 -a ! -s "$T/replay.err"
[ -s "$T/replay.err" ] && sed 's/^/    /' "$T/replay.err"
rows_csv "$T/replay.csv" > "$T/replay"
check "csftop -b -a: $SAMPLES samples" \
	test "$(awk -F, 'NR > 1 && !($1 in s) { s[$1]; n++ } END { print n + 0 }' "$T/replay.csv")" = $SAMPLES

# each sample's demo threads, as "TID COMM" pairs, against the live ones
rows_live "$T/before.csv" > "$T/before"
rows_live "$T/after.csv" > "$T/after"
set_live=$(names "$T/before")
bad_samples=$(awk -v want="$set_live" '
	$1 != s { if (s != "" && got != want) bad = bad " " s; s = $1; got = "" }
	{ got = got $3 " " $4 " " }
	END { if (s == "" || got != want) bad = bad " " s; print bad }' "$T/replay")
check "csftop -b -a: every sample has the demo's threads, tids and names, as csftop showed them live" \
	test -z "$bad_samples" -a "$set_live" = "$(names "$T/after")"
[ -n "$bad_samples" ] && echo "    samples without them:$bad_samples"

# non-decreasing, thread by thread, and between the live totals
dips=$(awk -v slack="$SLACK_NS" '
	BEGIN { split("running runnable sleeping iowait blocked wakeups migrations", n, " ") }
	{ for (i = 5; i <= NF; i++) {
		k = $3 SUBSEP i
		if ((k in prev) && $i + 0 < prev[k] - (i <= 9 ? slack : 0))
			printf "sample %s: %s %s %s after %s; ", $1, $4, n[i - 4], $i, prev[k]
		prev[k] = $i } }' "$T/replay")
check "csftop -b -a: each thread's totals never decrease from sample to sample${dips:+: $dips}" \
	test -s "$T/replay" -a -z "$dips"
cut -d' ' -f3- "$T/replay" > "$T/replayed"
why=$(between "$SLACK_NS" "$T/before" "$T/after" "$T/replayed")
check "csftop -b -a: every total lies between csftop's live totals before and after the recording${why:+: $why}" \
	test -s "$T/replay" -a -z "$why"

# A record of the archive is one fetch of the agent, so in it the demo's
# csf.proc values are exactly the sums of its threads' csf.thread values
# (pminfo -a: the first record; no thread of the demo has exited)
pminfo -a "$T/archive/csf" -f csf.thread csf.proc > "$T/record.txt" 2> "$T/record.err"
rows_agent "$T/record.txt" > "$T/record"
nthreads=$(awk -v p="$demo" '/^csf\./ { m = $1 } m == "csf.proc.nthreads" &&
	$1 == "inst" && $2 == "[" p { print $NF }' "$T/record.txt")
unsummed=$(awk '
	BEGIN { split("running runnable sleeping iowait blocked wakeups migrations", n, " ") }
	/^p/ { for (i = 3; i <= NF; i++) proc[i] = $i; next }
	{ for (i = 3; i <= NF; i++) sum[i] += $i; threads++ }
	END { for (i = 3; i <= 9; i++) if (!(i in proc) || proc[i] != sum[i])
		printf "%s %s, threads %.0f; ", n[i - 2], proc[i], sum[i] }' "$T/record")
check "archive: in a record, the demo's csf.proc values are its threads' sums, and its $n_threads threads (csf.proc.nthreads ${nthreads:-missing})${unsummed:+: $unsummed}" \
	test -z "$unsummed" -a "$nthreads" = "$n_threads" -a "$(grep -vc '^p' "$T/record")" = "$n_threads"
check "pminfo -a: no error output" test ! -s "$T/record.err"
[ -s "$T/record.err" ] && sed 's/^/    /' "$T/record.err"

# the workload in the archive: what a thread's totals grew by from the
# second sample to the last, against the span between the two by the
# archive's own time stamps (g[COMM, COL]: COL of rows_csv, 5 running to
# 9 blocked).  Not from the first: the agent read its pages late after
# its time stamp (the spinner showed 72 to 96% busy in the interval after
# it, on the debug kernel and on 6.12, and 99.85 to 100% in all others).
read -r span spin_on pair_waits sleep_slept spin_slept reader_iowait <<EOF
$(awk '
	$1 == 1 { next }
	t0 == "" { t0 = $2 }
	{ t1 = $2; if (!(($4, 5) in first)) for (i = 5; i <= 9; i++) first[$4, i] = $i
	  for (i = 5; i <= 9; i++) g[$4, i] = $i - first[$4, i] }
	END { printf "%.0f %.0f %.0f %.0f %.0f %.0f\n", (t1 - t0) * 1e9,
		g["spin", 5] + g["spin", 6], g["contend-a", 6] + g["contend-b", 6],
		g["sleep", 7], g["spin", 7], g["iowait", 8] }' "$T/replay")
EOF
# The spinner never sleeps: it is on a CPU or waiting for one.  Far
# more than the span would be time counted twice or in ticks (a TSC's are
# GHz).  Not closer than 20%: a record's pages are read a little after
# its time stamp, and under TCG a little can be a round-robin slice,
# 100 ms, 6% of the span; part 1 checks the values closely.
check "archive: the spinner ran or waited for a CPU 80-120% of the $span ns recorded ($spin_on ns)" \
	awk -v a="$spin_on" -v s="$span" 'BEGIN { exit !(s > 1e9 && a >= 0.8 * s && a <= 1.2 * s) }'
# for the log: the same sample by sample, as csftop -a shows it
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["comm"]) == "spin" { l = l " " $(c["run"]) + $(c["runnable"]) }
	END { print "    the spinner'"'"'s running + runnable % by sample:" l }' "$T/replay.csv"
# two spinners pinned to one CPU: whenever one runs the other waits
check "archive: the pinned pair waited for their CPU at least half the span ($pair_waits ns)" \
	awk -v a="$pair_waits" -v s="$span" 'BEGIN { exit !(s > 1e9 && a >= 0.5 * s) }'
check "archive: the sleeper slept, the spinner did not ($sleep_slept, $spin_slept ns)" \
	test "$sleep_slept" -gt "$spin_slept"
if [ -n "$io" ]; then
	check "archive: the reader waited for I/O ($reader_iowait ns)" test "$reader_iowait" -gt 0
fi

finish
