#!/bin/sh
# SPDX-License-Identifier: MIT
# The shared library exports the csf_* API of lib/coarse_stat_fs.h and
# nothing else: every declared function is there, no helper leaks.
#   exported_symbols.sh [SO [HEADER]]
# checks the build tree's library by default; tests/install/staged_install.sh
# passes the installed library and header.
set -u
so=${1:-${top_builddir:-.}/lib/.libs/libcoarse_stat_fs.so}
hdr=${2:-${srcdir:-.}/lib/coarse_stat_fs.h}

if ! test -f "$so"; then
	echo "SKIP: no shared library at $so (--disable-shared?)"
	exit 77
fi
if ! command -v nm >/dev/null; then
	echo "SKIP: no nm"
	exit 77
fi

exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ { print $3 }' |
	sed 's/@.*//' | sort -u)
declared=$(sed -n 's/^[a-z].*[ *]\(csf_[a-z_0-9]*\)(.*/\1/p' "$hdr" | sort -u)

status=0
for s in $exported; do
	case $s in
	csf_*) ;;
	*) echo "FAIL: exported but not csf_*: $s"; status=1 ;;
	esac
done
for s in $declared; do
	echo "$exported" | grep -qx "$s" ||
		{ echo "FAIL: declared but not exported: $s"; status=1; }
done
for s in $exported; do
	echo "$declared" | grep -qx "$s" ||
		{ echo "FAIL: exported but not declared: $s"; status=1; }
done
test $status = 0 && echo "ok: $(echo "$declared" | wc -l) functions exported, nothing else"
exit $status
