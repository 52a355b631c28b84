// SPDX-License-Identifier: MIT
/*
 * The shape of the intervals through the library: csf_thread_hist() and
 * csf_thread_read_hist() copy a page's ABI 1.1 part and refuse a 1.0 page,
 * csf_hist_delta() keeps what happened between two reads, quantiles follow
 * the documented rule, and csf_format_diff() names an operation's longest
 * wait, its waker and its preemptor on a second line.  Pages are files
 * laid out like the module's, on CLOCK_MONOTONIC ticks (1 tick = 1 ns).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fake_root.h"
#include "unit.h"

/* Record an interval of @state, @len ns long, ending at @end, as the module
 * would: in its bucket, as the longest, and off the CPU in waits[]. */
static void closed(struct csf_thread_page *p, unsigned int state,
		   uint64_t len, uint64_t end)
{
	unsigned int b = 0;

	while (b + 1 < CSF_HIST_BUCKETS && len >= CSF_HIST_UPPER_NS(b))
		b++;
	p->hist[state][b]++;
	if (len > p->max_len[state]) {
		p->max_len[state] = len;
		p->max_end[state] = end;
	}
	if (state != CSF_STATE_RUNNING) {
		struct csf_wait *w = &p->waits[p->nr_waits++ % CSF_WAITS];

		w->end = end;
		w->len = len;
		w->state = state;
	}
}

static void name(struct csf_task_ref *r, uint64_t at, uint32_t tid,
		 const char *comm)
{
	r->at = at;
	r->tid = tid;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
}

START_TEST(a_page_of_abi_1_0_has_none)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_hist h;

	fake_thread_page(&p, (uint32_t)fake_gettid());
	p.abi_minor = 0;
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_hist(&h), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EOPNOTSUPP), "1.1"));
}
END_TEST

START_TEST(reads_copy_the_page)
{
	const char *root = fake_root_default();
	struct csf_thread_map *map;
	struct csf_thread_page p;
	struct csf_hist h;

	fake_thread_page(&p, 77);
	closed(&p, CSF_STATE_RUNNABLE, 3000, 5000);
	closed(&p, CSF_STATE_RUNNABLE, 500, 9000);
	closed(&p, CSF_STATE_SLEEPING, 2000000, 8000);
	closed(&p, CSF_STATE_RUNNING, 1ull << 40, 7000);
	name(&p.waker, 8000, 12, "pipe-writer");
	name(&p.preemptor, 6000, 0, "");
	memcpy(p.preemptor.comm, "0123456789abcdef", 16);  /* no NUL */
	fake_write_thread(root, "threads/77", &p);

	ck_assert_int_eq(csf_thread_map(77, &map), 0);
	ck_assert_int_eq(csf_thread_read_hist(map, &h), 0);
	ck_assert_uint_eq(h.tid, 77);
	ck_assert_uint_eq(h.count[CSF_STATE_RUNNABLE][0], 1);
	ck_assert_uint_eq(h.count[CSF_STATE_RUNNABLE][2], 1);	/* 3 us */
	ck_assert_uint_eq(h.count[CSF_STATE_SLEEPING][11], 1);	/* 2 ms */
	ck_assert_uint_eq(h.count[CSF_STATE_RUNNING][CSF_HIST_BUCKETS - 1], 1);
	ck_assert_uint_eq(h.max_ns[CSF_STATE_RUNNABLE], 3000);
	ck_assert_uint_eq(h.max_end[CSF_STATE_RUNNABLE], 5000);
	ck_assert_uint_eq(h.max_known, (1u << CSF_NR_STATES) - 1);
	ck_assert_uint_eq(h.nr_waits, 3);
	ck_assert_uint_eq(h.waits[2].len, 2000000);
	ck_assert_uint_eq(h.waker.tid, 12);
	ck_assert_str_eq(h.waker.comm, "pipe-writer");
	ck_assert_str_eq(h.preemptor.comm, "0123456789abcde");
	ck_assert_int_eq(csf_thread_read_hist(NULL, &h), -EINVAL);
	csf_thread_unmap(map);
}
END_TEST

