#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/run.sh - pmdacsf, the PCP agent, on the host against fake roots
# (tests/tui/mkfakeroot), with PCP's own clients and no pmcd:
#
# 1. The DSO through pminfo -L (pmSpecLocalPMDA): every value of every
#    metric against what the fixture says, computed here from the SPEC
#    (times in ms there, ns in PCP; processes are sums of their threads),
#    and the waits from a fixture with histograms.
# 2. The PMNS and help text the agent writes from its table: newhelp takes
#    them, and every metric pminfo lists has its help.
# 3. The daemon through dbpmda (its pipe protocol, as pmcd speaks it),
#    with the root changing between fetches: a new thread appears in the
#    thread and process instance domains, an exited one leaves them while
#    its process's totals keep it, and a process whose threads are all
#    gone leaves.
# 4. No module: the daemon answers "try again", logs what to do, and gives
#    values once the root appears, without a restart.
#
# Needs the agent built (configure found libpcp_pmda) and pminfo, dbpmda
# and newhelp (Debian's pcp package); else it skips (exit 77).

srcdir=${srcdir:-$(dirname "$0")/../..}
B=$(pwd)
PMDA_DSO=${PMDA_DSO:-$B/pmda/.libs/pmda_csf.so}
PMDACSF=${PMDACSF:-$B/pmda/pmdacsf}
MKFAKEROOT=${MKFAKEROOT:-$B/tests/tui/mkfakeroot}
SPEC=$srcdir/tests/tui/cases/base.spec

. "$srcdir/tests/lib.sh"
. "$srcdir/tests/pcp/dbpmda.sh"
. "$srcdir/tests/pcp/fixture.sh"

PATH=$PATH:/usr/lib/pcp/bin
for p in pminfo dbpmda newhelp; do
	command -v $p >/dev/null || { echo "SKIP: no $p (apt-get install pcp)"; exit 77; }
done
[ -f "$PMDA_DSO" ] && [ -x "$PMDACSF" ] ||
	{ echo "SKIP: pmdacsf not built (configure --with-pcp)"; exit 77; }

