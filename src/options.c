// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - csftop's command line: -b -n -d -o -s -p -A -P -a -S -T, help
 * and version.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "cli.h"
#include "i18n.h"
#include "options.h"

static void print_help(void)
{
	printf(_("Usage: %s [OPTION]... [-- COMMAND [ARG]...]\n"), PROGRAM);
	puts(_("Show where the time of registered threads goes (running, "
	       "waiting for a CPU,\nsleeping, I/O wait, blocked), per thread "
	       "and per CPU, from the coarse_stat_fs\npages."));
	putchar('\n');
	puts(_("  -b, --batch            print samples as text instead of the "
	       "screen"));
	puts(_("  -n, --iterations=COUNT stop after COUNT samples"));
	printf(_("  -d, --delay=MS         refresh interval in milliseconds, "
		 "%u to %u\n                           (default %u)\n"),
	       INTERVAL_MIN_MS, INTERVAL_MAX_MS, INTERVAL_DEFAULT_MS);
	puts(_("  -o, --output=FORMAT    batch format: text, csv or json "
	       "(JSON lines)"));
	puts(_("  -s, --sort=[+|-]COLUMN sort on COLUMN, + ascending, - "
	       "descending"));
	puts(_("  -p, --pid=PID[,PID...] attach to these processes (or threads)\n"
	       "                         and show only them"));
	puts(_("  -A, --all              every thread you may read: as root the "
	       "whole machine,\n                           else your own "
	       "processes, started later too"));
	puts(_("  -P, --processes        a row per process, its threads summed "
	       "(H switches)"));
	puts(_("  -a, --archive=ARCHIVE  replay a PCP archive of csf metrics "
	       "(pmdacsf(1))\n                           instead of the pages: "
	       "its records, or samples\n                           -d ms apart"));
	puts(_("  -S, --start=TIME       replay from TIME, in PCP's time syntax "
	       "(PCPIntro(1))"));
	puts(_("  -T, --finish=TIME      replay up to TIME"));
	puts(_("  -- COMMAND [ARG]...    run COMMAND with every thread and "
	       "process it creates\n                           registered, "
	       "show only them, and when it exits\n                           "
	       "print their total as csf-run(1) does"));
	puts(_("  -h, --help             display this help and exit"));
	puts(_("  -V, --version          output version information and exit"));
	putchar('\n');
	fputs(_("Columns for -s:"), stdout);
	for (int c = 0; c < COL_NR; c++)
		printf(" %s", columns[c].key);
	putchar('\n');
	puts(_("Default sort: runnable, descending (who waited longest for a "
	       "CPU)."));
	putchar('\n');
	puts(_("Keys: F1/h help, F6 or < > sort column, I invert, F4 or \\ "
	       "filter,\nz or Space freeze, d diff against the frozen screen, "
	       "l or Esc live,\nH processes or threads, +/- interval, q or F10 "
	       "quit."));
	puts(_("Replaying (-a): [ and ] step one sample back and forth, g go "
	       "to a time,\np play or pause, +/- play faster or slower."));
	putchar('\n');
	printf(_("The pages are read from %s ($CSF_ROOT).\n"),
	       CSF_DEFAULT_ROOT);
	puts(_("Exit status: 0 on success, 1 on a runtime error (no module, no "
	       "terminal),\n2 on a usage error; with a COMMAND, once it has "
	       "exited, its own."));
}

