// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt.c - compact numbers.  Units are SI symbols and stay untranslated, as
 * in top and htop.
 *
 * Why not printf: at 1,000 threads a frame formats some 14,000 numbers, and
 * glibc's "%.1f" (multi-precision conversion, locale and stream machinery)
 * costs ~1 us each, 20 ms of CPU per frame: csftop's whole budget many
 * times over.  Here a double becomes an exact fixed-point integer (see
 * scale_exact) and digits are written by integer code, well under a
 * hundred instructions a number.  The output is byte for byte what the
 * printf formats named in the comments print; tests/unit/test_model.c
 * compares the two on many values, ties and edges included.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

static const uint64_t pow10_tab[] = { 1, 10, 100, 1000 };
#define MAX_DECIMALS 3

/*
 * Each function below writes through a pointer @o that is the caller's
 * buffer when it has room for any result (no copy: the usual case), or a
 * local one that finish() copies, cut to @len like snprintf.
 */
#define OUT(buf, len, t)	((len) >= FMT_BUFSZ ? (buf) : (t))

static size_t finish(char *buf, size_t len, char *o, const char *end)
{
	size_t n = (size_t)(end - o);

	if (o != buf) {
		if (!len)
			return 0;
		if (n >= len)
			n = len - 1;
		memcpy(buf, o, n);
	}
	buf[n] = '\0';
	return n;
}

/* Decimal digits of @v at @p; returns the end. */
static char *put_uint(char *p, uint64_t v)
{
	unsigned int n = 1;

	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	for (char *q = p + n; q > p; v /= 10)
		*--q = (char)('0' + v % 10);
	return p + n;
}

