// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - csftop's model: merge samples into rows, compute shares and
 * rates, keep exited threads for a moment, freeze, diff, sum processes.
 *
 * No curses and no page access here: see model.h.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/*
 * Growth of a counter between two samples.  A counter that went backwards
 * was reset (a new incarnation of the page behind the same tid, a reloaded
 * module): like Prometheus' rate(), count its current value as the growth
 * since the reset instead of a huge unsigned difference.
 */
static uint64_t growth(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : after;
}

static int screen_reserve(struct screen *s, size_t n)
{
	struct row *rows;
	size_t cap;

	if (n <= s->rows_cap)
		return 0;
	cap = s->rows_cap ? s->rows_cap : 64;
	while (cap < n)
		cap *= 2;
	rows = realloc(s->rows, cap * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	s->rows = rows;
	s->rows_cap = cap;
	return 0;
}

static int screen_set_cpus(struct screen *s, unsigned int ncpus)
{
	struct cpu_row *cpus;

	if (ncpus == s->ncpus)
		return 0;
	cpus = realloc(s->cpus, (ncpus ? ncpus : 1) * sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	s->cpus = cpus;
	s->ncpus = ncpus;
	return 0;
}

static void screen_free(struct screen *s)
{
	free(s->rows);
	free(s->cpus);
	free(s->hists);
	csf_gone_free(&s->gone);
	memset(s, 0, sizeof(*s));
}

static int screen_copy(struct screen *dst, const struct screen *src)
{
	struct screen tmp = *src;

	tmp.rows = NULL;
	tmp.rows_cap = 0;
	tmp.cpus = NULL;
	tmp.ncpus = 0;
	tmp.hists = NULL;
	memset(&tmp.gone, 0, sizeof(tmp.gone));
	if (screen_reserve(&tmp, src->nrows) ||
	    screen_set_cpus(&tmp, src->ncpus) ||
	    csf_gone_copy(&tmp.gone, &src->gone)) {
		screen_free(&tmp);
		return -ENOMEM;
	}
	if (src->nrows)
		memcpy(tmp.rows, src->rows, src->nrows * sizeof(*tmp.rows));
	if (src->ncpus)
		memcpy(tmp.cpus, src->cpus, src->ncpus * sizeof(*tmp.cpus));
	screen_free(dst);
	*dst = tmp;
	return 0;
}

void model_init(struct model *m, uint64_t (*to_ns)(uint64_t ticks))
{
	memset(m, 0, sizeof(*m));
	m->to_ns = to_ns;
	m->linger_ns = MODEL_LINGER_NS;
	m->mode = MODE_LIVE;
}

void model_free(struct model *m)
{
	screen_free(&m->live);
	screen_free(&m->frozen);
	screen_free(&m->diff);
	screen_free(&m->spare);
	free(m->in);
	free(m->tgid_set);
	free(m->slots);
	m->in = NULL;
	m->tgid_set = NULL;
	m->slots = NULL;
	m->in_cap = m->tgid_set_cap = m->nslots = 0;
	m->free_slot = 0;
}

/* --- histograms ------------------------------------------------------ */

/* A slot for a new live row's histograms: 1 + its index, or 0. */
static uint32_t slot_new(struct model *m)
{
	struct hist_slot *slots;
	uint32_t k = m->free_slot;

	if (k) {
		m->free_slot = m->slots[k - 1].next_free;
	} else {
		/* without memory the row has no histograms, the frame goes on */
		slots = realloc(m->slots, (m->nslots + 1) * sizeof(*slots));
		if (!slots)
			return 0;
		m->slots = slots;
		k = (uint32_t)++m->nslots;
	}
	m->slots[k - 1].reads = 0;
	return k;
}

static void slot_free(struct model *m, uint32_t k)
{
	if (!k)
		return;
	m->slots[k - 1].next_free = m->free_slot;
	m->free_slot = k;
}

/*
 * The waits of @span (a delta, or the first read: since registration),
 * and the last waker and preemptor of @last.
 */
static void waits_of(struct row *r, const struct csf_hist *span,
		     const struct csf_hist *last)
{
	struct csf_hist_summary runq;

	csf_hist_summarize(span, CSF_HIST_STATE(CSF_STATE_RUNNABLE), &runq);
	r->waits.runnable_p99_ns = runq.p99_ns;
	r->waits.runnable_max_ns = runq.max_ns;
	r->waits.wait_p99_ns = csf_hist_quantile(span, CSF_HIST_OFF_CPU, 0.99);
	r->waits.waker = last->waker;
	r->waits.preemptor = last->preemptor;
	r->flags |= ROW_WAITS;
}

/* An interval with no wait: nothing closed, the names as they were. */
static void waits_none(struct row *r)
{
	r->waits.runnable_p99_ns = 0;
	r->waits.runnable_max_ns = 0;
	r->waits.wait_p99_ns = 0;
}

/*
 * @r's histograms over the live screen's last interval: the difference of
 * its slot's last two reads when the last was of this sample, the first
 * read alone (since registration, as the row's first sample), or no
 * intervals at all.  0, or -ENOENT without a slot.
 */
static int live_span(const struct model *m, const struct row *r,
		     unsigned int seq, struct csf_hist *out)
{
	const struct hist_slot *sl;
	const struct csf_hist *cur;

	if (!r->hist)
		return -ENOENT;
	sl = &m->slots[r->hist - 1];
	cur = &sl->h[sl->cur];
	if (sl->read_seq == seq && sl->reads > 1)
		return csf_hist_delta(&sl->h[!sl->cur], cur, out) ? -ENOENT : 0;
	*out = *cur;
	if (sl->read_seq != seq) {
		/* nothing closed: an empty span of the same thread */
		memset(out->count, 0, sizeof(out->count));
		memset(out->max_ns, 0, sizeof(out->max_ns));
		memset(out->max_end, 0, sizeof(out->max_end));
		memset(out->waits, 0, sizeof(out->waits));
		out->max_known = (1u << CSF_NR_STATES) - 1;
	}
	return 0;
}

/*
 * Live row @r's waits in sample @seq, from its slot: those of the
 * interval when it was read in that sample, else none and the last
 * waker and preemptor.
 */
static void row_waits(const struct model *m, struct row *r, unsigned int seq)
{
	const struct hist_slot *sl;
	struct csf_hist span;

	if (!r->hist)
		return;
	sl = &m->slots[r->hist - 1];
	if (sl->read_seq == seq) {
		if (!live_span(m, r, seq, &span))
			waits_of(r, &span, &sl->h[sl->cur]);
		return;
	}
	waits_none(r);
	r->waits.waker = sl->h[sl->cur].waker;
	r->waits.preemptor = sl->h[sl->cur].preemptor;
	r->flags |= ROW_WAITS;
}

/*
 * A new read @h of @r's thread, taken in sample @seq, into its slot (a
 * new one for a new row), and the row's waits from it when wanted.
 */
static void row_hist_read(struct model *m, struct row *r,
			  const struct csf_hist *h, unsigned int seq)
{
	struct hist_slot *sl;

	if (!r->hist)
		r->hist = slot_new(m);
	if (!r->hist)
		return;
	sl = &m->slots[r->hist - 1];
	sl->cur = sl->reads ? !sl->cur : 0;
	sl->h[sl->cur] = *h;
	sl->reads++;
	sl->read_seq = seq;
	if (!m->no_waits)
		row_waits(m, r, seq);
}

/* The live rows' waits, as the last sample would have given them. */
static void live_waits(struct model *m)
{
	for (size_t i = 0; i < m->live.nrows; i++)
		row_waits(m, &m->live.rows[i], m->live.seq);
}

int model_row_waits(const struct model *m, const struct row *r,
		    struct row *out)
{
	if (!m->no_waits || m->mode != MODE_LIVE || !r->hist)
		return 0;
	*out = *r;
	row_waits(m, out, m->live.seq);
	return 1;
}

int model_waits(struct model *m, int on)
{
	int fill = on && m->no_waits;

	if (fill)
		live_waits(m);
	m->no_waits = !on;
	return fill;
}

/* --- rows ----------------------------------------------------------- */

static int cmp_snap_ptr_tid(const void *a, const void *b)
{
	const struct csf_snap *x = *(const struct csf_snap *const *)a;
	const struct csf_snap *y = *(const struct csf_snap *const *)b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The interval has at least the time the buckets grew, so no share > 100%. */
static void fix_interval(struct row *r)
{
	uint64_t sum = 0;

	for (int i = 0; i < CSF_NR_STATES; i++)
		sum += r->delta_ns[i];
	if (r->interval_ns < sum)
		r->interval_ns = sum;
}

/*
 * A thread seen for the first time (or a new incarnation of its tid): show
 * it since its registration.  Its totals cover exactly that span, so the
 * shares are exact and, unlike a clock read, deterministic.
 */
static void row_first(struct model *m, struct row *r, const struct csf_snap *c)
{
	memset(r, 0, sizeof(*r));
	r->snap = *c;
	for (int i = 0; i < CSF_NR_STATES; i++) {
		r->total_ns[i] = m->to_ns(c->time[i]);
		r->delta_ns[i] = r->total_ns[i];
	}
	r->d_nvcsw = c->nvcsw;
	r->d_nivcsw = c->nivcsw;
	r->migrations = c->migrations;
	r->wakeups = c->wakeups;
	r->interval_ns = 0;
	fix_interval(r);
	r->flags = ROW_NEW;
}

/*
 * Ticks to ns.  The conversion is linear, so 0 stays 0 without the call:
 * in a frame most threads' buckets but one did not grow.
 */
static uint64_t ticks_ns(const struct model *m, uint64_t ticks)
{
	return ticks ? m->to_ns(ticks) : 0;
}

/* Fill r->delta_ns, d_*, interval_ns with @c minus @p (same incarnation). */
static void row_delta(struct model *m, struct row *r, const struct csf_snap *p,
		      const struct csf_snap *c)
{
	for (int i = 0; i < CSF_NR_STATES; i++)
		r->delta_ns[i] = ticks_ns(m, growth(p->time[i], c->time[i]));
	r->d_nvcsw = growth(p->nvcsw, c->nvcsw);
	r->d_nivcsw = growth(p->nivcsw, c->nivcsw);
	r->interval_ns = c->now > p->now ? m->to_ns(c->now - p->now) : 0;
	fix_interval(r);
}

static int same_incarnation(const struct csf_snap *a, const struct csf_snap *b)
{
	return a->tid == b->tid && a->registered_at == b->registered_at;
}

/*
 * The steady case, once per thread and frame: every field is assigned,
 * none cleared first, for a row is large and this runs for every thread
 * of every frame.
 */
static void row_next(struct model *m, struct row *r, const struct row *old,
		     const struct csf_snap *c)
{
	r->snap = *c;
	/* a total that did not grow converts as it did last time */
	for (int i = 0; i < CSF_NR_STATES; i++)
		r->total_ns[i] = c->time[i] == old->snap.time[i] ?
				 old->total_ns[i] : m->to_ns(c->time[i]);
	r->migrations = c->migrations;
	r->wakeups = c->wakeups;
	row_delta(m, r, &old->snap, c);
	/*
	 * A row marked exited because its thread was missing from a sample
	 * (the library gave up on a page stuck mid-update, -EAGAIN) is alive
	 * again when the same registration reads live: otherwise it would
	 * vanish after linger_ns while still running.
	 */
	r->flags = c->state == CSF_STATE_EXITED ? old->flags & ROW_EXITED : 0;
	r->exited_at_ns = r->flags ? old->exited_at_ns : 0;
	/* a new read of its histograms replaces these (row_hist_read()) */
	r->hist = old->hist;
	r->waits = old->waits;
	waits_none(r);
	r->flags |= old->flags & ROW_WAITS;
}

/*
 * A set of tgids (open addressing, at most half full), kept in the model
 * so that a frame does not allocate it: O(n) per frame, where a look-back
 * per row would be quadratic and a sort n log n.  tgid 0 marks an empty
 * slot, and is no real process.  Without memory for it, tgid_set_mask is
 * 0 and the set holds nothing.
 */
static void tgid_set_init(struct model *m, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n)
		cap *= 2;
	if (m->tgid_set_cap < cap) {
		uint32_t *set = realloc(m->tgid_set, cap * sizeof(*set));

		if (set) {
			m->tgid_set = set;
			m->tgid_set_cap = cap;
		}
	}
	if (m->tgid_set_cap < cap)
		cap = 0;
	else
		memset(m->tgid_set, 0, cap * sizeof(*m->tgid_set));
	m->tgid_set_mask = cap ? cap - 1 : 0;
}

/* @tgid's slot in the set: it, or the empty one it would take. */
static uint32_t *tgid_set_slot(const struct model *m, uint32_t tgid)
{
	size_t mask = m->tgid_set_mask, h;

	/* Fibonacci hashing */
	for (h = (size_t)(tgid * 2654435761u) & mask;
	     m->tgid_set[h] && m->tgid_set[h] != tgid; h = (h + 1) & mask)
		;
	return &m->tgid_set[h];
}

/* Add @tgid (not 0) to the set: 1 if it was not there, else 0. */
static int tgid_set_add(struct model *m, uint32_t tgid)
{
	uint32_t *slot;

	if (!m->tgid_set_mask)
		return 0;
	slot = tgid_set_slot(m, tgid);
	if (*slot)
		return 0;
	*slot = tgid;
	return 1;
}

/* Whether a process has rows: without a set, all are said to. */
static int tgid_shown(const void *arg, uint32_t tgid)
{
	const struct model *m = arg;

	return !m->tgid_set_mask || !tgid || *tgid_set_slot(m, tgid);
}

/*
 * Live threads and distinct processes among them; then the exited rows'
 * processes join the set, and the exited threads' sums of a process with
 * no row left go.  Without memory for the set the process count is 0
 * rather than the frame failing.
 */
static void count_live(struct model *m, struct screen *s)
{
	unsigned int nthreads = 0, nprocs = 0;
	int zero_seen = 0;

	tgid_set_init(m, s->nrows);
	for (size_t i = 0; i < s->nrows; i++) {
		uint32_t tgid = s->rows[i].snap.tgid;

		if (s->rows[i].flags & ROW_EXITED)
			continue;
		nthreads++;
		if (!tgid) {	/* counted once like any other */
			nprocs += !zero_seen;
			zero_seen = 1;
		} else {
			nprocs += tgid_set_add(m, tgid);
		}
	}
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].flags & ROW_EXITED && s->rows[i].snap.tgid)
			tgid_set_add(m, s->rows[i].snap.tgid);
	s->nthreads = nthreads;
	s->nprocs = nprocs;
	csf_gone_keep(&s->gone, tgid_shown, m);
}