pcp_lock || exit 99
W=$(mktemp -d "${TMPDIR:-/tmp}/csf-pcp.XXXXXX") || exit 1
cleanup() {
	exec 7>&- 2>/dev/null
	[ -n "$db_pid" ] && kill "$db_pid" 2>/dev/null && wait "$db_pid" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# the agent's PMNS and help, as make writes them, beside a root for -n
"$PMDACSF" --pmns > "$W/pmns" && "$PMDACSF" --helptext > "$W/help" &&
	cp "$srcdir/pmda/root" "$W/root" || { no "the agent writes its PMNS and help"; summary; }
export CSF_ROOT="$W/fixture"
"$MKFAKEROOT" "$CSF_ROOT" < "$SPEC" || exit 1

local_pminfo() {	# local_pminfo ARGS...: the DSO in this process
	pminfo -L -K clear -K "add,300,$PMDA_DSO,csf_init" -n "$W/root" "$@" 2>"$W/pminfo.err"
}

# ---- 1. the DSO, every value -------------------------------------------
local_pminfo -f csf | values > "$W/got"
expected > "$W/want"
miss=$(missing "$W/got" "$W/want")
if [ -z "$miss" ]; then
	ok "DSO: all $(wc -l < "$W/want") values the fixture fixes are right"
else
	no "DSO: values differ from the fixture's: $miss (got: $(grep -F "${miss%% *} " "$W/got" | head -n 3 | tr '\n' ';'))"
fi
n_metrics=$(local_pminfo csf | wc -l)
n_valued=$(cut -d' ' -f1 "$W/got" | sort -u | wc -l)
check "DSO: every one of the $n_metrics metrics has values" test "$n_metrics" -gt 0 -a "$n_metrics" = "$n_valued"
check "DSO: no error on stderr" test ! -s "$W/pminfo.err" -o -z "$(grep -v 'help text' "$W/pminfo.err")"
# The waits since registration, from the histograms of tests/tui's waits
# fixture; the values by csf_hist_quantile(3)'s rule, computed by hand.
# 5000's page is of ABI 1.0: zeros.
"$MKFAKEROOT" "$W/root-waits" < "$srcdir/tests/tui/cases/waits.spec" || exit 1
CSF_ROOT=$W/root-waits local_pminfo -f csf.thread.waits csf.thread.waker \
	csf.thread.preemptor | values > "$W/got-waits"
cat > "$W/want-waits" <<'EOF2'
csf.thread.preemptor.comm 4242 ""
csf.thread.preemptor.comm 4244 "contend-b"
csf.thread.preemptor.comm 5000 ""
csf.thread.preemptor.tid 4242 0
csf.thread.preemptor.tid 4244 4245
csf.thread.preemptor.tid 5000 0
csf.thread.waits.all.p99 4242 18454937
csf.thread.waits.all.p99 4244 4177493
csf.thread.waits.all.p99 5000 0
csf.thread.waits.runnable.max 4242 4000000
csf.thread.waits.runnable.max 4244 5000000
csf.thread.waits.runnable.max 5000 0
csf.thread.waits.runnable.p50 4242 1578754
csf.thread.waits.runnable.p50 4244 3147829
csf.thread.waits.runnable.p50 5000 0
csf.thread.waits.runnable.p90 4242 2002897
csf.thread.waits.runnable.p90 4244 3988371
csf.thread.waits.runnable.p90 5000 0
csf.thread.waits.runnable.p99 4242 2306867
csf.thread.waits.runnable.p99 4244 4177493
csf.thread.waits.runnable.p99 5000 0
csf.thread.waker.comm 4242 ""
csf.thread.waker.comm 4244 ""
csf.thread.waker.comm 5000 ""
csf.thread.waker.tid 4242 0
csf.thread.waker.tid 4244 0
csf.thread.waker.tid 5000 0
EOF2
if cmp -s "$W/want-waits" "$W/got-waits"; then
	ok "DSO: each thread's waits, waker and preemptor from its histograms"
else
	no "DSO: each thread's waits"
	diff "$W/want-waits" "$W/got-waits" | sed 's/^/    /'
fi
# pmval -L and pmrep keep a result past the next fetch, for rates: its
# values must not change with the next one (a root of its own: 4242 ran
# 100 ms, then 150)
"$MKFAKEROOT" "$W/root-local" < "$SPEC" &&
	CSF_ROOT=$W/root-local "$B/tests/pcp/local_fetch" "$PMDA_DSO" \
		"printf 'thread 4242 4242 csf-demo sleeping run=150\\n' | '$MKFAKEROOT' '$W/root-local'" \
		> "$W/local.out" 2>&1
check "DSO: a result kept past the next fetch keeps its values: $(grep ' 4242 ' "$W/local.out" | tr '\n' ' ')" \
	test "$(grep ' 4242 ' "$W/local.out" | tr '\n' ' ')" = "a 4242 100000000 b 4242 150000000 "

# ---- 2. PMNS and help ------------------------------------------------------
(cd "$W" && newhelp -n root -v 2 -o help < help) > "$W/newhelp.out" 2>&1
check "newhelp compiles the agent's help against its PMNS" test -s "$W/help.dir" -a ! -s "$W/newhelp.out"
helped=$(sed -n 's/^@ \(csf\.[^ ]*\) .*/\1/p' "$W/help" | sort)
listed=$(local_pminfo csf | sort)
check "every metric has help text, and no help names a missing metric" test "$helped" = "$listed"

# ---- 3. the daemon through dbpmda, with the root changing ------------------
db_start "$W" "$W/root" "$PMDACSF -d 300 -l $W/pmdacsf.log -h $W/help"
db "instance 300.1"
check "daemon: six threads in the thread domain" test "$(grep -c 'inst: ' "$db_dir/db.last")" = 6
db "fetch csf.proc.time.running"
check "daemon: process 4242 ran 19.4 s (5 threads)" grep -q 'inst \[4242 or ???\] value 19400000000' "$db_dir/db.last"
# a client's instance profile (pmAddProfile(3)), which pmcd passes on
db "profile 300.1 none"
db "profile 300.1 add 4244"
db "fetch csf.thread.time.running,csf.thread.comm,csf.thread.cpu"
check "daemon: a profile of one thread gets its values only, of each metric" \
	test "$(grep -c 'inst \[4244 or ???\]' "$db_dir/db.last") $(grep -c 'inst \[' "$db_dir/db.last")" = "3 3"
db "profile 300.1 all"
db "profile 300.1 delete 4244"
db "fetch csf.thread.comm,csf.module.nthreads"
check "daemon: a profile without one thread gets the other five, and the module's value" \
	test "$(grep -c 'inst \[4244 or ???\]' "$db_dir/db.last") $(grep -c 'inst \[' "$db_dir/db.last")" = "0 5"
db "profile 300.1 all"

# the list is read again when the generation moves, not at every fetch
printf 'thread 7000 7000 unannounced running run=10\nsame-generation\n' | "$MKFAKEROOT" "$CSF_ROOT"
db "instance 300.1"
check "daemon: a page added while the generation stays is not looked for" \
	sh -c "! grep -q 'inst: 7000 ' '$db_dir/db.last' && grep -q 'inst: 4242 ' '$db_dir/db.last'"
printf 'gone 7000\nsame-generation\n' | "$MKFAKEROOT" "$CSF_ROOT"
printf 'thread 6000 6000 newcomer running run=10\n' | "$MKFAKEROOT" "$CSF_ROOT"
db "instance 300.1"
check "daemon: a new thread appears between fetches" grep -q 'inst: 6000 name: "6000 newcomer"' "$db_dir/db.last"
db "instance 300.2"
check "daemon: and its process with it" grep -q 'inst: 6000 name: "6000 newcomer"' "$db_dir/db.last"

printf 'thread 4246 4242 renamed iowait run=500 iowait=9000 sleep=500 nvcsw=3000 wakeups=3000 cpu=1\n' | "$MKFAKEROOT" "$CSF_ROOT"
db "instance 300.1"
check "daemon: a thread that renamed itself is listed by its new name" grep -q 'inst: 4246 name: "4246 renamed"' "$db_dir/db.last"

printf 'gone 4243\ngone 5000\n' | "$MKFAKEROOT" "$CSF_ROOT"
db "instance 300.1"
check "daemon: an exited thread leaves the thread domain" sh -c "! grep -q 'inst: 4243 ' '$W/db.last' && grep -q 'inst: 4242 ' '$W/db.last'"
db "instance 300.2"
check "daemon: a process whose threads are all gone leaves" sh -c "! grep -q 'inst: 5000 ' '$W/db.last' && grep -q 'inst: 4242 ' '$W/db.last'"
db "fetch csf.proc.time.running"
check "daemon: its process's total keeps the exited thread's 9 s" grep -q 'inst \[4242 or ???\] value 19400000000' "$db_dir/db.last"
db "fetch csf.proc.nthreads"
check "daemon: and counts 4 live threads" grep -q 'inst \[4242 or ???\] value 4' "$db_dir/db.last"
db "fetch csf.proc.time.running"
check "daemon: the exited thread is counted once, fetch after fetch" grep -q 'inst \[4242 or ???\] value 19400000000' "$db_dir/db.last"
# an exited page still listed (the module lists a thread until its exit
# has bumped the generation): read at every fetch, counted once
printf 'thread 4244 4242 contend-a exited run=5000 runnable=5000 nvcsw=5 nivcsw=5000\n' | "$MKFAKEROOT" "$CSF_ROOT"
db "fetch csf.proc.time.running"
db "fetch csf.proc.time.running"
check "daemon: an exited page read twice counts once" grep -q 'inst \[4242 or ???\] value 19400000000' "$db_dir/db.last"
printf 'gone 4244\n' | "$MKFAKEROOT" "$CSF_ROOT"
db "fetch csf.proc.time.running"
check "daemon: and once more when it leaves the list" grep -q 'inst \[4242 or ???\] value 19400000000' "$db_dir/db.last"
db "text csf.thread.time.runnable"
check "daemon: serves the help text" grep -q 'waiting for a CPU' "$db_dir/db.last"
db_stop

# ---- 3b. -A: the whole machine, asked for once at start -------------------
: > "$CSF_ROOT/attach"
db_start "$W" "$W/root" "$PMDACSF -A -d 300 -l $W/all.log -h $W/help"
db "fetch csf.module.nthreads"
check "-A: the agent wrote \"all\" to the attach file" test "$(cat "$CSF_ROOT/attach")" = all
check "-A: and logged it" grep -q -- '-A: every thread of the machine is registered' "$W/all.log"
check "-A: and serves values" grep -q 'value ' "$db_dir/db.last"
db_stop
rm -f "$CSF_ROOT/attach"

# ---- 4. no module, then the module -----------------------------------------
export CSF_ROOT="$W/later"
db_start "$W" "$W/root" "$PMDACSF -d 300 -l $W/unmounted.log -h $W/help"
db "fetch csf.module.nthreads"
check "no module: a fetch says try again" grep -q 'Try again' "$db_dir/db.last"
check "no module: the log says what to do" grep -q 'not mounted.*modprobe coarse_stat_fs.*tries again' "$W/unmounted.log"
"$MKFAKEROOT" "$CSF_ROOT" < "$SPEC"
db "fetch csf.module.nthreads"
check "no module: values once it is there, without a restart" grep -q 'value 6' "$db_dir/db.last"
db_stop
summary
