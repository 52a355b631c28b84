// SPDX-License-Identifier: MIT
/*
 * bench_snap - what a per-thread "where did my time go" read costs, side by
 * side in one run: csf_thread_snap against its limit (the bare sequence
 * counter copy of the same bytes with the clock read, what any reader of
 * the page must do), the clock reads and the syscalls people use today.
 *
 *   bench_snap [--fake[=counter|mono]] [-n ITERATIONS]
 *
 * With the module mounted (or $CSF_ROOT pointing at it) csf_thread_snap
 * reads the real page.  With --fake it reads a page-shaped regular file in
 * a temporary CSF_ROOT instead: the same memory reads, no module needed,
 * so the read path can be measured on any host.  The fake page announces
 * the CPU's counter (the TSC on x86-64, CNTVCT_EL0 on arm64: what the
 * module uses where the kernel lets user space read it) unless
 * --fake=mono asks for the CLOCK_MONOTONIC path.  Figures are per call,
 * the best of five rounds, so that a stray preemption does not count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "internal.h"
#include "tests/unit/fake_root.h"

static long iterations = 1000000;
static int proc_fd = -1;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Defeats dead-code elimination of the measured reads. */
static volatile uint64_t sink;

/* The counter as the library reads it, and its name for the tables. */
#if defined(__x86_64__) || defined(__i386__)
#define COUNTER_READ	"rdtsc"
#elif defined(__aarch64__)
#define COUNTER_READ	"isb; mrs cntvct_el0"
#else
#define COUNTER_READ	"clock_gettime"
#endif
#define COUNTER_CLOCK	(CSF_CLOCK_COUNTER ? CSF_CLOCK_COUNTER : CSF_CLOCK_MONO)

static inline uint64_t counter(void)
{
	return CSF_CLOCK_COUNTER ? csf_counter() : now_ns();
}

/*
 * The limit: the sequence-counter copy of the bytes a snapshot takes (the
 * page from state to comm) into the caller's snapshot, with the clock read
 * inside it, and nothing else: no thread-local page, no check of the
 * clock, no arithmetic.  The thread's own page, mapped a second time.  Out
 * of line and called as csf_thread_snap() is, so that both pay a call.
 */
static const struct csf_thread_page *limit_page;

#define SNAP_FIRST offsetof(struct csf_thread_page, state)
#define SNAP_BYTES (offsetof(struct csf_thread_page, reserved) - SNAP_FIRST)

__attribute__((noinline)) static void limit_read(struct csf_snap *snap)
{
	const struct csf_thread_page *p = limit_page;
	uint32_t seq;
	uint64_t now;

	_Static_assert(SNAP_BYTES <= sizeof(*snap), "a snapshot holds them");
	do {
		seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
		memcpy(snap, (const char *)p + SNAP_FIRST, SNAP_BYTES);
		now = counter();
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) ||
		 __atomic_load_n(&p->seq, __ATOMIC_RELAXED) != seq);
	snap->now = now;
}

static void do_limit(void)
{
	struct csf_snap s;

	limit_read(&s);
	sink += s.time[0];
}

static int map_limit_page(void)
{
	char path[4096];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/thread-self", csf_root());
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	limit_page = p;
	return 0;
}

static void do_snap(void)
{
	struct csf_snap s;

	csf_thread_snap(&s);
	sink += s.time[0];
}

static void do_counter(void)
{
	sink += counter();
}

#if defined(__x86_64__) || defined(__i386__)

static void do_rdtscp(void)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	sink += lo;
}
#endif

static void do_csf_rdtsc(void)
{
	sink += csf_rdtsc();
}

static void do_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	sink += ts.tv_nsec;
}

static void do_thread_cputime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	sink += ts.tv_nsec;
}

static void do_getrusage(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	sink += ru.ru_nvcsw;
}

static void do_schedstat(void)
{
	char buf[128];

	sink += pread(proc_fd, buf, sizeof(buf), 0);
}

static double per_call_ns(void (*fn)(void), long n)
{
	double best = 1e30;
	int round;
	long i;

	for (round = 0; round < 5; round++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < n; i++)
			fn();
		double ns = (double)(now_ns() - t0) / n;

		if (ns < best)
			best = ns;
	}
	return best;
}