/* Two reads of one page, the second with more intervals. */
static void two_reads(struct csf_hist *a, struct csf_hist *b, int waits)
{
	const char *root = fake_root_default();
	struct csf_thread_map *map;
	struct csf_thread_page p;

	fake_thread_page(&p, 5);
	p.registered_at = 1;
	closed(&p, CSF_STATE_SLEEPING, 9000000, 100);	/* the longest */
	closed(&p, CSF_STATE_RUNNABLE, 40000, 200);
	fake_write_thread(root, "threads/5", &p);
	ck_assert_int_eq(csf_thread_map(5, &map), 0);
	ck_assert_int_eq(csf_thread_read_hist(map, a), 0);
	/* after the first read: @waits sleeps of 1 ms, one wait of 60 us */
	for (int i = 0; i < waits; i++)
		closed(&p, CSF_STATE_SLEEPING, 1000000, a->now + 10 + i);
	closed(&p, CSF_STATE_RUNNABLE, 60000, a->now + 1000);
	name(&p.preemptor, a->now + 1000, 42, "kworker/0:1");
	name(&p.waker, 150, 9, "old");
	fake_update_thread(root, "threads/5", &p);
	ck_assert_int_eq(csf_thread_read_hist(map, b), 0);
	csf_thread_unmap(map);
}

START_TEST(a_delta_holds_what_happened_between)
{
	struct csf_hist a, b, d;

	two_reads(&a, &b, 3);
	ck_assert_int_eq(csf_hist_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.count[CSF_STATE_SLEEPING][10], 3);	/* 1 ms */
	ck_assert_uint_eq(d.count[CSF_STATE_SLEEPING][14], 0);	/* 9 ms */
	/* 40 and 60 us share a bucket; the delta has the second only */
	ck_assert_uint_eq(b.count[CSF_STATE_RUNNABLE][6], 2);
	ck_assert_uint_eq(d.count[CSF_STATE_RUNNABLE][6], 1);
	/* waits[] holds all four: every off-CPU longest is known */
	ck_assert_uint_eq(d.max_known & CSF_HIST_OFF_CPU, CSF_HIST_OFF_CPU);
	ck_assert_uint_eq(d.max_ns[CSF_STATE_SLEEPING], 1000000);
	ck_assert_uint_eq(d.max_ns[CSF_STATE_RUNNABLE], 60000);
	ck_assert_uint_eq(d.max_ns[CSF_STATE_IOWAIT], 0);
	/* no timeslice closed and none is the longest: not known */
	ck_assert_uint_eq(d.max_known & CSF_HIST_STATE(CSF_STATE_RUNNING), 0);
	ck_assert_uint_eq(d.preemptor.tid, 42);
	ck_assert_uint_eq(d.waker.tid, 0);		/* woke it before */
	ck_assert_uint_eq(d.waits[0].len, 0);		/* ended before */
	ck_assert_int_eq(csf_hist_delta(&b, &a, &d), -EINVAL);
	b.tid = 6;
	ck_assert_int_eq(csf_hist_delta(&a, &b, &d), -EINVAL);
}
END_TEST

/* More waits than waits[] holds: the longest sleep is no longer known. */
START_TEST(a_delta_past_the_waits_kept_bounds_the_longest)
{
	struct csf_hist a, b, d;

	two_reads(&a, &b, CSF_WAITS + 5);
	ck_assert_int_eq(csf_hist_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.count[CSF_STATE_SLEEPING][10], CSF_WAITS + 5);
	ck_assert_uint_eq(d.max_known & CSF_HIST_STATE(CSF_STATE_SLEEPING), 0);
	/* its bucket bounds it: [2^19, 2^20) ns */
	ck_assert_uint_eq(csf_hist_quantile(&d,
					    CSF_HIST_STATE(CSF_STATE_SLEEPING),
					    1.0), 1u << 20);
}
END_TEST

