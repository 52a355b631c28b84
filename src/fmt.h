/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.h - fixed-width number formatting shared by the view and batch text:
 * every result fits the column widths below, whatever the value.
 *
 * These run a few thousand times per frame (1,000 threads x 14 numeric
 * columns), so they are integer code, not printf: see fmt.c.  Each writes a
 * NUL-terminated string into @buf (truncated to @len like snprintf) and
 * returns its length.
 */
#ifndef CSFTOP_FMT_H
#define CSFTOP_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define FMT_PCT_W	5	/* "100.0" */
#define FMT_DUR_W	7	/* "999.9ms", "59m59s", "123h59m" */
#define FMT_RATE_W	7	/* "999.9", "12.3k", "4.5M" */
#define FMT_COUNT_W	7	/* "9999999", "12.3M" */

/* Room for any result of the functions below. */
#define FMT_BUFSZ	32

size_t fmt_pct(char *buf, size_t len, double pct);
size_t fmt_dur(char *buf, size_t len, uint64_t ns);
size_t fmt_rate(char *buf, size_t len, double per_s);
size_t fmt_count(char *buf, size_t len, uint64_t n);
/* An interval in ms for humans: "10 ms", "1.5 s". */
size_t fmt_interval(char *buf, size_t len, uint64_t ns);

/* printf's "%llu". */
size_t fmt_uint(char *buf, size_t len, uint64_t v);
/*
 * printf's "%.*f" with @decimals 0 to 3, byte for byte: the exact binary
 * value of @v rounded to nearest, ties to even, as glibc does.
 */
size_t fmt_fixed(char *buf, size_t len, double v, unsigned int decimals);

/* A numeric column of the thread table in its compact form above. */
size_t fmt_value(char *buf, size_t len, const struct row *r, enum col c);

/*
 * Cells of a text table, " %7s" of fmt_value() and " %*llu" of @v: written
 * at @p, right-aligned without a scratch buffer, and wider when the value
 * is (never cut).  They need FMT_BUFSZ + 1 bytes of room and may store
 * spaces past the end they return.
 */
#define FMT_CELL_W	7
char *fmt_cell(char *p, const struct row *r, enum col c);
char *fmt_cell_uint(char *p, uint64_t v, unsigned int w);
/*
 * fmt_value_zero - when true, fmt_value() prints column @c of @r as
 * fmt_zero(@c) ("0.0", "0ns", "0"): decided on integers, so that a table
 * of mostly idle threads is written mostly without formatting.  (A share
 * that merely rounds to 0.0 prints so too, and is not recognised here.)
 */
static inline int fmt_value_zero(const struct row *r, enum col c)
{
	/* inline: the batch table asks it for every cell */
	if (c >= COL_RUN_PCT && c <= COL_BLOCKED_PCT)
		return !r->delta_ns[c - COL_RUN_PCT] || !r->interval_ns;
	if (c >= COL_RUN_TOTAL && c <= COL_BLOCKED_TOTAL)
		return !r->total_ns[c - COL_RUN_TOTAL];
	switch (c) {
	case COL_VCSW_RATE:
		return !r->d_nvcsw || !r->interval_ns;
	case COL_IVCSW_RATE:
		return !r->d_nivcsw || !r->interval_ns;
	case COL_MIGRATIONS:
		return !r->migrations;
	case COL_WAKEUPS:
		return !r->wakeups;
	case COL_PID:
		return !r->snap.tgid;
	case COL_TID:
		return !r->snap.tid;
	case COL_CPU:
		return !r->snap.cpu;
	default:
		return 0;	/* text */
	}
}

const char *fmt_zero(enum col c);

#endif /* CSFTOP_FMT_H */
