// SPDX-License-Identifier: MIT
/*
 * forkloop - what a fork costs, to measure what the module's
 * sched_process_fork probe adds: fork() a child that exits at once, and
 * wait for it, N times.
 *
 *   forkloop [-i] [-n FORKS]
 *
 * Run it with the module unloaded, loaded with nothing registered (the
 * probe's empty lookup), and with -i: the loop attached to itself with
 * inherit, so every child is registered at its fork and released at its
 * exit.  Prints "N forks: X ns per fork+exit+wait".
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = 2000, i;
	int inherit = 0, c, err;
	uint64_t t0, t1;

	while ((c = getopt(argc, argv, "in:")) != -1) {
		switch (c) {
		case 'i':
			inherit = 1;
			break;
		case 'n':
			n = strtol(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: forkloop [-i] [-n FORKS]\n");
			return 2;
		}
	}
	if (n < 1) {
		fprintf(stderr, "forkloop: -n wants a positive count\n");
		return 2;
	}
	if (inherit) {
		err = csf_attach(getpid(), CSF_ATTACH_INHERIT);
		if (err) {
			fprintf(stderr, "forkloop: attach: %s\n",
				strerror(-err));
			return 1;
		}
	}
	t0 = mono_ns();
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("forkloop: fork");
			return 1;
		}
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid) {
			perror("forkloop: waitpid");
			return 1;
		}
	}
	t1 = mono_ns();
	printf("%ld forks: %llu ns per fork+exit+wait\n", n,
	       (unsigned long long)((t1 - t0) / (uint64_t)n));
	return 0;
}
