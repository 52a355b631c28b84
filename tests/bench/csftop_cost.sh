#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/bench/csftop_cost.sh - CPU time per frame of csftop -b (text and
# CSV) against top -H -b (and htop where installed) over the same number N
# of threads, N = 10, 100, 1000.  A benchmark, not a test: it prints
# figures side by side and exits 0 when it could measure.
#
# Two setups, chosen automatically (or CSF_COST_MODE=module|pages):
#
#   module  the real module (the VM, tests/vm/run.sh, or a host that can
#           load it): csf-demo --idle K registers N threads (its 8 working
#           threads plus K sleepers); csftop maps their pages, top reads the
#           same threads from /proc.
#   pages   a host without the module: mkfakeroot writes N page-shaped
#           files (CSF_ROOT), some of them with an open interval growing in
#           real time like a live page, and csftop reads them through the
#           library's same read path (map, seqcount copy, extrapolation);
#           top reads N real sleeping threads of `sleepers N` from /proc.
#           The figures are labelled as such: the pages are files in the
#           page cache, not the module's pages.
#
# Interactive: where tmux is installed, csftop -d 10 also runs in a 200x50
# tmux terminal for CSF_COST_TUI_SECONDS (default 5) over the same
# threads, and its CPU time over that window (utime + stime of
# /proc/PID/stat) gives "tui%CPU", the share of one CPU it keeps while
# drawing 100 frames a second.  htop, which has no batch mode, is timed
# the same way where installed: htop -d 1 -p PID (its shortest interval,
# 0.1 s, over the same threads), and its CPU time over the window divided
# by the frames it drew in it (10 a second) is "htop us/frame".
#
# Before and after: with CSFTOP_BEFORE set to another csftop binary (say
# one built from the commit before a change), every csftop figure is also
# measured for it, in the same run and right after csftop's own, on a
# second line per N marked "before", so that a change is judged by two
# figures taken side by side rather than by two runs on a noisy machine.
# In pages mode, with valgrind installed, both are also counted in
# instructions per frame at 1,000 threads (see "Instructions" below).
#
# csftop, csf-demo, cputime, sleepers, mkfakeroot and churn are looked for
# next to this script, in the build tree, or named by $CSFTOP, $CSF_DEMO,
# $CPUTIME, $SLEEPERS, $MKFAKEROOT, $CHURN; top is $TOP (default: top on PATH).
#
# Method: run each monitor for F frames and for 1 frame; (cpu(F) - cpu(1))
# / (F - 1) is the cost of one frame without start-up (cputime: user +
# system time from wait4).  csftop samples every 10 ms, top every 0.1 s
# (its CPU time per frame does not depend on the interval, and it cannot
# keep 10 ms at 1,000 threads anyway).  A frame's cost includes waking up
# for it.  "us/thr" is the cost per frame divided by N; the last lines give
# the marginal cost of a thread, (cost(1000) - cost(10)) / 990, which
# leaves out what a frame costs whatever N (the wake-up, the header).
#
#   usage: csftop_cost.sh [FRAMES]      (default 200; top: TOP_FRAMES, 50)

F=${1:-200}
TF=${TOP_FRAMES:-50}
[ "$F" -ge 2 ] 2>/dev/null && [ "$TF" -ge 2 ] 2>/dev/null ||
	{ echo "usage: csftop_cost.sh [FRAMES >= 2]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/csftop_cost.XXXXXX") || exit 1
