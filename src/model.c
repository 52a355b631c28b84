// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - csftop's model: merge samples into rows, compute shares and
 * rates, keep exited threads for a moment, freeze, diff, sort and filter.
 *
 * No curses and no page access here: see model.h.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "model.h"

const struct col_info model_cols[COL_NR] = {
	[COL_PID] = { "pid", N_("PID"), N_("process id (tgid)"),
		      COL_KIND_INT, 0 },
	[COL_TID] = { "tid", N_("TID"), N_("thread id"), COL_KIND_INT, 0 },
	[COL_COMM] = { "comm", N_("COMM"), N_("thread name"),
		       COL_KIND_TEXT, 0 },
	[COL_STATE] = { "state", N_("STATE"), N_("state at sample time"),
			COL_KIND_TEXT, 0 },
	[COL_CPU] = { "cpu", N_("CPU"), N_("CPU it runs or last ran on"),
		      COL_KIND_INT, 0 },
	[COL_RUN_PCT] = { "run", N_("RUN%"),
			  N_("share of the interval on a CPU"),
			  COL_KIND_PCT, 1 },
	[COL_RUNNABLE_PCT] = { "runnable", N_("RUNQ%"),
			       N_("share of the interval waiting for a CPU"),
			       COL_KIND_PCT, 1 },
	[COL_SLEEP_PCT] = { "sleep", N_("SLEEP%"),
			    N_("share of the interval sleeping"),
			    COL_KIND_PCT, 1 },
	[COL_IOWAIT_PCT] = { "iowait", N_("IOW%"),
			     N_("share of the interval waiting for I/O"),
			     COL_KIND_PCT, 1 },
	[COL_BLOCKED_PCT] = { "blocked", N_("BLK%"),
			      N_("share of the interval blocked otherwise"),
			      COL_KIND_PCT, 1 },
	[COL_RUN_TOTAL] = { "run_total", N_("RUN"),
			    N_("total time on a CPU"), COL_KIND_NS, 1 },
	[COL_RUNNABLE_TOTAL] = { "runnable_total", N_("RUNQ"),
				 N_("total time waiting for a CPU"),
				 COL_KIND_NS, 1 },
	[COL_SLEEP_TOTAL] = { "sleep_total", N_("SLEEP"),
			      N_("total time sleeping"), COL_KIND_NS, 1 },
	[COL_IOWAIT_TOTAL] = { "iowait_total", N_("IOW"),
			       N_("total time waiting for I/O"),
			       COL_KIND_NS, 1 },
	[COL_BLOCKED_TOTAL] = { "blocked_total", N_("BLK"),
				N_("total time blocked otherwise"),
				COL_KIND_NS, 1 },
	[COL_VCSW_RATE] = { "vcsw", N_("VCSW/s"),
			    N_("voluntary context switches per second"),
			    COL_KIND_RATE, 1 },
	[COL_IVCSW_RATE] = { "ivcsw", N_("IVCSW/s"),
			     N_("involuntary context switches per second"),
			     COL_KIND_RATE, 1 },
	[COL_MIGRATIONS] = { "migrations", N_("MIGR"),
			     N_("migrations between CPUs"), COL_KIND_INT, 1 },
	[COL_WAKEUPS] = { "wakeups", N_("WAKEUPS"), N_("wakeups"),
			  COL_KIND_INT, 1 },
};

int model_col_by_key(const char *key)
{
	for (int c = 0; c < COL_NR; c++)
		if (!strcasecmp(key, model_cols[c].key))
			return c;
	return -1;
}

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
	memset(s, 0, sizeof(*s));
}

