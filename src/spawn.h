/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - a command started with its whole tree registered, for csf-run
 * and csftop -- COMMAND.
 */
#ifndef CSF_SPAWN_H
#define CSF_SPAWN_H

#include <sys/types.h>

struct csf_thread_map;

/*
 * Start @argv[0] (searched in PATH) as a child registered with inherit
 * before its first instruction, its page mapped in *@root so that its
 * tree stays readable after it exits.  0 once the command runs, *@pid its
 * pid; a negative errno when it could not be registered (csf_strerror()
 * says why; nothing ran); a positive errno when it could not be executed
 * (the child is reaped).
 */
int spawn_start(char *const argv[], pid_t *pid, struct csf_thread_map **root);

/*
 * The exit status as a shell gives it: the command's own, or 128 plus the
 * signal that killed it.
 */
int spawn_status(int wstatus);

#endif /* CSF_SPAWN_H */
