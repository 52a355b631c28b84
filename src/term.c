// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * term.c - the user's terminal: see term.h.
 */
#include <config.h>

#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "i18n.h"
#include "keys.h"
#include "term.h"
#include "view.h"

struct term {
	struct tui_driver d;		/* first: the driver is the term */
	SCREEN *screen;
};

static int curses_active;

void term_restore(void)
{
	if (curses_active) {
		curses_active = 0;
		endwin();
	}
}

void term_setup(void)
{
	static int registered;

	/* restore the terminal on every way out, exit() included */
	if (!registered)
		registered = !atexit(term_restore);
	curses_active = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/*
	 * No typeahead check: ncurses otherwise polls the keyboard every few
	 * lines of an update and flushes what it has before each poll, a
	 * write(2) and a poll(2) each time.  A key waits at most one frame
	 * anyway.
	 */
	typeahead(-1);
	set_escdelay(25);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
}

static int term_open(struct tui_driver *d)
{
	struct term *tm = (struct term *)d;

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
	tm->screen = newterm(NULL, stdout, stdin);
	if (!tm->screen) {
		fprintf(stderr, _("%s: cannot use terminal type '%s'; use -b "
				  "for batch output\n"), PROGRAM,
			getenv("TERM"));
		return -1;
	}
	/*
	 * ncurses 6.4 flushes its output after every cursor movement until
	 * the screen has come back from endwin() (_endwin stays ewInitial
	 * after newterm): a write(2) per changed row.  Leaving and resuming
	 * once, as after a shell escape, makes doupdate() write a frame at
	 * once.
	 */
	endwin();
	refresh();
	if (COLS < VIEW_MIN_COLS || LINES < VIEW_MIN_LINES) {
		int c = COLS, l = LINES;

		endwin();
		fprintf(stderr, _("%s: terminal too small (%dx%d): csftop "
				  "needs at least %dx%d\n"), PROGRAM, c, l,
			VIEW_MIN_COLS, VIEW_MIN_LINES);
		return -1;
	}
	term_setup();
	return 0;
}

/*
 * The terminal hung up and no SIGHUP came (as under strace): every read
 * then ends at once with nothing, and drawing on would spin on a dead
 * terminal at full speed.
 */
static int terminal_gone(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

/* Keys until the end, sampling on the clock in between. */
static void term_run(struct tui_driver *d, struct tui *t)
{
	(void)d;
	while (!t->quit && !tui_signal && !t->error) {
		uint64_t now = tui_now(t);
		wint_t ch;
		int r;

		timeout(now >= t->next_ns ? 0 :
			(int)((t->next_ns - now + 999999) / 1000000));
		r = get_wch(&ch);
		if (r == ERR && terminal_gone())
			break;
		now = tui_now(t);
		ui_set_now(&t->ui, now);
		if (r != ERR)
			tui_key(t, r == KEY_CODE_YES, ch);
		tui_tick(t, now);
		if (!t->error)
			view_draw(&t->ui);
	}
}

static void term_close(struct tui_driver *d)
{
	struct term *tm = (struct term *)d;

	term_restore();
	if (tm->screen)
		delscreen(tm->screen);
	tm->screen = NULL;
}

struct tui_driver *term_driver(void)
{
	static struct term tm = {
		{ &source_mono, term_open, term_run, term_close }, NULL
	};

	return &tm.d;
}
