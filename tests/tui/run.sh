#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/tui/run.sh - csftop end to end, on the host, against fake roots.
#
# 1. Scripted screens (like tig's tests): for each cases/NAME.keys, a fresh
#    fake root is written from cases/NAME.spec (or cases/base.spec), csftop
#    runs with CSFTOP_SCRIPT=NAME.keys (extra options from NAME.args), and
#    every screen the script dumps (NAME-N.txt) must equal cases/NAME-N.txt.
#    The exit status must be cases/NAME.status (default 0).
# 2. Bad input: options, TERM, no module, no terminal: message and status.
# 3. Batch mode: text, CSV and JSON lines, -s and -p.
# 4. A real terminal (tmux, when installed): start, draw, quit with q, with
#    Ctrl-C, a resize below the minimum and back, a terminal too small.
#
# CSFTOP_BLESS=1 writes the screens produced as the new expected ones.
# Prints "N passed, N failed" last; exit status 1 when any failed.

srcdir=${srcdir:-$(dirname "$0")/../..}
CASES=$(cd "$srcdir/tests/tui/cases" && pwd)
CSFTOP=${CSFTOP:-$(pwd)/src/csftop}
MKFAKEROOT=${MKFAKEROOT:-$(pwd)/tests/tui/mkfakeroot}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/csftop-tui.XXXXXX")
export CASES MKFAKEROOT
# Screens are compared in English; the terminal type fixes the key codes.
LC_ALL=C.UTF-8
LANGUAGE=
TERM=xterm
export LC_ALL LANGUAGE TERM
unset CSFTOP_SCRIPT CSFTOP_SCRIPT_SIZE

# ok MSG and no MSG count the checks, printed as "PASS: MSG", "FAIL: MSG"
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
ck_ok=PASS

