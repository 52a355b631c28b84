// SPDX-License-Identifier: MIT
/*
 * test_thread_hist - the shape of the intervals on the real module (ABI
 * 1.1), through the library: sleeps land in their bucket, two spinners on
 * one CPU wait about a timeslice for it, a pipe's writer is its reader's
 * waker, a SCHED_FIFO spinner is named as the preemptor of the thread it
 * pushed off the CPU, and a delta over one operation holds exactly that
 * operation's intervals.
 *
 * Why the tolerances are what they are:
 *  - A sleep ends late, not early: nanosleep() adds the timer slack
 *    (50 us) and the wakeup's latency, and under TCG a vCPU waits for its
 *    turn on qemu's one thread (up to 100 ms, seen), so that any one sleep
 *    may end much later.  The interval in the page starts at the
 *    switch-out, after the timer was armed, so a vCPU held in between
 *    makes it a little shorter than asked.  So of 200 sleeps of 2 ms: at
 *    least 190 are sleeping intervals (a timer that fires before the
 *    thread got off its CPU ends no sleep), more than half of them at
 *    least bucket 11 long ([1.05, 2.10) ms), and their median in bucket
 *    11 or 12 (up to 2.19 ms late).  Not 190 at least bucket 11 long:
 *    on the debug kernel, arming the timer and getting to the switch-out
 *    took over 1 ms for 12 of 200 (CI, 5e25f45).
 *  - Two spinners share a CPU by the fair scheduler's slice, enforced at
 *    the tick: each waits for the other's slice rounded up to whole ticks.
 *    The median wait must be in that length's bucket or one next to it
 *    (half or twice as long): TCG's ticks come late, not early, but a
 *    late tick also makes the next slice start late.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

static void hist_ok(struct csf_hist *h)
{
	int err = csf_thread_hist(h);

	ck_assert_msg(err == 0, "csf_thread_hist: %s", csf_strerror(err));
}

static void delta_ok(const struct csf_hist *a, const struct csf_hist *b,
		     struct csf_hist *d)
{
	ck_assert_int_eq(csf_hist_delta(a, b, d), 0);
}

static uint64_t total(const struct csf_hist *h, unsigned int state)
{
	uint64_t n = 0;

	for (int b = 0; b < CSF_HIST_BUCKETS; b++)
		n += h->count[state][b];
	return n;
}

static void note_hist(const char *what, const struct csf_hist *h,
		      unsigned int state)
{
	char line[400];
	int n = 0;

	for (int b = 0; b < CSF_HIST_BUCKETS; b++)
		if (h->count[state][b])
			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      " b%d:%llu", b,
				      (unsigned long long)h->count[state][b]);
	line[n] = '\0';
	vm_note("%s %s:%s", what, csf_state_name(state), line);
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

START_TEST(sleeps_of_2_ms_land_in_their_bucket)
{
	struct csf_hist a, b, d;
	uint64_t n, early = 0, p50;

	if (!vm_once_per_boot())
		return;
	hist_ok(&a);
	for (int i = 0; i < 200; i++)
		vm_sleep_ms(2);
	hist_ok(&b);
	delta_ok(&a, &b, &d);
	note_hist("200 sleeps of 2 ms,", &d, CSF_STATE_SLEEPING);
	n = total(&d, CSF_STATE_SLEEPING);
	for (int k = 0; k < 11; k++)
		early += d.count[CSF_STATE_SLEEPING][k];
	ck_assert_uint_ge(n, 190);
	ck_assert_uint_le(n, 200);
	ck_assert_uint_ge(n - early, n / 2 + 1);
	p50 = csf_hist_quantile(&d, CSF_HIST_STATE(CSF_STATE_SLEEPING), 0.5);
	ck_assert_msg(p50 >= CSF_HIST_UPPER_NS(10) &&
		      p50 < CSF_HIST_UPPER_NS(12),
		      "median sleep %llu ns", (unsigned long long)p50);
	/* the longest: at least 2 ms, and known, waits[] or the record */
	ck_assert_uint_ge(csf_hist_quantile(&d,
					    CSF_HIST_STATE(CSF_STATE_SLEEPING),
					    1.0), 2000000);
}
END_TEST

