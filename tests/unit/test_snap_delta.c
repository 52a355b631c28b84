// SPDX-License-Identifier: MIT
/*
 * csf_snap_delta() and csf_format_diff(): per-state differences that add
 * up to the wall time, refusal of snapshot pairs that cannot be compared,
 * and the one-line rendering.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "fake_root.h"
#include "unit.h"

static void cpu_clock(uint32_t mult, uint32_t shift)
{
	const char *root = fake_root_default();
	struct csf_cpu_header h;

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	h.clock_mult = mult;
	h.clock_shift = shift;
	fake_write_cpu(root, &h, NULL);
}

static void snap_pair(struct csf_snap *a, struct csf_snap *b)
{
	memset(a, 0, sizeof(*a));
	a->now = 1000000;
	a->registered_at = 10;
	a->tid = 55;
	a->time[0] = 100;
	a->time[1] = 200;
	a->time[2] = 300;
	a->time[3] = 400;
	a->time[4] = 500;
	a->nvcsw = 10;
	a->nivcsw = 20;
	a->wakeups = 30;
	a->migrations = 40;
	a->cpu = 0;
	*b = *a;
}

START_TEST(delta_of_each_field)
{
	struct csf_snap a, b;
	struct csf_delta d;

	cpu_clock(1, 0);
	snap_pair(&a, &b);
	b.now += 1500;
	b.time[0] += 500;
	b.time[1] += 400;
	b.time[2] += 300;
	b.time[3] += 200;
	b.time[4] += 100;
	b.nvcsw += 3;
	b.nivcsw += 2;
	b.wakeups += 2;
	b.migrations += 1;
	b.cpu = 1;

	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.wall_ns, 1500);
	ck_assert_uint_eq(d.run_ns, 500);
	ck_assert_uint_eq(d.runnable_ns, 400);
	ck_assert_uint_eq(d.sleep_ns, 300);
	ck_assert_uint_eq(d.iowait_ns, 200);
	ck_assert_uint_eq(d.blocked_ns, 100);
	ck_assert_uint_eq(d.run_ns + d.runnable_ns + d.sleep_ns +
			  d.iowait_ns + d.blocked_ns, d.wall_ns);
	ck_assert_uint_eq(d.nvcsw, 3);
	ck_assert_uint_eq(d.nivcsw, 2);
	ck_assert_uint_eq(d.wakeups, 2);
	ck_assert_uint_eq(d.migrations, 1);
	ck_assert_uint_eq(d.cpu_before, 0);
	ck_assert_uint_eq(d.cpu_after, 1);
}
END_TEST

START_TEST(parts_sum_to_wall_despite_rounding)
{
	struct csf_snap a, b;
	struct csf_delta d;

	/* one third of a nanosecond per tick: every part rounds down */
	cpu_clock(0x55555555u, 32);
	snap_pair(&a, &b);
	b.now += 6;
	b.time[0] += 1;
	b.time[1] += 1;
	b.time[2] += 1;
	b.time[3] += 1;
	b.time[4] += 2;
	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.wall_ns, 1);
	ck_assert_uint_eq(d.run_ns + d.runnable_ns + d.sleep_ns +
			  d.iowait_ns + d.blocked_ns, d.wall_ns);
}
END_TEST

START_TEST(real_snaps_sum_to_wall)
{
	struct csf_snap a, b;
	struct csf_delta d;

	fake_root_default();	/* RUNNING since now: the open interval */
	ck_assert_int_eq(csf_thread_snap(&a), 0);
	ck_assert_int_eq(csf_thread_snap(&b), 0);
	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.run_ns, d.wall_ns);
	ck_assert_uint_eq(d.runnable_ns + d.sleep_ns + d.iowait_ns +
			  d.blocked_ns, 0);
}
END_TEST

START_TEST(pairs_that_cannot_be_compared)
{
	struct csf_snap a, b;
	struct csf_delta d;
	char buf[CSF_DIFF_BUFSZ];

	cpu_clock(1, 0);
	snap_pair(&a, &b);
	b.now += 10;
	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), 0);
	ck_assert_int_eq(csf_snap_delta(&b, &a, &d), -EINVAL);
	ck_assert_int_eq(csf_format_diff(buf, sizeof(buf), &b, &a), -EINVAL);

	snap_pair(&a, &b);
	b.tid = 56;
	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), -EINVAL);

	snap_pair(&a, &b);
	b.registered_at = 11;	/* same tid, another registration */
	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), -EINVAL);

	snap_pair(&a, &b);
	b.nivcsw--;
	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), -EINVAL);
}
END_TEST

