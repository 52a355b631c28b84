// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meters.c - one bar per CPU, htop style.
 *
 * The bar's segments are the /proc/stat buckets (user, nice, system, irq,
 * softirq, iowait, steal) of the interval; the number is the exact busy
 * share from sched_switch, which the module keeps to the tick.  stat[] is
 * refreshed only every stat_period_ns (10 ms by default), so at very short
 * intervals it may not have moved: the bar then shows the exact busy and
 * iowait shares in one colour each rather than an empty bar.
 *
 * Each bucket has its own character as well as its colour, like htop's
 * monochrome mode, so the bars read on any terminal and in text dumps.
 */
#include <config.h>

#include <stdio.h>

#include "cell.h"
#include "fmt.h"
#include "i18n.h"
#include "meters.h"
#include "text.h"

struct segment {
	int stat;		/* enum csf_stat */
	int pair;
	char ch;
};

static const struct segment segments[] = {
	{ CSF_STAT_USER, CP_USER, '|' },
	{ CSF_STAT_NICE, CP_NICE, '+' },
	{ CSF_STAT_SYSTEM, CP_SYSTEM, '#' },
	{ CSF_STAT_IRQ, CP_IRQ, '!' },
	{ CSF_STAT_SOFTIRQ, CP_SOFTIRQ, '~' },
	{ CSF_STAT_IOWAIT, CP_IOWAIT, 'w' },
	{ CSF_STAT_STEAL, CP_STEAL, 's' },
};
#define NSEG ((int)(sizeof(segments) / sizeof(segments[0])))

#define METER_MIN_W 20

/* How many meters side by side, so that they take a third of the screen. */
static int meter_columns(unsigned int ncpus, int cols, int lines)
{
	int budget = (lines - 6) / 3, per_col = cols / METER_MIN_W, n;

	if (budget < 1)
		budget = 1;
	if (per_col < 1)
		per_col = 1;
	n = (int)((ncpus + (unsigned int)budget - 1) / (unsigned int)budget);
	if (n < 1)
		n = 1;
	/* a few CPUs: one per line, the widest bars; many: compact */
	if (ncpus <= 4)
		n = 1;
	return n < per_col ? n : per_col;
}

int meters_lines(unsigned int ncpus, int cols, int lines)
{
	int n = meter_columns(ncpus, cols, lines);
	int rows = (int)((ncpus + (unsigned int)n - 1) / (unsigned int)n);
	int budget = (lines - 6) / 3;

	if (budget < 1)
		budget = 1;
	return rows < budget ? rows : budget;
}

static void draw_meter(const struct ui *ui, const struct cpu_row *c,
		       unsigned int id, int y, int x, int w)
{
	char label[16], pct[16], num[FMT_BUFSZ];
	int bar, start, pos = 0;
	uint64_t cum = 0, stat_sum = 0;

	snprintf(label, sizeof(label), "%3u", id);
	attrset(A_BOLD);
	cell_put(y, x, 3, label, 1);
	attrset(A_NORMAL);
	mvaddch(y, x + 3, '[');
	mvaddch(y, x + w - 1, ']');
	start = x + 4;
	bar = w - 5;
	if (bar < 1)
		return;
	if (!c->snap.online) {
		cell_put(y, start, bar, _("offline"), 1);
		return;
	}
	for (int k = 0; k < NSEG; k++)
		stat_sum += c->stat[segments[k].stat].num;
	for (int k = 0; k < NSEG; k++) {
		struct ratio p = { 0, 1 };
		int end;

		if (stat_sum > 0)
			p = c->stat[segments[k].stat];
		else if (segments[k].stat == CSF_STAT_USER)
			p = c->busy;	/* no stat growth: exact busy */
		else if (segments[k].stat == CSF_STAT_IOWAIT)
			p = c->iowait;
		cum += ratio_scaled(p, 1000);	/* per mille */
		end = (int)((cum * (uint64_t)bar + 500) / 1000);
		if (end > bar)
			end = bar;
		if (end > pos)
			mvhline(y, start + pos, (chtype)segments[k].ch |
				cell_paint(ui, segments[k].pair, 0), end - pos);
		pos = end > pos ? end : pos;
	}
	if (bar > pos)
		mvhline(y, start + pos, ' ', bar - pos);
	snprintf(pct, sizeof(pct), "%s%%", FMT_STR(num, fmt_pct, c->busy));
	if (text_width(pct) < bar) {
		attrset(A_BOLD);
		cell_put(y, start + bar - text_width(pct), text_width(pct),
			 pct, 1);
		attrset(A_NORMAL);
	}
}

int meters_draw(const struct ui *ui, const struct screen *s, int y)
{
	int ncol, rows, w;

	if (!s->ncpus)
		return y;
	ncol = meter_columns(s->ncpus, COLS, LINES);
	rows = meters_lines(s->ncpus, COLS, LINES);
	w = COLS / ncol;
	for (unsigned int i = 0; i < s->ncpus; i++) {
		int col = (int)(i / (unsigned int)rows), row =
			(int)(i % (unsigned int)rows);

		if (col >= ncol) {
			char more[64];

			/* more CPUs than fit: say so instead of hiding it */
			snprintf(more, sizeof(more), _("(+%u CPUs)"),
				 s->ncpus - i);
			cell_put(y + rows - 1, COLS - text_width(more),
				 text_width(more), more, 1);
			break;
		}
		draw_meter(ui, &s->cpus[i], i, y + row, col * w,
			   col == ncol - 1 ? COLS - col * w : w - 1);
	}
	return y + rows;
}
