// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui.c - interactive csftop: the loop and the keys.
 *
 *
 * The loop samples on a fixed schedule (every -d ms, from the monotonic
 * clock, not "d ms after the last key") and redraws after every sample and
 * every key.  Freezing and diffing change what is drawn, never whether we
 * sample, so a frozen screen still has a fresh live sample behind it.
 *
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wctype.h>

#include "columns.h"
#include "fmt.h"
#include "i18n.h"
#include "spawn.h"
#include "tui.h"
#ifdef HAVE_PCP
#include "replay.h"
#endif

/* +/- walk these; -d may set any value in between */
static const unsigned int interval_steps[] = {
	10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000,
};
#define NSTEPS (sizeof(interval_steps) / sizeof(interval_steps[0]))

volatile sig_atomic_t tui_signal;
static int curses_active;

static void on_signal(int sig)
{
	tui_signal = sig;
}

/* Restore the terminal on every way out, exit() and crashes included. */
void tui_restore_terminal(void)
{
	if (curses_active) {
		curses_active = 0;
		endwin();
	}
}

static uint64_t tui_now(const struct tui *t)
{
	return t->script ? t->script_now : mono_ns();
}

static void tui_refresh_view(struct tui *t)
{
	if (view_select(&t->ui))
		t->error = -ENOMEM;
}

/* Enter: a process's threads shown or hidden, or a thread's waits. */
static void enter_key(struct tui *t)
{
	if (!view_toggle_fold(&t->ui))
		tui_refresh_view(t);
	else if (view_detail_open(&t->ui))
		view_message(&t->ui, "%s", _("No thread selected"));
}

/* Editing keys of the prompt line: 1 if they changed it. */
static int edit_key(struct ui *ui, int is_key, wint_t ch)
{
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
		return 0;
	}
	return 1;
}

/*
 * The command's line: how it is, and its tree's total so far, the exited
 * members' sums (the module's) and the live ones' (this frame's pages,
 * which the sampler limits to the tree).
 */
static void command_header(struct tui *t)
{
	struct ui *ui = &t->ui;
	const struct command *c = t->cmd;
	struct csf_tree tree;
	char line[CSF_DIFF_BUFSZ];
	int n;

	command_poll(t->cmd, 0);
	if (csf_thread_read_tree(c->root, &tree))
		memset(&tree, 0, sizeof(tree));
	for (size_t i = 0; i < t->smp->nsnaps; i++) {
		const struct csf_snap *s = &t->smp->snaps[i];

		if (s->state == CSF_STATE_EXITED)
			continue;	/* in the tree's sums already */
		tree.run_ns += csf_ticks_to_ns(s->time[CSF_STATE_RUNNING]);
		tree.runnable_ns +=
			csf_ticks_to_ns(s->time[CSF_STATE_RUNNABLE]);
		tree.sleep_ns += csf_ticks_to_ns(s->time[CSF_STATE_SLEEPING]);
		tree.iowait_ns += csf_ticks_to_ns(s->time[CSF_STATE_IOWAIT]);
		tree.blocked_ns += csf_ticks_to_ns(s->time[CSF_STATE_BLOCKED]);
		tree.nvcsw += s->nvcsw;
		tree.nivcsw += s->nivcsw;
		tree.wakeups += s->wakeups;
		tree.migrations += s->migrations;
		if (tree.running)
			tree.running--;
	}
	csf_format_tree(line, sizeof(line), &tree);
	if (!c->exited)
		n = snprintf(ui->command, sizeof(ui->command),
			     _("%s (pid %d) running: "), c->argv[0],
			     (int)c->pid);
	else
		n = snprintf(ui->command, sizeof(ui->command),
			     _("%s (pid %d) ended, status %d: "), c->argv[0],
			     (int)c->pid, command_status(c));
	if (n > 0 && (size_t)n < sizeof(ui->command))
		snprintf(ui->command + n, sizeof(ui->command) - (size_t)n,
			 "%s", line);
}

