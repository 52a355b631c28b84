#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/install/staged_install.sh - `make install DESTDIR=STAGE` of this
# build installs what a user gets, a program outside the tree builds and
# runs against the installed files with pkg-config, and `make uninstall`
# takes every file away again.  Run by `make check` from the top build
# directory (STAGE is tests/install/stage/ there).
#
# Checked: programs, the shared library (soname from CSF_LT_VERSION,
# exports: tests/unit/exported_symbols.sh on the installed .so and header,
# i.e. nm -D shows csf_* only), the static library, the headers (three
# include forms, see libcoarse_stat_fs(3)), coarse_stat_fs.pc, every man
# page, the translations, the DKMS source (identical to kmod/ and
# include/), the modules-load.d entry, the mount unit and its
# sysinit.target.wants link (systemd-analyze verify when available).  The
# out-of-tree programs, tests/install/app.c (installed form) and
# examples/seed.c (the design brief's example, verbatim: "lib/...") are
# built with cc $(pkg-config --cflags --libs coarse_stat_fs), with
# PKG_CONFIG_LIBDIR and PKG_CONFIG_SYSROOT_DIR pointing into STAGE, and run
# on page-shaped files (tests/tui/mkfakeroot) and with no filesystem.
# shellcheck disable=SC2154 # the install dirs: declared in a loop below
set -u
# a make of our own: not the jobserver or the -w of the make that runs us
unset MAKEFLAGS MFLAGS MAKELEVEL
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
builddir=$(pwd)
stage=$builddir/tests/install/stage
work=$builddir/tests/install/stage-work
make=${MAKE:-make}

status=0
n=0
ok() { n=$((n + 1)); echo "ok: $*"; }
fail() { n=$((n + 1)); echo "FAIL: $*"; status=1; }
check() {	# check DESCRIPTION COMMAND...
	local d=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$d"; else fail "$d"; printf '%s\n' "$out" | sed 's/^/    /'; fi
}
mkvar() {
	printf 'csf-print-var:\n\t@echo $(%s)\n' "$1" |
		$make -s --no-print-directory -f Makefile -f - csf-print-var
}

for v in bindir libdir pkgincludedir mandir localedir docdir dkmsdir \
	systemdsystemunitdir modulesloaddir CSF_LT_VERSION PACKAGE; do
	declare "$v=$(mkvar $v)"
done
rm -rf "$stage" "$work"
mkdir -p "$work"

# ---- install -----------------------------------------------------------
if ! $make -s --no-print-directory install DESTDIR="$stage" >"$work/install.log" 2>&1; then
	cat "$work/install.log"
	echo "FAIL: make install DESTDIR=$stage"
	exit 1
fi
ok "make install DESTDIR=$stage"
S=$stage

for p in csftop csf-demo; do
	check "program $bindir/$p" test -x "$S$bindir/$p"
done
IFS=: read -r cur rev age <<<"$CSF_LT_VERSION"
major=$((cur - age))
so=$S$libdir/libcoarse_stat_fs.so.$major.$age.$rev
check "shared library ${so#"$S"} (version-info $CSF_LT_VERSION)" test -f "$so"
check "soname libcoarse_stat_fs.so.$major" \
	sh -c "readelf -d '$so' | grep -q 'SONAME.*\[libcoarse_stat_fs.so.$major\]'"
check "libcoarse_stat_fs.so and .so.$major links" \
	test -L "$S$libdir/libcoarse_stat_fs.so" -a -L "$S$libdir/libcoarse_stat_fs.so.$major"
check "static library" test -f "$S$libdir/libcoarse_stat_fs.a"
check "installed exports (nm -D): the csf_* of the installed header, nothing else" \
	sh "$src/tests/unit/exported_symbols.sh" "$so" "$S$pkgincludedir/coarse_stat_fs.h"
for h in coarse_stat_fs.h coarse_stat_fs_abi.h lib/coarse_stat_fs.h; do
	check "header ${pkgincludedir#"$S"}/$h" test -f "$S$pkgincludedir/$h"
done
check "coarse_stat_fs.pc" test -f "$S$libdir/pkgconfig/coarse_stat_fs.pc"
for f in "$src"/man/*.[1-8]; do
	b=${f##*/}
	check "man page $b" cmp "$f" "$S$mandir/man${b##*.}/$b"
done
for l in $(cat "$src/po/LINGUAS"); do
	check "translation $l" test -f "$S$localedir/$l/LC_MESSAGES/$PACKAGE.mo"
done

