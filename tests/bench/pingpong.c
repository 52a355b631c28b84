// SPDX-License-Identifier: MIT
/*
 * pingpong - the cost of a context switch, to measure what the module's
 * sched_switch hook adds: two threads bounce a byte over two pipes.
 *
 *   pingpong [-r] [-n ROUND_TRIPS]
 *
 * Each round trip is two wakeups and two switches (more when the threads
 * sit on different CPUs).  Run it with the module unloaded, loaded with no
 * thread registered, and with -r (both threads registered) to see
 * the three costs side by side.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs.h"

static int ping[2], pong[2];
static long round_trips = 20000;
static int do_register;

static void register_self(void)
{
	struct csf_snap s;
	int err;

	if (!do_register)
		return;
	err = csf_thread_snap(&s);
	if (err) {
		fprintf(stderr, "pingpong: %s\n", csf_strerror(err));
		exit(1);
	}
}

static void *ponger(void *arg)
{
	char c;
	long i;

	register_self();
	for (i = 0; i < round_trips; i++) {
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			exit(1);
	}
	return arg;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	pthread_t t;
	char c = 'x';
	double ns;
	long i;
	int opt;

	while ((opt = getopt(argc, argv, "rn:h")) != -1) {
		switch (opt) {
		case 'r':
			do_register = 1;
			break;
		case 'n':
			round_trips = strtol(optarg, NULL, 10);
			if (round_trips < 1) {
				fprintf(stderr, "pingpong: -n %s: expected a positive count\n",
					optarg);
				return 2;
			}
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr,
				"Usage: %s [-r] [-n ROUND_TRIPS]\n"
				"  -r  register both threads with coarse_stat_fs first\n",
				argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (pipe(ping) || pipe(pong)) {
		perror("pingpong: pipe");
		return 1;
	}
	register_self();
	pthread_create(&t, NULL, ponger, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < round_trips; i++) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(t, NULL);
	ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
	     round_trips;
	printf("pingpong%s: %ld round trips, %.0f ns per round trip\n",
	       do_register ? " (registered)" : "", round_trips, ns);
	return 0;
}
