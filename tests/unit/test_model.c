// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_model.c - csftop's model over synthetic samples: sorting on every
 * column both ways, filters, freeze, diff, rates across counter resets and
 * exited threads.  Deterministic: no pages, no clock, no curses.  Times are
 * CSF_CLOCK_MONO ticks, i.e. nanoseconds, so the conversion is the identity.
 * And the numbers the model's values become (src/fmt.c): byte for byte what
 * printf printed before fmt.c stopped calling it.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/fmt.h"
#include "src/model.h"

#define MS 1000000ull
#define SEC 1000000000ull

static uint64_t ident(uint64_t ticks)
{
	return ticks;
}

static struct csf_snap mk(uint32_t tid, uint32_t tgid, const char *comm,
			  uint64_t now)
{
	struct csf_snap s;

	memset(&s, 0, sizeof(s));
	s.tid = tid;
	s.tgid = tgid;
	s.now = now;
	s.registered_at = 1;
	s.state = CSF_STATE_SLEEPING;
	strncpy(s.comm, comm, sizeof(s.comm) - 1);
	return s;
}

static struct csf_cpu_snap mkcpu(uint64_t now, uint64_t busy, uint64_t idle,
				 uint64_t csw)
{
	struct csf_cpu_snap c;

	memset(&c, 0, sizeof(c));
	c.now = now;
	c.time[CSF_CPU_BUSY] = busy;
	c.time[CSF_CPU_IDLE] = idle;
	c.nr_switches = csw;
	c.online = 1;
	return c;
}

static const struct row *find(const struct screen *s, uint32_t tid)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].snap.tid == tid)
			return &s->rows[i];
	return NULL;
}

/*
 * Five threads whose values differ in every column, in different orders
 * per column (multipliers coprime with 5 permute 0..4), sampled twice one
 * second apart so that shares and rates are defined.
 */
#define NSORT 5
static const char *const sort_names[NSORT] = { "echo", "Charlie", "alpha",
					       "delta", "Bravo" };

static void build_sort_model(struct model *m)
{
	struct csf_snap a[NSORT], b[NSORT];
	static const unsigned int mult[CSF_NR_STATES] = { 1, 2, 3, 4, 6 };
	struct csf_cpu_snap c0 = mkcpu(0, 0, 0, 0);
	struct csf_cpu_snap c1 = mkcpu(SEC, SEC / 2, SEC / 2, 100);

	for (unsigned int k = 0; k < NSORT; k++) {
		a[k] = mk(100 + 7 * k, 50 - 3 * k, sort_names[k], 10 * SEC);
		for (int s = 0; s < CSF_NR_STATES; s++)
			a[k].time[s] = k * 1000 * MS;
		a[k].nvcsw = 1000;
		a[k].nivcsw = 1000;
		b[k] = a[k];
		b[k].now = 11 * SEC;
		for (int s = 0; s < CSF_NR_STATES; s++)
			b[k].time[s] += ((k * mult[s] + s) % 5 + 1) * 10 * MS;
		b[k].nvcsw += ((k * 2) % 5 + 1) * 10;
		b[k].nivcsw += ((k * 3) % 5 + 1) * 7;
		b[k].migrations = (k * 4) % 5 + 1;
		b[k].wakeups = (5 - k) * 3;
		b[k].cpu = (k * 3) % 5;
		b[k].state = (k * 2) % 5;
	}
	model_init(m, ident);
	ck_assert_int_eq(model_sample(m, a, NSORT, &c0, 1, 0), 0);
	ck_assert_int_eq(model_sample(m, b, NSORT, &c1, 1, SEC), 0);
}

static int cmp_col(const struct row *x, const struct row *y, enum col col)
{
	if (col == COL_COMM)
		return strcasecmp(x->snap.comm, y->snap.comm);
	return (row_value(x, col) > row_value(y, col)) -
	       (row_value(x, col) < row_value(y, col));
}

/* One loop iteration per column and direction: 2 * COL_NR tests. */
START_TEST(test_sort_every_column_both_ways)
{
	enum col col = (enum col)(_i / 2);
	int desc = _i % 2;
	struct model m;
	size_t idx[NSORT], rev[NSORT], n;
	const struct screen *s;

	build_sort_model(&m);
	s = model_shown(&m);
	n = model_select(s, NULL, col, desc, idx);
	ck_assert_uint_eq(n, NSORT);
	for (size_t i = 1; i < n; i++) {
		int c = cmp_col(&s->rows[idx[i - 1]], &s->rows[idx[i]], col);

		if (desc)
			ck_assert_msg(c > 0, "column %s desc: rows %zu,%zu",
				      model_cols[col].key, i - 1, i);
		else
			ck_assert_msg(c < 0, "column %s asc: rows %zu,%zu",
				      model_cols[col].key, i - 1, i);
	}
	/* the other direction is the exact reverse */
	ck_assert_uint_eq(model_select(s, NULL, col, !desc, rev), NSORT);
	for (size_t i = 0; i < n; i++)
		ck_assert_uint_eq(idx[i], rev[n - 1 - i]);
	model_free(&m);
}
END_TEST

START_TEST(test_sort_default_is_runnable_descending)
{
	ck_assert_int_eq(COL_DEFAULT_SORT, COL_RUNNABLE_PCT);
	ck_assert_int_eq(model_cols[COL_DEFAULT_SORT].desc_first, 1);
}
END_TEST

