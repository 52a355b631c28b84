/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmt.h - fixed-width number formatting shared by the view and batch text:
 * every result fits the column widths below, whatever the value.
 */
#ifndef CSFTOP_FMT_H
#define CSFTOP_FMT_H

#include <stddef.h>
#include <stdint.h>

#define FMT_PCT_W	5	/* "100.0" */
#define FMT_DUR_W	7	/* "999.9ms", "59m59s", "123h59m" */
#define FMT_RATE_W	7	/* "999.9", "12.3k", "4.5M" */
#define FMT_COUNT_W	7	/* "9999999", "12.3M" */

void fmt_pct(char *buf, size_t len, double pct);
void fmt_dur(char *buf, size_t len, uint64_t ns);
void fmt_rate(char *buf, size_t len, double per_s);
void fmt_count(char *buf, size_t len, uint64_t n);
/* An interval in ms for humans: "10 ms", "1.5 s". */
void fmt_interval(char *buf, size_t len, uint64_t ns);

#endif /* CSFTOP_FMT_H */
