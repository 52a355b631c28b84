// SPDX-License-Identifier: MIT
/*
 * test_thread_states - a thread's time lands in the right bucket: running,
 * runnable, sleeping, iowait, blocked; the buckets add up to the wall time
 * exactly; and no total read by a monitor goes back at the next read.
 *
 * Tolerances: the guest runs under TCG on a shared 2-core host, so a vCPU
 * can lose its host CPU for a while; in the guest that shows up as the
 * thread still "running".  Bounds below are loose on the side the host can
 * disturb and strict on the side only a module bug can reach (e.g. a
 * spinner must not be seen sleeping).
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

static void snap_ok(struct csf_snap *s)
{
	int err = csf_thread_snap(s);

	ck_assert_msg(err == 0, "csf_thread_snap: %s", csf_strerror(err));
}

static void delta_ok(const struct csf_snap *a, const struct csf_snap *b,
		     struct csf_delta *d)
{
	char line[CSF_DIFF_BUFSZ];

	ck_assert_int_eq(csf_snap_delta(a, b, d), 0);
	ck_assert_int_gt(csf_format_diff(line, sizeof(line), a, b), 0);
	vm_note("%s", line);
}

static uint64_t parts(const struct csf_delta *d)
{
	return d->run_ns + d->runnable_ns + d->sleep_ns + d->iowait_ns +
	       d->blocked_ns;
}

/* The kernel keeps sum(totals) + open interval == now - registered_at. */
static void assert_sum_is_wall(const struct csf_delta *d)
{
	uint64_t sum = parts(d);
	uint64_t diff = sum > d->wall_ns ? sum - d->wall_ns : d->wall_ns - sum;

	/* Five tick-to-ns roundings at most. */
	ck_assert_msg(diff <= 5, "parts %llu ns != wall %llu ns",
		      (unsigned long long)sum, (unsigned long long)d->wall_ns);
}

static void spin_ms(unsigned int ms)
{
	uint64_t end = vm_mono_ns() + ms * 1000000ull;

	while (vm_mono_ns() < end)
		;
}

START_TEST(spinning_is_running)
{
	struct csf_snap a, b;
	struct csf_delta d;

	snap_ok(&a);
	spin_ms(300);
	snap_ok(&b);
	delta_ok(&a, &b, &d);
	assert_sum_is_wall(&d);
	ck_assert_uint_ge(d.wall_ns, 300000000ull);
	/* Never asleep; the rest is preemption by guest housekeeping. */
	ck_assert_uint_eq(d.sleep_ns + d.iowait_ns + d.blocked_ns, 0);
	ck_assert_uint_ge(d.run_ns, d.wall_ns * 7 / 10);
	ck_assert_uint_eq(d.nvcsw, 0);
	ck_assert_uint_eq(b.state, CSF_STATE_RUNNING);
}
END_TEST

START_TEST(sleeping_is_sleeping)
{
	struct csf_snap a, b;
	struct csf_delta d;

	snap_ok(&a);
	vm_sleep_ms(200);
	snap_ok(&b);
	delta_ok(&a, &b, &d);
	assert_sum_is_wall(&d);
	ck_assert_uint_ge(d.sleep_ns, 190000000ull);
	ck_assert_uint_ge(d.sleep_ns, d.wall_ns * 8 / 10);
	ck_assert_uint_eq(d.iowait_ns + d.blocked_ns, 0);
	ck_assert_uint_eq(d.wakeups, 1);
	ck_assert_uint_eq(d.nvcsw, 1);
}
END_TEST

struct contender {
	pthread_barrier_t *start;
	struct csf_delta d;
	int err;
};

static void *contend(void *arg)
{
	struct contender *c = arg;
	struct csf_snap a, b;

	vm_pin(0);
	c->err = csf_thread_snap(&a);
	pthread_barrier_wait(c->start);
	spin_ms(600);
	if (!c->err)
		c->err = csf_thread_snap(&b);
	if (!c->err)
		c->err = csf_snap_delta(&a, &b, &c->d);
	return NULL;
}

