/* SPDX-License-Identifier: MIT */
/* vmtest.c - helpers of the guest test programs; see vmtest.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "vmtest.h"

const char *vm_env(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

long vm_env_long(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 0) : def;
}

const char *vm_root(void)
{
	return vm_env("CSF_ROOT", CSF_DEFAULT_ROOT);
}

const char *vm_path(const char *name)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s", vm_root(), name);
	return buf;
}

const char *vm_thread_path(pid_t tid)
{
	char name[32];

	snprintf(name, sizeof(name), "threads/%d", (int)tid);
	return vm_path(name);
}

bool vm_once_per_boot(void)
{
	const char *modes = vm_env("CSF_VM_MODES", "");
	const char *clock = vm_env("CSF_CLOCK", "");
	size_t n = strlen(clock);

	modes += strspn(modes, " ");
	return !*modes ||
	       (!strncmp(modes, clock, n) && (modes[n] == ' ' || !modes[n]));
}

long vm_slow(void)
{
	long slow = vm_env_long("CSF_VM_SLOW", 1);

	return slow > 1 ? slow : 1;
}

uint32_t vm_expected_clock(void)
{
	const char *c = vm_env("CSF_CLOCK", "auto");

	if (!strcmp(c, "tsc"))
		return CSF_CLOCK_TSC;
	if (!strcmp(c, "cntvct"))
		return CSF_CLOCK_CNTVCT;
	if (!strcmp(c, "mono"))
		return CSF_CLOCK_MONO;
	return 0;
}

void vm_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("  note: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
}

void vm_cpu_map(struct vm_cpu_page *p)
{
	struct stat st;
	void *m;

	p->fd = open(vm_path("cpu"), O_RDONLY | O_CLOEXEC);
	ck_assert_msg(p->fd >= 0, "open %s: %s", vm_path("cpu"), strerror(errno));
	ck_assert_msg(fstat(p->fd, &st) == 0, "fstat: %s", strerror(errno));
	ck_assert_msg(st.st_size >= (off_t)sizeof(struct csf_cpu_header),
		      "cpu file size %lld is smaller than its header",
		      (long long)st.st_size);
	p->len = (size_t)st.st_size;
	m = mmap(NULL, p->len, PROT_READ, MAP_SHARED, p->fd, 0);
	ck_assert_msg(m != MAP_FAILED, "mmap cpu (%zu bytes): %s", p->len,
		      strerror(errno));
	p->hdr = m;
	ck_assert_msg(p->hdr->magic == CSF_CPU_MAGIC, "cpu magic %#x",
		      p->hdr->magic);
	ck_assert_msg(p->hdr->abi_major == CSF_ABI_MAJOR, "abi_major %u",
		      p->hdr->abi_major);
	ck_assert_msg((uint64_t)p->hdr->header_size +
		      (uint64_t)p->hdr->nr_cpus * p->hdr->record_size <= p->len,
		      "records (%u + %u * %u bytes) beyond the file (%zu)",
		      p->hdr->header_size, p->hdr->nr_cpus,
		      p->hdr->record_size, p->len);
}

void vm_cpu_unmap(struct vm_cpu_page *p)
{
	if (p->hdr)
		munmap((void *)p->hdr, p->len);
	if (p->fd >= 0)
		close(p->fd);
	p->hdr = NULL;
	p->fd = -1;
}

const struct csf_cpu_record *vm_cpu_record(const struct vm_cpu_page *p,
					   unsigned int cpu)
{
	ck_assert_uint_lt(cpu, p->hdr->nr_cpus);
	return (const void *)((const char *)p->hdr + p->hdr->header_size +
			      (size_t)cpu * p->hdr->record_size);
}

static inline uint32_t load_seq(const uint32_t *seq)
{
	return __atomic_load_n(seq, __ATOMIC_ACQUIRE);
}

void vm_cpu_read(const struct vm_cpu_page *p, unsigned int cpu,
		 struct vm_cpu_sample *s)
{
	const struct csf_cpu_record *r = vm_cpu_record(p, cpu);
	uint32_t clock = p->hdr->clock;
	uint32_t seq;
	unsigned long tries = 0;
	int i;

	/* The scheduler's part, under seq. */
	do {
		ck_assert_msg(++tries < 100000000UL,
			      "cpu %u: seq stuck odd (%u)", cpu, r->seq);
		seq = load_seq(&r->seq);
		if (seq & 1)
			continue;
		s->state = r->state;
		s->state_since = r->state_since;
		for (i = 0; i < CSF_CPU_NR_STATES; i++)
			s->time[i] = r->time[i];
		s->nr_switches = r->nr_switches;
		s->now = vm_clock_now(clock);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || load_seq(&r->seq) != seq);

	ck_assert_msg(s->state < CSF_CPU_NR_STATES, "cpu %u: state %u", cpu,
		      s->state);
	/* Clock reads of two CPUs may be a few ticks apart: clamp at 0. */
	if (s->now > s->state_since)
		s->time[s->state] += s->now - s->state_since;

	/* The stat timer's part, under stat_seq. */
	tries = 0;
	do {
		ck_assert_msg(++tries < 100000000UL,
			      "cpu %u: stat_seq stuck odd (%u)", cpu,
			      r->stat_seq);
		seq = load_seq(&r->stat_seq);
		if (seq & 1)
			continue;
		s->online = r->online;
		s->stat_time = r->stat_time;
		for (i = 0; i < CSF_STAT_NR; i++)
			s->stat[i] = r->stat[i];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((seq & 1) || load_seq(&r->stat_seq) != seq);
}

