// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkfakeroot.c - write a directory shaped like the mounted coarse_stat_fs
 * (cpu, threads/<tid>) with regular files in the ABI's page layouts, from a
 * small text description, for csftop's screen tests.
 *
 *   mkfakeroot DIR < SPEC
 *
 * SPEC lines (times in milliseconds, counters plain numbers):
 *
 *   cpus N                                  N CPU records (default 2)
 *   cpu ID busy= idle= iowait= csw= user= nice= system= irq= softirq=
 *          steal= online=                   one CPU record
 *   thread TID TGID COMM STATE run= runnable= sleep= iowait= blocked=
 *          nvcsw= nivcsw= wakeups= migrations= cpu= registered=
 *          since=now                        (optional, see below)
 *   gone TID                                the thread exits: its page reads
 *                                           EXITED, then the file goes
 *   same-generation                         this run leaves the generation
 *                                           as it is, whatever it adds or
 *                                           removes: a reader that rescans
 *                                           only when it moves must not
 *                                           see the change
 *   # comment
 *
 * STATE is running, runnable, sleeping, iowait, blocked or exited.
 *
 * Why the screens are deterministic: the clock is CSF_CLOCK_MONO with a 1:1
 * conversion, and every open interval starts in the far future
 * (state_since = 2^62 ns), so a reader adds nothing for "now" (the ABI
 * treats now < state_since as 0) and totals are exactly what SPEC says.
 * csftop's script mode stamps samples with its own clock, so shares and
 * rates follow from the SPECs written between two ":sample" lines.
 *
 * since=now opens the thread's current state at the time of writing
 * (CLOCK_MONOTONIC, the clock of CSF_CLOCK_MONO pages) instead: its bucket
 * then grows as real time passes, like a live page, which the benchmark
 * (tests/bench/csftop_cost.sh) wants and the screen tests must not use.
 *
 * Files are rewritten in place (pwrite, never rename), so csftop's existing
 * mappings see the new contents, as they would with the module.  The
 * generation counter in the cpu header grows whenever a thread file is
 * created or removed, which is what tells csftop to rescan.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs_abi.h"

#define MS 1000000ull
#define FUTURE (1ull << 62)
#define MAX_CPUS 256

static const char *root;
static size_t page_size;

