// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * machine.c - csftop -A, see machine.h.  Root asks the module for the
 * whole machine, and the module registers every task created from then
 * on by itself.  Anyone else attaches their own processes with inherit,
 * which covers what those start, and scans /proc again before each sample
 * for the rest: a process started for them by another user's program (a
 * login, cron) has no registered parent.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "machine.h"

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static int seen_before(const struct machine *m, pid_t pid)
{
	/* bsearch() and qsort() take no NULL array, even an empty one */
	return m->nseen &&
	       bsearch(&pid, m->seen, m->nseen, sizeof(pid), cmp_pid);
}

/* The processes of /proc that are m->uid's (any, for root), ascending. */
static pid_t *list_processes(const struct machine *m, size_t *n)
{
	pid_t *pids = NULL, *more;
	size_t cap = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;
	long pid;
	char *end;

	*n = 0;
	d = opendir("/proc");
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 ||
		    (m->uid && (fstatat(dirfd(d), e->d_name, &st, 0) ||
				st.st_uid != m->uid)))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			more = realloc(pids, cap * sizeof(*pids));
			if (!more)
				break;
			pids = more;
		}
		pids[(*n)++] = (pid_t)pid;
	}
	closedir(d);
	if (*n)
		qsort(pids, *n, sizeof(*pids), cmp_pid);
	return pids;
}

void machine_scan(struct machine *m)
{
	size_t n;
	pid_t *pids;

	if (m->whole)
		return;
	pids = list_processes(m, &n);
	/* one refused (not dumpable, gone) is tried again only if reused */
	for (size_t i = 0; i < n; i++)
		if (!seen_before(m, pids[i]))
			csf_attach(pids[i], CSF_ATTACH_INHERIT);
	free(m->seen);
	m->seen = pids;
	m->nseen = n;
}

int machine_start(struct machine *m)
{
	int err = csf_attach_all();

	memset(m, 0, sizeof(*m));
	m->uid = geteuid();
	if (!err)
		m->whole = 1;
	else
		machine_scan(m);
	return err;
}

void machine_free(struct machine *m)
{
	free(m->seen);
	memset(m, 0, sizeof(*m));
}