static int screen_copy(struct screen *dst, const struct screen *src)
{
	struct screen tmp = *src;

	tmp.rows = NULL;
	tmp.rows_cap = 0;
	tmp.cpus = NULL;
	tmp.ncpus = 0;
	if (screen_reserve(&tmp, src->nrows) ||
	    screen_set_cpus(&tmp, src->ncpus)) {
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
	m->in = NULL;
	m->tgid_set = NULL;
	m->in_cap = m->tgid_set_cap = 0;
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
 * The steady case, once per thread and frame: every field is assigned, none
 * cleared first.  A memset of the row here was half of model_sample's time
 * (rep stosq of 264 bytes, 1,000 times a frame).
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
	 * vanish after linger_ns while still running (found by
	 * tests/fuzz/fuzz_model_merge).
	 */
	r->flags = c->state == CSF_STATE_EXITED ? old->flags & ROW_EXITED : 0;
	r->exited_at_ns = r->flags ? old->exited_at_ns : 0;
}

/*
 * Live threads and distinct processes among them, counted with a set of
 * tgids (open addressing, at most half full): O(n) per frame, where a
 * look-back per row would be quadratic and a sort n log n.  The set lives
 * in the model, so a frame does not allocate it.  Without memory for it
 * the process count is 0 rather than the frame failing.  (tgid 0 is no
 * real process, but is counted once like any other, as before.)
 */
static void count_live(struct model *m, struct screen *s)
{
	unsigned int nthreads = 0, nprocs = 0;
	size_t cap = 16, mask;
	int zero_seen = 0;

	while (cap < 2 * s->nrows)
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
	mask = cap - 1;
	for (size_t i = 0; i < s->nrows; i++) {
		uint32_t tgid = s->rows[i].snap.tgid;
		size_t h;

		if (s->rows[i].flags & ROW_EXITED)
			continue;
		nthreads++;
		if (!cap)
			continue;
		/* Fibonacci hashing; tgid 0 is no process and marks empty */
		for (h = (size_t)(tgid * 2654435761u) & mask;
		     m->tgid_set[h] && m->tgid_set[h] != tgid;
		     h = (h + 1) & mask)
			;
		if (!tgid) {
			nprocs += !zero_seen;
			zero_seen = 1;
		} else if (!m->tgid_set[h]) {
			m->tgid_set[h] = tgid;
			nprocs++;
		}
	}
	s->nthreads = nthreads;
	s->nprocs = nprocs;
}

/* --- CPUs ----------------------------------------------------------- */

static void cpu_fill(struct model *m, struct cpu_row *r,
		     const struct csf_cpu_snap *p, const struct csf_cpu_snap *c)
{
	static const struct csf_cpu_snap zero;
	uint64_t busy, idle, iowait, stat_sum = 0, d_stat[CSF_STAT_NR];
	uint64_t sched_sum, csw;

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
	if (sched_sum) {
		r->busy_pct = 100.0 * (double)busy / (double)sched_sum;
		r->iowait_pct = 100.0 * (double)iowait / (double)sched_sum;
	}
	/* stat[] are ns already, refreshed every stat_period_ns */
	for (int k = 0; k < CSF_STAT_NR; k++) {
		d_stat[k] = growth(p->stat[k], c->stat[k]);
		stat_sum += d_stat[k];
	}
	if (stat_sum)
		for (int k = 0; k < CSF_STAT_NR; k++)
			r->stat_pct[k] = 100.0 * (double)d_stat[k] /
					 (double)stat_sum;
	csw = growth(p->nr_switches, c->nr_switches);
	if (r->wall_ns)
		r->csw_rate = (double)csw * 1e9 / (double)r->wall_ns;
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
	dst->csw_rate = 0;
	for (unsigned int i = 0; i < ncpus; i++) {
		cpu_fill(m, &rows[i], old ? &old[i].snap : NULL, &cpus[i]);
		dst->csw_rate += rows[i].csw_rate;
	}
	if (rows != dst->cpus)
		free(dst->cpus);
	dst->cpus = rows;
	dst->ncpus = ncpus;
	return 0;
}

/* --- sampling ------------------------------------------------------- */

int model_sample(struct model *m, const struct csf_snap *snaps, size_t n,
		 const struct csf_cpu_snap *cpus, unsigned int ncpus,
		 uint64_t now_ns)
{
	const struct screen *old = &m->live;
	struct screen next = m->spare;
	const struct csf_snap **in;
	size_t i = 0, j = 0;
	int sorted = 1;

	/* the spare's arrays, emptied: a steady frame allocates nothing */
	memset(&m->spare, 0, sizeof(m->spare));
	next.kind = SCREEN_LIVE;
	next.nrows = 0;
	if (m->in_cap < n) {
		in = realloc(m->in, n * sizeof(*in));
		if (!in)
			goto fail;
		m->in = in;
		m->in_cap = n;
	}
	in = m->in;
	for (size_t k = 0; k < n; k++) {
		in[k] = &snaps[k];
		if (k && snaps[k].tid < snaps[k - 1].tid)
			sorted = 0;
	}
	/* the sampler reads in tid order already: sort only what is not */
	if (!sorted)
		qsort(in, n, sizeof(*in), cmp_snap_ptr_tid);
	if (screen_reserve(&next, n + old->nrows))
		goto fail;

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
			/* gone from the sample: exited and unmapped */
			i++;
			if ((o->flags & ROW_EXITED) &&
			    now_ns - o->exited_at_ns >= m->linger_ns)
				continue;
			*r = *o;
			memset(r->delta_ns, 0, sizeof(r->delta_ns));
			r->d_nvcsw = r->d_nivcsw = 0;
			r->interval_ns = now_ns > old->taken_ns ?
					 now_ns - old->taken_ns : 0;
			r->flags &= ~ROW_NEW;
			if (!(r->flags & ROW_EXITED)) {
				r->flags |= ROW_EXITED;
				r->exited_at_ns = now_ns;
			}
		} else {
			if (same_incarnation(&o->snap, c))
				row_next(m, r, o, c);
			else
				row_first(m, r, c);
			i++;
			j++;
		}
		if (r->snap.state == CSF_STATE_EXITED &&
		    !(r->flags & ROW_EXITED)) {
			r->flags |= ROW_EXITED;
			r->exited_at_ns = now_ns;
		}
		if ((r->flags & ROW_EXITED) &&
		    now_ns - r->exited_at_ns >= m->linger_ns)
			continue;
		next.nrows++;
	}

	if (cpus_compute(m, &next, old, cpus, ncpus))
		goto fail;
	next.taken_ns = now_ns;
	next.interval_ns = old->seq && now_ns > old->taken_ns ?
			   now_ns - old->taken_ns : 0;
	next.seq = old->seq + 1;
	count_live(m, &next);
	/* the old live screen becomes the spare of the next sample */
	m->spare = m->live;
	m->live = next;
	return 0;

