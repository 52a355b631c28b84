// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * text.c - UTF-8 text in terminal cells: see text.h.
 */
#include <config.h>

#include <string.h>
#include <wctype.h>

#include "text.h"

size_t text_decode(const char *s, wchar_t *out, size_t max)
{
	mbstate_t st;
	size_t n = 0, len = strlen(s);

	memset(&st, 0, sizeof(st));
	while (len && n < max) {
		/* printable ASCII, most of what is shown, is itself */
		wchar_t wc = (unsigned char)*s;
		size_t r = wc >= 0x20 && wc < 0x7f ? 1 :
			   mbrtowc(&wc, s, len, &st);

		if (r == (size_t)-1 || r == (size_t)-2) {
			wc = L'?';
			r = 1;
			memset(&st, 0, sizeof(st));
		} else if (r == 0) {
			break;
		}
		if (!iswprint((wint_t)wc))
			wc = L'?';
		out[n++] = wc;
		s += r;
		len -= r;
	}
	return n;
}

int text_width(const char *s)
{
	wchar_t w[256];
	size_t n = text_decode(s, w, 256);
	int width = 0;

	for (size_t i = 0; i < n; i++) {
		int cw = wcwidth(w[i]);

		width += cw > 0 ? cw : 0;
	}
	return width;
}
