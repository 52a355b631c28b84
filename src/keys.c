// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keys.c - the key table and what the keys do: see keys.h.
 */
#include <config.h>

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "fmt.h"
#include "i18n.h"
#include "keys.h"
#include "tui.h"
#include "ui.h"

/* +/- walk these; -d may set any value in between */
static const unsigned int interval_steps[] = {
	10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000,
};
#define NSTEPS (sizeof(interval_steps) / sizeof(interval_steps[0]))

/* --- what the keys do ---------------------------------------------- */

/* How far a scroll or a move goes, besides a number of lines: */
#define PAGE	100000		/* what is shown */
#define ALL	200000		/* to the end */

static int quit(struct tui *t, int arg)
{
	(void)arg;
	t->quit = 1;
	return 1;
}

/* Open overlay @arg. */
static int open_overlay(struct tui *t, int arg)
{
	ui_open(&t->ui, (enum ui_overlay)arg);
	return 1;
}

static void set_sort(struct tui *t, int col)
{
	ui_set_sort(&t->ui, (enum col)col);
	tui_refresh_view(t);
}

/* Sort on the column @arg (-1 or 1) away. */
static int sort_step(struct tui *t, int arg)
{
	set_sort(t, ((int)t->ui.sort_col + COL_NR + arg) % COL_NR);
	return 1;
}

static int invert(struct tui *t, int arg)
{
	(void)arg;
	t->ui.sort_desc = !t->ui.sort_desc;
	tui_refresh_view(t);
	return 1;
}

void tui_click(struct tui *t, int x, int y)
{
	int c;

	if (t->ui.overlay != OVERLAY_NONE || t->ui.too_small)
		return;
	c = ui_column_at(&t->ui, y, x);
	if (c >= 0) {
		/* htop: a click on the sorted column inverts it */
		if (c == (int)t->ui.sort_col)
			invert(t, 0);
		else
			set_sort(t, c);
		return;
	}
	ui_row_at(&t->ui, y);
}

