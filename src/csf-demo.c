// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csf-demo.c - a workload for csftop: registered threads that each spend
 * their time in one way, named so that COMM says which.
 *
 *   spin         runs all the time                       -> RUN
 *   sleep        nanosleep loops                         -> SLEEP
 *   iowait       O_DIRECT reads (or fdatasync loops)     -> IOW
 *   contend-a/b  two spinners pinned to one CPU          -> RUN and RUNQ
 *   mutex-a/b    one mutex, held in turns                -> RUN and SLEEP
 *   idle-N       --idle N threads that only sleep        (for benchmarks)
 *
 * Every thread calls csf_thread_snap() in its loop: the first call
 * registers it, the later ones are what a real program would do.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "i18n.h"

#define PROGRAM "csf-demo"
#define IO_FILE_SIZE (16u << 20)	/* larger than a read-ahead window */
#define IO_BLOCK 4096u

static volatile int stop;
static const char *io_path;
static unsigned int registered, failed;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t shared_mutex = PTHREAD_MUTEX_INITIALIZER;
static int contend_cpu;

static void note_registration(int err)
{
	pthread_mutex_lock(&count_lock);
	if (err)
		failed++;
	else
		registered++;
	pthread_mutex_unlock(&count_lock);
}

static void snap(void)
{
	struct csf_snap s;

	csf_thread_snap(&s);
}

/* Name, register; the name first so the page's comm is right at once. */
static int start(const char *name)
{
	struct csf_snap s;
	int err;

	pthread_setname_np(pthread_self(), name);
	err = csf_thread_snap(&s);
	note_registration(err);
	return err;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin_for(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end && !stop)
		;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}


static void *sleep_thread(void *arg)
{
	(void)arg;
	if (start("sleep"))
		return NULL;
	while (!stop) {
		sleep_ms(10);
		snap();
	}
	return NULL;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* spin, or contend-a/b: two spinners on one CPU, each waiting on the
 * runqueue half the time */
static void *spin_thread(void *arg)
{
	const char *name = arg;

	if (start(name))
		return NULL;
	if (strcmp(name, "spin"))
		pin(contend_cpu);
	while (!stop) {
		spin_for(1000000);
		snap();
	}
	return NULL;
}

static void *mutex_thread(void *arg)
{
	if (start((const char *)arg))
		return NULL;
	while (!stop) {
		pthread_mutex_lock(&shared_mutex);
		spin_for(200000);	/* hold it: the other one waits */
		pthread_mutex_unlock(&shared_mutex);
		snap();
		sched_yield();
	}
	return NULL;
}

static void *idle_thread(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "idle-%u", (unsigned int)(uintptr_t)arg);
	if (start(name))
		return NULL;
	while (!stop) {
		sleep_ms(200);
		snap();
	}
	return NULL;
}

/*
 * I/O wait needs I/O the thread waits for: O_DIRECT reads of a file or
 * block device bypass the page cache, so every read goes to the device.
 * tmpfs and some filesystems refuse O_DIRECT: then fdatasync() of fresh
 * writes, which waits for the device where there is one (on tmpfs it does
 * not wait at all, and csftop honestly shows no I/O wait).
 */
static int io_open_direct(const char *path, off_t *size)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	off_t end;

	if (fd < 0)
		return -1;
	end = lseek(fd, 0, SEEK_END);
	if (end < (off_t)IO_BLOCK) {
		close(fd);
		return -1;
	}
	*size = end;
	return fd;
}

static int io_make_file(const char *path)
{
	char *buf = malloc(1 << 16);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	memset(buf, 0x5a, 1 << 16);
	for (unsigned int off = 0; off < IO_FILE_SIZE; off += 1 << 16)
		if (write(fd, buf, 1 << 16) != 1 << 16)
			break;
	fsync(fd);
	free(buf);
	return fd;
}

