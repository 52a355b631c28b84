// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sleepers.c - a process of N real threads that only sleep, for
 * csftop_cost.sh on a host without the module: top -H then reads N threads
 * from /proc while csftop reads N page-shaped files, so both monitors walk
 * the same number of threads.  (With the module, csf-demo --idle does this
 * and registers the threads as well.)
 *
 *   sleepers N      prints "ready PID" once all N threads run; exits on
 *                   SIGTERM or SIGINT
 */
#include <config.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long n;
	pthread_attr_t attr;
	sigset_t sigs;
	char *end;
	int sig;

	if (argc != 2 || (n = strtoul(argv[1], &end, 10)) > 100000 || *end) {
		fprintf(stderr, "usage: sleepers N (0 to 100000)\n");
		return 2;
	}
	/* the threads inherit the mask: only main takes the signal */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	pthread_attr_init(&attr);
	/* small stacks: 1,000 threads must not need 8 GiB of address space */
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (unsigned long i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &attr, sleeper, NULL)) {
			perror("sleepers: pthread_create");
			return 1;
		}
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sigwait(&sigs, &sig);
	return 0;
}
