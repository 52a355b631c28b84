#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/vm/run.sh - run the module's tests in qemu, one VM per kernel.
#
# The kernels are data: those of tests/vm/kernels.tab, fetched into a cache
# by scripts/kernels (image, modules, headers; never the host's own).  For
# each: build kmod/ against its headers in BUILDDIR/tests/vm/out/NAME/kmod
# (in its Debian build root when the host's toolchain is older, see
# scripts/kernels), and the measuring module tests/vm/skew likewise; pack
# an initramfs (busybox-static, both modules, virtio_blk and its
# dependencies, the guest test programs, the guest scripts, csftop and
# csf-demo, all with their shared libraries, a few terminfo entries,
# tests/vm/guest-init.sh as /init), boot its vmlinuz
# in qemu-system-x86_64 or qemu-system-aarch64 -M virt (TCG, -cpu max, 2
# vCPUs, a small virtio disk, the arguments of its kernels.tab line), and
# judge the console log: every guest program's and guest script's libcheck
# summary, the end marker, and dmesg.
#
# Architectures.  BUILDDIR is one architecture's build (its src/csftop
# says which), and only kernels of that architecture are booted: by
# default the table's for it.  A build for another architecture than this
# host's (scripts/cross-build arm64 DIR, as scripts/test makes one) takes
# the guest's busybox, its shared libraries and the Debian programs that
# guest scripts name from the sysroot scripts/kernels makes for it, and
# its modules are cross-built with scripts/kernels info's make= line.
#
# usage: tests/vm/run.sh [-k KERNEL]... [-j JOBS] [-m "mono tsc"] [-t "test_a test_b"]
#                        [-s "guest_a.sh guest_b.sh"] [--demo | --bench]
#                        [BUILDDIR [SRCDIR]]
#        tests/vm/run.sh --list
#
#   -k KERNEL   kernel to test (repeatable): a short name of kernels.tab
#               (6.1, 6.12, ..., 6.1-arm64, ...) or the release of a
#               cached one (6.1.0-57-amd64).  Default: $CSF_VM_KERNELS
#               (space-separated; "none" skips), else every kernel of the
#               table; one missing from the cache fails the run (fetch it
#               with scripts/kernels fetch, as scripts/test does).
#   --list      the kernels of the table and what the cache holds.
#   -j JOBS     kernels tested at once (default $CSF_VM_JOBS, else the
#               host's CPUs): each VM is one qemu thread, so two cores test
#               two kernels in the time of one.  With JOBS > 1 a kernel's
#               output is printed whole when it is done, in table order.
#   -m MODES    clock modes to load the module with, on every kernel
#               (default $CSF_VM_MODES, else each kernel's modes in
#               kernels.tab).
#   -t TESTS    guest programs, names in BUILDDIR/tests/vm (default
#               $CSF_VM_TESTS or every executable tests/vm/test_*; "none":
#               none, to run guest scripts alone).
#   -s SCRIPTS  guest scripts, names in SRCDIR/tests/vm (default
#               $CSF_VM_SCRIPTS or every tests/vm/guest_*.sh; "none": none).
#   --demo      boot once (first kernel), load the module with clock=auto,
#               start csf-demo and run csftop on the console: interactive
#               when stdin and stdout are a terminal (the VM's serial
#               console is your terminal, TERM and its size are passed on;
#               quitting csftop powers the VM off; ^A x kills qemu), else
#               `csftop -b -n 5 -d 200`, its console printed afterwards.
#   --bench     boot once (first kernel) and run the benchmarks in the guest
#               (tests/bench: pingpong, bench_snap, csftop_cost.sh next to
#               procps top); prints their tables.  Not a test: no judging
#               of the figures.  tests/bench/run.sh (`make bench`) calls it.
#   BUILDDIR    the automake build directory (default: .)
#   SRCDIR      the source tree (default: the tree this script is in)
#
# Guest scripts.  Every SRCDIR/tests/vm/guest_*.sh (or the -s list) is
# copied to /tests in the initramfs and run with busybox sh in each clock
# mode, after the guest programs (but before test_lifecycle, which unloads
# the module), so with the module loaded in that mode and mounted at
# $CSF_ROOT, cwd /tmp, and in the environment CSF_ROOT, CSF_KO, CSF_CLOCK,
# CSF_VM_DISK (the virtio disk, /dev/vda), PATH with /tests.  csftop and
# csf-demo (src/, real ELF files) are always in /tests.  A script prints
# "ok: ..." / "FAIL: ..." lines and ends with one libcheck-style summary,
# "NN%: Checks: N, Failures: N, Errors: N", which the host counts like a
# program's; it is reported as [MODE/NAME] (NAME without .sh), and a
# missing summary or a non-zero exit fails the run.  A script that needs
# more files names them in its own header, one or more per line:
#   # csf-vm-ship: PATH...
# an absolute PATH is a host file or directory copied to the same path in
# the guest; a relative one is BUILDDIR/PATH copied to /tests/BASENAME.
# ELF files among them get their shared libraries.  Files that a build or
# a host may lack (what configure builds only with an optional library,
# another package's programs) are named the same way by
#   # csf-vm-needs: PATH...
# and shipped the same way; when one is missing, the script is left out
# of the run, with a note saying which.  SRCDIR/tests/lib.sh,
# the check helpers (ok, no, check, summary) of /init and the scripts, is
# always there as /tests/lib.sh.
#
# Environment: CSF_VM_TIMEOUT (seconds per boot, default 1200; --bench
# 2400), CSF_VM_QEMU (default qemu-system-x86_64), CSF_VM_QEMU_ARM64
# (default qemu-system-aarch64), CSF_VM_SMP (2),
# CSF_VM_MEM (1G), CSF_VM_ACCEL (tcg,thread=single; see the comment at
# qargs), CSF_VM_QEMU_ARGS (more qemu arguments), CSF_VM_APPEND (more
# kernel arguments, after those of kernels.tab),
# CSF_VM_ALLOW_NO_KMOD=1 (development only: boot and run the programs even
# though kmod/ cannot be built yet; they will fail).
#
# Exit: 0 all passed, 1 something failed, 77 nothing to run (no kernel build
# tree, no qemu, or CSF_VM_KERNELS=none).  The last line is always
# "vm: N passed, N failed" (libcheck checks, summed over kernels and modes).