# ---- module source for DKMS ---------------------------------------------
if [ -n "$dkmsdir" ]; then
	check "dkms.conf in ${dkmsdir}" test -f "$S$dkmsdir/dkms.conf"
	check "dkms.conf: BUILT_MODULE_LOCATION kmod/, DEST /updates/dkms, AUTOINSTALL, MAKE with KDIR and CSF_VERSION" \
		bash -c '. "$1" && [ "${BUILT_MODULE_LOCATION[0]}" = kmod/ ] &&
			[ "${DEST_MODULE_LOCATION[0]}" = /updates/dkms ] &&
			[ "$AUTOINSTALL" = yes ] && [ "$PACKAGE_VERSION" = "$2" ] &&
			grep -qF "MAKE[0]=\"make -C kmod KDIR=\${kernel_source_dir} CSF_VERSION=$2\"" "$1"' \
		_ "$S$dkmsdir/dkms.conf" "$(mkvar VERSION)"
	for f in $(cd "$src" && ls kmod/Makefile kmod/Kbuild kmod/conftest.sh kmod/*.c kmod/*.h) \
		include/coarse_stat_fs_abi.h; do
		case $f in kmod/compat.h|kmod/*.mod.c) continue ;; esac
		check "DKMS source $f" cmp "$src/$f" "$S$dkmsdir/$f"
	done
fi

# ---- boot integration ----------------------------------------------------
if [ "$modulesloaddir" != no ]; then
	check "modules-load.d entry" cmp "$src/boot/coarse_stat_fs.conf" "$S$modulesloaddir/coarse_stat_fs.conf"
fi
if [ "$systemdsystemunitdir" != no ]; then
	unit=$S$systemdsystemunitdir/sys-fs-coarse_stat_fs.mount
	check "mount unit" cmp "$src/boot/sys-fs-coarse_stat_fs.mount" "$unit"
	check "enabled: sysinit.target.wants/ link to it" \
		test "$(readlink "$S$systemdsystemunitdir/sysinit.target.wants/sys-fs-coarse_stat_fs.mount")" = ../sys-fs-coarse_stat_fs.mount
	if command -v systemd-analyze >/dev/null; then
		check "systemd-analyze verify sys-fs-coarse_stat_fs.mount" \
			systemd-analyze verify --man=no "$unit"
	else
		echo "note: no systemd-analyze: the unit was not verified"
	fi
fi
check "fstab line for systems without systemd" test -f "$S$docdir/coarse_stat_fs.fstab"

# ---- a program outside the tree --------------------------------------------
export PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR=$S$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$S
flags=$(pkg-config --cflags --libs coarse_stat_fs)
check "pkg-config --cflags --libs coarse_stat_fs: $flags" test -n "$flags"
cc=${CC:-cc}
# shellcheck disable=SC2086 # flags are words
check "cc app.c \$(pkg-config ...) (#include <coarse_stat_fs/coarse_stat_fs.h>)" \
	$cc -Wall -Werror -o "$work/app" "$src/tests/install/app.c" $flags
# shellcheck disable=SC2086
check "cc examples/seed.c \$(pkg-config ...) (#include \"lib/coarse_stat_fs.h\", as written)" \
	$cc -Wall -o "$work/seed" "$src/examples/seed.c" $flags
printf '#include <coarse_stat_fs.h>\nint main(void) { return csf_cpu_count() > 0; }\n' >"$work/short.c"
# shellcheck disable=SC2086
check "cc with #include <coarse_stat_fs.h>" $cc -Wall -Werror -o "$work/short" "$work/short.c" $flags
# shellcheck disable=SC2046
check "cc app.c with the static library" \
	$cc -Wall -Werror -o "$work/app-static" "$src/tests/install/app.c" \
	$(pkg-config --cflags coarse_stat_fs) "$S$libdir/libcoarse_stat_fs.a" $(pkg-config --static --libs-only-other coarse_stat_fs)
export LD_LIBRARY_PATH=$S$libdir
check "app links the installed libcoarse_stat_fs" \
	sh -c "ldd '$work/app' | grep -q '=> $S$libdir/libcoarse_stat_fs.so.$major '"

# on page-shaped files: one registered thread, its page also as thread-self
fake=$work/root
if [ -x "$builddir/tests/tui/mkfakeroot" ]; then
	printf 'cpus 2\nthread 4242 4242 app running run=5 sleep=3 nvcsw=2\n' |
		"$builddir/tests/tui/mkfakeroot" "$fake" && cp "$fake/threads/4242" "$fake/thread-self"
	check "app runs on page-shaped files" \
		sh -c "CSF_ROOT='$fake' '$work/app' | tee '$work/app.out' | grep -q '^tid 4242 comm app state running abi 1\.'"
	check "the static app too" sh -c "CSF_ROOT='$fake' '$work/app-static' | grep -q '^cpus 2 threads 1$'"
	check "seed example runs" sh -c "CSF_ROOT='$fake' '$work/seed' 8 >'$work/seed.out'"
else
	fail "tests/tui/mkfakeroot not built"
fi
# shellcheck disable=SC2016
check "app without the filesystem: exit 3 and the library's explanation" \
	sh -c 'CSF_ROOT=/nonexistent "$1" >"$2"; [ $? = 3 ] && grep -q "is not mounted at /nonexistent" "$2"' \
	_ "$work/app" "$work/nofs.out"

# ---- uninstall ---------------------------------------------------------------
unset LD_LIBRARY_PATH PKG_CONFIG_SYSROOT_DIR
if $make -s --no-print-directory uninstall DESTDIR="$stage" >"$work/uninstall.log" 2>&1; then
	ok "make uninstall DESTDIR=$stage"
else
	cat "$work/uninstall.log"
	fail "make uninstall"
fi
left=$(find "$stage" ! -type d)
if [ -z "$left" ]; then
	ok "make uninstall left no file or link (only empty directories)"
else
	fail "make uninstall left:"$'\n'"$left"
fi

[ $status = 0 ] && echo "staged_install: all $n checks passed"
[ $status = 0 ] && rm -rf "$stage" "$work"
exit $status
