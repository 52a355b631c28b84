#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/replay.sh - csftop -a on archives, on the host, with no daemon:
# the archive is written by PCP's own writer (tests/pcp/mkarchive.py, whose
# workload fixes every value), so each figure csftop shows is known.
#
# 1. -b -a as CSV, JSON and text: every sample, shares, totals and rates
#    of threads that run, wait, appear and exit; -S, -T, -d, -n, -p.
# 2. Screens (CSFTOP_SCRIPT): playing, one step forth and back, a jump to
#    a time, freeze A in the past, diff against a later B, play faster, a
#    time outside the archive, back to before a thread began (it is not
#    shown, not even as exited), the same as a row per process (H); each
#    screen dumped must equal
#    tests/pcp/replay-N.txt (CSFTOP_BLESS=1 writes them).
# 3. Bad input, in archives of format 2 and 3 (tests/pcp/spoil.py):
#    truncated, overwritten and empty archive files, damaged labels, a
#    file that is no archive, a bad time: a message and status 1, never a
#    signal.
#
# Skips (77) when csftop was built without PCP or python3-pcp is missing.
# (tests/pcp/daemons.sh replays what pmlogger records from pmdacsf.)

srcdir=${srcdir:-$(dirname "$0")/../..}
CSFTOP=${CSFTOP:-$(pwd)/src/csftop}
HERE=$(cd "$srcdir/tests/pcp" && pwd)
. "$srcdir/tests/lib.sh"

[ -x "$CSFTOP" ] || { echo "SKIP: no $CSFTOP"; exit 77; }
if "$CSFTOP" -b -a /nonexistent 2>&1 | grep -q 'built without'; then
	echo "SKIP: csftop built without PCP (configure --with-pcp)"; exit 77
fi
/usr/bin/python3 -c 'from pcp import pmi' 2>/dev/null ||
	{ echo "SKIP: no python3-pcp (apt-get install python3-pcp)"; exit 77; }