set -euo pipefail

prog=${0##*/}
say() { printf '%s: %s\n' "$prog" "$*"; }
die() { say "error: $*" >&2; echo "vm: 0 passed, 1 failed"; exit 1; }
skip() { say "SKIP: $*"; echo "vm: 0 passed, 0 failed"; exit 77; }

kernels=()
modes=${CSF_VM_MODES:-}
tests=${CSF_VM_TESTS:-}
scripts=${CSF_VM_SCRIPTS:-}
run="test"
jobs=${CSF_VM_JOBS:-$(nproc)}
while [ $# -gt 0 ]; do
	case $1 in
	-k) kernels+=("$2"); shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	-m) modes=$2; shift 2 ;;
	-t) tests=$2; shift 2 ;;
	-s) scripts=$2; shift 2 ;;
	--demo) run=demo; shift ;;
	--bench) run=bench; shift ;;
	--list) exec "$(dirname "$0")/../../scripts/kernels" list ;;
	-h|--help) sed -n '4,/^set -e/p' "$0" | sed '$d'; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
case $jobs in '' | *[!0-9]* | 0) die "JOBS must be a positive integer, not '$jobs'" ;; esac
builddir=$(cd "${1:-.}" && pwd)
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
# A guard against a hung guest, not a measure: the debug kernel's boot
# took 428 s sharing the host with another guest and a busy loop (a soak).
timeout_s=${CSF_VM_TIMEOUT:-1200}
[ $run = bench ] && timeout_s=${CSF_VM_TIMEOUT:-2400}
host_arch=$(dpkg --print-architecture)
smp=${CSF_VM_SMP:-2}
mem=${CSF_VM_MEM:-1G}

# ---- the architectures -----------------------------------------------------
# boot_facts ARCH: how a guest of ARCH (a Debian architecture) boots: qemu
# and its machine, the console and kernel arguments of its own.  What
# names an architecture (its triplet, counter, qemu-user) is scripts/kernels
# arch's.
#
# amd64, tsc=reliable: TCG's TSC is the host's, which is invariant, but the
# kernel's clocksource watchdog, reading an emulated HPET from a vCPU the
# loaded host deschedules, took it for unstable in a soak and switched to
# the HPET.  The TSC's frequency is then only what its calibration said
# (2.6 times too fast and 6.5% too slow were seen), the kernel's time no
# longer runs on it, and every duration a test measures on the page clock
# in tsc mode is off by that much.
# arm64, pauth-impdef: qemu's own pointer-authentication hash instead of
# the architected QARMA, which TCG computes slowly in every function that
# Debian's kernels sign.
boot_facts() {
	case $1 in
	amd64)
		qemu=${CSF_VM_QEMU:-qemu-system-x86_64} machine=(-cpu max)
		console=ttyS0 arch_append=tsc=reliable ;;
	arm64)
		qemu=${CSF_VM_QEMU_ARM64:-qemu-system-aarch64}
		# shellcheck disable=SC2054 # one -cpu argument
		machine=(-M virt -cpu max,pauth-impdef=on)
		console=ttyAMA0 arch_append='' ;;
	*)
		return 1 ;;
	esac
}

# The build tree is one architecture's: its programs go to guests of that
# architecture only.  A foreign one takes what else the guest needs (a
# static busybox, Debian's programs that guest scripts name, the shared
# libraries) from a sysroot of bookworm for it (scripts/kernels sysroot).
kernels_cmd=$srcdir/scripts/kernels
if [ -f "$builddir/src/csftop" ]; then
	facts=$("$kernels_cmd" arch --elf "$builddir/src/csftop") ||
		die "$builddir/src/csftop: not a program of a known architecture"
else
	facts=$("$kernels_cmd" arch "$host_arch") ||
		die "this host's architecture, $host_arch, is not scripts/kernels arch's"
fi
arch='' triplet='' counter='' user_qemu=''
eval "$facts"
build_arch=$arch
boot_facts "$build_arch" ||
	die "$builddir/src/csftop is built for $build_arch, which this harness cannot boot"

