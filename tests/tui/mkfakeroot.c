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
 *          minor=0                         (optional: an ABI 1.0 page,
 *                                           without histograms)
 *   hist TID STATE B:N...                   the histogram of STATE: N
 *                                           intervals in bucket B (off the
 *                                           CPU, the waits not in waits[])
 *   max TID STATE LEN END                   the longest interval of STATE,
 *                                           LEN ms long, ended at END ms
 *                                           (END and AT below: ms, or now)
 *   wait TID STATE LEN END                  one more wait, LEN ms long (a
 *                                           decimal), ended at END ms: in
 *                                           its bucket, waits[], and the
 *                                           longest if it is
 *   waker TID WTID WCOMM AT                 the last waker, at AT ms
 *   preemptor TID PTID PCOMM AT             and preemptor (WCOMM "-" with
 *                                           WTID 0: an interrupt)
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
 * A thread line writes the whole page; the hist, max, wait, waker and
 * preemptor lines after it change the page of that thread.  A hist line
 * also moves state_since on by the intervals it adds, as an interval that
 * closes does: csftop reads a page's histograms again only then.
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

/* Thread @tid's page, read for a change (hist, max, ... lines). */
static void page_load(unsigned int tid, struct csf_thread_page *p)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/threads/%u", root, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, p, sizeof(*p), 0) != (ssize_t)sizeof(*p))
		die(path);
	close(fd);
}

static void page_store(unsigned int tid, const struct csf_thread_page *p)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/threads/%u", root, tid);
	write_in_place(path, p, sizeof(*p), page_size);
}

/* A time of the page's clock: "now", or so many ms. */
static unsigned long long at_ns(const char *when)
{
	if (!strcmp(when, "now"))
		return mono_now_ns();
	return strtoull(when, NULL, 10) * MS;
}

/* "hist TID STATE B:N..." and the other lines about a page's 1.1 part. */
static int page_line(const char *line)
{
	struct csf_thread_page p;
	char what[16], state[32], comm[64];
	char when[32];
	unsigned int tid, t2;
	unsigned long long a;
	double len;
	int st, n;

	if (sscanf(line, "%15s %u %n", what, &tid, &n) != 2)
		return 0;
	if (!strcmp(what, "hist") &&
	    sscanf(line + n, "%31s %n", state, &n) >= 1) {
		const char *q = strchr(line, ':') ? line : NULL;
		__u64 before = 0, after = 0;

		if ((st = state_of(state)) < 0 || st >= CSF_NR_STATES || !q)
			return -1;
		page_load(tid, &p);
		for (int k = 0; k < CSF_HIST_BUCKETS; k++)
			before += p.hist[st][k];
		memset(p.hist[st], 0, sizeof(p.hist[st]));
		for (q = line; (q = strchr(q, ':')); q++) {
			const char *d = q;

			while (d > line && d[-1] >= '0' && d[-1] <= '9')
				d--;
			a = strtoull(d, NULL, 10);
			if (a >= CSF_HIST_BUCKETS)
				return -1;
			p.hist[st][a] = strtoull(q + 1, NULL, 10);
		}
		for (int k = 0; k < CSF_HIST_BUCKETS; k++)
			after += p.hist[st][k];
		if (after > before) {
			p.state_since += after - before;
			if (st != CSF_STATE_RUNNING)
				p.nr_waits += after - before;
		}
	} else if (!strcmp(what, "max") &&
		   sscanf(line + n, "%31s %llu %31s", state, &a, when) == 3) {
		if ((st = state_of(state)) < 0 || st >= CSF_NR_STATES)
			return -1;
		page_load(tid, &p);
		p.max_len[st] = a * MS;
		p.max_end[st] = at_ns(when);
	} else if (!strcmp(what, "wait") &&
		   sscanf(line + n, "%31s %lf %31s", state, &len, when) == 3) {
		struct csf_wait *w;
		unsigned long long ns = (unsigned long long)(len * MS);
		int k = 0;

		if ((st = state_of(state)) <= CSF_STATE_RUNNING ||
		    st >= CSF_NR_STATES)
			return -1;
		page_load(tid, &p);
		while (k + 1 < CSF_HIST_BUCKETS && ns >= CSF_HIST_UPPER_NS(k))
			k++;
		p.hist[st][k]++;
		w = &p.waits[p.nr_waits++ % CSF_WAITS];
		w->len = ns;
		w->end = at_ns(when);
		w->state = (__u32)st;
		if (ns > p.max_len[st]) {
			p.max_len[st] = ns;
			p.max_end[st] = w->end;
		}
		p.state_since++;
	} else if ((!strcmp(what, "waker") || !strcmp(what, "preemptor")) &&
		   sscanf(line + n, "%u %63s %31s", &t2, comm, when) == 3) {
		struct csf_task_ref *ref;

		page_load(tid, &p);
		ref = what[0] == 'w' ? &p.waker : &p.preemptor;
		memset(ref, 0, sizeof(*ref));
		ref->at = at_ns(when);
		ref->tid = t2;
		if (strcmp(comm, "-"))
			memcpy(ref->comm, comm,
			       strnlen(comm, sizeof(ref->comm) - 1));
	} else {
		return 0;
	}
	page_store(tid, &p);
	return 1;
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
	int changed = 0, keep_generation = 0, fd, pl;
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
			p->abi_minor = strstr(line, " minor=0") ? 0 :
				       CSF_ABI_MINOR;
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
		} else if ((pl = page_line(line))) {
			if (pl < 0)
				bad(line);
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