START_TEST(test_sort_ties_broken_by_tid)
{
	struct csf_snap s[3] = { mk(30, 1, "x", SEC), mk(10, 1, "x", SEC),
				 mk(20, 1, "x", SEC) };
	struct model m;
	size_t idx[3];

	model_init(&m, ident);
	ck_assert_int_eq(model_sample(&m, s, 3, NULL, 0, 0), 0);
	ck_assert_uint_eq(model_select(model_shown(&m), NULL, COL_COMM, 1,
				       idx), 3);
	ck_assert_uint_eq(model_shown(&m)->rows[idx[0]].snap.tid, 10);
	ck_assert_uint_eq(model_shown(&m)->rows[idx[2]].snap.tid, 30);
	model_free(&m);
}
END_TEST

/*
 * Many rows, values spread over every byte of the keys and full of ties:
 * model_select() must give exactly the order of a comparison sort on
 * row_value() with ties by ascending TID, on every numeric column, both
 * ways, and also on a screen whose rows are not in TID order.
 */
#define NMANY 1500

static int ref_desc;
static enum col ref_col;

static int ref_cmp(const void *pa, const void *pb)
{
	const struct row *a = *(const struct row *const *)pa;
	const struct row *b = *(const struct row *const *)pb;
	double x = row_value(a, ref_col), y = row_value(b, ref_col);
	int c = (x > y) - (x < y);

	if (ref_desc)
		c = -c;
	return c ? c : (a->snap.tid > b->snap.tid) - (a->snap.tid < b->snap.tid);
}

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

static void check_order(const struct screen *s, enum col col, int desc)
{
	static size_t idx[NMANY];
	static const struct row *ref[NMANY];
	size_t n = model_select(s, NULL, col, desc, idx);

	ck_assert_uint_eq(n, s->nrows);
	for (size_t i = 0; i < n; i++)
		ref[i] = &s->rows[i];
	ref_col = col;
	ref_desc = desc;
	qsort(ref, n, sizeof(*ref), ref_cmp);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(&s->rows[idx[i]] == ref[i],
			      "column %s %s: position %zu is tid %u, not %u",
			      model_cols[col].key, desc ? "desc" : "asc", i,
			      s->rows[idx[i]].snap.tid, ref[i]->snap.tid);
}

START_TEST(test_sort_many_rows_matches_comparison_sort)
{
	static struct csf_snap a[NMANY], b[NMANY];
	struct csf_cpu_snap c0 = mkcpu(0, 0, 0, 0);
	struct csf_cpu_snap c1 = mkcpu(SEC, SEC / 2, SEC / 2, 100);
	uint64_t x = 42;
	struct screen shuffled;
	struct model m;

	for (unsigned int k = 0; k < NMANY; k++) {
		/* a third of each value is 0, many repeat, some are huge */
		a[k] = mk(1000 + 3 * k, 1000 + k / 7, "t", 10 * SEC);
		b[k] = a[k];
		b[k].now = 11 * SEC;
		for (int st = 0; st < CSF_NR_STATES; st++) {
			uint64_t v = lcg(&x) % 3 ? lcg(&x) % 5 * 100 * MS : 0;

			if (lcg(&x) % 50 == 0)
				v = lcg(&x) << 20;
			a[k].time[st] = lcg(&x) % 1000 * SEC;
			b[k].time[st] = a[k].time[st] + v;
		}
		b[k].nvcsw = lcg(&x) % 3 ? lcg(&x) % 40 : 0;
		b[k].nivcsw = lcg(&x) % 4 ? lcg(&x) : 0;
		b[k].migrations = lcg(&x) % 2 ? lcg(&x) % 9 : 0;
		b[k].wakeups = lcg(&x) % 2 ? lcg(&x) << 12 : 0;
		b[k].cpu = (uint32_t)(lcg(&x) % 3);
	}
	model_init(&m, ident);
	ck_assert_int_eq(model_sample(&m, a, NMANY, &c0, 1, 0), 0);
	ck_assert_int_eq(model_sample(&m, b, NMANY, &c1, 1, SEC), 0);
	for (int c = 0; c < COL_NR; c++)
		for (int desc = 0; desc < 2; desc++)
			if (c != COL_COMM)
				check_order(model_shown(&m), (enum col)c, desc);

	/* the same rows out of TID order: the sort may not rely on it */
	shuffled = *model_shown(&m);
	shuffled.rows = malloc(shuffled.nrows * sizeof(*shuffled.rows));
	ck_assert_ptr_nonnull(shuffled.rows);
	for (size_t i = 0; i < shuffled.nrows; i++)
		shuffled.rows[i] = model_shown(&m)->rows[(i * 7) % NMANY];
	for (int desc = 0; desc < 2; desc++) {
		check_order(&shuffled, COL_RUNNABLE_PCT, desc);
		check_order(&shuffled, COL_MIGRATIONS, desc);
		check_order(&shuffled, COL_WAKEUPS, desc);
	}
	free(shuffled.rows);
	model_free(&m);
}
END_TEST

START_TEST(test_col_by_key)
{
	ck_assert_int_eq(model_col_by_key("runnable"), COL_RUNNABLE_PCT);
	ck_assert_int_eq(model_col_by_key("RUN_TOTAL"), COL_RUN_TOTAL);
	ck_assert_int_eq(model_col_by_key("wakeups"), COL_WAKEUPS);
	ck_assert_int_eq(model_col_by_key("nosuch"), -1);
	for (int c = 0; c < COL_NR; c++)
		ck_assert_int_eq(model_col_by_key(model_cols[c].key), c);
}
END_TEST