static void usage(FILE *f, const char *argv0)
{
	fprintf(f,
		"Usage: %s [--fake[=counter|mono]] [-n ITERATIONS]\n"
		"Cost per call of csf_thread_snap next to the CPU's counter,\n"
		"clock_gettime, getrusage and /proc/thread-self/schedstat, in one run.\n"
		"  --fake[=CLOCK] read a page-shaped file instead of the module,\n"
		"                 on the counter (default: " COUNTER_READ ";\n"
		"                 tsc names it too) or the mono clock\n"
		"  -n ITERATIONS  calls per round of the cheap reads (default 1000000)\n",
		argv0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fake", optional_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct csf_snap s;
	uint32_t fake = 0;
	int c, err;
	double snap, base, limit;

	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			/* "tsc" as before, on x86-64 */
			if (!optarg || !strcmp(optarg, "counter") ||
			    !strcmp(optarg, "tsc")) {
				fake = COUNTER_CLOCK;
			} else if (!strcmp(optarg, "mono")) {
				fake = CSF_CLOCK_MONO;
			} else {
				fprintf(stderr, "%s: --fake=%s: expected counter or mono\n",
					argv[0], optarg);
				return 2;
			}
			break;
		case 'n':
			iterations = strtol(optarg, NULL, 10);
			if (iterations < 1000) {
				fprintf(stderr, "%s: -n %s: at least 1000\n",
					argv[0], optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (fake) {
		struct csf_cpu_header h;
		struct csf_thread_page tp;
		const char *root = fake_root_new();

		fake_cpu_header(&h, 1, fake);
		fake_write_cpu(root, &h, NULL);
		fake_thread_page(&tp, fake_gettid());
		tp.clock = fake;
		fake_write_thread(root, "thread-self", &tp);
	}
	err = csf_thread_snap(&s);
	if (err) {
		fprintf(stderr, "%s: %s\n", argv[0], csf_strerror(err));
		return 1;
	}
	proc_fd = open("/proc/thread-self/schedstat", O_RDONLY);

	printf("# per call, best of 5 rounds; page: %s, clock: %s\n",
	       fake ? "page-shaped file (--fake)" : csf_root(),
	       csf_clock_name(csf_clock()));
	err = map_limit_page();
	if (err) {
		fprintf(stderr, "%s: thread-self: %s\n", argv[0], strerror(-err));
		return 1;
	}
	/* interleaved rounds, the best of each: the ratio side by side */
	snap = limit = 1e30;
	for (int r = 0; r < 7; r++) {
		double v = per_call_ns(do_snap, iterations);

		if (v < snap)
			snap = v;
		v = per_call_ns(do_limit, iterations);
		if (v < limit)
			limit = v;
	}
	printf("%-40s %9.1f ns\n", "csf_thread_snap", snap);
	printf("%-40s %9.1f ns\n", "the limit: seqcount copy + counter", limit);
	base = per_call_ns(do_counter, iterations);
	printf("%-40s %9.1f ns\n", COUNTER_READ, base);
#if defined(__x86_64__) || defined(__i386__)
	printf("%-40s %9.1f ns\n", "rdtscp", per_call_ns(do_rdtscp, iterations));
#endif
	printf("%-40s %9.1f ns\n", "csf_rdtsc",
	       per_call_ns(do_csf_rdtsc, iterations));
	printf("%-40s %9.1f ns\n", "clock_gettime(CLOCK_MONOTONIC)",
	       per_call_ns(do_mono, iterations));
	double cpu = per_call_ns(do_thread_cputime, iterations / 10);

	printf("%-40s %9.1f ns\n", "clock_gettime(CLOCK_THREAD_CPUTIME_ID)",
	       cpu);
	printf("%-40s %9.1f ns\n", "getrusage(RUSAGE_THREAD)",
	       per_call_ns(do_getrusage, iterations / 10));
	if (proc_fd >= 0)
		printf("%-40s %9.1f ns\n", "pread /proc/thread-self/schedstat",
		       per_call_ns(do_schedstat, iterations / 100));
	printf("# csf_thread_snap / the limit: %.2fx (target <= 1.25x); "
	       "/ " COUNTER_READ ": %.2fx; "
	       "CLOCK_THREAD_CPUTIME_ID / csf_thread_snap: %.0fx (target >= 50x)\n",
	       snap / limit, snap / base, cpu / snap);
	return 0;
}
