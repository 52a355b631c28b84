/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - a command run with its whole tree registered, for csf-run and
 * csftop -- COMMAND.
 */
#ifndef CSF_SPAWN_H
#define CSF_SPAWN_H

#include <stdio.h>
#include <sys/types.h>

struct csf_thread_map;
struct csf_tree;

/* Where the command's standard streams go. */
enum command_io {
	COMMAND_IO_KEEP,		/* ours (csf-run) */
	COMMAND_IO_STDERR,		/* stdin /dev/null, stdout to our stderr:
					 * csftop -b, whose stdout is data */
	COMMAND_IO_NULL,		/* all /dev/null: csftop's screen */
};

struct command {
	char *const *argv;		/* what runs: argv[0] in PATH */
	enum command_io io;
	pid_t pid;
	struct csf_thread_map *root;	/* its page: its tree's totals */
	int exited;			/* reaped: wstatus is valid */
	int wstatus;
};

/*
 * Start @c->argv as a child registered with inherit before its first
 * instruction, its page mapped in @c->root so that its tree stays
 * readable after it exits.  0 once the command runs; a negative errno
 * when it could not be registered (csf_strerror() says why; nothing ran);
 * a positive errno when it could not be executed (the child is reaped).
 */
int command_start(struct command *c);

/*
 * Reap the command if it has exited, waiting for it with @wait.  1 once
 * it has exited (now or before), 0 while it runs, or a negative errno.
 */
int command_poll(struct command *c, int wait);

/*
 * Its exit status as a shell gives it: its own, or 128 plus the signal
 * that killed it; 0 while it runs.
 */
int command_status(const struct command *c);

/* "PROG: CMD (pid N) exited with status S" and the tree's line. */
void command_report(FILE *f, const char *prog, const struct command *c,
		    const struct csf_tree *t);

/* Release the mapping (the command runs on if it runs). */
void command_close(struct command *c);

#endif /* CSF_SPAWN_H */
