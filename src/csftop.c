// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csftop.c - options, the main loop and key handling of csftop.
 *
 * The loop samples on a fixed schedule (every -d ms, from the monotonic
 * clock, not "d ms after the last key") and redraws after every sample and
 * every key.  Freezing and diffing change what is drawn, never whether we
 * sample, so a frozen screen still has a fresh live sample behind it.
 *
 * Test mode: with CSFTOP_SCRIPT=FILE set, csftop draws to a terminal on
 * /dev/null of CSFTOP_SCRIPT_SIZE (COLSxLINES, default 80x24), takes its
 * keys from FILE, samples only when the script says ":sample", and stamps
 * every sample with a script clock that advances by exactly the interval.
 * With pages on CSF_CLOCK_MONO whose open intervals lie in the future (see
 * tests/tui/mkfakeroot.c) every screen is then a function of the script
 * alone.  Script lines:
 *
 *   text          keys, one per character; <F1>..<F12>, <Esc>, <Enter>,
 *                 <Space>, <Up>, <Down>, <Left>, <Right>, <PgUp>, <PgDn>,
 *                 <Home>, <End>, <Backspace>, <C-l>, <lt> name the others
 *   :sample       advance the script clock by the interval and sample
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
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "batch.h"
#include "fmt.h"
#include "i18n.h"
#include "model.h"
#include "options.h"
#include "sampler.h"
#include "view.h"

/* +/- walk these; -d may set any value in between */
static const unsigned int interval_steps[] = {
	10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000,
};
#define NSTEPS (sizeof(interval_steps) / sizeof(interval_steps[0]))

static volatile sig_atomic_t got_signal;
static int curses_active;