# ---- which kernels -------------------------------------------------------
if [ ${#kernels[@]} -eq 0 ]; then
	if [ -n "${CSF_VM_KERNELS:-}" ]; then
		[ "$CSF_VM_KERNELS" = none ] && skip "CSF_VM_KERNELS=none"
		read -r -a kernels <<<"$CSF_VM_KERNELS"
	else
		mapfile -t kernels < <("$kernels_cmd" names "$build_arch")
	fi
fi
[ ${#kernels[@]} -gt 0 ] || skip "no kernels in $srcdir/tests/vm/kernels.tab"
sysroot=
if [ "$build_arch" != "$host_arch" ]; then
	sysroot=$("$srcdir/scripts/kernels" sysroot bookworm "$build_arch") ||
		die "no $build_arch sysroot (scripts/kernels sysroot bookworm $build_arch)"
fi

# guest_src PATH: the file an absolute guest PATH is copied from: the
# host's own, or for a foreign guest the sysroot's (where a bookworm
# package may still have it outside /usr).
guest_src() {
	if [ -z "$sysroot" ] || [ -e "$sysroot$1" ]; then
		echo "$sysroot$1"
	else
		echo "$sysroot/usr$1"
	fi
}

command -v "$qemu" >/dev/null || skip "$qemu not found (scripts/install-deps installs it)"
for t in busybox cpio gzip; do
	command -v $t >/dev/null || skip "$t not found (apt-get install busybox-static cpio gzip)"
done
busybox=$(command -v busybox)
if [ -n "$sysroot" ]; then
	busybox=$sysroot/bin/busybox
	[ -x "$busybox" ] || die "$busybox missing: the sysroot lacks busybox-static"
	command -v "$user_qemu" >/dev/null ||
		skip "$user_qemu not found (apt-get install qemu-user-static)"
elif ldd "$busybox" >/dev/null 2>&1; then
	skip "$busybox is dynamically linked: install busybox-static"
fi

# ---- guest programs and scripts ------------------------------------------------
# tests: ELF programs of BUILDDIR/tests/vm; scripts: SRCDIR/tests/vm/*.sh;
# ship: more build files (BUILDDIR-relative, to /tests) or host files
# (absolute, same path), each an ELF file with its libraries or a script.
ship=(src/csftop src/csf-demo)
# the design brief's example, which tests/vm/test_seed_example runs
[ -f "$builddir/examples/seed" ] && ship+=(examples/seed)
case $run in
demo)
	tests="" scripts="" ;;
bench)
	tests="" scripts=""
	ship+=(tests/bench/pingpong tests/bench/forkloop tests/bench/bench_snap tests/bench/cputime
		/usr/bin/top) ;;
test)
	if [ "$tests" = none ]; then
		tests=
	else
		if [ -z "$tests" ]; then
			for f in "$builddir"/tests/vm/test_*; do
				case ${f##*/} in *.*) continue ;; esac
				[ -f "$f" ] && [ -x "$f" ] && tests+="${tests:+ }${f##*/}"
			done
		fi
		[ -n "$tests" ] || die "no guest test programs in $builddir/tests/vm (run 'make check', which builds them, or 'make tests/vm/test_cpu_page ...')"
	fi
	if [ -z "$scripts" ]; then
		for f in "$srcdir"/tests/vm/guest_*.sh; do
			[ -f "$f" ] && scripts+="${scripts:+ }${f##*/}"
		done
	elif [ "$scripts" = none ]; then
		scripts=
	fi
	;;
esac
is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
for t in $tests; do
	f=$builddir/tests/vm/$t
	[ -x "$f" ] || die "$f missing (make check builds it)"
	is_elf "$f" ||
		die "$f is not an ELF binary (a libtool wrapper?): guest programs must link the library with -static"
done
kept=
for s in $scripts; do
	[ -f "$srcdir/tests/vm/$s" ] || die "guest script $srcdir/tests/vm/$s missing"
	# what it cannot run without: "# csf-vm-needs: PATH..." lines
	lacks=
	# shellcheck disable=SC2013 # paths are words
	for f in $(sed -nE 's/^# csf-vm-needs:(.*)/\1/p' "$srcdir/tests/vm/$s"); do
		case $f in /*) p=$(guest_src "$f") ;; *) p=$builddir/$f ;; esac
		[ -e "$p" ] || lacks+=" $p"
	done
	if [ -n "$lacks" ]; then
		say "note: leaving out guest script $s: missing$lacks"
		continue
	fi
	kept+="${kept:+ }$s"
	# its files: the "# csf-vm-ship:" and "# csf-vm-needs:" lines
	# shellcheck disable=SC2207 # paths are words
	ship+=($(sed -nE 's/^# csf-vm-(ship|needs):(.*)/\2/p' "$srcdir/tests/vm/$s"))
done
scripts=$kept
for f in "${ship[@]}"; do
	case $f in /*) p=$(guest_src "$f") ;; *) p=$builddir/$f ;; esac
	[ -e "$p" ] || die "$p missing (make builds it; make check builds the test programs)"
done
# Terminal descriptions for csftop (and top): the console's, the usual
# ones, and the caller's $TERM for the interactive demo; top -b wants "dumb".
terms="dumb linux vt100 vt102 vt220 xterm xterm-256color xterm-color screen screen-256color tmux tmux-256color ${TERM:-}"

# ---- helpers ---------------------------------------------------------------

# copy_libs FILE DEST_ROOT: FILE's shared libraries and its ELF
# interpreter, at their own paths under DEST_ROOT; but one of the build
# tree (an uninstalled libtool library, found by the RUNPATH of the
# uninstalled agent) in /usr/lib, where the guest's loader looks anyway:
# a build tree under /tmp would be hidden by the guest's own /tmp.
copy_libs() {
	local f=$1 root=$2 lib dest
	if [ -n "$sysroot" ]; then
		copy_libs_foreign "$f" "$root"
		return
	fi
	# a file ldd cannot read (a .ko) has none
	{ ldd "$f" 2>/dev/null || true; } | awk '
		/=>/ { if ($3 ~ /^\//) print $3; next }
		$1 ~ /^\// { print $1 }' |
	while read -r lib; do
		case $lib in
		"$builddir"/*) dest=/usr/lib/${lib##*/} ;;
		*) dest=$lib ;;
		esac
		[ -e "$root$dest" ] && continue
		mkdir -p "$root$(dirname "$dest")"
		cp -L "$lib" "$root$dest"
	done
}

