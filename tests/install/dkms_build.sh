#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/install/dkms_build.sh - `dkms add` and `dkms build -k REL` of the
# installed module source succeed for every kernel, and the module is
# built for that kernel (vermagic) and signed with DKMS's key when dkms
# signs (Secure Boot, see coarse_stat_fs(7)).
#
# The build itself ran before the tests, in tests/install/build_modules.sh
# (check_DATA of `make check`), so that the VM suite can load the very
# modules dkms built; this reads its record, tests/install/dkms/result.
# SKIP: no kernel (CSF_DKMS_KERNELS or CSF_VM_KERNELS=none), or dkms not
# installed (the module was then built by dkms.conf's MAKE line by hand).
set -u
out=tests/install/dkms
result=$out/result

if [ ! -f "$result" ]; then
	echo "FAIL: $result missing: build_modules.sh did not run (make check runs it)"
	exit 1
fi
if [ ! -s "$result" ]; then
	echo "SKIP: $(cat "$out/note" 2>/dev/null || echo "no kernel")"
	exit 77
fi
status=0
pass=0
while read -r rel how res sig; do
	log=$out/$how-$rel.log
	if [ "$res" != ok ]; then
		echo "FAIL: $how build for $rel; its log:"
		cat "$log" 2>/dev/null
		cat "$out/tree/coarse_stat_fs/"*/"$rel"/*/log/make.log 2>/dev/null
		status=1
		continue
	fi
	ko=$(find tests/install/vmroot/lib/modules/"$rel" -name 'coarse_stat_fs.ko*' | head -n1)
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
	case $vermagic in
	"$rel "*) echo "ok: $how build for $rel: ${ko#tests/install/vmroot}, vermagic $vermagic" ;;
	*) echo "FAIL: $ko: vermagic '$vermagic' is not for $rel"; status=1; continue ;;
	esac
	if [ "$sig" = signed ]; then
		signer=$(modinfo -F signer "$ko" 2>/dev/null)
		if [ "$signer" = "DKMS module signing key" ]; then
			echo "ok: signed by '$signer' (/var/lib/dkms/mok.pub)"
		else
			echo "FAIL: dkms said it signed $ko, but its signer is '$signer'"
			status=1
			continue
		fi
	fi
	pass=$((pass + 1))
done <"$result"
if [ $status = 0 ] && [ -f "$out/note" ]; then
	echo "SKIP: $(cat "$out/note")"
	exit 77
fi
[ $status = 0 ] && echo "ok: dkms built the installed source for $pass kernel(s)"
exit $status
