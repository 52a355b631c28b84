#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/vm/guest_schedstat.sh - the pages against the kernel's schedstat
# and /proc/stat for stress-ng and dd (tests/vm/schedstat_cmp.c says how),
# with the measuring module csf_skew (tests/vm/skew) loaded for the run.
#
# A guest script of the VM harness (tests/vm/run.sh); about 10 s.
# csf-vm-needs: /usr/bin/stress-ng tests/vm/schedstat_cmp
insmod /lib/csf/csf_skew.ko || { echo "csf_skew: insmod failed"; exit 1; }
"$(dirname "$0")/schedstat_cmp"
rc=$?
rmmod csf_skew || { echo "csf_skew: rmmod failed"; rc=1; }
exit $rc