START_TEST(test_filter_by_pid_and_tid)
{
	struct model m;
	struct filter f = { 0 };
	size_t idx[NSORT];

	build_sort_model(&m);
	/* pid 47 is thread 107's process; 114 is a tid */
	ck_assert_int_eq(filter_set(&f, "47,114"), 0);
	ck_assert(filter_active(&f));
	ck_assert_uint_eq(model_select(model_shown(&m), &f, COL_TID, 0, idx),
			  2);
	ck_assert_uint_eq(model_shown(&m)->rows[idx[0]].snap.tid, 107);
	ck_assert_uint_eq(model_shown(&m)->rows[idx[1]].snap.tid, 114);
	model_free(&m);
}
END_TEST

START_TEST(test_filter_by_name_substring)
{
	struct model m;
	struct filter f = { 0 };
	size_t idx[NSORT];

	build_sort_model(&m);
	/* case-insensitive, like htop's filter */
	ck_assert_int_eq(filter_set(&f, "ALP"), 0);
	ck_assert_uint_eq(model_select(model_shown(&m), &f, COL_TID, 0, idx),
			  1);
	ck_assert_str_eq(model_shown(&m)->rows[idx[0]].snap.comm, "alpha");
	ck_assert_int_eq(filter_set(&f, "a"), 0);
	ck_assert_uint_eq(model_select(model_shown(&m), &f, COL_TID, 0, idx),
			  4);
	ck_assert_int_eq(filter_set(&f, "zz"), 0);
	ck_assert_uint_eq(model_select(model_shown(&m), &f, COL_TID, 0, idx),
			  0);
	ck_assert_int_eq(filter_set(&f, ""), 0);
	ck_assert(!filter_active(&f));
	ck_assert_uint_eq(model_select(model_shown(&m), &f, COL_TID, 0, idx),
			  NSORT);
	model_free(&m);
}
END_TEST

START_TEST(test_filter_bad_pid_lists_rejected)
{
	static const char *const bad[] = { "", ",", "1,", ",1", "1,,2", "0",
					   "99999999999", "-3", "1;2", "x" };
	struct filter f = { 0 };
	pid_t pids[4];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(filter_set_pids(&f, bad[i]) == -EINVAL,
			      "accepted \"%s\"", bad[i]);
	ck_assert_int_eq(parse_pid_list("1,2,3", pids, 4), 3);
	ck_assert_int_eq(parse_pid_list("1,2,3,4,5", pids, 4), -EINVAL);
	/* an interactive filter of digits is a PID list, so it must parse */
	ck_assert_int_eq(filter_set(&f, "12,"), -EINVAL);
	ck_assert_int_eq(filter_set(&f, "12"), 0);
	ck_assert_uint_eq(f.npids, 1);
}
END_TEST

START_TEST(test_first_sample_shows_since_registration)
{
	struct csf_snap s = mk(1, 1, "t", 5 * SEC);
	struct model m;
	const struct row *r;

	s.time[CSF_STATE_RUNNING] = 300 * MS;
	s.time[CSF_STATE_RUNNABLE] = 100 * MS;
	s.time[CSF_STATE_SLEEPING] = 600 * MS;
	s.nvcsw = 50;
	model_init(&m, ident);
	ck_assert_int_eq(model_sample(&m, &s, 1, NULL, 0, 0), 0);
	r = find(model_shown(&m), 1);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->flags & ROW_NEW);
	ck_assert_uint_eq(r->interval_ns, SEC);
	ck_assert_double_eq_tol(row_pct(r, CSF_STATE_RUNNING), 30.0, 1e-9);
	ck_assert_double_eq_tol(row_pct(r, CSF_STATE_RUNNABLE), 10.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_VCSW_RATE), 50.0, 1e-9);
	model_free(&m);
}
END_TEST

START_TEST(test_rates_over_interval)
{
	struct csf_snap a = mk(1, 1, "t", 10 * SEC), b;
	struct model m;
	const struct row *r;

	b = a;
	b.now = a.now + 500 * MS;
	b.time[CSF_STATE_RUNNING] += 100 * MS;
	b.time[CSF_STATE_RUNNABLE] += 250 * MS;
	b.time[CSF_STATE_IOWAIT] += 150 * MS;
	b.nvcsw += 10;
	b.nivcsw += 20;
	b.migrations = 3;
	b.wakeups = 9;
	model_init(&m, ident);
	ck_assert_int_eq(model_sample(&m, &a, 1, NULL, 0, 0), 0);
	ck_assert_int_eq(model_sample(&m, &b, 1, NULL, 0, 500 * MS), 0);
	r = find(model_shown(&m), 1);
	ck_assert(!(r->flags & ROW_NEW));
	ck_assert_double_eq_tol(row_value(r, COL_RUN_PCT), 20.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_RUNNABLE_PCT), 50.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_IOWAIT_PCT), 30.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_VCSW_RATE), 20.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_IVCSW_RATE), 40.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_RUNNABLE_TOTAL),
				250.0 * MS, 1e-3);
	ck_assert_double_eq_tol(row_value(r, COL_MIGRATIONS), 3, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_WAKEUPS), 9, 1e-9);
	model_free(&m);
}
END_TEST

START_TEST(test_rates_never_above_100_percent)
{
	/* extrapolation on two CPUs can put a few ticks more in a bucket
	 * than the clocks moved: the share still caps at 100 */
	struct csf_snap a = mk(1, 1, "t", 10 * SEC), b;
	struct model m;

	b = a;
	b.now += 100 * MS;
	b.time[CSF_STATE_RUNNING] += 101 * MS;
	model_init(&m, ident);
	model_sample(&m, &a, 1, NULL, 0, 0);
	model_sample(&m, &b, 1, NULL, 0, 100 * MS);
	ck_assert_double_le(row_pct(find(model_shown(&m), 1),
				    CSF_STATE_RUNNING), 100.0);
	model_free(&m);
}
END_TEST