fail:
	/* keep the arrays for next time; the live screen is unchanged */
	m->spare = next;
	return -ENOMEM;
}

/* --- freeze and diff ------------------------------------------------ */

int model_freeze(struct model *m)
{
	if (screen_copy(&m->frozen, &m->live))
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

static int diff_compute(struct model *m, struct screen *d,
			const struct screen *a, const struct screen *b)
{
	uint64_t span = b->taken_ns > a->taken_ns ?
			b->taken_ns - a->taken_ns : 0;
	struct screen next = { .kind = SCREEN_DIFF };
	struct csf_cpu_snap *bcpus;
	size_t i = 0, j = 0;
	int err;

	if (screen_reserve(&next, a->nrows + b->nrows))
		return -ENOMEM;
	while (i < a->nrows || j < b->nrows) {
		const struct row *ra = i < a->nrows ? &a->rows[i] : NULL;
		const struct row *rb = j < b->nrows ? &b->rows[j] : NULL;
		struct row *r = &next.rows[next.nrows++];

		if (rb && (!ra || rb->snap.tid < ra->snap.tid)) {
			diff_appeared(m, r, rb, span);
			j++;
		} else if (!rb || ra->snap.tid < rb->snap.tid) {
			diff_gone(r, ra, span);
			i++;
		} else {
			if (same_incarnation(&ra->snap, &rb->snap))
				diff_both(m, r, ra, rb);
			else
				diff_appeared(m, r, rb, span);
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

/* --- filter --------------------------------------------------------- */

int parse_pid_list(const char *text, pid_t *pids, size_t max)
{
	size_t n = 0;
	const char *p = text;

	if (!*p)
		return -EINVAL;
	for (;;) {
		char *end;
		long v;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v <= 0 || v > INT_MAX || n >= max)
			return -EINVAL;
		pids[n++] = (pid_t)v;
		if (!*end)
			break;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
	return (int)n;
}

int filter_set_pids(struct filter *f, const char *text)
{
	pid_t pids[FILTER_MAX_PIDS];
	int n = parse_pid_list(text, pids, FILTER_MAX_PIDS);

	if (n < 0)
		return n;
	memset(f, 0, sizeof(*f));
	memcpy(f->pids, pids, (size_t)n * sizeof(pids[0]));
	f->npids = (size_t)n;
	snprintf(f->text, sizeof(f->text), "%s", text);
	return 0;
}

int filter_set(struct filter *f, const char *text)
{
	if (!*text) {
		memset(f, 0, sizeof(*f));
		return 0;
	}
	/* only digits and commas: a PID list, and it must be a valid one */
	if (strspn(text, "0123456789,") == strlen(text))
		return filter_set_pids(f, text);
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", text);
	snprintf(f->text, sizeof(f->text), "%s", text);
	return 0;
}

int filter_active(const struct filter *f)
{
	return f && (f->npids || f->name[0]);
}

int filter_match(const struct filter *f, const struct row *r)
{
	if (!filter_active(f))
		return 1;
	if (f->npids) {
		/* -p names processes like top's; a TID is accepted too */
		for (size_t i = 0; i < f->npids; i++)
			if ((uint32_t)f->pids[i] == r->snap.tgid ||
			    (uint32_t)f->pids[i] == r->snap.tid)
				return 1;
		return 0;
	}
	{
		char comm[sizeof(r->snap.comm) + 1];

		memcpy(comm, r->snap.comm, sizeof(r->snap.comm));
		comm[sizeof(r->snap.comm)] = '\0';
		return strcasestr(comm, f->name) != NULL;
	}
}

/* --- values and sorting --------------------------------------------- */

unsigned int row_state(const struct row *r)
{
	if (r->flags & (ROW_EXITED | ROW_GONE))
		return CSF_STATE_EXITED;
	return r->snap.state;
}

double row_pct(const struct row *r, unsigned int state)
{
	if (state >= CSF_NR_STATES || !r->interval_ns)
		return 0;
	return 100.0 * (double)r->delta_ns[state] / (double)r->interval_ns;
}

double row_rate(const struct row *r, uint64_t count)
{
	if (!r->interval_ns)
		return 0;
	return (double)count * 1e9 / (double)r->interval_ns;
}

uint64_t row_uvalue(const struct row *r, enum col col)
{
	switch (col) {
	case COL_PID:
		return r->snap.tgid;
	case COL_TID:
		return r->snap.tid;
	case COL_STATE:
		return row_state(r);
	case COL_CPU:
		return r->snap.cpu;
	case COL_RUN_TOTAL:
	case COL_RUNNABLE_TOTAL:
	case COL_SLEEP_TOTAL:
	case COL_IOWAIT_TOTAL:
	case COL_BLOCKED_TOTAL:
		return r->total_ns[col - COL_RUN_TOTAL];
	case COL_MIGRATIONS:
		return r->migrations;
	case COL_WAKEUPS:
		return r->wakeups;
	case COL_RUN_PCT:
	case COL_RUNNABLE_PCT:
	case COL_SLEEP_PCT:
	case COL_IOWAIT_PCT:
	case COL_BLOCKED_PCT:
	case COL_VCSW_RATE:
	case COL_IVCSW_RATE: {
		/*
		 * A rate can exceed 2^64 (a counter reset counted over a
		 * nanosecond's interval), and converting such a double is
		 * undefined: saturate (found by tests/fuzz/fuzz_model_merge).
		 */
		double v = row_value(r, col);

		if (v >= 18446744073709551616.0)
			return UINT64_MAX;
		return v > 0 ? (uint64_t)v : 0;
	}
	default:
		return 0;	/* COMM: text */
	}
}

double row_value(const struct row *r, enum col col)
{
	switch (col) {
	case COL_RUN_PCT:
	case COL_RUNNABLE_PCT:
	case COL_SLEEP_PCT:
	case COL_IOWAIT_PCT:
	case COL_BLOCKED_PCT:
		return row_pct(r, col - COL_RUN_PCT);
	case COL_VCSW_RATE:
		return row_rate(r, r->d_nvcsw);
	case COL_IVCSW_RATE:
		return row_rate(r, r->d_nivcsw);
	default:
		return (double)row_uvalue(r, col);
	}
}

/*
 * Sorting computes each row's key once (a share is a division), then sorts
 * small entries that hold it, instead of calling row_value() twice per
 * comparison on rows all over memory.  Numeric keys are sorted by a stable
 * radix sort on their bits (order_bits), a byte at a time, skipping the
 * bytes all keys share: a column of few distinct values, the usual case
 * (most shares are 0), takes a pass or two, and no comparison function is
 * called.  Descending keys are complemented (not negated: 0.0 and 100.0
 * then still share their six low bytes), so that one order serves both
 * and ties still go by ascending TID.
 */
struct sort_ent {
	union {
		uint64_t bits;
		const char *comm;
	} key;
	uint32_t tid;
	uint32_t row;
};

/* @v as an unsigned integer of the same order (there is no NaN here). */
static uint64_t order_bits(double v)
{
	uint64_t b;

	/* -0.0 == 0.0: one key, so that ties stay by TID */
	if (v == 0)
		v = 0;
	memcpy(&b, &v, sizeof(b));
	return b >> 63 ? ~b : b | 1ull << 63;
}

/*
 * Stable LSD radix sort of @n entries on their TID (@on_tid) or their key
 * bits, with @tmp (room for @n); returns the array that holds the result,
 * @ent or @tmp.  Only the bytes in which some key differs from the first
 * take a pass.
 */
static struct sort_ent *radix_sort(struct sort_ent *ent, struct sort_ent *tmp,
				   size_t n, int on_tid)
{
#define KEY(e) (on_tid ? (uint64_t)(e).tid : (e).key.bits)
	uint64_t differ = 0;

	for (size_t i = 1; i < n; i++)
		differ |= KEY(ent[i]) ^ KEY(ent[0]);
	for (unsigned int shift = 0; shift < 64; shift += 8) {
		uint32_t count[256] = { 0 }, pos = 0;
		struct sort_ent *t;

		if (!(differ >> shift & 255))
			continue;
		for (size_t i = 0; i < n; i++)
			count[KEY(ent[i]) >> shift & 255]++;
		for (unsigned int d = 0; d < 256; d++) {
			uint32_t c = count[d];

			count[d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[KEY(ent[i]) >> shift & 255]++] = ent[i];
		t = ent;
		ent = tmp;
		tmp = t;
	}
	return ent;
#undef KEY
}

static int cmp_comm(const struct sort_ent *a, const struct sort_ent *b)
{
	return strncasecmp(a->key.comm, b->key.comm,
			   sizeof(((struct csf_snap *)0)->comm));
}

static int cmp_comm_asc(const void *pa, const void *pb)
{
	const struct sort_ent *a = pa, *b = pb;
	int c = cmp_comm(a, b);

	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

static int cmp_comm_desc(const void *pa, const void *pb)
{
	const struct sort_ent *a = pa, *b = pb;
	int c = -cmp_comm(a, b);

	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

/* Without memory for the entries: the same order, the slow way. */
static const struct screen *sort_screen;
static enum col sort_col;
static int sort_desc;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = &sort_screen->rows[*(const size_t *)pa];
	const struct row *b = &sort_screen->rows[*(const size_t *)pb];
	int c = 0;

	if (sort_col == COL_COMM) {
		c = strncasecmp(a->snap.comm, b->snap.comm,
				sizeof(a->snap.comm));
	} else {
		double x = row_value(a, sort_col), y = row_value(b, sort_col);

		c = (x > y) - (x < y);
	}
	if (sort_desc)
		c = -c;
	if (!c)
		c = (a->snap.tid > b->snap.tid) - (a->snap.tid < b->snap.tid);
	return c;
}

size_t model_select(const struct screen *s, const struct filter *f,
		    enum col col, int desc, size_t *idx)
{
	struct sort_ent *ent, *sorted;
	size_t n = 0;
	int by_tid = 1;

	if (col >= COL_NR)
		col = COL_DEFAULT_SORT;
	for (size_t i = 0; i < s->nrows; i++)
		if (filter_match(f, &s->rows[i]))
			idx[n++] = i;
	/* one allocation per frame, freed right away: no churn per row */
	ent = malloc((n ? 2 * n : 1) * sizeof(*ent));
	if (!ent) {
		sort_screen = s;
		sort_col = col;
		sort_desc = desc;
		qsort(idx, n, sizeof(*idx), cmp_rows);
		sort_screen = NULL;
		return n;
	}
	sorted = ent;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];

		if (col == COL_COMM) {
			ent[i].key.comm = r->snap.comm;
		} else {
			double v = row_value(r, col);

			ent[i].key.bits = desc ? ~order_bits(v) :
					  order_bits(v);
		}
		ent[i].tid = r->snap.tid;
		ent[i].row = (uint32_t)idx[i];
		if (i && ent[i].tid < ent[i - 1].tid)
			by_tid = 0;
	}
	if (col == COL_COMM) {
		qsort(ent, n, sizeof(*ent),
		      desc ? cmp_comm_desc : cmp_comm_asc);
	} else {
		/* ties by TID: rows are in TID order, so a stable sort keeps it */
		if (!by_tid)
			sorted = radix_sort(sorted, ent + n, n, 1);
		sorted = radix_sort(sorted, sorted == ent ? ent + n : ent, n,
				    0);
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = sorted[i].row;
	free(ent);
	return n;
}
