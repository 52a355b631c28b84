// SPDX-License-Identifier: MIT
/*
 * seed - the usage example of the design brief, as written, in a program:
 * an operation that is usually fast and sometimes slow, and one line that
 * says where the time of a slow one went.
 *
 *   seed [ROUNDS]
 *
 * Every fourth operation sleeps 3 ms and every seventh writes and fsyncs
 * a temporary file (slow where /tmp is a disk, fast on tmpfs); the others
 * spin for 100 µs.  Operations over 1 ms are reported.  Build it outside the tree with
 *   cc -I/path/to/coarse_stat_fs -I/path/to/coarse_stat_fs/include seed.c \
 *      -lcoarse_stat_fs
 * so that "lib/coarse_stat_fs.h" resolves, or against the installed copy
 * with pkg-config (see README).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "lib/coarse_stat_fs.h"

static int scratch = -1;

static void op(void)
{
	static int i;

	i++;
	if (i % 4 == 0) {
		struct timespec ts = { 0, 3000000 };

		nanosleep(&ts, NULL);
	} else if (i % 7 == 0 && scratch >= 0) {
		if (pwrite(scratch, "x", 1, 0) != 1 || fsync(scratch))
			perror("seed: fsync");
	} else {
		uint64_t end = csf_rdtsc() + csf_ns_to_ticks(100000);

		while (csf_rdtsc() < end)
			;
	}
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/csf-seed-XXXXXX";
	int rounds = argc > 1 ? atoi(argv[1]) : 16;
	struct csf_snap first;
	uint64_t slow;
	int i, err;

	/* The first snapshot registers the thread: the one call that can fail. */
	err = csf_thread_snap(&first);
	if (err) {
		fprintf(stderr, "seed: %s\n", csf_strerror(err));
		return 1;
	}
	slow = csf_ns_to_ticks(1000000);	/* 1 ms */
	scratch = mkstemp(path);
	if (scratch >= 0)
		unlink(path);

	for (i = 0; i < rounds; i++) {
		/* --- the seed, verbatim --- */
		struct csf_snap before, after;
		char buf[CSF_DIFF_BUFSZ];

		csf_thread_snap(&before);            /* ~16 ns, no syscall */
		uint64_t t0 = csf_rdtsc();
		op();
		if (csf_rdtsc() - t0 > slow) {
			csf_thread_snap(&after);
			csf_format_diff(buf, sizeof(buf), &before, &after);
			puts(buf);                   /* wall, cpu, runnable, sleep, iowait, csw... */
		}
		/* --- end of the seed --- */
	}
	return 0;
}
