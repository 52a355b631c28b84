// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ui.c - the screen's state: see ui.h.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "ui.h"

/* --- the table's rows ----------------------------------------------- */

const struct screen *ui_screen(const struct ui *ui)
{
	return ui->processes ? &ui->procs.s : model_shown(ui->model);
}

static const struct row *selected_row(const struct ui *ui)
{
	if (!ui->nidx || ui->sel >= ui->nidx)
		return NULL;
	return &ui_screen(ui)->rows[ui->idx[ui->sel]];
}

/* The selection is on @r now. */
static void select_row(struct ui *ui, const struct row *r)
{
	ui->sel_tid = r->snap.tid;
	ui->sel_child = !!(r->flags & ROW_CHILD);
}

void ui_toggle_processes(struct ui *ui)
{
	const struct row *r = selected_row(ui);

	/* a thread's process; a process's main thread, or the thread */
	if (r) {
		ui->sel_tid = ui->processes && (r->flags & ROW_CHILD) ?
			      r->snap.tid : r->snap.tgid;
		ui->sel_child = 0;
	}
	ui->processes = !ui->processes;
}

static size_t unfolded_at(const struct ui *ui, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < ui->nunfolded; i++)
		if (ui->unfolded[i] == tgid)
			break;
	return i;
}

int ui_toggle_fold(struct ui *ui)
{
	const struct row *r = selected_row(ui);
	size_t i;

	if (!ui->processes || !r || (r->flags & ROW_CHILD))
		return -1;
	i = unfolded_at(ui, r->snap.tgid);
	if (i < ui->nunfolded) {
		ui->unfolded[i] = ui->unfolded[--ui->nunfolded];
		return 0;
	}
	if (ui->nunfolded == ui->unfolded_cap) {
		size_t cap = ui->unfolded_cap ? 2 * ui->unfolded_cap : 8;
		uint32_t *u = realloc(ui->unfolded, cap * sizeof(*u));

		if (!u)
			return -1;
		ui->unfolded = u;
		ui->unfolded_cap = cap;
	}
	ui->unfolded[ui->nunfolded++] = r->snap.tgid;
	return 0;
}

/*
 * After each unfolded process of ui->idx, its threads in the same order,
 * appended to the process screen's rows: the order in fold_idx, then
 * swapped into idx.
 */
static int unfold(struct ui *ui)
{
	const struct screen *threads = model_shown(ui->model);
	struct screen *s = &ui->procs.s;
	size_t n = 0;

	if (model_idx_reserve(&ui->fold_idx, &ui->fold_cap,
			ui->nidx + threads->nrows))
		return -1;
	for (size_t i = 0; i < ui->nidx; i++) {
		uint32_t tgid = s->rows[ui->idx[i]].snap.tgid;
		struct screen sub;
		size_t first = s->nrows;
		long k;

		ui->fold_idx[n++] = ui->idx[i];
		if (unfolded_at(ui, tgid) == ui->nunfolded)
			continue;
		k = model_processes_threads(threads, &ui->procs, tgid);
		if (k < 0)
			return -1;
		/* its threads, sorted as the processes are */
		sub = *s;
		sub.rows = s->rows + first;
		sub.nrows = (size_t)k;
		k = (long)select_rows(&sub, NULL, ui->sort_col, ui->sort_desc,
				       ui->fold_idx + n);
		for (long j = 0; j < k; j++)
			ui->fold_idx[n + (size_t)j] += first;
		n += (size_t)k;
	}
	if (model_idx_reserve(&ui->idx, &ui->idx_cap, n))
		return -1;
	memcpy(ui->idx, ui->fold_idx, n * sizeof(*ui->idx));
	ui->nidx = n;
	return 0;
}

int ui_select(struct ui *ui)
{
	const struct screen *s = model_shown(ui->model);

	/*
	 * Every row's waits only to sort on them or for the detail view;
	 * the table's rows get theirs as they are drawn (table_draw()).
	 */
	model_waits(ui->model, ui->overlay == OVERLAY_DETAIL ||
		    columns[ui->sort_col].waits);

	if (ui->processes) {
		if (model_processes(s, &ui->procs))
			return -1;
		s = &ui->procs.s;
	}
	if (model_idx_reserve(&ui->idx, &ui->idx_cap, s->nrows))
		return -1;
	ui->nidx = select_rows(s, &ui->filter, ui->sort_col, ui->sort_desc,
				ui->idx);
	if (ui->processes && ui->nunfolded && unfold(ui))
		return -1;
	/* keep the cursor on its row, wherever the sort moved it */
	for (size_t i = 0; i < ui->nidx; i++) {
		const struct row *r = &s->rows[ui->idx[i]];

		if (r->snap.tid == ui->sel_tid &&
		    !!(r->flags & ROW_CHILD) == ui->sel_child) {
			ui->sel = i;
			return 0;
		}
	}
	if (ui->sel >= ui->nidx)
		ui->sel = ui->nidx ? ui->nidx - 1 : 0;
	if (ui->nidx)
		select_row(ui, &s->rows[ui->idx[ui->sel]]);
	return 0;
}