/* Two spinners pinned to one CPU: each waits for the CPU about half the time. */
START_TEST(contending_is_runnable)
{
	pthread_barrier_t start;
	struct contender c[2];
	pthread_t t[2];
	int i;

	memset(c, 0, sizeof(c));
	pthread_barrier_init(&start, NULL, 2);
	for (i = 0; i < 2; i++) {
		c[i].start = &start;
		ck_assert_int_eq(pthread_create(&t[i], NULL, contend, &c[i]), 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++) {
		const struct csf_delta *d = &c[i].d;

		ck_assert_msg(!c[i].err, "%s", csf_strerror(c[i].err));
		vm_note("contender %d: wall %llu run %llu runnable %llu", i,
			(unsigned long long)d->wall_ns,
			(unsigned long long)d->run_ns,
			(unsigned long long)d->runnable_ns);
		assert_sum_is_wall(d);
		/* Half each in theory; CFS slices are a few ms, 600 ms is many. */
		ck_assert_uint_ge(d->runnable_ns, d->wall_ns / 4);
		ck_assert_uint_ge(d->run_ns, d->wall_ns / 4);
		ck_assert_uint_ge(d->run_ns + d->runnable_ns, d->wall_ns * 9 / 10);
		ck_assert_uint_gt(d->nivcsw, 0);
	}
}
END_TEST

/*
 * O_DIRECT reads from the virtio disk wait in io_schedule() unless the
 * request completes before the reader gets there, which nothing rules
 * out: on a loaded host qemu finished all of 64 reads that way once.  So
 * read in rounds of 64 until a wait shows (5 s at most): a wait that is
 * not counted as I/O wait still fails, after the 5 s.
 */
START_TEST(direct_io_is_iowait)
{
	const char *disk = vm_env("CSF_VM_DISK", "/dev/vda");
	uint64_t end = vm_mono_ns() + 5000000000ull;
	struct csf_snap a, b;
	struct csf_delta d;
	int fd, i = 0, j;
	void *buf;

	fd = open(disk, O_RDONLY | O_DIRECT);
	ck_assert_msg(fd >= 0, "open %s: %s", disk, strerror(errno));
	ck_assert_int_eq(posix_memalign(&buf, 4096, 4096), 0);
	snap_ok(&a);
	do {
		for (j = 0; j < 64; j++, i++)
			ck_assert_int_eq(pread(fd, buf, 4096,
					       (off_t)(i * 7919 % 1024) * 4096),
					 4096);
		snap_ok(&b);
		delta_ok(&a, &b, &d);
	} while (d.iowait_ns == 0 && vm_mono_ns() < end);
	close(fd);
	free(buf);
	vm_note("%d direct reads: iowait %llu ns, %llu wakeups", i,
		(unsigned long long)d.iowait_ns,
		(unsigned long long)d.wakeups);
	assert_sum_is_wall(&d);
	ck_assert_uint_gt(d.iowait_ns, 0);
	ck_assert_uint_ge(d.wakeups, 1);
	ck_assert_uint_eq(d.blocked_ns, 0);
}
END_TEST

/*
 * The parent of vfork() waits killable, not interruptible and not for I/O,
 * until the child exits: blocked.
 */
START_TEST(vfork_parent_is_blocked)
{
	struct csf_snap a, b;
	struct csf_delta d;
	int status;
	pid_t pid;

	snap_ok(&a);
	pid = vfork();
	if (pid == 0) {
		struct timespec ts = { 0, 200000000 };

		nanosleep(&ts, NULL);
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	snap_ok(&b);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	delta_ok(&a, &b, &d);
	assert_sum_is_wall(&d);
	ck_assert_uint_ge(d.blocked_ns, 150000000ull);
	ck_assert_uint_eq(d.sleep_ns + d.iowait_ns, 0);
}
END_TEST

struct racer {
	int in, out;		/* pipe ends */
	int cpu;
	struct csf_snap a, b;
	int err;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	char c = 0;
	int i;

	vm_pin(r->cpu);
	r->err = csf_thread_snap(&r->a);
	for (i = 0; i < 5000 && !r->err; i++) {
		if (r->cpu == 0 && write(r->out, &c, 1) != 1)
			r->err = -EIO;
		if (read(r->in, &c, 1) != 1)
			r->err = -EIO;
		if (r->cpu == 1 && write(r->out, &c, 1) != 1)
			r->err = -EIO;
	}
	if (!r->err)
		r->err = csf_thread_snap(&r->b);
	return NULL;
}

/*
 * Two registered threads on two CPUs bounce a byte: each wakeup races with
 * its target going to sleep, so the scheduler often wakes a thread that
 * has not got off its CPU yet (ttwu_runnable) or delivers events of one
 * task on two CPUs at once.  The rule (see kmod/thread.c) keeps the
 * totals exact and counts a wakeup only where a sleep ended.
 */
START_TEST(racing_wakeups_keep_the_rule)
{
	struct racer r[2];
	int ab[2], ba[2], i;
	pthread_t t[2];

	ck_assert_int_ge(vm_possible_cpus(), 2);
	ck_assert_int_eq(pipe(ab), 0);
	ck_assert_int_eq(pipe(ba), 0);
	memset(r, 0, sizeof(r));
	r[0] = (struct racer){ .in = ba[0], .out = ab[1], .cpu = 0 };
	r[1] = (struct racer){ .in = ab[0], .out = ba[1], .cpu = 1 };
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, race, &r[i]), 0);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++) {
		struct csf_delta d;

		ck_assert_msg(!r[i].err, "%s", csf_strerror(r[i].err));
		ck_assert_int_eq(csf_snap_delta(&r[i].a, &r[i].b, &d), 0);
		vm_note("racer %d: %llu wakeups, %llu vol %llu invol switches, sleep %llu ns of %llu",
			i, (unsigned long long)d.wakeups,
			(unsigned long long)d.nvcsw,
			(unsigned long long)d.nivcsw,
			(unsigned long long)d.sleep_ns,
			(unsigned long long)d.wall_ns);
		assert_sum_is_wall(&d);
		/*
		 * No signals here, so every voluntary switch-out was a sleep,
		 * and each sleep was ended by exactly one counted wakeup;
		 * a wakeup that raced ahead of the switch-out counts nothing.
		 */
		ck_assert_uint_eq(d.wakeups, d.nvcsw);
		ck_assert_uint_gt(d.wakeups, 0);
		/*
		 * No I/O, so no iowait.  Blocked time is allowed: a racer
		 * that writes a pipe while the other reads it may sleep
		 * uninterruptibly on the pipe's mutex (240 us seen once in
		 * a soak, 6.12-rt, whose mutexes are rtmutexes).
		 */
		ck_assert_uint_eq(d.iowait_ns, 0);
	}
}
END_TEST