W=$(mktemp -d "${TMPDIR:-/tmp}/csf-replay.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
# the archive's times shown in UTC; screens compared in English
TZ=UTC LC_ALL=C.UTF-8 LANGUAGE='' TERM=xterm
export TZ LC_ALL LANGUAGE TERM
unset CSFTOP_SCRIPT CSFTOP_SCRIPT_SIZE CSF_ROOT
A=$W/a
/usr/bin/python3 "$HERE/mkarchive.py" "$A" || { no "mkarchive.py writes an archive"; summary; }

# ---- 1. batch ---------------------------------------------------------------
"$CSFTOP" -b -a "$A" -o csv > "$W/all.csv" 2> "$W/all.err"
check "-b -a -o csv: exit 0, nothing on stderr" test ! -s "$W/all.err"
check "-b -a: all 10 samples, one second apart" \
	test "$(tail -n +2 "$W/all.csv" | cut -d, -f1,2 | uniq | tr '\n' ' ')" = \
	"1,1796205600.000 2,1796205601.000 3,1796205602.000 4,1796205603.000 5,1796205604.000 6,1796205605.000 7,1796205606.000 8,1796205607.000 9,1796205608.000 10,1796205609.000 "
# has ROW: the CSV has this row, exactly
has() { grep -qx "$1" "$W/all.csv"; }
check "first sample: a thread since its registration (2.5 s: 80% running)" \
	has "1,1796205600.000,2500000000,,100,101,spinner,runnable,1,80.00,20.00,0.00,0.00,0.00,2000000000,500000000,0,0,0,0.00,0.00,0,0,,,,,,,"
check "second sample: shares of the second, totals, 40 preemptions/s" \
	has "2,1796205601.000,1000000000,,100,101,spinner,runnable,1,60.00,40.00,0.00,0.00,0.00,2600000000,900000000,0,0,0,0.00,40.00,0,0,,,,,,,"
check "a sleeping thread: 20% running, 5% waiting, 75% asleep, 10 switches/s" \
	has "2,1796205601.000,1000000000,,100,100,main,sleeping,0,20.00,5.00,75.00,0.00,0.00,1200000000,150000000,5750000000,0,0,10.00,0.00,0,0,,,,,,,"
check "a thread that appears is marked new" \
	has "5,1796205604.000,0,new,200,200,late,iowait,1,0.00,0.00,0.00,0.00,0.00,0,0,0,0,0,0.00,0.00,0,0,,,,,,,"
check "and then waits for I/O 70% of the time" \
	has "6,1796205605.000,1000000000,,200,200,late,iowait,1,30.00,0.00,0.00,70.00,0.00,300000000,0,0,700000000,0,0.00,0.00,0,0,,,,,,,"
check "a thread gone from the archive is shown exited" \
	has "7,1796205606.000,1000000000,exited,100,102,short,exited,0,0.00,0.00,0.00,0.00,0.00,500000000,0,5500000000,0,0,0.00,0.00,0,0,,,,,,,"
check "and lingers 2 s of the archive's time, then goes" \
	test "$(grep -c ',102,short,' "$W/all.csv")" = 8

"$CSFTOP" -b -a "$A" -o json > "$W/all.json"
check "-o json: 10 lines of JSON, the same values" /usr/bin/python3 -c '
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
assert [x["sample"] for x in s] == list(range(1, 11)), "samples"
t = {x["tid"]: x for x in s[1]["threads"]}
assert t[101]["runnable"] == 40.0 and t[101]["runnable_total"] == 900000000
assert s[0]["clock"] == "tsc" and s[1]["interval_ns"] == 1000000000
# /proc/stat shares are of its growth: 400 ms user of 500
assert s[1]["cpus"][0]["busy"] == 50.0 and s[1]["cpus"][0]["user"] == 80.0
' "$W/all.json"
"$CSFTOP" -b -a "$A" -n 2 > "$W/text"
check "text: the archive's time and clock in the header" \
	grep -q '^csftop 10:00:01  sample 2  interval 1.0 s  clock tsc  threads 3  processes 1' "$W/text"

"$CSFTOP" -b -a "$A" -o csv -S @10:00:03 -T @10:00:05 > "$W/window.csv"
check "-S @10:00:03 -T @10:00:05: the three samples in between" \
	test "$(tail -n +2 "$W/window.csv" | cut -d, -f2 | uniq | tr '\n' ' ')" = \
	"1796205603.000 1796205604.000 1796205605.000 "
"$CSFTOP" -b -a "$A" -o csv -S -2sec > "$W/tail.csv"
check "-S -2sec: from 2 s before the end" \
	test "$(tail -n +2 "$W/tail.csv" | cut -d, -f2 | uniq | tr '\n' ' ')" = \
	"1796205607.000 1796205608.000 1796205609.000 "
"$CSFTOP" -b -a "$A" -o csv -d 500 > "$W/half.csv"
check "-d 500: 19 samples, interpolated as pmrep does (runnable 700 ms at 0.5 s)" \
	sh -c "test \$(tail -n +2 '$W/half.csv' | cut -d, -f1 | uniq | wc -l) = 19 &&
	       grep -q '^2,1796205600.500,500000000,,100,101,spinner,runnable,1,60.00,40.00,0.00,0.00,0.00,2300000000,700000000,' '$W/half.csv'"
"$CSFTOP" -b -a "$A" -o csv -S @10:00:05 -n 3 -p 200 > "$W/pid.csv"
check "-n 3 -p 200: three samples, only that process" \
	test "$(tail -n +2 "$W/pid.csv" | cut -d, -f1,5 | tr '\n' ' ')" = "1,200 2,200 3,200 "

"$CSFTOP" -b -a "$A" -o csv -P > "$W/procs.csv"
check "-P: a row per process and sample, its threads' rows and its gone threads' totals" \
	/usr/bin/python3 -c '
import csv, sys
threads = list(csv.DictReader(open(sys.argv[1])))
procs = list(csv.DictReader(open(sys.argv[2])))
F = ("run", "runnable", "sleep", "iowait", "blocked")
sums, last, gone, samples = {}, {}, {}, []
for t in threads:
	if t["sample"] not in samples:
		samples.append(t["sample"])
	k = (t["sample"], t["pid"])
	p = sums.setdefault(k, {"n": 0, "tids": set()})
	p["n"] += 1
	p["tids"].add(t["tid"])
	for f in F:
		# a share is of the row'"'"'s interval: in ns, then over the process'"'"'s
		p[f] = p.get(f, 0.0) + float(t[f]) * int(t["interval_ns"])
		p[f + "_total"] = p.get(f + "_total", 0) + int(t[f + "_total"])
# the rule of csftop(1): a thread whose row went keeps its last totals in
# its process'"'"'s, until the process has no row left
for smp in samples:
	for pid in list(last):
		now = sums.get((smp, pid))
		if now is None:
			del last[pid]
			gone.pop(pid, None)
			continue
		for tid, tot in last[pid].items():
			if tid not in now["tids"]:
				g = gone.setdefault(pid, dict.fromkeys(F, 0))
				for f in F:
					g[f] += tot[f]
	for (s, pid), p in sums.items():
		if s != smp:
			continue
		for f in F:
			p[f + "_total"] += gone.get(pid, {}).get(f, 0)
		last[pid] = {t["tid"]: {f: int(t[f + "_total"]) for f in F}
			     for t in threads if t["sample"] == smp and t["pid"] == pid}
assert len(procs) == len(sums), (len(procs), len(sums))
assert {p["tid"] for p in procs} == {"100", "200"}
for p in procs:
	s = sums[(p["sample"], p["pid"])]
	assert p["tid"] == p["pid"], p
	for f in F:
		assert int(p[f + "_total"]) == s[f + "_total"], (p, f)
		want = s[f] / int(p["interval_ns"]) if int(p["interval_ns"]) else 0
		assert abs(float(p[f]) - want) <= 0.006 * s["n"], (p, f, want)
# tid 102 of process 100 went after sample 6: its totals stay
assert any(p["sample"] == "9" and p["pid"] == "100" and
	   int(p["sleep_total"]) == 16500000000 for p in procs)
# three threads of process 100 in sample 2: more than one thread of time
assert any(float(p["run"]) + float(p["runnable"]) + float(p["sleep"]) > 100
	   for p in procs if p["sample"] == "2" and p["pid"] == "100")
' "$W/all.csv" "$W/procs.csv"

# ---- 2. screens -------------------------------------------------------------
# screen N KEYS...: run csftop -a on the script of the KEYS lines, which
# dump $W/screen-N.txt; compare with replay-N.txt
screen() {
	n=$1
	shift
	printf '%s\n' "$@" > "$W/keys"
	CSFTOP_SCRIPT=$W/keys CSFTOP_SCRIPT_SIZE=100x16 "$CSFTOP" -a "$A" \
		> "$W/screen.out" 2>&1 || { no "screen $n: csftop exits 0: $(cat "$W/screen.out")"; return; }
	for f in "$W"/screen-*.txt; do
		[ -f "$f" ] || continue
		base=${f##*/}
		want=$HERE/replay-${base#screen-}
		if [ -n "${CSFTOP_BLESS:-}" ]; then
			cp "$f" "$want"
		fi
		check "screen $base: as $want" cmp -s "$f" "$want" ||
			diff -u "$want" "$f" | head -30
		rm -f "$f"
	done
}
screen 1 ":dump $W/screen-1.txt" \
	":sample" ":dump $W/screen-2.txt" \
	"]" ":dump $W/screen-3.txt" \
	"[[" ":dump $W/screen-4.txt" \
	"g+5sec" ":dump $W/screen-5.txt" "<Enter>" ":dump $W/screen-6.txt" \
	"z]]]" ":dump $W/screen-7.txt" "d" ":dump $W/screen-8.txt" \
	"p+" ":dump $W/screen-9.txt" "l" ":dump $W/screen-10.txt" \
	"g@ 9:00<Enter>" ":dump $W/screen-11.txt" \
	"<Esc>g-3sec<Enter>" ":dump $W/screen-12.txt" \
	"g@ 10:00:00<Enter>" ":dump $W/screen-13.txt" \
	"H" ":dump $W/screen-14.txt"
# the schedule: paused, the deadline passes without a sample; playing, the
# next one comes
screen 2 "p" ":tick" ":dump $W/screen-15.txt" \
	"p" ":tick" ":dump $W/screen-16.txt"

# ---- 3. bad input -----------------------------------------------------------
# bad V NAME FILE HOW WANT: a copy of the archive in format V (2, or 3 as
# PCP 6.3 on writes by default) with FILE (0, meta, index) spoilt by
# spoil.py HOW; csftop -b -a must end with status 1 and the message WANT,
# never by a signal.  spoil.py damages records, or labels, at the same
# place in either format.  (The records are all read when the archive is
# opened, so a data volume cut short fails there.)
bad() {
	# (no comma in the name: libpcp takes one for a list of archives)
	d=$W/bad-$1-$2
	mkdir -p "$d"
	for f in 0 meta index; do cp "$W/v$1.$f" "$d/a.$f"; done
	/usr/bin/python3 "$HERE/spoil.py" "$d/a.$3" "$4" ||
		{ no "format $1, $2: spoil.py $3 $4"; return; }
	"$CSFTOP" -b -a "$d/a" -o csv > "$d/out" 2> "$d/err"
	rc=$?
	check "format $1, $2: status 1 and '$5' (got $rc: $(cat "$d/err"))" \
		sh -c "test $rc = 1 && grep -q '^csftop: .*$5' '$d/err'"
}
for v in 2 3; do
	/usr/bin/python3 "$HERE/mkarchive.py" "$W/v$v" $v ||
		{ no "mkarchive.py writes an archive of format $v"; continue; }
	check "format $v: the archive is of that format" \
		sh -c "pmdumplog -l '$W/v$v' 2>/dev/null | grep -q 'Log Format Version $v)'"
	"$CSFTOP" -b -a "$W/v$v" -o csv > "$W/v$v.csv" 2>&1
	check "format $v: the same samples as the default archive" cmp -s "$W/v$v.csv" "$W/all.csv"
	bad $v "data volume cut in half" 0 half "cannot read archive .*: Corrupted record"
	bad $v "data volume overwritten" 0 ff "cannot read archive .*: Corrupted record"
	bad $v "metadata overwritten" meta ff "cannot open archive .*: Corrupted record"
	# libpcp itself dies of this one (pmdumplog too): csftop says so
	bad $v "metadata that kills libpcp" meta 55 "cannot read archive .*: it is corrupt (reading its metadata crashed libpcp)"
	bad $v "metadata cut in half" meta half "cannot open archive"
	bad $v "empty metadata" meta empty "cannot open archive .*: Empty archive"
	bad $v "empty index" index empty "cannot open archive .*: Empty archive"
	# damage no libpcp refuses: every record stays readable
	bad $v "the time zone of the data volume overwritten" 0 label-tz "cannot read archive .*: its label is damaged (the host name or time zone is not text)"
	bad $v "the label of the metadata overwritten" meta label-tz "cannot read archive .*: it is damaged (the label of .*/a.meta is not the archive.s)"
	bad $v "the label of the index overwritten" index label-tz "cannot read archive .*: it is damaged (the label of .*/a.index is not the archive.s)"
	# the damage of the tests before: records or labels, by format
	bad $v "data volume: 300 bytes at 200" 0 at200 "cannot \(open\|read\) archive .*: \(Corrupted record\|its label is damaged\)"
	bad $v "metadata: 300 bytes at 200" meta at200 "cannot \(open\|read\) archive .*: \(Corrupted record\|it is damaged (the label of .*/a.meta\)"
done
mkdir -p "$W/xz"
for f in 0 meta index; do cp "$A.$f" "$W/xz/a.$f"; done
xz "$W/xz/a.0"
"$CSFTOP" -b -a "$W/xz/a" -o csv > "$W/xz.csv" 2>&1
check "a data volume compressed with xz, as pmlogger_daily leaves them: the same samples" \
	cmp -s "$W/xz.csv" "$W/all.csv"
check "no core file left by the probe" sh -c "! ls '$W'/bad-*/core* >/dev/null 2>&1"

"$CSFTOP" -b -a "$W/nothing" > "$W/out" 2> "$W/err"
check "no such archive: status 1, said" sh -c "test $? = 1 && grep -q '^csftop: cannot open archive $W/nothing: No such file' '$W/err'"
"$CSFTOP" -b -a "$A" -S 'not a time' > "$W/out" 2> "$W/err"
check "a bad -S: status 1, said" sh -c "test $? = 1 && grep -q '^csftop: bad time window' '$W/err'"
"$CSFTOP" -b -a "$A" -S @11:00 > "$W/out" 2> "$W/err"
check "-S after the end: status 1, said" sh -c "test $? = 1 && grep -q 'no csf samples in that time window' '$W/err'"
"$CSFTOP" -b -S +1sec > "$W/out" 2> "$W/err"
check "-S without -a: a usage error" sh -c "test $? = 2 && grep -q -- '-S and -T need -a' '$W/err'"

summary
