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

static const uint64_t pow10_tab[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull,
};

/*
 * The few steps of a table cell are forced inline into fmt_cell(), so
 * that a struct num lives in registers and its units and widths are
 * constants: called, they cost more than the digits.
 */
#define inline_always __inline__ __attribute__((always_inline))
#define MAX_DECIMALS 3

/*
 * Every format below is decided once, into a struct num, and then laid
 * out.  Nearly every result is at most 8 characters: those are built in a
 * 64-bit register, a character per byte in memory order, and stored with
 * one move; a table cell is that register shifted right-aligned into
 * spaces (fmt_cell).  Longer results are written backwards a byte at a
 * time (rput_num).  Formatting into a scratch buffer and copying it into
 * a cell stalled on store forwarding, and byte loops to count digits and
 * pad were most of a frame's instructions.
 */
struct num {
	uint64_t hi;		/* printed in full */
	uint64_t lo;		/* then, if lo_w, sep and lo in lo_w digits */
	unsigned int lo_w;
	char sep;		/* '.', or 'm' / 'h' of "1m05s" / "2h07m" */
	char neg;		/* a leading '-' */
	unsigned char unit_len;
	uint32_t unit;		/* last: up to 3 untranslated SI symbols, the
				 * first in the low byte */
};

static inline_always void num_int(struct num *n, uint64_t v, const char *unit)
{
	n->hi = v;
	n->lo = 0;
	n->lo_w = 0;
	n->sep = 0;
	n->neg = 0;
	/* no loop: for the literal units of the callers this folds away */
	n->unit_len = (unsigned char)__builtin_strlen(unit);
	n->unit = (n->unit_len > 0 ? (uint32_t)(unsigned char)unit[0] : 0) |
		  (n->unit_len > 1 ? (uint32_t)(unsigned char)unit[1] << 8 : 0) |
		  (n->unit_len > 2 ? (uint32_t)(unsigned char)unit[2] << 16 : 0);
}

/* "<hi><sep><lo in @w digits><unit>" */
static inline_always void num_pair(struct num *n, uint64_t hi, char sep,
				   uint64_t lo, unsigned int w,
				   const char *unit)
{
	num_int(n, hi, unit);
	n->sep = sep;
	n->lo = lo;
	n->lo_w = w;
}

/* the fixed-point integer @q = value * 10^@dec as "%.<dec>f<unit>" */
static inline_always void num_fixed(struct num *n, uint64_t q,
				    unsigned int dec, const char *unit)
{
	num_pair(n, q / pow10_tab[dec], '.', q % pow10_tab[dec], dec, unit);
}

/* Whether a packed register, stored, reads as its text (little-endian). */
#define PACKED_TEXT (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/* "00" to "99", each as two bytes in memory order */
static const uint16_t two_digits[100] = {
#define P(t, u) (uint16_t)(('0' + (t)) | ('0' + (u)) << 8)
#define D(t) P(t, 0), P(t, 1), P(t, 2), P(t, 3), P(t, 4), P(t, 5), \
	     P(t, 6), P(t, 7), P(t, 8), P(t, 9)
	D(0), D(1), D(2), D(3), D(4), D(5), D(6), D(7), D(8), D(9)
#undef D
#undef P
};

/* Decimal digits of @v: its bit length times log10(2), then one compare. */
static unsigned int ndigits(uint64_t v)
{
	/* | 1: 0 has one digit, and no power of 10 is odd */
	unsigned int t = (unsigned int)(64 - __builtin_clzll(v | 1)) * 1233 >>
			 12;

	return t + 1 - ((v | 1) < pow10_tab[t]);
}

/* @v < 10^8 as 8 digits, zero-padded, the first in the low byte. */
static inline uint64_t pack8(uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	return (uint64_t)two_digits[hi / 100] |
	       (uint64_t)two_digits[hi % 100] << 16 |
	       (uint64_t)two_digits[lo / 100] << 32 |
	       (uint64_t)two_digits[lo % 100] << 48;
}

/*
 * @n in a register, its first character in the low byte, so that storing
 * it on a little-endian CPU writes the text; returns the length, or 0
 * when it is longer than 8 (or the CPU is big-endian).  Characters are
 * prepended: the unit first, then lo, sep, hi from its last digits.
 */