START_TEST(test_rates_across_counter_reset)
{
	/* same registration, counters went backwards (a reset page): the
	 * growth is the new value, never a wrapped 2^64 difference */
	struct csf_snap a = mk(1, 1, "t", 10 * SEC), b;
	struct model m;
	const struct row *r;

	a.time[CSF_STATE_RUNNING] = 900 * MS;
	a.nvcsw = 1000;
	a.nivcsw = 500;
	b = a;
	b.now += SEC;
	b.time[CSF_STATE_RUNNING] = 200 * MS;
	b.nvcsw = 7;
	b.nivcsw = 3;
	model_init(&m, ident);
	model_sample(&m, &a, 1, NULL, 0, 0);
	model_sample(&m, &b, 1, NULL, 0, SEC);
	r = find(model_shown(&m), 1);
	ck_assert_double_eq_tol(row_pct(r, CSF_STATE_RUNNING), 20.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_VCSW_RATE), 7.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_IVCSW_RATE), 3.0, 1e-9);
	model_free(&m);
}
END_TEST

START_TEST(test_rates_new_incarnation_of_tid)
{
	/* the tid was reused by a thread registered later: start over */
	struct csf_snap a = mk(1, 1, "old", 10 * SEC), b = mk(1, 2, "new",
							      11 * SEC);
	struct model m;
	const struct row *r;

	a.time[CSF_STATE_SLEEPING] = 5 * SEC;
	a.nvcsw = 1000;
	b.registered_at = 10 * SEC + 600 * MS;
	b.time[CSF_STATE_RUNNING] = 400 * MS;
	b.nvcsw = 4;
	model_init(&m, ident);
	model_sample(&m, &a, 1, NULL, 0, 0);
	model_sample(&m, &b, 1, NULL, 0, SEC);
	r = find(model_shown(&m), 1);
	ck_assert(r->flags & ROW_NEW);
	ck_assert_str_eq(r->snap.comm, "new");
	ck_assert_double_eq_tol(row_pct(r, CSF_STATE_RUNNING), 100.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_VCSW_RATE), 10.0, 1e-9);
	model_free(&m);
}
END_TEST

START_TEST(test_exited_thread_unmapped_lingers_then_goes)
{
	struct csf_snap a[2] = { mk(1, 1, "stay", 10 * SEC),
				 mk(2, 1, "leave", 10 * SEC) };
	struct model m;
	const struct row *r;

	model_init(&m, ident);
	model_sample(&m, a, 2, NULL, 0, 0);
	a[0].now += SEC;
	model_sample(&m, a, 1, NULL, 0, SEC);
	r = find(model_shown(&m), 2);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->flags & ROW_EXITED);
	ck_assert_uint_eq(row_state(r), CSF_STATE_EXITED);
	ck_assert_double_eq(row_value(r, COL_VCSW_RATE), 0);
	ck_assert_uint_eq(model_shown(&m)->nthreads, 1);
	/* still there just before the linger time, gone at it */
	model_sample(&m, a, 1, NULL, 0, SEC + MODEL_LINGER_NS - 1);
	ck_assert_ptr_nonnull(find(model_shown(&m), 2));
	model_sample(&m, a, 1, NULL, 0, SEC + MODEL_LINGER_NS);
	ck_assert_ptr_null(find(model_shown(&m), 2));
	ck_assert_ptr_nonnull(find(model_shown(&m), 1));
	model_free(&m);
}
END_TEST

START_TEST(test_exited_state_in_page_keeps_final_delta)
{
	struct csf_snap a = mk(1, 1, "t", 10 * SEC), b;
	struct model m;
	const struct row *r;

	b = a;
	b.now += SEC;
	b.state = CSF_STATE_EXITED;
	b.time[CSF_STATE_RUNNING] += 250 * MS;
	model_init(&m, ident);
	model_sample(&m, &a, 1, NULL, 0, 0);
	model_sample(&m, &b, 1, NULL, 0, SEC);
	r = find(model_shown(&m), 1);
	ck_assert(r->flags & ROW_EXITED);
	ck_assert_double_eq_tol(row_pct(r, CSF_STATE_RUNNING), 25.0, 1e-9);
	ck_assert_uint_eq(model_shown(&m)->nthreads, 0);
	/* the page still reads, but an exited row only lingers */
	b.now += 3 * SEC;
	model_sample(&m, &b, 1, NULL, 0, SEC + MODEL_LINGER_NS);
	ck_assert_ptr_null(find(model_shown(&m), 1));
	model_free(&m);
}
END_TEST

START_TEST(test_counts_threads_and_processes)
{
	struct csf_snap s[4] = { mk(1, 1, "a", SEC), mk(2, 1, "b", SEC),
				 mk(3, 3, "c", SEC), mk(4, 4, "d", SEC) };
	struct model m;

	s[3].state = CSF_STATE_EXITED;
	model_init(&m, ident);
	model_sample(&m, s, 4, NULL, 0, 0);
	ck_assert_uint_eq(model_shown(&m)->nrows, 4);
	ck_assert_uint_eq(model_shown(&m)->nthreads, 3);
	ck_assert_uint_eq(model_shown(&m)->nprocs, 2);
	model_free(&m);
}
END_TEST

