// SPDX-License-Identifier: MIT
/*
 * The sequence-counter read never returns a torn copy: a writer thread
 * rewrites a page as the kernel does (seq odd, fields, seq even) with every
 * field equal to one counter, while the reader checks that every snapshot
 * has all fields equal, through the thread's own snap, the monitor read
 * and the cpu record.  And it never hangs: a record whose seq stays odd
 * makes each reader give up with -EAGAIN after the documented bound (one
 * second), while a writer that is merely slow is waited for.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fake_root.h"
#include "unit.h"

/*
 * Bounded by time, not by a count of reads: on a loaded machine the
 * writer can be preempted with seq odd (the kernel's writer cannot), and
 * the reader then spins for the rest of a time slice.
 */
#define RUN_NS 1000000000ull

static int stop;

static void *map_rw(const char *root, const char *name, size_t len)
{
	char path[4200];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	close(fd);
	return p;
}

/* write_seqcount_begin/end: the release fences are the kernel's smp_wmb */
static void seq_begin(uint32_t *seq)
{
	__atomic_store_n(seq, *seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void seq_end(uint32_t *seq)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(seq, *seq + 1, __ATOMIC_RELAXED);
}

#define W(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/*
 * A breath between updates, as the scheduler leaves between switches: a
 * writer that never stops would keep the reader retrying forever, which
 * is the protocol working, not a test of it.
 */
static void writer_pause(void)
{
	volatile unsigned int i;

	for (i = 0; i < 200; i++)
		;
}

static void *thread_writer(void *arg)
{
	struct csf_thread_page *w = arg;
	uint64_t c;
	unsigned int i;

	for (c = 1; !__atomic_load_n(&stop, __ATOMIC_RELAXED); c++) {
		seq_begin(&w->seq);
		for (i = 0; i < CSF_NR_STATES; i++)
			W(w->time[i], c);
		W(w->nvcsw, c);
		W(w->nivcsw, c);
		W(w->wakeups, c);
		W(w->migrations, c);
		W(w->state_since, c);
		W(w->cpu, (uint32_t)c);
		seq_end(&w->seq);
		writer_pause();
	}
	return NULL;
}

static int torn(const struct csf_snap *s)
{
	uint64_t c = s->time[0];
	unsigned int i;

	for (i = 1; i < CSF_NR_STATES; i++)
		if (s->time[i] != c)
			return 1;
	return s->nvcsw != c || s->nivcsw != c || s->wakeups != c ||
	       s->migrations != c || s->state_since != c ||
	       s->cpu != (uint32_t)c;
}

START_TEST(thread_page_is_never_torn)
{
	const char *root = fake_root_default();
	struct csf_thread_map *m;
	struct csf_thread_page p, *w;
	struct csf_snap s;
	uint64_t last = 0, seen = 0, end;
	unsigned long bad = 0, i;
	char path[4200], link_path[4200];
	pthread_t t;

	/* EXITED: no extrapolation, so every field must read the counter */
	fake_thread_page(&p, 9);
	p.state = CSF_STATE_EXITED;
	p.state_since = 0;
	p.cpu = 0;
	fake_write_thread(root, "thread-self", &p);
	/* the monitor's view of the very same page */
	snprintf(path, sizeof(path), "%s/thread-self", root);
	snprintf(link_path, sizeof(link_path), "%s/threads/9", root);
	ck_assert_int_eq(link(path, link_path), 0);

	w = map_rw(root, "thread-self", (size_t)sysconf(_SC_PAGESIZE));
	ck_assert_int_eq(csf_thread_map(9, &m), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, thread_writer, w), 0);

	end = fake_mono_ns() + RUN_NS;
	for (i = 0; fake_mono_ns() < end; i++) {
		if (i & 1)
			ck_assert_int_eq(csf_thread_read(m, &s), 0);
		else
			ck_assert_int_eq(csf_thread_snap(&s), 0);
		bad += torn(&s);
		bad += s.time[0] < last;	/* and never older */
		seen += s.time[0] != last;
		last = s.time[0];
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	csf_thread_unmap(m);

	ck_assert_msg(bad == 0, "%lu torn or backward copies of %lu",
		      bad, i);
	/* the test means something only if the writer was seen at work */
	ck_assert_uint_gt(seen, 1);
}
END_TEST

static void *cpu_writer(void *arg)
{
	struct csf_cpu_record *r = arg;
	uint64_t c;
	unsigned int i;

	for (c = 1; !__atomic_load_n(&stop, __ATOMIC_RELAXED); c++) {
		seq_begin(&r->seq);
		for (i = 0; i < CSF_CPU_NR_STATES; i++)
			W(r->time[i], c);
		W(r->nr_switches, c);
		seq_end(&r->seq);

		seq_begin(&r->stat_seq);
		for (i = 0; i < CSF_STAT_NR; i++)
			W(r->stat[i], c);
		W(r->stat_time, c);
		seq_end(&r->stat_seq);
		writer_pause();
	}
	return NULL;
}

START_TEST(cpu_record_is_never_torn)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;
	struct csf_cpu_record r;
	struct csf_cpu_snap s;
	unsigned char *base;
	unsigned long bad = 0, i, j, seen = 0;
	uint64_t last = 0, end;
	pthread_t t;

	fake_cpu_header(&h, 1, CSF_CLOCK_MONO);
	memset(&r, 0, sizeof(r));
	r.state = CSF_CPU_BUSY;
	r.state_since = ~0ull;	/* in the future: nothing extrapolated */
	fake_write_cpu(root, &h, &r);
	base = map_rw(root, "cpu", (size_t)sysconf(_SC_PAGESIZE));
	ck_assert_int_eq(pthread_create(&t, NULL, cpu_writer,
					base + h.header_size), 0);

	end = fake_mono_ns() + RUN_NS;
	for (i = 0; fake_mono_ns() < end; i++) {
		ck_assert_int_eq(csf_cpu_snap(&s, 1), 1);
		for (j = 1; j < CSF_CPU_NR_STATES; j++)
			bad += s.time[j] != s.time[0];
		bad += s.nr_switches != s.time[0];
		for (j = 1; j < CSF_STAT_NR; j++)
			bad += s.stat[j] != s.stat[0];
		bad += s.stat_time != s.stat[0];
		seen += s.time[0] != last;
		last = s.time[0];
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);

	ck_assert_msg(bad == 0, "%lu torn fields in %lu copies", bad, i);
	ck_assert_uint_gt(seen, 1);
}
END_TEST

