# shellcheck shell=sh
# SPDX-License-Identifier: MIT
#
# tests/lib.sh - the check helpers of the shell tests, to be sourced.  POSIX
# sh: busybox sh in the VM guest, sh (dash) and bash on the host.
#
# tests/vm/run.sh always ships it as /tests/lib.sh, next to the guest
# scripts (tests/vm/guest_*.sh) and used by /init (tests/vm/guest-init.sh);
# tests/tui/run.sh sources it from the source tree.
#
#   ok MSG             a passed check: prints "ok: MSG"
#   no MSG             a failed check: prints "FAIL: MSG"
#   check DESC CMD...  runs CMD... in this shell (functions too): ok DESC
#                      when it succeeds, else no DESC
#   ck_report          prints the libcheck-style line
#                      "NN%: Checks: N, Failures: N, Errors: 0";
#                      nothing when no check ran
#   summary            ck_report (a run without checks counts as one
#                      passed check, not a division by zero), then exits:
#                      status 0 iff no check failed
#   wait_for TENTHS CMD...
#                      runs CMD... (its output discarded) every 0.1 s until
#                      it succeeds, TENTHS times at most; status 1 if it
#                      never did
#   uptime_cs          /proc/uptime in centiseconds
#   since_cs T0        the seconds since T0 (an uptime_cs), as "12.3s"
#   niced CMD... &     CMD... in the background at nice 10, its threads
#                      too (busybox has renice, not nice), as the process
#                      $! names: a workload that spins then leaves the
#                      test's own commands most of the CPUs.  Only with &:
#                      it execs, in place of the shell that runs it
#
# Settings, assigned after sourcing:
#   ck_ok=ok    the word of a passed check (tests/tui/run.sh: PASS)
#   ck_prefix=  printed before every line (guest-init.sh: "csf-vm: [TAG] ")
#   ck_out=     a file: check sends CMD's stdout and stderr there instead
#               of passing them on, and appends them, joined on one line,
#               to a failure's DESC ("FAIL: DESC: OUTPUT")
# Counters: ck_n checks, ck_f of them failed.

ck_n=0
ck_f=0
ck_ok=ok
ck_prefix=
ck_out=

ok() {
	ck_n=$((ck_n + 1))
	echo "$ck_prefix$ck_ok: $1"
}

no() {
	ck_n=$((ck_n + 1))
	ck_f=$((ck_f + 1))
	echo "${ck_prefix}FAIL: $1"
}

check() {	# check DESCRIPTION COMMAND...
	ck_d=$1
	shift
	if [ -z "$ck_out" ]; then
		if "$@"; then ok "$ck_d"; else no "$ck_d"; fi
	elif "$@" >"$ck_out" 2>&1; then
		ok "$ck_d"
	else
		no "$ck_d: $(tr '\n' ' ' <"$ck_out")"
	fi
}

ck_report() {
	[ "$ck_n" -gt 0 ] || return 0
	echo "$ck_prefix$(((ck_n - ck_f) * 100 / ck_n))%: Checks: $ck_n, Failures: $ck_f, Errors: 0"
}

wait_for() {
	wf_n=$1
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$wf_n" -gt 1 ] || return 1
		sleep 0.1
		wf_n=$((wf_n - 1))
	done
}

summary() {
	[ "$ck_n" -gt 0 ] || ck_n=1
	ck_report
	[ "$ck_f" = 0 ]
	exit
}

uptime_cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

since_cs() {
	sc_t=$(uptime_cs)
	echo "$(((sc_t - $1) / 100)).$(((sc_t - $1) % 100 / 10))s"
}

niced() {
	# shellcheck disable=SC2016 # $$ and $@ are the inner shell's
	exec sh -c 'renice -n 10 -p $$ > /dev/null && exec "$@"' sh "$@"
}
