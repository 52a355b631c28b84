// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt.c - compact numbers, in integers: see fmt.h.  Units are SI symbols
 * and stay untranslated, as in top and htop.
 *
 * Not printf: a frame formats a cell per column and thread, and printf's
 * "%.1f" of a double costs more than the rest of a cell's work.
 */
#include <config.h>

#include <string.h>

#include "fmt.h"

static const uint64_t pow10_tab[] = { 1, 10, 100, 1000 };
#define NS 1000000000ull
#define MAX_DECIMALS 3

/*
 * @num * @mul / @den, rounded half up; 0 when @den is 0.  Inline: most
 * callers divide by a constant, which is then a multiplication.
 */
static inline uint64_t scaled(uint64_t num, uint64_t mul, uint64_t den)
{
	unsigned __int128 x;
	uint64_t p;

	if (!den)
		return 0;
	if (!__builtin_mul_overflow(num, mul, &p) && p <= UINT64_MAX - den / 2)
		return (p + den / 2) / den;
	/* a counter's jump over a short interval, a clock in ns (the
	 * library's tick conversion needs 128 bits too) */
	x = ((unsigned __int128)num * mul + den / 2) / den;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

/* "00" to "99" */
static const char two_digits[201] =
	"00010203040506070809" "10111213141516171819"
	"20212223242526272829" "30313233343536373839"
	"40414243444546474849" "50515253545556575859"
	"60616263646566676869" "70717273747576777879"
	"80818283848586878889" "90919293949596979899";

/*
 * The digits of @v, at least @min (1 or more) of them, ending before @e;
 * the start.  Two at a time: half the divisions.
 */
static inline char *digits(char *e, uint64_t v, unsigned int min)
{
	const char *end = e;

	while (v >= 100) {
		e -= 2;
		memcpy(e, &two_digits[2 * (v % 100)], 2);
		v /= 100;
	}
	if (v >= 10) {
		e -= 2;
		memcpy(e, &two_digits[2 * v], 2);
	} else {
		*--e = (char)('0' + v);
	}
	while ((unsigned int)(end - e) < min)
		*--e = '0';
	return e;
}

/* @s before @e; the start */
static inline char *text(char *e, const char *s)
{
	size_t n = strlen(s);

	e -= n;
	memcpy(e, s, n);
	return e;
}

/*
 * "<hi><sep><lo in @lo_w digits><unit>", the one layout of every form:
 * "12.5ms" is 12, '.', 5 in 1 digit, "ms"; "3m07s" is 3, 'm', 7 in 2.
 */
static inline char *num(char *e, uint64_t hi, char sep, uint64_t lo,
			unsigned int lo_w, const char *unit)
{
	e = text(e, unit);
	if (lo_w) {
		e = digits(e, lo, lo_w);
		*--e = sep;
	}
	return digits(e, hi, 1);
}

/* @q / 10^@dec with @dec decimals: "%.<dec>f" of a fixed-point integer */
static inline char *fixed(char *e, uint64_t q, unsigned int dec,
			  const char *unit)
{
	return num(e, q / pow10_tab[dec], '.', q % pow10_tab[dec], dec, unit);
}

uint64_t ratio_scaled(struct ratio q, uint64_t mul)
{
	return scaled(q.num, mul, q.den);
}

char *fmt_uint(char *e, uint64_t v)
{
	return digits(e, v, 1);
}

char *fmt_pct(char *e, struct ratio share)
{
	/* most shares of a frame are 0 */
	if (!share.num)
		return text(e, "0.0");
	/* a process's share of the interval may pass 100%, as in top */
	return fixed(e, scaled(share.num, 1000, share.den), 1, "");
}

char *fmt_dur(char *e, uint64_t ns)
{
	uint64_t s = ns / NS;

	if (ns < 1000)
		return num(e, ns, 0, 0, 0, "ns");
	if (ns < 999950)
		return fixed(e, scaled(ns, 1, 100), 1, "us");
	if (ns < 999950000)
		return fixed(e, scaled(ns, 1, 100000), 1, "ms");
	if (ns < 99995000000ull)
		return fixed(e, scaled(ns, 1, 10000000), 2, "s");
	if (s < 3600)
		return num(e, s / 60, 'm', s % 60, 2, "s");
	if (s < 3600ull * 1000)
		return num(e, s / 3600, 'h', s / 60 % 60, 2, "m");
	return num(e, s / 86400, 0, 0, 0, "d");
}

char *fmt_rate(char *e, struct ratio per_ns)
{
	uint64_t q;

	if (!per_ns.num)
		return text(e, "0.0");
	/* each bound is where the rounded value would need the next form */
	q = scaled(per_ns.num, 10 * NS, per_ns.den);
	if (q < 1000)
		return fixed(e, q, 1, "");
	q = scaled(per_ns.num, NS, per_ns.den);
	if (q < 10000)
		return fixed(e, q, 0, "");
	q = scaled(per_ns.num, NS / 100, per_ns.den);
	if (q < 100000)
		return fixed(e, q, 1, "k");
	q = scaled(per_ns.num, NS / 100000, per_ns.den);
	if (q < 100000)
		return fixed(e, q, 1, "M");
	return fixed(e, scaled(per_ns.num, NS / 100000000, per_ns.den), 1, "G");
}

char *fmt_count(char *e, uint64_t v)
{
	uint64_t q;

	if (v < 10000000)
		return digits(e, v, 1);
	q = scaled(v, 1, 100000);
	if (q < 100000)
		return fixed(e, q, 1, "M");
	return fixed(e, scaled(v, 1, 100000000), 1, "G");
}

char *fmt_interval(char *e, uint64_t ns)
{
	if (ns >= NS)
		return fixed(e, scaled(ns, 1, 100000000), 1, " s");
	return num(e, ns / 1000000, 0, 0, 0, " ms");
}

char *fmt_decimal(char *e, struct ratio q, uint64_t scale,
		  unsigned int decimals)
{
	uint64_t mul;

	if (decimals > MAX_DECIMALS)
		decimals = MAX_DECIMALS;
	mul = scale * pow10_tab[decimals];
	/* a wall clock in ns to ms: exact, where num * mul would overflow */
	if (mul > 1 && q.den % mul == 0) {
		q.den /= mul;
		mul = 1;
	}
	return fixed(e, scaled(q.num, mul, q.den), decimals, "");
}