wl=
cleanup() {
	[ -n "$wl" ] && kill "$wl" 2>/dev/null && wait "$wl" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

find_prog() {	# find_prog VAR NAME [optional]: $VAR, next to us, build tree
	eval "v=\${$1:-}"
	if [ -n "$v" ]; then echo "$v"; return; fi
	for p in "$here/$2" "$here/../../src/$2" "$here/../tui/$2" \
		"$(pwd)/src/$2" "$(pwd)/tests/bench/$2" "$(pwd)/tests/tui/$2" \
		"$(command -v "$2" 2>/dev/null)"; do
		[ -x "$p" ] && { echo "$p"; return; }
	done
	[ -n "$3" ] && return
	echo "csftop_cost.sh: $2 not found (set \$$1)" >&2
	exit 1
}
CSFTOP=$(find_prog CSFTOP csftop) || exit 1
CPUTIME=$(find_prog CPUTIME cputime) || exit 1

mode=${CSF_COST_MODE:-}
if [ -z "$mode" ]; then
	if [ -n "${CSF_ROOT:-}" ] || [ -e /sys/fs/coarse_stat_fs/cpu ]; then
		mode=module
	else
		mode=pages
	fi
fi
case $mode in
module)
	CSF_DEMO=$(find_prog CSF_DEMO csf-demo) || exit 1 ;;
pages)
	SLEEPERS=$(find_prog SLEEPERS sleepers) || exit 1
	MKFAKEROOT=$(find_prog MKFAKEROOT mkfakeroot opt)
	[ -n "$MKFAKEROOT" ] || { echo "csftop_cost.sh: mkfakeroot not found: 'make check' or 'make tests/tui/mkfakeroot' builds it (or set \$MKFAKEROOT)" >&2; exit 1; } ;;
*)
	echo "csftop_cost.sh: CSF_COST_MODE is module or pages" >&2; exit 2 ;;
esac

# cpu_us COMMAND...: user + system microseconds of the command
cpu_us() {
	# shellcheck disable=SC2046 # three numbers, split on purpose
	set -- $("$CPUTIME" "$@")
	echo $(($1 + $2))
}
# per_frame FRAMES COMMAND...: us per frame; %N in it is the frame count
per_frame() {
	frames=$1
	shift
	cmd=$*
	# shellcheck disable=SC2046 # the command is split on purpose
	many=$(cpu_us $(echo "$cmd" | sed "s/%N/$frames/"))
	# shellcheck disable=SC2046
	one=$(cpu_us $(echo "$cmd" | sed "s/%N/1/"))
	echo $(((many - one) / (frames - 1)))
}
wait_ready() {	# wait_ready FILE: a helper's "ready" in it, 30 s at most
	i=0
	while ! grep -qs ready "$1" && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
div() {	# div A B [FORMAT]: A / B, or - when B is 0 or missing
	awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" \
		'BEGIN { if (b + 0 > 0 && a != "") printf f, a / b; else printf "-" }'
}

# fake_spec N: N threads in 1 process per 10, every state, varied counters;
# every other one open since now, so its bucket grows as time passes
fake_spec() {
	awk -v n="$1" 'BEGIN {
		print "cpus 2"
		print "cpu 0 busy=4000 idle=6000 csw=10000 user=3000 system=1000"
		print "cpu 1 busy=2000 idle=7000 iowait=1000 csw=5000 user=1000 nice=500 system=500"
		split("running runnable sleeping iowait blocked", st, " ")
		for (i = 0; i < n; i++)
			printf "thread %d %d worker-%d %s run=%d runnable=%d sleep=%d iowait=%d blocked=%d nvcsw=%d nivcsw=%d wakeups=%d migrations=%d cpu=%d%s\n",
				10000 + i, 10000 + int(i / 10) * 10, i, st[i % 5 + 1],
				(i * 37) % 9000, (i * 13) % 500, (i * 101) % 90000,
				(i * 7) % 300, (i * 3) % 100, i * 11, i * 3, i * 11,
				i % 50, i % 2, i % 2 ? " since=now" : ""
	}'
}

# tui_us COMMAND: CPU microseconds COMMAND uses in a 200x50 tmux terminal
# over CSF_COST_TUI_SECONDS after a second to start, or "" without tmux
TUI_S=${CSF_COST_TUI_SECONDS:-5}
tui_n=0
tui_us() {
	command -v tmux > /dev/null || return
	# a server of its own each time: one being killed takes a while to go
	tui_n=$((tui_n + 1))
	sock=$work/tmux.$tui_n.sock
	tmux -S "$sock" new-session -d -x 200 -y 50 "exec $1" || return
	pid=$(tmux -S "$sock" display-message -p '#{pane_pid}')
	sleep 1		# start-up and the first rescan are not a frame
	t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
	sleep "$TUI_S"
	t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null)
	tmux -S "$sock" kill-server 2> /dev/null
	[ -n "$t0" ] && [ -n "$t1" ] &&
		echo $(((t1 - t0) * 1000000 / $(getconf CLK_TCK)))
}

