#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/daemons.sh - pmdacsf in PCP's real daemons on the host, over a
# fake root (tests/tui/mkfakeroot), in a private PCP instance: its own
# pmcd.conf, PMNS, agent directory, run and log directories, on loopback
# ports nobody listens on. The host's own PCP files are not touched (PCP's
# scripts take PCP_* from the environment before pcp.conf), but PCP's
# Install and Remove send SIGHUP to every pmcd, which rereads its
# configuration, and stop every running pmdacsf: pcp_lock keeps it from
# running beside tests/pcp/run.sh, whose pmdacsf it would stop.
#
# 1. The agent's Install, as a daemon, into a running pmcd; pminfo -f csf
#    gives every value the fixture fixes; the thread and process domains
#    follow threads appearing and exiting between fetches.
# 2. Remove takes it out; Install as a DSO puts it back, with the same
#    values.
# 3. pmlogconf, with the agent's group files, writes a pmlogger
#    configuration; pmlogger records 20 samples at 100 ms; pmrep and
#    csftop -b -a replay them with the fixture's values.
# 4. pmproxy serves them at /metrics in OpenMetrics text.
# 5. Prometheus scrapes pmproxy, and its query API returns a csf
#    per-process series.
#
# Needs root (Install writes pmcd.conf and pmcd runs agents as root) and
# pcp, python3-pcp, prometheus and curl; else it skips (exit 77).

srcdir=${srcdir:-$(dirname "$0")/../..}
B=$(pwd)
SPEC=$srcdir/tests/tui/cases/base.spec
MKFAKEROOT=${MKFAKEROOT:-$B/tests/tui/mkfakeroot}

. "$srcdir/tests/lib.sh"
. "$srcdir/tests/pcp/fixture.sh"

PATH=/usr/lib/pcp/bin:$PATH
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (pmcd, Install)"; exit 77; }
for p in pmcd pminfo pmlogconf pmlogger pmrep pmproxy prometheus curl ss; do
	command -v $p >/dev/null || {
		echo "SKIP: no $p (apt-get install pcp python3-pcp prometheus curl iproute2)"; exit 77; }
done
[ -f "$B/pmda/.libs/pmda_csf.so" ] && [ -x "$B/pmda/pmdacsf" ] ||
	{ echo "SKIP: pmdacsf not built (configure --with-pcp)"; exit 77; }
[ -n "${CSF_PMDA_FILES:-}" ] ||
	{ echo "error: no CSF_PMDA_FILES: run it as make check TESTS=tests/pcp/daemons.sh"; exit 99; }

