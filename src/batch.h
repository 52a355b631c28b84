/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batch.h - csftop -b: the model's screens as text, CSV or JSON lines.
 */
#ifndef CSFTOP_BATCH_H
#define CSFTOP_BATCH_H

#include <stdio.h>

#include "columns.h"
#include "fmt.h"
#include "model.h"

struct filter;

enum batch_format { BATCH_TEXT, BATCH_CSV, BATCH_JSON };

struct batch_opts {
	enum batch_format format;
	enum col sort_col;
	int sort_desc;
	const struct filter *filter;
	int processes;			/* a row per process (-P) */
	const char *clock_name;		/* untranslated, for CSV/JSON */
	const char *clock_label;	/* translated, for text */
	uint64_t time_ns;		/* wall clock of the sample */
};

/*
 * A -b text cell, as the previous frame printed it on this line of the
 * table, of a column that renders from its value alone (col_by_value()),
 * with that value: see memo_cell() in batch.c.
 */
struct cell_memo {
	struct ratio value;		/* an integer's is { v, 0 } */
	uint8_t len;			/* 0: none */
	char text[15];
};

/*
 * What batch_print keeps from one frame to the next, so that a frame
 * allocates nothing once the buffers have grown: the display order, the
 * frame's text (written with one fwrite()) and the translated strings that
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
	struct proc_screen procs;	/* with -P: the rows per process */
	struct cell_memo *memo;		/* memo_cols per line of the table */
	size_t memo_lines;
	unsigned int memo_cols;
	signed char memo_slot[COL_NR];	/* a column's in a line's; -1: none */
};

/*
 * Print the screen @m shows; returns 0 or -errno (e.g. -EPIPE, -ENOMEM).
 * JSON gives each thread its histograms of the interval too.
 */
int batch_print(FILE *out, const struct model *m,
		const struct batch_opts *o, struct batch_buf *b);
void batch_buf_free(struct batch_buf *b);
/*
 * Whether @o prints or sorts on anything of the threads' histograms: their
 * waits (CSV and JSON, a waits column sorted on) or themselves (JSON).
 */
int batch_needs_hists(const struct batch_opts *o);

#endif /* CSFTOP_BATCH_H */
