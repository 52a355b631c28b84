#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/install/build_modules.sh - run by `make check` before the tests
# (check_DATA "install-vmroot", from the top build directory): install this
# build to a staging directory and build the INSTALLED module source with
# DKMS for each kernel, the way a user's machine does after `make install`:
#
#   dkms add   -m coarse_stat_fs -v VERSION
#   dkms build -m coarse_stat_fs -v VERSION -k REL        (for each REL)
#
# with --sourcetree pointing into the staging directory and --dkmstree a
# directory of ours, so neither /usr/src nor /var/lib/dkms is touched
# (except that dkms creates its module signing key /var/lib/dkms/mok.key
# once, as on any machine, when it runs as root).  It never fails: it
# records what happened for tests/install/dkms_build.sh to judge.
#
# Kernels: $CSF_DKMS_KERNELS, else $CSF_VM_KERNELS (the VM suite's), else
# every kernel of tests/vm/kernels.tab for the architecture this build is
# for that scripts/kernels has cached (by name or release); "none": none.
# Each is built with --kernelsourcedir its cached headers, where
# scripts/kernels exec says (natively, or in the kernel's Debian build
# root), with its cross compiler when scripts/kernels info names one.
# Without a usable dkms the module is built with the MAKE line of the
# installed dkms.conf, run by hand (dkms_build.sh then reports SKIP for
# dkms itself).
#
# Writes, under tests/install/ of the build directory:
#   dkms/stage/    the staged `make install` (DESTDIR)
#   dkms/tree/     dkms's tree: build logs and built modules
#   dkms/result    one line per kernel: "REL dkms|make ok|FAIL [signed]"
#   dkms/note      why dkms itself was not used, if it was not
#   vmroot/        what tests/vm/guest_install.sh ships to the guest: the
#                  installed modules-load.d entry and mount unit at their
#                  installed paths, and per kernel
#                  lib/modules/RELEASE/updates/dkms/coarse_stat_fs.ko (dkms.conf's
#                  DEST_MODULE_LOCATION) with depmod's index files
#
# Environment from the make rule: CSF_MAKE (make), and the configured
# directories are read from the Makefile.
set -u
# a make of our own: not the jobserver or the -w of the make that runs us
unset MAKEFLAGS MFLAGS MAKELEVEL

builddir=$(pwd)
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
kernels_cmd=$top_srcdir/scripts/kernels
out=$builddir/tests/install
make=${CSF_MAKE:-make}
stage=$out/dkms/stage
tree=$out/dkms/tree
result=$out/dkms/result
note=$out/dkms/note
vmroot=$out/vmroot

say() { printf 'build_modules: %s\n' "$*"; }

# A variable of the build's Makefile, expanded.
mkvar() {
	printf 'csf-print-var:\n\t@echo $(%s)\n' "$1" |
		$make -s --no-print-directory -f Makefile -f - csf-print-var
}

rm -rf "$out/dkms" "$vmroot"
mkdir -p "$out/dkms" "$tree" "$vmroot"
: >"$result"

kernels=${CSF_DKMS_KERNELS:-${CSF_VM_KERNELS:-}}
# the architecture this build is for, by configure's host_cpu
arch=''
facts=$("$kernels_cmd" arch --cpu "$(mkvar host_cpu)") && eval "$facts"
if [ -z "$kernels" ]; then
	for k in $("$kernels_cmd" names "$arch"); do
		"$kernels_cmd" info "$k" >/dev/null 2>&1 && kernels+="${kernels:+ }$k"
	done
fi
if [ "$kernels" = none ] || [ -z "$kernels" ]; then
	echo "no kernels (CSF_DKMS_KERNELS/CSF_VM_KERNELS=none, or none cached: scripts/kernels fetch)" >"$note"
	say "no kernel to build for: skipped"
	exit 0
fi

dkmsdir=$(mkvar dkmsdir)
if [ -z "$dkmsdir" ]; then
	echo "configured with --without-dkmssourcedir: no module source is installed" >"$note"
	say "no DKMS source installed: skipped"
	exit 0
fi
package=$(mkvar PACKAGE)
version=$(mkvar VERSION)

say "make install DESTDIR=$stage"
if ! $make -s --no-print-directory install DESTDIR="$stage" >"$out/dkms/install.log" 2>&1; then
	cat "$out/dkms/install.log"
	echo "make install failed (see $out/dkms/install.log)" >"$note"
	for rel in $kernels; do echo "$rel make FAIL" >>"$result"; done
	exit 0
