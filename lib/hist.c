// SPDX-License-Identifier: MIT
/*
 * hist.c - the shape of the intervals: another thread's histograms, the
 * difference of two reads, quantiles, and the longest wait of a span.
 */
#include "config.h"

#include <errno.h>

#include "internal.h"

CSF_PUBLIC int csf_thread_read_hist(const struct csf_thread_map *map,
				    struct csf_hist *h)
{
	if (!map)
		return -EINVAL;
	return csf_page_read_hist(map->page, h);
}

/* A named task of @after's, if it acted after @since; else nobody. */
static void csf_task_since(struct csf_task *out, const struct csf_task *t,
			   uint64_t since)
{
	if (t->at > since)
		*out = *t;
	else
		memset(out, 0, sizeof(*out));
}

CSF_PUBLIC int csf_hist_delta(const struct csf_hist *before,
			      const struct csf_hist *after,
			      struct csf_hist *out)
{
	/* all the delta's waits are still in after's waits[] */
	int whole = after->nr_waits - before->nr_waits <= CSF_WAITS;
	struct csf_hist d;
	unsigned int s, b;

	if (before->tid != after->tid ||
	    before->registered_at != after->registered_at ||
	    after->now < before->now || after->nr_waits < before->nr_waits)
		return -EINVAL;
	memset(&d, 0, sizeof(d));
	d.now = after->now;
	d.registered_at = after->registered_at;
	d.tid = after->tid;
	for (s = 0; s < CSF_NR_STATES; s++)
		for (b = 0; b < CSF_HIST_BUCKETS; b++)
			d.count[s][b] = after->count[s][b] >= before->count[s][b] ?
					after->count[s][b] - before->count[s][b] :
					0;
	d.nr_waits = after->nr_waits;
	for (unsigned int i = 0; i < CSF_WAITS; i++) {
		const struct csf_wait *w = &after->waits[i];

		if (w->end <= before->now || w->state >= CSF_NR_STATES)
			continue;
		d.waits[i] = *w;
		if (whole) {
			uint64_t ns = csf_ticks_to_ns(w->len);

			if (ns > d.max_ns[w->state]) {
				d.max_ns[w->state] = ns;
				d.max_end[w->state] = w->end;
			}
		}
	}
	for (s = 0; s < CSF_NR_STATES; s++) {
		if (after->max_end[s] > before->now &&
		    (after->max_known & (1u << s))) {
			/* the thread's longest ever ended in the span */
			d.max_ns[s] = after->max_ns[s];
			d.max_end[s] = after->max_end[s];
			d.max_known |= 1u << s;
		} else if (s != CSF_STATE_RUNNING && whole) {
			d.max_known |= 1u << s;
		} else {
			d.max_ns[s] = 0;
			d.max_end[s] = 0;
		}
	}
	csf_task_since(&d.waker, &after->waker, before->now);
	csf_task_since(&d.preemptor, &after->preemptor, before->now);
	*out = d;
	return 0;
}

/* Bucket @b's bounds in ns: [lower, upper); the last has upper 0. */
static uint64_t csf_bucket_lower(unsigned int b)
{
	return b ? CSF_HIST_UPPER_NS(b - 1) : 0;
}

/* The intervals of @states in @h, summed bucket by bucket. */
struct csf_hist_sum {
	uint64_t count[CSF_HIST_BUCKETS];
	uint64_t n;			/* intervals */
	uint64_t max;			/* the longest of those known */
	int known;			/* every state with intervals knows it */
};

static void csf_sum_of(const struct csf_hist *h, unsigned int states,
		       struct csf_hist_sum *sum)
{
	unsigned int s, b;

	memset(sum, 0, sizeof(*sum));
	sum->known = 1;
	for (s = 0; s < CSF_NR_STATES; s++) {
		uint64_t in = 0;

		if (!(states & (1u << s)))
			continue;
		for (b = 0; b < CSF_HIST_BUCKETS; b++) {
			sum->count[b] += h->count[s][b];
			in += h->count[s][b];
		}
		sum->n += in;
		if (!in)
			continue;
		if (h->max_known & (1u << s)) {
			if (h->max_ns[s] > sum->max)
				sum->max = h->max_ns[s];
		} else {
			sum->known = 0;
		}
	}
}