# $TOP: procps top by path where a shell prefers its own applets (busybox
# sh in the VM runs its built-in top for a bare "top")
TOP=${TOP:-top}
top_kind=none
if "$TOP" -V 2>&1 | grep -q procps; then
	top_kind=procps
	# it needs a terminfo entry, even in batch mode ("dumb")
	"$TOP" -b -n 1 > /dev/null 2>&1 ||
		top_kind="procps, but '$TOP -b -n 1' fails: $("$TOP" -b -n 1 2>&1 | head -n 1)"
elif command -v "$TOP" > /dev/null; then
	top_kind=other
fi
if command -v htop > /dev/null && command -v tmux > /dev/null; then
	htop_note="htop: $(htop --version | head -n 1), in tmux at -d 1 (0.1 s)"
else
	htop_note="htop: n/a (htop and tmux are needed to time it)"
fi

clock=$("$CSFTOP" -b -n 1 -o json 2>/dev/null |
	sed -n 's/.*"clock":"\([a-z]*\)".*/\1/p')
echo "csftop_cost: CPU time per frame, csftop $F frames at -d 10, top $TF frames at -d 0.1"
echo "  $(uname -r), $(nproc 2>/dev/null || echo ?) CPUs, $("$TOP" -V 2>&1 | head -n 1)"
if [ "$mode" = pages ]; then
	echo "  host without the module: csftop reads N page-shaped files (same read path, clock monotonic);"
	echo "  top -H reads N real sleeping threads (+1 main thread) of one process from /proc"
else
	echo "  the module: csftop and top read the same csf-demo threads (clock ${clock:-?})"
fi
row='%7s %11s %11s %11s %9s %9s %9s %9s %9s %9s\n'
# shellcheck disable=SC2059 # one format for all rows
printf "$row" threads csftop csftop-csv "top -H" top/csft csft/thr \
	top/thr csft%CPU tui%CPU htop