/* The bound of coarse_stat_fs.h, and how late a loaded machine may be. */
#define BOUND_NS 1000000000ull
#define SLACK_NS 2000000000ull

/* A reader that gave up: neither early nor much later than the bound. */
#define ck_assert_gave_up(expr)						\
	do {								\
		uint64_t t0_ = fake_mono_ns(), dt_;			\
		ck_assert_int_eq((expr), -EAGAIN);			\
		dt_ = fake_mono_ns() - t0_;				\
		ck_assert_uint_ge(dt_, BOUND_NS);			\
		ck_assert_uint_lt(dt_, BOUND_NS + SLACK_NS);		\
	} while (0)

START_TEST(odd_thread_page_gives_up)
{
	const char *root = fake_root_default();
	struct csf_thread_map *m;
	struct csf_thread_page p;
	struct csf_snap s;

	fake_thread_page(&p, 9);
	p.seq = 7;	/* a writer that never finishes */
	fake_write_thread(root, "threads/9", &p);
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_map(9, &m), 0);
	ck_assert_gave_up(csf_thread_read(m, &s));
	ck_assert_gave_up(csf_thread_snap(&s));
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EAGAIN), "update"));
	csf_thread_unmap(m);
}
END_TEST

START_TEST(odd_cpu_record_gives_up)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;
	struct csf_cpu_record r[2];
	struct csf_cpu_snap s[2];

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	memset(r, 0, sizeof(r));
	r[1].stat_seq = 1;	/* the stat timer's half, on the second CPU */
	fake_write_cpu(root, &h, r);
	ck_assert_int_eq(csf_cpu_snap(s, 1), 1);
	ck_assert_gave_up(csf_cpu_snap(s, 2));
}
END_TEST

static void *late_writer(void *arg)
{
	uint32_t *seq = arg;
	struct timespec ts = { 0, 200000000 };

	nanosleep(&ts, NULL);
	seq_end(seq);
	return NULL;
}

START_TEST(slow_writer_is_waited_for)
{
	const char *root = fake_root_default();
	struct csf_thread_map *m;
	struct csf_thread_page p, *w;
	struct csf_snap s;
	pthread_t t;

	fake_thread_page(&p, 9);
	p.seq = 5;
	p.nvcsw = 42;
	fake_write_thread(root, "threads/9", &p);
	w = map_rw(root, "threads/9", (size_t)sysconf(_SC_PAGESIZE));
	ck_assert_int_eq(csf_thread_map(9, &m), 0);
	/* 200 ms with seq odd: longer than any real writer, within the bound */
	ck_assert_int_eq(pthread_create(&t, NULL, late_writer, &w->seq), 0);
	ck_assert_int_eq(csf_thread_read(m, &s), 0);
	ck_assert_uint_eq(s.nvcsw, 42);
	pthread_join(t, NULL);
	csf_thread_unmap(m);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		thread_page_is_never_torn,
		cpu_record_is_never_torn,
		odd_thread_page_gives_up,
		odd_cpu_record_gives_up,
		slow_writer_is_waited_for,
		NULL,
	};

	return unit_run_tests("seqcount_torn", tests);
}