pcp_lock || exit 99
W=$(mktemp -d "${TMPDIR:-/tmp}/csf-pcpd.XXXXXX") || exit 1
pids=
cleanup() {
	# pmcd stops its agents when it exits
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# free_port [ABOVE]: the first port upwards from a per-run start, or above
# port ABOVE, that nobody listens on: each daemon gets its own even when
# an earlier one has died (pmproxy on pmcd's port, its clients hanging)
free_port() {
	fp=$((${1:-$((20000 + $$ % 20000 - 1))} + 1))
	while ss -ltnH "sport = :$fp" | grep -q .; do fp=$((fp + 1)); done
	echo $fp
}

# the daemons are started with fd 9, pcp_lock's, closed: one left behind
# must not hold the lock for every later run

# ---- a private PCP instance ------------------------------------------------
P=$W/pcp
export PCP_VAR_DIR=$P/var PCP_PMDAS_DIR=$P/var/pmdas PCP_SYSCONF_DIR=$P/etc \
	PCP_PMCDCONF_PATH=$P/etc/pmcd.conf PCP_PMCDOPTIONS_PATH=$P/etc/pmcd.options \
	PCP_RUN_DIR=$P/run PCP_LOG_DIR=$P/log PCP_TMP_DIR=$P/tmp \
	PCP_ARCHIVE_DIR=$P/log/pmlogger PCP_RC_DIR=$P/rc PCP_SYSTEMDUNIT_DIR=$P/nosystemd \
	PCP_PYTHON_PROG=/usr/bin/python3
PMCD_PORT=$(free_port)
export PMCD_PORT
mkdir -p "$P/var/pmns" "$P/var/pmdas/csf" "$P/etc" "$P/run" "$P/log/pmcd" \
	"$P/rc" "$P/nosystemd" "$P/tmp" "$W/groups" "$W/archive" || exit 1
cp /var/lib/pcp/pmns/root_pmcd "$P/var/pmns/root" || exit 1
printf 'pmcd\t2\tdso\tpmcd_init\t/var/lib/pcp/pmdas/pmcd/pmda_pmcd.so\n' > "$PCP_PMCDCONF_PATH"
# what make install puts in PCP_PMDAS_DIR/csf; the programs as built
A=$P/var/pmdas/csf
ln -s "$B/pmda/.libs/pmda_csf.so" "$A/pmda_csf.so" || exit 1
# The daemon is copied, with the library it links, into the agent's own
# directory, which anyone may read: PCP 6.3's pmcd (Debian 13) starts no
# agent from a directory its pcp user cannot search, which a build tree in
# a private clone (mktemp -d) is; 6.0's does.
if [ -x "$B/pmda/.libs/pmdacsf" ]; then
	mkdir -p "$A/lib" && cp "$B/pmda/.libs/pmdacsf" "$A/pmdacsf.bin" &&
		cp -P "$B"/lib/.libs/libcoarse_stat_fs.so* "$A/lib/" &&
		printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' \
			"$A/lib" "$A/pmdacsf.bin" > "$A/pmdacsf" &&
		chmod +x "$A/pmdacsf" || exit 1
else
	cp "$B/pmda/pmdacsf" "$A/pmdacsf" || exit 1
fi
for f in $CSF_PMDA_FILES; do
	if [ -f "$B/$f" ]; then cp "$B/$f" "$A/"; else cp "$srcdir/$f" "$A/"; fi || exit 1
done
ln -s "$(cd "$srcdir/pmda/pmlogconf" && pwd)" "$W/groups/csf"
export CSF_ROOT="$W/fixture"
"$MKFAKEROOT" "$CSF_ROOT" < "$SPEC" || exit 1
chmod -R a+rX "$W"	# pmcd and its DSOs run as the pcp user

# from its log directory, where the agents it starts write their logs
(cd "$P/log/pmcd" && exec pmcd -f -i 127.0.0.1 -p "$PMCD_PORT" -c "$PCP_PMCDCONF_PATH" \
	-n "$P/var/pmns/root" -l pmcd.log -x fatal) 9<&- > "$W/pmcd.out" 2>&1 &
pids="$pids $!"
if ! wait_for 300 pminfo -f pmcd.version; then
	no "a private pmcd starts on port $PMCD_PORT: $(tail -n 5 "$P/log/pmcd/pmcd.log" "$W/pmcd.out" | tr '\n' ';')"
	summary
fi

# fetched: pminfo -f csf | values into $W/got; how many fixture values are
# missing into $miss
fetched() {
	pminfo -f csf 2>"$W/pminfo.err" | values > "$W/got"
	expected > "$W/want"
	miss=$(missing "$W/got" "$W/want")
}

# explain FILE...: the ends of the files that tell why a step failed
explain() {
	for f in "$@"; do echo "--- $f"; tail -n 15 "$f"; done
}

# installed OUT: Install's output OUT says the metrics appeared, all those
# of the agent's table; else show it and pmcd's log
nmetrics=$("$B/pmda/pmdacsf" --pmns | grep -c '	300:')
installed() {
	grep -q "Check csf metrics have appeared ... $nmetrics metrics" "$1" ||
		{ explain "$1" "$P/log/pmcd/pmcd.log"; false; }
}

# ---- 1. Install as a daemon ------------------------------------------------
(cd "$A" && echo daemon | ./Install) > "$W/install.out" 2>&1
check "Install (daemon) into a running pmcd: the metrics appear" installed "$W/install.out"
check "Install wrote the agent into pmcd.conf" \
	grep -q "^csf	300	pipe	binary.*$A/pmdacsf -d 300" "$PCP_PMCDCONF_PATH"
# a user's pages are theirs and root's: an agent of another user would
# see only the pages of that user
agent_user() { ps -eo user=,args= | awk '$2 ~ /\/pmdacsf(\.bin)?$/ && $3 == "-d" && $4 == 300 { print $1; exit }'; }
check "the agent runs as root, as pmdaproc does (got '$(agent_user)')" \
	test "$(agent_user)" = root
fetched
check "pminfo -f csf through pmcd: all $(wc -l < "$W/want") fixture values (missing: $miss)" test -z "$miss"

printf 'thread 6000 6000 newcomer running run=10\ngone 4243\n' | "$MKFAKEROOT" "$CSF_ROOT"
pminfo -f csf.thread.state csf.proc.nthreads > "$W/later" 2>&1
check "through pmcd: a new thread appears in the thread domain" grep -q 'inst \[6000 or "6000 newcomer"\] value "running"' "$W/later"
check "through pmcd: an exited thread leaves it" sh -c "! grep -q 'inst \[4243 ' '$W/later'"
check "through pmcd: its process counts one thread less" grep -q 'inst \[4242 or "4242 csf-demo"\] value 4' "$W/later"
"$MKFAKEROOT" "$CSF_ROOT" < "$SPEC" || exit 1	# back to the fixture
printf 'gone 6000\n' | "$MKFAKEROOT" "$CSF_ROOT"

# ---- 2. Remove, then Install as a DSO -------------------------------------
(cd "$A" && ./Remove) > "$W/remove.out" 2>&1
check "Remove takes the agent out of pmcd.conf" sh -c "! grep -q '^csf' '$PCP_PMCDCONF_PATH'"
check "Remove: pmcd no longer knows csf" sh -c "! pminfo csf.module.nthreads >/dev/null 2>&1"
(cd "$A" && echo dso | ./Install) > "$W/install-dso.out" 2>&1
check "Install (dso): the metrics appear" installed "$W/install-dso.out"
fetched
check "DSO in pmcd: all $(wc -l < "$W/want") fixture values (missing: $miss)" test -z "$miss"

# ---- 3. pmlogconf, pmlogger, pmrep -----------------------------------------
pmlogconf -c -q -h local: -d "$W/groups" "$W/csf.config" > "$W/pmlogconf.out" 2>&1
check "pmlogconf: the summary group is logged by default" grep -q '^#+ csf/summary:y:' "$W/csf.config"
check "pmlogconf: the per-thread group is offered, off by default" grep -q '^#+ csf/threads:n:' "$W/csf.config"
# the per-thread group switched on, as pmlogconf(1) has it: y in its line
sed 's|^#+ csf/threads:n:|#+ csf/threads:y:|' "$W/csf.config" > "$W/csf-all.config"
pmlogconf -q -h local: -d "$W/groups" "$W/csf-all.config" < /dev/null > "$W/pmlogconf-all.out" 2>&1
check "pmlogconf: the per-thread group, switched on, logs csf.thread" \
	grep -q '^[[:space:]]*csf\.thread$' "$W/csf-all.config"
timeout 60 pmlogger -h local: -c "$W/csf-all.config" -t 100msec -s 20 -l "$W/pmlogger.log" "$W/archive/csf"
check "pmlogger records an archive" test -s "$W/archive/csf.0"
pmrep -a "$W/archive/csf" -u -r -o csv csf.module.nthreads csf.proc.time.running \
	> "$W/pmrep.csv" 2>&1
check "pmrep -a replays 20 samples" test "$(tail -n +2 "$W/pmrep.csv" | grep -c .)" = 20
# the fixture's: 6 threads; processes 4242 and 5000 ran 19.4 s and 3 s
check "pmrep -a: every sample has the fixture's values" \
	test "$(tail -n +2 "$W/pmrep.csv" | grep -c ',6,19400000000,3000000000$')" = 20

# csftop -a on the same archive: its first sample is what csftop showed
# live from the fixture (a first sample is since registration, so it does
# not depend on when it was taken), and every later one has its totals.
# Up to the wakeups: the waits of an interval (from the histograms of two
# reads) are not in an archive, and replay leaves them empty.
"$B/src/csftop" -b -n 1 -o csv | tail -n +2 | cut -d, -f4-23 > "$W/live.csv"
"$B/src/csftop" -b -a "$W/archive/csf" -o csv > "$W/replay.csv" 2> "$W/replay.err"
check "csftop -b -a replays the 20 samples" \
	test "$(tail -n +2 "$W/replay.csv" | cut -d, -f1 | uniq | wc -l)" = 20
check "csftop -b -a: the first sample as csftop showed it live" \
	sh -c "grep '^1,' '$W/replay.csv' | cut -d, -f4-23 | cmp -s - '$W/live.csv'"
check "csftop -b -a: every sample has the fixture's 6 threads and totals" \
	test "$(tail -n +2 "$W/replay.csv" | cut -d, -f6-9,15-19 | sort | uniq -c |
		awk '$1 == 20' | wc -l)" = 6

