/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batch.h - csftop -b: the model's screens as text, CSV or JSON lines.
 */
#ifndef CSFTOP_BATCH_H
#define CSFTOP_BATCH_H

#include <stdio.h>

#include "model.h"

enum batch_format { BATCH_TEXT, BATCH_CSV, BATCH_JSON };

struct batch_opts {
	enum batch_format format;
	enum col sort_col;
	int sort_desc;
	const struct filter *filter;
	const char *clock_name;		/* untranslated, for CSV/JSON */
	const char *clock_label;	/* translated, for text */
	double time_s;			/* wall clock of the sample */
};

/*
 * The text cells of one row's ids, totals and counts in the previous
 * frame, with the values they show: see memo_put() in batch.c.
 */
enum {
	MEMO_PID,
	MEMO_TID,
	MEMO_TOTAL,				/* CSF_NR_STATES of them */
	MEMO_MIGRATIONS = MEMO_TOTAL + CSF_NR_STATES,
	MEMO_WAKEUPS,
	MEMO_COLS
};
struct cell_memo {
	uint64_t value[MEMO_COLS];
	uint64_t cell[MEMO_COLS];	/* " %7s", 8 bytes; 0: none */
};

/*
 * What batch_print keeps from one frame to the next, so that a frame
 * allocates nothing once the buffers have grown: the display order, the
 * frame's text (written with one write(2)) and the translated strings that
 * do not change (a gettext lookup costs more than formatting a row).
 * Zero it before the first frame; batch_buf_free() releases it.
 */
struct batch_buf {
	size_t *idx;
	size_t idx_cap;
	char *text;
	size_t len, cap;
	int oom;
	char *titles;			/* the thread table's title line */
	char *cpu_titles;		/* the CPU table's */
	const char *state_names[CSF_STATE_EXITED + 1];
	int have_names;
	char zero_fields[COL_NR][9];	/* " %7s" of fmt_zero(column) */
	struct cell_memo *memo;		/* by row index of the last screen */
	size_t memo_cap;
};

/* Print one screen; returns 0 or -errno (e.g. -EPIPE, -ENOMEM). */
int batch_print(FILE *out, const struct screen *s,
		const struct batch_opts *o, struct batch_buf *b);
void batch_buf_free(struct batch_buf *b);

#endif /* CSFTOP_BATCH_H */
