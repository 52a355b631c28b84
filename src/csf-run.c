// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csf-run.c - run a command with every thread and process it creates
 * registered, and say where their time went, as perf stat -- COMMAND
 * says what they counted.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "cli.h"
#include "i18n.h"
#include "spawn.h"

#define PROGRAM "csf-run"
#define EXIT_OWN 125	/* csf-run's own failure, as env(1) and timeout(1) */

static void print_help(void)
{
	printf(_("Usage: %s [OPTION]... [--] COMMAND [ARG]...\n"), PROGRAM);
	puts(_("Run COMMAND with itself and every thread and process it creates registered\n"
	       "with coarse_stat_fs from their first instruction, and when it exits print\n"
	       "where their time went, summed over the tree, on standard error.\n"));
	puts(_("  -j, --json             print the summary as one JSON object"));
	puts(_("  -o, --output=FILE      write the summary to FILE, not standard error"));
	puts(_("  -h, --help             display this help and exit"));
	puts(_("  -V, --version          output version information and exit"));
	puts(_("\nExit status: COMMAND's, or 128+N when signal N killed it; 125 when\n"
	       "csf-run fails (no module, not permitted, a usage error), 126 when COMMAND\n"
	       "cannot be executed, 127 when it is not found."));
}

/* Control bytes escaped; other bytes as they are (argv is the user's). */
static void json_str(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}

static void print_json(FILE *f, const struct command *c,
		       const struct csf_tree *t)
{
	const struct {
		const char *key;
		uint64_t v;
	} field[] = {
		{ "wall_ns", t->wall_ns },	 { "run_ns", t->run_ns },
		{ "runnable_ns", t->runnable_ns }, { "sleep_ns", t->sleep_ns },
		{ "iowait_ns", t->iowait_ns },	 { "blocked_ns", t->blocked_ns },
		{ "nvcsw", t->nvcsw },		 { "nivcsw", t->nivcsw },
		{ "wakeups", t->wakeups },	 { "migrations", t->migrations },
		{ "threads", t->threads },	 { "processes", t->processes },
		{ "running", t->running },	 { "missed", t->missed },
	};
	size_t i;

	fputs("{\"command\":[", f);
	for (i = 0; c->argv[i]; i++) {
		if (i)
			putc(',', f);
		json_str(f, c->argv[i]);
	}
	fprintf(f, "],\"pid\":%d,\"exit_status\":%d,\"signal\":%d",
		(int)c->pid,
		WIFEXITED(c->wstatus) ? WEXITSTATUS(c->wstatus) : -1,
		WIFSIGNALED(c->wstatus) ? WTERMSIG(c->wstatus) : 0);
	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++)
		fprintf(f, ",\"%s\":%llu", field[i].key,
			(unsigned long long)field[i].v);
	fputs("}\n", f);
}

/*
 * The options into *@json and *@output, up to the command: -1 to go on,
 * or the exit status (after help, version, a usage error).
 */
static int parse_args(int argc, char **argv, int *json, const char **output)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	/* '+': the command's own options are not ours */
	while ((c = getopt_long(argc, argv, "+jo:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			*json = 1;
			break;
		case 'o':
			*output = optarg;
			break;
		case 'h':
			print_help();
			return 0;
		case 'V':
			cli_version(PROGRAM);
			return 0;
		default:
			cli_try_help(PROGRAM);
			return EXIT_OWN;
		}
	}
	if (optind == argc) {
		fprintf(stderr, _("%s: no command given\n"), PROGRAM);
		cli_try_help(PROGRAM);
		return EXIT_OWN;
	}
	return -1;
}

int main(int argc, char **argv)
{
	const char *output = NULL;
	struct command cmd = { 0 };
	struct csf_tree tree;
	int json = 0, err;
	FILE *out = stderr;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
	err = parse_args(argc, argv, &json, &output);
	if (err >= 0)
		return err;
	/* opened first: a summary with nowhere to go is found out early */
	if (output && !(out = fopen(output, "we"))) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, output,
			strerror(errno));
		return EXIT_OWN;
	}

	cmd.argv = argv + optind;
	err = command_start(&cmd);
	if (err < 0) {
		fprintf(stderr, _("%s: cannot register %s: %s\n"), PROGRAM,
			cmd.argv[0], csf_strerror(err));
		return EXIT_OWN;
	}
	if (err > 0) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, cmd.argv[0],
			strerror(err));
		return err == ENOENT ? 127 : 126;
	}

	/* the command's to handle, as with time(1) */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	err = command_poll(&cmd, 1);
	if (err < 0) {
		fprintf(stderr, "%s: waitpid: %s\n", PROGRAM, strerror(-err));
		return EXIT_OWN;
	}
	err = csf_thread_read_tree(cmd.root, &tree);
	command_close(&cmd);
	if (err) {
		fprintf(stderr, _("%s: cannot read the tree of %s: %s\n"),
			PROGRAM, cmd.argv[0], csf_strerror(err));
		return EXIT_OWN;
	}
	if (json)
		print_json(out, &cmd, &tree);
	else
		command_report(out, PROGRAM, &cmd, &tree);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, output,
			strerror(errno));
		return EXIT_OWN;
	}
	return command_status(&cmd);
}