START_TEST(quantiles_interpolate_within_the_bucket)
{
	struct csf_hist h;
	unsigned int run = CSF_HIST_STATE(CSF_STATE_RUNNABLE);

	memset(&h, 0, sizeof(h));
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.5), 0);
	/* 100 waits in [2^20, 2^21) ns */
	h.count[CSF_STATE_RUNNABLE][11] = 100;
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.5), 1572864);
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.99),
			  1048576 + 1048576 * 99 / 100);
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 1.0), 2097152);
	/* known, the longest caps them all */
	h.max_known = run;
	h.max_ns[CSF_STATE_RUNNABLE] = 1500000;
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 1.0), 1500000);
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.99), 1500000);
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.25), 1310720);
	/* 900 more in bucket 0: p90 is the top of bucket 0, p99 in 11 */
	h.count[CSF_STATE_RUNNABLE][0] = 900;
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.9), 1024);
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.92),
			  1048576 + 1048576 / 5);
	ck_assert_uint_eq(csf_hist_quantile(&h, run, 0.96), 1500000);
	/* the last bucket ends at the longest, when that is known */
	h.count[CSF_STATE_RUNNING][CSF_HIST_BUCKETS - 1] = 10;
	h.max_known |= CSF_HIST_STATE(CSF_STATE_RUNNING);
	h.max_ns[CSF_STATE_RUNNING] = 20000000000ull;
	ck_assert_uint_eq(csf_hist_quantile(&h,
					    CSF_HIST_STATE(CSF_STATE_RUNNING),
					    0.5),
			  (1ull << 34) + (20000000000ull - (1ull << 34)) / 2);
	/* off the CPU: a sleep bucket joins; its longest unknown */
	h.count[CSF_STATE_SLEEPING][CSF_HIST_BUCKETS - 1] = 1000;
	ck_assert_uint_eq(csf_hist_quantile(&h, CSF_HIST_OFF_CPU, 1.0),
			  2 * (1ull << 34));
	ck_assert_uint_eq(csf_hist_quantile(&h, CSF_HIST_OFF_CPU, 0.75),
			  (1ull << 34) + (1ull << 34) / 2);
}
END_TEST

/* @h's summary of @states is its count and quantiles, one by one. */
static void summary_is_quantiles(const struct csf_hist *h,
				 unsigned int states, uint64_t count,
				 int max_known)
{
	struct csf_hist_summary sum;

	memset(&sum, 0xa5, sizeof(sum));
	csf_hist_summarize(h, states, &sum);
	ck_assert_uint_eq(sum.count, count);
	ck_assert_uint_eq(sum.p50_ns, csf_hist_quantile(h, states, 0.5));
	ck_assert_uint_eq(sum.p90_ns, csf_hist_quantile(h, states, 0.9));
	ck_assert_uint_eq(sum.p99_ns, csf_hist_quantile(h, states, 0.99));
	ck_assert_uint_eq(sum.max_ns, csf_hist_quantile(h, states, 1.0));
	ck_assert_int_eq(sum.max_known, max_known);
}

START_TEST(a_summary_is_the_count_and_the_quantiles)
{
	const unsigned int run = CSF_HIST_STATE(CSF_STATE_RUNNABLE);
	const unsigned int sleep = CSF_HIST_STATE(CSF_STATE_SLEEPING);
	struct csf_hist h;

	memset(&h, 0, sizeof(h));
	summary_is_quantiles(&h, run, 0, 0);
	h.count[CSF_STATE_RUNNABLE][0] = 900;
	h.count[CSF_STATE_RUNNABLE][11] = 100;
	summary_is_quantiles(&h, run, 1000, 0);
	ck_assert_uint_ne(csf_hist_quantile(&h, run, 0.5),
			  csf_hist_quantile(&h, run, 0.99));
	h.max_known = run;
	h.max_ns[CSF_STATE_RUNNABLE] = 1500000;
	summary_is_quantiles(&h, run, 1000, 1);
	/* a sleep whose longest is unknown: off the CPU, not exact */
	h.count[CSF_STATE_SLEEPING][CSF_HIST_BUCKETS - 1] = 7;
	summary_is_quantiles(&h, run | sleep, 1007, 0);
	summary_is_quantiles(&h, CSF_HIST_OFF_CPU, 1007, 0);
	h.max_known |= sleep;
	h.max_ns[CSF_STATE_SLEEPING] = 20000000000ull;
	summary_is_quantiles(&h, CSF_HIST_OFF_CPU, 1007, 1);
	/* states without intervals do not count, known or not */
	summary_is_quantiles(&h, CSF_HIST_STATE(CSF_STATE_IOWAIT), 0, 0);
}
END_TEST