/* Since registration, at every read: sum of totals == now - registered_at. */
START_TEST(totals_add_up_since_registration)
{
	struct csf_snap s;
	uint64_t sum = 0;
	int i;

	snap_ok(&s);
	vm_sleep_ms(20);
	spin_ms(20);
	snap_ok(&s);
	for (i = 0; i < CSF_NR_STATES; i++)
		sum += s.time[i];
	/* A clock read racing the kernel's is not extrapolated backwards. */
	ck_assert_uint_eq(sum, (s.now > s.state_since ? s.now : s.state_since) -
			       s.registered_at);
}
END_TEST

struct yielder {
	_Atomic pid_t tid;
	_Atomic int stop;
	int err;
};

static void *yield_loop(void *arg)
{
	struct yielder *y = arg;
	struct csf_snap s;

	vm_pin(0);
	y->err = csf_thread_snap(&s);
	y->tid = (pid_t)s.tid;
	while (!y->stop)
		sched_yield();
	return NULL;
}

/*
 * The most any of @n totals read as @was fell when read again as @v, in
 * ns, or @worst if more.
 */
static uint64_t worst_fall(const struct csf_cpu_header *h, uint64_t worst,
			   const uint64_t *was, const uint64_t *v, int n)
{
	for (int k = 0; k < n; k++)
		if (v[k] < was[k] && vm_ticks_to_ns(h, was[k] - v[k]) > worst)
			worst = vm_ticks_to_ns(h, was[k] - v[k]);
	return worst;
}