/* debugfs at its usual place; already there is as good. */
static void mount_debugfs(void)
{
	if (mount("none", "/sys/kernel/debug", "debugfs", 0, NULL) &&
	    errno != EBUSY)
		vm_note("mount debugfs: %s", strerror(errno));
}

/* The fair scheduler's slice for two equal tasks, in ns, or 0. */
static uint64_t fair_slice_ns(void)
{
	char buf[64];
	FILE *f;

	/* EEVDF (6.6 on): every task's request is the base slice */
	f = fopen("/sys/kernel/debug/sched/base_slice_ns", "r");
	if (f) {
		uint64_t v = fgets(buf, sizeof(buf), f) ? strtoull(buf, NULL, 10)
							 : 0;

		fclose(f);
		return v;
	}
	/* CFS: the latency period, shared by the two */
	f = fopen("/sys/kernel/debug/sched/latency_ns", "r");
	if (f) {
		uint64_t v = fgets(buf, sizeof(buf), f) ? strtoull(buf, NULL, 10)
							 : 0;

		fclose(f);
		return v / 2;
	}
	return 0;
}

static unsigned int bucket_of(uint64_t ns)
{
	unsigned int b = 0;

	while (b + 1 < CSF_HIST_BUCKETS && ns >= CSF_HIST_UPPER_NS(b))
		b++;
	return b;
}

static volatile int spin_stop;

struct spinner {
	struct csf_hist span;		/* its histograms while it spun */
	int err;			/* or a negative errno */
};

/*
 * No libcheck call in here: every assertion that passes takes a mutex of
 * libcheck's, and waiting for it while the other spinner holds it is a
 * sleep (seen on 7.3-rt, where it failed "never asleep").
 */
static void *spin_pinned(void *arg)
{
	struct spinner *sp = arg;
	struct csf_hist a, b;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(1, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		sp->err = -errno;
		return NULL;
	}
	sp->err = csf_thread_hist(&a);
	while (!spin_stop)
		;
	if (!sp->err)
		sp->err = csf_thread_hist(&b);
	if (!sp->err)
		sp->err = csf_hist_delta(&a, &b, &sp->span);
	return NULL;
}

START_TEST(two_spinners_wait_a_timeslice)
{
	struct timespec tick;
	uint64_t slice, expect, p50;
	struct spinner sp[2] = { 0 };
	pthread_t t[2];
	unsigned int b, run;

	if (!vm_once_per_boot())
		return;
	/* debugfs has the slice; it may not be mounted yet */
	mount_debugfs();
	slice = fair_slice_ns();
	ck_assert_msg(slice > 0, "no sched base_slice_ns or latency_ns in debugfs");
	/* a coarse clock's resolution is the tick */
	ck_assert_int_eq(clock_getres(CLOCK_MONOTONIC_COARSE, &tick), 0);
	expect = ((slice + (uint64_t)tick.tv_nsec - 1) / (uint64_t)tick.tv_nsec) *
		 (uint64_t)tick.tv_nsec;
	spin_stop = 0;
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, spin_pinned, &sp[i]),
				 0);
	vm_sleep_ms(1000);
	spin_stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	vm_note("slice %llu ns, tick %ld ns: each waits %llu ns (bucket %u)",
		(unsigned long long)slice, tick.tv_nsec,
		(unsigned long long)expect, bucket_of(expect));
	for (int i = 0; i < 2; i++) {
		const struct csf_hist *d = &sp[i].span;

		ck_assert_msg(!sp[i].err, "spinner: %s", csf_strerror(sp[i].err));
		note_hist("a spinner,", d, CSF_STATE_RUNNABLE);
		ck_assert_uint_ge(total(d, CSF_STATE_RUNNABLE), 10);
		p50 = csf_hist_quantile(d,
					CSF_HIST_STATE(CSF_STATE_RUNNABLE), 0.5);
		b = bucket_of(p50);
		/*
		 * At least a slice, to the tick; how much longer depends on
		 * when ticks arrive, which TCG may delay, so the bound above
		 * is the kernel's own: each wait of one is a run of the
		 * other on their one CPU.
		 */
		ck_assert_msg(b + 1 >= bucket_of(expect),
			      "median wait %llu ns, bucket %u; expected bucket %u",
			      (unsigned long long)p50, b, bucket_of(expect));
		run = bucket_of(csf_hist_quantile(&sp[1 - i].span,
				CSF_HIST_STATE(CSF_STATE_RUNNING), 0.5));
		ck_assert_msg(b <= run + 1 && run <= b + 1,
			      "median wait in bucket %u, the other's median run in %u",
			      b, run);
		/* spinning: never asleep */
		ck_assert_uint_eq(total(d, CSF_STATE_SLEEPING), 0);
	}
}
END_TEST