/* --- CPUs ----------------------------------------------------------- */

static void cpu_fill(struct model *m, struct cpu_row *r,
		     const struct csf_cpu_snap *p, const struct csf_cpu_snap *c)
{
	static const struct csf_cpu_snap zero;
	uint64_t busy, idle, iowait, stat_sum = 0, d_stat[CSF_STAT_NR];
	uint64_t sched_sum;

	/* no previous sample: everything since the module loaded */
	if (!p)
		p = &zero;
	memset(r, 0, sizeof(*r));
	r->snap = *c;
	busy = m->to_ns(growth(p->time[CSF_CPU_BUSY], c->time[CSF_CPU_BUSY]));
	idle = m->to_ns(growth(p->time[CSF_CPU_IDLE], c->time[CSF_CPU_IDLE]));
	iowait = m->to_ns(growth(p->time[CSF_CPU_IOWAIT],
				 c->time[CSF_CPU_IOWAIT]));
	sched_sum = busy + idle + iowait;
	r->wall_ns = p != &zero && c->now > p->now ?
		     m->to_ns(c->now - p->now) : sched_sum;
	if (r->wall_ns < sched_sum)
		r->wall_ns = sched_sum;
	r->busy = (struct ratio){ busy, sched_sum };
	r->iowait = (struct ratio){ iowait, sched_sum };
	/* stat[] are ns already, refreshed every stat_period_ns */
	for (int k = 0; k < CSF_STAT_NR; k++) {
		d_stat[k] = growth(p->stat[k], c->stat[k]);
		stat_sum += d_stat[k];
	}
	for (int k = 0; k < CSF_STAT_NR; k++)
		r->stat[k] = (struct ratio){ d_stat[k], stat_sum };
	r->csw_rate = (struct ratio){ growth(p->nr_switches, c->nr_switches),
				      r->wall_ns };
}

