#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/vm/guest_schedstat.sh - the pages against the kernel's schedstat
# for stress-ng and dd (tests/vm/schedstat_cmp.c says how).
#
# A guest script of the VM harness (tests/vm/run.sh); about 10 s.
# csf-vm-needs: /usr/bin/stress-ng tests/vm/schedstat_cmp
exec "$(dirname "$0")/schedstat_cmp"