static inline_always unsigned int num_pack(const struct num *n, uint64_t *out)
{
	uint64_t acc = n->unit, v = n->hi, lo = n->lo;
	unsigned int len = n->unit_len;

	if (!PACKED_TEXT)
		return 0;

	/* lo has at most 3 digits (3 decimals, or the 2 of "1m05s") */
	switch (n->lo_w) {
	case 3:
		acc = acc << 16 | two_digits[lo % 100];
		acc = acc << 8 | (uint64_t)('0' + lo / 100 % 10);
		break;
	case 2:
		acc = acc << 16 | two_digits[lo % 100];
		break;
	case 1:
		acc = acc << 8 | (uint64_t)('0' + lo % 10);
		break;
	}
	if (n->lo_w) {
		acc = acc << 8 | (uint64_t)(unsigned char)n->sep;
		len += n->lo_w + 1;
	}
	/* at most 8 - len digits fit: the rest is for rput_num */
	if (v >= 10000000 || len + n->neg > 6)
		return 0;
	/*
	 * Short numbers, most of them: two digits a step costs fewer
	 * instructions here than ndigits() and pack8() (callgrind: 7% of a
	 * frame more).
	 */
	for (; v >= 100; v /= 100, len += 2)
		acc = acc << 16 | two_digits[v % 100];
	if (v >= 10) {
		acc = acc << 16 | two_digits[v];
		len += 2;
	} else {
		acc = acc << 8 | (uint64_t)('0' + v);
		len++;
	}
	if (n->neg) {
		acc = acc << 8 | '-';
		len++;
	}
	if (len > 8)
		return 0;
	*out = acc;
	return len;
}

static size_t num_len(const struct num *n)
{
	return (size_t)n->neg + ndigits(n->hi) + (n->lo_w ? n->lo_w + 1 : 0) +
	       n->unit_len;
}

/* @n so that it ends just before @e; returns where it starts. */
static char *rput_num(char *e, const struct num *n)
{
	uint64_t v = n->hi, lo = n->lo;

	for (unsigned int i = n->unit_len; i-- > 0;)
		*--e = (char)(n->unit >> (8 * i));
	if (n->lo_w) {
		for (unsigned int i = 0; i < n->lo_w; i++, lo /= 10)
			*--e = (char)('0' + lo % 10);
		*--e = n->sep;
	}
	for (; v >= 100; v /= 100) {
		e -= 2;
		memcpy(e, &two_digits[v % 100], 2);
	}
	if (v >= 10) {
		e -= 2;
		memcpy(e, &two_digits[v], 2);
	} else {
		*--e = (char)('0' + v);
	}
	if (n->neg)
		*--e = '-';
	return e;
}