/* The quantile of rank @rank, in bucket @b after @below intervals. */
static uint64_t csf_sum_at(const struct csf_hist_sum *sum, unsigned int b,
			   uint64_t below, double rank)
{
	double lo = (double)csf_bucket_lower(b), hi;

	if (b + 1 < CSF_HIST_BUCKETS)
		hi = (double)CSF_HIST_UPPER_NS(b);
	else
		hi = sum->known && sum->max > lo ? (double)sum->max : 2 * lo;
	lo += (hi - lo) * (rank - (double)below) / (double)sum->count[b];
	if (sum->known && lo > (double)sum->max)
		return sum->max;
	return (uint64_t)lo;
}

/*
 * csf_hist_quantile()'s rule for the @nq quantiles @q of a sum, in one
 * walk up its buckets: @q ascends, so each rank is at or above the last.
 */
static void csf_sum_quantiles(const struct csf_hist_sum *sum, const double *q,
			      uint64_t *out, unsigned int nq)
{
	uint64_t below = 0;
	unsigned int b = 0, k;

	for (k = 0; k < nq; k++) {
		double qk = q[k] > 1 ? 1 : q[k], rank;

		if (!sum->n || !(qk > 0)) {
			out[k] = 0;
			continue;
		}
		if (qk == 1 && sum->known) {
			out[k] = sum->max;
			continue;
		}
		rank = qk * (double)sum->n;
		for (; b + 1 < CSF_HIST_BUCKETS; b++) {
			if (sum->count[b] &&
			    (double)(below + sum->count[b]) >= rank)
				break;
			below += sum->count[b];
		}
		out[k] = csf_sum_at(sum, b, below, rank);
	}
}

CSF_PUBLIC uint64_t csf_hist_quantile(const struct csf_hist *h,
				      unsigned int states, double q)
{
	struct csf_hist_sum sum;
	uint64_t v;

	csf_sum_of(h, states, &sum);
	csf_sum_quantiles(&sum, &q, &v, 1);
	return v;
}

CSF_PUBLIC void csf_hist_summarize(const struct csf_hist *h,
				   unsigned int states,
				   struct csf_hist_summary *out)
{
	static const double q[4] = { 0.5, 0.9, 0.99, 1.0 };
	struct csf_hist_sum sum;
	uint64_t v[4];

	csf_sum_of(h, states, &sum);
	csf_sum_quantiles(&sum, q, v, 4);
	out->count = sum.n;
	out->p50_ns = v[0];
	out->p90_ns = v[1];
	out->p99_ns = v[2];
	out->max_ns = v[3];
	out->max_known = sum.n && sum.known;
}

int csf_hist_longest_wait(const struct csf_hist *h, uint64_t from,
			  uint64_t to, unsigned int *state, uint64_t *ns,
			  int *sure)
{
	uint64_t best = 0;
	unsigned int best_state = 0;
	int found = 0, whole;
	unsigned int s;

	/* waits[] lost none of the span: its oldest ended before it */
	whole = h->nr_waits < CSF_WAITS ||
		h->waits[h->nr_waits % CSF_WAITS].end <= from;
	for (unsigned int i = 0; i < CSF_WAITS && i < h->nr_waits; i++) {
		const struct csf_wait *w = &h->waits[i];

		if (w->end <= from || w->end > to || w->state >= CSF_NR_STATES ||
		    (found && w->len <= best))
			continue;
		best = w->len;
		best_state = w->state;
		found = 1;
	}
	if (found)
		best = csf_ticks_to_ns(best);
	/* a state's longest ever that ended in the span is its longest there */
	for (s = CSF_STATE_RUNNABLE; s < CSF_NR_STATES; s++) {
		if (h->max_end[s] <= from || h->max_end[s] > to)
			continue;
		if (!found || h->max_ns[s] > best) {
			best = h->max_ns[s];
			best_state = s;
			found = 1;
		}
	}
	if (!found)
		return -ENOENT;
	*state = best_state;
	*ns = best;
	*sure = whole;
	return 0;
}
