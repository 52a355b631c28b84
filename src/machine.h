/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine.h - csftop -A: every thread the caller may read (machine.c).
 */
#ifndef CSFTOP_MACHINE_H
#define CSFTOP_MACHINE_H

#include <stddef.h>
#include <sys/types.h>

struct machine {
	int whole;		/* the module registers every task itself */
	uid_t uid;		/* whose processes a scan attaches; 0: all */
	pid_t *seen;		/* the last scan's processes, ascending */
	size_t nseen;
};

/*
 * machine_start - ask the module for the whole machine; failing that,
 * attach every process the caller owns (root: every process) with
 * inherit, and from then on machine_scan() attaches new ones.  Returns 0,
 * or why the whole machine was not registered (csf_attach_all()'s error)
 * and the scan is in force.
 */
int machine_start(struct machine *m);

/* Before a sample: attach the processes started since the last scan. */
void machine_scan(struct machine *m);

void machine_free(struct machine *m);

#endif /* CSFTOP_MACHINE_H */
