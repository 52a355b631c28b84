# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/fixture.sh - what the agent must report for a fake root, for
# tests/pcp/run.sh and tests/pcp/daemons.sh; to be sourced.
#
#   values          pminfo -f output on stdin -> "metric inst value" lines
#                   (inst "-" for none), sorted
#   expected        the same lines, as $SPEC (tests/tui/mkfakeroot's
#                   input) says they must be
#   missing GOT WANT  the lines of file WANT that file GOT lacks, at most 5
#                   on one line; empty when all are there
#   pcp_lock        waits until no other of these tests runs on the host,
#                   from any tree: PCP's Install and Remove (daemons.sh)
#                   stop every running pmdacsf, run.sh's too

pcp_lock() {
	pcp_lockfile=/tmp/csf-pcp-tests.lock
	# read-only: the file may be another user's, and flock(1) needs no more
	[ -e "$pcp_lockfile" ] ||
		{ : > "$pcp_lockfile" && chmod 644 "$pcp_lockfile"; } 2>/dev/null
	exec 9< "$pcp_lockfile" && flock 9
}

values() {
	awk '/^csf\./ { m = $1; next }
	     /^ *inst \[/ { sub(/^ *inst \[/, ""); i = $1; sub(/^.*\] value /, "");
			    print m, i, $0; next }
	     /^ *value / { sub(/^ *value /, ""); print m, "-", $0 }' | sort
}

expected() {
	awk '
	function kv(k,  i, a) { for (i = 2; i <= NF; i++) { split($i, a, "=");
		if (index($i, "=") && a[1] == k) return a[2] } return 0 }
	function ns(v) { return sprintf("%.0f", v * 1000000) }
	$1 == "cpu" { c = $2
		print "csf.cpu.busy", c, ns(kv("busy")); print "csf.cpu.idle", c, ns(kv("idle"))
		print "csf.cpu.iowait", c, ns(kv("iowait")); print "csf.cpu.switches", c, kv("csw")
		print "csf.cpu.stat.user", c, ns(kv("user")); print "csf.cpu.stat.nice", c, ns(kv("nice"))
		print "csf.cpu.stat.system", c, ns(kv("system")); print "csf.cpu.online", c, 1 }
	$1 == "thread" && $5 != "exited" { t = $2; p = $3; n++
		split("run runnable sleep iowait blocked", k, " ")
		split("running runnable sleeping iowait blocked", s, " ")
		for (j = 1; j <= 5; j++) { v = kv(k[j]); print "csf.thread.time." s[j], t, ns(v); pt[p, j] += v }
		split("nvcsw nivcsw wakeups migrations", c4, " ")
		for (j = 1; j <= 4; j++) { v = kv(c4[j]); print "csf.thread." c4[j], t, v; pc[p, j] += v }
		print "csf.thread.state", t, "\"" $5 "\""; print "csf.thread.comm", t, "\"" $4 "\""
		print "csf.thread.tgid", t, p; print "csf.thread.cpu", t, kv("cpu")
		procs[p]++ }
	END { for (p in procs) {
		for (j = 1; j <= 5; j++) print "csf.proc.time." s[j], p, ns(pt[p, j])
		for (j = 1; j <= 4; j++) print "csf.proc." c4[j], p, pc[p, j]
		print "csf.proc.nthreads", p, procs[p] }
	      print "csf.module.nthreads - " n; print "csf.module.pages - " n
	      print "csf.module.max_threads - 4096"; print "csf.module.clock - \"monotonic\""
	      print "csf.agent.unreadable - 0" }' "$SPEC" | sort
}

missing() {
	comm -13 "$1" "$2" | head -n 5 | tr '\n' ';'
}
