#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/system/system.sh - the Debian packages on a real Debian system:
# installed, booted with systemd as PID 1, upgraded while in use, rebooted
# and purged.
#
#   system.sh CODENAME PREVDEBS DEBS
#
# PREVDEBS and DEBS hold the packages of scripts/package for CODENAME
# (bookworm or trixie), PREVDEBS of an older version (scripts/package -v).
#
#   1. The base system, made once and cached in $CSF_CACHE/systems/CODENAME:
#      debootstrap's minbase with systemd, the release's linux-image-amd64
#      and its headers, DKMS and PCP, as a user's machine has them; the
#      headers of the same kernel's rt flavour are downloaded, not
#      installed.  Remade when the package list below changes.
#   2. In an overlay of it, by chroot (tests/system/guest.sh chroot):
#      apt install of PREVDEBS; DKMS builds the module for the kernel,
#      signed with its key; the rt headers installed then make DKMS build
#      for that kernel too, and are purged.  The overlay becomes an ext4
#      disk image (mkfs.ext4 -d).
#   3. Boot 1, in qemu (TCG) with the release's kernel: the module was
#      loaded at boot by the mount unit, the unit mounted the filesystem,
#      csftop -b shows csf-demo's threads, csf-run works, pminfo -f csf
#      answers; then apt install of DEBS under a running csftop and a
#      registered thread: DKMS builds it in the running system, the loaded
#      module, the mount and both programs are undisturbed.
#   4. Boot 2: the new module is loaded, everything works again; apt purge
#      removes the module, the unit and every file the packages installed:
#      the file list equals the one taken before step 2.
# guest.sh runs each boot's part as a systemd service and writes its
# outcome to /root/systest/phase, read back from the image with debugfs.
#
# Environment: CSF_CACHE (default /var/cache/coarse_stat_fs),
# CSF_SYSTEM_TIMEOUT (seconds per boot, default 2400), TMPDIR.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 CODENAME PREVDEBS DEBS" >&2; exit 2; }
codename=$1
prev=$(cd "$2" && pwd)
cur=$(cd "$3" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
systems=${CSF_CACHE:-/var/cache/coarse_stat_fs}/systems
base=$systems/$codename
timeout_s=${CSF_SYSTEM_TIMEOUT:-2400}
# What a user's machine has, beyond minbase: its kernel and headers (the
# metapackages, as an installer leaves them), DKMS and its signing tool,
# PCP, what csftop needs, and a C compiler, libc's headers and pkg-config
# for a program built against the library.
system_packages="systemd-sysv udev kmod linux-image-amd64 linux-headers-amd64
initramfs-tools dkms openssl pcp libncursesw6 procps gcc libc6-dev pkgconf"

say() { printf 'system %s: %s\n' "$codename" "$*"; }
fail() { say "FAIL: $*"; exit 1; }
for t in debootstrap qemu-system-x86_64 mkfs.ext4 debugfs unshare; do
	command -v "$t" >/dev/null || fail "$t not found"
done

# chroot_run ROOT COMMAND...: COMMAND in ROOT with /proc, /sys and /dev,
# in a mount namespace of its own, so nothing stays mounted in ROOT.
chroot_run() {
	unshare -m --propagation private bash -c '
		r=$1
		shift
		for d in proc sys dev; do mount --rbind "/$d" "$r/$d"; done
		exec chroot "$r" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive "$@"' _ "$@"
}

# The kernel release installed in a root.
release_of() { ls "$1/lib/modules"; }

make_base() {
	local new=$base.new stamp=$base.new.debootstrapped mirror rel
	[ -d "$base" ] && [ "$(cat "$base.packages" 2>/dev/null)" = "$system_packages" ] &&
		return 0
	mirror=$("$src/scripts/kernels" mirrors | sed -n 's/^debian: //p')
	say "making the base system $base from $mirror (minutes)"
	mkdir -p "$systems"
	if [ ! -f "$stamp" ]; then
		rm -rf "$new"
		debootstrap --variant=minbase "$codename" "$new" "$mirror" \
			>"$base.log" 2>&1 || { tail -n 20 "$base.log"; fail "debootstrap"; }
		touch "$stamp"
	fi
	# No service starts in the chroot: policy-rc.d for invoke-rc.d, a
	# systemctl that does nothing for the postinsts (bookworm's pcp) that
	# call it, first in the PATH apt gives dpkg (DPkg::Path).
	printf '#!/bin/sh\nexit 101\n' >"$new/usr/sbin/policy-rc.d"
	printf '#!/bin/sh\nexit 0\n' >"$new/usr/local/sbin/systemctl"
	chmod 755 "$new/usr/sbin/policy-rc.d" "$new/usr/local/sbin/systemctl"
	# shellcheck disable=SC2086 # a list
	chroot_run "$new" sh -c 'dpkg --configure -a && apt-get update -q &&
		apt-get install -y -q --no-install-recommends \
			-o DPkg::Path=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin "$@"' _ \
		$system_packages >>"$base.log" 2>&1 ||
		{ tail -n 30 "$base.log"; fail "apt install in the base"; }
	rel=$(release_of "$new")
	chroot_run "$new" apt-get install -y -q -d --no-install-recommends \
		"linux-headers-${rel%-amd64}-rt-amd64" \
		>>"$base.log" 2>&1 || { tail -n 20 "$base.log"; fail "the rt headers"; }
	rm -f "$new/usr/sbin/policy-rc.d" "$new/usr/local/sbin/systemctl"
	enable_services "$new"
	echo systest >"$new/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\tsystest\n' >"$new/etc/hosts"
	echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' >"$new/etc/fstab"
	rm -rf "$base" "$stamp"
	mv "$new" "$base"
	echo "$system_packages" >"$base.packages"
	say "base system: $(du -sh "$base" | cut -f1), kernel $rel"
}

# pmcd enabled, as pcp's postinst means it to be (its deb-systemd-helper
# recorded it as enabled, but the roots made here had no link), and not
# PCP's loggers: each is a minute of TCG at every boot.  systemctl edits
# the links without a running systemd.
enable_services() {
	chroot_run "$1" systemctl -q enable pmcd.service >>"$base.log" 2>&1
	chroot_run "$1" systemctl -q disable pmlogger.service pmie.service \
		pmproxy.service >>"$base.log" 2>&1
	[ -L "$1/etc/systemd/system/multi-user.target.wants/pmcd.service" ] ||
		fail "pmcd.service is not enabled in the base"
}

# The overlay of the base with the packages, the guest's script and its
# service, after guest.sh's chroot step, as the disk image $image.
prepare() {
	local m=$work/m rel=$1 d mb
	mkdir -p "$work/upper" "$work/work" "$m"
	mount -t overlay overlay \
		-o "lowerdir=$base,upperdir=$work/upper,workdir=$work/work" "$m"
	d=$m/root/systest
	mkdir -p "$d/prev" "$d/cur"
	cp "$prev"/*.deb "$d/prev/"
	cp "$cur"/*.deb "$d/cur/"
	rm -f "$d"/*/*-dbgsym_*.deb
	install -m 755 "$src/tests/system/guest.sh" "$d/guest.sh"
	echo "$rel" >"$d/release"
	echo "linux-headers-${rel%-amd64}-rt-amd64" >"$d/rt-headers"
	cat >"$m/etc/systemd/system/csf-systest.service" <<-'EOF'
	[Unit]
	Description=coarse_stat_fs system test (tests/system/guest.sh)
	After=multi-user.target pmcd.service
	[Service]
	Type=oneshot
	ExecStart=/root/systest/guest.sh boot
	StandardOutput=journal+console
	StandardError=journal+console
	[Install]
	WantedBy=multi-user.target
	EOF
	ln -s ../csf-systest.service "$m/etc/systemd/system/multi-user.target.wants/"
	chroot_run "$m" /root/systest/guest.sh chroot || return 1
	mb=$(( $(du -sm "$m" | cut -f1) * 3 / 2 + 1024 ))
	mkfs.ext4 -q -L root -d "$m" "$image" "${mb}M" >/dev/null
}

# boot N: boot the image; guest.sh must leave "N done" in its phase file.
boot() {
	local n=$1 rel=$2 log=$work/console-$1.log phase t0=$SECONDS
	timeout "$timeout_s" qemu-system-x86_64 -accel tcg,thread=single \
		-cpu max -smp 2 -m 2048 -display none -monitor none -no-reboot \
		-serial "file:$log" \
		-kernel "$base/boot/vmlinuz-$rel" -initrd "$base/boot/initrd.img-$rel" \
		-append "root=/dev/vda rw console=ttyS0 panic=-1" \
		-drive "file=$image,format=raw,if=virtio" || true
	phase=$(debugfs -R "cat /root/systest/phase" "$image" 2>/dev/null || true)
	if [ "$phase" != "$n done" ]; then
		tail -n 30 "$log"
		debugfs -R "cat /root/systest/log" "$image" 2>/dev/null |
			sed "s/^/system $codename: guest log: /"
		keep=1
		fail "boot $n: '${phase:-no phase}' after $((SECONDS - t0))s (console and the guest's log above; the disk image is $image)"
	fi
	# guest.sh's lines, as the journal put them on the console
	sed -n "s/^.*guest\.sh\[[0-9]*\]: systest: /system $codename: boot $n: /p" "$log" |
		tr -d '\r'
	say "boot $n: passed in $((SECONDS - t0))s"
}

SECONDS=0
make_base
rel=$(release_of "$base")
work=$(mktemp -d "${TMPDIR:-/var/tmp}/csf-system.XXXXXX")
keep=0
trap '[ $keep = 1 ] || rm -rf "$work"' EXIT
image=$work/disk.img
export work base prev cur src image codename
export -f prepare chroot_run say fail
t0=$SECONDS
unshare -m --propagation private bash -c 'set -euo pipefail; prepare "$1"' _ "$rel" ||
	fail "the chroot step (above)"
say "chroot step and image: $((SECONDS - t0))s"
boot 1 "$rel"
boot 2 "$rel"
say "PASS in ${SECONDS}s"