static int parse_uint(const char *s, unsigned long min, unsigned long max,
		      unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_sort(const char *arg, struct options *o)
{
	int desc = -1, c;

	if (*arg == '+' || *arg == '-') {
		desc = *arg == '-';
		arg++;
	}
	c = column_by_key(arg);
	if (c < 0)
		return -EINVAL;
	o->sort_col = (enum col)c;
	o->sort_desc = desc >= 0 ? desc : columns[c].desc_first;
	return 0;
}

/* A number for -n or -d, else the usage error said: EXIT_USAGE. */
static int parse_number(int ch, const char *arg, struct options *o)
{
	unsigned long v;

	if (ch == 'n') {
		if (parse_uint(arg, 1, LONG_MAX, &v)) {
			fprintf(stderr, _("%s: invalid count '%s': give a "
					  "number from 1\n"), PROGRAM, arg);
			return EXIT_USAGE;
		}
		o->count = (long)v;
		return -1;
	}
	if (parse_uint(arg, INTERVAL_MIN_MS, INTERVAL_MAX_MS, &v)) {
		fprintf(stderr, _("%s: invalid interval '%s': give "
				  "milliseconds from %u to %u\n"),
			PROGRAM, arg, INTERVAL_MIN_MS, INTERVAL_MAX_MS);
		return EXIT_USAGE;
	}
	o->interval_ms = (unsigned int)v;
	o->interval_set = 1;
	return -1;
}

static int parse_format(const char *arg, struct options *o)
{
	if (!strcmp(arg, "text")) {
		o->format = BATCH_TEXT;
	} else if (!strcmp(arg, "csv")) {
		o->format = BATCH_CSV;
	} else if (!strcmp(arg, "json")) {
		o->format = BATCH_JSON;
	} else {
		fprintf(stderr, _("%s: invalid output format '%s': text, csv "
				  "or json\n"), PROGRAM, arg);
		return EXIT_USAGE;
	}
	return -1;
}

/* An option getopt_long() found that is not wrong: -1 to go on, or the
 * exit status (after help, version, or a bad argument). */
static int parse_option(int ch, const char *arg, struct options *o)
{
	switch (ch) {
	case 'b':
		o->batch = 1;
		return -1;
	case 'n':
	case 'd':
		return parse_number(ch, arg, o);
	case 'a':
		o->archive = arg;
		return -1;
	case 'S':
		o->start = arg;
		return -1;
	case 'T':
		o->finish = arg;
		return -1;
	case 'o':
		return parse_format(arg, o);
	case 's':
		if (!parse_sort(arg, o))
			return -1;
		fprintf(stderr, _("%s: unknown sort column '%s'\n"), PROGRAM,
			arg);
		cli_try_help(PROGRAM);
		return EXIT_USAGE;
	case 'p':
		if (!filter_set_pids(&o->filter, arg))
			return -1;
		fprintf(stderr, _("%s: invalid PID list '%s': give PIDs like "
				  "12,345\n"), PROGRAM, arg);
		return EXIT_USAGE;
	case 'P':
		o->processes = 1;
		return -1;
	case 'A':
		o->all = 1;
		return -1;
	case 'h':
		print_help();
		return EXIT_SUCCESS;
	default:	/* 'V' */
		cli_version(PROGRAM);
		return EXIT_SUCCESS;
	}
}

/* What getopt_long() could not take, said: EXIT_USAGE. */
static int bad_option(int ch, char **argv)
{
	if (ch == ':')
		fprintf(stderr, _("%s: option '%s' requires an argument\n"),
			PROGRAM, argv[optind - 1]);
	else if (optopt)
		fprintf(stderr, _("%s: invalid option -- '%c'\n"), PROGRAM,
			optopt);
	else
		fprintf(stderr, _("%s: unrecognized option '%s'\n"), PROGRAM,
			argv[optind - 1]);
	cli_try_help(PROGRAM);
	return EXIT_USAGE;
}

/* The operands and the options together: -1, or EXIT_USAGE, said. */
static int check_options(int argc, char **argv, struct options *o)
{
	/* getopt leaves a "--" it stopped at just before the operands */
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		o->command = argv + optind;
	} else if (optind < argc) {
		fprintf(stderr, _("%s: extra operand '%s' (a command to run "
				  "goes after --)\n"), PROGRAM, argv[optind]);
		cli_try_help(PROGRAM);
		return EXIT_USAGE;
	}
	if (o->command && (o->archive || o->filter.npids || o->all))
		fprintf(stderr, _("%s: a command runs alone: not with -a, -A "
				  "or -p\n"), PROGRAM);
	else if (o->all && (o->archive || o->filter.npids))
		fprintf(stderr, _("%s: -A shows every thread: not with -a or "
				  "-p\n"), PROGRAM);
	else if ((o->start || o->finish) && !o->archive)
		fprintf(stderr, _("%s: -S and -T need -a\n"), PROGRAM);
	else if (o->format != BATCH_TEXT && !o->batch)
		fprintf(stderr, _("%s: -o needs -b\n"), PROGRAM);
	else
		return -1;
	cli_try_help(PROGRAM);
	return EXIT_USAGE;
}

int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "sort", required_argument, NULL, 's' },
		{ "pid", required_argument, NULL, 'p' },
		{ "processes", no_argument, NULL, 'P' },
		{ "all", no_argument, NULL, 'A' },
		{ "archive", required_argument, NULL, 'a' },
		{ "start", required_argument, NULL, 'S' },
		{ "finish", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, status;

	memset(o, 0, sizeof(*o));
	o->interval_ms = INTERVAL_DEFAULT_MS;
	o->sort_col = COL_DEFAULT_SORT;
	o->sort_desc = columns[COL_DEFAULT_SORT].desc_first;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":bn:d:o:s:p:APa:S:T:hV", longopts,
				 NULL)) != -1) {
		status = ch == ':' || ch == '?' ? bad_option(ch, argv) :
			 parse_option(ch, optarg, o);
		if (status >= 0)
			return status;
	}
	return check_options(argc, argv, o);
}