START_TEST(test_freeze_stops_screen_sampling_goes_on)
{
	struct csf_snap a = mk(1, 1, "t", 10 * SEC), b, c;
	struct model m;

	b = a;
	b.now += SEC;
	b.time[CSF_STATE_RUNNING] += 500 * MS;
	c = b;
	c.now += SEC;
	c.time[CSF_STATE_RUNNING] += 100 * MS;
	model_init(&m, ident);
	model_sample(&m, &a, 1, NULL, 0, 0);
	model_sample(&m, &b, 1, NULL, 0, SEC);
	ck_assert_int_eq(model_freeze(&m), 0);
	ck_assert_int_eq(m.mode, MODE_FROZEN);
	model_sample(&m, &c, 1, NULL, 0, 2 * SEC);
	/* shown: still B's 50%; live moved on to 10% */
	ck_assert_double_eq_tol(row_pct(find(model_shown(&m), 1), 0), 50.0,
				1e-9);
	ck_assert_double_eq_tol(row_pct(find(&m.live, 1), 0), 10.0, 1e-9);
	model_live(&m);
	ck_assert_double_eq_tol(row_pct(find(model_shown(&m), 1), 0), 10.0,
				1e-9);
	model_free(&m);
}
END_TEST

/* A: threads 1 (changes), 2 (idle), 3 (exits); B adds 4. */
static void build_diff(struct model *m)
{
	struct csf_snap a[3] = { mk(1, 1, "busy", 10 * SEC),
				 mk(2, 1, "idle", 10 * SEC),
				 mk(3, 3, "leaver", 10 * SEC) };
	struct csf_snap b[3];
	size_t nb;

	model_init(m, ident);
	a[0].time[CSF_STATE_RUNNING] = SEC;
	a[0].nvcsw = 10;
	model_sample(m, a, 3, NULL, 0, 0);
	ck_assert_int_eq(model_diff(m), 0);	/* no A yet: takes A */
	ck_assert_int_eq(m->mode, MODE_FROZEN);
	model_live(m);

	b[0] = a[0];
	b[0].now += 2 * SEC;
	b[0].time[CSF_STATE_RUNNING] += 500 * MS;
	b[0].time[CSF_STATE_RUNNABLE] += 1500 * MS;
	b[0].nvcsw += 40;
	b[0].migrations = 2;
	b[1] = a[1];
	b[1].now += 2 * SEC;
	b[2] = mk(4, 4, "newbie", 12 * SEC);
	b[2].registered_at = 11 * SEC;
	b[2].time[CSF_STATE_RUNNING] = SEC;
	nb = 3;		/* thread 3 is not in B's sample: it exited */
	model_sample(m, b, nb, NULL, 0, 2 * SEC);
	ck_assert_int_eq(model_diff(m), 1);
	ck_assert_int_eq(m->mode, MODE_DIFF);
}

START_TEST(test_diff_changed_is_b_minus_a)
{
	struct model m;
	const struct row *r;

	build_diff(&m);
	ck_assert_int_eq(model_shown(&m)->kind, SCREEN_DIFF);
	r = find(model_shown(&m), 1);
	ck_assert(r->flags & ROW_CHANGED);
	ck_assert(!(r->flags & (ROW_APPEARED | ROW_GONE)));
	ck_assert_double_eq_tol(row_value(r, COL_RUN_TOTAL), 500.0 * MS,
				1e-3);
	ck_assert_double_eq_tol(row_value(r, COL_RUNNABLE_PCT), 75.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_VCSW_RATE), 20.0, 1e-9);
	ck_assert_double_eq_tol(row_value(r, COL_MIGRATIONS), 2, 1e-9);
	model_free(&m);
}
END_TEST

START_TEST(test_diff_unchanged_thread_not_marked)
{
	struct model m;
	const struct row *r;

	build_diff(&m);
	r = find(model_shown(&m), 2);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->flags & (ROW_CHANGED | ROW_APPEARED | ROW_GONE),
			  0);
	ck_assert_double_eq(row_value(r, COL_RUN_TOTAL), 0);
	model_free(&m);
}
END_TEST

START_TEST(test_diff_appeared)
{
	struct model m;
	const struct row *r;

	build_diff(&m);
	r = find(model_shown(&m), 4);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->flags & ROW_APPEARED);
	/* its whole life is inside A..B: a share of the 2 s span */
	ck_assert_double_eq_tol(row_value(r, COL_RUN_PCT), 50.0, 1e-9);
	model_free(&m);
}
END_TEST

START_TEST(test_diff_exited)
{
	struct model m;
	const struct row *r;

	/* thread 3 vanished from the sample between A and B */
	build_diff(&m);
	r = find(model_shown(&m), 3);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->flags & ROW_GONE);
	ck_assert_uint_eq(row_state(r), CSF_STATE_EXITED);
	model_free(&m);
}
END_TEST

START_TEST(test_diff_exited_after_linger)
{
	struct csf_snap a[2] = { mk(1, 1, "a", 10 * SEC),
				 mk(2, 1, "b", 10 * SEC) };
	struct model m;
	const struct row *r;

	model_init(&m, ident);
	model_sample(&m, a, 2, NULL, 0, 0);
	model_freeze(&m);
	model_live(&m);
	model_sample(&m, a, 1, NULL, 0, SEC);
	model_sample(&m, a, 1, NULL, 0, 10 * SEC);	/* 2 lingered out */
	ck_assert_ptr_null(find(&m.live, 2));
	ck_assert_int_eq(model_diff(&m), 1);
	r = find(model_shown(&m), 2);
	ck_assert_ptr_nonnull(r);
	ck_assert(r->flags & ROW_GONE);
	model_free(&m);
}
END_TEST

