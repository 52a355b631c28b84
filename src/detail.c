// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * detail.c - the detail view: see detail.h.
 */
#include <config.h>

#include <stdio.h>

#include "cell.h"
#include "columns.h"
#include "detail.h"
#include "fmt.h"
#include "i18n.h"
#include "text.h"

/*
 * One thread's histograms, runqlat's way: per state a summary line, then
 * a line per bucket from its first non-empty one to its last, with a bar
 * in proportion to the state's fullest bucket.  Below a fixed header, the
 * lines scroll.
 */
struct detail_line {
	signed char state;	/* -1: a blank line */
	signed char bucket;	/* -1: the state's summary */
};

#define DETAIL_MAX (CSF_NR_STATES * (CSF_HIST_BUCKETS + 2))

static int detail_lines(const struct csf_hist *h, struct detail_line *l)
{
	int n = 0;

	for (int st = 0; st < CSF_NR_STATES; st++) {
		int first = -1, last = -1;

		for (int b = 0; b < CSF_HIST_BUCKETS; b++)
			if (h->count[st][b]) {
				if (first < 0)
					first = b;
				last = b;
			}
		l[n++] = (struct detail_line){ (signed char)st, -1 };
		for (int b = first; first >= 0 && b <= last; b++)
			l[n++] = (struct detail_line){ (signed char)st,
						       (signed char)b };
		l[n++] = (struct detail_line){ -1, -1 };
	}
	return n;
}

static const struct row *detail_row(const struct ui *ui,
				    const struct screen *s)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].snap.tid == ui->detail_tid)
			return &s->rows[i];
	return NULL;
}

/* "name (tid)", or an interrupt, or "-" for nobody yet */
static void task_text(char *buf, size_t len, const struct csf_task *t)
{
	if (!t->at)
		snprintf(buf, len, "-");
	else if (!t->tid)
		snprintf(buf, len, "%s", _("(interrupt)"));
	else
		snprintf(buf, len, "%s (%u)", t->comm, t->tid);
}

static void detail_summary(const struct csf_hist *h, int st, char *line,
			   size_t len)
{
	char v[4][FMT_BUFSZ];
	struct csf_hist_summary sum;

	csf_hist_summarize(h, CSF_HIST_STATE(st), &sum);
	if (!sum.count) {
		snprintf(line, len, _("%s: none"), col_state_name((unsigned)st));
		return;
	}
	snprintf(line, len,
		 _("%s: %llu intervals  p50 %s  p90 %s  p99 %s  max %s%s"),
		 col_state_name((unsigned)st), (unsigned long long)sum.count,
		 FMT_STR(v[0], fmt_dur, sum.p50_ns),
		 FMT_STR(v[1], fmt_dur, sum.p90_ns),
		 FMT_STR(v[2], fmt_dur, sum.p99_ns),
		 FMT_STR(v[3], fmt_dur, sum.max_ns),
		 sum.max_known ? "" : _(" (its bucket's bound)"));
}

static void detail_bucket(const struct ui *ui, const struct csf_hist *h,
			  int st, int b, int y)
{
	char lo[FMT_BUFSZ], hi[FMT_BUFSZ], head[96];
	uint64_t most = 0, n = h->count[st][b];
	int w, bar;

	for (int k = 0; k < CSF_HIST_BUCKETS; k++)
		if (h->count[st][k] > most)
			most = h->count[st][k];
	snprintf(head, sizeof(head), "  %8s -> %-8s : %8llu |",
		 FMT_STR(lo, fmt_dur, b ? CSF_HIST_UPPER_NS(b - 1) : 0),
		 b + 1 < CSF_HIST_BUCKETS ?
		 FMT_STR(hi, fmt_dur, CSF_HIST_UPPER_NS(b)) : "...",
		 (unsigned long long)n);
	cell_put(y, 0, COLS, head, 0);
	w = COLS - text_width(head) - 1;
	if (w < 1)
		return;
	bar = most ? (int)((n * (uint64_t)w + most - 1) / most) : 0;
	if (bar > w)
		bar = w;
	if (bar)
		mvhline(y, text_width(head), '*' |
			(chtype)cell_paint(ui, CP_BAR + st, A_NORMAL), bar);
	mvaddch(y, text_width(head) + w, '|');
}

void detail_draw(struct ui *ui)
{
	/* a thread's, whether the table shows threads or processes */
	const struct screen *s = model_shown(ui->model);
	const struct row *r = detail_row(ui, s);
	struct detail_line l[DETAIL_MAX];
	char line[512], w[64], p[64], ival[FMT_BUFSZ], span[128];
	struct csf_hist h;
	int n, room, y = 3;

	erase();
	if (!r || model_row_hist(ui->model, s, r, ui->detail_span, &h)) {
		cell_put(0, 0, COLS, r ? _("This thread's page keeps no "
					   "histograms (a module older than "
					   "ABI 1.1, or an archive).") :
			 _("The thread is gone."), 0);
		cell_put(LINES - 1, 0, COLS, _("Esc: back"), 0);
		return;
	}
	if (ui->detail_span == HIST_SINCE)
		snprintf(span, sizeof(span), "%s", s->kind == SCREEN_DIFF ?
			 _("since its registration, as of B") :
			 _("since its registration"));
	else if (s->kind == SCREEN_DIFF)
		snprintf(span, sizeof(span), "%s", _("between A and B"));
	else if (s->seq <= 1 || !s->interval_ns)
		snprintf(span, sizeof(span), "%s",
			 _("since its registration (the first sample)"));
	else
		snprintf(span, sizeof(span), _("in the last %s"),
			 FMT_STR(ival, fmt_interval, s->interval_ns));
	snprintf(line, sizeof(line), _("Thread %u %.16s (PID %u): its "
				       "intervals %s"), r->snap.tid,
		 r->snap.comm, r->snap.tgid, span);
	attrset(A_BOLD);
	cell_put(0, 0, COLS, line, 0);
	attrset(A_NORMAL);
	task_text(w, sizeof(w), &r->waits.waker);
	task_text(p, sizeof(p), &r->waits.preemptor);
	snprintf(line, sizeof(line), _("Last woken by %s, last preempted by "
				       "%s"), w, p);
	cell_put(1, 0, COLS, line, 0);

	n = detail_lines(&h, l);
	room = LINES - 1 - y;
	if (ui->detail_top > n - room)
		ui->detail_top = n - room > 0 ? n - room : 0;
	for (int i = ui->detail_top; i < n && y < LINES - 1; i++, y++) {
		if (l[i].state < 0)
			continue;
		if (l[i].bucket >= 0) {
			detail_bucket(ui, &h, l[i].state, l[i].bucket, y);
			continue;
		}
		detail_summary(&h, l[i].state, line, sizeof(line));
		attrset(A_BOLD);
		cell_put(y, 0, COLS, line, 0);
		attrset(A_NORMAL);
	}
	attrset(A_REVERSE);
	cell_put(LINES - 1, 0, COLS, ui->detail_span == HIST_SPAN ?
		 _("Esc back  Tab since registration  Up/Down scroll") :
		 _("Esc back  Tab the interval  Up/Down scroll"), 0);
	attrset(A_NORMAL);
}
