// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_model_merge - csftop's model over arbitrary histories: threads
 * appear, change (counters forward, backward or wrapping, any state),
 * exit, vanish and reappear, samples come in any order and the caller's
 * clock may step back; freeze, diff, live, filters and sorts in between.
 * Each thread has histograms, changed any way at all and read in a sample
 * or not, and the rows' waits are turned off and on (model_waits()) and
 * worked out row by row (model_row_waits()), as csftop's screen does.
 *
 * Input: a sequence of operations, each an opcode byte and its operands
 * (zeroes where the input runs out).  A pool of at most POOL threads
 * stands for the pages; tids come from a small range so that a vanished
 * tid comes back as a new thread.  After every sample the model's
 * promises are checked: rows sorted by tid with no duplicate, every
 * thread of the sample that does not read EXITED present (an exited one
 * may be gone after its linger time), select_rows() within bounds.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "columns.h"
#include "model.h"
#include "select.h"

#define POOL 24
#define NCPUS 4

struct cursor {
	const uint8_t *p, *end;
};

static uint64_t take(struct cursor *c, unsigned int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = (v << 8) | (c->p < c->end ? *c->p++ : 0);
	return v;
}

static uint64_t identity(uint64_t ticks)
{
	return ticks;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/*
 * The process rows of @s: one per tgid, in tgid order, each holding its
 * threads' totals summed with its gone threads' (csf_group_add(3)), and
 * every cell of them renders; gone threads' sums only of processes with
 * rows.
 */
static void check_processes(const struct screen *s)
{
	struct proc_screen p = { 0 };
	size_t i, k;

	fuzz_assert(model_processes(s, &p) == 0);
	for (k = 0; k < p.s.nrows; k++) {
		const struct row *pr = &p.s.rows[k];
		const struct csf_group *g = csf_gone_find(&s->gone,
							    pr->snap.tgid);
		uint64_t run = g ? g->time_ns[CSF_STATE_RUNNING] : 0;

		fuzz_assert(!k || p.s.rows[k - 1].snap.tgid < pr->snap.tgid);
		fuzz_assert(pr->snap.tid == pr->snap.tgid);
		for (i = 0; i < s->nrows; i++)
			if (s->rows[i].snap.tgid == pr->snap.tgid)
				run += s->rows[i].total_ns[CSF_STATE_RUNNING];
		fuzz_assert(pr->total_ns[CSF_STATE_RUNNING] == run);
		for (int col = 0; col < COL_NR; col++) {
			char t[COL_TEXT_MAX], *e = t + sizeof(t);

			fuzz_assert((size_t)(e - col_render(e, pr, &columns[col])) <
				    COL_TEXT_MAX);
		}
	}
	for (i = 0; i < s->nrows; i++) {
		for (k = 0; k < p.s.nrows; k++)
			if (p.s.rows[k].snap.tgid == s->rows[i].snap.tgid)
				break;
		fuzz_assert(k < p.s.nrows);
	}
	for (i = 0; i < s->gone.n; i++) {
		fuzz_assert(!i || s->gone.v[i - 1].tgid < s->gone.v[i].tgid);
		for (k = 0; k < p.s.nrows; k++)
			if (p.s.rows[k].snap.tgid == s->gone.v[i].tgid)
				break;
		fuzz_assert(k < p.s.nrows || !s->gone.v[i].tgid);
	}
	model_processes_free(&p);
}

static void check_screen(const struct screen *s)
{
	struct filter f;
	size_t *idx, n, i;

	for (i = 1; i < s->nrows; i++)
		fuzz_assert(s->rows[i - 1].snap.tid < s->rows[i].snap.tid);
	idx = malloc((s->nrows + 1) * sizeof(*idx));
	fuzz_assert(idx != NULL);
	memset(&f, 0, sizeof(f));
	for (int col = 0; col < COL_NR; col++) {
		n = select_rows(s, &f, (enum col)col, col & 1, idx);
		fuzz_assert(n == s->nrows);
		for (i = 0; i < n; i++) {
			const struct column *c = &columns[col];
			char t[COL_TEXT_MAX], *e = t + sizeof(t);
			size_t len;

			fuzz_assert(idx[i] < s->nrows);
			len = (size_t)(e - col_render(e, &s->rows[idx[i]], c));
			fuzz_assert(len < COL_TEXT_MAX);
			/* shares and durations fit their columns, whatever */
			if (c->kind == COL_KIND_PCT || c->kind == COL_KIND_NS)
				fuzz_assert(len <= (size_t)c->width);
		}
	}
	for (i = 0; i < s->nrows; i++)
		(void)row_state(&s->rows[i]);
	free(idx);
	check_processes(s);
}

/*
 * Every row of the screen shown, with its waits as a view draws it: each
 * waits column renders, and its histograms read over both spans.
 */
static void check_row_waits(const struct model *m)
{
	const struct screen *s = model_shown(m);

	for (size_t i = 0; i < s->nrows; i++) {
		const struct row *r = &s->rows[i];
		struct csf_hist h;
		struct row w;

		if (model_row_waits(m, r, &w))
			r = &w;
		for (int col = 0; col < COL_NR; col++) {
			char t[COL_TEXT_MAX], *e = t + sizeof(t);

			if (columns[col].waits)
				fuzz_assert((size_t)(e - col_render(e, r,
					    &columns[col])) < COL_TEXT_MAX);
		}
		(void)model_row_hist(m, s, &s->rows[i], HIST_SPAN, &h);
		(void)model_row_hist(m, s, &s->rows[i], HIST_SINCE, &h);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cursor c = { data, data + size };
	struct csf_snap pool[POOL], in[POOL];
	struct csf_hist hist[POOL];
	const struct csf_hist *hin[POOL];
	struct csf_cpu_snap cpus[NCPUS];
	struct filter f;
	struct model m;
	size_t n = 0, i, k;
	uint64_t now_ns = 1000000000;
	size_t idx[POOL * 4];

	memset(cpus, 0, sizeof(cpus));
	memset(&f, 0, sizeof(f));
	model_init(&m, identity);
	while (c.p < c.end) {
		unsigned int op = (unsigned int)take(&c, 1);
		struct csf_snap *s;

		switch (op % 10) {
		case 0:		/* a thread appears */
			if (n == POOL)
				break;
			s = &pool[n];
			memset(s, 0, sizeof(*s));
			s->tid = 1 + (uint32_t)take(&c, 1) % 64;
			for (i = 0; i < n; i++)
				if (pool[i].tid == s->tid)
					break;
			if (i < n)
				break;
			s->tgid = 1 + (uint32_t)take(&c, 1) % 8;
			s->registered_at = take(&c, 2);
			s->now = s->registered_at + take(&c, 2);
			s->state = (uint32_t)take(&c, 1) % (CSF_NR_STATES + 2);
			memcpy(s->comm, "thread", 7);
			memset(&hist[n], 0, sizeof(hist[n]));
			hist[n].max_known = (uint32_t)take(&c, 1);
			n++;
			break;
		case 1:		/* a thread's page changes, any way at all */
			if (!n)
				break;
			s = &pool[take(&c, 1) % n];
			s->now += (int64_t)(int16_t)take(&c, 2);
			s->time[take(&c, 1) % CSF_NR_STATES] += take(&c, 4);
			s->nvcsw += (uint64_t)(int8_t)take(&c, 1);
			s->nivcsw += (uint64_t)(int8_t)take(&c, 1);
			s->wakeups += take(&c, 1);
			s->migrations += take(&c, 1);
			s->state = (uint32_t)take(&c, 1) % (CSF_NR_STATES + 2);
			s->cpu = (uint32_t)take(&c, 1);
			/* and its histograms: an interval closes, or worse */
			k = (size_t)(s - pool);
			hist[k].count[take(&c, 1) % CSF_NR_STATES]
				[take(&c, 1) % CSF_HIST_BUCKETS] +=
				(uint64_t)(int8_t)take(&c, 1);
			hist[k].max_ns[take(&c, 1) % CSF_NR_STATES] = take(&c, 4);
			hist[k].nr_waits += (uint64_t)(int8_t)take(&c, 1);
			hist[k].waits[take(&c, 1) % CSF_WAITS] =
				(struct csf_wait){ .len = take(&c, 4),
						   .end = s->now,
						   .state = (uint32_t)take(&c, 1) };
			hist[k].waker = (struct csf_task){ s->now,
				(uint32_t)take(&c, 1), "waker" };
			break;
		case 2:		/* a counter wraps */
			if (!n)
				break;
			s = &pool[take(&c, 1) % n];
			s->time[take(&c, 1) % CSF_NR_STATES] = ~0ull - take(&c, 1);
			s->nvcsw = ~0ull - take(&c, 1);
			s->now = ~0ull - take(&c, 1);
			break;
		case 3:		/* a thread exits; its page stays */
			if (n)
				pool[take(&c, 1) % n].state = CSF_STATE_EXITED;
			break;
		case 4:		/* a thread's page goes */
			if (!n)
				break;
			k = take(&c, 1) % n;
			hist[k] = hist[n - 1];
			pool[k] = pool[--n];
			break;
		case 5:		/* a sample, in an order of the input's */
			now_ns += (int64_t)(int32_t)take(&c, 4);
			k = n ? take(&c, 1) % n : 0;
			for (i = 0; i < n; i++) {
				struct csf_hist *h = &hist[(i + k) % n];

				in[i] = pool[(i + k) % n];
				/* as the page it was read from says */
				h->tid = in[i].tid;
				h->registered_at = in[i].registered_at;
				h->now = in[i].now;
				hin[i] = take(&c, 1) & 1 ? h : NULL;
			}
			for (i = 0; i < NCPUS; i++) {
				cpus[i].now += take(&c, 2);
				cpus[i].time[take(&c, 1) % CSF_CPU_NR_STATES] +=
					take(&c, 2);
			}
			if (model_sample(&m, in, take(&c, 1) & 1 ? hin : NULL,
					 n, cpus, NCPUS, now_ns))
				break;
			check_screen(&m.live);
			for (i = 0; i < n; i++) {
				if (in[i].state == CSF_STATE_EXITED)
					continue;
				for (k = 0; k < m.live.nrows; k++)
					if (m.live.rows[k].snap.tid == in[i].tid)
						break;
				fuzz_assert(k < m.live.nrows);
			}
			break;
		case 6:
			(void)model_freeze(&m);
			break;
		case 7:
			if (model_diff(&m) == 1)
				check_screen(model_shown(&m));
			break;
		case 8: {	/* live, then a filter and a sort on what is shown */
			const struct screen *sh;
			char text[8];

			if (take(&c, 1) & 1)
				model_live(&m);
			snprintf(text, sizeof(text), "%u",
				 (unsigned int)take(&c, 1) % 64);
			filter_set(&f, take(&c, 1) & 1 ? text : "thr");
			sh = model_shown(&m);
			if (sh->nrows <= sizeof(idx) / sizeof(idx[0]))
				fuzz_assert(select_rows(sh, &f,
					(enum col)(take(&c, 1) % COL_NR),
					1, idx) <= sh->nrows);
			break;
		}
		case 9:		/* waits off or on, and the rows drawn */
			(void)model_waits(&m, take(&c, 1) & 1);
			check_row_waits(&m);
			break;
		}
	}
	model_free(&m);
	return 0;
}
