/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * keys.h - csftop's keys, in one table in the spirit of htop's Action.c:
 * each entry a key, where it acts (the table, or an overlay over it), its
 * name, its line of help, its hint in the footer and what it does.  The
 * dispatcher (tui_key()), the help screen, the footer and the test
 * driver's <Name>s all read keys[], so that a key is added in one place.
 */
#ifndef CSFTOP_KEYS_H
#define CSFTOP_KEYS_H

#include <stddef.h>
#include <wchar.h>

struct tui;

/* Where a key acts, besides over an overlay (enum ui_overlay): */
#define KEYS_EDIT	16	/* the prompt line, under filter and go-to */
#define KEYS_ALWAYS	17	/* whatever is shown, before anything else */

/* What a key is: */
enum key_kind {
	K_CHAR,			/* the character ch */
	K_CODE,			/* the curses key code ch (KEY_*) */
	K_ANYCHAR,		/* any character */
	K_ANY,			/* any key or character */
};

struct key {
	unsigned char where;	/* enum ui_overlay, KEYS_EDIT or KEYS_ALWAYS */
	unsigned char kind;		/* enum key_kind */
	wint_t ch;
	/* how the help and the footer name it, and the test driver's <Name>
	 * (N_() marked where a language may name it otherwise) */
	const char *name;
	/*
	 * What it does, given @arg: 1, or 0 when it does not apply now and
	 * the next entry for the key is tried.  @arg is the entry's, or for
	 * K_ANYCHAR and K_ANY the character typed.
	 */
	int (*action)(struct tui *t, int arg);
	int arg;
	/* N_() marked: its line of the help, which the entries right after
	 * it with the same text share; NULL: none */
	const char *help;
	/* N_() marked: its label in the footer, at place hint_at (from 1);
	 * the entries of one place are named together there */
	const char *hint;
	unsigned char hint_at;
};

extern const struct key keys[];
extern const size_t nkeys;

/*
 * tui_key - what key @ch does (a curses key code when @is_key), where the
 * screen is: an overlay's own keys first, then the prompt line's under
 * the filter and go-to prompts, or the table's under the detail view.
 */
void tui_key(struct tui *t, int is_key, wint_t ch);
/* tui_click - a click at column @x, line @y: a title sorts, a row selects. */
void tui_click(struct tui *t, int x, int y);

/* The key named @name (keys[]' names): 0, or -1 when none is. */
int keys_by_name(const char *name, int *is_key, wint_t *ch);

/*
 * keys_help - the keys' lines of the help, translated, as (keys, text)
 * in @lines; @n at most.  Returns how many.
 */
int keys_help(const char *lines[][2], int n);

/* The footer's hints, in order: the keys' names and the label (N_()). */
#define KEYS_HINTS_MAX 16
struct key_hint {
	const char *key;
	const char *label;
};
size_t keys_hints(const struct key_hint **hints);

#endif /* CSFTOP_KEYS_H */