void ui_move(struct ui *ui, long delta)
{
	long sel = (long)ui->sel + delta;

	if (!ui->nidx)
		return;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)ui->nidx)
		sel = (long)ui->nidx - 1;
	ui->sel = (size_t)sel;
	select_row(ui, selected_row(ui));
}

void ui_free(struct ui *ui)
{
	model_processes_free(&ui->procs);
	free(ui->unfolded);
	free(ui->fold_idx);
	free(ui->idx);
	ui->unfolded = NULL;
	ui->fold_idx = NULL;
	ui->idx = NULL;
	ui->nunfolded = ui->unfolded_cap = ui->fold_cap = 0;
	ui->idx_cap = ui->nidx = 0;
}

void ui_set_sort(struct ui *ui, enum col col)
{
	ui->sort_col = col;
	ui->sort_desc = columns[col].desc_first;
}

int ui_column_at(const struct ui *ui, int y, int x)
{
	if (y != ui->table_y)
		return -1;
	for (int c = 0; c < COL_NR; c++)
		if (ui->col_shown[c] && x >= ui->col_x[c] &&
		    x <= ui->col_x[c] + ui->col_w[c])
			return c;
	return -1;
}

int ui_row_at(struct ui *ui, int y)
{
	long i = y - ui->table_y - 1;

	if (i < 0 || i >= ui->body_lines || ui->top + (size_t)i >= ui->nidx)
		return 0;
	ui_move(ui, (long)(ui->top + (size_t)i) - (long)ui->sel);
	return 1;
}

/* --- overlays ------------------------------------------------------- */

void ui_open(struct ui *ui, enum ui_overlay overlay)
{
	size_t n;

	ui->overlay = overlay;
	switch (overlay) {
	case OVERLAY_HELP:
		ui->help_top = 0;
		break;
	case OVERLAY_SORT:
		ui->sort_menu_sel = (int)ui->sort_col;
		break;
	case OVERLAY_FILTER:
		n = mbstowcs(ui->edit, ui->filter.text,
			     sizeof(ui->edit) / sizeof(ui->edit[0]) - 1);
		ui->edit_len = n == (size_t)-1 ? 0 : n;
		break;
	case OVERLAY_GOTO:
		ui->edit_len = 0;
		break;
	default:
		break;
	}
}

void ui_sort_menu_move(struct ui *ui, int delta)
{
	int sel = ui->sort_menu_sel + delta;

	ui->sort_menu_sel = sel < 0 ? 0 : sel > COL_NR - 1 ? COL_NR - 1 : sel;
}

int ui_help_scroll(struct ui *ui, int delta, int room)
{
	int top = ui->help_top + delta;

	if (top > ui->help_lines - room)
		top = ui->help_lines - room;
	if (top < 0)
		top = 0;
	ui->help_top = top;
	return top;
}

int ui_detail_open(struct ui *ui)
{
	const struct row *r = selected_row(ui);

	/* a process row has no histograms of its own */
	if (!r || (ui->processes && !(r->flags & ROW_CHILD)))
		return -1;
	ui->detail_tid = r->snap.tid;
	ui->detail_span = HIST_SPAN;
	ui->detail_top = 0;
	ui->overlay = OVERLAY_DETAIL;
	model_waits(ui->model, 1);	/* its waker and preemptor */
	return 0;
}

void ui_detail_scroll(struct ui *ui, int delta)
{
	ui->detail_top += delta;
	if (ui->detail_top < 0)
		ui->detail_top = 0;
}

void ui_detail_toggle_span(struct ui *ui)
{
	ui->detail_span = ui->detail_span == HIST_SPAN ? HIST_SINCE : HIST_SPAN;
	ui->detail_top = 0;
}

/* --- the prompt line ------------------------------------------------ */

int ui_edit_text(const struct ui *ui, char *text, size_t len)
{
	wchar_t tmp[sizeof(ui->edit) / sizeof(ui->edit[0]) + 1];

	wmemcpy(tmp, ui->edit, ui->edit_len);
	tmp[ui->edit_len] = L'\0';
	return wcstombs(text, tmp, len) == (size_t)-1 ? -1 : 0;
}

int ui_edit_insert(struct ui *ui, wint_t ch)
{
	if (!iswprint(ch) ||
	    ui->edit_len >= sizeof(ui->edit) / sizeof(ui->edit[0]) - 1)
		return 0;
	ui->edit[ui->edit_len++] = (wchar_t)ch;
	return 1;
}

void ui_edit_erase(struct ui *ui)
{
	if (ui->edit_len)
		ui->edit_len--;
}

void ui_edit_clear(struct ui *ui)
{
	ui->edit_len = 0;
}

int ui_filter_from_edit(struct ui *ui)
{
	char text[256];

	if (ui_edit_text(ui, text, sizeof(text)))
		return -EILSEQ;
	return filter_set(&ui->filter, text);
}

/* --- the message ---------------------------------------------------- */

void ui_message(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_until_ns = ui->now_ns + UI_MESSAGE_NS;
}

void ui_set_now(struct ui *ui, uint64_t now_ns)
{
	ui->now_ns = now_ns;
	if (ui->msg[0] && now_ns >= ui->msg_until_ns)
		ui->msg[0] = '\0';
}
