// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * select.c - filter and sort a screen's rows: see select.h.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "select.h"

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
	if (!f || !filter_active(f))
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

/*
 * Each row's key is computed once (a share is a division), then small
 * entries holding it are sorted.  Ties go by ascending TID, both ways.
 */
struct sort_ent {
	union {
		double d;
		const char *comm;
	} key;
	uint32_t tid;
	uint32_t row;
};

#define COMM_LEN sizeof(((struct csf_snap *)0)->comm)

/* qsort_r() on names, @desc pointing to the direction */
static int cmp_comm(const void *pa, const void *pb, void *desc)
{
	const struct sort_ent *a = pa, *b = pb;
	int c = strncasecmp(a->key.comm, b->key.comm, COMM_LEN);

	if (*(int *)desc)
		c = -c;
	return c ? c : (a->tid > b->tid) - (a->tid < b->tid);
}

/* Whether @a goes before @b: a descending sort's keys are negated, and a
 * screen's rows need not be in TID order. */
static inline int before(const struct sort_ent *a, const struct sort_ent *b)
{
	return a->key.d < b->key.d || (a->key.d == b->key.d && a->tid < b->tid);
}

/* Runs of this many are sorted by insertion before they are merged. */
#define SORT_RUN 16

/*
 * Merge sort of @n entries with @tmp (room for @n); returns the array that
 * holds the result.  Not qsort(): its call of a comparison function per
 * pair costs a few times this whole sort, every frame.  Insertion sorts
 * the first runs: rows come in TID order and most keys tie, so the runs
 * are mostly in order already and the first merge passes are saved.
 */
static struct sort_ent *merge_sort(struct sort_ent *a, struct sort_ent *tmp,
				   size_t n)
{
	for (size_t lo = 0; lo < n; lo += SORT_RUN) {
		size_t hi = lo + SORT_RUN < n ? lo + SORT_RUN : n;

		for (size_t i = lo + 1; i < hi; i++) {
			struct sort_ent e = a[i];
			size_t j = i;

			for (; j > lo && before(&e, &a[j - 1]); j--)
				a[j] = a[j - 1];
			a[j] = e;
		}
	}
	for (size_t w = SORT_RUN; w < n; w *= 2) {
		struct sort_ent *t;

		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
			memcpy(tmp + k, a + i, (mid - i) * sizeof(*a));
			memcpy(tmp + k + mid - i, a + j, (hi - j) * sizeof(*a));
		}
		t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}

size_t select_rows(const struct screen *s, const struct filter *f,
		   enum col col, int desc, size_t *idx)
{
	const struct column *c;
	struct sort_ent *ent, *sorted;
	size_t n = 0;

	if (col >= COL_NR)
		col = COL_DEFAULT_SORT;
	c = &columns[col];
	for (size_t i = 0; i < s->nrows; i++)
		if (filter_match(f, &s->rows[i]))
			idx[n++] = i;
	/* without memory for the keys the rows stay in TID order */
	ent = malloc((n ? 2 * n : 1) * sizeof(*ent));
	if (!ent)
		return n;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &s->rows[idx[i]];

		if (c->uint) {
			ent[i].key.d = (double)c->uint(r);
		} else if (c->ratio) {
			struct ratio q = c->ratio(r);

			ent[i].key.d = q.den ? (double)q.num / (double)q.den : 0;
		} else {
			ent[i].key.comm = c->name(r);
		}
		if (desc && (c->uint || c->ratio))
			ent[i].key.d = -ent[i].key.d;
		ent[i].tid = r->snap.tid;
		ent[i].row = (uint32_t)idx[i];
	}
	sorted = ent;
	if (c->uint || c->ratio)
		sorted = merge_sort(ent, ent + n, n);
	else
		qsort_r(ent, n, sizeof(*ent), cmp_comm, &desc);
	for (size_t i = 0; i < n; i++)
		idx[i] = sorted[i].row;
	free(ent);
	return n;
}