# copy_libs_foreign FILE DEST_ROOT: copy_libs for a foreign ELF file, which
# ldd cannot run: its interpreter and NEEDED libraries, each found in the
# file's RUNPATH (the build tree's, to /usr/lib as above) or the sysroot's
# library directories, and theirs in turn.
copy_libs_foreign() {
	local f=$1 root=$2 interp lib dir p dest runpath
	interp=$(readelf -lW "$f" | sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
	if [ -n "$interp" ] && [ ! -e "$root$interp" ]; then
		mkdir -p "$root${interp%/*}"
		cp -L "$(guest_src "$interp")" "$root$interp" || return 1
	fi
	runpath=$(readelf -dW "$f" | sed -n 's/.*R[UN]*PATH).*\[\(.*\)\]$/\1/p' | tr ':' ' ')
	for lib in $(readelf -dW "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		p=
		for dir in $runpath; do
			[ -e "$dir/$lib" ] && { p=$dir/$lib; break; }
		done
		dest=/usr/lib/$lib
		if [ -z "$p" ]; then
			dest=/usr/lib/$triplet/$lib
			for dir in /lib/$triplet /usr/lib/$triplet /lib /usr/lib; do
				[ -e "$sysroot$dir/$lib" ] && { p=$sysroot$dir/$lib; break; }
			done
		fi
		[ -n "$p" ] || { say "$f needs $lib: not in its RUNPATH nor in $sysroot" >&2; return 1; }
		[ -e "$root$dest" ] && continue
		mkdir -p "$root${dest%/*}"
		cp -L "$p" "$root$dest" && copy_libs_foreign "$p" "$root" || return 1
	done
}

# ship_one PATH DEST_ROOT: a file of the ship list (see above) into the
# initramfs, with the shared libraries of every ELF file in it.  A busybox
# applet link of the same name is replaced (procps top for busybox top).
ship_one() {
	local p=$1 root=$2 dest f
	case $p in
	/*) dest=$root$p; p=$(guest_src "$p") ;;
	*) dest=$root/tests/${p##*/}; p=$builddir/$p ;;
	esac
	mkdir -p "$(dirname "$dest")"
	rm -rf "$dest"
	cp -RL "$p" "$dest" || return 1
	find "$dest" -type f | while read -r f; do
		if is_elf "$f"; then copy_libs "$f" "$root" || exit 1; fi
	done
}

# ship_terminfo DEST_ROOT NAME...: the compiled terminfo entries found on
# this host, at their own paths (ncurses looks in /etc/terminfo,
# /lib/terminfo and /usr/share/terminfo).
ship_terminfo() {
	local root=$1 t d e
	shift
	for t in "$@"; do
		case $t in */*|.*) continue ;; esac
		for d in /etc/terminfo /lib/terminfo /usr/share/terminfo; do
			e=$d/${t:0:1}/$t
			if [ -f "$e" ]; then
				[ -e "$root$e" ] || { mkdir -p "$root${e%/*}"; cp -L "$e" "$root$e"; }
				break
			fi
		done
	done
}

# build_skew NAME KDIR OUT MAKEARGS: the measuring module tests/vm/skew (not the
# product's; guest_schedstat.sh loads it) into OUT/skew, as kmod/ is built.
build_skew() {
	local f
	mkdir -p "$3/skew"
	for f in "$srcdir"/tests/vm/skew/{Kbuild,Makefile} "$srcdir"/tests/vm/skew/*.c; do
		ln -s "$f" "$3/skew/${f##*/}"
	done
	if ! "$kernels_cmd" exec "$1" -b "$srcdir" -b "$3" -- \
		make -C "$3/skew" KDIR="$2" $4 >"$3/skew-build.log" 2>&1 ||
		grep -qE 'csf_skew\.c:[0-9]+(:[0-9]+)?: (warning|error)' \
			"$3/skew-build.log"; then
		cat "$3/skew-build.log"
		kfail "tests/vm/skew: the build failed or warned"
		return 1
	fi
}