static void *io_thread(void *arg)
{
	char tmp[PATH_MAX];
	const char *path = io_path;
	int fd, made = 0;
	off_t size = 0;
	void *buf;
	unsigned int seed = 1;

	(void)arg;
	if (start("iowait"))
		return NULL;
	if (posix_memalign(&buf, IO_BLOCK, IO_BLOCK))
		return NULL;
	if (!path) {
		const char *dir = getenv("TMPDIR");

		/* /var/tmp is on disk more often than /tmp */
		snprintf(tmp, sizeof(tmp), "%s/csf-demo.%d",
			 dir ? dir : "/var/tmp", (int)getpid());
		path = tmp;
		fd = io_make_file(path);
		if (fd < 0) {
			snprintf(tmp, sizeof(tmp), "/tmp/csf-demo.%d",
				 (int)getpid());
			fd = io_make_file(path);
		}
		if (fd >= 0) {
			made = 1;
			close(fd);
		}
	}
	fd = io_open_direct(path, &size);
	if (fd >= 0) {
		uint64_t blocks = (uint64_t)size / IO_BLOCK;

		while (!stop) {
			off_t off = (off_t)(rand_r(&seed) % blocks) * IO_BLOCK;

			if (pread(fd, buf, IO_BLOCK, off) < 0)
				break;
			snap();
		}
	} else {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		while (fd >= 0 && !stop) {
			memset(buf, 0x33, IO_BLOCK);
			if (pwrite(fd, buf, IO_BLOCK, 0) < 0 || fdatasync(fd))
				sleep_ms(10);
			snap();
		}
	}
	if (fd >= 0)
		close(fd);
	if (made)
		unlink(path);
	free(buf);
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, _("Usage: %s [OPTION]...\n"), PROGRAM);
	fputs(_("Run registered threads that spin, sleep, wait for I/O, "
		"contend for one CPU\nand ping-pong a mutex, for csftop to "
		"show.\n\n"), f);
	fputs(_("  -t, --seconds=N    stop after N seconds (default: until "
		"killed)\n"), f);
	fputs(_("  -i, --idle=N       also start N threads that only sleep\n"),
	      f);
	fputs(_("  -f, --io-file=PATH read PATH with O_DIRECT (a file or a "
		"block device);\n                     default: a scratch file "
		"in $TMPDIR or /var/tmp\n"), f);
	fputs(_("  -h, --help         display this help and exit\n"), f);
	fputs(_("  -V, --version      output version information and exit\n"),
	      f);
}

/* @arg as a count up to @max in *@v: 0, or -1 when it is none. */
static int parse_count(const char *arg, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(arg, &end, 10);
	return errno || *end || !*arg || *arg == '-' || *v > max ? -1 : 0;
}

/* The options into *@seconds and *@idle: -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, unsigned long *seconds,
		      unsigned long *idle)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 't' },
		{ "idle", required_argument, NULL, 'i' },
		{ "io-file", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	while ((ch = getopt_long(argc, argv, "t:i:f:hV", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 't':
			if (parse_count(optarg, ULONG_MAX, seconds)) {
				fprintf(stderr, _("%s: invalid number of "
						  "seconds '%s'\n"), PROGRAM,
					optarg);
				return 2;
			}
			break;
		case 'i':
			if (parse_count(optarg, 100000, idle)) {
				fprintf(stderr, _("%s: invalid number of "
						  "threads '%s'\n"), PROGRAM,
					optarg);
				return 2;
			}
			break;
		case 'f':
			io_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("%s (%s) %s\n", PROGRAM, PACKAGE_NAME,
			       PACKAGE_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	return -1;
}

/* The workload's threads and @idle sleepers, in @threads: how many. */
static size_t start_threads(pthread_t *threads, unsigned long idle)
{
	static const char *const pair_names[] = { "contend-a", "contend-b",
						  "mutex-a", "mutex-b" };
	size_t n = 0;

	if (!pthread_create(&threads[n], NULL, spin_thread, (void *)"spin"))
		n++;
	if (!pthread_create(&threads[n], NULL, sleep_thread, NULL))
		n++;
	if (!pthread_create(&threads[n], NULL, io_thread, NULL))
		n++;
	for (int i = 0; i < 2; i++)
		if (!pthread_create(&threads[n], NULL, spin_thread,
				    (void *)pair_names[i]))
			n++;
	for (int i = 2; i < 4; i++)
		if (!pthread_create(&threads[n], NULL, mutex_thread,
				    (void *)pair_names[i]))
			n++;
	for (unsigned long i = 0; i < idle; i++) {
		/* small stacks: --idle 1000 must not need 8 GiB of VM */
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		if (!pthread_create(&threads[n], &attr, idle_thread,
				    (void *)(uintptr_t)i))
			n++;
		pthread_attr_destroy(&attr);
	}
	return n;
}

int main(int argc, char **argv)
{
	unsigned long seconds = 0, idle = 0;
	pthread_t *threads;
	size_t nthreads;
	struct csf_snap s;
	sigset_t sigs;
	int status, err;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
	status = parse_args(argc, argv, &seconds, &idle);
	if (status >= 0)
		return status;

	/* no module: say so once, before starting anything */
	pthread_setname_np(pthread_self(), "csf-demo");
	err = csf_thread_snap(&s);
	if (err) {
		fprintf(stderr, "%s: %s\n", PROGRAM, csf_strerror(err));
		return 1;
	}
	contend_cpu = sched_getcpu() > 0 ? sched_getcpu() : 0;

	/* the threads get SIGINT/SIGTERM blocked; main waits for them */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	threads = calloc(8 + idle, sizeof(*threads));
	if (!threads)
		return 1;
	nthreads = start_threads(threads, idle);

	sleep_ms(100);
	pthread_mutex_lock(&count_lock);
	printf(_("%s: pid %d, %u threads registered (%u failed); watch "
		 "them with: csftop -p %d\n"), PROGRAM, (int)getpid(),
	       registered + 1, failed, (int)getpid());
	pthread_mutex_unlock(&count_lock);
	fflush(stdout);

	if (seconds)
		alarm((unsigned int)seconds);
	for (;;) {
		int sig;

		if (!sigwait(&sigs, &sig))
			break;
	}
	stop = 1;
	for (size_t i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	return 0;
}
