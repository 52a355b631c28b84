#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/bench/csftop_cost.sh - CPU time per frame of csftop -b against
# top -H -b (and htop where installed) over the same N registered threads,
# N = 10, 100, 1000.  A benchmark, not a test: it prints figures side by
# side and always exits 0 when it could measure.
#
# Needs the real module (csf-demo must register threads): run it in the VM
# (tests/vm/run.sh) or on a host that can load the module.  csftop,
# csf-demo and cputime are looked for next to this script, in the build
# tree (src/, tests/bench/) or named by $CSFTOP, $CSF_DEMO, $CPUTIME.
#
# Method: for each N, start csf-demo --idle K (its 8 working threads plus
# K sleepers: N in all), then run each monitor for F frames and for 1
# frame; (cpu(F) - cpu(1)) / (F - 1) is the cost of one frame without the
# start-up.  csftop samples every 10 ms; top gets -d 0.1 (its CPU time per
# frame does not depend on the interval, and it cannot keep 10 ms anyway).
# The last column is csftop's load at a 10 ms interval, % of one CPU.
#
#   usage: csftop_cost.sh [FRAMES]      (default 200)

F=${1:-200}
[ "$F" -ge 2 ] 2>/dev/null || { echo "usage: csftop_cost.sh [FRAMES >= 2]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
find_prog() {	# find_prog VAR NAME: $VAR, next to us, or in the build tree
	eval "v=\${$1:-}"
	if [ -n "$v" ]; then echo "$v"; return; fi
	for p in "$here/$2" "$here/../../src/$2" "$(pwd)/src/$2" \
		"$(pwd)/tests/bench/$2" "$(command -v "$2" 2>/dev/null)"; do
		[ -x "$p" ] && { echo "$p"; return; }
	done
	echo "csftop_cost.sh: $2 not found (set \$$1)" >&2
	exit 1
}
CSFTOP=$(find_prog CSFTOP csftop) || exit 1
CSF_DEMO=$(find_prog CSF_DEMO csf-demo) || exit 1
CPUTIME=$(find_prog CPUTIME cputime) || exit 1

# cpu_us COMMAND...: user + system microseconds of the command
cpu_us() {
	# shellcheck disable=SC2046 # three numbers, split on purpose
	set -- $("$CPUTIME" "$@")
	echo $(($1 + $2))
}
# per_frame COMMAND...: µs per frame; %N in it stands for the frame count
per_frame() {
	cmd=$*
	# shellcheck disable=SC2046 # the command is split on purpose
	many=$(cpu_us $(echo "$cmd" | sed "s/%N/$F/"))
	# shellcheck disable=SC2046
	one=$(cpu_us $(echo "$cmd" | sed "s/%N/1/"))
	echo $(((many - one) / (F - 1)))
}

top_kind=none
if top -v 2>&1 | grep -q procps; then
	top_kind=procps
elif command -v top > /dev/null; then
	top_kind=other
fi

echo "csftop_cost: CPU time per frame, $F frames, $(uname -r), $(nproc 2>/dev/null || echo ?) CPUs, clock $("$CSFTOP" -b -n 1 -o json 2>/dev/null | sed -n 's/.*"clock":"\([a-z]*\)".*/\1/p')"
printf '%8s %16s %14s %8s %16s %18s\n' threads "csftop us/frame" "top us/frame" "ratio" "csftop us/thread" "csftop %CPU@10ms"
for n in 10 100 1000; do
	idle=$((n > 8 ? n - 8 : 0))
	"$CSF_DEMO" --idle "$idle" > "${TMPDIR:-/tmp}/csftop_cost.$$" 2>&1 &
	demo=$!
	i=0
	while [ "$("$CSFTOP" -b -n 1 -o csv -p $demo 2>/dev/null | wc -l)" -lt $((n + 1)) ] &&
	      [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	got=$(($("$CSFTOP" -b -n 1 -o csv -p $demo 2>/dev/null | wc -l) - 1))
	c=$(per_frame "$CSFTOP" -b -n %N -d 10 -p $demo)
	case $top_kind in
	procps) t=$(per_frame top -H -b -n %N -d 0.1 -p $demo) ;;
	*) t= ;;
	esac
	ratio=-
	[ -n "$t" ] && [ "$c" -gt 0 ] && ratio=$(awk -v a="$t" -v b="$c" 'BEGIN { printf "%.1fx", a / b }')
	printf '%8s %16s %14s %8s %16s %18s\n' "$got" "$c" "${t:-n/a}" "$ratio" \
		"$(awk -v a="$c" -v n="$got" 'BEGIN { printf "%.2f", n ? a / n : 0 }')" \
		"$(awk -v a="$c" 'BEGIN { printf "%.1f", a / 100 }')"
	kill $demo
	wait $demo 2>/dev/null
done
rm -f "${TMPDIR:-/tmp}/csftop_cost.$$"
[ "$top_kind" = procps ] || echo "top: $top_kind (procps top -H -p is needed for the comparison)"
command -v htop > /dev/null || echo "htop: not installed, not measured"
exit 0
