/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - csftop's command line, apart from its main loop so that the
 * parser can be fuzzed (tests/fuzz/fuzz_csftop_args.c) without curses or
 * pages.
 */
#ifndef CSFTOP_OPTIONS_H
#define CSFTOP_OPTIONS_H

#include "batch.h"
#include "columns.h"
#include "select.h"

#define PROGRAM "csftop"
#define INTERVAL_MIN_MS 10u
#define INTERVAL_MAX_MS 3600000u
#define INTERVAL_DEFAULT_MS 1000u
#define EXIT_USAGE 2

struct options {
	int batch;
	long count;			/* 0: run until quit */
	unsigned int interval_ms;
	enum batch_format format;
	enum col sort_col;
	int sort_desc;
	struct filter filter;
	int interval_set;		/* -d given */
	int processes;			/* -P: a row per process */
	int all;			/* -A: every thread we may read */
	const char *archive;		/* -a: replay this PCP archive */
	const char *start, *finish;	/* -S, -T: its time window */
	char *const *command;		/* after --: run it, show its tree */
};

/*
 * parse_options - fill @o from the command line (getopt_long: a caller
 * that parses twice sets optind = 0 first).  Help, version and usage
 * errors are printed here.  Returns -1 to go on, or the exit status:
 * EXIT_SUCCESS after --help or --version, EXIT_USAGE on a usage error.
 */
int parse_options(int argc, char **argv, struct options *o);

#endif /* CSFTOP_OPTIONS_H */
