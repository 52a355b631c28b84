#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/kernels arch, the one table of the architectures: found by
# Debian's name, by configure's host_cpu and by an ELF file's machine;
# an unknown one fails and lists the known; and every kernel of
# tests/vm/kernels.tab belongs to exactly one of them.
set -u
kernels=${srcdir:-.}/scripts/kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib.sh
. "${srcdir:-.}/tests/lib.sh"

# expect WHAT WANT ARGS...: scripts/kernels arch ARGS prints WANT
expect() {
	what=$1 want=$2
	shift 2
	got=$("$kernels" arch "$@" 2>&1) || { no "$what: exit $?: $got"; return; }
	if [ "$got" = "$want" ]; then ok "$what"; else no "$what: '$got', not '$want'"; fi
}

amd64='arch=amd64 triplet=x86_64-linux-gnu karch=x86 counter=tsc user_qemu=qemu-x86_64-static'
arm64='arch=arm64 triplet=aarch64-linux-gnu karch=arm64 counter=cntvct user_qemu=qemu-aarch64-static'
expect "amd64 by name" "$amd64" amd64
expect "arm64 by name" "$arm64" arm64
expect "amd64 by host_cpu" "$amd64" --cpu x86_64
expect "arm64 by host_cpu" "$arm64" --cpu aarch64

# elf FILE MACHINE: the first 20 bytes of an ELF header, e_machine
# (little-endian, at 18) as given
elf() { printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\2\0'"$2"'\0' >"$1"; }
elf "$tmp/x86" '\076'
elf "$tmp/arm" '\267'
elf "$tmp/ppc" '\025'
expect "amd64 by ELF machine 62" "$amd64" --elf "$tmp/x86"
expect "arm64 by ELF machine 183" "$arm64" --elf "$tmp/arm"

for bad in "riscv64" "--cpu powerpc64le" "--elf $tmp/ppc"; do
	# shellcheck disable=SC2086 # the arguments, split
	if out=$("$kernels" arch $bad 2>&1); then
		no "arch $bad: succeeded: $out"
	elif echo "$out" | grep -q "known: amd64 arm64"; then
		ok "arch $bad: refused, the known listed"
	else
		no "arch $bad: refused without the known: $out"
	fi
done

# Every kernel of the table is one architecture's.
known=$("$kernels" arch nonesuch 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p')
all=$("$kernels" names | sort)
each=$(for a in $known; do "$kernels" names "$a"; done | sort)
if [ -n "$all" ] && [ "$all" = "$each" ]; then
	ok "each of the table's $(echo "$all" | wc -l) kernels has a known architecture"
else
	no "kernels without a known architecture (or twice): $(echo "$all" | tr '\n' ' ') against $(echo "$each" | tr '\n' ' ')"
fi
summary