fi
src=$stage$dkmsdir
srctree=${src%/*}

# What the guest needs besides the module: the installed boot files
# (and the fstab line, with the docs).
for d in "$(mkvar modulesloaddir)" "$(mkvar systemdsystemunitdir)" "$(mkvar docdir)"; do
	[ -n "$d" ] && [ "$d" != no ] && [ -d "$stage$d" ] || continue
	mkdir -p "$vmroot$d"
	cp -P "$stage$d"/* "$vmroot$d/" 2>/dev/null
done
# Where dkms.conf says the module goes, below /lib/modules/REL.
dest=$(bash -c '. "$1" && echo "${DEST_MODULE_LOCATION[0]}"' _ "$src/dkms.conf")
built=$(bash -c '. "$1" && echo "${BUILT_MODULE_LOCATION[0]}${BUILT_MODULE_NAME[0]}"' _ "$src/dkms.conf")

use_dkms=yes
if ! command -v dkms >/dev/null; then
	use_dkms=no
	echo "dkms is not installed (apt-get install dkms); built with dkms.conf's MAKE line by hand" >"$note"
fi

for k in $kernels; do
	ko=
	if ! facts=$("$kernels_cmd" info "$k" 2>&1); then
		say "$k: $facts"
		echo "$k dkms FAIL" >>"$result"
		continue
	fi
	# its facts as k_name, k_release, ... (version is the package's)
	k_name='' k_release='' k_kdir='' k_moddir='' k_make=''
	eval "$(sed 's/^/k_/' <<<"$facts")"
	rel=$k_release kdir=$k_kdir moddir=$k_moddir
	# where this kernel's modules are built, with our directories
	# visible, and its ARCH and CROSS_COMPILE for a foreign one (dkms's
	# strip of the host then fails on the module and leaves it whole)
	# shellcheck disable=SC2206 # words
	in_root=("$kernels_cmd" exec "$k_name" -b "$top_srcdir" -b "$builddir" -- env $k_make)
	if [ $use_dkms = yes ]; then
		log=$out/dkms/dkms-$rel.log
		say "dkms build -k $rel ($k_name)"
		args=(-m "$package" -v "$version" --sourcetree "$srctree" --dkmstree "$tree")
		if { [ -d "$tree/$package/$version" ] || "${in_root[@]}" dkms add "${args[@]}"; } >"$log" 2>&1 &&
			"${in_root[@]}" dkms build "${args[@]}" -k "$rel" \
				--kernelsourcedir "$kdir" >>"$log" 2>&1; then
			ko=$(find "$tree/$package/$version/$rel" -name "${built##*/}.ko*" | head -n1)
		fi
		if [ -n "$ko" ]; then
			sig=
			grep -q '^Signing module' "$log" && sig=signed
			echo "$rel dkms ok $sig" >>"$result"
		else
			echo "$rel dkms FAIL" >>"$result"
		fi
	else
		# What dkms does: a copy of the source, dkms.conf's MAKE[0]
		# with ${kernel_source_dir} set.
		work=$out/dkms/make/$rel
		log=$out/dkms/make-$rel.log
		mkdir -p "$work"
		cp -R "$src/." "$work/"
		say "dkms.conf's MAKE[0] for $rel"
		# shellcheck disable=SC2034 # dkms.conf, sourced, reads it
		if (cd "$work" && kernel_source_dir=$kdir &&
			. ./dkms.conf && "${in_root[@]}" sh -c "${MAKE[0]}") >"$log" 2>&1 &&
			[ -f "$work/$built.ko" ]; then
			ko=$work/$built.ko
			echo "$rel make ok" >>"$result"
		else
			echo "$rel make FAIL" >>"$result"
		fi
	fi
	[ -n "$ko" ] || { say "$rel: build FAILED (see $log)"; continue; }
	mkdir -p "$vmroot/lib/modules/$rel$dest"
	cp "$ko" "$vmroot/lib/modules/$rel$dest/"
	# depmod's index of this tree, as dkms install runs it; the kernel's
	# own lists so that modprobe knows what is built in.
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[ -f "$moddir/$f" ] && cp "$moddir/$f" "$vmroot/lib/modules/$rel/"
	done
	depmod -b "$vmroot" "$rel" >>"$log" 2>&1 ||
		{ say "$rel: depmod failed"; echo "$rel depmod FAIL" >>"$result"; }
done
say "done: $(tr '\n' ';' <"$result")"
exit 0
