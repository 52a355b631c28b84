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

/* --- the table ------------------------------------------------------ */

static int quit(struct tui *t, wint_t ch)
{
	(void)ch;
	t->quit = 1;
	return 1;
}

static int open_help(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_open(&t->ui, OVERLAY_HELP);
	return 1;
}

static int open_sort_menu(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_open(&t->ui, OVERLAY_SORT);
	return 1;
}

static int open_filter(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_open(&t->ui, OVERLAY_FILTER);
	return 1;
}

static void set_sort(struct tui *t, int col)
{
	ui_set_sort(&t->ui, (enum col)col);
	tui_refresh_view(t);
}

static int sort_prev(struct tui *t, wint_t ch)
{
	(void)ch;
	set_sort(t, ((int)t->ui.sort_col + COL_NR - 1) % COL_NR);
	return 1;
}

static int sort_next(struct tui *t, wint_t ch)
{
	(void)ch;
	set_sort(t, ((int)t->ui.sort_col + 1) % COL_NR);
	return 1;
}

static int invert(struct tui *t, wint_t ch)
{
	(void)ch;
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

static int click(struct tui *t, wint_t ch)
{
	MEVENT ev;

	(void)ch;
	if (getmouse(&ev) == OK &&
	    (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		tui_click(t, ev.x, ev.y);
	return 1;
}

static int freeze(struct tui *t, wint_t ch)
{
	(void)ch;
	if (t->model.mode == MODE_LIVE) {
		if (model_freeze(&t->model)) {
			t->error = -ENOMEM;
			return 1;
		}
		ui_message(&t->ui, "%s", _("Frozen as A: z live, d diff later"));
	} else {
		model_live(&t->model);
		ui_message(&t->ui, "%s", _("Live"));
	}
	tui_refresh_view(t);
	return 1;
}

static int diff(struct tui *t, wint_t ch)
{
	int r = model_diff(&t->model);

	(void)ch;
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

static int live(struct tui *t, wint_t ch)
{
	(void)ch;
	if (t->model.mode != MODE_LIVE) {
		model_live(&t->model);
		ui_message(&t->ui, "%s", _("Live"));
		tui_refresh_view(t);
	}
	return 1;
}

static int processes(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_toggle_processes(&t->ui);
	tui_refresh_view(t);
	return 1;
}

/* Enter on a process: its threads shown or hidden. */
static int fold(struct tui *t, wint_t ch)
{
	(void)ch;
	if (ui_toggle_fold(&t->ui))
		return 0;
	tui_refresh_view(t);
	return 1;
}

/* Enter on a thread: its waits. */
static int waits(struct tui *t, wint_t ch)
{
	(void)ch;
	if (ui_detail_open(&t->ui))
		ui_message(&t->ui, "%s", _("No thread selected"));
	return 1;
}

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
	ui_message(&t->ui, _("Interval: %s"),
		   FMT_STR(buf, fmt_interval, (uint64_t)next * 1000000));
}

static int longer(struct tui *t, wint_t ch)
{
	(void)ch;
	set_interval(t, 0);
	return 1;
}

static int shorter(struct tui *t, wint_t ch)
{
	(void)ch;
	set_interval(t, 1);
	return 1;
}

/* A replay's own key, when replaying. */
static int replay(struct tui *t, wint_t ch)
{
	return tui_replay_key(t, ch);
}

/* A key only a replay has. */
static int replay_only(struct tui *t, wint_t ch)
{
	if (!tui_replay_key(t, ch))
		ui_message(&t->ui, "%s", _("Only when replaying an archive (-a)"));
	return 1;
}

static int open_goto(struct tui *t, wint_t ch)
{
	(void)ch;
	if (!t->rp)
		return replay_only(t, ch);
	ui_open(&t->ui, OVERLAY_GOTO);
	return 1;
}

static int up(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_move(&t->ui, -1);
	return 1;
}

static int down(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_move(&t->ui, 1);
	return 1;
}

static int page_up(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_move(&t->ui, -(t->ui.body_lines ? t->ui.body_lines : 1));
	return 1;
}

static int page_down(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_move(&t->ui, t->ui.body_lines ? t->ui.body_lines : 1);
	return 1;
}

static int home(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_move(&t->ui, -(long)t->ui.nidx);
	return 1;
}

static int end(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_move(&t->ui, (long)t->ui.nidx);
	return 1;
}

static int redraw(struct tui *t, wint_t ch)
{
	(void)t;
	(void)ch;
	clearok(curscr, TRUE);
	return 1;
}

static int nothing(struct tui *t, wint_t ch)
{
	(void)t;
	(void)ch;
	return 1;
}

/* --- overlays ------------------------------------------------------- */

static int close_overlay(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_open(&t->ui, OVERLAY_NONE);
	return 1;
}

static int help_scroll(struct tui *t, int delta)
{
	ui_help_scroll(&t->ui, delta, LINES - 3);
	return 1;
}

static int help_up(struct tui *t, wint_t ch)
{
	(void)ch;
	return help_scroll(t, -1);
}

static int help_down(struct tui *t, wint_t ch)
{
	(void)ch;
	return help_scroll(t, 1);
}

static int help_page_up(struct tui *t, wint_t ch)
{
	(void)ch;
	return help_scroll(t, 3 - LINES);
}

static int help_page_down(struct tui *t, wint_t ch)
{
	(void)ch;
	return help_scroll(t, LINES - 3);
}

static int menu_up(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_sort_menu_move(&t->ui, -1);
	return 1;
}

static int menu_down(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_sort_menu_move(&t->ui, 1);
	return 1;
}

static int menu_home(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_sort_menu_move(&t->ui, -COL_NR);
	return 1;
}

static int menu_end(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_sort_menu_move(&t->ui, COL_NR);
	return 1;
}

static int menu_pick(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_open(&t->ui, OVERLAY_NONE);
	set_sort(t, t->ui.sort_menu_sel);
	return 1;
}

static int detail_span(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_detail_toggle_span(&t->ui);
	return 1;
}

static int detail_up(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_detail_scroll(&t->ui, -1);
	return 1;
}

static int detail_down(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_detail_scroll(&t->ui, 1);
	return 1;
}

static int detail_page_up(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_detail_scroll(&t->ui, 5 - LINES);
	return 1;
}

static int detail_page_down(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_detail_scroll(&t->ui, LINES - 5);
	return 1;
}

/* Esc: the filter cleared, as in htop. */
static int filter_clear(struct tui *t, wint_t ch)
{
	(void)ch;
	memset(&t->ui.filter, 0, sizeof(t->ui.filter));
	ui_edit_clear(&t->ui);
	ui_open(&t->ui, OVERLAY_NONE);
	tui_refresh_view(t);
	return 1;
}

static int filter_close(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_open(&t->ui, OVERLAY_NONE);
	tui_refresh_view(t);
	return 1;
}

static int filter_enter(struct tui *t, wint_t ch)
{
	char text[256];

	if (ui_filter_from_edit(&t->ui) == -EINVAL) {
		ui_edit_text(&t->ui, text, sizeof(text));
		ui_message(&t->ui, _("Invalid PID list '%s'"), text);
		return 1;
	}
	return filter_close(t, ch);
}

static int goto_enter(struct tui *t, wint_t ch)
{
	char text[256], why[160] = "";

	(void)ch;
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

static int edit_erase(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_edit_erase(&t->ui);
	return edited(t);
}

static int edit_clear(struct tui *t, wint_t ch)
{
	(void)ch;
	ui_edit_clear(&t->ui);
	return edited(t);
}

static int edit_insert(struct tui *t, wint_t ch)
{
	return ui_edit_insert(&t->ui, ch) ? edited(t) : 1;
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
	{ OVERLAY_NONE, CODE(KEY_F(1)), "F1", H_HELP, N_("Help"), 1,
	  open_help },
	{ OVERLAY_NONE, CH('h'), "h", H_HELP, NULL, 0, open_help },
	{ OVERLAY_NONE, CH('?'), "?", H_HELP, NULL, 0, open_help },
	{ OVERLAY_NONE, CODE(KEY_F(6)), "F6",
	  N_("choose the sort column from a list"), N_("SortBy"), 3,
	  open_sort_menu },
	{ OVERLAY_NONE, CH('<'), "<", H_SORT, NULL, 0, sort_prev },
	{ OVERLAY_NONE, CH('>'), ">", H_SORT, NULL, 0, sort_next },
	{ OVERLAY_NONE, CH('I'), "I", N_("invert the sort order"),
	  N_("Invert"), 4, invert },
	{ KEYS_ALWAYS, CODE(KEY_MOUSE), N_("click"),
	  N_("sort on a column by clicking its title"), NULL, 0, click },
	{ OVERLAY_NONE, CODE(KEY_F(4)), "F4", H_FILTER, N_("Filter"), 2,
	  open_filter },
	{ OVERLAY_NONE, CH('\\'), "\\", H_FILTER, NULL, 0, open_filter },
	{ OVERLAY_NONE, CH('z'), "z", H_FREEZE, N_("Freeze"), 5, freeze },
	{ OVERLAY_NONE, CH(' '), "Space", H_FREEZE, NULL, 0, freeze },
	{ OVERLAY_NONE, CH('d'), "d",
	  N_("diff: B minus the frozen screen A; d again: new B"),
	  N_("Diff"), 6, diff },
	{ OVERLAY_NONE, CH('l'), "l", H_LIVE, N_("Live"), 7, live },
	{ OVERLAY_NONE, CH(27), "Esc", H_LIVE, NULL, 0, live },
	{ OVERLAY_NONE, CH('H'), "H",
	  N_("a row per process, threads summed, or per thread"), NULL, 0,
	  processes },
	{ OVERLAY_NONE, CH('\n'), "Enter",
	  N_("on a process (H): its threads under it, or not"), NULL, 0,
	  fold },
	{ OVERLAY_NONE, CH('+'), "+", NULL, NULL, 0, replay },
	{ OVERLAY_NONE, CH('-'), "-", NULL, NULL, 0, replay },
	{ OVERLAY_NONE, CH('+'), "+", H_INTERVAL, N_("Interval"), 8, longer },
	{ OVERLAY_NONE, CH('-'), "-", H_INTERVAL, N_("Interval"), 8,
	  shorter },
	{ OVERLAY_NONE, CH('['), "[", H_STEP, NULL, 0, replay_only },
	{ OVERLAY_NONE, CH(']'), "]", H_STEP, NULL, 0, replay_only },
	{ OVERLAY_NONE, CH('g'), "g",
	  N_("replay: go to a time (PCP's syntax, as -S)"), NULL, 0,
	  open_goto },
	{ OVERLAY_NONE, CH('p'), "p",
	  N_("replay: play or pause; + - play faster / slower"), NULL, 0,
	  replay_only },
	{ OVERLAY_NONE, CODE(KEY_UP), "Up", H_MOVE, NULL, 0, up },
	{ OVERLAY_NONE, CODE(KEY_DOWN), "Down", H_MOVE, NULL, 0, down },
	{ OVERLAY_NONE, CODE(KEY_PPAGE), "PgUp", H_MOVE, NULL, 0, page_up },
	{ OVERLAY_NONE, CODE(KEY_NPAGE), "PgDn", H_MOVE, NULL, 0, page_down },
	{ OVERLAY_NONE, CODE(KEY_HOME), "Home", H_MOVE, NULL, 0, home },
	{ OVERLAY_NONE, CODE(KEY_END), "End", H_MOVE, NULL, 0, end },
	{ OVERLAY_NONE, CH('\n'), "Enter",
	  N_("the selected thread's waits: histograms, waker, preemptor; "
	     "Tab: since registration"), N_("Waits"), 10, waits },
	{ OVERLAY_NONE, CH(12), "Ctrl-L", N_("redraw"), NULL, 0, redraw },
	{ OVERLAY_NONE, CH('q'), "q", H_QUIT, NULL, 0, quit },
	{ OVERLAY_NONE, CODE(KEY_F(10)), "F10", H_QUIT, N_("Quit"), 9, quit },
	/* ncurses has LINES and COLS already */
	{ KEYS_ALWAYS, CODE(KEY_RESIZE), NULL, NULL, NULL, 0, nothing },

	{ OVERLAY_HELP, CODE(KEY_UP), "Up", NULL, NULL, 0, help_up },
	{ OVERLAY_HELP, CODE(KEY_DOWN), "Down", NULL, NULL, 0, help_down },
	{ OVERLAY_HELP, CODE(KEY_PPAGE), "PgUp", NULL, NULL, 0, help_page_up },
	{ OVERLAY_HELP, CODE(KEY_NPAGE), "PgDn", NULL, NULL, 0,
	  help_page_down },
	{ OVERLAY_HELP, CH(' '), "Space", NULL, NULL, 0, help_page_down },
	{ OVERLAY_HELP, ANY, NULL, NULL, NULL, 0, close_overlay },

	{ OVERLAY_SORT, CODE(KEY_UP), "Up", NULL, NULL, 0, menu_up },
	{ OVERLAY_SORT, CODE(KEY_DOWN), "Down", NULL, NULL, 0, menu_down },
	{ OVERLAY_SORT, CODE(KEY_HOME), "Home", NULL, NULL, 0, menu_home },
	{ OVERLAY_SORT, CODE(KEY_END), "End", NULL, NULL, 0, menu_end },
	{ OVERLAY_SORT, CH('\n'), "Enter", NULL, NULL, 0, menu_pick },
	{ OVERLAY_SORT, CH(27), "Esc", NULL, NULL, 0, close_overlay },
	{ OVERLAY_SORT, CH('q'), "q", NULL, NULL, 0, close_overlay },
	{ OVERLAY_SORT, CODE(KEY_F(6)), "F6", NULL, NULL, 0, close_overlay },

	{ OVERLAY_DETAIL, CH(27), "Esc", NULL, NULL, 0, close_overlay },
	{ OVERLAY_DETAIL, CH('q'), "q", NULL, NULL, 0, close_overlay },
	{ OVERLAY_DETAIL, CH('\n'), "Enter", NULL, NULL, 0, close_overlay },
	{ OVERLAY_DETAIL, CODE(KEY_BACKSPACE), "Backspace", NULL, NULL, 0,
	  close_overlay },
	{ OVERLAY_DETAIL, CH('\t'), "Tab", NULL, NULL, 0, detail_span },
	{ OVERLAY_DETAIL, CODE(KEY_UP), "Up", NULL, NULL, 0, detail_up },
	{ OVERLAY_DETAIL, CODE(KEY_DOWN), "Down", NULL, NULL, 0,
	  detail_down },
	{ OVERLAY_DETAIL, CODE(KEY_PPAGE), "PgUp", NULL, NULL, 0,
	  detail_page_up },
	{ OVERLAY_DETAIL, CODE(KEY_NPAGE), "PgDn", NULL, NULL, 0,
	  detail_page_down },

	{ OVERLAY_FILTER, CH(27), "Esc", NULL, NULL, 0, filter_clear },
	{ OVERLAY_FILTER, CODE(KEY_F(4)), "F4", NULL, NULL, 0, filter_close },
	{ OVERLAY_FILTER, CH('\n'), "Enter", NULL, NULL, 0, filter_enter },
	{ OVERLAY_GOTO, CH(27), "Esc", NULL, NULL, 0, close_overlay },
	{ OVERLAY_GOTO, CODE(KEY_F(4)), "F4", NULL, NULL, 0, close_overlay },
	{ OVERLAY_GOTO, CH('\n'), "Enter", NULL, NULL, 0, goto_enter },
	{ KEYS_EDIT, CODE(KEY_BACKSPACE), "Backspace", NULL, NULL, 0,
	  edit_erase },
	{ KEYS_EDIT, CH(127), NULL, NULL, NULL, 0, edit_erase },
	{ KEYS_EDIT, CH(8), NULL, NULL, NULL, 0, edit_erase },
	{ KEYS_EDIT, CH(21), "Ctrl-U", NULL, NULL, 0, edit_clear },
	{ KEYS_EDIT, ANYCHAR, NULL, NULL, NULL, 0, edit_insert },
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
	for (size_t i = 0; i < nkeys; i++)
		if (keys[i].where == where && key_is(&keys[i], is_key, ch) &&
		    keys[i].action(t, ch))
			return 1;
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
