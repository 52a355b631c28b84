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

#include "src/batch.h"
#include "src/columns.h"
#include "src/fmt.h"
#include "src/model.h"
#include "src/select.h"
#include "unit.h"

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

/* A sample of @n threads and no CPUs at @now_ns, which must succeed. */
static void feed(struct model *m, const struct csf_snap *s, size_t n,
		 uint64_t now_ns)
{
	ck_assert_int_eq(model_sample(m, s, NULL, n, NULL, 0, now_ns), 0);
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

/*
 * Thread @k's histograms at the second sample: its runnable and sleeping
 * waits and its names differ from the others' in every waits column.
 */
static void sort_hist(struct csf_hist *h, const struct csf_snap *s,
		      unsigned int k, int later)
{
	memset(h, 0, sizeof(*h));
	h->tid = s->tid;
	h->registered_at = s->registered_at;
	h->now = s->now;
	h->max_known = (1u << CSF_NR_STATES) - 1;
	if (!later)
		return;
	h->count[CSF_STATE_RUNNABLE][10 + (k * 2) % 5] = 10;
	h->max_ns[CSF_STATE_RUNNABLE] = CSF_HIST_UPPER_NS(9 + (k * 2) % 5) + k;
	h->count[CSF_STATE_SLEEPING][12 + (k * 3) % 5] = 100;
	h->max_ns[CSF_STATE_SLEEPING] = CSF_HIST_UPPER_NS(11 + (k * 3) % 5);
	h->max_end[CSF_STATE_RUNNABLE] = h->max_end[CSF_STATE_SLEEPING] =
		s->now;
	h->waker = (struct csf_task){ s->now, 200 + (k * 3) % 5, "" };
	snprintf(h->waker.comm, sizeof(h->waker.comm), "%s",
		 sort_names[(k * 3) % 5]);
	h->preemptor = (struct csf_task){ s->now, 300 + (k * 4) % 5, "" };
	snprintf(h->preemptor.comm, sizeof(h->preemptor.comm), "%s",
		 sort_names[(k * 4) % 5]);
}

static void build_sort_model(struct model *m)
{
	struct csf_snap a[NSORT], b[NSORT];
	struct csf_hist ha[NSORT], hb[NSORT];
	const struct csf_hist *pa[NSORT], *pb[NSORT];
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
		sort_hist(&ha[k], &a[k], k, 0);
		sort_hist(&hb[k], &b[k], k, 1);
		pa[k] = &ha[k];
		pb[k] = &hb[k];
	}
	model_init(m, ident);
	ck_assert_int_eq(model_sample(m, a, pa, NSORT, &c0, 1, 0), 0);
	ck_assert_int_eq(model_sample(m, b, pb, NSORT, &c1, 1, SEC), 0);
}

/* A share in percent and a rate per second, as doubles for assertions. */
static double pct(struct ratio q)
{
	return q.den ? 100.0 * (double)q.num / (double)q.den : 0;
}

static double pct_of(const struct row *r, unsigned int state)
{
	return pct(row_share(r, state));
}

static double per_s(struct ratio q)
{
	return q.den ? 1e9 * (double)q.num / (double)q.den : 0;
}

/* A column's value in its shown unit: percent, per second, or as is. */
static double value(const struct row *r, enum col col)
{
	const struct column *c = &columns[col];

	if (c->uint)
		return (double)c->uint(r);
	return c->kind == COL_KIND_PCT ? pct(c->ratio(r)) : per_s(c->ratio(r));
}

/* The exact order of two rows' values in column @col: -1, 0 or 1. */
static int cmp_value(const struct row *x, const struct row *y, enum col col)
{
	const struct column *c = &columns[col];
	struct ratio p, q;
	unsigned __int128 a, b;

	if (c->uint) {
		uint64_t u = c->uint(x), v = c->uint(y);

		return (u > v) - (u < v);
	}
	p = c->ratio(x);
	q = c->ratio(y);
	/* a fraction over 0 reads as 0 */
	a = p.den ? (unsigned __int128)p.num * (q.den ? q.den : 1) : 0;
	b = q.den ? (unsigned __int128)q.num * (p.den ? p.den : 1) : 0;
	return (a > b) - (a < b);
}

static int cmp_col(const struct row *x, const struct row *y, enum col col)
{
	const struct column *c = &columns[col];

	if (c->name)
		return strncasecmp(c->name(x), c->name(y), 16);
	return cmp_value(x, y, col);
}

/* Every column, both ways. */
START_TEST(test_sort_every_column_both_ways)
{
	struct model m;
	size_t idx[NSORT], rev[NSORT], n;
	const struct screen *s;

	build_sort_model(&m);
	s = model_shown(&m);
	for (int k = 0; k < 2 * COL_NR; k++) {
		enum col col = (enum col)(k / 2);
		int desc = k % 2;

		n = select_rows(s, NULL, col, desc, idx);
		ck_assert_uint_eq(n, NSORT);
		for (size_t i = 1; i < n; i++) {
			int c = cmp_col(&s->rows[idx[i - 1]], &s->rows[idx[i]],
					col);

			if (desc)
				ck_assert_msg(c > 0, "column %s desc: rows %zu,%zu",
					      columns[col].key, i - 1, i);
			else
				ck_assert_msg(c < 0, "column %s asc: rows %zu,%zu",
					      columns[col].key, i - 1, i);
		}
		/* the other direction is the exact reverse */
		ck_assert_uint_eq(select_rows(s, NULL, col, !desc, rev), NSORT);
		for (size_t i = 0; i < n; i++)
			ck_assert_uint_eq(idx[i], rev[n - 1 - i]);
	}
	model_free(&m);
}
END_TEST

START_TEST(test_sort_default_is_runnable_descending)
{
	ck_assert_int_eq(COL_DEFAULT_SORT, COL_RUNNABLE_PCT);
	ck_assert_int_eq(columns[COL_DEFAULT_SORT].desc_first, 1);
}
END_TEST