# shellcheck disable=SC2059
printf "$row" "" us/frame us/frame us/frame "" us us @10ms @10ms us/frame
for n in 10 100 1000; do
	pflag=
	if [ "$mode" = module ]; then
		idle=$((n > 8 ? n - 8 : 0))
		"$CSF_DEMO" --idle "$idle" > "$work/wl.out" 2>&1 &
		wl=$!
		i=0
		while [ "$("$CSFTOP" -b -n 1 -o csv -p $wl 2>/dev/null | wc -l)" -lt $((n + 1)) ] &&
		      [ $i -lt 300 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		got=$(($("$CSFTOP" -b -n 1 -o csv -p $wl 2>/dev/null | wc -l) - 1))
		pflag="-p $wl"
	else
		root=$work/root$n
		fake_spec $n | "$MKFAKEROOT" "$root" || exit 1
		CSF_ROOT=$root
		export CSF_ROOT
		"$SLEEPERS" "$n" > "$work/wl.out" 2>&1 &
		wl=$!
		wait_ready "$work/wl.out"
		got=$(($("$CSFTOP" -b -n 1 -o csv 2>/dev/null | wc -l) - 1))
	fi
	# shellcheck disable=SC2086 # $pflag is empty or two words
	c=$(per_frame "$F" "$CSFTOP" -b -n %N -d 10 $pflag)
	# shellcheck disable=SC2086
	v=$(per_frame "$F" "$CSFTOP" -b -n %N -d 10 -o csv $pflag)
	t=
	[ "$top_kind" = procps ] && t=$(per_frame "$TF" "$TOP" -H -b -n %N -d 0.1 -p $wl)
	u=$(tui_us "env CSF_ROOT='${CSF_ROOT:-}' $CSFTOP -d 10 $pflag")
	u=$(div "$u" $((TUI_S * 10000)) %.1f)
	if [ -n "${CSFTOP_BEFORE:-}" ]; then
		# shellcheck disable=SC2086
		bc=$(per_frame "$F" "$CSFTOP_BEFORE" -b -n %N -d 10 $pflag)
		# shellcheck disable=SC2086
		bv=$(per_frame "$F" "$CSFTOP_BEFORE" -b -n %N -d 10 -o csv $pflag)
		bu=$(tui_us "env CSF_ROOT='${CSF_ROOT:-}' $CSFTOP_BEFORE -d 10 $pflag")
		bu=$(div "$bu" $((TUI_S * 10000)) %.1f)
	fi
	h=
	case $htop_note in
	"htop: n/a"*) ;;
	*) h=$(tui_us "env HOME='$work' htop -d 1 -p $wl")
	   h=$(div "$h" $((TUI_S * 10)) %.0f) ;;
	esac
	# shellcheck disable=SC2059
	printf "$row" "$got" "$c" "$v" "${t:-n/a}" "$(div "$t" "$c" %.1fx)" \
		"$(div "$c" "$got")" "$(div "$t" "$got")" \
		"$(div "$c" 100 %.1f)" "$u" "${h:-n/a}"
	# shellcheck disable=SC2059
	[ -n "${CSFTOP_BEFORE:-}" ] && printf "$row" before "$bc" "$bv" "" \
		"$(div "$t" "$bc" %.1fx)" "$(div "$bc" "$got")" "" \
		"$(div "$bc" 100 %.1f)" "$bu" ""
	eval "c_$n=\$c v_$n=\$v t_$n=\$t got_$n=\$got u_$n=\$u bc_$n=\${bc:-} bv_$n=\${bv:-} bu_$n=\${bu:-}"
	kill $wl
	wait $wl 2>/dev/null
	wl=
	unset CSF_ROOT
done
# marginal cost of one more thread, from N = 10 to N = 1000
# shellcheck disable=SC2154 # c_*, v_*, t_*, got_* are set by the eval above
{
span=$((got_1000 - got_10))
mc=$(div $((c_1000 - c_10)) $span %.3f)
mv=$(div $((v_1000 - v_10)) $span %.3f)
mt=-
[ -n "$t_1000" ] && [ -n "$t_10" ] && mt=$(div $((t_1000 - t_10)) $span %.3f)
echo "per thread, marginal (cost(1000) - cost(10)) / $span: csftop $mc us, csftop-csv $mv us, top ${mt} us$( [ "$mt" != - ] && echo ", top/csftop $(div "$mt" "$mc" %.0f)x")"
echo "csftop at 1000 threads and -d 10: $(div "$c_1000" 100 %.1f)% of one CPU (text), $(div "$v_1000" 100 %.1f)% (CSV), ${u_1000}% interactive"
if [ -n "${CSFTOP_BEFORE:-}" ]; then
	mb=$(div $((bc_1000 - bc_10)) $span %.3f)
	echo "before ($CSFTOP_BEFORE): per thread $mb us$( [ "$mt" != - ] && echo ", top/csftop $(div "$mt" "$mb" %.0f)x"); at 1000 threads $(div "$bc_1000" 100 %.1f)% (text), $(div "$bv_1000" 100 %.1f)% (CSV), ${bu_1000}% interactive"
	echo "after/before at 1000 threads: text $(div "$c_1000" "$bc_1000")x, CSV $(div "$v_1000" "$bv_1000")x, interactive $(div "$u_1000" "$bu_1000")x"
fi
}

