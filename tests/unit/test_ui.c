// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ui.c - the state of csftop's screen without a terminal (src/ui.c):
 * the selection follows its thread, the process rows and their unfolded
 * threads, the overlays, the prompt line and the message.  Synthetic
 * samples on CSF_CLOCK_MONO ticks (ns): no pages, no curses.
 */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "src/model.h"
#include "src/ui.h"
#include "unit.h"

#define MS 1000000ull
#define SEC 1000000000ull

static uint64_t ident(uint64_t ticks)
{
	return ticks;
}

/*
 * Two processes: 10 (threads 10, 11, 12) and 20 (threads 20, 21); thread
 * @tid ran tid % 7 * 10 ms of the second's interval, so that sorting on
 * RUN% orders them 20, 12, 11, 10, 21 (and the processes 10, 20).
 */
static const uint32_t tids[] = { 10, 11, 12, 20, 21 };
#define NT (sizeof(tids) / sizeof(tids[0]))

static void sample(struct model *m, uint64_t at)
{
	struct csf_snap s[NT];

	memset(s, 0, sizeof(s));
	for (size_t k = 0; k < NT; k++) {
		s[k].tid = tids[k];
		s[k].tgid = tids[k] / 10 * 10;
		s[k].registered_at = 1;
		s[k].now = at;
		s[k].state = CSF_STATE_SLEEPING;
		s[k].time[CSF_STATE_RUNNING] = at / SEC * (tids[k] % 7) * 10 *
					       MS;
		snprintf(s[k].comm, sizeof(s[k].comm), "t%u", tids[k]);
	}
	ck_assert_int_eq(model_sample(m, s, NULL, NT, NULL, 0, at), 0);
}

static void setup(struct ui *ui, struct model *m)
{
	memset(ui, 0, sizeof(*ui));
	model_init(m, ident);
	sample(m, SEC);
	sample(m, 2 * SEC);
	ui->model = m;
	ui_set_sort(ui, COL_TID);
	ck_assert_int_eq(ui_select(ui), 0);
}

static void teardown(struct ui *ui, struct model *m)
{
	ui_free(ui);
	model_free(m);
}

/* The tid of the row shown at @i. */
static uint32_t shown(const struct ui *ui, size_t i)
{
	ck_assert_uint_lt(i, ui->nidx);
	return ui_screen(ui)->rows[ui->idx[i]].snap.tid;
}

static uint32_t selected(const struct ui *ui)
{
	return shown(ui, ui->sel);
}

START_TEST(test_selection_follows_its_thread)
{
	struct model m;
	struct ui ui;

	setup(&ui, &m);
	ui_move(&ui, 2);
	ck_assert_uint_eq(selected(&ui), 12);
	ui_set_sort(&ui, COL_RUN_PCT);		/* descending */
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(shown(&ui, 0), 20);
	ck_assert_uint_eq(ui.sel, 1);
	ck_assert_uint_eq(selected(&ui), 12);
	/* a new sample does not move it either */
	sample(&m, 3 * SEC);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(selected(&ui), 12);
	teardown(&ui, &m);
}
END_TEST

START_TEST(test_selection_kept_in_the_table)
{
	struct model m;
	struct ui ui;

	setup(&ui, &m);
	ui_move(&ui, -3);
	ck_assert_uint_eq(ui.sel, 0);
	ui_move(&ui, 100);
	ck_assert_uint_eq(ui.sel, NT - 1);
	ck_assert_uint_eq(selected(&ui), 21);
	/* its thread filtered away: the last row shown */
	ck_assert_int_eq(filter_set(&ui.filter, "t1"), 0);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(ui.nidx, 3);
	ck_assert_uint_eq(selected(&ui), 12);
	teardown(&ui, &m);
}
END_TEST

START_TEST(test_processes_keep_the_selection)
{
	struct model m;
	struct ui ui;

	setup(&ui, &m);
	ui_move(&ui, 1);			/* thread 11 */
	ui_toggle_processes(&ui);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(ui.nidx, 2);
	ck_assert(ui_screen(&ui)->rows[ui.idx[ui.sel]].flags & ROW_PROCESS);
	ck_assert_uint_eq(selected(&ui), 10);	/* its process */
	ui_move(&ui, 1);
	ui_toggle_processes(&ui);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(selected(&ui), 20);	/* the process's main thread */
	/* a thread shown under its process: that thread */
	ui_toggle_processes(&ui);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_int_eq(ui_toggle_fold(&ui), 0);
	ck_assert_int_eq(ui_select(&ui), 0);
	ui_move(&ui, 2);
	ck_assert_uint_eq(selected(&ui), 21);
	ui_toggle_processes(&ui);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(selected(&ui), 21);
	teardown(&ui, &m);
}
END_TEST

