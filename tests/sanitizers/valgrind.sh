#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/sanitizers/valgrind.sh SRCDIR - make check-valgrind: csftop's batch
# mode and csf-demo under valgrind's memcheck, which sees what a build
# without sanitizers does (uninitialised reads, leaks, bad frees in the
# binaries that are installed), where ASan sees its own instrumented build.
#
#   csftop -b -n 3 -d 10      over fake roots from the screen tests'
#                             specs (tests/tui/cases/*.spec), text, and
#                             CSV and JSON over the batch spec
#   pmdacsf                   the PCP agent, the daemon as tests/pcp/run.sh
#                             drives it through dbpmda (threads come,
#                             rename and exit; instance profiles; no
#                             module), each start under memcheck; when it
#                             is built and PCP is installed
#   csf-demo -t 1             over a fake root whose thread-self is a
#                             page-shaped file: every demo thread
#                             "registers" by mapping it, so the demo's
#                             whole life (threads, snapshots, I/O, exit)
#                             runs, with the library, not the module,
#                             under test.  Without a root csf-demo only
#                             says the module is not there (run too).
#
# Any valgrind error, or a leak definitely lost, fails (--error-exitcode).
# Environment: CSFTOP, CSF_DEMO, MKFAKEROOT (the programs, from the build);
# PMDACSF_BIN, the agent's binary (not libtool's wrapper), and
# LIBCSF_DIR, where the library it needs is, when the agent is built.
src=$1
cases=$src/tests/tui/cases
work=$(mktemp -d "${TMPDIR:-/tmp}/csf-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

if ! command -v valgrind >/dev/null; then
	echo "valgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
fi
vg() {	# NAME STATUS COMMAND...: one run under memcheck, exit STATUS
	name=$1 want=$2
	shift 2
	# --fair-sched: csf-demo's spinners and mutex contenders otherwise
	# starve the thread that ends the run (1 s of demo took 96 s to 6 min)
	valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --show-leak-kinds=definite \
		--log-file="$work/$name.vg" "$@" >"$work/$name.out" 2>&1
	rc=$?
	if [ $rc -eq "$want" ] && [ ! -s "$work/$name.vg" ]; then
		passed=$((passed + 1))
		echo "PASS: $name"
	else
		failed=$((failed + 1))
		echo "FAIL: $name (exit $rc, want $want; 99: valgrind found errors)"
		sed 's/^/    /' "$work/$name.vg" "$work/$name.out" | tail -n 40
	fi
}

# The specs as the screen tests use them: step2, step3 and batch2 change
# a root written from base or batch (threads change, appear, exit).
for specs in base empty batch "base step2" "base step2 step3" "batch batch2"; do
	name=$(echo "$specs" | tr ' ' '+')
	root=$work/root-$name
	for spec in $specs; do
		"$MKFAKEROOT" "$root" <"$cases/$spec.spec" || exit 99
	done
	CSF_ROOT=$root vg "csftop-b-$name" 0 "$CSFTOP" -b -n 3 -d 10
done
root=$work/root-batch
CSF_ROOT=$root vg csftop-b-csv 0 "$CSFTOP" -b -n 3 -d 10 -o csv
CSF_ROOT=$root vg csftop-b-json 0 "$CSFTOP" -b -n 3 -d 10 -o json -s -tid -p 4242

# pmdacsf: run.sh starts the agent several times; each start's errors go
# to its own log, which must stay empty (valgrind -q), and run.sh must pass
if [ -n "${PMDACSF_BIN:-}" ] && [ -x "$PMDACSF_BIN" ] && command -v dbpmda >/dev/null; then
	cat > "$work/pmdacsf-vg" <<-EOF
	#!/bin/sh
	LD_LIBRARY_PATH=$LIBCSF_DIR exec valgrind -q --error-exitcode=99 \\
		--leak-check=full --errors-for-leak-kinds=definite \\
		--show-leak-kinds=definite --suppressions="$src/tests/sanitizers/pcp.supp" \\
		--log-file="$work/pmdacsf.\$\$.vg" \\
		"$PMDACSF_BIN" "\$@"
	EOF
	chmod +x "$work/pmdacsf-vg"
	PMDACSF=$work/pmdacsf-vg srcdir=$src sh "$src/tests/pcp/run.sh" > "$work/pmdacsf.out" 2>&1
	rc=$?
	logs=$(ls "$work"/pmdacsf.*.vg 2>/dev/null | wc -l)
	if [ $rc -eq 0 ] && [ "$logs" -gt 0 ] && [ -z "$(cat "$work"/pmdacsf.*.vg)" ]; then
		passed=$((passed + 1))
		echo "PASS: pmdacsf ($logs starts, tests/pcp/run.sh)"
	else
		failed=$((failed + 1))
		echo "FAIL: pmdacsf (run.sh exit $rc, $logs starts under valgrind)"
		cat "$work"/pmdacsf.*.vg "$work/pmdacsf.out" 2>/dev/null | sed 's/^/    /' | tail -n 60
	fi
fi

# csf-demo: base.spec's first thread page stands in for thread-self
root=$work/root-base
cp "$(ls "$root"/threads/* | head -n 1)" "$root/thread-self"
CSF_ROOT=$root TMPDIR=$work vg csf-demo 0 "$CSF_DEMO" -t 1
grep -q 'threads registered (0 failed)' "$work/csf-demo.out" || {
	failed=$((failed + 1))
	echo "FAIL: csf-demo did not start its threads:"
	sed 's/^/    /' "$work/csf-demo.out"
}
# no module: its message and exit status 1, cleanly
CSF_ROOT=$work/none vg csf-demo-no-module 1 "$CSF_DEMO" -t 1
echo "valgrind: $passed passed, $failed failed"
[ $failed -eq 0 ]
