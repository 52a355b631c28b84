// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - csftop's command line: -b -n -d -o -s -p -a -S -T, help and
 * version.
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
		{ "archive", required_argument, NULL, 'a' },
		{ "start", required_argument, NULL, 'S' },
		{ "finish", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int ch;

	memset(o, 0, sizeof(*o));
	o->interval_ms = INTERVAL_DEFAULT_MS;
	o->sort_col = COL_DEFAULT_SORT;
	o->sort_desc = columns[COL_DEFAULT_SORT].desc_first;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":bn:d:o:s:p:Pa:S:T:hV", longopts,
				 NULL)) != -1) {
		switch (ch) {
		case 'b':
			o->batch = 1;
			break;
		case 'n':
			if (parse_uint(optarg, 1, LONG_MAX, &v)) {
				fprintf(stderr, _("%s: invalid count '%s': "
						  "give a number from 1\n"),
					PROGRAM, optarg);
				return EXIT_USAGE;
			}
			o->count = (long)v;
			break;
		case 'd':
			if (parse_uint(optarg, INTERVAL_MIN_MS,
				       INTERVAL_MAX_MS, &v)) {
				fprintf(stderr, _("%s: invalid interval '%s': "
						  "give milliseconds from %u "
						  "to %u\n"),
					PROGRAM, optarg, INTERVAL_MIN_MS,
					INTERVAL_MAX_MS);
				return EXIT_USAGE;
			}
			o->interval_ms = (unsigned int)v;
			o->interval_set = 1;
			break;
		case 'a':
			o->archive = optarg;
			break;
		case 'S':
			o->start = optarg;
			break;
		case 'T':
			o->finish = optarg;
			break;
		case 'o':
			if (!strcmp(optarg, "text")) {
				o->format = BATCH_TEXT;
			} else if (!strcmp(optarg, "csv")) {
				o->format = BATCH_CSV;
			} else if (!strcmp(optarg, "json")) {
				o->format = BATCH_JSON;
			} else {
				fprintf(stderr, _("%s: invalid output format "
						  "'%s': text, csv or json\n"),
					PROGRAM, optarg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			if (parse_sort(optarg, o)) {
				fprintf(stderr, _("%s: unknown sort column "
						  "'%s'\n"), PROGRAM, optarg);
				cli_try_help(PROGRAM);
				return EXIT_USAGE;
			}
			break;
		case 'p':
			if (filter_set_pids(&o->filter, optarg)) {
				fprintf(stderr, _("%s: invalid PID list '%s': "
						  "give PIDs like 12,345\n"),
					PROGRAM, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'P':
			o->processes = 1;
			break;
		case 'h':
			print_help();
			return EXIT_SUCCESS;
		case 'V':
			cli_version(PROGRAM);
			return EXIT_SUCCESS;
		case ':':
			fprintf(stderr, _("%s: option '%s' requires an "
					  "argument\n"), PROGRAM,
				argv[optind - 1]);
			cli_try_help(PROGRAM);
			return EXIT_USAGE;
		default:
			if (optopt)
				fprintf(stderr, _("%s: invalid option -- "
						  "'%c'\n"), PROGRAM, optopt);
			else
				fprintf(stderr, _("%s: unrecognized option "
						  "'%s'\n"), PROGRAM,
					argv[optind - 1]);
			cli_try_help(PROGRAM);
			return EXIT_USAGE;
		}
	}
	/* getopt leaves a "--" it stopped at just before the operands */
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		o->command = argv + optind;
	} else if (optind < argc) {
		fprintf(stderr, _("%s: extra operand '%s' (a command to run "
				  "goes after --)\n"), PROGRAM, argv[optind]);
		cli_try_help(PROGRAM);
		return EXIT_USAGE;
	}
	if (o->command && (o->archive || o->filter.npids)) {
		fprintf(stderr, _("%s: a command runs alone: not with -a or "
				  "-p\n"), PROGRAM);
		cli_try_help(PROGRAM);
		return EXIT_USAGE;
	}
	if ((o->start || o->finish) && !o->archive) {
		fprintf(stderr, _("%s: -S and -T need -a\n"), PROGRAM);
		cli_try_help(PROGRAM);
		return EXIT_USAGE;
	}
	if (o->format != BATCH_TEXT && !o->batch) {
		fprintf(stderr, _("%s: -o needs -b\n"), PROGRAM);
		cli_try_help(PROGRAM);
		return EXIT_USAGE;
	}
	return -1;
}
