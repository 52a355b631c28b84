/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.h - the numbers of the screen and of csftop -b, in integers.
 *
 * The compact forms fit the column widths below: shares and durations
 * whatever the value, rates and counts below 10^13.
 * Shares and rates are exact fractions, rounded once, half up; otherwise
 * the output is what the printf format named in each comment prints.
 */
#ifndef CSFTOP_FMT_H
#define CSFTOP_FMT_H

#include <stddef.h>
#include <stdint.h>

#define FMT_PCT_W	5	/* "100.0" */
#define FMT_DUR_W	7	/* "999.9ms", "59m59s", "123h59m" */
#define FMT_RATE_W	7	/* "999.9", "12.3k", "4.5M" */
#define FMT_COUNT_W	7	/* "9999999", "12.3M" */

/* Room for any result of the functions below, and a NUL. */
#define FMT_BUFSZ	32

/*
 * A share or a rate as the fraction @num / @den: a state's time over the
 * interval, or events over the interval in ns.  @den 0 reads as 0.
 */
struct ratio {
	uint64_t num, den;
};

/* @q times @mul, rounded half up: a share in per mille is (q, 1000). */
uint64_t ratio_scaled(struct ratio q, uint64_t mul);

/*
 * Each function below writes its text so that it ends just before @end,
 * and returns where it starts: digits come out last first.  At most
 * FMT_BUFSZ - 1 bytes, no NUL; FMT_STR() makes a C string of one.
 */

/* "%llu" */
char *fmt_uint(char *end, uint64_t v);
/* @share as percent, "%.1f" (a process's share may pass 100.0) */
char *fmt_pct(char *end, struct ratio share);
/* "%lluns", "%.1fus", "%.1fms", "%.2fs", "%llum%02llus", "%lluh%02llum",
 * "%llud" by size */
char *fmt_dur(char *end, uint64_t ns);
/* events per second of @per_ns: "%.1f" below 99.95, "%.0f" below
 * 9999.5, then "%.1fk", "M", "G" */
char *fmt_rate(char *end, struct ratio per_ns);
/* "%llu" below 10^7, then "%.1fM" below 9999.95M, then "%.1fG" */
char *fmt_count(char *end, uint64_t n);
/* An interval for humans: "%llu ms", or "%.1f s" from a second. */
char *fmt_interval(char *end, uint64_t ns);
/*
 * @q times @scale with @decimals (0 to 3) decimals, "%.<decimals>f", for
 * CSV and JSON: a share in percent is fmt_decimal(end, share, 100, 2), a
 * rate per second fmt_decimal(end, rate, 1000000000, 2).
 */
char *fmt_decimal(char *end, struct ratio q, uint64_t scale,
		  unsigned int decimals);

/* The text of FN(..., ARGS) as a C string in @buf[FMT_BUFSZ]. */
#define FMT_STR(buf, fn, ...)						\
	((buf)[FMT_BUFSZ - 1] = '\0',					\
	 (const char *)fn((buf) + FMT_BUFSZ - 1, __VA_ARGS__))

#endif /* CSFTOP_FMT_H */