START_TEST(test_diff_sortable_and_filterable)
{
	struct model m;
	struct filter f = { 0 };
	size_t idx[8], n;
	const struct screen *s;

	build_diff(&m);
	s = model_shown(&m);
	n = model_select(s, NULL, COL_RUN_TOTAL, 1, idx);
	ck_assert_uint_eq(n, 4);
	/* newbie ran 1 s inside A..B, busy 0.5 s */
	ck_assert_uint_eq(s->rows[idx[0]].snap.tid, 4);
	ck_assert_uint_eq(s->rows[idx[1]].snap.tid, 1);
	ck_assert_int_eq(filter_set(&f, "lea"), 0);
	n = model_select(s, &f, COL_RUN_TOTAL, 1, idx);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(s->rows[idx[0]].snap.tid, 3);
	model_free(&m);
}
END_TEST

START_TEST(test_diff_back_to_live)
{
	struct model m;

	build_diff(&m);
	model_live(&m);
	ck_assert_int_eq(m.mode, MODE_LIVE);
	ck_assert_ptr_eq(model_shown(&m), &m.live);
	/* A is kept: the next d diffs against it again */
	ck_assert_int_eq(model_diff(&m), 1);
	model_free(&m);
}
END_TEST

START_TEST(test_cpu_meters_from_stat_and_sched)
{
	struct csf_cpu_snap a = mkcpu(10 * SEC, 4 * SEC, 6 * SEC, 1000), b;
	struct model m;
	const struct cpu_row *c;

	b = a;
	b.now += SEC;
	b.time[CSF_CPU_BUSY] += 250 * MS;
	b.time[CSF_CPU_IDLE] += 650 * MS;
	b.time[CSF_CPU_IOWAIT] += 100 * MS;
	b.nr_switches += 500;
	b.stat[CSF_STAT_USER] += 150 * MS;
	b.stat[CSF_STAT_SYSTEM] += 100 * MS;
	b.stat[CSF_STAT_IDLE] += 650 * MS;
	b.stat[CSF_STAT_IOWAIT] += 100 * MS;
	model_init(&m, ident);
	model_sample(&m, NULL, 0, &a, 1, 0);
	model_sample(&m, NULL, 0, &b, 1, SEC);
	c = &model_shown(&m)->cpus[0];
	ck_assert_double_eq_tol(c->busy_pct, 25.0, 1e-9);
	ck_assert_double_eq_tol(c->iowait_pct, 10.0, 1e-9);
	ck_assert_double_eq_tol(c->stat_pct[CSF_STAT_USER], 15.0, 1e-9);
	ck_assert_double_eq_tol(c->stat_pct[CSF_STAT_SYSTEM], 10.0, 1e-9);
	ck_assert_double_eq_tol(c->csw_rate, 500.0, 1e-9);
	ck_assert_double_eq_tol(model_shown(&m)->csw_rate, 500.0, 1e-9);
	model_free(&m);
}
END_TEST

START_TEST(test_cpu_counter_reset_and_quiet_stat)
{
	/* module reloaded: counters restart; stat[] not refreshed within a
	 * short interval: no colours, but the exact busy share stays */
	struct csf_cpu_snap a = mkcpu(10 * SEC, 9 * SEC, SEC, 100000), b;
	struct model m;
	const struct cpu_row *c;

	b = mkcpu(10 * SEC + 10 * MS, 5 * MS, 5 * MS, 20);
	model_init(&m, ident);
	model_sample(&m, NULL, 0, &a, 1, 0);
	model_sample(&m, NULL, 0, &b, 1, 10 * MS);
	c = &model_shown(&m)->cpus[0];
	ck_assert_double_eq_tol(c->busy_pct, 50.0, 1e-9);
	ck_assert_double_eq_tol(c->csw_rate, 2000.0, 1e-6);
	for (int k = 0; k < CSF_STAT_NR; k++)
		ck_assert_double_eq(c->stat_pct[k], 0);
	model_free(&m);
}
END_TEST

/* --- number formatting ---------------------------------------------- */

/* Deterministic pseudo-random numbers (xorshift64), reproducible runs. */
static uint64_t rnd_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A double spread over many magnitudes, often near a rounding tie. */
static double rnd_value(void)
{
	double v;

	switch (rnd() % 6) {
	case 0:		/* uniform 0..100, like shares */
		v = (double)(rnd() >> 11) / (double)(1ull << 53) * 100;
		break;
	case 1:		/* an exact tie of one to three decimals */
		v = ((double)(rnd() % 2000000) + 0.5) / 1000;
		break;
	case 2:		/* a decimal with few digits, as a ratio makes it */
		v = (double)(rnd() % 1000000) / 1e3;
		break;
	case 3:		/* next to a tie, either side */
		v = ((double)(rnd() % 100000) + 0.5) / 100;
		v = nextafter(v, rnd() % 2 ? 0 : 1e9);
		break;
	case 4:		/* any magnitude from 2^-40 to 2^60 */
		v = ldexp((double)(rnd() >> 11) / (double)(1ull << 53),
			  (int)(rnd() % 100) - 40);
		break;
	default:	/* a ratio of integers, like row_pct() */
		v = 100.0 * (double)(rnd() % 1000000) /
		    (double)(rnd() % 1000000 + 1);
		break;
	}
	return rnd() % 16 ? v : -v;
}

