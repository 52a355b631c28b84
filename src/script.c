// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * script.c - csftop's scripted test driver, after tig's: the screen tests
 * of tests/tui replay key scripts through it and compare its dumps.
 *
 * With CSFTOP_SCRIPT=FILE set, csftop draws to a terminal on
 * /dev/null of CSFTOP_SCRIPT_SIZE (COLSxLINES, default 80x24), takes its
 * keys from FILE, samples only when the script says ":sample", and stamps
 * every sample with a script clock that advances by exactly the interval.
 * With pages on CSF_CLOCK_MONO whose open intervals lie in the future (see
 * tests/tui/mkfakeroot.c) every screen is then a function of the script
 * alone.  Script lines:
 *
 *   text          keys, one per character; <F1>..<F12>, <Esc>, <Enter>,
 *                 <Space>, <Tab>, <Up>, <Down>, <Left>, <Right>, <PgUp>,
 *                 <PgDn>, <Home>, <End>, <Backspace>, <C-l>, <lt> name the
 *                 others
 *   :sample       advance the script clock by the interval and sample
 *   :dump FILE    write the screen as text to FILE
 *   :resize C L   resize the terminal to C columns and L lines
 *   :click X Y    a left click at column X, line Y
 *   :sh CMD       run CMD with /bin/sh (to change the pages between samples)
 *   :signal NAME  raise SIGTERM, SIGINT or SIGHUP in csftop
 *   # ...         a comment
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

static const struct {
	const char *name;
	int is_key;
	wint_t ch;
} key_names[] = {
	{ "Esc", 0, 27 }, { "Enter", 0, '\n' }, { "Space", 0, ' ' },
	{ "Tab", 0, '\t' },
	{ "Up", 1, KEY_UP }, { "Down", 1, KEY_DOWN }, { "Left", 1, KEY_LEFT },
	{ "Right", 1, KEY_RIGHT }, { "PgUp", 1, KEY_PPAGE },
	{ "PgDn", 1, KEY_NPAGE }, { "Home", 1, KEY_HOME },
	{ "End", 1, KEY_END }, { "Backspace", 1, KEY_BACKSPACE },
	{ "C-l", 0, 12 }, { "C-u", 0, 21 }, { "lt", 0, '<' },
};

/* Write the screen as UTF-8 text, trailing blanks trimmed. */
static int dump_screen(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	for (int y = 0; y < LINES; y++) {
		char line[4096];
		size_t len = 0, keep = 0;

		for (int x = 0; x < COLS; x++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t attrs;
			short pair;
			char mb[MB_LEN_MAX];
			size_t n;
			mbstate_t st;

			if (mvin_wch(y, x, &cc) == ERR ||
			    getcchar(&cc, wc, &attrs, &pair, NULL) == ERR ||
			    !wc[0])
				wc[0] = L' ';
			memset(&st, 0, sizeof(st));
			n = wcrtomb(mb, wc[0], &st);
			if (n == (size_t)-1) {
				mb[0] = '?';
				n = 1;
			}
			if (len + n >= sizeof(line))
				break;
			memcpy(line + len, mb, n);
			len += n;
			if (wc[0] != L' ')
				keep = len;
			if (wcwidth(wc[0]) == 2)
				x++;
		}
		fprintf(f, "%.*s\n", (int)keep, line);
	}
	return fclose(f) ? -errno : 0;
}

static void script_error(struct tui *t, const char *line)
{
	tui_restore_terminal();
	fprintf(stderr, "%s: script: cannot run '%s'\n", PROGRAM, line);
	t->quit = 1;
	t->error = -EINVAL;
}

