#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/install/man_lint.sh - the man pages lint clean and say what the code
# does: `mandoc -T lint`, `groff -t -ww -man -z` and the same formatted for
# an 80-column terminal print nothing for every page; every .so link points
# at a page of man/; every function of lib/coarse_stat_fs.h has a page
# (its own or a link) that names it; every option csftop and csf-demo
# print in --help, and every csftop sort column, is in their page.  SKIP
# when mandoc or groff is missing (apt-get install mandoc groff-base).
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
man=$src/man
builddir=$(pwd)

for t in mandoc groff; do
	if ! command -v $t >/dev/null; then
		echo "SKIP: $t not found (apt-get install mandoc groff-base; scripts/install-deps installs both)"
		exit 77
	fi
done

status=0
fail() { echo "FAIL: $*"; status=1; }
pages=0
links=0
for f in "$man"/*.[1-8]; do
	name=${f##*/}
	if target=$(sed -n '1s/^\.so //p' "$f") && [ -n "$target" ]; then
		links=$((links + 1))
		[ -f "$man/${target##*/}" ] || fail "$name: .so $target: no such page in man/"
		continue
	fi
	pages=$((pages + 1))
	out=$(cd "$man" && mandoc -T lint "$name" 2>&1)
	[ -z "$out" ] || fail "mandoc -T lint $name:"$'\n'"$out"
	out=$(groff -t -ww -man -z "$f" 2>&1)
	[ -z "$out" ] || fail "groff -t -ww -man -z $name:"$'\n'"$out"
	# as man(1) shows it on an 80-column terminal, where a word too long
	# for the line warns (lintian reports troff's warnings)
	out=$(groff -t -ww -man -Tutf8 -rLL=78n "$f" 2>&1 >/dev/null)
	[ -z "$out" ] || fail "groff -Tutf8 -rLL=78n $name:"$'\n'"$out"
done

# a page per public function, naming it in its NAME section
for fn in $(sed -n 's/^[a-z].*[ *]\(csf_[a-z_0-9]*\)(.*/\1/p' "$src/lib/coarse_stat_fs.h" | sort -u); do
	p=$man/$fn.3
	if [ ! -f "$p" ]; then
		fail "no man page for $fn (man/$fn.3)"
		continue
	fi
	t=$(sed -n '1s/^\.so man3\///p' "$p")
	[ -n "$t" ] && p=$man/$t
	sed -n '/^\.SH NAME/,/^\.SH/p' "$p" | grep -qw "$fn" ||
		fail "man/${p##*/} does not name $fn in NAME"
done

# options and columns: what the programs print is in their page
opts_in_page() {	# opts_in_page PROGRAM PAGE
	local prog=$builddir/src/$1 page=$man/$2 o
	if [ ! -x "$prog" ]; then
		fail "$prog not built"
		return
	fi
	# the page spells - as \-
	local text
	text=$(sed 's/\\-/-/g' "$page")
	for o in $("$prog" --help | grep -oE '(^|[ ,])--?[a-zA-Z][a-z-]*' | tr -d ' ,' | sort -u); do
		grep -qe "$o" <<<"$text" || fail "$2 does not document $1 $o"
	done
}
opts_in_page csftop csftop.1
opts_in_page csf-demo csf-demo.1
if [ -x "$builddir/src/csftop" ]; then
	for c in $("$builddir/src/csftop" --help | sed -n 's/^Columns for -s://p'); do
		grep -qE "^$c	" "$man/csftop.1" || fail "csftop.1 does not list sort column $c"
	done
fi

[ $status = 0 ] && echo "ok: $pages pages lint clean (mandoc, groff, 80 columns), $links .so links resolve, every function, option and column documented"
exit $status