/* Give the model a sample: the pages now, or the replay's sample @k. */
static int feed(struct tui *t, size_t k)
{
	int err;

#ifdef HAVE_PCP
	if (t->rp) {
		err = replay_read(t->rp, k);
		if (!err)
			err = model_sample(&t->model, t->rp->snaps, NULL,
					   t->rp->nsnaps, t->rp->cpus,
					   t->rp->ncpus, replay_time(t->rp, k));
		if (!err)
			t->pos = k;
		return err;
	}
#else
	(void)k;
#endif
	err = sampler_read(t->smp);
	if (!err && t->script)
		script_stamp(t);
	if (!err)
		err = model_sample(&t->model, t->smp->snaps, t->smp->hists,
				   t->smp->nsnaps, t->smp->cpus, t->smp->ncpus,
				   tui_now(t));
	if (!err) {
		t->ui.denied = t->smp->denied;
		t->ui.missed = t->smp->missed;
		if (t->cmd)
			command_header(t);
	}
	return err;
}

#ifdef HAVE_PCP
/* Where the replay is, in the mode line instead of LIVE. */
static void set_place(struct tui *t)
{
	uint64_t at = replay_time(t->rp, t->pos);
	time_t sec = (time_t)(at / 1000000000);
	struct tm tm;
	char when[64] = "?", how[32];

	if (localtime_r(&sec, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	/* the archive's clock, as its last sample read gave it */
	t->ui.clock_name = _(t->rp->clock);
	if (t->playing)
		snprintf(how, sizeof(how), _("playing %ux"), t->speed);
	else
		snprintf(how, sizeof(how), "%s", _("paused"));
	snprintf(t->ui.place, sizeof(t->ui.place), "%s.%03u %zu/%zu %s",
		 when, (unsigned int)(at / 1000000 % 1000), t->pos + 1,
		 t->rp->nsamples, how);
}
#endif

int tui_sample(struct tui *t)
{
	size_t k = 0;
	int err;

#ifdef HAVE_PCP
	if (t->rp && t->samples) {
		if (t->pos + 1 >= t->rp->nsamples) {
			t->playing = 0;
			view_message(&t->ui, "%s", _("End of the archive"));
			set_place(t);
			return 0;
		}
		k = t->pos + 1;
	}
#endif
	err = feed(t, k);
	if (err) {
		t->error = err;
		return err;
	}
#ifdef HAVE_PCP
	if (t->rp)
		set_place(t);
#endif
	t->samples++;
	if (t->count && t->samples >= t->count)
		t->quit = 1;
	tui_refresh_view(t);
	return 0;
}

#ifdef HAVE_PCP
/* Show sample @k as a sample after the one before it would show it. */
static void replay_goto(struct tui *t, size_t k)
{
	int err = 0;

	model_restart(&t->model);
	if (k > 0)
		err = feed(t, k - 1);
	if (!err)
		err = feed(t, k);
	if (err) {
		t->error = err;
		return;
	}
	set_place(t);
	tui_refresh_view(t);
}

static void replay_key(struct tui *t, wint_t ch)
{
	switch (ch) {
	case '[':
		t->playing = 0;
		if (t->pos > 0)
			replay_goto(t, t->pos - 1);
		else
			view_message(&t->ui, "%s", _("Start of the archive"));
		break;
	case ']':
		t->playing = 0;
		tui_sample(t);
		break;
	case 'p':
		t->playing = !t->playing && t->pos + 1 < t->rp->nsamples;
		if (!t->playing && t->pos + 1 >= t->rp->nsamples)
			view_message(&t->ui, "%s", _("End of the archive"));
		break;
	case '+':
		if (t->speed < 64)
			t->speed *= 2;
		view_message(&t->ui, _("Speed: %ux"), t->speed);
		break;
	case '-':
		if (t->speed > 1)
			t->speed /= 2;
		view_message(&t->ui, _("Speed: %ux"), t->speed);
		break;
	}
	t->next_ns = tui_now(t) + t->rp->step_ns / t->speed;
	set_place(t);
}

static void goto_key(struct tui *t, int is_key, wint_t ch)
{
	struct ui *ui = &t->ui;

	if ((!is_key && ch == 27) || (is_key && ch == KEY_F(4))) {
		ui->overlay = OVERLAY_NONE;
		return;
	}
	if (!is_key && ch == '\n') {
		char text[256], why[160] = "";
		uint64_t at;

		if (view_edit_text(ui, text, sizeof(text)) ||
		    replay_parse_time(t->rp, text, &at, why, sizeof(why))) {
			view_message(ui, _("Cannot go to %s: %s"), text, why);
			return;
		}
		ui->overlay = OVERLAY_NONE;
		t->playing = 0;
		replay_goto(t, replay_find(t->rp, at));
		return;
	}
	edit_key(ui, is_key, ch);
}
#endif

static void set_interval(struct tui *t, int faster)
{
	unsigned int cur = t->ui.interval_ms, next = cur;
	char buf[FMT_BUFSZ];

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
	t->ui.interval_ms = next;
	t->next_ns = tui_now(t) + (uint64_t)next * 1000000;
	view_message(&t->ui, _("Interval: %s"),
		     FMT_STR(buf, fmt_interval, (uint64_t)next * 1000000));
}

static void set_sort(struct tui *t, int col)
{
	t->ui.sort_col = (enum col)col;
	t->ui.sort_desc = columns[col].desc_first;
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

void tui_click(struct tui *t, int x, int y)
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

	if (view_edit_text(&t->ui, text, sizeof(text)))
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
	if (!is_key && ch == '\n') {
		char text[256];

		if (!view_edit_text(ui, text, sizeof(text)) &&
		    filter_set(&ui->filter, text)) {
			view_message(ui, _("Invalid PID list '%s'"), text);
			return;
		}
		ui->overlay = OVERLAY_NONE;
		tui_refresh_view(t);
		return;
	}
	if (edit_key(ui, is_key, ch))
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
	else if (!is_key && ch == '\n') {
		ui->overlay = OVERLAY_NONE;
		set_sort(t, ui->sort_menu_sel);
	} else if ((!is_key && (ch == 27 || ch == 'q')) ||
		   (is_key && ch == KEY_F(6))) {
		ui->overlay = OVERLAY_NONE;
	}
}

/* The detail view's own keys: 1 if @ch was one. */
static int detail_key(struct tui *t, int is_key, wint_t ch)
{
	struct ui *ui = &t->ui;

	if ((!is_key && (ch == 27 || ch == 'q' || ch == '\n')) ||
	    (is_key && ch == KEY_BACKSPACE)) {
		ui->overlay = OVERLAY_NONE;
	} else if (!is_key && ch == '\t') {
		ui->detail_span = ui->detail_span == HIST_SPAN ? HIST_SINCE :
				  HIST_SPAN;
		ui->detail_top = 0;
	} else if (is_key && (ch == KEY_DOWN || ch == KEY_UP)) {
		view_detail_scroll(ui, ch == KEY_DOWN ? 1 : -1);
	} else if (is_key && (ch == KEY_NPAGE || ch == KEY_PPAGE)) {
		view_detail_scroll(ui, ch == KEY_NPAGE ? LINES - 5 : 5 - LINES);
	} else {
		return 0;
	}
	return 1;
}

void tui_key(struct tui *t, int is_key, wint_t ch)
{
	struct ui *ui = &t->ui;

	if (is_key && ch == KEY_RESIZE)
		return;		/* ncurses has LINES and COLS already */
	/* Enter, whether the keypad or the terminal's CR (nonl()) */
	if ((is_key && ch == KEY_ENTER) || (!is_key && ch == '\r')) {
		is_key = 0;
		ch = '\n';
	}
	if (is_key && ch == KEY_MOUSE) {
		MEVENT ev;

		if (getmouse(&ev) == OK &&
		    (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
			tui_click(t, ev.x, ev.y);
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
#ifdef HAVE_PCP
	case OVERLAY_GOTO:
		goto_key(t, is_key, ch);
		return;
#endif
	case OVERLAY_SORT:
		sort_menu_key(t, is_key, ch);
		return;
	case OVERLAY_DETAIL:
		if (detail_key(t, is_key, ch))
			return;
		break;		/* z, d, l and the others work here too */
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
#ifdef HAVE_PCP
	if (t->rp && (ch == '[' || ch == ']' || ch == 'p' || ch == '+' ||
		      ch == '-')) {
		replay_key(t, ch);
		return;
	}
	if (t->rp && ch == 'g') {
		ui->overlay = OVERLAY_GOTO;
		ui->edit_len = 0;
		return;
	}
#endif
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
	case 'H':
		view_toggle_processes(ui);
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
	case '\n':
		if (ui->overlay == OVERLAY_NONE)
			enter_key(t);
		break;
	case '[':
	case ']':
	case 'g':
	case 'p':
		view_message(ui, "%s", _("Only when replaying an archive (-a)"));
		break;
	default:
		break;
	}
}

/* --- terminal setup ------------------------------------------------- */

static int tui_open_terminal(struct tui *t)
{
	const char *script = getenv("CSFTOP_SCRIPT");

	if (script && *script) {
		if (script_open(t, script))
			return -1;
		curses_active = 1;
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
	/*
	 * ncurses 6.4 flushes its output after every cursor movement until
	 * the screen has come back from endwin() (_endwin stays ewInitial
	 * after newterm): a write(2) per changed row, ~45 a frame.  Leaving
	 * and resuming once, as after a shell escape, makes doupdate() write
	 * a frame at once.
	 */
	endwin();
	refresh();
	if (COLS < VIEW_MIN_COLS || LINES < VIEW_MIN_LINES) {
		int c = COLS, l = LINES;

		tui_restore_terminal();
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

/*
 * The terminal hung up and no SIGHUP came (under strace, seen): every read
 * then ends at once with nothing, and drawing on would spin on a dead
 * terminal at full speed.
 */
static int terminal_gone(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

/* How long a sample lasts on the screen. */
static uint64_t period_ns(const struct tui *t)
{
	uint64_t p = (uint64_t)t->ui.interval_ms * 1000000;

#ifdef HAVE_PCP
	if (t->rp)
		p = t->rp->step_ns / t->speed;
#endif
	return p > INTERVAL_MIN_MS * 1000000ull ? p :
	       INTERVAL_MIN_MS * 1000000ull;
}

int run_tui(const struct options *o, struct sampler *smp, struct replay *rp,
	    struct command *cmd)
{
	struct tui t;
	int status = EXIT_SUCCESS;

	memset(&t, 0, sizeof(t));
	t.smp = smp;
	t.rp = rp;
	t.cmd = cmd;
	t.playing = rp != NULL;
	t.speed = 1;
	t.count = o->count;
	/* before newterm, so that ncurses keeps our handlers */
	install_signals();
	atexit(tui_restore_terminal);
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

#ifdef HAVE_PCP
	model_init(&t.model, rp ? replay_to_ns : csf_ticks_to_ns);
#else
	model_init(&t.model, csf_ticks_to_ns);
#endif
	t.ui.model = &t.model;
	t.ui.filter = o->filter;
	t.ui.sort_col = o->sort_col;
	t.ui.sort_desc = o->sort_desc;
	t.ui.processes = o->processes;
	t.ui.interval_ms = o->interval_ms;
	t.ui.clock_name = _(smp ? sampler_clock_key() : rp->clock);
#ifdef HAVE_PCP
	if (rp) {
		/* its step as the interval; set_place() names its clock */
		t.ui.interval_ms = (unsigned int)(rp->step_ns / 1000000);
	}
#endif
	t.ui.now_ns = tui_now(&t);
	view_init(&t.ui);
	tui_sample(&t);
	t.next_ns = tui_now(&t) + period_ns(&t);
	if (!t.error)
		view_draw(&t.ui);

	while (!t.quit && !tui_signal && !t.error) {
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
		if (r == ERR && !t.script && terminal_gone())
			break;
		now = mono_ns();
		t.ui.now_ns = now;
		if (t.ui.msg[0] && now >= t.ui.msg_until_ns)
			t.ui.msg[0] = '\0';
		if (r != ERR)
			tui_key(&t, r == KEY_CODE_YES, ch);
		if (now >= t.next_ns) {
			if (!t.rp || t.playing)
				tui_sample(&t);
			t.next_ns += period_ns(&t);
			/* fell behind (suspended, slow terminal): re-phase */
			if (t.next_ns <= now)
				t.next_ns = now + period_ns(&t);
		}
		if (!t.error)
			view_draw(&t.ui);
	}

	tui_restore_terminal();
	if (t.error) {
		fprintf(stderr, "%s: %s\n", PROGRAM,
#ifdef HAVE_PCP
			rp ? replay_strerror(t.error) :
#endif
			csf_strerror(t.error));
		status = EXIT_FAILURE;
	}
	model_free(&t.model);
	free(t.ui.idx);
	view_processes_free(&t.ui);
	view_free();
out:
	tui_restore_terminal();
	if (t.term)
		delscreen(t.term);
	if (t.script)
		fclose(t.script);
	if (t.null_in)
		fclose(t.null_in);
	if (t.null_out)
		fclose(t.null_out);
	if (tui_signal) {
		int sig = tui_signal;

		/* die of the signal, so the parent sees why we stopped */
		if (smp)
			sampler_close(smp);
#ifdef HAVE_PCP
		if (rp)
			replay_close(rp);
#endif
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return status;
}
