#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/vm/soak.sh - run the whole VM suite N times in a row, on every
# kernel, with the host's other CPUs kept busy, to prove it does not flake.
#
# usage: tests/vm/soak.sh [-k KERNEL]... [-o DIR] [-r] N [BUILDDIR [SRCDIR]]
#
#   N           rounds (each: tests/vm/run.sh on every kernel)
#   -r          resume the record in DIR up to N rounds in all: the rounds
#               it has are kept, and it must be of the same commit of
#               SRCDIR (DIR/commit) and the same kernels.  A round cut
#               short (interrupted) is run again; a soak longer than a
#               working session can so be run in parts.
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
resume=no
while [ $# -gt 0 ]; do
	case $1 in
	-k) kargs+=(-k "$2"); shift 2 ;;
	-o) outdir=$2; shift 2 ;;
	-r) resume=yes; shift ;;
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
commit=$(git -C "$srcdir" rev-parse HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$srcdir" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
	commit="$commit+changes"
first=1
if [ $resume = yes ]; then
	[ -f "$outdir/commit" ] || die "-r: no record to resume in $outdir"
	[ "$(cat "$outdir/commit")" = "$commit" ] ||
		die "-r: $outdir is a soak of $(cat "$outdir/commit"), this is $commit"
	[ "$(cat "$outdir/kernels" 2>/dev/null)" = "${kargs[*]:-all}" ] ||
		die "-r: $outdir soaked kernels '$(cat "$outdir/kernels" 2>/dev/null)', not '${kargs[*]:-all}'"
	# the rounds with every verdict in (a round is written whole)
	first=$(($(awk '{ print $1 }' "$outdir/rounds.txt" 2>/dev/null | sort -n | tail -n 1) + 1))
else
	rm -f "$outdir"/rounds.txt "$outdir"/fail-*.txt
	echo "$commit" >"$outdir/commit"
	echo "${kargs[*]:-all}" >"$outdir/kernels"
fi

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
failed=$(awk '$3 == "FAIL" || $2 == "run.sh" { n++ } END { print n + 0 }' "$outdir/rounds.txt" 2>/dev/null || echo 0)
[ "$first" -gt 1 ] && say "resuming at round $first of $rounds ($failed failed kernel runs so far), commit $commit"
for ((r = first; r <= rounds; r++)); do
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
	printf '%s\n' "$verdicts" | while read -r _ name rel verdict rest; do
		printf '%d %s %s %s\n' "$r" "$name" "$verdict" "$rest"
	done >>"$outdir/rounds.txt"
	while read -r _ name rel verdict rest; do
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
say "$rounds rounds on ${kernels% } ($((rounds - first + 1)) in this run, ${secs}s): $failed failed kernel runs, commit $commit"
[ $failed -eq 0 ]
