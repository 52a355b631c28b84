#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/vm/check-vm.sh - the `make check` entry of the VM suite.
#
# Runs tests/vm/run.sh from the top build directory (where the automake
# test driver starts it) on every installed kernel, or on
# $CSF_VM_KERNELS ("none" skips: distcheck uses that).  Exits 77 (SKIP)
# when there is no qemu or no kernel build tree, 0/1 otherwise; the last
# line of tests/vm/check-vm.sh.log is "vm: N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
top_builddir=$(pwd)
if [ "${CSF_VM_KERNELS:-}" = none ]; then
	echo "check-vm: SKIP: CSF_VM_KERNELS=none"
	exit 77
fi
exec bash "$top_srcdir/tests/vm/run.sh" "$top_builddir" "$top_srcdir"
