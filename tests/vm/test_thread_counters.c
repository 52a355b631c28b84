// SPDX-License-Identifier: MIT
/*
 * test_thread_counters - context switches, wakeups and migrations of a
 * thread's page agree with what the kernel reports in /proc.
 */
#define _GNU_SOURCE
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

static void snap_ok(struct csf_snap *s)
{
	int err = csf_thread_snap(s);

	ck_assert_msg(err == 0, "csf_thread_snap: %s", csf_strerror(err));
}

/* A "name: value" line of /proc/thread-self/<file>. */
static unsigned long long proc_field(const char *file, const char *name)
{
	char path[64], line[256];
	size_t n = strlen(name);
	unsigned long long v = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/thread-self/%s", file);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		if (strncmp(p, name, n))
			continue;
		p += n;
		while (*p == ' ' || *p == '\t' || *p == ':')
			p++;
		v = strtoull(p, NULL, 10);
		found = 1;
		break;
	}
	fclose(f);
	ck_assert_msg(found, "%s has no %s", path, name);
	return v;
}

static void spin_ms(unsigned int ms)
{
	uint64_t end = vm_mono_ns() + ms * 1000000ull;

	while (vm_mono_ns() < end)
		;
}

/*
 * The page publishes the task's own nvcsw/nivcsw (since registration) at
 * each switch-out, and /proc prints them live.  Read between two
 * snapshots that show no switch, /proc must be exactly the page plus the
 * counts at registration; retry the read when a switch came in between.
 * Read with no spinner on the CPU: on the debug kernel a /proc read takes
 * longer than the spinner's slice, and 1000 tries beside it all failed.
 */
struct proc_counts {
	unsigned long long v, i;
	struct csf_snap s;
};

static void read_between_snaps(struct proc_counts *pc)
{
	struct csf_snap c;
	int tries = 0;

	do {
		ck_assert_msg(tries++ < 1000,
			      "no read of /proc without a switch in 1000 tries");
		snap_ok(&pc->s);
		pc->v = proc_field("status", "voluntary_ctxt_switches");
		pc->i = proc_field("status", "nonvoluntary_ctxt_switches");
		snap_ok(&c);
	} while (c.nvcsw != pc->s.nvcsw || c.nivcsw != pc->s.nivcsw);
}

START_TEST(switches_match_proc_status)
{
	struct proc_counts a, b;
	struct csf_snap reg;
	pid_t spinner;
	int i;

	snap_ok(&reg);		/* registers */
	vm_pin(0);
	read_between_snaps(&a);
	spinner = vm_spinner(0);	/* forces involuntary switches */
	for (i = 0; i < 20; i++) {
		vm_sleep_ms(5);
		spin_ms(15);
	}
	vm_kill(spinner);
	read_between_snaps(&b);

	vm_note("page: %llu vol %llu invol; proc: %llu vol %llu invol",
		(unsigned long long)(b.s.nvcsw - a.s.nvcsw),
		(unsigned long long)(b.s.nivcsw - a.s.nivcsw), b.v - a.v,
		b.i - a.i);
	/*
	 * About one voluntary switch per sleep, plus the wait for the
	 * spinner's death; none for a sleep whose timer fired while the
	 * spinner had preempted us before we blocked (do_nanosleep() then
	 * does not schedule): so only "some" of each kind is asserted.
	 */
	ck_assert_uint_gt(b.s.nvcsw - a.s.nvcsw, 0);
	ck_assert_uint_gt(b.s.nivcsw - a.s.nivcsw, 0);
	ck_assert_uint_eq(b.v - a.v, b.s.nvcsw - a.s.nvcsw);
	ck_assert_uint_eq(b.i - a.i, b.s.nivcsw - a.s.nivcsw);
}
END_TEST

/*
 * A nanosleep that leaves the CPU is one voluntary switch and one wakeup.
 * One whose timer fires before it reaches schedule() (its vCPU stalled for
 * the whole 10 ms) is neither: ttwu_runnable() only sets it running again.
 * So the two counts are equal, and the kernel's own says how many left.
 */
START_TEST(wakeups_match_sleeps)
{
	struct csf_snap a, b;
	struct rusage r0, r1;
	int i;

	snap_ok(&a);
	snap_ok(&a);
	ck_assert_int_eq(getrusage(RUSAGE_THREAD, &r0), 0);
	for (i = 0; i < 25; i++)
		vm_sleep_ms(10);
	snap_ok(&b);
	ck_assert_int_eq(getrusage(RUSAGE_THREAD, &r1), 0);
	vm_note("%llu of 25 sleeps left the CPU",
		(unsigned long long)(b.nvcsw - a.nvcsw));
	ck_assert_uint_gt(b.nvcsw - a.nvcsw, 0);
	ck_assert_uint_le(b.nvcsw - a.nvcsw, 25);
	ck_assert_uint_eq(b.wakeups - a.wakeups, b.nvcsw - a.nvcsw);
	ck_assert_uint_eq(r1.ru_nvcsw - r0.ru_nvcsw, b.nvcsw - a.nvcsw);
}
END_TEST

/* Moving the thread with sched_setaffinity() is a migration each time. */
START_TEST(affinity_moves_are_migrations)
{
	unsigned long long m0, m1;
	struct csf_snap a, b;
	int i, moves = 10;

	ck_assert_int_ge(vm_possible_cpus(), 2);
	snap_ok(&a);
	vm_pin(0);
	snap_ok(&a);
	ck_assert_uint_eq(a.cpu, 0);
	m0 = proc_field("sched", "se.nr_migrations");
	for (i = 1; i <= moves; i++)
		vm_pin(i % 2);
	snap_ok(&b);
	m1 = proc_field("sched", "se.nr_migrations");
	ck_assert_uint_eq(b.cpu, moves % 2);
	ck_assert_uint_ge(b.migrations - a.migrations, moves);
	vm_note("page: %llu migrations; /proc sched: %llu",
		(unsigned long long)(b.migrations - a.migrations), m1 - m0);
	ck_assert_uint_eq(b.migrations - a.migrations, m1 - m0);
}
END_TEST

/* The page names its thread. */
START_TEST(identity)
{
	struct csf_snap s;
	char comm[16];

	ck_assert_int_eq(pthread_setname_np(pthread_self(), "csf-ident"), 0);
	snap_ok(&s);
	vm_sleep_ms(1);		/* comm is refreshed at switch-out */
	snap_ok(&s);
	ck_assert_uint_eq(s.tid, (uint32_t)gettid());
	ck_assert_uint_eq(s.tgid, (uint32_t)getpid());
	memcpy(comm, s.comm, sizeof(comm));
	comm[15] = '\0';
	ck_assert_str_eq(comm, "csf-ident");
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		switches_match_proc_status,
		wakeups_match_sleeps,
		affinity_moves_are_migrations,
		identity,
		NULL,
	};

	return vm_run_tests("thread_counters", tests);
}
