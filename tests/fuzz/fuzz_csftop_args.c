// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_csftop_args - csftop's command line (parse_options: -b -n -d -o -s
 * -p and their long forms), its filter (filter_set, what F4 and \ take,
 * and filter_set_pids, what -p takes) and its sort keys
 * (column_by_key) on arbitrary strings.
 *
 * Input: NUL-separated strings.  The first selects nothing; all of them
 * are csftop's arguments (after argv[0]), and each is also tried as a
 * filter, matched against a row, and as a column key.  No crash, no UB;
 * a filter that was refused must leave the old one unchanged; a parsed
 * command line must be within csftop's limits.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "columns.h"
#include "options.h"

#define MAX_ARGS 32

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/*
	 * Nearly every input is a usage error that parse_options() prints:
	 * writing them would cost more than parsing.  Only the stdio stream
	 * goes: libFuzzer and the sanitizers report on fd 2 themselves.
	 */
	stderr = fopen("/dev/null", "w");
	fuzz_assert(stderr != NULL);
	return 0;
}

static void try_filter(const char *text)
{
	struct filter f, before;
	struct row r;
	int err;

	memset(&f, 0, sizeof(f));
	filter_set(&f, "1,2,3");
	before = f;
	err = filter_set(&f, text);
	if (err) {
		fuzz_assert(err == -EINVAL);
		fuzz_assert(!memcmp(&f, &before, sizeof(f)));
	} else {
		fuzz_assert(f.npids <= FILTER_MAX_PIDS);
		fuzz_assert(memchr(f.name, '\0', sizeof(f.name)) != NULL);
		fuzz_assert(memchr(f.text, '\0', sizeof(f.text)) != NULL);
	}
	memset(&r, 0, sizeof(r));
	r.snap.tid = 2;
	r.snap.tgid = 1;
	memcpy(r.snap.comm, "spin", 5);
	(void)filter_active(&f);
	(void)filter_match(&f, &r);
	err = filter_set_pids(&f, text);
	fuzz_assert(err == 0 || err == -EINVAL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *argv[MAX_ARGS + 2], *p, *end;
	struct options o;
	int argc = 0, st, c;

	/* NUL-terminated, so that the last string ends too */
	copy = malloc(size + 1);
	fuzz_assert(copy != NULL);
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = (char *)"csftop";
	for (p = copy, end = copy + size; p <= end && argc <= MAX_ARGS;
	     p += strlen(p) + 1) {
		argv[argc++] = p;
		try_filter(p);
		c = column_by_key(p);
		fuzz_assert(c >= -1 && c < COL_NR);
	}
	argv[argc] = NULL;

	optind = 0;	/* glibc: start afresh, forgetting the last argv */
	st = parse_options(argc, argv, &o);
	fuzz_assert(st == -1 || st == EXIT_SUCCESS || st == EXIT_USAGE);
	if (st == -1) {
		fuzz_assert(o.interval_ms >= INTERVAL_MIN_MS &&
			    o.interval_ms <= INTERVAL_MAX_MS);
		fuzz_assert(o.count >= 0);
		fuzz_assert(o.sort_col < COL_NR);
		fuzz_assert(o.format == BATCH_TEXT || o.batch);
		fuzz_assert(o.filter.npids <= FILTER_MAX_PIDS);
	}
	free(copy);
	return 0;
}