START_TEST(test_sort_ties_broken_by_tid)
{
	struct csf_snap s[3] = { mk(30, 1, "x", SEC), mk(10, 1, "x", SEC),
				 mk(20, 1, "x", SEC) };
	struct model m;
	size_t idx[3];

	model_init(&m, ident);
	feed(&m, s, 3, 0);
	ck_assert_uint_eq(select_rows(model_shown(&m), NULL, COL_COMM, 1,
				       idx), 3);
	ck_assert_uint_eq(model_shown(&m)->rows[idx[0]].snap.tid, 10);
	ck_assert_uint_eq(model_shown(&m)->rows[idx[2]].snap.tid, 30);
	model_free(&m);
}
END_TEST

/*
 * Many rows, values spread over every byte of the keys and full of ties:
 * select_rows() must give exactly the order of a comparison sort on
 * the exact values with ties by ascending TID, on every numeric column, both
 * ways, and also on a screen whose rows are not in TID order.
 */
#define NMANY 1500

static int ref_desc;
static enum col ref_col;

static int ref_cmp(const void *pa, const void *pb)
{
	const struct row *a = *(const struct row *const *)pa;
	const struct row *b = *(const struct row *const *)pb;
	int c = cmp_value(a, b, ref_col);

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
	size_t n = select_rows(s, NULL, col, desc, idx);

	ck_assert_uint_eq(n, s->nrows);
	for (size_t i = 0; i < n; i++)
		ref[i] = &s->rows[i];
	ref_col = col;
	ref_desc = desc;
	qsort(ref, n, sizeof(*ref), ref_cmp);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(&s->rows[idx[i]] == ref[i],
			      "column %s %s: position %zu is tid %u, not %u",
			      columns[col].key, desc ? "desc" : "asc", i,
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
	ck_assert_int_eq(model_sample(&m, a, NULL, NMANY, &c0, 1, 0), 0);
	ck_assert_int_eq(model_sample(&m, b, NULL, NMANY, &c1, 1, SEC), 0);
	for (int c = 0; c < COL_NR; c++)
		for (int desc = 0; desc < 2; desc++)
			if (!columns[c].name)
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
	ck_assert_int_eq(column_by_key("runnable"), COL_RUNNABLE_PCT);
	ck_assert_int_eq(column_by_key("RUN_TOTAL"), COL_RUN_TOTAL);
	ck_assert_int_eq(column_by_key("wakeups"), COL_WAKEUPS);
	ck_assert_int_eq(column_by_key("nosuch"), -1);
	for (int c = 0; c < COL_NR; c++)
		ck_assert_int_eq(column_by_key(columns[c].key), c);
}
END_TEST

/*
 * Filters over the five threads of build_sort_model(): echo 100 (PID 50),
 * Charlie 107 (47), alpha 114 (44), delta 121 (41), Bravo 128 (38).
 */
static const struct {
	const char *text;
	size_t n;
	uint32_t tids[NSORT];
} filter_cases[] = {
	{ "47,114", 2, { 107, 114 } },		/* a PID and a TID */
	{ "ALP", 1, { 114 } },			/* case-insensitive, as htop */
	{ "a", 4, { 107, 114, 121, 128 } },
	{ "zz", 0, { 0 } },
	{ "", NSORT, { 100, 107, 114, 121, 128 } },	/* none */
};

START_TEST(test_filter_by_pid_tid_or_name)
{
	struct model m;
	struct filter f = { 0 };
	size_t idx[NSORT];

	build_sort_model(&m);
	for (size_t k = 0; k < sizeof(filter_cases) / sizeof(filter_cases[0]);
	     k++) {
		const char *text = filter_cases[k].text;
		size_t n;

		ck_assert_int_eq(filter_set(&f, text), 0);
		ck_assert_int_eq(filter_active(&f), !!*text);
		n = select_rows(model_shown(&m), &f, COL_TID, 0, idx);
		ck_assert_msg(n == filter_cases[k].n, "\"%s\": %zu rows",
			      text, n);
		for (size_t i = 0; i < n; i++)
			ck_assert_msg(model_shown(&m)->rows[idx[i]].snap.tid ==
				      filter_cases[k].tids[i],
				      "\"%s\": row %zu", text, i);
	}
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

/* A column's value in its unit shown (value()); END ends a list. */
struct want_col {
	enum col col;
	double value;
};
#define END { COL_NR, 0 }

#define T1(...) { .tid = 1, .tgid = 1, .registered_at = 1, __VA_ARGS__ }
#define TIMES(run, runq, sleep, iow) \
	.time = { [CSF_STATE_RUNNING] = (run), [CSF_STATE_RUNNABLE] = (runq), \
		  [CSF_STATE_SLEEPING] = (sleep), [CSF_STATE_IOWAIT] = (iow) }

/* Thread 1 sampled at a (and b): what its row shows after the last. */
static const struct thread_case {
	const char *what;
	struct csf_snap a, b;		/* b.tid 0: only a */
	uint64_t interval_ns;		/* the row's, when not 0 */
	unsigned int set, clear;	/* ROW_* flags it has, has not */
	struct want_col want[10];
} thread_cases[] = {
	{ "the first sample shows it since its registration",
	  T1(.now = 5 * SEC, TIMES(300 * MS, 100 * MS, 600 * MS, 0),
	     .nvcsw = 50), { 0 }, SEC, ROW_NEW, 0,
	  { { COL_RUN_PCT, 30 }, { COL_RUNNABLE_PCT, 10 },
	    { COL_VCSW_RATE, 50 }, END } },
	{ "shares and rates over the interval",
	  T1(.now = 10 * SEC),
	  T1(.now = 10 * SEC + 500 * MS, TIMES(100 * MS, 250 * MS, 0, 150 * MS),
	     .nvcsw = 10, .nivcsw = 20, .migrations = 3, .wakeups = 9),
	  0, 0, ROW_NEW,
	  { { COL_RUN_PCT, 20 }, { COL_RUNNABLE_PCT, 50 },
	    { COL_IOWAIT_PCT, 30 }, { COL_VCSW_RATE, 20 },
	    { COL_IVCSW_RATE, 40 }, { COL_RUNNABLE_TOTAL, 250.0 * MS },
	    { COL_MIGRATIONS, 3 }, { COL_WAKEUPS, 9 }, END } },
	/* extrapolation on two CPUs can put a few ticks more in a bucket
	 * than the clocks moved: the share still caps at 100 */
	{ "never above 100%",
	  T1(.now = 10 * SEC),
	  T1(.now = 10 * SEC + 100 * MS, TIMES(101 * MS, 0, 0, 0)),
	  0, 0, 0, { { COL_RUN_PCT, 100 }, END } },
	/* same registration, counters went backwards (a reset page): the
	 * growth is the new value, never a wrapped 2^64 difference */
	{ "counters reset",
	  T1(.now = 10 * SEC, TIMES(900 * MS, 0, 0, 0), .nvcsw = 1000,
	     .nivcsw = 500),
	  T1(.now = 11 * SEC, TIMES(200 * MS, 0, 0, 0), .nvcsw = 7,
	     .nivcsw = 3),
	  0, 0, 0, { { COL_RUN_PCT, 20 }, { COL_VCSW_RATE, 7 },
		     { COL_IVCSW_RATE, 3 }, END } },
	/* the tid was reused by a thread registered later: start over */
	{ "a new incarnation of the tid",
	  T1(.now = 10 * SEC, TIMES(0, 0, 5 * SEC, 0), .nvcsw = 1000),
	  { .tid = 1, .tgid = 2, .registered_at = 10 * SEC + 600 * MS,
	    .now = 11 * SEC, TIMES(400 * MS, 0, 0, 0), .nvcsw = 4 },
	  0, ROW_NEW, 0, { { COL_PID, 2 }, { COL_RUN_PCT, 100 },
			   { COL_VCSW_RATE, 10 }, END } },
	{ "its page reads exited: the final delta is kept",
	  T1(.now = 10 * SEC),
	  T1(.now = 11 * SEC, TIMES(250 * MS, 0, 0, 0),
	     .state = CSF_STATE_EXITED),
	  0, ROW_EXITED, 0, { { COL_RUN_PCT, 25 },
			      { COL_STATE, CSF_STATE_EXITED }, END } },
};

START_TEST(test_thread_rows)
{
	for (size_t k = 0; k < sizeof(thread_cases) / sizeof(thread_cases[0]);
	     k++) {
		const struct thread_case *c = &thread_cases[k];
		struct model m;
		const struct row *r;

		model_init(&m, ident);
		feed(&m, &c->a, 1, 0);
		if (c->b.tid)
			feed(&m, &c->b, 1, c->b.now - c->a.now);
		r = find(model_shown(&m), 1);
		ck_assert_ptr_nonnull(r);
		ck_assert_msg((r->flags & c->set) == c->set &&
			      !(r->flags & c->clear), "%s: flags %#x", c->what,
			      r->flags);
		ck_assert_msg(!c->interval_ns || r->interval_ns == c->interval_ns,
			      "%s: interval %llu", c->what,
			      (unsigned long long)r->interval_ns);
		for (const struct want_col *w = c->want; w->col != COL_NR; w++)
			ck_assert_msg(fabs(value(r, w->col) - w->value) < 1e-6,
				      "%s: %s is %f, not %f", c->what,
				      columns[w->col].key, value(r, w->col),
				      w->value);
		ck_assert_uint_eq(model_shown(&m)->nthreads,
				  !(r->flags & ROW_EXITED));
		model_free(&m);
	}
}
END_TEST

/*
 * An exited thread's row lingers, then goes: whether its page was
 * unmapped (it is missing from the sample) or still reads EXITED.
 */
START_TEST(test_exited_thread_lingers_then_goes)
{
	for (int unmapped = 0; unmapped < 2; unmapped++) {
		struct csf_snap a[2] = { mk(1, 1, "stay", 10 * SEC),
					 mk(2, 1, "leave", 10 * SEC) };
		size_t n = unmapped ? 1 : 2;
		struct model m;
		const struct row *r;

		model_init(&m, ident);
		feed(&m, a, 2, 0);
		a[0].now = a[1].now = 11 * SEC;
		a[1].state = CSF_STATE_EXITED;
		feed(&m, a, n, SEC);
		r = find(model_shown(&m), 2);
		ck_assert_ptr_nonnull(r);
		ck_assert(r->flags & ROW_EXITED);
		ck_assert_uint_eq(row_state(r), CSF_STATE_EXITED);
		ck_assert_double_eq(value(r, COL_VCSW_RATE), 0);
		ck_assert_uint_eq(model_shown(&m)->nthreads, 1);
		/* still there just before the linger time, gone at it */
		feed(&m, a, n, SEC + MODEL_LINGER_NS - 1);
		ck_assert_ptr_nonnull(find(model_shown(&m), 2));
		feed(&m, a, n, SEC + MODEL_LINGER_NS);
		ck_assert_ptr_null(find(model_shown(&m), 2));
		ck_assert_ptr_nonnull(find(model_shown(&m), 1));
		model_free(&m);
	}
}
END_TEST

/* A process row's total of running time and its wakeups, or -1 if none. */
static int64_t proc_run(const struct screen *s, uint32_t tgid,
			uint64_t *wakeups)
{
	struct proc_screen p;
	const struct row *r;
	int64_t v = -1;

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(model_processes(s, &p), 0);
	r = find(&p.s, tgid);
	if (r) {
		v = (int64_t)r->total_ns[CSF_STATE_RUNNING];
		*wakeups = r->wakeups;
	}
	model_processes_free(&p);
	return v;
}

/*
 * csf_group_add(3)'s rule: a process's totals keep its exited threads'
 * after their rows go, in a frozen screen too, until the process has no
 * row left or a replay jumps; a new process of the same tgid starts from
 * nothing.
 */
START_TEST(test_process_keeps_exited_threads_sums)
{
	struct csf_snap a[2] = { mk(1, 1, "main", 10 * SEC),
				 mk(2, 1, "worker", 10 * SEC) };
	uint64_t t = 0, w = 0;
	struct model m;

	a[0].time[CSF_STATE_RUNNING] = 100 * MS;
	a[1].time[CSF_STATE_RUNNING] = 30 * MS;
	a[1].wakeups = 7;
	model_init(&m, ident);
	feed(&m, a, 2, 0);
	ck_assert_int_eq(proc_run(&m.live, 1, &w), 130 * MS);
	/* the worker exits, then lingers out; its sums stay */
	a[1].state = CSF_STATE_EXITED;
	feed(&m, a, 2, t += SEC);
	feed(&m, a, 1, t += MODEL_LINGER_NS);
	ck_assert_ptr_null(find(&m.live, 2));
	ck_assert_int_eq(proc_run(&m.live, 1, &w), 130 * MS);
	ck_assert_uint_eq(w, 7);
	a[0].time[CSF_STATE_RUNNING] = 150 * MS;
	feed(&m, a, 1, t += SEC);
	ck_assert_int_eq(proc_run(&m.live, 1, &w), 180 * MS);
	ck_assert_int_eq(model_freeze(&m), 0);
	ck_assert_int_eq(proc_run(model_shown(&m), 1, &w), 180 * MS);
	model_live(&m);
	/* a replay's jump starts afresh: what it saw before is not added */
	model_restart(&m);
	feed(&m, a, 1, t += SEC);
	ck_assert_int_eq(proc_run(&m.live, 1, &w), 150 * MS);
	/* the process goes; one of the same tgid starts afresh */
	feed(&m, a, 0, t += SEC);
	feed(&m, a, 0, t += MODEL_LINGER_NS);
	ck_assert_int_eq(proc_run(&m.live, 1, &w), -1);
	a[0].registered_at = 2;
	a[0].time[CSF_STATE_RUNNING] = 5 * MS;
	feed(&m, a, 1, t += SEC);
	ck_assert_int_eq(proc_run(&m.live, 1, &w), 5 * MS);
	/* the frozen screen kept its own */
	ck_assert_int_eq(proc_run(&m.frozen, 1, &w), 180 * MS);
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
	feed(&m, s, 4, 0);
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
	feed(&m, &a, 1, 0);
	feed(&m, &b, 1, SEC);
	ck_assert_int_eq(model_freeze(&m), 0);
	ck_assert_int_eq(m.mode, MODE_FROZEN);
	feed(&m, &c, 1, 2 * SEC);
	/* shown: still B's 50%; live moved on to 10% */
	ck_assert_double_eq_tol(pct_of(find(model_shown(&m), 1), 0), 50.0,
				1e-9);
	ck_assert_double_eq_tol(pct_of(find(&m.live, 1), 0), 10.0, 1e-9);
	model_live(&m);
	ck_assert_double_eq_tol(pct_of(find(model_shown(&m), 1), 0), 10.0,
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
	feed(m, a, 3, 0);
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
	feed(m, b, nb, 2 * SEC);
	ck_assert_int_eq(model_diff(m), 1);
	ck_assert_int_eq(m->mode, MODE_DIFF);
}

/* The rows of build_diff()'s B-A. */
static const struct diff_case {
	const char *what;
	uint32_t tid;
	unsigned int set, clear;	/* ROW_* flags it has, has not */
	struct want_col want[5];
} diff_cases[] = {
	{ "changed: B-A", 1, ROW_CHANGED, ROW_APPEARED | ROW_GONE,
	  { { COL_RUN_TOTAL, 500.0 * MS }, { COL_RUNNABLE_PCT, 75 },
	    { COL_VCSW_RATE, 20 }, { COL_MIGRATIONS, 2 }, END } },
	{ "unchanged: not marked", 2, 0,
	  ROW_CHANGED | ROW_APPEARED | ROW_GONE,
	  { { COL_RUN_TOTAL, 0 }, END } },
	/* its whole life is inside A..B: a share of the 2 s span */
	{ "appeared", 4, ROW_APPEARED, ROW_GONE, { { COL_RUN_PCT, 50 }, END } },
	/* it vanished from the sample between A and B */
	{ "exited", 3, ROW_GONE, ROW_APPEARED,
	  { { COL_STATE, CSF_STATE_EXITED }, END } },
};

START_TEST(test_diff_rows)
{
	struct model m;

	build_diff(&m);
	ck_assert_int_eq(model_shown(&m)->kind, SCREEN_DIFF);
	for (size_t k = 0; k < sizeof(diff_cases) / sizeof(diff_cases[0]);
	     k++) {
		const struct diff_case *c = &diff_cases[k];
		const struct row *r = find(model_shown(&m), c->tid);

		ck_assert_ptr_nonnull(r);
		ck_assert_msg((r->flags & c->set) == c->set &&
			      !(r->flags & c->clear), "%s: flags %#x", c->what,
			      r->flags);
		for (const struct want_col *w = c->want; w->col != COL_NR; w++)
			ck_assert_msg(fabs(value(r, w->col) - w->value) < 1e-6,
				      "%s: %s is %f, not %f", c->what,
				      columns[w->col].key, value(r, w->col),
				      w->value);
	}
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
	feed(&m, a, 2, 0);
	model_freeze(&m);
	model_live(&m);
	feed(&m, a, 1, SEC);
	feed(&m, a, 1, 10 * SEC);	/* 2 lingered out */
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
	n = select_rows(s, NULL, COL_RUN_TOTAL, 1, idx);
	ck_assert_uint_eq(n, 4);
	/* newbie ran 1 s inside A..B, busy 0.5 s */
	ck_assert_uint_eq(s->rows[idx[0]].snap.tid, 4);
	ck_assert_uint_eq(s->rows[idx[1]].snap.tid, 1);
	ck_assert_int_eq(filter_set(&f, "lea"), 0);
	n = select_rows(s, &f, COL_RUN_TOTAL, 1, idx);
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

/* A CPU sampled at a, then b: its meter's shares and rate. */
static const struct cpu_case {
	const char *what;
	struct csf_cpu_snap a, b;
	double busy, iowait, csw_per_s;	/* percent; per second */
	double stat[CSF_STAT_NR];	/* percent */
} cpu_cases[] = {
	{ "the bar from stat[], the number from sched_switch",
	  { .now = 10 * SEC, .online = 1, .nr_switches = 1000,
	    .time = { [CSF_CPU_BUSY] = 4 * SEC, [CSF_CPU_IDLE] = 6 * SEC } },
	  { .now = 11 * SEC, .online = 1, .nr_switches = 1500,
	    .time = { [CSF_CPU_BUSY] = 4 * SEC + 250 * MS,
		      [CSF_CPU_IDLE] = 6 * SEC + 650 * MS,
		      [CSF_CPU_IOWAIT] = 100 * MS },
	    .stat = { [CSF_STAT_USER] = 150 * MS,
		      [CSF_STAT_SYSTEM] = 100 * MS,
		      [CSF_STAT_IDLE] = 650 * MS,
		      [CSF_STAT_IOWAIT] = 100 * MS } },
	  25, 10, 500, { [CSF_STAT_USER] = 15, [CSF_STAT_SYSTEM] = 10,
			 [CSF_STAT_IDLE] = 65, [CSF_STAT_IOWAIT] = 10 } },
	/* module reloaded: counters restart; stat[] not refreshed within a
	 * short interval: no colours, but the exact busy share stays */
	{ "counters reset, stat[] quiet",
	  { .now = 10 * SEC, .online = 1, .nr_switches = 100000,
	    .time = { [CSF_CPU_BUSY] = 9 * SEC, [CSF_CPU_IDLE] = SEC } },
	  { .now = 10 * SEC + 10 * MS, .online = 1, .nr_switches = 20,
	    .time = { [CSF_CPU_BUSY] = 5 * MS, [CSF_CPU_IDLE] = 5 * MS } },
	  50, 0, 2000, { 0 } },
};

START_TEST(test_cpu_meters)
{
	for (size_t k = 0; k < sizeof(cpu_cases) / sizeof(cpu_cases[0]);
	     k++) {
		const struct cpu_case *cc = &cpu_cases[k];
		struct model m;
		const struct cpu_row *c;

		model_init(&m, ident);
		model_sample(&m, NULL, NULL, 0, &cc->a, 1, 0);
		model_sample(&m, NULL, NULL, 0, &cc->b, 1,
			     cc->b.now - cc->a.now);
		c = &model_shown(&m)->cpus[0];
		ck_assert_msg(fabs(pct(c->busy) - cc->busy) < 1e-9 &&
			      fabs(pct(c->iowait) - cc->iowait) < 1e-9,
			      "%s: busy %f, iowait %f", cc->what, pct(c->busy),
			      pct(c->iowait));
		for (int st = 0; st < CSF_STAT_NR; st++)
			ck_assert_msg(fabs(pct(c->stat[st]) - cc->stat[st]) < 1e-9,
				      "%s: stat[%d] %f", cc->what, st,
				      pct(c->stat[st]));
		ck_assert_double_eq_tol(per_s(c->csw_rate), cc->csw_per_s, 1e-6);
		ck_assert_double_eq_tol(per_s(model_shown(&m)->csw_rate),
					cc->csw_per_s, 1e-6);
		model_free(&m);
	}
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

/* A duration or count over many magnitudes, often on a unit's edge. */
static uint64_t rnd_u64(void)
{
	static const uint64_t edges[] = {
		999, 1000, 1050, 999949, 999950, 999950000, 99995000000ull,
		/* halfway between two printed values */
		2050, 1250000, 7850000, 1005000000, 2675000000ull,
		3600000000000ull, 3600000000000000ull, 9999999, 10000000,
		9999950000ull, 10000000000ull, 5, 0,
	};
	uint64_t v = rnd() >> (rnd() % 64);

	if (rnd() % 8 == 0)
		v = edges[rnd() % (sizeof(edges) / sizeof(edges[0]))] +
		    rnd() % 3 - 1;
	return v;
}

/*
 * The specification, in 128-bit integers: @num * @mul / @den rounded
 * half up.  *@near says that printf of the nearest double may round it
 * either way: it is within a thousandth of a unit of a tie (or on one),
 * or so large that a double's 53 bits do not hold it to that.
 */
static uint64_t ref_round(uint64_t num, uint64_t mul, uint64_t den, int *near)
{
	unsigned __int128 x = (unsigned __int128)num * mul;
	unsigned __int128 q = x / den, r2 = 2 * (x % den);
	unsigned __int128 off = r2 > den ? r2 - den : den - r2;

	if (near)
		*near |= off <= den / 1000 || q >= 1000000000000ull;
	q += r2 >= den;
	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

/* @q / 10^@dec with @dec decimals and @unit, by printf of integers */
static void ref_fixed(char *buf, size_t len, uint64_t q, int dec,
		      const char *unit)
{
	static const uint64_t p10[] = { 1, 10, 100, 1000 };

	if (dec)
		snprintf(buf, len, "%llu.%0*llu%s",
			 (unsigned long long)(q / p10[dec]), dec,
			 (unsigned long long)(q % p10[dec]), unit);
	else
		snprintf(buf, len, "%llu%s", (unsigned long long)q, unit);
}

static const char *got_of(char *buf, char *start)
{
	buf[FMT_BUFSZ - 1] = '\0';
	return start;
}

/*
 * The printf form each function stands for, of the nearest double.  Each
 * form ends where its rounded value would need the next: csftop before
 * integer formatting printed 9999.5k to 9999.9k (and M) as "10.0M" (and G).
 */
static void printf_dur(char *buf, size_t len, uint64_t ns)
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

static void printf_rate(char *buf, size_t len, double v)
{
	if (v < 9999.5)
		snprintf(buf, len, v < 99.95 ? "%.1f" : "%.0f", v);
	else if (v < 9999.95e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v < 9999.95e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else
		snprintf(buf, len, "%.1fG", v / 1e9);
}

/* The same, by the specification; *@near as ref_round() */
static void ref_dur(char *buf, size_t len, uint64_t ns, int *near)
{
	if (ns < 1000 || ns >= 99995000000ull)
		printf_dur(buf, len, ns);	/* integers: no rounding */
	else if (ns < 999950)
		ref_fixed(buf, len, ref_round(ns, 1, 100, near), 1, "us");
	else if (ns < 999950000)
		ref_fixed(buf, len, ref_round(ns, 1, 100000, near), 1, "ms");
	else
		ref_fixed(buf, len, ref_round(ns, 1, 10000000, near), 2, "s");
}

static void ref_rate(char *buf, size_t len, uint64_t n, uint64_t ns, int *near)
{
	uint64_t q;

	if (!ns || !n) {
		snprintf(buf, len, "0.0");
	} else if ((q = ref_round(n, 10000000000ull, ns, near)) < 1000) {
		ref_fixed(buf, len, q, 1, "");
	} else if ((q = ref_round(n, 1000000000ull, ns, near)) < 10000) {
		ref_fixed(buf, len, q, 0, "");
	} else if ((q = ref_round(n, 10000000ull, ns, near)) < 100000) {
		ref_fixed(buf, len, q, 1, "k");
	} else if ((q = ref_round(n, 10000ull, ns, near)) < 100000) {
		ref_fixed(buf, len, q, 1, "M");
	} else {
		ref_fixed(buf, len, ref_round(n, 10, ns, near), 1, "G");
	}
}

static void ref_count(char *buf, size_t len, uint64_t n, int *near)
{
	uint64_t q;

	if (n < 10000000)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else if ((q = ref_round(n, 1, 100000, near)) < 100000)
		ref_fixed(buf, len, q, 1, "M");
	else
		ref_fixed(buf, len, ref_round(n, 1, 100000000, near), 1, "G");
}

/*
 * Every form against the specification, and against printf of the
 * nearest double wherever that is not within a hair of a tie.
 */
START_TEST(test_fmt_is_printf_rounded_half_up)
{
	char want[64], pf[64], buf[FMT_BUFSZ];

	for (int i = 0; i < 100000; i++) {
		uint64_t u = rnd_u64(), den = rnd_u64() | 1, num;
		int near = 0;

		ck_assert_str_eq(got_of(buf, fmt_uint(buf + FMT_BUFSZ - 1, u)),
				 (snprintf(want, sizeof(want), "%llu",
					   (unsigned long long)u), want));

		ref_dur(want, sizeof(want), u, &near);
		ck_assert_msg(!strcmp(got_of(buf, fmt_dur(buf + FMT_BUFSZ - 1, u)),
				      want), "dur %llu: %s, not %s",
			      (unsigned long long)u, buf + FMT_BUFSZ - 1 -
			      strlen(want), want);
		printf_dur(pf, sizeof(pf), u);
		ck_assert_msg(near || !strcmp(pf, want), "dur %llu: %s, printf %s",
			      (unsigned long long)u, want, pf);

		near = 0;
		ref_count(want, sizeof(want), u, &near);
		ck_assert_str_eq(got_of(buf, fmt_count(buf + FMT_BUFSZ - 1, u)),
				 want);
		snprintf(pf, sizeof(pf), u < 10000000 ? "%.0f" :
			 u < 9999950000ull ? "%.1fM" : "%.1fG",
			 u < 10000000 ? (double)u : u < 9999950000ull ?
			 (double)u / 1e6 : (double)u / 1e9);
		ck_assert_msg(near || !strcmp(pf, want), "count %llu: %s, printf %s",
			      (unsigned long long)u, want, pf);

		/* a share: a part of the interval, sometimes more than all */
		num = rnd() % 4 ? rnd_u64() % den : rnd() % 2 ? den : 0;
		near = 0;
		if (!num) {
			snprintf(want, sizeof(want), "0.0");
		} else {
			uint64_t q = ref_round(num, 1000, den, &near);

			ref_fixed(want, sizeof(want), q, 1, "");
		}
		ck_assert_str_eq(got_of(buf, fmt_pct(buf + FMT_BUFSZ - 1,
						     (struct ratio){ num, den })),
				 want);
		snprintf(pf, sizeof(pf), "%.1f", 100.0 * (double)num / (double)den);
		ck_assert_msg(near || !strcmp(pf, want), "pct %llu/%llu: %s, printf %s",
			      (unsigned long long)num, (unsigned long long)den,
			      want, pf);

		/* a rate: any count over any interval */
		num = rnd_u64();
		near = 0;
		ref_rate(want, sizeof(want), num, den, &near);
		ck_assert_str_eq(got_of(buf, fmt_rate(buf + FMT_BUFSZ - 1,
						      (struct ratio){ num, den })),
				 want);
		printf_rate(pf, sizeof(pf), 1e9 * (double)num / (double)den);
		ck_assert_msg(near || !strcmp(pf, want),
			      "rate %llu/%llu ns: %s, printf %s",
			      (unsigned long long)num, (unsigned long long)den,
			      want, pf);

		/* CSV and JSON: two decimals of a percent and of a rate */
		near = 0;
		ref_fixed(want, sizeof(want), ref_round(num, 10000, den, &near),
			  2, "");
		ck_assert_str_eq(got_of(buf, fmt_decimal(buf + FMT_BUFSZ - 1,
							 (struct ratio){ num, den },
							 100, 2)), want);
		ref_fixed(want, sizeof(want), ref_round(num, 100000000000ull, den,
							NULL), 2, "");
		ck_assert_str_eq(got_of(buf, fmt_decimal(buf + FMT_BUFSZ - 1,
							 (struct ratio){ num, den },
							 1000000000, 2)), want);
	}
}
END_TEST

/* Ties go up, where printf's nearest double goes to even or down. */
START_TEST(test_fmt_ties_round_half_up)
{
	static const struct {
		const char *want;
		char *(*pct)(char *, struct ratio);
		char *(*dur)(char *, uint64_t);
		struct ratio q;
		uint64_t u;
	} cases[] = {
		{ "6.3", fmt_pct, NULL, { 1, 16 }, 0 },		/* 6.25 */
		{ "0.3", fmt_pct, NULL, { 1, 400 }, 0 },	/* 0.25 */
		{ "563", fmt_rate, NULL, { 5625, 10000000000ull }, 0 },
		{ "2.1us", NULL, fmt_dur, { 0, 0 }, 2050 },
		{ "1.3ms", NULL, fmt_dur, { 0, 0 }, 1250000 },
		{ "2.68s", NULL, fmt_dur, { 0, 0 }, 2675000000ull },
		{ "2m05s", NULL, fmt_dur, { 0, 0 }, 125000000000ull },
		{ "2h07m", NULL, fmt_dur, { 0, 0 }, 7620000000000ull },
		{ "213503d", NULL, fmt_dur, { 0, 0 }, UINT64_MAX },
		{ "10.0G", NULL, fmt_count, { 0, 0 }, 9999950000ull },
		{ "9999.9M", NULL, fmt_count, { 0, 0 }, 9999949999ull },
		{ "150.0", fmt_pct, NULL, { 3, 2 }, 0 },	/* a process's */
		{ "0.0", fmt_pct, NULL, { 1, 0 }, 0 },		/* no interval */
		{ "0.0", fmt_rate, NULL, { 7, 0 }, 0 },
		{ "18446744073709551615", NULL, fmt_uint, { 0, 0 }, UINT64_MAX },
	};
	char buf[FMT_BUFSZ];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = cases[i].pct ?
			FMT_STR(buf, cases[i].pct, cases[i].q) :
			FMT_STR(buf, cases[i].dur, cases[i].u);

		ck_assert_msg(!strcmp(got, cases[i].want), "case %zu: %s, not %s",
			      i, got, cases[i].want);
	}
	/* 3.125 percent to two decimals, and a wall clock to the ms */
	ck_assert_str_eq(FMT_STR(buf, fmt_decimal, ((struct ratio){ 1, 32 }),
				 100, 2), "3.13");
	ck_assert_str_eq(FMT_STR(buf, fmt_decimal,
				 ((struct ratio){ 1764600000123500000ull,
						  1000000000 }), 1, 3),
			 "1764600000.124");
	ck_assert_str_eq(FMT_STR(buf, fmt_interval, 1500000000ull), "1.5 s");
	ck_assert_str_eq(FMT_STR(buf, fmt_interval, 10000000ull), "10 ms");
}
END_TEST

/* Every number column renders its value with its kind's formatter. */
START_TEST(test_columns_render_their_values)
{
	char want[FMT_BUFSZ], got[COL_TEXT_MAX];
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
		r.flags = ROW_WAITS;
		r.waits.runnable_p99_ns = rnd() % 2 ? rnd_u64() : 0;
		r.waits.runnable_max_ns = rnd() % 2 ? rnd_u64() : 0;
		r.waits.wait_p99_ns = rnd() % 2 ? rnd_u64() : 0;
		r.waits.waker.at = r.waits.preemptor.at = 1;
		r.waits.waker.tid = (uint32_t)(rnd() % 3);
		r.waits.preemptor.tid = (uint32_t)rnd_u64();
		for (int c = 0; c < COL_NR; c++) {
			const struct column *col = &columns[c];
			const char *w;
			char *e = got + sizeof(got) - 1;

			if (col->kind == COL_KIND_TEXT)
				continue;
			switch (col->kind) {
			case COL_KIND_PCT:
				w = FMT_STR(want, fmt_pct, col->ratio(&r));
				break;
			case COL_KIND_NS:
				/* a wait of none: "-" */
				w = col->has && !col->uint(&r) ? "-" :
				    FMT_STR(want, fmt_dur, col->uint(&r));
				break;
			case COL_KIND_RATE:
				w = FMT_STR(want, fmt_rate, col->ratio(&r));
				break;
			default:
				/* ids in full, counts compact */
				if (c == COL_PID || c == COL_TID ||
				    c == COL_CPU || c == COL_WAKER_TID ||
				    c == COL_PREEMPTOR_TID)
					w = FMT_STR(want, fmt_uint,
						    col->uint(&r));
				else
					w = FMT_STR(want, fmt_count,
						    col->uint(&r));
				break;
			}
			*e = '\0';
			ck_assert_msg(!strcmp(col->render(e, &r, col), w),
				      "%s: %s, not %s", col->key,
				      col->render(e, &r, col), w);
		}
	}
}
END_TEST

/* @b's text of the screen @m shows, as csftop -b prints it: malloc'd. */
static char *batch_text(const struct model *m, const struct batch_opts *o,
			struct batch_buf *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(batch_print(f, m, o, b), 0);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

/*
 * -b text keeps cells from frame to frame: a frame must print as it would
 * on its own whatever came before.  Threads run, sleep, wait and switch
 * in random steps over random intervals, come and go, and each frame is
 * sorted on another column, in runs of five with rows per thread or per
 * process, so that lines change threads and values change under a line.
 */
START_TEST(test_batch_text_frame_as_on_its_own)
{
	enum { NTH = 40, FRAMES = 60 };
	struct csf_snap s[NTH], in[NTH];
	struct batch_buf kept, fresh;
	struct batch_opts o;
	uint64_t x = 7, now = SEC;
	struct model m;

	memset(&kept, 0, sizeof(kept));
	memset(&o, 0, sizeof(o));
	o.format = BATCH_TEXT;
	o.clock_label = "monotonic";
	for (unsigned int k = 0; k < NTH; k++)
		s[k] = mk(100 + k, 100 + k / 4, k % 3 ? "worker" : "io", now);
	model_init(&m, ident);
	for (unsigned int f = 0; f < FRAMES; f++) {
		uint64_t step = (lcg(&x) % 40 + 1) * MS;
		size_t n = 0;
		char *a, *b;

		now += step;
		for (unsigned int k = 0; k < NTH; k++) {
			struct csf_snap *t = &s[k];

			if (lcg(&x) % 3) {	/* most threads do not move */
				t->time[t->state] += lcg(&x) % (step + 1);
				t->nvcsw += lcg(&x) % 3;
				t->nivcsw += lcg(&x) % 2;
				t->wakeups += lcg(&x) % 2;
				t->migrations += lcg(&x) % 5 == 0;
				t->state = (uint32_t)(lcg(&x) % CSF_NR_STATES);
				t->cpu = (uint32_t)(lcg(&x) % 3);
			}
			t->now = now;
			/* now and then a thread is missing from a sample */
			if (lcg(&x) % 17)
				in[n++] = *t;
		}
		feed(&m, in, n, now);
		o.sort_col = (enum col)(f % COL_NR);
		o.sort_desc = f % 2;
		o.processes = f / 5 % 2;
		memset(&fresh, 0, sizeof(fresh));
		a = batch_text(&m, &o, &kept);
		b = batch_text(&m, &o, &fresh);
		if (strcmp(a, b)) {
			size_t i = 0, l = 0;

			/* the first line that differs: whole frames are too
			 * long for check's message */
			for (; a[i] == b[i]; i++)
				if (a[i] == '\n')
					l = i + 1;
			ck_abort_msg("frame %u, sorted on %s%s: kept %.*s, alone %.*s",
				     f, columns[o.sort_col].key,
				     o.processes ? " per process" : "",
				     (int)strcspn(a + l, "\n"), a + l,
				     (int)strcspn(b + l, "\n"), b + l);
		}
		free(a);
		free(b);
		batch_buf_free(&fresh);
	}
	batch_buf_free(&kept);
	model_free(&m);
}
END_TEST

/* @a's and @b's waits, field by field (a task's padding is not compared). */
static void same_waits(const struct row *a, const struct row *b,
		       unsigned int f, const char *when)
{
	const struct csf_task *ta[2] = { &a->waits.waker, &a->waits.preemptor };
	const struct csf_task *tb[2] = { &b->waits.waker, &b->waits.preemptor };

	ck_assert_msg((a->flags & ROW_WAITS) == (b->flags & ROW_WAITS) &&
		      a->waits.runnable_p99_ns == b->waits.runnable_p99_ns &&
		      a->waits.runnable_max_ns == b->waits.runnable_max_ns &&
		      a->waits.wait_p99_ns == b->waits.wait_p99_ns,
		      "frame %u, %s, tid %u: waits differ", f, when,
		      a->snap.tid);
	for (int k = 0; k < 2; k++)
		ck_assert_msg(ta[k]->at == tb[k]->at &&
			      ta[k]->tid == tb[k]->tid &&
			      !strcmp(ta[k]->comm, tb[k]->comm),
			      "frame %u, %s, tid %u: task %d differs", f, when,
			      a->snap.tid, k);
}

/*
 * Rows' waits while model_waits() is off: model_row_waits() gives a row
 * what a model computing them all along has, and so do turning them on
 * again and a freeze meanwhile.  Threads close intervals at random; their
 * histograms are read only then, as the session reads them.
 */
START_TEST(test_waits_off_as_if_on)
{
	enum { NTH = 24, FRAMES = 40 };
	struct csf_snap s[NTH], in[NTH];
	struct csf_hist h[NTH];
	const struct csf_hist *ph[NTH];
	uint64_t x = 11, now = SEC;
	struct model on, off;

	model_init(&on, ident);
	model_init(&off, ident);
	ck_assert_int_eq(model_waits(&off, 0), 0);
	for (unsigned int k = 0; k < NTH; k++) {
		s[k] = mk(200 + k, 200, "w", now);
		memset(&h[k], 0, sizeof(h[k]));
		h[k].tid = s[k].tid;
		h[k].registered_at = s[k].registered_at;
		h[k].max_known = (1u << CSF_NR_STATES) - 1;
	}
	for (unsigned int f = 0; f < FRAMES; f++) {
		size_t n = 0;

		now += 10 * MS;
		for (unsigned int k = 0; k < NTH; k++) {
			int closed = lcg(&x) % 3 == 0;

			s[k].now = h[k].now = now;
			ph[n] = NULL;
			if (closed) {
				unsigned int st = (unsigned int)(lcg(&x) % 5);

				h[k].count[st][lcg(&x) % CSF_HIST_BUCKETS] +=
					lcg(&x) % 4 + 1;
				h[k].waker = (struct csf_task){ now,
					(uint32_t)(lcg(&x) % 1000), "waker" };
				if (lcg(&x) % 2)
					h[k].preemptor = (struct csf_task){
						now, (uint32_t)k, "preemptor" };
				s[k].state = st;
				ph[n] = &h[k];
			}
			in[n++] = s[k];
		}
		ck_assert_int_eq(model_sample(&on, in, ph, n, NULL, 0, now), 0);
		ck_assert_int_eq(model_sample(&off, in, ph, n, NULL, 0, now), 0);
		ck_assert_uint_eq(on.live.nrows, off.live.nrows);
		if (f == 15 || f == 16) {	/* frozen, then back */
			ck_assert_int_eq(f == 15 ? model_freeze(&off) :
					 (model_live(&off), 0), 0);
			for (size_t i = 0; i < off.frozen.nrows && f == 15; i++)
				same_waits(&off.frozen.rows[i],
					   &on.live.rows[i], f, "frozen");
		}
		if (f == 25)
			ck_assert_int_eq(model_waits(&off, 1), 1);
		if (f == 32)
			ck_assert_int_eq(model_waits(&off, 0), 0);
		for (size_t i = 0; i < on.live.nrows; i++) {
			const struct row *r = &off.live.rows[i];
			struct row w;

			if (f >= 25 && f < 32) {
				ck_assert_int_eq(model_row_waits(&off, r, &w), 0);
				same_waits(r, &on.live.rows[i], f, "on again");
			} else if (f != 15) {
				/* a thread never read yet has no waits */
				ck_assert_int_eq(model_row_waits(&off, r, &w),
						 !!r->hist);
				same_waits(r->hist ? &w : r, &on.live.rows[i],
					   f, "drawn");
			}
		}
	}
	model_free(&on);
	model_free(&off);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_sort_every_column_both_ways,
		test_sort_default_is_runnable_descending,
		test_sort_ties_broken_by_tid,
		test_sort_many_rows_matches_comparison_sort,
		test_col_by_key,
		test_filter_by_pid_tid_or_name,
		test_filter_bad_pid_lists_rejected,
		test_thread_rows,
		test_exited_thread_lingers_then_goes,
		test_counts_threads_and_processes,
		test_process_keeps_exited_threads_sums,
		test_cpu_meters,
		test_freeze_stops_screen_sampling_goes_on,
		test_diff_rows,
		test_diff_exited_after_linger,
		test_diff_sortable_and_filterable,
		test_diff_back_to_live,
		test_fmt_is_printf_rounded_half_up,
		test_fmt_ties_round_half_up,
		test_columns_render_their_values,
		test_batch_text_frame_as_on_its_own,
		test_waits_off_as_if_on,
		NULL,
	};

	return unit_run_tests("model", tests);
}
