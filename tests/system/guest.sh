#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/system/guest.sh - tests/system/system.sh's steps inside the Debian
# system: once in its root by chroot, then at each boot as
# csf-systest.service, which runs after multi-user.target.
#
#   guest.sh chroot   before the first boot: apt install of the older
#                     packages (/root/systest/prev), DKMS builds for the
#                     installed kernel and, through its kernel hook, for
#                     headers installed later
#   guest.sh boot     the next boot's steps, as /root/systest/phase says
#
# Boot 1: the older packages work from boot; then, under a running monitor
# and a registered program, apt install of the newer (/root/systest/cur):
# DKMS builds them in the running system, nothing running is disturbed.
# Boot 2: the newer module is the one loaded; everything works; apt purge
# leaves every file as it was before the chroot step.
# Each step ends by writing "N done" (or "N FAIL: why") to
# /root/systest/phase, which system.sh reads from the disk image.
set -euo pipefail
dir=/root/systest
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
phase=chroot
booted=0

say() { printf 'systest: %s\n' "$*" | tee -a "$dir/log"; }
fail() {
	say "FAIL: $*"
	echo "$phase FAIL: $*" >"$dir/phase"
	sync
	power_off
	exit 1
}
# Not `systemctl poweroff`: it waits for this very unit to stop.
power_off() {
	[ $booted = 1 ] || return 0
	systemctl start --no-block --job-mode=replace-irreversibly poweroff.target
}
done_phase() {
	echo "$phase done" >"$dir/phase"
	sync
	say "phase $phase: done"
}

# Every path of the system but its runtime state (pmcd's sockets and the
# namespace it rebuilds at each start, systemd-update-done's stamps,
# mkfs's lost+found), what dpkg, apt and DKMS keep about themselves, logs,
# and this test's own directory.  depmod's indexes, which a DKMS build
# makes for a kernel with no image (the rt headers'), are checked apart
# (purge).
files() {
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run \
		-o -path /tmp -o -path /var/tmp -o -path "$dir" -o -path /lost+found \
		-o -path /var/cache -o -path /var/log -o -path /var/lib/dpkg \
		-o -path /var/lib/apt -o -path /var/lib/dkms \
		-o -path /var/lib/systemd -o -path /var/lib/pcp/tmp \
		-o -path /var/lib/pcp/pmcd -o -path /var/lib/pcp/pmns \
		-o -path /etc/.updated -o -path /var/.updated \
		-o -path '/usr/lib/modules/*/modules.*' \
		-o -path '/lib/modules/*/modules.*' \) -prune -o -print | sort
}