# kmods_for MODDIR MOD...: print the .ko paths (relative to MODDIR, a
# kernel's lib/modules/REL) of MOD and its dependencies, dependencies
# first; built-in modules print nothing.  Uses modules.dep, which already
# holds the transitive list.
kmods_for() {
	local dir=$1; shift
	local m
	declare -A seen=()
	visit() {
		local path=$1 line dep
		[ -n "${seen[$path]:-}" ] && return
		seen[$path]=1
		line=$(grep -E "^${path//./\\.}:" "$dir/modules.dep" || true)
		for dep in ${line#*:}; do visit "$dep"; done
		echo "$path"
	}
	for m in "$@"; do
		local p
		p=$(grep -E "/$m\.ko(\.xz|\.zst|\.gz)?:" "$dir/modules.dep" | head -n1 | cut -d: -f1 || true)
		if [ -z "$p" ]; then
			if grep -qE "/$m\.ko\$" "$dir/modules.builtin" 2>/dev/null; then
				continue        # built in: nothing to load
			fi
			say "warning: $dir has no module $m (and it is not built in)" >&2
			continue
		fi
		visit "$p"
	done
}

# unpack_ko SRC DEST: a plain .ko, whatever the compression.
unpack_ko() {
	case $1 in
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) cp "$1" "$2" ;;
	esac
}

# dmesg lines that fail a run.  Precise on purpose: boot noise such as
# "tsc: Marking TSC unstable" or "module verification failed ... tainting
# kernel" must not match.  A WARN's first line (before 7.x, and since);
# the reports of lockdep and PROVE_RCU ("WARNING: possible circular
# locking dependency detected", "inconsistent lock state", "suspicious RCU
# usage", ...), KASAN and KFENCE (the debug kernel's checkers); "BUG: "
# covers DEBUG_ATOMIC_SLEEP's and DEBUG_PREEMPT's.
bad_dmesg='\bOops\b|\bBUG: |kernel BUG at|WARNING: CPU: [0-9]+ PID:|WARNING: .*at .*, CPU#[0-9]+: |-+\[ cut here \]-+|Call Trace:|general protection fault|KASAN:|KFENCE: |UBSAN:|refcount_t: |list_(add|del) corruption|soft lockup|detected stalls? on CPU|self-detected stall|INFO: task .* blocked for more than|hung_task|Kernel panic'
bad_dmesg+='|WARNING: (possible |inconsistent lock|suspicious RCU|bad unlock|held lock|lock held|Nested lock|bad contention|chain_key|[A-Z_-]+-safe -> |.* still has locks held)'

total_pass=0
total_fail=0
summary=()

