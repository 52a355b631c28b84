#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/install/deb_install_guest.sh REL - deb_install.sh's steps, run in
# the overlay root by chroot, with the packages in /debs and kernel REL's
# headers as /lib/modules/REL/build.
set -euo pipefail
rel=$1
say() { printf 'deb_install: %s\n' "$*"; }
fail() { say "FAIL: $*"; exit 1; }
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
# the files of the root, but what dpkg, apt, logs and DKMS's key keep,
# and depmod's indexes (a real system has them from its kernel package;
# here, with the headers alone, the module's install makes them)
files() {
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run \
		-o -path /tmp -o -path /debs -o -path /var/cache -o -path /var/log \
		-o -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/lib/dkms \
		-o -path '/usr/lib/modules/*/modules.*' \
		-o -path '/lib/modules/*/modules.*' \) -prune -o -print | sort
}

files >/tmp/before
debs=() pkgs=()
for d in /debs/*.deb; do
	case $d in
	*-dbgsym_*) ;;
	*) debs+=("$d"); pkgs+=("$(dpkg-deb -f "$d" Package)") ;;
	esac
done
say "apt install ${pkgs[*]}"
apt-get install -y -q "${debs[@]}" >/tmp/install.log 2>&1 ||
	{ tail -n 40 /tmp/install.log; fail "apt install"; }

ko=$(find "/lib/modules/$rel/updates" -name 'coarse_stat_fs.ko*' | head -n1)
[ -n "$ko" ] || { tail -n 30 /tmp/install.log; fail "DKMS installed no module for $rel"; }
vm=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
[ "$vm" = "$rel" ] || fail "$ko is for $vm, not $rel"
say "DKMS built and installed $ko (vermagic $vm)"
unit=$(find /lib/systemd/system /usr/lib/systemd/system -name sys-fs-coarse_stat_fs.mount -path '*/system/sys-fs*' 2>/dev/null | head -n1)
[ -n "$unit" ] || fail "no mount unit"
[ -L "${unit%/*}/sysinit.target.wants/sys-fs-coarse_stat_fs.mount" ] ||
	fail "no sysinit.target.wants link to the mount unit"
grep -qx coarse_stat_fs /usr/lib/modules-load.d/coarse_stat_fs.conf ||
	fail "no modules-load.d entry"
[ -e /var/lib/pcp/pmdas/csf/.NeedInstall ] ||
	fail "the agent is not marked for pmcd's Install"
printf '#include <coarse_stat_fs/coarse_stat_fs.h>\nint main(void) { return csf_clock_name(csf_clock()) == 0; }\n' >/tmp/app.c
# shellcheck disable=SC2046 # pkg-config's words
cc -o /tmp/app /tmp/app.c $(pkg-config --cflags --libs coarse_stat_fs) ||
	fail "a program does not build against the installed library"
/tmp/app || fail "the program against the installed library failed"
csftop --help >/dev/null || fail "csftop --help"
say "unit, modules-load.d, agent, library and csftop: installed"

apt-get purge -y -q "${pkgs[@]}" >/tmp/purge.log 2>&1 ||
	{ tail -n 40 /tmp/purge.log; fail "apt purge"; }
rm -f /tmp/app /tmp/app.c
files >/tmp/after
if ! diff /tmp/before /tmp/after >/tmp/left; then
	cat /tmp/left
	fail "apt purge left files behind (> after, < before)"
fi
say "apt purge: every file as before the install ($(wc -l </tmp/before) paths)"