cleanup() {
	for sock in "$WORK"/tmux.*.sock; do
		[ -S "$sock" ] && tmux -S "$sock" kill-server 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT

for f in "$CSFTOP" "$MKFAKEROOT"; do
	if [ ! -x "$f" ]; then
		echo "run.sh: $f is not built" >&2
		exit 99
	fi
done

new_root() {	# $1: spec file; prints the root's path
	root=$WORK/root.$$.$(date +%s%N)
	"$MKFAKEROOT" "$root" < "$1" || exit 99
	echo "$root"
}

# --- 1. scripted screens ------------------------------------------------
for keys in "$CASES"/*.keys; do
	name=$(basename "$keys" .keys)
	spec=$CASES/$name.spec
	[ -f "$spec" ] || spec=$CASES/base.spec
	args=
	[ -f "$CASES/$name.args" ] && args=$(cat "$CASES/$name.args")
	want_status=0
	[ -f "$CASES/$name.status" ] && want_status=$(cat "$CASES/$name.status")
	ROOT=$(new_root "$spec")
	export ROOT
	out=$WORK/out.$name
	mkdir -p "$out"
	# shellcheck disable=SC2086 # $args are options, split on purpose
	(cd "$out" && CSF_ROOT=$ROOT CSFTOP_SCRIPT=$keys "$CSFTOP" $args \
		> "$WORK/$name.stdout" 2> "$WORK/$name.stderr")
	status=$?
	if [ "$status" != "$want_status" ]; then
		no "$name: exit status $status, want $want_status"
		sed 's/^/    /' "$WORK/$name.stderr"
		continue
	fi
	ok "$name: exit status $status"
	for expected in "$CASES/$name"-*.txt; do
		[ -f "$expected" ] || continue
		screen=$(basename "$expected")
		if [ ! -f "$out/$screen" ]; then
			no "$name: screen $screen was not dumped"
		elif cmp -s "$expected" "$out/$screen"; then
			ok "$name: screen $screen"
		else
			no "$name: screen $screen differs"
			diff -u "$expected" "$out/$screen" | sed 's/^/    /'
		fi
	done
	for got in "$out"/*; do
		[ -f "$got" ] || continue
		screen=$(basename "$got")
		if [ -n "$CSFTOP_BLESS" ]; then
			cp "$got" "$CASES/$screen"
		elif [ ! -f "$CASES/$screen" ]; then
			no "$name: $screen has no expected screen (CSFTOP_BLESS=1 makes it)"
		fi
	done
done

# --- 2. bad input -------------------------------------------------------
ROOT=$(new_root "$CASES/base.spec")

# expect NAME STATUS PATTERN [env VAR=..] -- csftop ARGS
# The message must be one line on stderr (or stdout for --help/--version).
expect() {
	name=$1 want=$2 pattern=$3
	shift 3
	"$@" > "$WORK/bad.out" 2> "$WORK/bad.err" < /dev/null
	status=$?
	if [ "$status" != "$want" ]; then
		no "$name: exit status $status, want $want"
		sed 's/^/    /' "$WORK/bad.err"
	elif ! grep -q -- "$pattern" "$WORK/bad.out" "$WORK/bad.err"; then
		no "$name: no '$pattern' in the output"
		sed 's/^/    /' "$WORK/bad.out" "$WORK/bad.err"
	else
		ok "$name"
	fi
}

run() { env CSF_ROOT="$ROOT" "$CSFTOP" "$@"; }
expect "unknown long option" 2 "unrecognized option '--bogus'" run --bogus
expect "unknown short option" 2 "invalid option -- 'x'" run -x
expect "usage hint" 2 "Try 'csftop --help'" run --bogus
expect "-d below 10 ms" 2 "invalid interval '5'" run -d 5
expect "-d not a number" 2 "invalid interval 'abc'" run -d abc
expect "-d negative" 2 "invalid interval '-10'" run -d -10
expect "-d missing" 2 "requires an argument" run -d
expect "-p zero" 2 "invalid PID list '0'" run -p 0
expect "-p empty item" 2 "invalid PID list '1,,2'" run -p 1,,2
expect "-p name" 2 "invalid PID list 'init'" run -p init
expect "-n zero" 2 "invalid count '0'" run -b -n 0
expect "-o unknown" 2 "invalid output format 'xml'" run -b -o xml
expect "-o without -b" 2 "-o needs -b" run -o csv
expect "-s unknown" 2 "unknown sort column 'nosuch'" run -s nosuch
expect "extra operand" 2 "extra operand 'foo'" run foo
expect "-A with -p" 2 "-A shows every thread: not with -a or -p" run -A -p 1
expect "-A with a command" 2 "a command runs alone" run -A -- true
expect "--help" 0 "Usage: csftop \[OPTION\]" run --help
expect "--version" 0 "^csftop (coarse_stat_fs) " run --version
expect "no module" 1 "csftop: " env CSF_ROOT="$WORK/nonexistent" "$CSFTOP"
if [ "$(wc -l < "$WORK/bad.err")" = 1 ]; then
	ok "no module: one line"
else
	no "no module: $(wc -l < "$WORK/bad.err") lines"
fi
expect "TERM unset" 1 "TERM is not set" env -u TERM CSF_ROOT="$ROOT" "$CSFTOP"
expect "TERM empty" 1 "TERM is not set" env TERM= CSF_ROOT="$ROOT" "$CSFTOP"
expect "not a terminal" 1 "must be a terminal" run

# --- 3. batch -----------------------------------------------------------
batch() { env CSF_ROOT="$ROOT" "$CSFTOP" -b "$@" 2> "$WORK/batch.err"; }

batch -n 2 -d 10 > "$WORK/b.txt"
if [ "$(grep -c '^csftop .* sample [12] ' "$WORK/b.txt")" = 2 ] &&
   [ "$(grep -c ' contend-a ' "$WORK/b.txt")" = 2 ]; then
	ok "batch text: 2 samples"
else
	no "batch text: 2 samples"
	sed 's/^/    /' "$WORK/b.txt" "$WORK/batch.err"
fi

batch -n 2 -d 10 -o csv > "$WORK/b.csv"
if [ "$(head -1 "$WORK/b.csv")" = "sample,time,interval_ns,mark,pid,tid,comm,state,cpu,run,runnable,sleep,iowait,blocked,run_total,runnable_total,sleep_total,iowait_total,blocked_total,vcsw,ivcsw,migrations,wakeups,runnable_p99,runnable_max,wait_p99,waker,preemptor,waker_tid,preemptor_tid" ] &&
   [ "$(wc -l < "$WORK/b.csv")" = 13 ]; then
	ok "batch csv: header once, 6 threads x 2 samples"
else
	no "batch csv"
	sed 's/^/    /' "$WORK/b.csv"
fi
# first sample, default sort (runnable share since registration, desc)
if [ "$(sed -n 2p "$WORK/b.csv" | cut -d, -f6,7,11)" = "4245,contend-b,52.00" ]; then
	ok "batch csv: default sort runnable desc"
else
	no "batch csv: default sort runnable desc: $(sed -n 2p "$WORK/b.csv")"
fi

batch -n 1 -o csv -s +tid > "$WORK/b.csv"
if [ "$(cut -d, -f6 "$WORK/b.csv" | tr '\n' ' ')" = "tid 4242 4243 4244 4245 4246 5000 " ]; then
	ok "batch -s +tid"
else
	no "batch -s +tid: $(cut -d, -f6 "$WORK/b.csv" | tr '\n' ' ')"
fi

batch -n 1 -o csv -s comm > "$WORK/b.csv"
if [ "$(cut -d, -f7 "$WORK/b.csv" | tr '\n' ' ')" = "comm contend-a contend-b csf-demo iowait mutex-a spin " ]; then
	ok "batch -s comm"
else
	no "batch -s comm: $(cut -d, -f7 "$WORK/b.csv" | tr '\n' ' ')"
fi

batch -n 1 -o csv -p 5000 > "$WORK/b.csv"
if [ "$(cut -d, -f5,6 "$WORK/b.csv" | tr '\n' ' ')" = "pid,tid 5000,5000 " ]; then
	ok "batch -p"
else
	no "batch -p: $(cat "$WORK/b.csv")"
fi

# -A: the whole machine is asked of the module ("all" in the attach
# file); a root without the file is an older module, said, and every
# registered thread is shown either way (the time column aside).
batch -n 1 -o csv -s +tid | cut -d, -f1,3- > "$WORK/b.csv"
batch -n 1 -o csv -s +tid -A | cut -d, -f1,3- > "$WORK/ba.csv"
if cmp -s "$WORK/b.csv" "$WORK/ba.csv" &&
	grep -q "older than ABI 1.4" "$WORK/batch.err"; then
	ok "batch -A, a module before 1.4: said, every thread shown"
else
	no "batch -A, a module before 1.4"
	sed 's/^/    /' "$WORK/ba.csv" "$WORK/batch.err"
fi
: > "$ROOT/attach"
batch -n 1 -o csv -s +tid -A | cut -d, -f1,3- > "$WORK/ba.csv"
if [ "$(cat "$ROOT/attach")" = all ] && [ ! -s "$WORK/batch.err" ] &&
	cmp -s "$WORK/b.csv" "$WORK/ba.csv"; then
	ok "batch -A: \"all\" written, nothing said, every thread shown"
else
	no "batch -A: attach file '$(cat "$ROOT/attach")'"
	sed 's/^/    /' "$WORK/ba.csv" "$WORK/batch.err"
fi
rm -f "$ROOT/attach"

# -P: a row per process, its threads summed (computed by hand from
# processes.spec: every thread's buckets add up to 10 s); JSON names the
# array per_process.
PROOT=$(new_root "$CASES/processes.spec")
env CSF_ROOT="$PROOT" "$CSFTOP" -b -n 1 -o csv -P -s +tid 2> "$WORK/batch.err" |
	cut -d, -f5-14,22,23 > "$WORK/p.csv"
if [ "$(tr '\n' ' ' < "$WORK/p.csv")" = "pid,tid,comm,state,cpu,run,runnable,sleep,iowait,blocked,migrations,wakeups 4242,4242,csf-demo,running,0,141.00,60.00,99.00,0.00,0.00,15,910 5000,5000,mutex-a,blocked,1,30.00,0.00,60.00,0.00,10.00,0,0 6000,6000,reader,iowait,1,15.00,0.00,5.00,90.00,90.00,0,3100 " ]; then
	ok "batch -P csv: processes summed"
else
	no "batch -P csv: processes summed"
	sed 's/^/    /' "$WORK/p.csv" "$WORK/batch.err"
fi
env CSF_ROOT="$PROOT" "$CSFTOP" -b -n 1 -P -s +tid 2> "$WORK/batch.err" |
	awk 'f && NF { print $1, $3, $6 } / PID / { f = 1 }' > "$WORK/p.txt"
if [ "$(tr '\n' ' ' < "$WORK/p.txt")" = "4242 csf-demo 141.0 5000 mutex-a 30.0 6000 reader 15.0 " ]; then
	ok "batch -P text"
else
	no "batch -P text"
	sed 's/^/    /' "$WORK/p.txt" "$WORK/batch.err"
fi
env CSF_ROOT="$PROOT" "$CSFTOP" -b -n 1 -o json -P -s +tid 2> "$WORK/batch.err" > "$WORK/p.json"
if grep -q '"processes":3,' "$WORK/p.json" &&
   [ "$(grep -o '"per_process":\[{"mark":"","interval_ns":[0-9]*,"pid":4242,"tid":4242,"comm":"csf-demo","state":"running","cpu":0,"run":141.00' "$WORK/p.json" | wc -l)" = 1 ] &&
   ! grep -q '"threads":\[' "$WORK/p.json"; then
	ok "batch -P json: per_process"
else
	no "batch -P json: per_process"
	sed 's/^/    /' "$WORK/p.json" "$WORK/batch.err"
fi

# Every form a cell prints, byte for byte (the sample's clock time left
# out).  The expected files were written by csftop before fmt_cell()
# (commit 86fa5f9), whose formatter test_model holds to printf's output.
BROOT=$(new_root "$CASES/batch.spec")
for form in text csv; do
	env CSF_ROOT="$BROOT" "$CSFTOP" -b -n 1 -o $form > "$WORK/bf.out" \
		2> "$WORK/batch.err"
	if [ $form = text ]; then
		tail -n +2 "$WORK/bf.out"
	else
		cut -d, -f1,3- "$WORK/bf.out"
	fi > "$WORK/bf.got"
	if cmp -s "$CASES/batch-$form.txt" "$WORK/bf.got"; then
		ok "batch $form: every number form as expected"
	else
		no "batch $form: every number form as expected"
		diff -u "$CASES/batch-$form.txt" "$WORK/bf.got" | sed 's/^/    /'
	fi
done

# The waits of the interval, from the histograms of the pages (ABI 1.1):
# the first sample's, since registration, as computed by hand from
# waits.spec with the rule of csf_hist_quantile(3); a 1.0 page has none.
WROOT=$(new_root "$CASES/waits.spec")
env CSF_ROOT="$WROOT" "$CSFTOP" -b -n 1 -o csv -s +tid 2> "$WORK/batch.err" |
	cut -d, -f6,24- > "$WORK/w.csv"
if [ "$(tr '\n' ' ' < "$WORK/w.csv")" = "tid,runnable_p99,runnable_max,wait_p99,waker,preemptor,waker_tid,preemptor_tid 4242,2306867,4000000,18454937,(interrupt),,0, 4244,4177493,5000000,4177493,,contend-b,,4245 5000,,,,,,, " ]; then
	ok "batch csv: the waits of each thread, none of a 1.0 page"
else
	no "batch csv: the waits of each thread"
	sed 's/^/    /' "$WORK/w.csv" "$WORK/batch.err"
fi
env CSF_ROOT="$WROOT" "$CSFTOP" -b -n 1 -o json -s +tid 2> "$WORK/batch.err" \
	> "$WORK/w.json"
want='"hist":{"running":[[2097152,904]],"runnable":[[2097152,890],[4194304,10]],"sleeping":[[16777216,880],[33554432,20]],"iowait":[],"blocked":[]},"max_ns":{"running":2000000,"runnable":4000000,"sleeping":30000000,"iowait":0,"blocked":0},"waker":{"tid":0,"comm":""},"preempted_by":null}'
if grep -qF "$want" "$WORK/w.json" &&
   grep -qF '"waker":null,"preempted_by":{"tid":4245,"comm":"contend-b"}}' "$WORK/w.json" &&
   [ "$(grep -o '"hist"' "$WORK/w.json" | wc -l)" = 2 ] &&
   { ! command -v python3 > /dev/null ||	# none in the Debian 13 root
     python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$WORK/w.json"; }; then
	ok "batch json: each thread's histograms, longest, waker and preemptor"
else
	no "batch json: each thread's histograms"
	sed 's/^/    /' "$WORK/w.json" "$WORK/batch.err"
fi
# Text shows no waits, so it reads no histograms, unless sorted on them.
order=$(env CSF_ROOT="$WROOT" "$CSFTOP" -b -n 1 -s runnable_p99 \
	2> "$WORK/batch.err" | awk '/^[ x+*] +[0-9]/ { print $2 }' | tr '\n' ' ')
if [ "$order" = "4244 4242 5000 " ]; then
	ok "batch text: sorted on a waits column it does not show"
else
	no "batch text: sorted on a waits column it does not show (TIDs: $order)"
	sed 's/^/    /' "$WORK/batch.err"
fi

# The cells of ids, totals and counts are remembered from frame to frame:
# the second frame, after totals grew in rows that kept their place and
# threads registered between and after the others (rows moved), must show
# what a first frame over the same pages shows.  Rows by TID; the exited
# row (mark x) left out.
totals() {	# the PID, TID, total and count cells of a frame's live rows
	grep -v '^x' | cut -c3-18,87-126,143-
}
BROOT=$(new_root "$CASES/batch.spec")
( sleep 1; "$MKFAKEROOT" "$BROOT" < "$CASES/batch2.spec" ) &
env CSF_ROOT="$BROOT" "$CSFTOP" -b -n 2 -d 2000 -s +tid > "$WORK/bm.out" \
	2> "$WORK/batch.err"
wait
awk '/^csftop .* sample 2 /{ f = 1 } f && /^[ x+*] +[0-9]/' "$WORK/bm.out" |
	totals > "$WORK/bm.got"
grep -v '^gone' "$CASES/batch2.spec" > "$WORK/bm.spec"
env CSF_ROOT="$(new_root "$WORK/bm.spec")" "$CSFTOP" -b -n 1 -s +tid \
	2> "$WORK/batch.err" | awk '/^[ x+*] +[0-9]/' | totals > "$WORK/bm.want"
if [ -s "$WORK/bm.want" ] && cmp -s "$WORK/bm.want" "$WORK/bm.got"; then
	ok "batch text: remembered cells follow changed totals"
else
	no "batch text: remembered cells follow changed totals"
	diff -u "$WORK/bm.want" "$WORK/bm.got" | sed 's/^/    /'
fi

batch -n 3 -d 10 -o json > "$WORK/b.json"
if [ "$(wc -l < "$WORK/b.json")" = 3 ] &&
   grep -q '"comm":"contend-a"' "$WORK/b.json"; then
	ok "batch json: one object per sample"
else
	no "batch json: one object per sample"
	sed 's/^/    /' "$WORK/b.json"
fi
if command -v python3 > /dev/null; then
	if python3 -c 'import json,sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    assert len(o["threads"]) == 6 and len(o["cpus"]) == 2, o
' "$WORK/b.json"; then
		ok "batch json: valid JSON lines"
	else
		no "batch json: valid JSON lines"
	fi
fi

# --- 4. a real terminal -------------------------------------------------
if ! command -v tmux > /dev/null; then
	echo "SKIP: tmux is not installed: no real-terminal tests"
else
	sessions=0
	tm() { tmux -S "$WORK/tmux.$sessions.sock" "$@"; }
	# pane_shows PATTERN: the pane, into $WORK/pane.txt, shows it
	pane_shows() {
		tm capture-pane -p -t t > "$WORK/pane.txt" 2>/dev/null
		grep -q -- "$1" "$WORK/pane.txt"
	}
	# wait_pane PATTERN: up to 10 s for the pane to show it, else the
	# pane as it is
	wait_pane() {
		wait_for 100 pane_shows "$1" && return 0
		sed 's/^/    /' "$WORK/pane.txt"
		return 1
	}
	# start COLS LINES ARGS: csftop in a fresh tmux session; afterwards
	# the shell prints csftop's status and keeps the pane open
	start() {
		cols=$1 lines=$2
		shift 2
		# a new server on a new socket each time: one still shutting
		# down must not take the next session with it
		tm kill-server 2>/dev/null
		sessions=$((sessions + 1))
		tm -f /dev/null new-session -d -s t -x "$cols" -y "$lines" \
			"trap : INT; env CSF_ROOT='$ROOT' TERM=screen '$CSFTOP' $* 2> '$WORK/tmux.err'; echo csftop-status=\$?; sleep 30"
	}

	start 100 30 -d 100
	if wait_pane "Ctx sw/s:" && wait_pane "contend-a"; then
		ok "tmux: screen drawn"
	else
		no "tmux: screen drawn"
	fi
	tm send-keys -t t q
	if wait_pane "csftop-status=0" && ! grep -q "Ctx sw/s" "$WORK/pane.txt"; then
		ok "tmux: q quits, status 0, terminal restored"
	else
		no "tmux: q quits, status 0, terminal restored"
	fi

	start 100 30 -d 50
	wait_pane "Ctx sw/s:" > /dev/null
	tm send-keys -t t C-c
	if wait_pane "csftop-status=130" && ! grep -q "Ctx sw/s" "$WORK/pane.txt"; then
		ok "tmux: Ctrl-C ends it, status 130, terminal restored"
	else
		no "tmux: Ctrl-C ends it, status 130, terminal restored"
	fi

	start 100 30 -d 100
	wait_pane "Ctx sw/s:" > /dev/null
	tm resize-window -t t -x 40 -y 8 2>/dev/null
	if wait_pane "Terminal too small"; then
		ok "tmux: resized too small, says so"
	else
		no "tmux: resized too small, says so"
	fi
	tm resize-window -t t -x 100 -y 30 2>/dev/null
	if wait_pane "Ctx sw/s:"; then
		ok "tmux: resized back, draws again"
	else
		no "tmux: resized back, draws again"
	fi
	tm send-keys -t t F10
	if wait_pane "csftop-status=0"; then
		ok "tmux: F10 quits"
	else
		no "tmux: F10 quits"
	fi

	start 30 6
	if wait_pane "csftop-status=1" && grep -q "terminal too small" "$WORK/tmux.err"; then
		ok "tmux: terminal too small at start, status 1"
	else
		no "tmux: terminal too small at start, status 1"
		sed 's/^/    /' "$WORK/tmux.err"
	fi
	tm kill-server 2>/dev/null
fi

echo "$((ck_n - ck_f)) passed, $ck_f failed"
[ "$ck_f" = 0 ]