uint64_t vm_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t vm_clock_now(uint32_t clock)
{
#if defined(__x86_64__) || defined(__i386__)
	if (clock == CSF_CLOCK_TSC) {
		uint32_t lo, hi;

		__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
		return ((uint64_t)hi << 32) | lo;
	}
#elif defined(__aarch64__)
	if (clock == CSF_CLOCK_CNTVCT) {
		uint64_t v;

		__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
		return v;
	}
#endif
	return vm_mono_ns();
}

uint64_t vm_ticks_to_ns(const struct csf_cpu_header *h, uint64_t ticks)
{
	return (uint64_t)(((unsigned __int128)ticks * h->clock_mult) >>
			  h->clock_shift);
}

uint64_t vm_wall_ns(const struct csf_cpu_header *h)
{
	if (h->clock == CSF_CLOCK_TSC && (h->flags & CSF_CPU_F_TSC_UNSTABLE))
		return vm_ticks_to_ns(h, vm_clock_now(CSF_CLOCK_TSC));
	return vm_mono_ns();
}

int vm_possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	char buf[256], *s, *tok, *save = NULL;
	int n = 0;

	ck_assert_msg(f != NULL, "/sys/devices/system/cpu/possible: %s",
		      strerror(errno));
	ck_assert(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	for (s = buf; (tok = strtok_r(s, ",\n", &save)); s = NULL) {
		int a, b;

		if (sscanf(tok, "%d-%d", &a, &b) == 2)
			n += b - a + 1;
		else
			n += 1;
	}
	return n;
}

void vm_proc_stat_cpu(unsigned int cpu, struct vm_proc_cpu *out)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512], name[32];
	long hz = sysconf(_SC_CLK_TCK);
	int found = 0;

	ck_assert(f != NULL);
	snprintf(name, sizeof(name), "cpu%u ", cpu);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[CSF_STAT_NR] = { 0 };
		int i;

		if (strncmp(line, name, strlen(name)))
			continue;
		ck_assert_int_ge(sscanf(line + strlen(name),
					"%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
					&v[0], &v[1], &v[2], &v[3], &v[4],
					&v[5], &v[6], &v[7], &v[8], &v[9]), 8);
		for (i = 0; i < CSF_STAT_NR; i++)
			out->ns[i] = (uint64_t)v[i] * (1000000000u / hz);
		found = 1;
		break;
	}
	fclose(f);
	ck_assert_msg(found, "no cpu%u line in /proc/stat", cpu);
}

uint64_t vm_proc_stat_ctxt(void)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];
	unsigned long long v = 0;
	int found = 0;

	ck_assert(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ctxt %llu", &v) == 1) {
			found = 1;
			break;
		}
	fclose(f);
	ck_assert_msg(found, "no ctxt line in /proc/stat");
	return v;
}

void vm_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ck_assert_msg(sched_setaffinity(0, sizeof(set), &set) == 0,
		      "pin to cpu %d: %s", cpu, strerror(errno));
}

pid_t vm_spinner(int cpu)
{
	pid_t pid = fork();

	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		volatile unsigned long n = 0;

		vm_pin(cpu);
		for (;;)
			n++;
	}
	return pid;
}

void vm_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

void vm_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int vm_as_nobody(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		/*
		 * Changing credentials made the child non-dumpable, which
		 * hands its /proc files and threads/<tid> to root; a
		 * program the user started is dumpable (exec makes it so).
		 */
		if (setgroups(0, NULL) || setgid(VM_NOBODY) ||
		    setuid(VM_NOBODY) || prctl(PR_SET_DUMPABLE, 1)) {
			printf("  note: cannot become uid %d: %s\n", VM_NOBODY,
			       strerror(errno));
			_exit(255);
		}
		fflush(stdout);
		_exit(fn(arg) & 0xff);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int vm_run_tests(const char *name, const TTest *const *tests)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	SRunner *sr;
	int failed;

	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int vm_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

long vm_meminfo_kb(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long v = -1;
	size_t kl = strlen(key);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

int vm_slab_read(struct vm_slab *s, int max)
{
	FILE *f = fopen("/proc/slabinfo", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		long total;

		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%39s %ld %ld %ld", s[n].name, &s[n].active,
			   &total, &s[n].objsize) == 4)
			n++;
	}
	fclose(f);
	return n;
}

void vm_shrink_slabs(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	char p[300];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof(p), "/sys/kernel/slab/%s/shrink",
				 e->d_name);
			vm_write_file(p, "1");
		}
	closedir(d);
}

void __attribute__((noinline)) vm_touch_stack(size_t bytes)
{
	volatile char pad[bytes < 65536 ? bytes : 65536];

	memset((char *)pad, 0, sizeof(pad));
}