START_TEST(test_fold_shows_threads_under_their_process)
{
	struct model m;
	struct ui ui;

	setup(&ui, &m);
	/* only on a process row */
	ck_assert_int_eq(ui_toggle_fold(&ui), -1);
	ui_toggle_processes(&ui);
	ui_set_sort(&ui, COL_RUN_PCT);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(selected(&ui), 10);
	ck_assert_int_eq(ui_toggle_fold(&ui), 0);
	ck_assert_int_eq(ui_select(&ui), 0);
	/* 10's threads after it, sorted as the processes are, then 20 */
	ck_assert_uint_eq(ui.nidx, 5);
	ck_assert_uint_eq(shown(&ui, 1), 12);
	ck_assert_uint_eq(shown(&ui, 2), 11);
	ck_assert_uint_eq(shown(&ui, 3), 10);
	ck_assert_uint_eq(shown(&ui, 4), 20);
	ck_assert(ui_screen(&ui)->rows[ui.idx[1]].flags & ROW_CHILD);
	ck_assert(!(ui_screen(&ui)->rows[ui.idx[4]].flags & ROW_CHILD));
	/* a thread under its process is no process to fold */
	ui_move(&ui, 1);
	ck_assert_int_eq(ui_toggle_fold(&ui), -1);
	ui_move(&ui, -1);
	ck_assert_int_eq(ui_toggle_fold(&ui), 0);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_uint_eq(ui.nidx, 2);
	teardown(&ui, &m);
}
END_TEST

START_TEST(test_detail_only_of_a_thread)
{
	struct model m;
	struct ui ui;

	setup(&ui, &m);
	ui_toggle_processes(&ui);
	ck_assert_int_eq(ui_select(&ui), 0);
	ck_assert_int_eq(ui_detail_open(&ui), -1);
	ck_assert_int_eq(ui.overlay, OVERLAY_NONE);
	ui_toggle_processes(&ui);
	ck_assert_int_eq(ui_select(&ui), 0);
	ui_move(&ui, 1);
	ck_assert_int_eq(ui_detail_open(&ui), 0);
	ck_assert_int_eq(ui.overlay, OVERLAY_DETAIL);
	ck_assert_uint_eq(ui.detail_tid, 11);
	ck_assert_int_eq(ui.detail_span, HIST_SPAN);
	ui_detail_scroll(&ui, 3);
	ui_detail_toggle_span(&ui);
	ck_assert_int_eq(ui.detail_span, HIST_SINCE);
	ck_assert_int_eq(ui.detail_top, 0);
	ui_detail_scroll(&ui, -1);
	ck_assert_int_eq(ui.detail_top, 0);
	teardown(&ui, &m);
}
END_TEST

START_TEST(test_mouse_finds_what_the_frame_drew)
{
	struct model m;
	struct ui ui;

	setup(&ui, &m);
	/* as a frame would have drawn it: titles on line 5, 3 rows */
	ui.table_y = 5;
	ui.body_lines = 3;
	ui.col_shown[COL_PID] = ui.col_shown[COL_TID] = 1;
	ui.col_x[COL_PID] = 2;
	ui.col_w[COL_PID] = 7;
	ui.col_x[COL_TID] = 10;
	ui.col_w[COL_TID] = 7;
	ck_assert_int_eq(ui_column_at(&ui, 5, 12), COL_TID);
	ck_assert_int_eq(ui_column_at(&ui, 5, 2), COL_PID);
	ck_assert_int_eq(ui_column_at(&ui, 6, 12), -1);
	ck_assert_int_eq(ui_column_at(&ui, 5, 40), -1);
	ck_assert_int_eq(ui_row_at(&ui, 8), 1);
	ck_assert_uint_eq(ui.sel, 2);
	ck_assert_int_eq(ui_row_at(&ui, 9), 0);	/* below the rows */
	ck_assert_int_eq(ui_row_at(&ui, 5), 0);	/* the titles */
	ck_assert_uint_eq(ui.sel, 2);
	teardown(&ui, &m);
}
END_TEST

