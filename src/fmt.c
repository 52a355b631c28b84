// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmt.c - compact numbers.  Units are SI symbols and stay untranslated, as
 * in top and htop.
 */
#include <config.h>

#include <stdio.h>

#include "fmt.h"

void fmt_pct(char *buf, size_t len, double pct)
{
	if (pct < 0)
		pct = 0;
	if (pct > 100)
		pct = 100;
	snprintf(buf, len, "%.1f", pct);
}

void fmt_dur(char *buf, size_t len, uint64_t ns)
{
	unsigned long long s = ns / 1000000000ull;

	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 999950)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 999950000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else if (ns < 99995000000ull)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%llum%02llus", s / 60, s % 60);
	else if (s < 3600ull * 1000)
		snprintf(buf, len, "%lluh%02llum", s / 3600, s / 60 % 60);
	else
		snprintf(buf, len, "%llud", s / 86400);
}

void fmt_rate(char *buf, size_t len, double v)
{
	if (v < 0)
		v = 0;
	if (v < 9999.5)
		snprintf(buf, len, v < 99.95 ? "%.1f" : "%.0f", v);
	else if (v < 9999.5e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v < 9999.5e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else
		snprintf(buf, len, "%.1fG", v / 1e9);
}

void fmt_count(char *buf, size_t len, uint64_t n)
{
	if (n < 10000000)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else if (n < 10000000000ull)
		snprintf(buf, len, "%.1fM", (double)n / 1e6);
	else
		snprintf(buf, len, "%.1fG", (double)n / 1e9);
}

void fmt_interval(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000000000ull)
		snprintf(buf, len, "%llu ms", (unsigned long long)(ns / 1000000));
	else
		snprintf(buf, len, "%.1f s", (double)ns / 1e9);
}