static void on_signal(int sig)
{
	got_signal = sig;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Restore the terminal on every way out, exit() and crashes included. */
static void restore_terminal(void)
{
	if (curses_active) {
		curses_active = 0;
		endwin();
	}
}

/* --- batch ---------------------------------------------------------- */

static int run_batch(const struct options *o, struct sampler *smp)
{
	struct model m;
	struct batch_opts bo = {
		.format = o->format,
		.sort_col = o->sort_col,
		.sort_desc = o->sort_desc,
		.filter = &o->filter,
		.clock_label = sampler_clock_name(),
	};
	struct batch_buf buf = { 0 };
	struct timespec next;
	int err = 0;

	switch (csf_clock()) {
	case CSF_CLOCK_TSC:
		bo.clock_name = "tsc";
		break;
	case CSF_CLOCK_MONO:
		bo.clock_name = "monotonic";
		break;
	default:
		bo.clock_name = "unknown";
		break;
	}
	model_init(&m, csf_ticks_to_ns);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; !o->count || i < o->count; i++) {
		if (i) {
			/* absolute deadlines: the period does not drift */
			next.tv_nsec += (long)(o->interval_ms % 1000) *
					1000000;
			next.tv_sec += o->interval_ms / 1000 +
				       next.tv_nsec / 1000000000;
			next.tv_nsec %= 1000000000;
			while (clock_nanosleep(CLOCK_MONOTONIC,
					       TIMER_ABSTIME, &next, NULL) ==
			       EINTR)
				;
		}
		err = sampler_read(smp);
		if (!err)
			err = model_sample(&m, smp->snaps, smp->nsnaps,
					   smp->cpus, smp->ncpus, mono_ns());
		if (err) {
			fprintf(stderr, "%s: %s\n", PROGRAM,
				csf_strerror(err));
			break;
		}
		bo.time_s = wall_s();
		err = batch_print(stdout, model_shown(&m), &bo, &buf);
		if (err) {
			fprintf(stderr, _("%s: write error: %s\n"), PROGRAM,
				strerror(-err));
			break;
		}
	}
	batch_buf_free(&buf);
	model_free(&m);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* --- the interactive loop ------------------------------------------- */

struct tui {
	struct ui ui;
	struct model model;
	struct sampler *smp;
	unsigned int interval_ms;
	long count;
	long samples;
	uint64_t next_ns;		/* deadline of the next sample */
	int quit;
	int error;			/* negative errno that ended the loop */
	/* script mode */
	FILE *script;
	uint64_t script_now;
	SCREEN *term;
	FILE *null_in, *null_out;
};

static uint64_t tui_now(const struct tui *t)
{
	return t->script ? t->script_now : mono_ns();
}

static void tui_refresh_view(struct tui *t)
{
	if (view_select(&t->ui))
		t->error = -ENOMEM;
}

static int tui_sample(struct tui *t)
{
	int err;

	if (t->script)
		t->smp->fixed_now = t->script_now;
	err = sampler_read(t->smp);
	if (!err)
		err = model_sample(&t->model, t->smp->snaps, t->smp->nsnaps,
				   t->smp->cpus, t->smp->ncpus, tui_now(t));
	if (err) {
		t->error = err;
		return err;
	}
	t->ui.denied = t->smp->denied;
	t->samples++;
	if (t->count && t->samples >= t->count)
		t->quit = 1;
	tui_refresh_view(t);
	return 0;
}

static void set_interval(struct tui *t, int faster)
{
	unsigned int cur = t->interval_ms, next = cur;
	char buf[32];

	if (faster) {
		for (size_t i = NSTEPS; i-- > 0;)
			if (interval_steps[i] < cur) {
				next = interval_steps[i];
				break;
			}
	} else {
		for (size_t i = 0; i < NSTEPS; i++)
			if (interval_steps[i] > cur) {
				next = interval_steps[i];
				break;
			}
	}
	t->interval_ms = next;
	t->ui.interval_ms = next;
	t->next_ns = tui_now(t) + (uint64_t)next * 1000000;
	fmt_interval(buf, sizeof(buf), (uint64_t)next * 1000000);
	view_message(&t->ui, _("Interval: %s"), buf);
}

static void set_sort(struct tui *t, int col)
{
	t->ui.sort_col = (enum col)col;
	t->ui.sort_desc = model_cols[col].desc_first;
	tui_refresh_view(t);
}

static void toggle_freeze(struct tui *t)
{
	if (t->model.mode == MODE_LIVE) {
		if (model_freeze(&t->model)) {
			t->error = -ENOMEM;
			return;
		}
		view_message(&t->ui, "%s", _("Frozen as A: z live, d diff later"));
	} else {
		model_live(&t->model);
		view_message(&t->ui, "%s", _("Live"));
	}
	tui_refresh_view(t);
}

static void take_diff(struct tui *t)
{
	int r = model_diff(&t->model);

	if (r < 0) {
		t->error = r;
		return;
	}
	if (r == 0)
		view_message(&t->ui, "%s", _("Frozen as A: d again shows B-A"));
	else
		view_message(&t->ui, "%s", _("B-A: d new B, l live"));
	tui_refresh_view(t);
}

static void back_live(struct tui *t)
{
	if (t->model.mode != MODE_LIVE) {
		model_live(&t->model);
		view_message(&t->ui, "%s", _("Live"));
		tui_refresh_view(t);
	}
}

static void mouse_click(struct tui *t, int x, int y)
{
	int c;

	if (t->ui.overlay != OVERLAY_NONE || t->ui.too_small)
		return;
	c = view_column_at(&t->ui, y, x);
	if (c >= 0) {
		/* htop: a click on the sorted column inverts it */
		if (c == (int)t->ui.sort_col) {
			t->ui.sort_desc = !t->ui.sort_desc;
			tui_refresh_view(t);
		} else {
			set_sort(t, c);
		}
		return;
	}
	view_row_at(&t->ui, y);
}

static void filter_from_edit(struct tui *t)
{
	char text[256];
	wchar_t tmp[65];

	wmemcpy(tmp, t->ui.edit, t->ui.edit_len);
	tmp[t->ui.edit_len] = L'\0';
	if (wcstombs(text, tmp, sizeof(text)) == (size_t)-1)
		return;
	/* filter as you type; an unfinished PID list keeps the last one */
	if (!filter_set(&t->ui.filter, text))
		tui_refresh_view(t);
}

static void filter_key(struct tui *t, int is_key, wint_t ch)
{
	struct ui *ui = &t->ui;

	if ((!is_key && (ch == 27)) || (is_key && ch == KEY_F(4))) {
		/* Esc clears the filter, as in htop */
		if (!is_key) {
			memset(&ui->filter, 0, sizeof(ui->filter));
			ui->edit_len = 0;
		}
		ui->overlay = OVERLAY_NONE;
		tui_refresh_view(t);
		return;
	}
	if ((!is_key && (ch == '\n' || ch == '\r')) ||
	    (is_key && ch == KEY_ENTER)) {
		char text[256];
		wchar_t tmp[65];

		wmemcpy(tmp, ui->edit, ui->edit_len);
		tmp[ui->edit_len] = L'\0';
		if (wcstombs(text, tmp, sizeof(text)) != (size_t)-1 &&
		    filter_set(&ui->filter, text)) {
			view_message(ui, _("Invalid PID list '%s'"), text);
			return;
		}
		ui->overlay = OVERLAY_NONE;
		tui_refresh_view(t);
		return;
	}
	if ((is_key && ch == KEY_BACKSPACE) ||
	    (!is_key && (ch == 127 || ch == 8))) {
		if (ui->edit_len)
			ui->edit_len--;
	} else if (!is_key && ch == 21) {	/* Ctrl-U */
		ui->edit_len = 0;
	} else if (!is_key && iswprint(ch) &&
		   ui->edit_len < sizeof(ui->edit) / sizeof(ui->edit[0]) - 1) {
		ui->edit[ui->edit_len++] = (wchar_t)ch;
	} else {
		return;
	}
	filter_from_edit(t);
}

static void open_filter(struct tui *t)
{
	struct ui *ui = &t->ui;
	size_t n;

	ui->overlay = OVERLAY_FILTER;
	n = mbstowcs(ui->edit, ui->filter.text,
		     sizeof(ui->edit) / sizeof(ui->edit[0]) - 1);
	ui->edit_len = n == (size_t)-1 ? 0 : n;
}

static void sort_menu_key(struct tui *t, int is_key, wint_t ch)
{
	struct ui *ui = &t->ui;

	if (is_key && ch == KEY_UP && ui->sort_menu_sel > 0)
		ui->sort_menu_sel--;
	else if (is_key && ch == KEY_DOWN && ui->sort_menu_sel < COL_NR - 1)
		ui->sort_menu_sel++;
	else if (is_key && ch == KEY_HOME)
		ui->sort_menu_sel = 0;
	else if (is_key && ch == KEY_END)
		ui->sort_menu_sel = COL_NR - 1;
	else if ((is_key && ch == KEY_ENTER) ||
		 (!is_key && (ch == '\n' || ch == '\r'))) {
		ui->overlay = OVERLAY_NONE;
		set_sort(t, ui->sort_menu_sel);
	} else if ((!is_key && (ch == 27 || ch == 'q')) ||
		   (is_key && ch == KEY_F(6))) {
		ui->overlay = OVERLAY_NONE;
	}
}

static void handle_key(struct tui *t, int is_key, wint_t ch)
{
	struct ui *ui = &t->ui;

	if (is_key && ch == KEY_RESIZE)
		return;		/* ncurses has LINES and COLS already */
	if (is_key && ch == KEY_MOUSE) {
		MEVENT ev;

		if (getmouse(&ev) == OK &&
		    (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
			mouse_click(t, ev.x, ev.y);
		return;
	}
	switch (ui->overlay) {
	case OVERLAY_HELP:
		/* scroll keys scroll, any other key returns */
		if (is_key && (ch == KEY_DOWN || ch == KEY_NPAGE))
			view_help_scroll(ui, ch == KEY_DOWN ? 1 : LINES - 3);
		else if (is_key && (ch == KEY_UP || ch == KEY_PPAGE))
			view_help_scroll(ui, ch == KEY_UP ? -1 : 3 - LINES);
		else if (!is_key && ch == ' ')
			view_help_scroll(ui, LINES - 3);
		else
			ui->overlay = OVERLAY_NONE;
		return;
	case OVERLAY_FILTER:
		filter_key(t, is_key, ch);
		return;
	case OVERLAY_SORT:
		sort_menu_key(t, is_key, ch);
		return;
	default:
		break;
	}
	if (is_key) {
		switch (ch) {
		case KEY_F(1):
			ui->overlay = OVERLAY_HELP;
			ui->help_top = 0;
			break;
		case KEY_F(4):
			open_filter(t);
			break;
		case KEY_F(6):
			ui->overlay = OVERLAY_SORT;
			ui->sort_menu_sel = (int)ui->sort_col;
			break;
		case KEY_F(10):
			t->quit = 1;
			break;
		case KEY_UP:
			view_move(ui, -1);
			break;
		case KEY_DOWN:
			view_move(ui, 1);
			break;
		case KEY_PPAGE:
			view_move(ui, -(ui->body_lines ? ui->body_lines : 1));
			break;
		case KEY_NPAGE:
			view_move(ui, ui->body_lines ? ui->body_lines : 1);
			break;
		case KEY_HOME:
			view_move(ui, -(long)ui->nidx);
			break;
		case KEY_END:
			view_move(ui, (long)ui->nidx);
			break;
		default:
			break;
		}
		return;
	}
	switch (ch) {
	case 'q':
		t->quit = 1;
		break;
	case 'h':
	case '?':
		ui->overlay = OVERLAY_HELP;
		ui->help_top = 0;
		break;
	case '\\':
		open_filter(t);
		break;
	case '<':
		set_sort(t, ((int)ui->sort_col + COL_NR - 1) % COL_NR);
		break;
	case '>':
		set_sort(t, ((int)ui->sort_col + 1) % COL_NR);
		break;
	case 'I':
		ui->sort_desc = !ui->sort_desc;
		tui_refresh_view(t);
		break;
	case 'z':
	case ' ':
		toggle_freeze(t);
		break;
	case 'd':
		take_diff(t);
		break;
	case 'l':
	case 27:	/* Esc */
		back_live(t);
		break;
	case '+':
		set_interval(t, 0);
		break;
	case '-':
		set_interval(t, 1);
		break;
	case 12:	/* Ctrl-L */
		clearok(curscr, TRUE);
		break;
	default:
		break;
	}
}

/* --- script mode ---------------------------------------------------- */

static const struct {
	const char *name;
	int is_key;
	wint_t ch;
} key_names[] = {
	{ "Esc", 0, 27 }, { "Enter", 0, '\n' }, { "Space", 0, ' ' },
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
	restore_terminal();
	fprintf(stderr, "%s: script: cannot run '%s'\n", PROGRAM, line);
	t->quit = 1;
	t->error = -EINVAL;
}

static void script_command(struct tui *t, char *line)
{
	char arg[512];
	int a, b;

	if (!strcmp(line, ":sample")) {
		t->script_now += (uint64_t)t->interval_ms * 1000000;
		tui_sample(t);
	} else if (sscanf(line, ":dump %511s", arg) == 1) {
		view_draw(&t->ui);
		if (dump_screen(arg))
			script_error(t, line);
	} else if (sscanf(line, ":resize %d %d", &a, &b) == 2) {
		resizeterm(b, a);
	} else if (sscanf(line, ":click %d %d", &a, &b) == 2) {
		mouse_click(t, a, b);
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

/* Run one script line: a command or a string of keys. */
static void script_line(struct tui *t, char *line)
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
	for (size_t i = 0; i < n && !t->quit && !got_signal; i++) {
		int is_key = 0;
		wint_t ch = w[i];

		if (w[i] == L'<') {
			const wchar_t *end = wcschr(w + i, L'>');

			if (end) {
				char name[32];
				size_t nl = (size_t)(end - (w + i) - 1);
				int f;

				if (nl < sizeof(name) &&
				    wcstombs(name, w + i + 1, nl) == nl) {
					name[nl] = '\0';
					if (sscanf(name, "F%d", &f) == 1 &&
					    f >= 1 && f <= 12) {
						is_key = 1;
						ch = KEY_F(f);
						i += nl + 1;
					} else {
						for (size_t k = 0;
						     k < sizeof(key_names) /
						     sizeof(key_names[0]); k++)
							if (!strcmp(name,
							    key_names[k].name)) {
								is_key =
								key_names[k].is_key;
								ch = key_names[k].ch;
								i += nl + 1;
								break;
							}
					}
				}
			}
		}
		handle_key(t, is_key, ch);
		view_draw(&t->ui);
	}
}

/* --- terminal setup ------------------------------------------------- */

static int tui_open_terminal(struct tui *t)
{
	const char *script = getenv("CSFTOP_SCRIPT");

	if (script && *script) {
		const char *size = getenv("CSFTOP_SCRIPT_SIZE");
		int cols = 80, lines = 24;

		t->script = fopen(script, "r");
		if (!t->script) {
			fprintf(stderr, "%s: %s: %s\n", PROGRAM, script,
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
		curses_active = 1;
		resizeterm(lines, cols);
		t->script_now = 1000000000000ull;	/* 1000 s */
		return 0;
	}

	if (!getenv("TERM") || !*getenv("TERM")) {
		fprintf(stderr, _("%s: TERM is not set, so the terminal cannot "
				  "be driven; set it or use -b for batch "
				  "output\n"), PROGRAM);
		return -1;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, _("%s: standard input and output must be a "
				  "terminal; use -b for batch output\n"),
			PROGRAM);
		return -1;
	}
	t->term = newterm(NULL, stdout, stdin);
	if (!t->term) {
		fprintf(stderr, _("%s: cannot use terminal type '%s'; use -b "
				  "for batch output\n"), PROGRAM,
			getenv("TERM"));
		return -1;
	}
	curses_active = 1;
	if (COLS < VIEW_MIN_COLS || LINES < VIEW_MIN_LINES) {
		int c = COLS, l = LINES;

		restore_terminal();
		fprintf(stderr, _("%s: terminal too small (%dx%d): csftop "
				  "needs at least %dx%d\n"), PROGRAM, c, l,
			VIEW_MIN_COLS, VIEW_MIN_LINES);
		return -1;
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the wait for a key must return to see the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

static int run_tui(const struct options *o, struct sampler *smp)
{
	struct tui t;
	int status = EXIT_SUCCESS;

	memset(&t, 0, sizeof(t));
	t.smp = smp;
	t.interval_ms = o->interval_ms;
	t.count = o->count;
	/* before newterm, so that ncurses keeps our handlers */
	install_signals();
	atexit(restore_terminal);
	if (tui_open_terminal(&t)) {
		status = EXIT_FAILURE;
		goto out;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/*
	 * No typeahead check: ncurses otherwise polls the keyboard every few
	 * lines of an update and flushes what it has before each poll, some
	 * 50 write(2)s and 12 poll(2)s a frame, the largest single cost of
	 * the interactive screen.  A key waits at most one frame anyway.
	 */
	typeahead(-1);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);

	model_init(&t.model, csf_ticks_to_ns);
	t.ui.model = &t.model;
	t.ui.filter = o->filter;
	t.ui.sort_col = o->sort_col;
	t.ui.sort_desc = o->sort_desc;
	t.ui.interval_ms = o->interval_ms;
	t.ui.clock_name = sampler_clock_name();
	t.ui.now_ns = tui_now(&t);
	view_init(&t.ui);
	tui_sample(&t);
	t.next_ns = tui_now(&t) + (uint64_t)t.interval_ms * 1000000;
	if (!t.error)
		view_draw(&t.ui);

	while (!t.quit && !got_signal && !t.error) {
		uint64_t now;
		wint_t ch;
		int r;

		if (t.script) {
			char line[1024];

			if (!fgets(line, sizeof(line), t.script))
				break;		/* end of script: quit */
			script_line(&t, line);
			t.ui.now_ns = tui_now(&t);
			if (t.ui.msg[0] && t.ui.now_ns >= t.ui.msg_until_ns)
				t.ui.msg[0] = '\0';
			continue;
		}
		now = mono_ns();
		timeout(now >= t.next_ns ? 0 :
			(int)((t.next_ns - now + 999999) / 1000000));
		r = get_wch(&ch);
		now = mono_ns();
		t.ui.now_ns = now;
		if (t.ui.msg[0] && now >= t.ui.msg_until_ns)
			t.ui.msg[0] = '\0';
		if (r != ERR)
			handle_key(&t, r == KEY_CODE_YES, ch);
		if (now >= t.next_ns) {
			tui_sample(&t);
			t.next_ns += (uint64_t)t.interval_ms * 1000000;
			/* fell behind (suspended, slow terminal): re-phase */
			if (t.next_ns <= now)
				t.next_ns = now + (uint64_t)t.interval_ms *
						  1000000;
		}
		if (!t.error)
			view_draw(&t.ui);
	}

	restore_terminal();
	if (t.error) {
		fprintf(stderr, "%s: %s\n", PROGRAM, csf_strerror(t.error));
		status = EXIT_FAILURE;
	}
	model_free(&t.model);
	free(t.ui.idx);
out:
	restore_terminal();
	if (t.term)
		delscreen(t.term);
	if (t.script)
		fclose(t.script);
	if (t.null_in)
		fclose(t.null_in);
	if (t.null_out)
		fclose(t.null_out);
	if (got_signal) {
		int sig = got_signal;

		/* die of the signal, so the parent sees why we stopped */
		sampler_close(smp);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	struct sampler smp;
	int status, err;

	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	status = parse_options(argc, argv, &o);
	if (status >= 0)
		return status;

	err = sampler_open(&smp);
	if (err) {
		fprintf(stderr, "%s: %s\n", PROGRAM, csf_strerror(err));
		return EXIT_FAILURE;
	}
	if (o.batch)
		status = run_batch(&o, &smp);
	else
		status = run_tui(&o, &smp);
	sampler_close(&smp);
	return status;
}