START_TEST(small_state_regression_is_clamped)
{
	struct csf_snap a, b;
	struct csf_delta d;

	/* a's open interval ran a few ticks past b's closed one */
	cpu_clock(1, 0);
	snap_pair(&a, &b);
	b.now += 100;
	b.time[0] -= 3;
	b.time[2] += 103;
	ck_assert_int_eq(csf_snap_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.run_ns, 0);
	ck_assert_uint_eq(d.sleep_ns, 103);
}
END_TEST

static const char expect[] =
	"wall 12.4ms = run 1.20ms + runnable 8.10ms + sleep 0 + "
	"iowait 3.05ms + blocked 0; csw 3 vol/2 invol, 2 wakeups, "
	"1 migration, cpu 0->1";

static void example_pair(struct csf_snap *a, struct csf_snap *b)
{
	snap_pair(a, b);
	b->now += 12350000;
	b->time[CSF_STATE_RUNNING] += 1200000;
	b->time[CSF_STATE_RUNNABLE] += 8100000;
	b->time[CSF_STATE_IOWAIT] += 3050000;
	b->nvcsw += 3;
	b->nivcsw += 2;
	b->wakeups += 2;
	b->migrations += 1;
	b->cpu = 1;
}

START_TEST(format_diff_line)
{
	struct csf_snap a, b;
	char buf[CSF_DIFF_BUFSZ];

	cpu_clock(1, 0);
	example_pair(&a, &b);
	ck_assert_int_eq(csf_format_diff(buf, sizeof(buf), &a, &b),
			 (int)strlen(expect));
	ck_assert_str_eq(buf, expect);
}
END_TEST

START_TEST(format_diff_singular_and_same_cpu)
{
	struct csf_snap a, b;
	char buf[CSF_DIFF_BUFSZ];

	cpu_clock(1, 0);
	snap_pair(&a, &b);
	b.now += 812;
	b.time[CSF_STATE_RUNNING] += 812;
	b.wakeups += 1;
	b.cpu = a.cpu = 1;
	ck_assert_int_gt(csf_format_diff(buf, sizeof(buf), &a, &b), 0);
	ck_assert_str_eq(buf, "wall 812ns = run 812ns + runnable 0 + sleep 0 + "
			 "iowait 0 + blocked 0; csw 0 vol/0 invol, 1 wakeup, "
			 "0 migrations, cpu 1");
}
END_TEST

START_TEST(format_diff_short_buffer_is_enospc)
{
	struct csf_snap a, b;
	char buf[CSF_DIFF_BUFSZ];
	size_t n = strlen(expect);

	cpu_clock(1, 0);
	example_pair(&a, &b);
	ck_assert_int_eq(csf_format_diff(buf, n, &a, &b), -ENOSPC);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(csf_format_diff(buf, 0, &a, &b), -ENOSPC);
	ck_assert_int_eq(csf_format_diff(buf, n + 1, &a, &b), (int)n);
}
END_TEST

START_TEST(diff_bufsz_fits_the_largest_line)
{
	struct csf_snap a, b;
	char buf[CSF_DIFF_BUFSZ];
	unsigned int i;

	cpu_clock(1, 0);
	memset(&a, 0, sizeof(a));
	b = a;
	b.now = UINT64_MAX;
	for (i = 0; i < CSF_NR_STATES; i++)
		b.time[i] = UINT64_MAX / 5;
	b.nvcsw = b.nivcsw = b.wakeups = b.migrations = UINT64_MAX;
	b.cpu = UINT32_MAX;
	a.cpu = UINT32_MAX - 1;
	ck_assert_int_gt(csf_format_diff(buf, sizeof(buf), &a, &b), 0);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		delta_of_each_field,
		parts_sum_to_wall_despite_rounding,
		real_snaps_sum_to_wall,
		pairs_that_cannot_be_compared,
		small_state_regression_is_clamped,
		format_diff_line,
		format_diff_singular_and_same_cpu,
		format_diff_short_buffer_is_enospc,
		diff_bufsz_fits_the_largest_line,
		NULL,
	};

	return unit_run_tests("snap_delta", tests);
}