START_TEST(test_overlays_open_and_scroll)
{
	struct ui ui;

	memset(&ui, 0, sizeof(ui));
	ui.sort_col = COL_WAKEUPS;
	ui_open(&ui, OVERLAY_SORT);
	ck_assert_int_eq(ui.overlay, OVERLAY_SORT);
	ck_assert_int_eq(ui.sort_menu_sel, COL_WAKEUPS);
	ui_sort_menu_move(&ui, COL_NR);
	ck_assert_int_eq(ui.sort_menu_sel, COL_NR - 1);
	ui_sort_menu_move(&ui, -COL_NR - 5);
	ck_assert_int_eq(ui.sort_menu_sel, 0);

	ui.help_top = 7;
	ui_open(&ui, OVERLAY_HELP);
	ck_assert_int_eq(ui.help_top, 0);
	ui.help_lines = 40;
	ck_assert_int_eq(ui_help_scroll(&ui, 100, 30), 10);
	ck_assert_int_eq(ui_help_scroll(&ui, -3, 30), 7);
	ck_assert_int_eq(ui_help_scroll(&ui, -30, 30), 0);
	ck_assert_int_eq(ui_help_scroll(&ui, 5, 50), 0);	/* all shown */
	ui_open(&ui, OVERLAY_NONE);
	ck_assert_int_eq(ui.overlay, OVERLAY_NONE);
}
END_TEST

START_TEST(test_prompt_line_edits_the_filter)
{
	struct ui ui;
	char text[64];
	const wint_t chars[] = { L'1', L'2', L',' };

	memset(&ui, 0, sizeof(ui));
	ck_assert_int_eq(filter_set(&ui.filter, "spin"), 0);
	ui_open(&ui, OVERLAY_FILTER);
	ck_assert_int_eq(ui_edit_text(&ui, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "spin");
	ui_edit_clear(&ui);
	for (size_t i = 0; i < sizeof(chars) / sizeof(chars[0]); i++)
		ck_assert_int_eq(ui_edit_insert(&ui, chars[i]), 1);
	ck_assert_int_eq(ui_edit_insert(&ui, L'\t'), 0);
	/* an unfinished PID list keeps the filter as it was */
	ck_assert_int_eq(ui_filter_from_edit(&ui), -EINVAL);
	ck_assert_str_eq(ui.filter.text, "spin");
	ui_edit_erase(&ui);
	ck_assert_int_eq(ui_filter_from_edit(&ui), 0);
	ck_assert_uint_eq(ui.filter.npids, 1);
	ck_assert_int_eq(ui.filter.pids[0], 12);
	/* full: no more */
	ui_edit_clear(&ui);
	ui_edit_erase(&ui);
	while (ui_edit_insert(&ui, L'x'))
		;
	ck_assert_uint_eq(ui.edit_len,
			  sizeof(ui.edit) / sizeof(ui.edit[0]) - 1);
	ui_open(&ui, OVERLAY_GOTO);
	ck_assert_uint_eq(ui.edit_len, 0);
}
END_TEST

START_TEST(test_message_shown_for_its_time)
{
	struct ui ui;

	memset(&ui, 0, sizeof(ui));
	ui_set_now(&ui, 5 * SEC);
	ui_message(&ui, "Speed: %ux", 4u);
	ck_assert_str_eq(ui.msg, "Speed: 4x");
	ui_set_now(&ui, 5 * SEC + UI_MESSAGE_NS - 1);
	ck_assert_str_eq(ui.msg, "Speed: 4x");
	ui_set_now(&ui, 5 * SEC + UI_MESSAGE_NS);
	ck_assert_str_eq(ui.msg, "");
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_selection_follows_its_thread,
		test_selection_kept_in_the_table,
		test_processes_keep_the_selection,
		test_fold_shows_threads_under_their_process,
		test_detail_only_of_a_thread,
		test_mouse_finds_what_the_frame_drew,
		test_overlays_open_and_scroll,
		test_prompt_line_edits_the_filter,
		test_message_shown_for_its_time,
		NULL,
	};

	return unit_run_tests("ui", tests);
}