/* The thread's own page, the snapshots around an operation that waited. */
static void op_that_waited(struct csf_snap *before, struct csf_snap *after,
			   int waits)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;

	fake_thread_page(&p, (uint32_t)fake_gettid());
	p.registered_at = p.state_since - 1000000000;
	p.time[CSF_STATE_RUNNING] = 1000000000;
	closed(&p, CSF_STATE_RUNNABLE, 7000000, p.state_since - 500000000);
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_snap(before), 0);
	/* the operation: waits of 1 ms asleep, one of 3.2 ms for a CPU */
	for (int i = 0; i < waits; i++) {
		p.time[CSF_STATE_SLEEPING] += 1000000;
		closed(&p, CSF_STATE_SLEEPING, 1000000, before->now + 10 + i);
	}
	p.time[CSF_STATE_RUNNABLE] += 3200000;
	closed(&p, CSF_STATE_RUNNABLE, 3200000, before->now + 100);
	name(&p.preemptor, before->now + 50, 57, "kworker/0:1");
	name(&p.waker, before->now + 40, 0, "");
	p.state_since = before->now + 200;
	fake_update_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_snap(after), 0);
}

START_TEST(format_diff_names_the_longest_wait)
{
	char buf[CSF_DIFF_BUFSZ], *nl;
	struct csf_snap before, after;

	op_that_waited(&before, &after, 2);
	ck_assert_int_gt(csf_format_diff(buf, sizeof(buf), &before, &after),
			 0);
	nl = strchr(buf, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_ptr_nonnull(strstr(buf, "wall "));
	ck_assert_str_eq(nl + 1, "longest wait: runnable 3.20ms, woken by an interrupt, preempted by kworker/0:1 (57)");
	/* the first line is the line it always was */
	*nl = '\0';
	ck_assert_ptr_null(strstr(buf, "longest"));
	ck_assert_ptr_nonnull(strstr(buf, ", cpu 1"));
}
END_TEST

START_TEST(format_diff_says_when_waits_were_lost)
{
	char buf[CSF_DIFF_BUFSZ];
	struct csf_snap before, after;

	/* the 3.2 ms wait and 32 sleeps: the oldest sleep fell off */
	op_that_waited(&before, &after, CSF_WAITS);
	ck_assert_int_gt(csf_format_diff(buf, sizeof(buf), &before, &after),
			 0);
	ck_assert_msg(strstr(buf, "\nlongest of the last 32 waits: runnable 3.20ms,"),
		      "%s", buf);
}
END_TEST

START_TEST(format_diff_without_a_wait_has_one_line)
{
	char buf[CSF_DIFF_BUFSZ];
	struct csf_snap before, after;

	fake_root_default();
	ck_assert_int_eq(csf_thread_snap(&before), 0);
	after = before;
	after.now += 1000;
	after.time[CSF_STATE_RUNNING] += 1000;
	ck_assert_int_gt(csf_format_diff(buf, sizeof(buf), &before, &after),
			 0);
	ck_assert_ptr_null(strchr(buf, '\n'));
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		a_page_of_abi_1_0_has_none,
		reads_copy_the_page,
		a_delta_holds_what_happened_between,
		a_delta_past_the_waits_kept_bounds_the_longest,
		quantiles_interpolate_within_the_bucket,
		a_summary_is_the_count_and_the_quantiles,
		format_diff_names_the_longest_wait,
		format_diff_says_when_waits_were_lost,
		format_diff_without_a_wait_has_one_line,
		NULL,
	};

	return unit_run_tests("hist", tests);
}