static int cpus_compute(struct model *m, struct screen *dst,
			const struct screen *prev,
			const struct csf_cpu_snap *cpus, unsigned int ncpus)
{
	const struct cpu_row *old = prev ? prev->cpus : NULL;
	unsigned int oldn = prev ? prev->ncpus : 0;
	struct cpu_row *rows;

	/* a changed CPU count is a new module: start over */
	if (oldn != ncpus)
		old = NULL;
	/* @dst's array, when it has the size (a reused spare screen) */
	rows = dst->cpus && dst->ncpus == ncpus ? dst->cpus :
	       malloc((ncpus ? ncpus : 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	/*
	 * The CPUs' intervals differ by the time between their snapshots: the
	 * sum of their rates in thousandths per second, close enough for the
	 * two decimals shown.
	 */
	dst->csw_rate = (struct ratio){ 0, 1000000000000ull };
	for (unsigned int i = 0; i < ncpus; i++) {
		cpu_fill(m, &rows[i], old ? &old[i].snap : NULL, &cpus[i]);
		dst->csw_rate.num += ratio_scaled(rows[i].csw_rate,
						  1000000000000ull);
	}
	if (rows != dst->cpus)
		free(dst->cpus);
	dst->cpus = rows;
	dst->ncpus = ncpus;
	return 0;
}

/* --- sampling ------------------------------------------------------- */

/*
 * The sample's snapshots in tid order, in m->in: 0, or -ENOMEM.  The
 * session reads in tid order already: only what is not is sorted.
 */
static int input_by_tid(struct model *m, const struct csf_snap *snaps,
			size_t n)
{
	const struct csf_snap **in;
	int sorted = 1;

	if (m->in_cap < n) {
		in = realloc(m->in, n * sizeof(*in));
		if (!in)
			return -ENOMEM;
		m->in = in;
		m->in_cap = n;
	}
	in = m->in;
	for (size_t k = 0; k < n; k++) {
		in[k] = &snaps[k];
		if (k && snaps[k].tid < snaps[k - 1].tid)
			sorted = 0;
	}
	if (!sorted)
		qsort(in, n, sizeof(*in), cmp_snap_ptr_tid);
	return 0;
}

/* @r's thread is seen exited at @now_ns, unless it was already. */
static void mark_exited(struct row *r, uint64_t now_ns)
{
	if (!(r->flags & ROW_EXITED)) {
		r->flags |= ROW_EXITED;
		r->exited_at_ns = now_ns;
	}
}

/* @r from @o, whose thread is gone from the sample: exited and unmapped. */
static void row_gone(struct row *r, const struct row *o, uint64_t interval_ns,
		     uint64_t now_ns)
{
	*r = *o;
	memset(r->delta_ns, 0, sizeof(r->delta_ns));
	r->d_nvcsw = r->d_nivcsw = 0;
	waits_none(r);
	r->interval_ns = interval_ns;
	r->flags &= ~ROW_NEW;
	mark_exited(r, now_ns);
}

/*
 * @next's exited sums, from the live screen's, with room for every row of
 * it to go: the merge cannot fail.  The live screen keeps its own, for
 * the sample may yet fail; 0 or -ENOMEM.
 */
static int gone_take(struct screen *next, const struct screen *live)
{
	return csf_gone_copy(&next->gone, &live->gone) ||
	       csf_gone_reserve(&next->gone, live->gone.n + live->nrows);
}

/* @r's row goes from @next: its sums stay with its process's. */
static void row_drop(struct model *m, struct screen *next, const struct row *r)
{
	struct csf_group g = {
		.tgid = r->snap.tgid,
		.nvcsw = r->snap.nvcsw, .nivcsw = r->snap.nivcsw,
		.wakeups = r->wakeups, .migrations = r->migrations,
	};

	memcpy(g.time_ns, r->total_ns, sizeof(g.time_ns));
	slot_free(m, r->hist);
	csf_gone_add(&next->gone, &g);	/* reserved by gone_take() */
}

/* Whether @r's thread exited long enough ago for its row to go. */
static int lingered(const struct model *m, const struct row *r,
		    uint64_t now_ns)
{
	return (r->flags & ROW_EXITED) &&
	       now_ns - r->exited_at_ns >= m->linger_ns;
}

int model_sample(struct model *m, const struct csf_snap *snaps,
		 const struct csf_hist *const *hists, size_t n,
		 const struct csf_cpu_snap *cpus, unsigned int ncpus,
		 uint64_t now_ns)
{
	const struct screen *old = &m->live;
	struct screen next = m->spare;
	const struct csf_snap **in;
	unsigned int seq = old->seq + 1;
	size_t i = 0, j = 0;

	/* the spare's arrays, emptied: a steady frame allocates nothing */
	memset(&m->spare, 0, sizeof(m->spare));
	next.kind = SCREEN_LIVE;
	next.nrows = 0;
	/* before the merge, which frees and fills slots: nothing fails after */
	if (input_by_tid(m, snaps, n) ||
	    screen_reserve(&next, n + old->nrows) ||
	    gone_take(&next, &m->live) ||
	    cpus_compute(m, &next, old->seq ? old : NULL, cpus, ncpus)) {
		/* the arrays kept for next time, the live screen unchanged */
		m->spare = next;
		return -ENOMEM;
	}
	in = m->in;

	/* merge the old rows and the new samples, both sorted by tid */
	while (i < old->nrows || j < n) {
		const struct row *o = i < old->nrows ? &old->rows[i] : NULL;
		const struct csf_snap *c = j < n ? in[j] : NULL;
		struct row *r = &next.rows[next.nrows];

		/* a duplicate tid in one sample: keep the first */
		if (c && j > 0 && in[j - 1]->tid == c->tid) {
			j++;
			continue;
		}
		if (c && (!o || c->tid < o->snap.tid)) {
			row_first(m, r, c);
			j++;
		} else if (!c || o->snap.tid < c->tid) {
			i++;
			if (lingered(m, o, now_ns)) {
				row_drop(m, &next, o);
				continue;
			}
			row_gone(r, o, now_ns > old->taken_ns ?
				 now_ns - old->taken_ns : 0, now_ns);
			c = NULL;
		} else {
			if (same_incarnation(&o->snap, c)) {
				row_next(m, r, o, c);
			} else {
				row_drop(m, &next, o);
				row_first(m, r, c);
			}
			i++;
			j++;
		}
		if (c && hists && hists[c - snaps])
			row_hist_read(m, r, hists[c - snaps], seq);
		if (r->snap.state == CSF_STATE_EXITED)
			mark_exited(r, now_ns);
		if (lingered(m, r, now_ns)) {
			row_drop(m, &next, r);
			continue;
		}
		next.nrows++;
	}

	next.taken_ns = now_ns;
	next.interval_ns = old->seq && now_ns > old->taken_ns ?
			   now_ns - old->taken_ns : 0;
	next.seq = seq;
	count_live(m, &next);
	/* the old live screen becomes the spare of the next sample */
	m->spare = m->live;
	m->live = next;
	return 0;
}

/* --- freeze and diff ------------------------------------------------ */

void model_restart(struct model *m)
{
	for (size_t i = 0; i < m->live.nrows; i++)
		slot_free(m, m->live.rows[i].hist);
	m->live.nrows = 0;
	m->live.seq = 0;
	csf_gone_clear(&m->live.gone);
}

/*
 * @dst, a copy of the live screen: its rows' histograms, as they are now,
 * in hists[] of its own; -ENOMEM.
 */
static int screen_take_hists(struct model *m, struct screen *dst)
{
	size_t n = 0;

	for (size_t i = 0; i < dst->nrows; i++)
		n += dst->rows[i].hist != 0;
	free(dst->hists);
	dst->hists = n ? malloc(n * sizeof(*dst->hists)) : NULL;
	if (n && !dst->hists)
		return -ENOMEM;
	n = 0;
	for (size_t i = 0; i < dst->nrows; i++) {
		struct row *r = &dst->rows[i];
		const struct hist_slot *sl;

		if (!r->hist)
			continue;
		sl = &m->slots[r->hist - 1];
		dst->hists[n].since = sl->h[sl->cur];
		if (live_span(m, r, m->live.seq, &dst->hists[n].span))
			dst->hists[n].span = sl->h[sl->cur];
		r->hist = (uint32_t)++n;
	}
	return 0;
}

int model_freeze(struct model *m)
{
	if (m->no_waits)
		live_waits(m);
	if (screen_copy(&m->frozen, &m->live) ||
	    screen_take_hists(m, &m->frozen))
		return -ENOMEM;
	m->have_frozen = 1;
	m->mode = MODE_FROZEN;
	return 0;
}

void model_live(struct model *m)
{
	m->mode = MODE_LIVE;
}

static void diff_both(struct model *m, struct row *r, const struct row *a,
		      const struct row *b)
{
	const struct csf_snap *p = &a->snap, *c = &b->snap;

	memset(r, 0, sizeof(*r));
	r->snap = *c;
	row_delta(m, r, p, c);
	memcpy(r->total_ns, r->delta_ns, sizeof(r->total_ns));
	r->migrations = growth(p->migrations, c->migrations);
	r->wakeups = growth(p->wakeups, c->wakeups);
	if (b->flags & ROW_EXITED) {
		r->flags |= ROW_EXITED;
		r->exited_at_ns = b->exited_at_ns;
		if (!(a->flags & ROW_EXITED))
			r->flags |= ROW_GONE;
	}
	for (int i = 0; i < CSF_NR_STATES; i++)
		if (r->delta_ns[i])
			r->flags |= ROW_CHANGED;
	if (r->d_nvcsw || r->d_nivcsw || r->migrations || r->wakeups ||
	    p->state != c->state || p->cpu != c->cpu)
		r->flags |= ROW_CHANGED;
}

static void diff_appeared(struct model *m, struct row *r, const struct row *b,
			  uint64_t span_ns)
{
	row_first(m, r, &b->snap);
	r->flags = ROW_APPEARED | ROW_CHANGED | (b->flags & ROW_EXITED);
	r->exited_at_ns = b->exited_at_ns;
	/* share of the A..B span, like every other row of the diff */
	r->interval_ns = span_ns;
	fix_interval(r);
}

static void diff_gone(struct row *r, const struct row *a, uint64_t span_ns)
{
	memset(r, 0, sizeof(*r));
	r->snap = a->snap;
	r->interval_ns = span_ns;
	r->flags = ROW_EXITED;
	if (!(a->flags & ROW_EXITED))
		r->flags |= ROW_GONE | ROW_CHANGED;
	r->exited_at_ns = a->exited_at_ns;
}

/*
 * The histograms of diff row @r, from A's read @a (NULL: it appeared, its
 * span is since registration) and live row @rb's slot: in @d's hists[].
 */
static void diff_hist(struct model *m, struct screen *d, size_t *nh,
		      struct row *r, const struct csf_hist *a,
		      const struct row *rb)
{
	const struct hist_slot *sl;
	struct screen_hist *h = &d->hists[*nh];

	if (!rb->hist)
		return;
	sl = &m->slots[rb->hist - 1];
	h->since = sl->h[sl->cur];
	if (!a)
		h->span = h->since;
	else if (csf_hist_delta(a, &h->since, &h->span))
		return;
	waits_of(r, &h->span, &h->since);
	r->hist = (uint32_t)++*nh;
}

static int diff_compute(struct model *m, struct screen *d,
			const struct screen *a, const struct screen *b)
{
	uint64_t span = b->taken_ns > a->taken_ns ?
			b->taken_ns - a->taken_ns : 0;
	struct screen next = { .kind = SCREEN_DIFF };
	struct csf_cpu_snap *bcpus;
	size_t i = 0, j = 0, nh = 0;
	int err;

	if (screen_reserve(&next, a->nrows + b->nrows))
		return -ENOMEM;
	next.hists = malloc((a->nrows + b->nrows + 1) * sizeof(*next.hists));
	if (!next.hists) {
		screen_free(&next);
		return -ENOMEM;
	}
	while (i < a->nrows || j < b->nrows) {
		const struct row *ra = i < a->nrows ? &a->rows[i] : NULL;
		const struct row *rb = j < b->nrows ? &b->rows[j] : NULL;
		struct row *r = &next.rows[next.nrows++];

		if (rb && (!ra || rb->snap.tid < ra->snap.tid)) {
			diff_appeared(m, r, rb, span);
			diff_hist(m, &next, &nh, r, NULL, rb);
			j++;
		} else if (!rb || ra->snap.tid < rb->snap.tid) {
			diff_gone(r, ra, span);
			i++;
		} else {
			if (same_incarnation(&ra->snap, &rb->snap)) {
				diff_both(m, r, ra, rb);
				diff_hist(m, &next, &nh, r, a->hists &&
					  ra->hist ? &a->hists[ra->hist - 1].since :
					  NULL, rb);
			} else {
				diff_appeared(m, r, rb, span);
				diff_hist(m, &next, &nh, r, NULL, rb);
			}
			i++;
			j++;
		}
	}
	/* the CPUs of B against those of A */
	bcpus = malloc((b->ncpus ? b->ncpus : 1) * sizeof(*bcpus));
	if (!bcpus) {
		screen_free(&next);
		return -ENOMEM;
	}
	for (unsigned int k = 0; k < b->ncpus; k++)
		bcpus[k] = b->cpus[k].snap;
	err = cpus_compute(m, &next, a, bcpus, b->ncpus);
	free(bcpus);
	if (err) {
		screen_free(&next);
		return err;
	}
	next.taken_ns = b->taken_ns;
	next.interval_ns = span;
	next.seq = b->seq;
	count_live(m, &next);
	screen_free(d);
	*d = next;
	return 0;
}

int model_diff(struct model *m)
{
	if (!m->have_frozen)
		return model_freeze(m);
	if (diff_compute(m, &m->diff, &m->frozen, &m->live))
		return -ENOMEM;
	m->mode = MODE_DIFF;
	return 1;
}

int model_row_hist(const struct model *m, const struct screen *s,
		   const struct row *r, enum hist_span span,
		   struct csf_hist *out)
{
	const struct hist_slot *sl;

	if (!r->hist)
		return -ENOENT;
	if (s != &m->live) {
		const struct screen_hist *h = &s->hists[r->hist - 1];

		*out = span == HIST_SINCE ? h->since : h->span;
		return 0;
	}
	if (span == HIST_SPAN)
		return live_span(m, r, s->seq, out);
	sl = &m->slots[r->hist - 1];
	*out = sl->h[sl->cur];
	return 0;
}

const struct screen *model_shown(const struct model *m)
{
	switch (m->mode) {
	case MODE_FROZEN:
		return &m->frozen;
	case MODE_DIFF:
		return &m->diff;
	default:
		return &m->live;
	}
}

/* --- processes ----------------------------------------------------- */

/* Which thread state a process shows: the most active of them. */
static unsigned int state_rank(unsigned int st)
{
	static const unsigned char rank[CSF_STATE_EXITED + 1] = {
		[CSF_STATE_RUNNING] = 5, [CSF_STATE_RUNNABLE] = 4,
		[CSF_STATE_IOWAIT] = 3, [CSF_STATE_BLOCKED] = 2,
		[CSF_STATE_SLEEPING] = 1, [CSF_STATE_EXITED] = 0,
	};

	/* a state this csftop does not know (a newer page) is the least */
	return st <= CSF_STATE_EXITED ? rank[st] : 0;
}

static int cmp_tgid_tid(const void *a, const void *b, void *rows)
{
	const struct row *r = rows;
	const struct csf_snap *x = &r[*(const size_t *)a].snap;
	const struct csf_snap *y = &r[*(const size_t *)b].snap;

	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Add thread row @t to process row @p, which holds at least one already. */
static void proc_add(struct row *p, const struct row *t)
{
	const unsigned int keep = ROW_EXITED | ROW_NEW | ROW_APPEARED | ROW_GONE;

	if (t->snap.tid == t->snap.tgid) {	/* the main thread names it */
		memcpy(p->snap.comm, t->snap.comm, sizeof(p->snap.comm));
		p->snap.cpu = t->snap.cpu;
	}
	if (state_rank(row_state(t)) > state_rank(p->snap.state))
		p->snap.state = row_state(t);
	for (int i = 0; i < CSF_NR_STATES; i++) {
		p->delta_ns[i] += t->delta_ns[i];
		p->total_ns[i] += t->total_ns[i];
	}
	p->d_nvcsw += t->d_nvcsw;
	p->d_nivcsw += t->d_nivcsw;
	p->migrations += t->migrations;
	p->wakeups += t->wakeups;
	if (t->interval_ns > p->interval_ns)
		p->interval_ns = t->interval_ns;
	if (t->exited_at_ns > p->exited_at_ns)
		p->exited_at_ns = t->exited_at_ns;
	/* all of them new, exited, appeared or gone; any of them changed */
	p->flags = (p->flags & t->flags & keep) |
		   ((p->flags | t->flags) & ROW_CHANGED) | ROW_PROCESS;
}

/* Process row @p from its first thread's @t, and its gone threads' sums. */
static void proc_first(struct row *p, const struct row *t,
		       const struct csf_gone *gone)
{
	const struct csf_group *g = csf_gone_find(gone, t->snap.tgid);

	*p = *t;
	p->snap.tid = t->snap.tgid;
	p->snap.state = row_state(t);
	p->flags = (p->flags & ~ROW_WAITS) | ROW_PROCESS;
	p->hist = 0;
	memset(&p->waits, 0, sizeof(p->waits));
	if (!g)
		return;
	for (int i = 0; i < CSF_NR_STATES; i++)
		p->total_ns[i] += g->time_ns[i];
	p->migrations += g->migrations;
	p->wakeups += g->wakeups;
}

int model_processes(const struct screen *src, struct proc_screen *out)
{
	struct screen *s = &out->s;
	size_t n = 0;

	s->nrows = 0;
	if (model_idx_reserve(&out->order, &out->order_cap, src->nrows) ||
	    screen_reserve(s, src->nrows))
		return -ENOMEM;
	for (size_t i = 0; i < src->nrows; i++)
		out->order[i] = i;
	if (src->nrows > 1)	/* no array at all before the first row */
		qsort_r(out->order, src->nrows, sizeof(*out->order),
			cmp_tgid_tid, src->rows);
	for (size_t i = 0; i < src->nrows; i++) {
		const struct row *t = &src->rows[out->order[i]];

		if (n && s->rows[n - 1].snap.tgid == t->snap.tgid) {
			proc_add(&s->rows[n - 1], t);
		} else {
			proc_first(&s->rows[n], t, &src->gone);
			n++;
		}
	}
	/* the rest of the screen is @src's: CPUs, counts, clock */
	{
		struct row *rows = s->rows;
		size_t cap = s->rows_cap;

		*s = *src;
		s->rows = rows;
		s->rows_cap = cap;
		s->nrows = n;
		s->hists = NULL;	/* a process row has none */
		memset(&s->gone, 0, sizeof(s->gone));	/* in its rows */
	}
	return 0;
}

long model_processes_threads(const struct screen *src, struct proc_screen *out,
			     uint32_t tgid)
{
	struct screen *s = &out->s;
	long n = 0;

	for (size_t i = 0; i < src->nrows; i++)
		if (src->rows[i].snap.tgid == tgid)
			n++;
	if (screen_reserve(s, s->nrows + (size_t)n))
		return -ENOMEM;
	for (size_t i = 0; i < src->nrows; i++)
		if (src->rows[i].snap.tgid == tgid) {
			s->rows[s->nrows] = src->rows[i];
			s->rows[s->nrows++].flags |= ROW_CHILD;
		}
	return n;
}

void model_processes_free(struct proc_screen *p)
{
	free(p->s.rows);
	free(p->order);
	memset(p, 0, sizeof(*p));
}

int model_idx_reserve(size_t **idx, size_t *cap, size_t n)
{
	size_t *p;

	if (n <= *cap)
		return 0;
	p = realloc(*idx, n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	*idx = p;
	*cap = n;
	return 0;
}
