/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.h - text as a terminal shows it: the characters a UTF-8 string
 * decodes to and the cells they take.  No curses: -b text measures its
 * titles with it too.
 */
#ifndef CSFTOP_TEXT_H
#define CSFTOP_TEXT_H

#include <stddef.h>
#include <wchar.h>

/*
 * text_decode - @s into at most @max characters of @out, each that cannot
 * be shown (an invalid byte, a control character) as '?': a thread name is
 * whatever bytes the program gave prctl(), and must not move the cursor.
 * Returns how many.
 */
size_t text_decode(const char *s, wchar_t *out, size_t max);

/* Screen cells @s takes (its first 256 characters). */
int text_width(const char *s);

/* Whether @s[0..@n) is printable ASCII only: one byte, one cell. */
static inline int text_is_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

#endif /* CSFTOP_TEXT_H */
