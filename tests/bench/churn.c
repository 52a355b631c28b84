// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * churn.c - keep the threads of a directory written by mkfakeroot busy,
 * for csftop_cost.sh: every PERIOD microseconds, each thread's page closes
 * the interval of its state and switches between running and runnable, as
 * the module's sched_switch hook does for a thread that is preempted.  The
 * pages' histograms then change in every frame, which is what a monitor
 * of busy threads reads; mkfakeroot's own pages never change.
 *
 *   churn DIR PERIOD_US      prints "ready N" (the pages it keeps busy);
 *                            exits on SIGTERM or SIGINT
 *
 * A page is written under its sequence count, odd while it changes, as the
 * module writes it: readers retry, never see half of a switch.
 */
#include <config.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs_abi.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

/* The bucket of an interval of @ns, as the ABI defines it. */
static unsigned int bucket_of(unsigned long long ns)
{
	unsigned int b = 0;

	while (b + 1 < CSF_HIST_BUCKETS && ns >= CSF_HIST_UPPER_NS(b))
		b++;
	return b;
}

/* @p's current interval closes now; the next state begins. */
static void switch_page(struct csf_thread_page *p)
{
	unsigned long long now = mono_ns();
	unsigned int st = p->state;
	unsigned long long len;

	if (st >= CSF_NR_STATES || st == CSF_STATE_EXITED)
		return;
	/* mkfakeroot's closed pages open in the far future: from now on */
	len = now > p->state_since ? now - p->state_since : 0;
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	p->time[st] += len;
	p->hist[st][bucket_of(len)]++;
	if (len > p->max_len[st]) {
		p->max_len[st] = len;
		p->max_end[st] = now;
	}
	if (st == CSF_STATE_RUNNING) {
		p->nivcsw++;
		p->state = CSF_STATE_RUNNABLE;
	} else {
		struct csf_wait *w = &p->waits[p->nr_waits++ % CSF_WAITS];

		w->len = len;
		w->end = now;
		w->state = st;
		if (st != CSF_STATE_RUNNABLE)
			p->wakeups++;
		p->state = CSF_STATE_RUNNING;
	}
	p->state_since = now;
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
	struct csf_thread_page **pages = NULL;
	size_t n = 0, cap = 0;
	unsigned long period;
	struct dirent *d;
	char path[4096];
	char *end;
	DIR *dir;

	if (argc != 3 || (period = strtoul(argv[2], &end, 10)) == 0 ||
	    *end || period > 10000000) {
		fprintf(stderr, "usage: churn DIR PERIOD_US (1 to 10000000)\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/threads", argv[1]);
	dir = opendir(path);
	if (!dir) {
		perror(path);
		return 1;
	}
	while ((d = readdir(dir))) {
		void *p;
		int fd;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/threads/%s", argv[1],
			 d->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		p = fd < 0 ? MAP_FAILED :
		    mmap(NULL, sizeof(**pages), PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
		if (fd >= 0)
			close(fd);
		if (p == MAP_FAILED) {
			perror(path);
			return 1;
		}
		if (n == cap) {
			void *more;

			cap = cap ? 2 * cap : 64;
			more = realloc(pages, cap * sizeof(*pages));
			if (!more) {
				perror("churn");
				return 1;
			}
			pages = more;
		}
		pages[n++] = p;
	}
	closedir(dir);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("ready %zu\n", n);
	fflush(stdout);
	while (!stop) {
		for (size_t i = 0; i < n; i++)
			switch_page(pages[i]);
		usleep((useconds_t)period);
	}
	return 0;
}