# ---- one kernel --------------------------------------------------------------
kfail() { say "$rel: FAIL: $*"; summary+=("$rel: FAIL ($*)"); }
run_kernel() {
	local rel=$1 name='' release='' vmlinuz='' moddir='' kdir='' slow='' append='' facts
	local given=$modes modes='' arch='' make=''
	# A kernel missing from the cache fails the run: the matrix is the point.
	if ! facts=$("$kernels_cmd" info "$1" 2>&1); then
		kfail "$facts"
		return 1
	fi
	eval "$facts"
	rel="$name ($release)"
	if [ "$arch" != "$build_arch" ]; then
		kfail "an $arch kernel, and $builddir is built for $build_arch: give an $arch build tree (scripts/test's arm64 step makes one in build/arm64)"
		return 1
	fi
	# kernels.tab's modes, unless -m named them; a slow kernel, more time
	[ -n "$given" ] && modes=$given
	local timeout_s=$((timeout_s * slow))
	local out=$builddir/tests/vm/out/$name
	local stage=$out/initramfs
	local log=$out/console.log
	local have_ko=no
	local t0 t1 rc

	rm -rf "$out"
	mkdir -p "$out/kmod" "$stage"
	[ -r "$vmlinuz" ] || { kfail "$vmlinuz missing (scripts/kernels fetch $name)"; return 1; }
	[ -f "$kdir/Makefile" ] || { kfail "$kdir missing (scripts/kernels fetch $name)"; return 1; }

	# The module, built out of the source tree: Kbuild writes next to its
	# sources, so link them into a directory of our own.
	if [ -f "$srcdir/kmod/Makefile" ]; then
		local f
		for f in "$srcdir"/kmod/*; do
			[ -f "$f" ] || continue
			case ${f##*/} in
			Makefile|Kbuild|*.c|*.h|*.sh) ;;
			*) continue ;;
			esac
			# generated by the build: never link (Kbuild would write
			# through the link into the source tree)
			case ${f##*/} in compat.h|*.mod.c) continue ;; esac
			ln -s "$f" "$out/kmod/${f##*/}"
		done
		say "$rel: building the module"
		if ! "$kernels_cmd" exec "$name" -b "$srcdir" -b "$out" -- \
			make -C "$out/kmod" KDIR="$kdir" CSF_INCLUDE="$srcdir/include" \
			$make >"$out/kmod-build.log" 2>&1; then
			cat "$out/kmod-build.log"
			kfail "module build failed"
			return 1
		fi
		[ -f "$out/kmod/coarse_stat_fs.ko" ] ||
			{ cat "$out/kmod-build.log"; kfail "no coarse_stat_fs.ko after the build"; return 1; }
		have_ko=yes
		build_skew "$name" "$kdir" "$out" "$make" || return 1
	elif [ "${CSF_VM_ALLOW_NO_KMOD:-0}" = 1 ]; then
		say "$rel: warning: $srcdir/kmod/Makefile missing: booting without the module (CSF_VM_ALLOW_NO_KMOD=1)"
	else
		kfail "$srcdir/kmod/Makefile missing: no module to test"
		return 1
	fi

	# The initramfs.
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,mnt,lib/csf/virtio,tests}
	cp "$busybox" "$stage/bin/busybox"
	local a runbb=()
	[ -n "$sysroot" ] && runbb=("$user_qemu")
	for a in $("${runbb[@]}" "$busybox" --list-full); do
		[ -e "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
	done
	install -m 0755 "$srcdir/tests/vm/guest-init.sh" "$stage/init"
	printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$stage/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
	if [ $have_ko = yes ]; then
		cp "$out/kmod/coarse_stat_fs.ko" "$stage/lib/csf/"
		cp "$out/skew/csf_skew.ko" "$stage/lib/csf/"
	fi
	local ko order=
	for ko in $(kmods_for "$moddir" virtio_pci virtio_blk); do
		local m=${ko##*/}; m=${m%%.ko*}
		unpack_ko "$moddir/$ko" "$stage/lib/csf/virtio/$m.ko"
		order+="$m "
	done
	local t
	for t in $tests; do
		cp "$builddir/tests/vm/$t" "$stage/tests/"
		copy_libs "$builddir/tests/vm/$t" "$stage" ||
			{ kfail "$t: its libraries not copied"; return 1; }
	done
	# the shell tests' check helpers, for /init and the guest scripts
	install -m 0644 "$srcdir/tests/lib.sh" "$stage/tests/lib.sh"
	for t in $scripts; do
		install -m 0755 "$srcdir/tests/vm/$t" "$stage/tests/$t"
	done
	[ $run = bench ] && install -m 0755 "$srcdir/tests/bench/csftop_cost.sh" "$stage/tests/"
	for t in "${ship[@]}"; do
		# errexit does not reach here: a file gone since the start
		# must fail the kernel, not leave a guest script without it
		ship_one "$t" "$stage" || { kfail "$t: not copied into the initramfs"; return 1; }
	done
	# shellcheck disable=SC2086 # a list
	ship_terminfo "$stage" $terms
	{
		echo "CSF_VM_RUN=$run"
		echo "CSF_VM_SLOW=$slow"
		echo "CSF_VM_MODES='$modes' CSF_VM_COUNTER=$counter"
		echo "CSF_VM_TESTS='$tests'"
		echo "CSF_VM_SCRIPTS='$scripts'"
		echo "CSF_VM_VIRTIO='$order'"
		echo "CSF_VM_HAVE_KO=$have_ko"
		echo "CSF_VM_INTERACTIVE=$interactive"
		echo "CSF_VM_TERM='$term'"
		echo "CSF_VM_ROWS='$rows' CSF_VM_COLS='$cols'"
		echo "CSF_BENCH_FRAMES='${CSF_BENCH_FRAMES:-}' CSF_BENCH_TOP_FRAMES='${CSF_BENCH_TOP_FRAMES:-}'"
	} >"$stage/etc/csf-vm.conf"
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet | gzip -1) >"$out/initramfs.gz"

	# A disk for I/O-wait tests (O_DIRECT reads go through virtio_blk),
	# sparse: 1 GiB so that guest_attach.sh's dd, 64 KiB a read, runs
	# for its whole test (7.3 read 64 MiB in 512-byte reads in under a
	# second, none of them waited for).
	truncate -s 1G "$out/disk.img"

	# Single-threaded TCG: with one host thread per vCPU (MTTCG, qemu 7.2)
	# we saw a guest CPU execute a stale int3 after the kernel had finished
	# patching a tracepoint's jump label (unload of the module: "Oops:
	# int3" in ttwu_do_activate, the bytes already back to the NOP), i.e.
	# qemu missed a cross-vCPU code modification.  One thread cannot race
	# with itself, and on 2 host cores it is not slower.
	# The architecture's machine and arguments: see boot_facts.
	# log_buf_len: the debug kernel's fault injection logs more than its
	# 128 KiB buffer holds; the dump at the end lost its start, with the
	# line that tells the kernel's own early reports from the module's.
	local qargs=(-accel "${CSF_VM_ACCEL:-tcg,thread=single}"
		"${machine[@]}" -smp "$smp" -m "$mem" -no-reboot -display none
		-vga none -net none -kernel "$vmlinuz" -initrd "$out/initramfs.gz"
		-append "console=$console panic=-1 oops=panic quiet${arch_append:+ $arch_append} log_buf_len=8M${append:+ $append}${CSF_VM_APPEND:+ $CSF_VM_APPEND}"
		-drive "file=$out/disk.img,if=virtio,format=raw")
	# shellcheck disable=SC2206 # word splitting wanted
	qargs+=(${CSF_VM_QEMU_ARGS:-})

	say "$rel: booting ($("$qemu" --version | sed -n 1p))"
	t0=$(date +%s.%N)
	rc=0
	if [ "$interactive" = yes ]; then
		# The console is the user's terminal; ^A x quits qemu.
		"$qemu" "${qargs[@]}" -monitor none -serial mon:stdio | tee "$log" || rc=$?
	elif [ $run = bench ]; then
		# Slow: show the guest's tables as they come.
		: >"$log"
		timeout -k 10 "$timeout_s" "$qemu" "${qargs[@]}" -monitor none \
			-serial "file:$log" </dev/null >"$out/qemu.log" 2>&1 &
		local qpid=$!
		tail -n +1 -f --pid=$qpid "$log" 2>/dev/null |
			sed -unE 's/\r$//; s/^csf-vm: \[bench\] ?//p' &
		local tpid=$!
		wait $qpid || rc=$?
		wait $tpid || true
	else
		# No stdin in CI: -nographic/-serial stdio would fail at once.
		timeout -k 10 "$timeout_s" "$qemu" "${qargs[@]}" -monitor none \
			-serial "file:$log" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
	fi
	t1=$(date +%s.%N)
	local secs
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	[ -f "$log" ] || : >"$log"
	tr -d '\r' <"$log" >"$out/console.txt"

	if [ $run = demo ]; then
		[ "$interactive" = yes ] || cat "$out/console.txt"
		say "$rel: demo finished in ${secs}s"
		return 0
	fi
	if [ $run = bench ]; then
		if ! grep -q '^csf-vm: END$' "$out/console.txt"; then
			cat "$out/console.txt"
			kfail "the benchmark run did not finish (qemu exit $rc; console: $log)"
			return 1
		fi
		local bad
		bad=$(grep -v '^csf-vm: ' "$out/console.txt" | grep -E "$bad_dmesg" || true)
		if [ -n "$bad" ]; then
			printf '%s\n' "$bad"
			kfail "the kernel log shows trouble (console: $log)"
			return 1
		fi
		say "$rel: benchmarks finished in ${secs}s (console: $log)"
		return 0
	fi

	# ---- judge ----
	local problems=()
	local c=$out/console.txt
	[ $rc -eq 124 ] || [ $rc -eq 137 ] && problems+=("timed out after ${timeout_s}s")
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] && problems+=("qemu exited with $rc: $(tail -n3 "$out/qemu.log" | tr '\n' ' ')")
	grep -q '^csf-vm: END$' "$c" || problems+=("end marker 'csf-vm: END' missing")
	grep -q '^csf-vm: DMESG END$' "$c" || problems+=("dmesg was not printed completely")
	grep -A1 '^csf-vm: DMESG BEGIN$' "$c" | grep -q '^\[ *0\.000000\] ' ||
		problems+=("dmesg lost its start (log buffer too small)")

	# A report the kernel logged before the module first loaded cannot be
	# about it (seen once on the debug kernel in a soak: KASAN on an
	# interrupt during early boot, under TCG): shown, not counted.
	local bad t_load early
	bad=$(grep -v '^csf-vm: ' "$c" | grep -E "$bad_dmesg" || true)
	t_load=$(sed -nE '/^\[ *([0-9]+\.[0-9]+)\] csf-vm: the module loads after this line$/{s//\1/p;q}' "$c")
	if [ -n "$bad" ] && [ -n "$t_load" ]; then
		early=$(awk -v t="$t_load" 'match($0, /^\[ *[0-9]+\.[0-9]+\]/) &&
			substr($0, 2, RLENGTH - 2) + 0 < t + 0' <<<"$bad")
		bad=$(awk -v t="$t_load" '!(match($0, /^\[ *[0-9]+\.[0-9]+\]/) &&
			substr($0, 2, RLENGTH - 2) + 0 < t + 0)' <<<"$bad")
		[ -n "$early" ] && say "$rel: note: the kernel logged trouble before the module first loaded (its own; not counted):"$'\n'"$early"
	fi
	[ -n "$bad" ] && problems+=("kernel log shows trouble:"$'\n'"$bad")
	# a checker asked for on the command line that is not on finds nothing
	case " $append " in *" kfence.sample_interval=0 "*) ;;
	*" kfence.sample_interval="*)
		grep -q 'kfence: initialized' "$c" ||
			problems+=("kfence.sample_interval is set but the kernel did not start KFENCE") ;;
	esac

	# libcheck summaries, one per mode and program (the init prints its
	# own shell-level checks in the same format, as program "init").
	local pass=0 fail=0 lines m p
	lines=$(grep -E '^csf-vm: \[[^]]+\] [0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$c" || true)
	local checks failures errors
	while read -r checks failures errors; do
		[ -n "$checks" ] || continue
		fail=$((fail + failures + errors))
		pass=$((pass + checks - failures - errors))
	done < <(sed -nE 's/.*Checks: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2 \3/p' <<<"$lines")
	if [ $have_ko = yes ]; then
		for m in $modes; do
			for p in init $tests ${scripts//.sh/}; do
				if ! grep -qE "^csf-vm: \[$m/$p\] [0-9]+%: Checks:" <<<"$lines"; then
					problems+=("no libcheck summary from $p in mode $m")
					fail=$((fail + 1))
				fi
			done
		done
	fi
	# A program that died after its summary (or exited non-zero anyway).
	local died
	died=$(grep -E '^csf-vm: \[[^]]+\] EXIT [1-9][0-9]*( |$)' "$c" || true)
	[ -n "$died" ] && problems+=("programs exited non-zero:"$'\n'"$died")

	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	if [ ${#problems[@]} -gt 0 ] || [ $fail -gt 0 ]; then
		echo "======== console of $rel ($log) ========"
		cat "$c"
		echo "======== end of console of $rel ========"
		local pr
		for pr in "${problems[@]}"; do say "$rel: FAIL: $pr"; done
		say "$rel: $pass passed, $fail failed, boot+tests ${secs}s"
		summary+=("$rel: FAIL ($pass passed, $fail failed, ${secs}s)")
		# the failed checks and the run's problems again in the summary,
		# which ends the output (a CI report often shows only its tail)
		local f
		while IFS= read -r f; do summary+=("  $f"); done < <(
			{ grep -E '^csf-vm: \[[^]]+\] (.*:[FE]:|FAIL: )' "$c"
			  printf '%s\n' "${problems[@]}"; } | head -n 20)
		return 1
	fi
	local boot
	boot=$(sed -nE 's/^csf-vm: BEGIN .* uptime=([0-9.]+s) .*/\1/p' "$c")
	say "$rel: $pass passed, 0 failed, boot+tests ${secs}s (kernel to /init: ${boot:-?})"
	sed -E 's/^csf-vm: /  /' <<<"$lines"
	summary+=("$rel: ok ($pass passed, ${secs}s)")
	return 0
}

interactive=no term=linux rows="" cols=""
if [ $run = demo ] && [ -t 0 ] && [ -t 1 ]; then
	interactive=yes
	term=${TERM:-vt100}
	# the guest's console gets this terminal's size (not its resizes)
	read -r rows cols < <(stty size 2>/dev/null) || true
fi

status=0
if [ $run != test ]; then
	run_kernel "${kernels[0]}" || status=1
	exit $status
fi
if [ "$jobs" -le 1 ] || [ ${#kernels[@]} -le 1 ]; then
	for rel in "${kernels[@]}"; do
		run_kernel "$rel" || status=1
	done
else
	# Kernel I runs in a subshell with its output in I.log; its verdict,
	# totals and summary lines, written last, go to I.res.
	jobdir=$builddir/tests/vm/out/jobs
	rm -rf "$jobdir"
	mkdir -p "$jobdir"
	run_job() {
		local rc=0
		# a subshell starts with the totals of the kernels shown so far
		total_pass=0 total_fail=0 summary=()
		run_kernel "$2" >"$jobdir/$1.log" 2>&1 || rc=$?
		{
			echo "$rc $total_pass $total_fail"
			[ ${#summary[@]} -eq 0 ] || printf '%s\n' "${summary[@]}"
		} >"$jobdir/$1.tmp"
		mv "$jobdir/$1.tmp" "$jobdir/$1.res"
	}
	# a line for each kernel when it is done, its whole output in table
	# order once its predecessors' is printed
	shown=0
	declare -A told=()
	show_done() {
		local rc p f line i
		for i in "${!kernels[@]}"; do
			[ -f "$jobdir/$i.res" ] && [ -z "${told[$i]:-}" ] || continue
			told[$i]=1
			sed -n '2,$s/^/run.sh: done: /p' "$jobdir/$i.res"
		done
		while [ -f "$jobdir/$shown.res" ]; do
			cat "$jobdir/$shown.log"
			{
				read -r rc p f
				while IFS= read -r line; do summary+=("$line"); done
			} <"$jobdir/$shown.res"
			[ "$rc" -eq 0 ] || status=1
			total_pass=$((total_pass + p))
			total_fail=$((total_fail + f))
			shown=$((shown + 1))
		done
	}
	# an interrupted run leaves no qemu behind
	kill_tree() {
		local c
		for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
		kill "$1" 2>/dev/null || true
	}
	pids=()
	trap 'for p in "${pids[@]}"; do kill_tree "$p"; done; exit 130' INT TERM
	say "testing ${#kernels[@]} kernels, $jobs at a time"
	running=0
	# From the end of the table, where the slowest kernel is (debug,
	# with its checkers): it then runs beside the others, not after them.
	for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do
		if [ $running -ge "$jobs" ]; then
			wait -n || true
			running=$((running - 1))
			show_done
		fi
		run_job "$i" "${kernels[$i]}" &
		pids+=($!)
		running=$((running + 1))
	done
	wait || true
	trap - INT TERM
	show_done
	[ "$shown" -eq ${#kernels[@]} ] || { say "error: $((${#kernels[@]} - shown)) kernels left no verdict"; status=1; }
fi
echo
for s in "${summary[@]}"; do say "$s"; done
[ $status -eq 0 ] || [ $total_fail -gt 0 ] || total_fail=1
echo "vm: $total_pass passed, $total_fail failed"
exit $status