/*
 * Two threads yield to each other on CPU 0, so every few microseconds a
 * switch closes an interval of each and of CPU 0's record, while this
 * thread, on CPU 1, reads their pages and CPU 0 between sleeps of 20 us.
 * Under qemu's single-threaded TCG each of its wake-ups stops CPU 0 at
 * whatever instruction it was at, inside a switch too.  No read may see a
 * total that a later read sees lower: a writer stamps a switch only once
 * the page's count is odd, so no reader extends a state past the stamp
 * (csf.h).  Stamping first, a reader that came between stamp and write
 * did, by as long as the writer's vCPU stayed stopped there.  What is
 * allowed is the two clocks' own disagreement in mono mode, the kernel's
 * fast monotonic clock against the vDSO's: 1 us is far above it.
 */
START_TEST(totals_never_go_back_between_reads)
{
	struct yielder y[2];
	struct csf_thread_map *map[2];
	struct csf_snap last[2], s;
	struct csf_cpu_snap clast[2], c[2];
	struct vm_cpu_page p;
	pthread_t t[2];
	uint64_t worst = 0, reads = 0, switches = 0, first;
	const struct timespec gap = { 0, 20000 };
	int i;

	vm_cpu_map(&p);
	memset(y, 0, sizeof(y));
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, yield_loop, &y[i]),
				 0);
	vm_pin(1);
	for (i = 0; i < 2; i++) {
		while (!y[i].tid)
			vm_sleep_ms(1);
		ck_assert_msg(!y[i].err, "%s", csf_strerror(y[i].err));
		ck_assert_int_eq(csf_thread_map(y[i].tid, &map[i]), 0);
		ck_assert_int_eq(csf_thread_read(map[i], &last[i]), 0);
	}
	ck_assert_int_eq(csf_cpu_snap(clast, 2), 2);
	first = last[0].nvcsw + last[0].nivcsw;
	/* by count, not by time: a slow kernel takes longer, not fewer */
	while (reads < 3000 || switches < 3000) {
		for (i = 0; i < 2; i++) {
			ck_assert_int_eq(csf_thread_read(map[i], &s), 0);
			worst = worst_fall(p.hdr, worst, last[i].time, s.time,
					   CSF_NR_STATES);
			last[i] = s;
		}
		ck_assert_int_eq(csf_cpu_snap(c, 2), 2);
		worst = worst_fall(p.hdr, worst, clast[0].time, c[0].time,
				   CSF_CPU_NR_STATES);
		memcpy(clast, c, sizeof(c));
		reads++;
		switches = last[0].nvcsw + last[0].nivcsw - first;
		nanosleep(&gap, NULL);
	}
	for (i = 0; i < 2; i++) {
		y[i].stop = 1;
		pthread_join(t[i], NULL);
		csf_thread_unmap(map[i]);
	}
	vm_note("%llu reads, %llu switches of one yielder, worst fall %llu ns",
		(unsigned long long)reads, (unsigned long long)switches,
		(unsigned long long)worst);
	ck_assert_uint_le(worst, 1000);
	vm_cpu_unmap(&p);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		spinning_is_running,
		sleeping_is_sleeping,
		contending_is_runnable,
		direct_io_is_iowait,
		vfork_parent_is_blocked,
		totals_add_up_since_registration,
		racing_wakeups_keep_the_rule,
		totals_never_go_back_between_reads,
		NULL,
	};

	return vm_run_tests("thread_states", tests);
}