# debs DIR: the packages to install from DIR (system.sh copies no dbgsym)
debs() {
	printf '%s\n' "$1"/*.deb
}
version_of() {
	local list
	mapfile -t list < <(debs "$1")
	dpkg-deb -f "${list[0]}" Version
}

# install DIR LOG: apt install ./*.deb, as a user would
install_debs() {
	local list
	mapfile -t list < <(debs "$1")
	apt-get install -y -q "${list[@]}" >"$2" 2>&1 ||
		{ tail -n 40 "$2"; fail "apt install of $1"; }
}

ko_for() { find "/lib/modules/$1/updates" -name 'coarse_stat_fs.ko*' -print -quit 2>/dev/null; }

# check_ko RELEASE VERSION: DKMS built VERSION of the module for RELEASE
check_ko() {
	local ko
	ko=$(ko_for "$1")
	[ -n "$ko" ] || fail "DKMS installed no module for $1"
	[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$1" ] ||
		fail "$ko is not for $1"
	[ "$(modinfo -F version "$ko")" = "$2" ] ||
		fail "$ko is version $(modinfo -F version "$ko"), not $2"
	[ "$(modinfo -F signer "$ko")" = "DKMS module signing key" ] ||
		fail "$ko is not signed with DKMS's key: '$(modinfo -F signer "$ko")'"
	say "$ko: version $2, for $1, signed by DKMS's key"
}

# The mount unit and its static link, the modules-load.d entry, the
# agent marked for pmcd's Install, and a program built with pkg-config
# against the library.
installed_parts() {
	local unit
	unit=$(find /lib/systemd/system /usr/lib/systemd/system -maxdepth 1 \
		-name sys-fs-coarse_stat_fs.mount -print -quit 2>/dev/null)
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
	/tmp/app || fail "the program built against the installed library failed"
	rm -f /tmp/app /tmp/app.c
	say "installed: $unit, its sysinit.target link, modules-load.d, the agent for pmcd, the library for pkg-config"
}

in_chroot() {
	local rel rt gone
	rel=$(cat "$dir/release")
	files >"$dir/files.before"
	install_debs "$dir/prev" "$dir/install-prev.log"
	check_ko "$rel" "$(version_of "$dir/prev")"
	installed_parts

	# A kernel installed later: DKMS's hook builds for it.  Its headers
	# (which on Debian 13 depend on its image), then both go again.
	rt=$(cat "$dir/rt-headers")
	apt-get install -y -q --no-download --no-install-recommends "$rt" \
		>"$dir/rt.log" 2>&1 ||
		{ tail -n 30 "$dir/rt.log"; fail "apt install $rt"; }
	check_ko "${rt#linux-headers-}" "$(version_of "$dir/prev")"
	gone=("$rt")
	dpkg -s "linux-image-${rt#linux-headers-}" >/dev/null 2>&1 &&
		gone+=("linux-image-${rt#linux-headers-}")
	apt-get purge -y -q --autoremove "${gone[@]}" >>"$dir/rt.log" 2>&1 ||
		{ tail -n 30 "$dir/rt.log"; fail "apt purge ${gone[*]}"; }
	phase=0
	done_phase
}

# check_boot VERSION: the module VERSION was loaded at boot, by the mount
# unit, and the filesystem is mounted.
check_boot() {
	local loaded unit r
	loaded=$(cat /sys/module/coarse_stat_fs/version 2>/dev/null) ||
		fail "the module is not loaded"
	[ "$loaded" = "$1" ] || fail "module $loaded is loaded, not $1"
	journalctl -k -b -o cat | grep -q '^coarse_stat_fs: clock' ||
		fail "no 'coarse_stat_fs: clock' line in this boot's kernel log"
	for unit in modprobe@coarse_stat_fs.service systemd-modules-load.service; do
		r=$(systemctl show -P Result "$unit")
		[ "$r" = success ] || fail "$unit: Result=$r"
	done
	unit=sys-fs-coarse_stat_fs.mount
	[ "$(systemctl is-active "$unit")" = active ] ||
		fail "$unit is $(systemctl is-active "$unit")"
	[ "$(findmnt -n -o FSTYPE /sys/fs/coarse_stat_fs)" = coarse_stat_fs ] ||
		fail "/sys/fs/coarse_stat_fs is not mounted"
	say "boot: module $loaded loaded, $unit active"
}

# The programs on the running module: csftop shows a program that
# registered itself, the agent counts its threads, csf-run works.
check_tools() {
	local demo out i n=0
	nice -n 19 csf-demo --seconds 3600 >"$dir/demo.out" 2>&1 &
	demo=$!
	for i in $(seq 60); do
		grep -q registered "$dir/demo.out" && break
		sleep 1
	done
	out=$(csftop -b -n 2 -d 500) || fail "csftop -b"
	grep -q ' spin ' <<<"$out" ||
		{ echo "$out"; cat "$dir/demo.out"; fail "csftop -b does not show csf-demo's threads"; }
	# pmcd runs the agent's Install after it starts, in the background
	for i in $(seq 300); do
		out=$(pminfo -f csf.module.nthreads 2>&1) || true
		n=$(sed -n 's/^ *value \([0-9]*\)$/\1/p' <<<"$out")
		[ "${n:-0}" -gt 0 ] && break
		sleep 1
	done
	[ "${n:-0}" -gt 0 ] ||
		{ echo "$out"; fail "pminfo -f csf.module.nthreads: no registered thread"; }
	pminfo -f csf >/dev/null || fail "pminfo -f csf"
	say "csftop -b shows csf-demo's threads; pminfo -f csf answers (after ${i}s), csf.module.nthreads $n"
	kill "$demo"
	wait "$demo" || true
	out=$(csf-run -- sleep 0.2 2>&1) || { echo "$out"; fail "csf-run -- sleep 0.2"; }
	say "csf-run -- sleep 0.2: $(tail -n1 <<<"$out")"
}

# grows FILE LINES: FILE gets more than LINES lines within 30 s
grows() {
	local i
	for i in $(seq 60); do
		[ "$(wc -l <"$1")" -gt "$2" ] && return 0
		sleep 0.5
	done
	return 1
}

# Boot 1's upgrade: the new packages go in under a monitor and a
# registered thread, and neither notices.
upgrade() {
	local old new mon sleeper errs
	old=$(version_of "$dir/prev") new=$(version_of "$dir/cur")
	csf-run -- sleep 3600 >/dev/null 2>&1 &
	sleeper=$!
	csftop -b -d 1000 >"$dir/monitor.out" 2>&1 &
	mon=$!
	grows "$dir/monitor.out" 0 || fail "the monitor wrote nothing"
	SECONDS=0
	install_debs "$dir/cur" "$dir/install-cur.log"
	say "upgrade: apt install of $new took ${SECONDS}s (DKMS built the module)"
	errs=$(grep -E 'Could not|rror' "$dir/install-cur.log" || true)
	[ -z "$errs" ] || fail "the upgrade reported errors: $errs"
	check_ko "$(uname -r)" "$new"
	[ "$(cat /sys/module/coarse_stat_fs/version)" = "$old" ] ||
		fail "the loaded module changed during the upgrade"
	[ "$(systemctl is-active sys-fs-coarse_stat_fs.mount)" = active ] ||
		fail "the upgrade stopped the mount unit"
	grows "$dir/monitor.out" "$(wc -l <"$dir/monitor.out")" ||
		fail "the monitor stopped writing during the upgrade"
	tail -n 40 "$dir/monitor.out" | grep -q sleep ||
		fail "the monitor no longer shows the registered sleep"
	kill "$mon" "$sleeper"
	wait "$mon" "$sleeper" || true
	say "upgrade: $old stays loaded until the reboot, $new installed; the monitor kept running"
}

purge() {
	local pkgs owned f d
	mapfile -t pkgs < <(for f in $(debs "$dir/cur"); do dpkg-deb -f "$f" Package; done)
	owned=$(dpkg -L "${pkgs[@]}" | sort -u)
	apt-get purge -y -q "${pkgs[@]}" >"$dir/purge.log" 2>&1 ||
		{ tail -n 40 "$dir/purge.log"; fail "apt purge"; }
	[ -z "$(find /lib/modules /usr/lib/modules -name 'coarse_stat_fs.ko*')" ] ||
		fail "a module is left in /lib/modules"
	[ ! -e /lib/systemd/system/sys-fs-coarse_stat_fs.mount ] &&
		[ ! -e /usr/lib/systemd/system/sys-fs-coarse_stat_fs.mount ] ||
		fail "the mount unit is left"
	# The rt headers' kernel: DKMS's depmod left its indexes, nothing else.
	for d in /usr/lib/modules/*; do
		grep -qx "$d" "$dir/files.before" && continue
		[ -z "$(find "$d" -mindepth 1 ! -name 'modules.*')" ] ||
			fail "$d holds more than depmod's indexes: $(find "$d" -mindepth 1 ! -name 'modules.*' -print -quit)..."
		rm -r "$d"
	done
	files >"$dir/files.after"
	if ! diff "$dir/files.before" "$dir/files.after" >"$dir/files.diff"; then
		tee -a "$dir/log" <"$dir/files.diff"
		fail "apt purge left files behind (> after, < before)"
	fi
	# what the packages owned is gone, but the directories others own
	while read -r f; do
		[ -e "$f" ] && [ ! -d "$f" ] && fail "$f is left"
	done <<<"$owned"
	say "purge: every file as before the first install ($(wc -l <"$dir/files.before") paths)"
}

on_boot() {
	booted=1
	case $(cat "$dir/phase") in
	"0 done")
		phase=1
		check_boot "$(version_of "$dir/prev")"
		check_tools
		upgrade
		;;
	"1 done")
		phase=2
		check_boot "$(version_of "$dir/cur")"
		check_tools
		purge
		;;
	*) phase=x; fail "unexpected phase '$(cat "$dir/phase")'" ;;
	esac
	done_phase
	power_off
}

case ${1-} in
chroot) in_chroot ;;
boot) on_boot ;;
*) echo "usage: $0 chroot|boot" >&2; exit 2 ;;
esac