/* @n into @buf, NUL-terminated, cut to @len like snprintf; its length. */
static size_t put_num(char *buf, size_t len, const struct num *n)
{
	char t[FMT_BUFSZ];
	uint64_t text;
	size_t k = num_pack(n, &text);

	if (k && len > 8) {
		memcpy(buf, &text, 8);
		buf[k] = '\0';
		return k;
	}
	k = num_len(n);		/* < FMT_BUFSZ: 20 digits, 3 more, a unit */
	if (k < len) {
		rput_num(buf + k, n);
		buf[k] = '\0';
		return k;
	}
	if (!len)
		return 0;
	rput_num(t + k, n);
	memcpy(buf, t, len - 1);
	buf[len - 1] = '\0';
	return len - 1;
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

/* "%.<dec>f<unit>" of @v; -1 when scale_exact cannot (printf can). */
static inline int num_double(struct num *n, double v, unsigned int dec,
			     const char *unit)
{
	uint64_t q;

	if (scale_exact(v, dec, &q)) {
		num_int(n, 0, "");	/* defined, though the caller uses printf */
		return -1;
	}
	num_fixed(n, q, dec, unit);
	/* glibc prints the sign of negative values rounding to 0: "-0.0" */
	n->neg = signbit(v) != 0;
	return 0;
}

/* fmt_fixed with a unit after the number, e.g. "%.1fms". */
static size_t fixed_unit(char *buf, size_t len, double v, unsigned int dec,
			 const char *unit)
{
	struct num n;
	int k;

	if (!num_double(&n, v, dec, unit))
		return put_num(buf, len, &n);
	/* huge, infinite or not a number: rare enough for printf */
	k = snprintf(buf, len, "%.*f%s", (int)dec, v, unit);
	if (k < 0 || !len)
		return 0;
	return (size_t)k < len ? (size_t)k : len - 1;
}

size_t fmt_fixed(char *buf, size_t len, double v, unsigned int decimals)
{
	return fixed_unit(buf, len, v, decimals < MAX_DECIMALS ? decimals :
			  MAX_DECIMALS, "");
}

/*
 * @v < 10^8 at @p without leading zeros, stored with one 8-byte move (room
 * for 8 bytes needed); returns the end.
 */
static inline char *put_small(char *p, uint32_t v)
{
	unsigned int k = ndigits(v);
	uint64_t text = pack8(v) >> (8 * (8 - k));

	memcpy(p, &text, 8);
	return p + k;
}

static inline char *put8(char *p, uint32_t v)
{
	uint64_t text = pack8(v);

	memcpy(p, &text, 8);
	return p + 8;
}

size_t fmt_uint(char *buf, size_t len, uint64_t v)
{
	struct num n;
	uint64_t top;
	char *p = buf;

	/*
	 * "%llu", in blocks of 8 digits: totals in ns (CSV, JSON) have 10 to
	 * 13 of them.  Cut short like snprintf through the general path.
	 */
	if (len < FMT_BUFSZ || !PACKED_TEXT) {
		num_int(&n, v, "");
		return put_num(buf, len, &n);
	}
	if (v < 100000000) {
		p = put_small(p, (uint32_t)v);
	} else {
		top = v / 100000000;
		if (top < 100000000) {
			p = put_small(p, (uint32_t)top);
		} else {
			p = put_small(p, (uint32_t)(top / 100000000));
			p = put8(p, (uint32_t)(top % 100000000));
		}
		p = put8(p, (uint32_t)(v % 100000000));
	}
	*p = '\0';
	return (size_t)(p - buf);
}

static double clamp_pct(double pct)
{
	return pct < 0 ? 0 : pct > 100 ? 100 : pct;
}

size_t fmt_pct(char *buf, size_t len, double pct)
{
	return fixed_unit(buf, len, clamp_pct(pct), 1, "");	/* "%.1f" */
}

/*
 * "%.<dec>f<unit>" of @ns / 10^(@dec + @exp), in integers: @ns over
 * @step = 10^@exp, rounded to nearest.  printf rounds the double nearest
 * the quotient instead, which differs from it by far less than the 1 /
 * @step the quotient is from any half unless it lies exactly on one: only
 * such ties (ns a multiple of step / 2) go to the double path; -1 then.
 * Inlined so that the divisions are by constants, i.e. multiplications.
 */
static inline_always int num_scaled(struct num *n, uint64_t ns, uint64_t step,
				  unsigned int dec, const char *unit)
{
	uint64_t q = ns / step, rest = ns % step;

	if (2 * rest == step)
		return -1;
	num_fixed(n, q + (2 * rest > step), dec, unit);
	return 0;
}

/* fmt_dur's forms, named in printf's terms; the double path cannot fail */
static inline_always void num_dur(struct num *n, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;

	if (ns < 1000) {					/* "%lluns" */
		num_int(n, ns, "ns");
	} else if (ns < 999950) {				/* "%.1fus" */
		if (num_scaled(n, ns, 100, 1, "us"))
			num_double(n, (double)ns / 1e3, 1, "us");
	} else if (ns < 999950000) {				/* "%.1fms" */
		if (num_scaled(n, ns, 100000, 1, "ms"))
			num_double(n, (double)ns / 1e6, 1, "ms");
	} else if (ns < 99995000000ull) {			/* "%.2fs" */
		if (num_scaled(n, ns, 10000000, 2, "s"))
			num_double(n, (double)ns / 1e9, 2, "s");
	} else if (s < 3600) {					/* "%llum%02llus" */
		num_pair(n, s / 60, 'm', s % 60, 2, "s");
	} else if (s < 3600ull * 1000) {			/* "%lluh%02llum" */
		num_pair(n, s / 3600, 'h', s / 60 % 60, 2, "m");
	} else {						/* "%llud" */
		num_int(n, s / 86400, "d");
	}
}

size_t fmt_dur(char *buf, size_t len, uint64_t ns)
{
	struct num n;

	num_dur(&n, ns);
	return put_num(buf, len, &n);
}

/* fmt_rate's forms: "%.1f" below 99.95, "%.0f" below 9999.5, then k/M/G */
static int num_rate(struct num *n, double v)
{
	if (v < 9999.5)
		return num_double(n, v, v < 99.95 ? 1 : 0, "");
	if (v < 9999.5e3)
		return num_double(n, v / 1e3, 1, "k");
	if (v < 9999.5e6)
		return num_double(n, v / 1e6, 1, "M");
	return num_double(n, v / 1e9, 1, "G");
}

size_t fmt_rate(char *buf, size_t len, double v)
{
	struct num n;

	if (v < 0)
		v = 0;
	if (!num_rate(&n, v))
		return put_num(buf, len, &n);
	return fixed_unit(buf, len, v / 1e9, 1, "G");	/* beyond 2^52 G/s */
}

/* "%llu" below 10,000,000, then "%.1fM" and "%.1fG"; cannot fail */
static inline_always void num_count(struct num *n, uint64_t v)
{
	if (v < 10000000)
		num_int(n, v, "");
	else if (v < 10000000000ull)
		num_double(n, (double)v / 1e6, 1, "M");
	else
		num_double(n, (double)v / 1e9, 1, "G");
}

size_t fmt_count(char *buf, size_t len, uint64_t v)
{
	struct num n;

	num_count(&n, v);
	return put_num(buf, len, &n);
}

size_t fmt_interval(char *buf, size_t len, uint64_t ns)
{
	struct num n;

	if (ns >= 1000000000ull)				/* "%.1f s" */
		return fixed_unit(buf, len, (double)ns / 1e9, 1, " s");
	num_int(&n, ns / 1000000, " ms");			/* "%llu ms" */
	return put_num(buf, len, &n);
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

/* Column @c of @r as a number; -1 for a rate only printf can write. */
static inline_always int num_value(struct num *n, const struct row *r,
				    enum col c)
{
	int zero = fmt_value_zero(r, c);

	switch (model_cols[c].kind) {
	case COL_KIND_PCT:
		if (zero)
			num_fixed(n, 0, 1, "");
		else if (r->delta_ns[c - COL_RUN_PCT] >= r->interval_ns)
			num_fixed(n, 1000, 1, "");
		else
			return num_double(n, clamp_pct(row_value(r, c)), 1,
					  "");
		return 0;
	case COL_KIND_NS:
		num_dur(n, row_uvalue(r, c));
		return 0;
	case COL_KIND_RATE:
		if (zero) {
			num_fixed(n, 0, 1, "");
			return 0;
		}
		return num_rate(n, row_value(r, c));
	default:
		num_count(n, row_uvalue(r, c));
		return 0;
	}
}

size_t fmt_value(char *buf, size_t len, const struct row *r, enum col c)
{
	struct num n;

	if (!num_value(&n, r, c))
		return put_num(buf, len, &n);
	return fmt_rate(buf, len, row_value(r, c));
}

/*
 * A " %*s" cell of the batch table, @w at most FMT_CELL_W: the text packed
 * in a register, shifted to the end of the cell and stored with its
 * spaces in one move.
 */
static inline_always char *cell(char *p, const struct num *n,
				 unsigned int w)
{
	static const uint64_t spaces = 0x2020202020202020ull;
	uint64_t text;
	size_t k = num_pack(n, &text);

	if (k && k <= w) {
		unsigned int pad = 1 + w - (unsigned int)k;

		text = text << (8 * pad) | spaces >> (64 - 8 * pad);
		memcpy(p, &text, 8);
		return p + 1 + w;
	}
	/* wider than its column: pushes the rest right, like printf */
	k = num_len(n);
	*p = ' ';
	rput_num(p + 1 + k, n);
	return p + 1 + k;
}

char *fmt_cell(char *p, const struct row *r, enum col c)
{
	struct num n;

	if (!num_value(&n, r, c))
		return cell(p, &n, FMT_CELL_W);
	/* a rate beyond 2^52 G/s: printf's, moved into place */
	*p = ' ';
	return p + 1 + fmt_value(p + 1, FMT_BUFSZ, r, c);
}

char *fmt_cell_uint(char *p, uint64_t v, unsigned int w)
{
	struct num n;

	num_int(&n, v, "");
	return cell(p, &n, w);
}