START_TEST(test_fmt_fixed_is_printf)
{
	static const double special[] = {
		0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.5, 1.5, 2.5,
		99.95, 99.949999999999989, 9999.5, 0.0005, 0.0015, 1e-300,
		4.9e-324, 4503599627370495.5, 4503599627370496.0, 1e300,
		HUGE_VAL, -HUGE_VAL, NAN,
	};
	char want[512], got[FMT_BUFSZ];

	for (unsigned int d = 0; d <= 3; d++)
		for (size_t i = 0; i < sizeof(special) / sizeof(special[0]);
		     i++) {
			snprintf(want, sizeof(want), "%.*f", (int)d,
				 special[i]);
			fmt_fixed(got, sizeof(got), special[i], d);
			if (strlen(want) < sizeof(got))
				ck_assert_str_eq(got, want);
		}
	for (int i = 0; i < 100000; i++) {
		double v = rnd_value();
		unsigned int d = (unsigned int)(rnd() % 4);

		snprintf(want, sizeof(want), "%.*f", (int)d, v);
		fmt_fixed(got, sizeof(got), v, d);
		if (strlen(want) < sizeof(got))
			ck_assert_msg(!strcmp(got, want), "%.17g %%.%uf: %s, "
				      "printf %s", v, d, got, want);
	}
}
END_TEST

/* The printf forms fmt.c replaced, kept here as the reference. */
static void ref_dur(char *buf, size_t len, uint64_t ns)
{
	unsigned long long s = ns / 1000000000ull;

	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 999950)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 999950000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else if (ns < 99995000000ull)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%llum%02llus", s / 60, s % 60);
	else if (s < 3600ull * 1000)
		snprintf(buf, len, "%lluh%02llum", s / 3600, s / 60 % 60);
	else
		snprintf(buf, len, "%llud", s / 86400);
}