static void die(const char *what)
{
	fprintf(stderr, "mkfakeroot: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void bad(const char *line)
{
	fprintf(stderr, "mkfakeroot: cannot parse: %s\n", line);
	exit(1);
}

/* Write @len bytes at offset 0 of @path in place, the file @size long. */
static int write_in_place(const char *path, const void *buf, size_t len,
			  size_t size)
{
	int created = access(path, F_OK) != 0;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		die(path);
	if ((size_t)st.st_size < size && ftruncate(fd, (off_t)size))
		die(path);
	if (pwrite(fd, buf, len, 0) != (ssize_t)len)
		die(path);
	close(fd);
	return created;
}

static unsigned long long kv(const char *text, const char *key, int ms)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(text, pat);
	if (!p)
		return 0;
	return strtoull(p + strlen(pat), NULL, 10) * (ms ? MS : 1);
}

static unsigned long long mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

static int state_of(const char *name)
{
	static const char *const names[] = { "running", "runnable",
					     "sleeping", "iowait", "blocked",
					     "exited" };

	for (int i = 0; i < 6; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

/* The header's counters, as the module keeps them: live threads, pages. */
static void count_threads(__u64 *live, __u64 *pages)
{
	char path[4200];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/threads", root);
	dir = opendir(path);
	if (!dir)
		die(path);
	*live = *pages = 0;
	while ((d = readdir(dir))) {
		struct csf_thread_page p;
		int fd;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/threads/%s", root, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || pread(fd, &p, sizeof(p), 0) != (ssize_t)sizeof(p))
			die(path);
		close(fd);
		(*pages)++;
		if (p.state != CSF_STATE_EXITED)
			(*live)++;
	}
	closedir(dir);
}

int main(int argc, char **argv)
{
	static unsigned char cpubuf[1 << 20];
	struct csf_cpu_header h;
	struct csf_cpu_record recs[MAX_CPUS];
	char path[4096], line[1024];
	unsigned int ncpus = 2;
	int changed = 0, keep_generation = 0, fd;
	size_t cpu_len;

	if (argc != 2) {
		fprintf(stderr, "usage: mkfakeroot DIR < SPEC\n");
		return 2;
	}
	root = argv[1];
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	if (mkdir(root, 0755) && errno != EEXIST)
		die(root);
	snprintf(path, sizeof(path), "%s/threads", root);
	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);

	/* start from the existing cpu file, if any: generation goes on */
	memset(&h, 0, sizeof(h));
	memset(recs, 0, sizeof(recs));
	snprintf(path, sizeof(path), "%s/cpu", root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = pread(fd, cpubuf, sizeof(cpubuf), 0);

		if (n >= (ssize_t)sizeof(h)) {
			memcpy(&h, cpubuf, sizeof(h));
			ncpus = h.nr_cpus;
			for (unsigned int i = 0; i < ncpus && i < MAX_CPUS;
			     i++)
				memcpy(&recs[i], cpubuf + h.header_size +
				       i * h.record_size, sizeof(recs[i]));
		}
		close(fd);
	} else {
		for (unsigned int i = 0; i < MAX_CPUS; i++) {
			recs[i].online = 1;
			recs[i].state_since = FUTURE;
		}
	}

	while (fgets(line, sizeof(line), stdin)) {
		char comm[64], state[32];
		unsigned int a, b;

		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (sscanf(line, "cpus %u", &a) == 1) {
			if (!a || a > MAX_CPUS)
				bad(line);
			ncpus = a;
		} else if (sscanf(line, "cpu %u", &a) == 1) {
			struct csf_cpu_record *r = &recs[a];

			if (a >= MAX_CPUS)
				bad(line);
			r->state = CSF_CPU_IDLE;
			r->state_since = FUTURE;
			r->time[CSF_CPU_BUSY] = kv(line, "busy", 1);
			r->time[CSF_CPU_IDLE] = kv(line, "idle", 1);
			r->time[CSF_CPU_IOWAIT] = kv(line, "iowait", 1);
			r->nr_switches = kv(line, "csw", 0);
			r->online = strstr(line, " online=0") ? 0 : 1;
			r->stat[CSF_STAT_USER] = kv(line, "user", 1);
			r->stat[CSF_STAT_NICE] = kv(line, "nice", 1);
			r->stat[CSF_STAT_SYSTEM] = kv(line, "system", 1);
			r->stat[CSF_STAT_IDLE] = r->time[CSF_CPU_IDLE];
			r->stat[CSF_STAT_IOWAIT] = r->time[CSF_CPU_IOWAIT];
			r->stat[CSF_STAT_IRQ] = kv(line, "irq", 1);
			r->stat[CSF_STAT_SOFTIRQ] = kv(line, "softirq", 1);
			r->stat[CSF_STAT_STEAL] = kv(line, "steal", 1);
		} else if (sscanf(line, "thread %u %u %63s %31s", &a, &b, comm,
				  state) == 4) {
			static unsigned char page[1 << 16];
			struct csf_thread_page *p = (void *)page;
			int st = state_of(state);

			if (st < 0)
				bad(line);
			memset(page, 0, sizeof(page));
			p->magic = CSF_THREAD_MAGIC;
			p->abi_major = CSF_ABI_MAJOR;
			p->abi_minor = CSF_ABI_MINOR;
			p->state = (__u32)st;
			p->state_since = st == CSF_STATE_EXITED ? 0 :
					 strstr(line, " since=now") ?
					 mono_now_ns() : FUTURE;
			p->time[CSF_STATE_RUNNING] = kv(line, "run", 1);
			p->time[CSF_STATE_RUNNABLE] = kv(line, "runnable", 1);
			p->time[CSF_STATE_SLEEPING] = kv(line, "sleep", 1);
			p->time[CSF_STATE_IOWAIT] = kv(line, "iowait", 1);
			p->time[CSF_STATE_BLOCKED] = kv(line, "blocked", 1);
			p->nvcsw = kv(line, "nvcsw", 0);
			p->nivcsw = kv(line, "nivcsw", 0);
			p->wakeups = kv(line, "wakeups", 0);
			p->migrations = kv(line, "migrations", 0);
			p->cpu = (__u32)kv(line, "cpu", 0);
			p->clock = CSF_CLOCK_MONO;
			p->tid = a;
			p->tgid = b;
			p->registered_at = kv(line, "registered", 1) + 1;
			memcpy(p->comm, comm, strnlen(comm, sizeof(p->comm) - 1));
			snprintf(path, sizeof(path), "%s/threads/%u", root, a);
			changed |= write_in_place(path, page, sizeof(*p),
						  page_size);
		} else if (!strcmp(line, "same-generation")) {
			keep_generation = 1;
		} else if (sscanf(line, "gone %u", &a) == 1) {
			struct csf_thread_page p;

			snprintf(path, sizeof(path), "%s/threads/%u", root, a);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0 || pread(fd, &p, sizeof(p), 0) !=
			    (ssize_t)sizeof(p))
				die(path);
			p.state = CSF_STATE_EXITED;
			if (pwrite(fd, &p, sizeof(p), 0) != (ssize_t)sizeof(p))
				die(path);
			close(fd);
			if (unlink(path))
				die(path);
			changed = 1;
		} else {
			bad(line);
		}
	}

	h.magic = CSF_CPU_MAGIC;
	h.abi_major = CSF_ABI_MAJOR;
	h.abi_minor = CSF_ABI_MINOR;
	h.header_size = sizeof(h);
	h.record_size = sizeof(struct csf_cpu_record);
	h.nr_cpus = ncpus;
	h.clock = CSF_CLOCK_MONO;
	h.clock_hz = 1000000000ull;
	h.clock_mult = 1;
	h.clock_shift = 0;
	h.max_threads = 4096;
	if (!keep_generation)
		h.generation += (__u64)changed;
	count_threads(&h.nr_threads, &h.nr_allocated);
	h.stat_period_ns = 10 * MS;
	memset(cpubuf, 0, sizeof(cpubuf));
	memcpy(cpubuf, &h, sizeof(h));
	for (unsigned int i = 0; i < ncpus; i++)
		memcpy(cpubuf + h.header_size + i * h.record_size, &recs[i],
		       sizeof(recs[i]));
	cpu_len = h.header_size + ncpus * h.record_size;
	cpu_len = (cpu_len + page_size - 1) / page_size * page_size;
	snprintf(path, sizeof(path), "%s/cpu", root);
	write_in_place(path, cpubuf, cpu_len, cpu_len);
	return 0;
}
