#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/layers on small fake trees: a clean tree passes; an include
# across the layers, a circle of files that use each other and a circle of
# headers fail, each named; the allow list lets known violations pass and
# fails on a line that no longer occurs.
set -u
layers=${srcdir:-.}/scripts/layers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib.sh
. "${srcdir:-.}/tests/lib.sh"

# put FILE TEXT: a file of the fake tree
put() { mkdir -p "$tmp/t/$(dirname "$1")"; printf '%s\n' "$2" >"$tmp/t/$1"; }

clean_tree() {
	rm -rf "$tmp/t"
	put include/abi.h '#define ABI 1'
	put lib/api.h '#include "abi.h"
int api_read(int *out);
extern int api_ready;'
	put lib/read.c '#include "config.h"
#include "api.h"
int api_ready;
int api_read(int *out) { *out = ABI; return api_ready; }'
	put lib/other.c '#include "api.h"
static int other(void)
{
	/* api_read() is named here, in a comment: not a use */
	return 0;
}'
	put common/table.h '#include "api.h"
int table_get(void);'
	put common/table.c '#include "table.h"
int table_get(void) { int v; return api_read(&v); }'
	put src/prog.h 'int prog_draw(void);'
	put src/prog.c '#include "prog.h"
#include "table.h"
int prog_draw(void) { return table_get(); }'
	put src/main.c '#include "prog.h"
#include "lib/api.h"
static const char *s = "prog_draw() and { in a string";
int main(void) { return s[0]; }'
	put pmda/agent.c '#include "table.h"
int main(void) { return table_get(); }'
	# a static name the library also defines, its header not included
	put kmod/mod.c '#include "abi.h"
#include "compat.h"
static int api_ready;
int mod_init(void) { return ABI + api_ready; }'
	# two programs implement one interface: neither uses the other
	put tests/fuzz/fuzz.h 'int entry(const char *data);'
	put tests/fuzz/one.c '#include "fuzz.h"
int entry(const char *data) { return data[0]; }'
	put tests/fuzz/two.c '#include "fuzz.h"
int entry(const char *data) { return data[1]; }'
	put tests/unit/test_prog.c '#include "src/prog.h"
#include "mod.h"
int main(void) { return prog_draw(); }'
	put kmod/mod.h 'int mod_init(void);'
	: >"$tmp/allow"
}

# run WANT_STATUS NAME [ARGS]: scripts/layers on the fake tree
run() {
	want=$1 name=$2
	shift 2
	rc=0
	"$layers" "$@" "$tmp/t" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then ok "$name (exit $rc)"
	else no "$name: exit $rc, wanted $want"; sed 's/^/    /' "$tmp/out"; fi
}
has() {
	if grep -qxF -- "$1" "$tmp/out"; then ok "says: $1"
	else no "does not say: $1"; sed 's/^/    /' "$tmp/out"; fi
}
hasnt() {
	if grep -qF -- "$1" "$tmp/out"; then no "says: $1"; sed 's/^/    /' "$tmp/out"
	else ok "does not say: $1"; fi
}

clean_tree
run 0 "a clean tree" --allow "$tmp/allow"
has "layers: 16 files, 0 violations (0 allowed by $tmp/allow): ok"
run 0 "its graph" --graph --allow "$tmp/allow"
has "src/prog.c -> common/table.c uses table_get"
has "common/table.c -> lib/read.c uses api_read"
has "src/main.c -> lib/api.h include"
has "kmod/mod.c -> compat.h unresolved"
has "tests/unit/test_prog.c -> kmod/mod.h include"
hasnt "lib/other.c -> lib/read.c"
hasnt "src/main.c -> src/prog.c"
hasnt "kmod/mod.c -> lib/read.c"
hasnt "tests/fuzz/one.c -> tests/fuzz/two.c"

put pmda/agent.c '#include "table.h"
#include "prog.h"
int main(void) { return prog_draw(); }'
run 1 "the agent including a program's header"
has "cross pmda/agent.c -> src/prog.h"
has "cross pmda/agent.c -> src/prog.c"

clean_tree
put lib/read.c '#include "api.h"
#include "../src/prog.h"
int api_ready;
int api_read(int *out) { *out = 1; return api_ready; }'
run 1 "the library including a program's header"
has "cross lib/read.c -> src/prog.h"

clean_tree
put kmod/mod.c '#include "abi.h"
#include "api.h"
int mod_init(void) { return ABI; }'
run 1 "the module including the library's header"
has "cross kmod/mod.c -> lib/api.h"

clean_tree
put src/view.h 'void view_draw(void);
void meters_draw(void);'
put src/view.c '#include "view.h"
void view_draw(void) { meters_draw(); }'
put src/meters.c '#include "view.h"
void meters_draw(void)
{
	view_draw();
}'
run 1 "two files that call each other"
has "circle src/meters.c src/view.c"
has "    src/view.c -> src/meters.c uses meters_draw"
has "    src/meters.c -> src/view.c uses view_draw"

clean_tree
put lib/a.h '#include "b.h"'
put lib/b.h '#include "c.h"'
put lib/c.h '#include "a.h"'
run 1 "headers that include each other"
has "circle lib/a.h lib/b.h lib/c.h"

printf '# being fixed\ncircle lib/a.h lib/b.h lib/c.h\n' >"$tmp/allow"
run 0 "an allowed circle" --allow "$tmp/allow"
has "allowed: circle lib/a.h lib/b.h lib/c.h"
run 1 "the same without the list" --no-allow

clean_tree
printf 'cross pmda/agent.c -> src/prog.h\n' >"$tmp/allow"
run 1 "an allow list naming what is fixed" --allow "$tmp/allow"
has "layers: $tmp/allow lists what is no longer found, remove the line: cross pmda/agent.c -> src/prog.h"

clean_tree
run 2 "a missing allow list" --allow "$tmp/nothing"

summary