struct pipe_pair {
	int fd[2];
	pid_t writer_tid;
	struct csf_hist after;
	int err;
};

static void *pipe_reader(void *arg)
{
	struct pipe_pair *p = arg;
	struct csf_hist h;
	char c;

	/* registered before it waits */
	p->err = csf_thread_hist(&h);
	if (!p->err && read(p->fd[0], &c, 1) != 1)
		p->err = -EIO;
	if (!p->err)
		p->err = csf_thread_hist(&p->after);
	return NULL;
}

START_TEST(a_pipe_writer_wakes_its_reader)
{
	struct pipe_pair p = { .err = 0 };
	pthread_t r;
	char comm[16];

	ck_assert_int_eq(pipe(p.fd), 0);
	snprintf(comm, sizeof(comm), "pipe-writer");
	ck_assert_int_eq(pthread_setname_np(pthread_self(), comm), 0);
	p.writer_tid = gettid_();
	ck_assert_int_eq(pthread_create(&r, NULL, pipe_reader, &p), 0);
	vm_sleep_ms(100);		/* the reader blocks in read() */
	ck_assert_int_eq(write(p.fd[1], "x", 1), 1);
	pthread_join(r, NULL);
	ck_assert_msg(p.err == 0, "reader: %s", csf_strerror(p.err));
	vm_note("waker %u '%s'", p.after.waker.tid, p.after.waker.comm);
	ck_assert_uint_eq(p.after.waker.tid, (uint32_t)p.writer_tid);
	ck_assert_str_eq(p.after.waker.comm, "pipe-writer");
	close(p.fd[0]);
	close(p.fd[1]);
}
END_TEST

struct fifo_run {
	volatile int done;
	volatile pid_t tid;
	uint64_t from, to;		/* ticks: while it spun */
};

static void *fifo_spinner(void *arg)
{
	struct fifo_run *f = arg;
	uint64_t end;

	pthread_setname_np(pthread_self(), "fifo-spinner");
	f->tid = gettid_();
	/* waking from this takes CPU 1 from the thread spinning there */
	vm_sleep_ms(10);
	f->from = csf_rdtsc();
	end = vm_mono_ns() + 20000000;
	while (vm_mono_ns() < end)
		;
	f->to = csf_rdtsc();
	f->done = 1;
	return NULL;
}

/* SCHED_FIFO @prio on CPU 1, as this thread's policy or @attr's. */
static void fifo_on_cpu1(pthread_attr_t *attr, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(1, &one);
	if (!attr) {
		vm_pin(1);
		ck_assert_int_eq(pthread_setschedparam(pthread_self(),
						       SCHED_FIFO, &sp), 0);
		return;
	}
	ck_assert_int_eq(pthread_attr_init(attr), 0);
	ck_assert_int_eq(pthread_attr_setinheritsched(attr,
						      PTHREAD_EXPLICIT_SCHED), 0);
	ck_assert_int_eq(pthread_attr_setschedpolicy(attr, SCHED_FIFO), 0);
	ck_assert_int_eq(pthread_attr_setschedparam(attr, &sp), 0);
	ck_assert_int_eq(pthread_attr_setaffinity_np(attr, sizeof(one), &one),
			 0);
}

