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
#include "i18n.h"
#include "spawn.h"

#define PROGRAM "csf-run"
#define EXIT_OWN 125	/* csf-run's own failure, as env(1) and timeout(1) */

static void try_help(void)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"),
		PROGRAM);
}

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

static void print_version(void)
{
	printf("%s (%s) %s\n", PROGRAM, PACKAGE_NAME, PACKAGE_VERSION);
	puts(_("License GPLv2+: GNU GPL version 2 or later "
	       "<https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and "
	       "redistribute it.\nThere is NO WARRANTY, to the extent "
	       "permitted by law."));
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

static void print_json(FILE *f, char *const argv[], pid_t pid, int wstatus,
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
	for (i = 0; argv[i]; i++) {
		if (i)
			putc(',', f);
		json_str(f, argv[i]);
	}
	fprintf(f, "],\"pid\":%d,\"exit_status\":%d,\"signal\":%d", (int)pid,
		WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1,
		WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++)
		fprintf(f, ",\"%s\":%llu", field[i].key,
			(unsigned long long)field[i].v);
	fputs("}\n", f);
}

static void print_text(FILE *f, const char *cmd, pid_t pid, int wstatus,
		       const struct csf_tree *t)
{
	char line[CSF_DIFF_BUFSZ];

	if (WIFSIGNALED(wstatus))
		fprintf(f, _("%s: %s (pid %d) was killed by signal %d (%s)\n"),
			PROGRAM, cmd, (int)pid, WTERMSIG(wstatus),
			strsignal(WTERMSIG(wstatus)));
	else
		fprintf(f, _("%s: %s (pid %d) exited with status %d\n"),
			PROGRAM, cmd, (int)pid, WEXITSTATUS(wstatus));
	csf_format_tree(line, sizeof(line), t);
	fprintf(f, "%s\n", line);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	struct csf_thread_map *root;
	struct csf_tree tree;
	int c, json = 0, err, wstatus;
	FILE *out = stderr;
	pid_t pid;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	/* '+': the command's own options are not ours */
	while ((c = getopt_long(argc, argv, "+jo:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			print_help();
			return 0;
		case 'V':
			print_version();
			return 0;
		default:
			try_help();
			return EXIT_OWN;
		}
	}
	if (optind == argc) {
		fprintf(stderr, _("%s: no command given\n"), PROGRAM);
		try_help();
		return EXIT_OWN;
	}
	/* opened first: a summary with nowhere to go is found out early */
	if (output && !(out = fopen(output, "we"))) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, output,
			strerror(errno));
		return EXIT_OWN;
	}

	err = spawn_start(argv + optind, &pid, &root);
	if (err < 0) {
		fprintf(stderr, _("%s: cannot register %s: %s\n"), PROGRAM,
			argv[optind], csf_strerror(err));
		return EXIT_OWN;
	}
	if (err > 0) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, argv[optind],
			strerror(err));
		return err == ENOENT ? 127 : 126;
	}

	/* the command's to handle, as with time(1) */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "%s: waitpid: %s\n", PROGRAM,
				strerror(errno));
			return EXIT_OWN;
		}
	}
	err = csf_thread_read_tree(root, &tree);
	csf_thread_unmap(root);
	if (err) {
		fprintf(stderr, _("%s: cannot read the tree of %s: %s\n"),
			PROGRAM, argv[optind], csf_strerror(err));
		return EXIT_OWN;
	}
	if (json)
		print_json(out, argv + optind, pid, wstatus, &tree);
	else
		print_text(out, argv[optind], pid, wstatus, &tree);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, output,
			strerror(errno));
		return EXIT_OWN;
	}
	return spawn_status(wstatus);
}
