// SPDX-License-Identifier: MIT
/*
 * The group sums (csf_group_add(3)): a snapshot's totals in nanoseconds,
 * a tree's sums, and the table of exited threads' sums by process, kept
 * sorted, folded per process, never failing with room reserved, and
 * dropping what its caller no longer shows.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "fake_root.h"
#include "unit.h"

static struct csf_group thread(uint32_t tgid, uint64_t run, uint64_t nvcsw)
{
	struct csf_group g = { .tgid = tgid, .nvcsw = nvcsw, .wakeups = 1 };

	g.time_ns[CSF_STATE_RUNNING] = run;
	return g;
}

START_TEST(snapshot_and_tree_sums)
{
	struct csf_snap s = { .tgid = 7, .nvcsw = 3, .nivcsw = 4, .wakeups = 5,
			      .migrations = 6 };
	struct csf_tree tree = { .run_ns = 1000, .nvcsw = 1 };
	struct csf_group g, sum = { .tgid = 7 };

	fake_root_default();		/* MONO: a tick is a nanosecond */
	for (int k = 0; k < CSF_NR_STATES; k++)
		s.time[k] = 100 * (uint64_t)(k + 1);
	g = csf_group_of_snap(&s);
	ck_assert_uint_eq(g.tgid, 7);
	for (int k = 0; k < CSF_NR_STATES; k++)
		ck_assert_uint_eq(g.time_ns[k], 100 * (uint64_t)(k + 1));
	ck_assert_uint_eq(g.nvcsw + g.nivcsw + g.wakeups + g.migrations, 18);
	csf_group_add(&sum, &g);
	csf_group_add(&sum, &g);
	ck_assert_uint_eq(sum.time_ns[CSF_STATE_BLOCKED], 1000);
	ck_assert_uint_eq(sum.migrations, 12);

	csf_tree_add_snap(&tree, &s);
	ck_assert_uint_eq(tree.run_ns, 1100);
	ck_assert_uint_eq(tree.runnable_ns, 200);
	ck_assert_uint_eq(tree.sleep_ns, 300);
	ck_assert_uint_eq(tree.iowait_ns, 400);
	ck_assert_uint_eq(tree.blocked_ns, 500);
	ck_assert_uint_eq(tree.nvcsw, 4);
	ck_assert_uint_eq(tree.migrations, 6);
}
END_TEST

START_TEST(gone_folds_by_process_in_order)
{
	static const uint32_t tgids[] = { 30, 10, 20, 10, 40, 30, 10 };
	struct csf_gone gg = { 0 };
	struct csf_group t;
	const struct csf_group *g;

	for (size_t i = 0; i < sizeof(tgids) / sizeof(tgids[0]); i++) {
		t = thread(tgids[i], 10 * (i + 1), 1);
		ck_assert_int_eq(csf_gone_add(&gg, &t), 0);
	}
	ck_assert_uint_eq(gg.n, 4);
	for (size_t i = 1; i < gg.n; i++)
		ck_assert_uint_lt(gg.v[i - 1].tgid, gg.v[i].tgid);
	g = csf_gone_find(&gg, 10);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->time_ns[CSF_STATE_RUNNING], 20 + 40 + 70);
	ck_assert_uint_eq(g->nvcsw, 3);
	ck_assert_uint_eq(csf_gone_find(&gg, 30)->wakeups, 2);
	ck_assert_ptr_null(csf_gone_find(&gg, 15));
	ck_assert_ptr_null(csf_gone_find(&gg, 41));
	ck_assert_ptr_null(csf_gone_find(&gg, 0));
	csf_gone_clear(&gg);
	ck_assert_uint_eq(gg.n, 0);
	ck_assert_ptr_null(csf_gone_find(&gg, 10));
	csf_gone_free(&gg);
	ck_assert_ptr_null(gg.v);
	ck_assert_uint_eq(gg.cap, 0);
}
END_TEST

START_TEST(gone_reserve_then_add_moves_nothing)
{
	struct csf_gone gg = { 0 };
	struct csf_group *before;
	struct csf_group t;

	ck_assert_int_eq(csf_gone_reserve(&gg, 100), 0);
	ck_assert_uint_ge(gg.cap, 100);
	before = gg.v;
	for (uint32_t i = 100; i > 0; i--) {
		t = thread(i, i, 0);
		ck_assert_int_eq(csf_gone_add(&gg, &t), 0);
	}
	ck_assert_ptr_eq(gg.v, before);
	ck_assert_uint_eq(gg.n, 100);
	ck_assert_int_eq(csf_gone_reserve(&gg, 50), 0);
	ck_assert_ptr_eq(gg.v, before);
	csf_gone_free(&gg);
}
END_TEST

static int even(const void *arg, uint32_t tgid)
{
	ck_assert_ptr_eq(arg, &even);
	return tgid % 2 == 0;
}

START_TEST(gone_copy_and_keep)
{
	struct csf_gone a = { 0 }, b = { 0 };
	struct csf_group t;

	for (uint32_t i = 1; i <= 6; i++) {
		t = thread(i, 100 * i, i);
		ck_assert_int_eq(csf_gone_add(&a, &t), 0);
	}
	ck_assert_int_eq(csf_gone_copy(&b, &a), 0);
	ck_assert_uint_eq(b.n, 6);
	ck_assert_ptr_ne(b.v, a.v);
	ck_assert_int_eq(memcmp(a.v, b.v, 6 * sizeof(*a.v)), 0);
	csf_gone_keep(&b, even, &even);
	ck_assert_uint_eq(b.n, 3);
	ck_assert_uint_eq(b.v[0].tgid, 2);
	ck_assert_uint_eq(b.v[2].time_ns[CSF_STATE_RUNNING], 600);
	ck_assert_ptr_null(csf_gone_find(&b, 3));
	ck_assert_uint_eq(a.n, 6);	/* the copy is its own */
	csf_gone_free(&a);
	csf_gone_free(&b);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		snapshot_and_tree_sums,
		gone_folds_by_process_in_order,
		gone_reserve_then_add_moves_nothing,
		gone_copy_and_keep,
		NULL,
	};

	return unit_run_tests("group", tests);
}