static int click(struct tui *t, int arg)
{
	MEVENT ev;

	(void)arg;
	if (getmouse(&ev) == OK &&
	    (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		tui_click(t, ev.x, ev.y);
	return 1;
}

static int freeze(struct tui *t, int arg)
{
	(void)arg;
	if (t->model.mode == MODE_LIVE) {
		if (model_freeze(&t->model)) {
			t->error = -ENOMEM;
			return 1;
		}
		ui_message(&t->ui, "%s",
			   _("Frozen as A: z live, d diff later"));
	} else {
		model_live(&t->model);
		ui_message(&t->ui, "%s", _("Live"));
	}
	tui_refresh_view(t);
	return 1;
}

static int diff(struct tui *t, int arg)
{
	int r = model_diff(&t->model);

	(void)arg;
	if (r < 0) {
		t->error = r;
		return 1;
	}
	if (r == 0)
		ui_message(&t->ui, "%s", _("Frozen as A: d again shows B-A"));
	else
		ui_message(&t->ui, "%s", _("B-A: d new B, l live"));
	tui_refresh_view(t);
	return 1;
}

static int live(struct tui *t, int arg)
{
	(void)arg;
	if (t->model.mode != MODE_LIVE) {
		model_live(&t->model);
		ui_message(&t->ui, "%s", _("Live"));
		tui_refresh_view(t);
	}
	return 1;
}

static int processes(struct tui *t, int arg)
{
	(void)arg;
	ui_toggle_processes(&t->ui);
	tui_refresh_view(t);
	return 1;
}

/* Enter on a process: its threads shown or hidden. */
static int fold(struct tui *t, int arg)
{
	(void)arg;
	if (ui_toggle_fold(&t->ui))
		return 0;
	tui_refresh_view(t);
	return 1;
}

/* Enter on a thread: its waits. */
static int waits(struct tui *t, int arg)
{
	(void)arg;
	if (ui_detail_open(&t->ui))
		ui_message(&t->ui, "%s", _("No thread selected"));
	return 1;
}

/* The next interval of interval_steps[] down (@arg -1) or up (1). */
static int interval_step(struct tui *t, int arg)
{
	unsigned int cur = t->ui.interval_ms, next = cur;
	char buf[FMT_BUFSZ];

	if (arg < 0) {
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
	ui_message(&t->ui, _("Interval: %s"),
		   FMT_STR(buf, fmt_interval, (uint64_t)next * 1000000));
	return 1;
}

/* A replay's own key @arg, when replaying. */
static int replay(struct tui *t, int arg)
{
	return tui_replay_key(t, (wint_t)arg);
}

/* A key @arg only a replay has. */
static int replay_only(struct tui *t, int arg)
{
	if (!tui_replay_key(t, (wint_t)arg))
		ui_message(&t->ui, "%s",
			   _("Only when replaying an archive (-a)"));
	return 1;
}

static int open_goto(struct tui *t, int arg)
{
	if (!t->src->go_to)
		return replay_only(t, arg);
	ui_open(&t->ui, OVERLAY_GOTO);
	return 1;
}

/* Move the selection by @arg rows, a PAGE or ALL of them. */
static int move_selection(struct tui *t, int arg)
{
	long page = t->ui.body_lines ? t->ui.body_lines : 1;
	long delta = arg == PAGE ? page : arg == -PAGE ? -page :
		     arg == ALL ? (long)t->ui.nidx :
		     arg == -ALL ? -(long)t->ui.nidx : arg;

	ui_move(&t->ui, delta);
	return 1;
}

static int redraw(struct tui *t, int arg)
{
	(void)t;
	(void)arg;
	clearok(curscr, TRUE);
	return 1;
}

static int nothing(struct tui *t, int arg)
{
	(void)t;
	(void)arg;
	return 1;
}

/* --- overlays ------------------------------------------------------- */

static int close_overlay(struct tui *t, int arg)
{
	(void)arg;
	ui_open(&t->ui, OVERLAY_NONE);
	return 1;
}

/* Scroll the help by @arg lines, or a PAGE. */
static int help_scroll(struct tui *t, int arg)
{
	int page = LINES - 3;

	ui_help_scroll(&t->ui, arg == PAGE ? page : arg == -PAGE ? -page : arg,
		       page);
	return 1;
}

static int menu_move(struct tui *t, int arg)
{
	ui_sort_menu_move(&t->ui, arg);
	return 1;
}

static int menu_pick(struct tui *t, int arg)
{
	(void)arg;
	ui_open(&t->ui, OVERLAY_NONE);
	set_sort(t, t->ui.sort_menu_sel);
	return 1;
}

static int detail_span(struct tui *t, int arg)
{
	(void)arg;
	ui_detail_toggle_span(&t->ui);
	return 1;
}

/* Scroll the detail view by @arg lines, or a PAGE. */
static int detail_scroll(struct tui *t, int arg)
{
	int page = LINES - 5;

	ui_detail_scroll(&t->ui, arg == PAGE ? page : arg == -PAGE ? -page :
			 arg);
	return 1;
}

/* Esc: the filter cleared, as in htop. */
static int filter_clear(struct tui *t, int arg)
{
	(void)arg;
	memset(&t->ui.filter, 0, sizeof(t->ui.filter));
	ui_edit_clear(&t->ui);
	ui_open(&t->ui, OVERLAY_NONE);
	tui_refresh_view(t);
	return 1;
}

static int filter_close(struct tui *t, int arg)
{
	(void)arg;
	ui_open(&t->ui, OVERLAY_NONE);
	tui_refresh_view(t);
	return 1;
}

static int filter_enter(struct tui *t, int arg)
{
	char text[256];

	if (ui_filter_from_edit(&t->ui) == -EINVAL) {
		ui_edit_text(&t->ui, text, sizeof(text));
		ui_message(&t->ui, _("Invalid PID list '%s'"), text);
		return 1;
	}
	return filter_close(t, arg);
}

static int goto_enter(struct tui *t, int arg)
{
	char text[256], why[160] = "";

	(void)arg;
	if (ui_edit_text(&t->ui, text, sizeof(text)) ||
	    tui_goto(t, text, why, sizeof(why)))
		ui_message(&t->ui, _("Cannot go to %s: %s"), text, why);
	return 1;
}

/* The prompt line changed: the filter follows as it is typed. */
static int edited(struct tui *t)
{
	if (t->ui.overlay == OVERLAY_FILTER && !ui_filter_from_edit(&t->ui))
		tui_refresh_view(t);
	return 1;
}

static int edit_erase(struct tui *t, int arg)
{
	(void)arg;
	ui_edit_erase(&t->ui);
	return edited(t);
}

static int edit_clear(struct tui *t, int arg)
{
	(void)arg;
	ui_edit_clear(&t->ui);
	return edited(t);
}

/* The character @arg typed on the prompt line. */
static int edit_insert(struct tui *t, int arg)
{
	return ui_edit_insert(&t->ui, (wint_t)arg) ? edited(t) : 1;
}

/* --- the table of keys ---------------------------------------------- */

#define CH(c)		K_CHAR, c
#define CODE(c)		K_CODE, c
#define ANYCHAR		K_ANYCHAR, 0
#define ANY		K_ANY, 0

/* help shared by the keys that do the same */
#define H_HELP		N_("this help")
#define H_SORT		N_("sort on the previous / next column")
#define H_FILTER	N_("filter: PIDs (1,2,3) or part of a name; Esc clears")
#define H_FREEZE	N_("freeze the screen (sampling goes on); again: live")
#define H_LIVE		N_("back to the live view")
#define H_INTERVAL	N_("longer / shorter refresh interval (10 ms at least)")
#define H_STEP		N_("replay (-a): one sample back / forth")
#define H_MOVE		N_("move the selection")
#define H_QUIT		N_("quit")

/* The table's keys in the order of the help, then the overlays'. */
const struct key keys[] = {
	{ OVERLAY_NONE, CODE(KEY_F(1)), "F1", open_overlay, OVERLAY_HELP,
	  .help = H_HELP, .hint = N_("Help"), .hint_at = 1 },
	{ OVERLAY_NONE, CH('h'), "h", open_overlay, OVERLAY_HELP,
	  .help = H_HELP },
	{ OVERLAY_NONE, CH('?'), "?", open_overlay, OVERLAY_HELP,
	  .help = H_HELP },
	{ OVERLAY_NONE, CODE(KEY_F(6)), "F6", open_overlay, OVERLAY_SORT,
	  .help = N_("choose the sort column from a list"),
	  .hint = N_("SortBy"), .hint_at = 3 },
	{ OVERLAY_NONE, CH('<'), "<", sort_step, -1, .help = H_SORT },
	{ OVERLAY_NONE, CH('>'), ">", sort_step, 1, .help = H_SORT },
	{ OVERLAY_NONE, CH('I'), "I", invert, 0,
	  .help = N_("invert the sort order"), .hint = N_("Invert"),
	  .hint_at = 4 },
	{ KEYS_ALWAYS, CODE(KEY_MOUSE), N_("click"), click, 0,
	  .help = N_("sort on a column by clicking its title") },
	{ OVERLAY_NONE, CODE(KEY_F(4)), "F4", open_overlay, OVERLAY_FILTER,
	  .help = H_FILTER, .hint = N_("Filter"), .hint_at = 2 },
	{ OVERLAY_NONE, CH('\\'), "\\", open_overlay, OVERLAY_FILTER,
	  .help = H_FILTER },
	{ OVERLAY_NONE, CH('z'), "z", freeze, 0, .help = H_FREEZE,
	  .hint = N_("Freeze"), .hint_at = 5 },
	{ OVERLAY_NONE, CH(' '), "Space", freeze, 0, .help = H_FREEZE },
	{ OVERLAY_NONE, CH('d'), "d", diff, 0,
	  .help = N_("diff: B minus the frozen screen A; d again: new B"),
	  .hint = N_("Diff"), .hint_at = 6 },
	{ OVERLAY_NONE, CH('l'), "l", live, 0, .help = H_LIVE,
	  .hint = N_("Live"), .hint_at = 7 },
	{ OVERLAY_NONE, CH(27), "Esc", live, 0, .help = H_LIVE },
	{ OVERLAY_NONE, CH('H'), "H", processes, 0,
	  .help = N_("a row per process, threads summed, or per thread") },
	{ OVERLAY_NONE, CH('\n'), "Enter", fold, 0,
	  .help = N_("on a process (H): its threads under it, or not") },
	{ OVERLAY_NONE, CH('+'), "+", replay, .arg = '+' },
	{ OVERLAY_NONE, CH('-'), "-", replay, .arg = '-' },
	{ OVERLAY_NONE, CH('+'), "+", interval_step, 1, .help = H_INTERVAL,
	  .hint = N_("Interval"), .hint_at = 8 },
	{ OVERLAY_NONE, CH('-'), "-", interval_step, -1, .help = H_INTERVAL,
	  .hint = N_("Interval"), .hint_at = 8 },
	{ OVERLAY_NONE, CH('['), "[", replay_only, '[', .help = H_STEP },
	{ OVERLAY_NONE, CH(']'), "]", replay_only, ']', .help = H_STEP },
	{ OVERLAY_NONE, CH('g'), "g", open_goto, 'g',
	  .help = N_("replay: go to a time (PCP's syntax, as -S)") },
	{ OVERLAY_NONE, CH('p'), "p", replay_only, 'p',
	  .help = N_("replay: play or pause; + - play faster / slower") },
	{ OVERLAY_NONE, CODE(KEY_UP), "Up", move_selection, -1,
	  .help = H_MOVE },
	{ OVERLAY_NONE, CODE(KEY_DOWN), "Down", move_selection, 1,
	  .help = H_MOVE },
	{ OVERLAY_NONE, CODE(KEY_PPAGE), "PgUp", move_selection, -PAGE,
	  .help = H_MOVE },
	{ OVERLAY_NONE, CODE(KEY_NPAGE), "PgDn", move_selection, PAGE,
	  .help = H_MOVE },
	{ OVERLAY_NONE, CODE(KEY_HOME), "Home", move_selection, -ALL,
	  .help = H_MOVE },
	{ OVERLAY_NONE, CODE(KEY_END), "End", move_selection, ALL,
	  .help = H_MOVE },
	{ OVERLAY_NONE, CH('\n'), "Enter", waits, 0,
	  .help = N_("the selected thread's waits: histograms, waker, "
		     "preemptor; Tab: since registration"),
	  .hint = N_("Waits"), .hint_at = 10 },
	{ OVERLAY_NONE, CH(12), "Ctrl-L", redraw, 0, .help = N_("redraw") },
	{ OVERLAY_NONE, CH('q'), "q", quit, 0, .help = H_QUIT },
	{ OVERLAY_NONE, CODE(KEY_F(10)), "F10", quit, 0, .help = H_QUIT,
	  .hint = N_("Quit"), .hint_at = 9 },
	/* ncurses has LINES and COLS already */
	{ KEYS_ALWAYS, CODE(KEY_RESIZE), NULL, .action = nothing },

	{ OVERLAY_HELP, CODE(KEY_UP), "Up", help_scroll, .arg = -1 },
	{ OVERLAY_HELP, CODE(KEY_DOWN), "Down", help_scroll, .arg = 1 },
	{ OVERLAY_HELP, CODE(KEY_PPAGE), "PgUp", help_scroll, .arg = -PAGE },
	{ OVERLAY_HELP, CODE(KEY_NPAGE), "PgDn", help_scroll, .arg = PAGE },
	{ OVERLAY_HELP, CH(' '), "Space", help_scroll, .arg = PAGE },
	{ OVERLAY_HELP, ANY, NULL, .action = close_overlay },

	{ OVERLAY_SORT, CODE(KEY_UP), "Up", menu_move, .arg = -1 },
	{ OVERLAY_SORT, CODE(KEY_DOWN), "Down", menu_move, .arg = 1 },
	{ OVERLAY_SORT, CODE(KEY_HOME), "Home", menu_move, .arg = -COL_NR },
	{ OVERLAY_SORT, CODE(KEY_END), "End", menu_move, .arg = COL_NR },
	{ OVERLAY_SORT, CH('\n'), "Enter", .action = menu_pick },
	{ OVERLAY_SORT, CH(27), "Esc", .action = close_overlay },
	{ OVERLAY_SORT, CH('q'), "q", .action = close_overlay },
	{ OVERLAY_SORT, CODE(KEY_F(6)), "F6", .action = close_overlay },

	{ OVERLAY_DETAIL, CH(27), "Esc", .action = close_overlay },
	{ OVERLAY_DETAIL, CH('q'), "q", .action = close_overlay },
	{ OVERLAY_DETAIL, CH('\n'), "Enter", .action = close_overlay },
	{ OVERLAY_DETAIL, CODE(KEY_BACKSPACE), "Backspace",
	  .action = close_overlay },
	{ OVERLAY_DETAIL, CH('\t'), "Tab", .action = detail_span },
	{ OVERLAY_DETAIL, CODE(KEY_UP), "Up", detail_scroll, .arg = -1 },
	{ OVERLAY_DETAIL, CODE(KEY_DOWN), "Down", detail_scroll, .arg = 1 },
	{ OVERLAY_DETAIL, CODE(KEY_PPAGE), "PgUp", detail_scroll,
	  .arg = -PAGE },
	{ OVERLAY_DETAIL, CODE(KEY_NPAGE), "PgDn", detail_scroll,
	  .arg = PAGE },

	{ OVERLAY_FILTER, CH(27), "Esc", .action = filter_clear },
	{ OVERLAY_FILTER, CODE(KEY_F(4)), "F4", .action = filter_close },
	{ OVERLAY_FILTER, CH('\n'), "Enter", .action = filter_enter },
	{ OVERLAY_GOTO, CH(27), "Esc", .action = close_overlay },
	{ OVERLAY_GOTO, CODE(KEY_F(4)), "F4", .action = close_overlay },
	{ OVERLAY_GOTO, CH('\n'), "Enter", .action = goto_enter },
	{ KEYS_EDIT, CODE(KEY_BACKSPACE), "Backspace", .action = edit_erase },
	{ KEYS_EDIT, CH(127), NULL, .action = edit_erase },
	{ KEYS_EDIT, CH(8), NULL, .action = edit_erase },
	{ KEYS_EDIT, CH(21), "Ctrl-U", .action = edit_clear },
	{ KEYS_EDIT, ANYCHAR, NULL, .action = edit_insert },
};
const size_t nkeys = sizeof(keys) / sizeof(keys[0]);

/* --- reading the table ---------------------------------------------- */

static int key_is(const struct key *k, int is_key, wint_t ch)
{
	switch (k->kind) {
	case K_CHAR:
		return !is_key && k->ch == ch;
	case K_CODE:
		return is_key && k->ch == ch;
	case K_ANYCHAR:
		return !is_key;
	default:
		return 1;
	}
}

/* The first entry of @where for the key that acts: 1, or 0 if none. */
static int press(struct tui *t, int where, int is_key, wint_t ch)
{
	for (size_t i = 0; i < nkeys; i++) {
		const struct key *k = &keys[i];

		if (k->where == where && key_is(k, is_key, ch) &&
		    k->action(t, k->kind == K_CHAR || k->kind == K_CODE ?
				 k->arg : (int)ch))
			return 1;
	}
	return 0;
}

void tui_key(struct tui *t, int is_key, wint_t ch)
{
	int where = t->ui.overlay;

	/* Enter, whether the keypad or the terminal's CR (nonl()) */
	if ((is_key && ch == KEY_ENTER) || (!is_key && ch == '\r')) {
		is_key = 0;
		ch = '\n';
	}
	if (press(t, KEYS_ALWAYS, is_key, ch))
		return;
	while (!press(t, where, is_key, ch)) {
		if (where == OVERLAY_DETAIL)
			where = OVERLAY_NONE;	/* z, d, l and the others */
		else if (where == OVERLAY_FILTER || where == OVERLAY_GOTO)
			where = KEYS_EDIT;
		else
			return;
	}
}

int keys_by_name(const char *name, int *is_key, wint_t *ch)
{
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i].name && !strcmp(keys[i].name, name) &&
		    (keys[i].kind == K_CHAR || keys[i].kind == K_CODE)) {
			*is_key = keys[i].kind == K_CODE;
			*ch = keys[i].ch;
			return 0;
		}
	return -1;
}

/* @a and @b share a line of help. */
static int same_help(const struct key *a, const struct key *b)
{
	return a->help && b->help && !strcmp(a->help, b->help);
}

/* Whether the help has a line of @k's: a key of the table's. */
static int in_help(const struct key *k)
{
	return k->help && (k->where == OVERLAY_NONE || k->where == KEYS_ALWAYS);
}

#define HELP_KEYS_MAX 32

int keys_help(const char *lines[][2], int n)
{
	/* joined and translated once, as the column titles */
	static char names[HELP_KEYS_MAX][32];
	static const char *texts[HELP_KEYS_MAX];
	static int count, built;

	for (size_t i = 0; !built && i < nkeys; i++) {
		size_t len;

		if (!in_help(&keys[i]))
			continue;
		if (count && same_help(&keys[i - 1], &keys[i])) {
			len = strlen(names[count - 1]);
			snprintf(names[count - 1] + len, sizeof(names[0]) - len,
				 " %s", _(keys[i].name));
		} else if (count < HELP_KEYS_MAX) {
			snprintf(names[count], sizeof(names[0]), "%s",
				 _(keys[i].name));
			texts[count++] = _(keys[i].help);
		}
	}
	built = 1;
	if (n > count)
		n = count;
	for (int i = 0; i < n; i++) {
		lines[i][0] = names[i];
		lines[i][1] = texts[i];
	}
	return n;
}

size_t keys_hints(const struct key_hint **hints)
{
	/* the names of the keys of a place, run together ("+-") */
	static char names[KEYS_HINTS_MAX][16];
	static struct key_hint hint[KEYS_HINTS_MAX];
	static size_t count;

	for (size_t i = 0; !count && i < nkeys; i++) {
		unsigned int at = keys[i].hint_at;
		size_t len;

		if (!at || at > KEYS_HINTS_MAX)
			continue;
		len = strlen(names[at - 1]);
		snprintf(names[at - 1] + len, sizeof(names[0]) - len, "%s",
			 keys[i].name);
		hint[at - 1] = (struct key_hint){ names[at - 1], keys[i].hint };
	}
	if (!count)
		while (count < KEYS_HINTS_MAX && hint[count].key)
			count++;
	*hints = hint;
	return count;
}
