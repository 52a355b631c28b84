// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * script.c - csftop's scripted test driver, after tig's: the screen tests
 * of tests/tui replay key scripts through it and compare its dumps.
 *
 * With CSFTOP_SCRIPT=FILE set, csftop's main gives the screen this driver:
 * a terminal on /dev/null of CSFTOP_SCRIPT_SIZE (COLSxLINES, default
 * 80x24), keys from FILE, a sample only when the script says ":sample",
 * and a clock of the script's that advances by exactly the interval and
 * times every sample.
 * With pages on CSF_CLOCK_MONO whose open intervals lie in the future (see
 * tests/tui/mkfakeroot.c) every screen is then a function of the script
 * alone.  Script lines:
 *
 *   text          keys, one per character; <F1>..<F12>, <C-a>..<C-z>,
 *                 <lt> for '<', and the names of the key table (keys.c:
 *                 <Esc>, <Enter>, <Space>, <Tab>, <Up>, <Down>, <PgUp>,
 *                 <PgDn>, <Home>, <End>, <Backspace>, ...) name the others
 *   :sample       advance the script clock by the interval and sample
 *   :tick         advance the script clock to the next sample's deadline
 *                 and let the screen's schedule act (tui_tick(): a
 *                 paused replay does not sample)
 *   :dump FILE    write the screen as text to FILE
 *   :resize C L   resize the terminal to C columns and L lines
 *   :click X Y    a left click at column X, line Y
 *   :sh CMD       run CMD with /bin/sh (to change the pages between samples)
 *   :signal NAME  raise SIGTERM, SIGINT or SIGHUP in csftop
 *   # ...         a comment
 */
#include <config.h>

#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "script.h"
#include "term.h"
#include "view.h"

struct script {
	struct tui_driver d;		/* first: the driver is the script */
	struct source_clock clock;
	const char *path;
	FILE *keys;
	uint64_t now;			/* the script's clock */
	SCREEN *screen;
	FILE *null_in, *null_out;
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
	term_restore();
	fprintf(stderr, "%s: script: cannot run '%s'\n", PROGRAM, line);
	t->quit = 1;
	t->error = -EINVAL;
}

static void script_command(struct script *sc, struct tui *t, char *line)
{
	char arg[512];
	int a, b;

	if (!strcmp(line, ":sample")) {
		sc->now += (uint64_t)t->ui.interval_ms * 1000000;
		tui_sample(t);
	} else if (!strcmp(line, ":tick")) {
		sc->now = t->next_ns;
		tui_tick(t, sc->now);
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
	char c;

	if (sscanf(name, "F%d", &f) == 1 && f >= 1 && f <= 12) {
		*is_key = 1;
		*ch = KEY_F(f);
		return 0;
	}
	if (sscanf(name, "C-%c", &c) == 1 && c >= 'a' && c <= 'z' &&
	    !name[3]) {
		*is_key = 0;
		*ch = (wint_t)(c & 0x1f);
		return 0;
	}
	if (!strcmp(name, "lt")) {
		*is_key = 0;
		*ch = '<';
		return 0;
	}
	return keys_by_name(name, is_key, ch);
}

/* Run one script line: a command or a string of keys. */
static void script_line(struct script *sc, struct tui *t, char *line)
{
	size_t len = strlen(line);
	wchar_t w[512];
	size_t n;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (!len || line[0] == '#')
		return;
	if (line[0] == ':') {
		script_command(sc, t, line);
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

static void script_run(struct tui_driver *d, struct tui *t)
{
	struct script *sc = (struct script *)d;
	char line[1024];

	while (!t->quit && !tui_signal && !t->error) {
		if (!fgets(line, sizeof(line), sc->keys))
			break;		/* end of script: quit */
		script_line(sc, t, line);
		ui_set_now(&t->ui, tui_now(t));
	}
}

static uint64_t script_now(const struct source_clock *c)
{
	const struct script *sc = (const struct script *)
		((const char *)c - offsetof(struct script, clock));

	return sc->now;
}

/* A sample of the pages, as if read at the script's time. */
static void script_time_sample(const struct source_clock *c,
			       struct csf_sample *smp)
{
	uint64_t now = script_now(c);

	for (size_t i = 0; i < smp->nthreads; i++)
		smp->threads[i].now = now;
	for (unsigned int i = 0; i < smp->ncpus; i++)
		smp->cpus[i].now = now;
}

/*
 * A terminal on /dev/null of CSFTOP_SCRIPT_SIZE, keys from the script,
 * and the script's clock.  Returns 0 or -1 (said on stderr).
 */
static int script_open(struct tui_driver *d)
{
	struct script *sc = (struct script *)d;
	const char *size = getenv("CSFTOP_SCRIPT_SIZE");
	int cols = 80, lines = 24;

	sc->keys = fopen(sc->path, "r");
	if (!sc->keys) {
		fprintf(stderr, "%s: %s: %s\n", PROGRAM, sc->path,
			strerror(errno));
		return -1;
	}
	if (size && sscanf(size, "%dx%d", &cols, &lines) != 2) {
		fprintf(stderr, "%s: CSFTOP_SCRIPT_SIZE=%s: want "
			"COLSxLINES\n", PROGRAM, size);
		return -1;
	}
	sc->null_in = fopen("/dev/null", "r");
	sc->null_out = fopen("/dev/null", "w");
	if (!sc->null_in || !sc->null_out)
		return -1;
	sc->screen = newterm(getenv("TERM") && *getenv("TERM") ?
			     NULL : "xterm", sc->null_out, sc->null_in);
	if (!sc->screen) {
		fprintf(stderr, "%s: script: no terminal\n", PROGRAM);
		return -1;
	}
	resizeterm(lines, cols);
	sc->now = 1000000000000ull;	/* 1000 s */
	term_setup();
	return 0;
}

static void script_close(struct tui_driver *d)
{
	struct script *sc = (struct script *)d;

	term_restore();
	if (sc->screen)
		delscreen(sc->screen);
	if (sc->keys)
		fclose(sc->keys);
	if (sc->null_in)
		fclose(sc->null_in);
	if (sc->null_out)
		fclose(sc->null_out);
	sc->screen = NULL;
	sc->keys = sc->null_in = sc->null_out = NULL;
}

struct tui_driver *script_driver(const char *path)
{
	static struct script sc;

	sc.d = (struct tui_driver){ &sc.clock, script_open, script_run,
				    script_close };
	sc.clock = (struct source_clock){ script_now, script_time_sample };
	sc.path = path;
	return &sc.d;
}
