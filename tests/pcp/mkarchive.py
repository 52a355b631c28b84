#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/pcp/mkarchive.py - write a PCP archive of csf metrics, as pmlogger
# would record pmdacsf, with a workload whose every value is known, for
# tests/pcp/replay.sh.  Uses PCP's own archive writer (LOGIMPORT(3), the
# python3-pcp binding), so the archive is as PCP makes them.
#
# usage: mkarchive.py ARCHIVE [VERSION]
#
# VERSION is the archive format, 2 or 3 (default: what this PCP writes
# by default: 2 up to PCP 6.2, 3 from 6.3 on, as in Debian 13).
#
# Ten samples, one second apart from START (2026-12-02 10:00:00 UTC), times
# in ms, for sample k = 0..9:
#   tid 100 "main"    tgid 100  running 1000+200k  runnable 100+50k
#                               sleeping 5000+750k  sleeping, cpu 0
#   tid 101 "spinner" tgid 100  running 2000+600k  runnable 500+400k
#                               runnable, cpu 1, nivcsw 40k
#   tid 102 "short"   tgid 100  k <= 5 only: running 100k,
#                               sleeping 1000+900k, sleeping
#   tid 200 "late"    tgid 200  k >= 4 only: running 300(k-4),
#                               iowait 700(k-4), iowait, cpu 1
#   cpu 0 and 1: busy 10000+500k, idle 20000+500k, switches 1000k,
#                stat.user 400k, stat.system 100k; clock "tsc"
import sys

from pcp import pmapi, pmi
from cpmapi import (PM_TYPE_U64, PM_TYPE_U32, PM_TYPE_STRING, PM_SEM_COUNTER,
                    PM_SEM_INSTANT, PM_SEM_DISCRETE, PM_INDOM_NULL)

START = 1796205600
MS = 1000000
CSF = 300

if len(sys.argv) not in (2, 3):
    sys.exit("usage: mkarchive.py ARCHIVE [VERSION]")
log = pmi.pmiLogImport(sys.argv[1])
if len(sys.argv) == 3:
    log.pmiSetVersion(int(sys.argv[2]))
log.pmiSetHostname("replay-fixture")
log.pmiSetTimezone("UTC")
ns = log.pmiUnits(0, 1, 0, 0, 0, 0)
count = log.pmiUnits(0, 0, 1, 0, 0, 0)
none = log.pmiUnits(0, 0, 0, 0, 0, 0)
cpu_indom = log.pmiInDom(CSF, 0)
thread_indom = log.pmiInDom(CSF, 1)

# name, cluster, item, type, indom, semantics, units (as common/metrics.c)
metrics = [("cpu.busy", 0, 0, PM_TYPE_U64, cpu_indom, PM_SEM_COUNTER, ns),
           ("cpu.idle", 0, 1, PM_TYPE_U64, cpu_indom, PM_SEM_COUNTER, ns),
           ("cpu.iowait", 0, 2, PM_TYPE_U64, cpu_indom, PM_SEM_COUNTER, ns),
           ("cpu.switches", 0, 3, PM_TYPE_U64, cpu_indom, PM_SEM_COUNTER, count),
           ("cpu.online", 0, 4, PM_TYPE_U32, cpu_indom, PM_SEM_INSTANT, none),
           ("cpu.stat.user", 0, 16, PM_TYPE_U64, cpu_indom, PM_SEM_COUNTER, ns),
           ("cpu.stat.system", 0, 18, PM_TYPE_U64, cpu_indom, PM_SEM_COUNTER, ns),
           ("module.clock", 3, 4, PM_TYPE_STRING, PM_INDOM_NULL,
            PM_SEM_DISCRETE, none)]
for i, s in enumerate(["running", "runnable", "sleeping", "iowait", "blocked"]):
    metrics.append(("thread.time." + s, 1, i, PM_TYPE_U64, thread_indom,
                    PM_SEM_COUNTER, ns))
for i, c in enumerate(["nvcsw", "nivcsw", "wakeups", "migrations"]):
    metrics.append(("thread." + c, 1, 8 + i, PM_TYPE_U64, thread_indom,
                    PM_SEM_COUNTER, count))
metrics += [("thread.state", 1, 12, PM_TYPE_STRING, thread_indom,
             PM_SEM_INSTANT, none),
            ("thread.cpu", 1, 13, PM_TYPE_U32, thread_indom, PM_SEM_INSTANT,
             none),
            ("thread.tgid", 1, 14, PM_TYPE_U32, thread_indom, PM_SEM_DISCRETE,
             none),
            ("thread.comm", 1, 15, PM_TYPE_STRING, thread_indom,
             PM_SEM_INSTANT, none)]
for name, cl, it, typ, indom, sem, units in metrics:
    log.pmiAddMetric("csf." + name, log.pmiID(CSF, cl, it), typ, indom, sem,
                     units)


def threads(k):
    """tid: (comm, tgid, state, cpu, {state: ms}, {counter: n})"""
    t = {100: ("main", 100, "sleeping", 0,
               {"running": 1000 + 200 * k, "runnable": 100 + 50 * k,
                "sleeping": 5000 + 750 * k}, {"nvcsw": 100 + 10 * k}),
         101: ("spinner", 100, "runnable", 1,
               {"running": 2000 + 600 * k, "runnable": 500 + 400 * k},
               {"nivcsw": 40 * k})}
    if k <= 5:
        t[102] = ("short", 100, "sleeping", 0,
                  {"running": 100 * k, "sleeping": 1000 + 900 * k}, {})
    if k >= 4:
        t[200] = ("late", 200, "iowait", 1,
                  {"running": 300 * (k - 4), "iowait": 700 * (k - 4)}, {})
    return t


added = set()
for k in range(10):
    for c in (0, 1):
        if k == 0:
            log.pmiAddInstance(cpu_indom, "cpu%d" % c, c)
        inst = "cpu%d" % c
        log.pmiPutValue("csf.cpu.busy", inst, str((10000 + 500 * k) * MS))
        log.pmiPutValue("csf.cpu.idle", inst, str((20000 + 500 * k) * MS))
        log.pmiPutValue("csf.cpu.iowait", inst, "0")
        log.pmiPutValue("csf.cpu.switches", inst, str(1000 * k))
        log.pmiPutValue("csf.cpu.online", inst, "1")
        log.pmiPutValue("csf.cpu.stat.user", inst, str(400 * k * MS))
        log.pmiPutValue("csf.cpu.stat.system", inst, str(100 * k * MS))
    log.pmiPutValue("csf.module.clock", "", "tsc")
    for tid, (comm, tgid, state, cpu, times, counts) in threads(k).items():
        inst = "%d %s" % (tid, comm)
        if tid not in added:
            log.pmiAddInstance(thread_indom, inst, tid)
            added.add(tid)
        for s in ["running", "runnable", "sleeping", "iowait", "blocked"]:
            log.pmiPutValue("csf.thread.time." + s, inst,
                            str(times.get(s, 0) * MS))
        for c in ["nvcsw", "nivcsw", "wakeups", "migrations"]:
            log.pmiPutValue("csf.thread." + c, inst, str(counts.get(c, 0)))
        log.pmiPutValue("csf.thread.state", inst, state)
        log.pmiPutValue("csf.thread.cpu", inst, str(cpu))
        log.pmiPutValue("csf.thread.tgid", inst, str(tgid))
        log.pmiPutValue("csf.thread.comm", inst, comm)
    log.pmiWrite(START + k, 0)
log.pmiEnd()