static void script_command(struct tui *t, char *line)
{
	char arg[512];
	int a, b;

	if (!strcmp(line, ":sample")) {
		t->script_now += (uint64_t)t->ui.interval_ms * 1000000;
		tui_sample(t);
	} else if (sscanf(line, ":dump %511s", arg) == 1) {
		view_draw(&t->ui);
		if (dump_screen(arg))
			script_error(t, line);
	} else if (sscanf(line, ":resize %d %d", &a, &b) == 2) {
		resizeterm(b, a);
	} else if (sscanf(line, ":click %d %d", &a, &b) == 2) {
		tui_click(t, a, b);
	} else if (!strncmp(line, ":sh ", 4)) {
		if (system(line + 4))
			script_error(t, line);
	} else if (sscanf(line, ":signal %511s", arg) == 1) {
		raise(!strcmp(arg, "INT") ? SIGINT :
		      !strcmp(arg, "HUP") ? SIGHUP : SIGTERM);
	} else {
		script_error(t, line);
	}
}

/* The key <@name> stands for: 0, or -1 when it names none. */
static int named_key(const char *name, int *is_key, wint_t *ch)
{
	int f;

	if (sscanf(name, "F%d", &f) == 1 && f >= 1 && f <= 12) {
		*is_key = 1;
		*ch = KEY_F(f);
		return 0;
	}
	for (size_t k = 0; k < sizeof(key_names) / sizeof(key_names[0]); k++)
		if (!strcmp(name, key_names[k].name)) {
			*is_key = key_names[k].is_key;
			*ch = key_names[k].ch;
			return 0;
		}
	return -1;
}

/* Run one script line: a command or a string of keys. */
void script_line(struct tui *t, char *line)
{
	size_t len = strlen(line);
	wchar_t w[512];
	size_t n;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (!len || line[0] == '#')
		return;
	if (line[0] == ':') {
		script_command(t, line);
		return;
	}
	n = mbstowcs(w, line, 511);
	if (n == (size_t)-1) {
		script_error(t, line);
		return;
	}
	w[n] = L'\0';
	for (size_t i = 0; i < n && !t->quit && !tui_signal; i++) {
		const wchar_t *end = w[i] == L'<' ? wcschr(w + i, L'>') : NULL;
		int is_key = 0;
		wint_t ch = w[i];

		if (end) {
			char name[32];
			size_t nl = (size_t)(end - (w + i) - 1);

			if (nl < sizeof(name) &&
			    wcstombs(name, w + i + 1, nl) == nl) {
				name[nl] = '\0';
				if (!named_key(name, &is_key, &ch))
					i += nl + 1;
			}
		}
		tui_key(t, is_key, ch);
		view_draw(&t->ui);
	}
}

void script_stamp(struct tui *t)
{
	struct sampler *smp = t->smp;

	for (size_t i = 0; i < smp->nsnaps; i++)
		smp->snaps[i].now = t->script_now;
	for (unsigned int i = 0; i < smp->ncpus; i++)
		smp->cpus[i].now = t->script_now;
}

/*
 * A terminal on /dev/null of CSFTOP_SCRIPT_SIZE, keys from @path, and the
 * script's clock.  Returns 0 or -1 (said on stderr).
 */
int script_open(struct tui *t, const char *path)
{
	const char *size = getenv("CSFTOP_SCRIPT_SIZE");
	int cols = 80, lines = 24;

	t->script = fopen(path, "r");
	if (!t->script) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, path,
			strerror(errno));
		return -1;
	}
	if (size && sscanf(size, "%dx%d", &cols, &lines) != 2) {
		fprintf(stderr, "%s: CSFTOP_SCRIPT_SIZE=%s: want "
			"COLSxLINES\n", PROGRAM, size);
		return -1;
	}
	t->null_in = fopen("/dev/null", "r");
	t->null_out = fopen("/dev/null", "w");
	if (!t->null_in || !t->null_out)
		return -1;
	t->term = newterm(getenv("TERM") && *getenv("TERM") ?
			  NULL : "xterm", t->null_out, t->null_in);
	if (!t->term) {
		fprintf(stderr, "%s: script: no terminal\n", PROGRAM);
		return -1;
	}
	resizeterm(lines, cols);
	t->script_now = 1000000000000ull;	/* 1000 s */
	return 0;
}