/* @v in exactly @width digits, zero-padded (the fraction of a fixed). */
static char *put_digits(char *p, uint64_t v, unsigned int width)
{
	for (unsigned int i = width; i-- > 0; v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + width;
}

/* A unit of at most two characters: a call to memcpy would cost more. */
static char *put_unit(char *p, const char *unit)
{
	while (*unit)
		*p++ = *unit++;
	return p;
}

/*
 * |@v| * 10^@dec rounded to an integer the way glibc's printf rounds: on
 * the exact binary value, to nearest, ties to even.  A finite double is
 * m * 2^e with an integer m < 2^53, so m * 10^dec (< 2^63 for dec <= 3)
 * shifted right by -e is the exact scaled value, and the bits shifted out
 * say whether it lies below, on or above the half.  Returns -1 for what
 * does not fit 64 bits (|v| >= 2^52, inf, nan): the caller uses printf.
 */
static int scale_exact(double v, unsigned int dec, uint64_t *out)
{
	uint64_t bits, n, q, rest, half;
	int e, s;

	memcpy(&bits, &v, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff);
	if (e == 0x7ff)
		return -1;
	if (!e) {
		/* zero or subnormal: far below any half */
		*out = 0;
		return 0;
	}
	n = ((bits & ((1ull << 52) - 1)) | 1ull << 52) * pow10_tab[dec];
	e -= 1075;
	if (e >= 0)
		return -1;
	s = -e;
	if (s >= 64) {
		/* n < 2^63 <= 2^(s-1): below the half */
		*out = 0;
		return 0;
	}
	q = n >> s;
	rest = n & ((1ull << s) - 1);
	half = 1ull << (s - 1);
	if (rest > half || (rest == half && (q & 1)))
		q++;
	*out = q;
	return 0;
}

/* "%.<dec>f" of @v then @unit, at @p; NULL when scale_exact cannot. */
static char *put_fixed(char *p, double v, unsigned int dec, const char *unit)
{
	uint64_t q;

	if (scale_exact(v, dec, &q))
		return NULL;
	/* glibc prints the sign of negative values rounding to 0: "-0.0" */
	if (signbit(v))
		*p++ = '-';
	p = put_uint(p, q / pow10_tab[dec]);
	if (dec) {
		*p++ = '.';
		p = put_digits(p, q % pow10_tab[dec], dec);
	}
	return put_unit(p, unit);
}

/* fmt_fixed with a unit after the number, e.g. "%.1fms". */
static size_t fixed_unit(char *buf, size_t len, double v, unsigned int dec,
			 const char *unit)
{
	char t[FMT_BUFSZ], *o = OUT(buf, len, t), *end;
	int n;

	end = put_fixed(o, v, dec, unit);
	if (end)
		return finish(buf, len, o, end);
	/* huge, infinite or not a number: rare enough for printf */
	n = snprintf(buf, len, "%.*f%s", (int)dec, v, unit);
	if (n < 0 || !len)
		return 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}

size_t fmt_fixed(char *buf, size_t len, double v, unsigned int decimals)
{
	return fixed_unit(buf, len, v, decimals < MAX_DECIMALS ? decimals :
			  MAX_DECIMALS, "");
}

size_t fmt_uint(char *buf, size_t len, uint64_t v)
{
	char t[FMT_BUFSZ], *o = OUT(buf, len, t);

	return finish(buf, len, o, put_uint(o, v));
}

size_t fmt_pct(char *buf, size_t len, double pct)
{
	if (pct < 0)
		pct = 0;
	if (pct > 100)
		pct = 100;
	return fixed_unit(buf, len, pct, 1, "");		/* "%.1f" */
}

/*
 * "%.<dec>f<unit>" of @ns / 10^(@dec + @exp) at @p, in integers: @ns over
 * @step = 10^@exp, rounded to nearest.  printf rounds the double nearest
 * the quotient instead, which differs from it by far less than the 1 /
 * @step the quotient is from any half unless it lies exactly on one: only
 * such ties (ns a multiple of step / 2) go to the double path; NULL then.
 * Inlined so that the divisions are by constants, i.e. multiplications.
 */
static inline __attribute__((always_inline))
char *put_scaled(char *p, uint64_t ns, uint64_t step, unsigned int dec,
		 const char *unit)
{
	uint64_t q = ns / step, rest = ns % step;

	if (2 * rest == step)
		return NULL;
	q += 2 * rest > step;
	p = put_uint(p, q / pow10_tab[dec]);
	*p++ = '.';
	p = put_digits(p, q % pow10_tab[dec], dec);
	return put_unit(p, unit);
}

size_t fmt_dur(char *buf, size_t len, uint64_t ns)
{
	unsigned long long s = ns / 1000000000ull;
	char t[FMT_BUFSZ], *o = OUT(buf, len, t), *p = o;

	if (ns < 1000) {
		p = put_unit(put_uint(p, ns), "ns");		/* "%lluns" */
	} else if (ns < 999950) {				/* "%.1fus" */
		p = put_scaled(p, ns, 100, 1, "us");
		if (!p)
			return fixed_unit(buf, len, (double)ns / 1e3, 1, "us");
	} else if (ns < 999950000) {				/* "%.1fms" */
		p = put_scaled(p, ns, 100000, 1, "ms");
		if (!p)
			return fixed_unit(buf, len, (double)ns / 1e6, 1, "ms");
	} else if (ns < 99995000000ull) {			/* "%.2fs" */
		p = put_scaled(p, ns, 10000000, 2, "s");
		if (!p)
			return fixed_unit(buf, len, (double)ns / 1e9, 2, "s");
	} else if (s < 3600) {					/* "%llum%02llus" */
		p = put_unit(put_uint(p, s / 60), "m");
		p = put_unit(put_digits(p, s % 60, 2), "s");
	} else if (s < 3600ull * 1000) {			/* "%lluh%02llum" */
		p = put_unit(put_uint(p, s / 3600), "h");
		p = put_unit(put_digits(p, s / 60 % 60, 2), "m");
	} else {						/* "%llud" */
		p = put_unit(put_uint(p, s / 86400), "d");
	}
	return finish(buf, len, o, p);
}

size_t fmt_rate(char *buf, size_t len, double v)
{
	if (v < 0)
		v = 0;
	if (v < 9999.5)		/* "%.1f" below 99.95, "%.0f" above */
		return fixed_unit(buf, len, v, v < 99.95 ? 1 : 0, "");
	if (v < 9999.5e3)
		return fixed_unit(buf, len, v / 1e3, 1, "k");
	if (v < 9999.5e6)
		return fixed_unit(buf, len, v / 1e6, 1, "M");
	return fixed_unit(buf, len, v / 1e9, 1, "G");
}

size_t fmt_count(char *buf, size_t len, uint64_t n)
{
	if (n < 10000000)
		return fmt_uint(buf, len, n);			/* "%llu" */
	if (n < 10000000000ull)
		return fixed_unit(buf, len, (double)n / 1e6, 1, "M");
	return fixed_unit(buf, len, (double)n / 1e9, 1, "G");
}

size_t fmt_interval(char *buf, size_t len, uint64_t ns)
{
	char t[FMT_BUFSZ], *o = OUT(buf, len, t);

	if (ns >= 1000000000ull)				/* "%.1f s" */
		return fixed_unit(buf, len, (double)ns / 1e9, 1, " s");
	return finish(buf, len, o, put_unit(put_uint(o, ns / 1000000),
					    " ms"));		/* "%llu ms" */
}

/*
 * Most threads sleep through most intervals, so most shares are exactly
 * 0.0 or 100.0, most rates 0.0 and most totals and counts 0: those are
 * recognised from the integers (fmt_value_zero), without the division and
 * the rounding, and written as what the general path prints for them.
 */
const char *fmt_zero(enum col c)
{
	switch (model_cols[c].kind) {
	case COL_KIND_PCT:
	case COL_KIND_RATE:
		return "0.0";
	case COL_KIND_NS:
		return "0ns";
	default:
		return "0";
	}
}

/* A constant result: one small copy instead of formatting. */
static size_t put_const(char *buf, size_t len, const char *s)
{
	char t[FMT_BUFSZ], *o = OUT(buf, len, t);
	size_t n = strlen(s);

	memcpy(o, s, n);
	return finish(buf, len, o, o + n);
}

size_t fmt_value(char *buf, size_t len, const struct row *r, enum col c)
{
	if (fmt_value_zero(r, c))
		return put_const(buf, len, fmt_zero(c));
	switch (model_cols[c].kind) {
	case COL_KIND_PCT:
		if (r->delta_ns[c - COL_RUN_PCT] >= r->interval_ns)
			return put_const(buf, len, "100.0");
		return fmt_pct(buf, len, row_value(r, c));
	case COL_KIND_NS:
		return fmt_dur(buf, len, row_uvalue(r, c));
	case COL_KIND_RATE:
		return fmt_rate(buf, len, row_value(r, c));
	default:
		return fmt_count(buf, len, row_uvalue(r, c));
	}
}