START_TEST(a_fifo_spinner_is_named_the_preemptor)
{
	pthread_attr_t attr;
	int tries;

	/*
	 * This thread spins on CPU 1 at SCHED_FIFO 10, so that only a task of
	 * a higher real-time priority can take the CPU from it: the spinner,
	 * at 20, or on PREEMPT_RT an interrupt thread (50).  Such a one after
	 * the spinner is no error: the round is run again.
	 */
	fifo_on_cpu1(NULL, 10);
	fifo_on_cpu1(&attr, 20);
	for (tries = 0; tries < 5; tries++) {
		struct fifo_run f = { 0 };
		struct csf_hist h;
		pthread_t t;

		hist_ok(&h);
		ck_assert_int_eq(pthread_create(&t, &attr, fifo_spinner, &f), 0);
		while (!f.done)
			;
		hist_ok(&h);
		pthread_join(t, NULL);
		vm_note("preemptor %u '%s' at %llu; the spinner %d spun %llu..%llu",
			h.preemptor.tid, h.preemptor.comm,
			(unsigned long long)h.preemptor.at, (int)f.tid,
			(unsigned long long)f.from, (unsigned long long)f.to);
		if (h.preemptor.tid == (uint32_t)f.tid) {
			ck_assert_str_eq(h.preemptor.comm, "fifo-spinner");
			ck_assert_uint_le(h.preemptor.at, f.from);
			break;
		}
		/* someone else, after the spinner ran: again */
		ck_assert_msg(h.preemptor.at > f.to,
			      "the spinner was not named, and nobody after it");
	}
	pthread_attr_destroy(&attr);
	ck_assert_int_lt(tries, 5);
}
END_TEST

/*
 * The thread's snapshot and histograms at one point: a snapshot on each
 * side of the read, again until no interval closed in between.
 */
static void read_both(struct csf_snap *snap, struct csf_hist *h)
{
	struct csf_snap after;

	do {
		ck_assert_int_eq(csf_thread_snap(snap), 0);
		hist_ok(h);
		ck_assert_int_eq(csf_thread_snap(&after), 0);
	} while (after.state_since != snap->state_since);
}

/*
 * What the operation's delta must hold, exactly: every wakeup closed one
 * sleep, every switch-out (voluntary or not, the kernel's own counts)
 * closed a time on the CPU, and every wait is in waits[] too.  How many
 * of five 1 ms nanosleeps sleep is not fixed: a timer that fires before
 * the thread got off its CPU (a held vCPU) ends no sleep.
 */
START_TEST(a_delta_holds_the_operation)
{
	struct csf_snap sa, sb;
	struct csf_hist a, b, d;
	uint64_t off = 0, asleep;
	unsigned int n = 0;

	read_both(&sa, &a);
	for (int i = 0; i < 5; i++)
		vm_sleep_ms(1);
	read_both(&sb, &b);
	delta_ok(&a, &b, &d);
	note_hist("5 sleeps of 1 ms,", &d, CSF_STATE_SLEEPING);
	asleep = total(&d, CSF_STATE_SLEEPING) + total(&d, CSF_STATE_IOWAIT) +
		 total(&d, CSF_STATE_BLOCKED);
	ck_assert_uint_eq(asleep, sb.wakeups - sa.wakeups);
	ck_assert_uint_le(total(&d, CSF_STATE_SLEEPING), 5);
	ck_assert_uint_eq(total(&d, CSF_STATE_RUNNING),
			  sb.nvcsw - sa.nvcsw + sb.nivcsw - sa.nivcsw);
	for (unsigned int s = CSF_STATE_RUNNABLE; s < CSF_NR_STATES; s++)
		off += total(&d, s);
	ck_assert_uint_eq(b.nr_waits - a.nr_waits, off);
	/* the delta keeps the span's waits, all of them (fewer than 32) */
	for (unsigned int i = 0; i < CSF_WAITS; i++)
		if (d.waits[i].end) {
			ck_assert_uint_gt(d.waits[i].end, a.now);
			n++;
		}
	ck_assert_uint_eq(n, off);
	if (total(&d, CSF_STATE_SLEEPING)) {
		ck_assert_uint_eq(d.max_known &
				  CSF_HIST_STATE(CSF_STATE_SLEEPING),
				  CSF_HIST_STATE(CSF_STATE_SLEEPING));
		ck_assert_uint_ge(d.max_ns[CSF_STATE_SLEEPING], 1000000);
	}
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		sleeps_of_2_ms_land_in_their_bucket,
		two_spinners_wait_a_timeslice,
		a_pipe_writer_wakes_its_reader,
		a_fifo_spinner_is_named_the_preemptor,
		a_delta_holds_the_operation,
		NULL,
	};

	return vm_run_tests("thread_hist", tests);
}