# ---- 4. pmproxy's /metrics -------------------------------------------------
PMPROXY_PORT=$(free_port "$PMCD_PORT")
pmproxy -f -i 127.0.0.1 -p "$PMPROXY_PORT" -s "$P/run/pmproxy.socket" \
	-l "$W/pmproxy.log" -x "$W/pmproxy.fatal" 9<&- > "$W/pmproxy.out" 2>&1 &
pids="$pids $!"
url="http://127.0.0.1:$PMPROXY_PORT/metrics?names=csf.proc"
# each try bounded: wait_for bounds the tries, not a request that hangs
wait_for 300 curl -sf --max-time 5 -o "$W/metrics" "$url"
check "pmproxy serves csf.proc at /metrics" grep -q '^# TYPE csf_proc_time_running counter' "$W/metrics"
check "/metrics: a process's series, with the fixture's value" \
	grep -q '^csf_proc_time_running{.*instname="4242 csf-demo".*} 19400000000$' "$W/metrics"

# ---- 5. Prometheus scrapes pmproxy -----------------------------------------
PROM_PORT=$(free_port "$PMPROXY_PORT")
cat > "$W/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: csf
    metrics_path: /metrics
    params:
      names: [csf.proc, csf.cpu, csf.module]
    static_configs:
      - targets: ['127.0.0.1:$PMPROXY_PORT']
EOF
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/prometheus" \
	--web.listen-address="127.0.0.1:$PROM_PORT" 9<&- > "$W/prometheus.log" 2>&1 &
pids="$pids $!"
query="http://127.0.0.1:$PROM_PORT/api/v1/query?query=csf_proc_time_running"
prom_has() {
	curl -sf --max-time 5 -o "$W/query.json" "$query" &&
		grep -q '"instname":"4242 csf-demo".*"value":\[[0-9.]*,"19400000000"\]' "$W/query.json"
}
wait_for 600 prom_has
check "Prometheus scrapes pmproxy: its query API returns a csf per-process series" prom_has
summary
