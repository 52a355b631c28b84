#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/install/deb_install.sh - the Debian packages of scripts/package
# install, DKMS builds their module, and a purge leaves no trace, in a
# throwaway overlay of a release's build root.
#
#   deb_install.sh CODENAME DEBDIR KERNEL
#
# The root is scripts/kernels' build root of CODENAME; an overlay keeps it
# as it was.  KERNEL (a name of tests/vm/kernels.tab of that release) is
# the one installed there: its cached headers as /lib/modules/REL/build.
# In the overlay, as apt would on a machine:
#   1. apt install ./*.deb: DKMS (dh_dkms's postinst) builds and installs
#      the module for REL; it is there, for REL (vermagic); the mount unit,
#      its static link and the modules-load.d entry are installed; the
#      agent is marked for pmcd's Install; a program builds against the
#      library with pkg-config and runs; csftop runs.
#   2. apt purge of the five packages: every file is what it was before
#      step 1, but for dpkg's and apt's own records, logs and DKMS's
#      machine key (DKMS's, not ours).
# Not a boot: systemd, the loaded module and pmcd are the next step of
# issue 34 (a full system in qemu).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 CODENAME DEBDIR KERNEL" >&2; exit 2; }
codename=$1 kernel=$3
debs=$(cd "$2" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
kernels=$src/scripts/kernels
say() { printf 'deb_install: %s\n' "$*"; }
fail() { say "FAIL: $*"; exit 1; }

ls "$debs"/*.deb >/dev/null 2>&1 || fail "no packages in $debs"
facts=$("$kernels" info "$kernel") || fail "$facts"
k_release='' k_kdir='' k_dir=''
eval "$(sed 's/^/k_/' <<<"$facts")"
root=$("$kernels" root "$codename")
cache=${k_dir%/*}

work=$(mktemp -d "${TMPDIR:-/tmp}/csf-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/upper" "$work/work" "$work/m"

# What runs inside: its own mount namespace, so every mount goes with it.
inside() {
	local m=$1 debs=$2 cache=$3 rel=$4 kdir=$5
	mount -t overlay overlay \
		-o "lowerdir=$root,upperdir=$work/upper,workdir=$work/work" "$m"
	for d in proc sys dev; do mount --rbind "/$d" "$m/$d"; done
	mkdir -p "$m$cache" "$m/debs"
	mount --bind "$cache" "$m$cache"
	mount --bind "$debs" "$m/debs"
	mkdir -p "$m/lib/modules/$rel"
	ln -sfn "$kdir" "$m/lib/modules/$rel/build"
	chroot "$m" /bin/bash -s "$rel" <"$src/tests/install/deb_install_guest.sh"
}
export root work src
export -f inside
unshare -m --propagation private bash -c 'inside "$@"' _ \
	"$work/m" "$debs" "$cache" "$k_release" "$k_kdir"
