#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/vm/soak.sh - run the whole VM suite N times in a row, on every
# kernel, with the host's other CPUs kept busy, to prove it does not flake.
#
# usage: tests/vm/soak.sh [-k KERNEL]... [-o DIR] N [BUILDDIR [SRCDIR]]
#
#   N           rounds (each: tests/vm/run.sh on every kernel)
#   -k KERNEL   only these kernels (repeatable; default every kernel of
#               tests/vm/kernels.tab, as tests/vm/run.sh)
#   -o DIR      where to keep the record (default BUILDDIR/tests/vm/soak):
#               DIR/rounds.txt, one line per round and kernel, and for each
#               failed round and kernel DIR/fail-ROUND-NAME.txt, the console
#               (every check's message, the snapshot values a failing check
#               prints, and the guest's whole dmesg) and run.sh's verdict
#   BUILDDIR    the automake build directory (default: .)
#
# Each guest runs on one host CPU (qemu TCG, one thread), as many at once
# as tests/vm/run.sh runs in CI (CSF_VM_JOBS, default one per host CPU).
# One busy loop per other host CPU competes with them, at the same
# priority, for the whole soak: the guests' vCPUs are then descheduled at
# random points, which stretches exactly the windows a racy check would
# lose.  A failed round does not end
# the soak; the exit status is 0 only if every round of every kernel passed.
set -euo pipefail

prog=${0##*/}
say() { printf '%s: %s\n' "$prog" "$*"; }
die() { say "error: $*" >&2; exit 2; }

kargs=()
outdir=""
while [ $# -gt 0 ]; do
	case $1 in
	-k) kargs+=(-k "$2"); shift 2 ;;
	-o) outdir=$2; shift 2 ;;
	-h|--help) sed -n '4,/^set -e/p' "$0" | sed '$d'; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || die "how many rounds? (see --help)"
rounds=$1
shift
case $rounds in '' | *[!0-9]* | 0) die "N must be a positive integer, not '$rounds'" ;; esac
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
outdir=${outdir:-$builddir/tests/vm/soak}
mkdir -p "$outdir"
rm -f "$outdir"/rounds.txt "$outdir"/fail-*.txt

busy=()
stop_busy() {
	[ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap stop_busy EXIT
trap 'exit 130' INT TERM
ncpu=$(nproc)
for ((i = 1; i < ncpu; i++)); do
	(while :; do :; done) &
	busy+=($!)
done
say "$rounds rounds; $((ncpu - 1)) busy loop(s) beside the guests on $ncpu host CPUs; record in $outdir"

t0=$(date +%s)
failed=0
for ((r = 1; r <= rounds; r++)); do
	log=$outdir/round.log
	rc=0
	"$srcdir/tests/vm/run.sh" "${kargs[@]}" "$builddir" "$srcdir" >"$log" 2>&1 || rc=$?
	# run.sh's summary: "run.sh: NAME (RELEASE): ok|FAIL (...)"
	verdicts=$(grep -E '^run\.sh: [^ ]+ \([^)]*\): (ok|FAIL) ' "$log" || true)
	if [ -z "$verdicts" ] || { [ $rc -ne 0 ] && ! grep -q ': FAIL ' <<<"$verdicts"; }; then
		# run.sh itself failed before judging a kernel: keep all of it
		cp "$log" "$outdir/fail-$r-run.txt"
		printf '%d run.sh FAIL exit %d\n' "$r" "$rc" >>"$outdir/rounds.txt"
		failed=$((failed + 1))
		say "round $r: run.sh failed (exit $rc), see $outdir/fail-$r-run.txt"
		continue
	fi
	while read -r _ name rel verdict rest; do
		printf '%d %s %s %s\n' "$r" "$name" "$verdict" "$rest" >>"$outdir/rounds.txt"
		[ "$verdict" = FAIL ] || continue
		failed=$((failed + 1))
		tag="$name ${rel%:}"	# as run.sh names it: 6.1 (6.1.0-57-amd64)
		# the console run.sh printed for this kernel, and its verdicts
		awk -v b="======== console of $tag " -v e="======== end of console of $tag " \
			'index($0, b) == 1 { on = 1 } on { print } index($0, e) == 1 { on = 0 }' \
			"$log" >"$outdir/fail-$r-$name.txt"
		grep -F "run.sh: $tag: " "$log" >>"$outdir/fail-$r-$name.txt" || true
	done <<<"$verdicts"
	say "round $r/$rounds: $(tr '\n' ';' <<<"$verdicts" | sed 's/run\.sh: //g; s/;$//')"
	grep -E '^run\.sh: .*: FAIL: ' "$log" | sed 's/^/    /' || true
done
rm -f "$outdir/round.log"
secs=$(($(date +%s) - t0))
kernels=$(awk '{print $2}' "$outdir/rounds.txt" | sort -u | tr '\n' ' ')
say "$rounds rounds on ${kernels% } in ${secs}s: $failed failed kernel runs"
[ $failed -eq 0 ]