# Busy threads: the 1,000 pages close an interval every 2 ms (churn), as
# the pages of threads that keep switching do, so that every frame reads
# every thread's histograms again; mkfakeroot's pages above never change.
# Pages only: csf-demo has 8 busy threads, its others sleep.
CHURN=$(find_prog CHURN churn opt)
if [ "$mode" = pages ] && [ -n "$CHURN" ]; then
	CSF_ROOT=$work/root1000
	export CSF_ROOT
	"$CHURN" "$CSF_ROOT" 2000 > "$work/churn.out" 2>&1 &
	wl=$!
	wait_ready "$work/churn.out"
	busy() {	# busy LABEL CSFTOP: its text, CSV and interactive figures
		c=$(per_frame "$F" "$2" -b -n %N -d 10)
		v=$(per_frame "$F" "$2" -b -n %N -d 10 -o csv)
		u=$(div "$(tui_us "env CSF_ROOT='$CSF_ROOT' $2 -d 10")" \
			$((TUI_S * 10000)) %.1f)
		echo "busy, $1: text $c us/frame ($(div "$c" 100 %.1f)% of one CPU), CSV $v ($(div "$v" 100 %.1f)%), ${u}% interactive"
	}
	busy "1000 threads switching every 2 ms" "$CSFTOP"
	if [ -n "${CSFTOP_BEFORE:-}" ]; then
		ac=$c av=$v au=$u
		busy before "$CSFTOP_BEFORE"
		echo "busy, after/before: text $(div "$ac" "$c")x, CSV $(div "$av" "$v")x, interactive $(div "$au" "$u")x"
	fi
	kill $wl
	wait $wl 2>/dev/null
	wl=
	unset CSF_ROOT
fi
# Instructions per frame: CPU time on a shared machine scatters by a third
# from run to run, so a before/after judged to 10% needs a count that does
# not: callgrind's count of 21 frames less 1, in batch text, CSV, and the
# screen at 200x50 (the script driver, a frame per ":sample").  Idle, the
# count repeats to a few parts in 10,000; busy, churn writes in real time,
# so how many pages changed between two frames varies by a few percent.
ir() {	# ir FRAMES CSFTOP [ARG]...: callgrind's instruction count
	n=$1
	shift
	vg="valgrind --tool=callgrind --callgrind-out-file=/dev/null"
	if [ "$1" = tui ]; then
		i=0
		while [ $i -lt "$n" ]; do echo :sample; i=$((i + 1)); done > "$work/script"
		echo q >> "$work/script"
		CSFTOP_SCRIPT=$work/script CSFTOP_SCRIPT_SIZE=200x50 $vg "$2" \
			2>&1 >/dev/null
	else
		$vg "$@" -b -n "$n" -d 10 2>&1 >/dev/null
	fi | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
ir_frame() { echo $((($(ir 21 "$@") - $(ir 1 "$@")) / 20)); }
ir_row() {	# ir_row LABEL: after, before and their ratio for each output
	out="instructions per frame, $1:"
	for o in "" "-o csv" tui; do
		# shellcheck disable=SC2086 # $o is empty, one or two words
		if [ "$o" = tui ]; then
			a=$(ir_frame tui "$CSFTOP") b=$(ir_frame tui "$CSFTOP_BEFORE")
		else
			a=$(ir_frame "$CSFTOP" $o) b=$(ir_frame "$CSFTOP_BEFORE" $o)
		fi
		out="$out ${o:-text} $a/$b = $(div "$a" "$b")x;"
	done
	echo "$out"
}
if [ "$mode" = pages ] && [ -n "${CSFTOP_BEFORE:-}" ] &&
   command -v valgrind > /dev/null; then
	CSF_ROOT=$work/root1000
	export CSF_ROOT
	ir_row "1000 threads idle, after/before"
	if [ -n "$CHURN" ]; then
		"$CHURN" "$CSF_ROOT" 2000 > "$work/churn.out" 2>&1 &
		wl=$!
		wait_ready "$work/churn.out"
		ir_row "1000 threads busy, after/before"
		kill $wl
		wait $wl 2>/dev/null
		wl=
	fi
	unset CSF_ROOT
fi
[ "$top_kind" = procps ] || echo "top: $top_kind (procps top -H -p is needed for the comparison)"
echo "$htop_note"
exit 0