static void ref_rate(char *buf, size_t len, double v)
{
	if (v < 0)
		v = 0;
	if (v < 9999.5)
		snprintf(buf, len, v < 99.95 ? "%.1f" : "%.0f", v);
	else if (v < 9999.5e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v < 9999.5e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else
		snprintf(buf, len, "%.1fG", v / 1e9);
}

static void ref_count(char *buf, size_t len, uint64_t n)
{
	if (n < 10000000)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else if (n < 10000000000ull)
		snprintf(buf, len, "%.1fM", (double)n / 1e6);
	else
		snprintf(buf, len, "%.1fG", (double)n / 1e9);
}

/* A duration or count over many magnitudes, often on a unit's edge. */
static uint64_t rnd_u64(void)
{
	static const uint64_t edges[] = {
		999, 1000, 1050, 999949, 999950, 999950000, 99995000000ull,
		/* halfway between two printed values: printf's own rounding */
		2050, 1250000, 7850000, 1005000000, 2675000000ull,
		3600000000000ull, 3600000000000000ull, 9999999, 10000000,
		10000000000ull, 5, 0,
	};
	uint64_t v = rnd() >> (rnd() % 64);

	if (rnd() % 8 == 0)
		v = edges[rnd() % (sizeof(edges) / sizeof(edges[0]))] +
		    rnd() % 3 - 1;
	return v;
}

/*
 * fmt_value() writes the common zeros and full shares without formatting:
 * it must print exactly what the general formatters print for every cell,
 * and what fmt_value_zero() takes for zero must print as fmt_zero().
 */
START_TEST(test_fmt_value_shortcuts_are_exact)
{
	char want[FMT_BUFSZ], got[FMT_BUFSZ];
	struct row r;

	for (int i = 0; i < 20000; i++) {
		memset(&r, 0, sizeof(r));
		r.interval_ns = rnd() % 4 ? rnd_u64() : 0;
		for (int st = 0; st < CSF_NR_STATES; st++) {
			unsigned int k = (unsigned int)(rnd() % 4);

			r.delta_ns[st] = k == 0 ? 0 : k == 1 ? r.interval_ns :
					 rnd_u64() % (r.interval_ns | 1);
			r.total_ns[st] = rnd() % 2 ? rnd_u64() : 0;
		}
		r.d_nvcsw = rnd() % 2 ? rnd_u64() : 0;
		r.d_nivcsw = rnd() % 2 ? rnd_u64() : 0;
		r.migrations = rnd() % 2 ? rnd_u64() : 0;
		r.wakeups = rnd() % 2 ? rnd_u64() : 0;
		r.snap.tid = (uint32_t)(rnd() % 3);
		r.snap.tgid = (uint32_t)(rnd() % 3);
		r.snap.cpu = (uint32_t)(rnd() % 3);
		for (int c = 0; c < COL_NR; c++) {
			if (model_cols[c].kind == COL_KIND_TEXT)
				continue;
			switch (model_cols[c].kind) {
			case COL_KIND_PCT:
				fmt_pct(want, sizeof(want), row_value(&r, c));
				break;
			case COL_KIND_NS:
				fmt_dur(want, sizeof(want), row_uvalue(&r, c));
				break;
			case COL_KIND_RATE:
				fmt_rate(want, sizeof(want), row_value(&r, c));
				break;
			default:
				fmt_count(want, sizeof(want),
					  row_uvalue(&r, c));
				break;
			}
			ck_assert_uint_eq(fmt_value(got, sizeof(got), &r, c),
					  strlen(want));
			ck_assert_msg(!strcmp(got, want), "%s: %s, not %s",
				      model_cols[c].key, got, want);
			/* a tiny share also prints 0.0: one way only */
			if (fmt_value_zero(&r, c))
				ck_assert_str_eq(want, fmt_zero(c));
		}
	}
}
END_TEST

/*
 * The table cells are " %7s" of fmt_value() and " %*llu" of a number,
 * however they are built; wider values push on, never cut.
 */
START_TEST(test_fmt_cells_are_printf)
{
	char want[64], got[128], text[FMT_BUFSZ];
	struct row r;

	for (int i = 0; i < 20000; i++) {
		uint64_t u = rnd_u64();
		unsigned int w = 1 + (unsigned int)(rnd() % FMT_CELL_W);
		char *end;

		snprintf(want, sizeof(want), " %*llu", (int)w,
			 (unsigned long long)u);
		memset(got, 'z', sizeof(got));
		end = fmt_cell_uint(got, u, w);
		ck_assert_uint_eq((size_t)(end - got), strlen(want));
		ck_assert_msg(!memcmp(got, want, strlen(want)),
			      "%llu in %u: \"%.*s\", not \"%s\"",
			      (unsigned long long)u, w, (int)(end - got), got,
			      want);

		memset(&r, 0, sizeof(r));
		r.interval_ns = rnd() % 4 ? rnd_u64() : 0;
		for (int st = 0; st < CSF_NR_STATES; st++) {
			r.delta_ns[st] = rnd() % 2 ? rnd_u64() %
				(r.interval_ns | 1) : r.interval_ns;
			r.total_ns[st] = rnd_u64();
		}
		r.d_nvcsw = rnd_u64();
		r.d_nivcsw = rnd() % 2 ? rnd_u64() : (uint64_t)-1;
		r.migrations = rnd_u64();
		r.wakeups = rnd_u64();
		for (int c = COL_RUN_PCT; c < COL_NR; c++) {
			fmt_value(text, sizeof(text), &r, (enum col)c);
			snprintf(want, sizeof(want), " %7s", text);
			memset(got, 'z', sizeof(got));
			end = fmt_cell(got, &r, (enum col)c);
			ck_assert_uint_eq((size_t)(end - got), strlen(want));
			ck_assert_msg(!memcmp(got, want, strlen(want)),
				      "%s: \"%.*s\", not \"%s\"",
				      model_cols[c].key, (int)(end - got), got,
				      want);
		}
	}
}
END_TEST

START_TEST(test_fmt_columns_are_printf)
{
	char want[64], got[FMT_BUFSZ];

	for (int i = 0; i < 50000; i++) {
		uint64_t u = rnd_u64();
		double v = rnd_value() * (double)(1ull << (rnd() % 40));

		ref_dur(want, sizeof(want), u);
		fmt_dur(got, sizeof(got), u);
		ck_assert_msg(!strcmp(got, want), "dur %llu: %s, printf %s",
			      (unsigned long long)u, got, want);
		ref_count(want, sizeof(want), u);
		fmt_count(got, sizeof(got), u);
		ck_assert_msg(!strcmp(got, want), "count %llu: %s, printf %s",
			      (unsigned long long)u, got, want);
		ref_rate(want, sizeof(want), v);
		fmt_rate(got, sizeof(got), v);
		ck_assert_msg(!strcmp(got, want), "rate %.17g: %s, printf %s",
			      v, got, want);
		snprintf(want, sizeof(want), "%.1f",
			 v < 0 ? 0 : v > 100 ? 100 : v);
		fmt_pct(got, sizeof(got), v);
		ck_assert_msg(!strcmp(got, want), "pct %.17g: %s, printf %s",
			      v, got, want);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)u);
		fmt_uint(got, sizeof(got), u);
		ck_assert_str_eq(got, want);
	}
	/* truncated like snprintf */
	ck_assert_uint_eq(fmt_dur(got, 4, 123456789), 3);
	ck_assert_str_eq(got, "123");
	ck_assert_uint_eq(fmt_uint(got, 1, 42), 0);
	ck_assert_str_eq(got, "");
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *t;

	t = tcase_create("sort");
	tcase_add_loop_test(t, test_sort_every_column_both_ways, 0,
			    2 * COL_NR);
	tcase_add_test(t, test_sort_default_is_runnable_descending);
	tcase_add_test(t, test_sort_ties_broken_by_tid);
	tcase_add_test(t, test_sort_many_rows_matches_comparison_sort);
	tcase_add_test(t, test_col_by_key);
	suite_add_tcase(s, t);

	t = tcase_create("filter");
	tcase_add_test(t, test_filter_by_pid_and_tid);
	tcase_add_test(t, test_filter_by_name_substring);
	tcase_add_test(t, test_filter_bad_pid_lists_rejected);
	suite_add_tcase(s, t);

	t = tcase_create("rates");
	tcase_add_test(t, test_first_sample_shows_since_registration);
	tcase_add_test(t, test_rates_over_interval);
	tcase_add_test(t, test_rates_never_above_100_percent);
	tcase_add_test(t, test_rates_across_counter_reset);
	tcase_add_test(t, test_rates_new_incarnation_of_tid);
	tcase_add_test(t, test_exited_thread_unmapped_lingers_then_goes);
	tcase_add_test(t, test_exited_state_in_page_keeps_final_delta);
	tcase_add_test(t, test_counts_threads_and_processes);
	tcase_add_test(t, test_cpu_meters_from_stat_and_sched);
	tcase_add_test(t, test_cpu_counter_reset_and_quiet_stat);
	suite_add_tcase(s, t);

	t = tcase_create("freeze_diff");
	tcase_add_test(t, test_freeze_stops_screen_sampling_goes_on);
	tcase_add_test(t, test_diff_changed_is_b_minus_a);
	tcase_add_test(t, test_diff_unchanged_thread_not_marked);
	tcase_add_test(t, test_diff_appeared);
	tcase_add_test(t, test_diff_exited);
	tcase_add_test(t, test_diff_exited_after_linger);
	tcase_add_test(t, test_diff_sortable_and_filterable);
	tcase_add_test(t, test_diff_back_to_live);
	suite_add_tcase(s, t);

	t = tcase_create("fmt");
	tcase_add_test(t, test_fmt_fixed_is_printf);
	tcase_add_test(t, test_fmt_columns_are_printf);
	tcase_add_test(t, test_fmt_value_shortcuts_are_exact);
	tcase_add_test(t, test_fmt_cells_are_printf);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(model_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
