#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/vm/guest_install.sh - the installed module and boot files, in the
# guest: the module dkms built from the installed source loads with
# `modprobe` as the installed modules-load.d entry asks, and the fs is
# mounted the way the installed mount unit says.
#
# A guest script of the VM harness (tests/vm/run.sh runs every
# tests/vm/guest_*.sh in each clock mode with the harness's module loaded
# and mounted; see its header).  It ships tests/install/vmroot/, which
# tests/install/build_modules.sh (make check, before the tests) fills from
# a staged `make install` and `dkms build -k REL` of the installed source:
# csf-vm-ship: tests/install/vmroot
#
# What it does, and what it cannot do:
#   - unmounts and unloads the harness's module, installs vmroot's
#     lib/modules/$(uname -r) (updates/dkms/coarse_stat_fs.ko* and depmod's
#     index, built on the host by depmod -b) as /lib/modules/$(uname -r);
#   - sets the clock mode with /etc/modprobe.d/coarse_stat_fs.conf, the
#     documented way to pass module parameters;
#   - does what systemd-modules-load does: `modprobe NAME` for every line of
#     the installed modules-load.d/coarse_stat_fs.conf;
#   - the guest has no systemd: it reads What=, Where=, Type= and Options=
#     of the installed sys-fs-coarse_stat_fs.mount and runs exactly that
#     mount(8); the unit's dependencies are checked by systemd-analyze
#     verify on the host (tests/install/staged_install.sh), not here;
#   - mounts once more with the documented fstab line (systems without
#     systemd), then unloads and restores the harness's module and mount.
# Output is libcheck-like: "ok: ..." / "FAIL: ..." lines, then one summary
# line; exit status 0 iff all passed.

here=$(dirname "$0")
vmroot=$here/vmroot
rel=$(uname -r)
ROOT=${CSF_ROOT:-/sys/fs/coarse_stat_fs}

# ok, no, check, summary: lib.sh is next to this script in the guest
# (/tests), one directory up in the source tree
# shellcheck source=SCRIPTDIR/../lib.sh
if [ -f "$here/lib.sh" ]; then . "$here/lib.sh"; else . "$here/../lib.sh"; fi
# a failed check shows what its command printed
ck_out=/tmp/guest_install.out
mounted() { grep -q " $ROOT coarse_stat_fs " /proc/mounts; }
loaded() { [ -d /sys/module/coarse_stat_fs ]; }
unload_all() {
	while mounted; do umount "$ROOT" || break; done
	loaded && rmmod coarse_stat_fs
	! loaded
}
# Put the harness's module back as guest-init.sh loaded it.
restore() {
	unload_all
	insmod "$CSF_KO" clock="$CSF_CLOCK" max_threads="${CSF_MAX_THREADS:-8192}" &&
		mount -t coarse_stat_fs none "$ROOT"
}
# The last check, before each summary.
restored() {
	if restore; then ok "the harness's module is back (clock=$CSF_CLOCK)"; else no "restoring the harness's module"; fi
}
# The value of KEY= in the [Mount] section of unit file $1.
unit_key() {
	sed -n '/^\[Mount\]/,/^\[/s/^'"$2"'=//p' "$1" | tail -n1
}

loadconf=$(find "$vmroot" -path '*/modules-load.d/coarse_stat_fs.conf' | head -n1)
unit=$(find "$vmroot" -name sys-fs-coarse_stat_fs.mount -type f | head -n1)
fstab=$(find "$vmroot" -name coarse_stat_fs.fstab -type f | head -n1)
if [ ! -d "$vmroot/lib/modules/$rel" ]; then
	no "no module for $rel in vmroot: tests/install/build_modules.sh did not build one (see tests/install/dkms_build.sh.log)"
	restored
	summary
fi
check "an installed modules-load.d entry: ${loadconf#"$vmroot"}" test -f "$loadconf"
check "an installed mount unit: ${unit#"$vmroot"}" test -f "$unit"

check "unload the harness's module" unload_all
rm -rf "/lib/modules/$rel"
mkdir -p /lib/modules
cp -R "$vmroot/lib/modules/$rel" "/lib/modules/$rel"
ko=$(find "/lib/modules/$rel/updates" -name 'coarse_stat_fs.ko*' | head -n1)
check "the dkms module is under /lib/modules/$rel/updates/: ${ko#/lib/modules/"$rel"/}" test -n "$ko"
check "depmod's index names it" grep -q "^updates/.*coarse_stat_fs\.ko[.a-z]*:" "/lib/modules/$rel/modules.dep"

mkdir -p /etc/modprobe.d
echo "options coarse_stat_fs clock=$CSF_CLOCK" >/etc/modprobe.d/coarse_stat_fs.conf

# systemd-modules-load: one module name per line, # and ; comments.
mods=$(sed -e 's/[#;].*//' -e 's/[[:space:]]//g' "$loadconf" | grep -v '^$')
check "the modules-load.d entry names coarse_stat_fs" test "$mods" = coarse_stat_fs
for m in $mods; do
	check "modprobe $m (from modules-load.d)" modprobe "$m"
done
check "loaded" loaded
check "clock=$CSF_CLOCK from /etc/modprobe.d" \
	grep -qx "$CSF_CLOCK" /sys/module/coarse_stat_fs/parameters/clock
check "the unit's ConditionPathExists holds" \
	test -d "$(sed -n 's/^ConditionPathExists=//p' "$unit")"

what=$(unit_key "$unit" What)
where=$(unit_key "$unit" Where)
type=$(unit_key "$unit" Type)
opts=$(unit_key "$unit" Options)
check "the unit's Where= is $ROOT" test "$where" = "$ROOT"
check "mount -t $type -o $opts $what $where (the unit's [Mount])" \
	mount -t "$type" -o "$opts" "$what" "$where"
check "mounted" mounted
for o in $(echo "$opts" | tr , ' '); do
	# shellcheck disable=SC1087 # [ ,] is grep's, not an array index
	check "mount option $o in /proc/mounts" \
		sh -c "grep ' $where $type ' /proc/mounts | grep -q '[ ,]$o[ ,]'"
done
check "csftop -b -n 1 reads the installed module's pages" \
	sh -c "'$here/csftop' -b -n 1 >/tmp/guest_install.csftop"
check "umount" umount "$where"
check "modprobe -r coarse_stat_fs" modprobe -r coarse_stat_fs
check "unloaded" sh -c '! test -d /sys/module/coarse_stat_fs'

# Without systemd: the documented /etc/modules entry and fstab line.
if [ -n "$fstab" ]; then
	check "modprobe coarse_stat_fs" modprobe coarse_stat_fs
	grep -v '^#' "$fstab" >/etc/fstab
	check "mount $ROOT with the documented fstab line" mount "$ROOT"
	check "mounted" mounted
	check "umount" umount "$ROOT"
else
	no "no installed coarse_stat_fs.fstab in vmroot"
fi
rm -f /etc/modprobe.d/coarse_stat_fs.conf /etc/fstab
restored
summary
