// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui_archive.c - the screen's samples from a PCP archive (csftop -a):
 * played at its recorded step times a speed, paused, stepped, or sent to
 * a time, from source_archive.c's source.  Built with Performance Co-Pilot
 * only; the pages are tui.c's.
 */
#include <config.h>

#include <time.h>

#include "i18n.h"
#include "replay.h"
#include "tui.h"

/* Where the replay is, in the mode line instead of LIVE. */
static void set_place(struct tui *t)
{
	const struct source *in = t->in;
	uint64_t at = in->time_ns;
	time_t sec = (time_t)(at / 1000000000);
	struct tm tm;
	char when[64] = "?", how[32];

	if (localtime_r(&sec, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	t->ui.clock_name = _(in->clock_name);
	if (t->playing)
		snprintf(how, sizeof(how), _("playing %ux"), t->speed);
	else
		snprintf(how, sizeof(how), "%s", _("paused"));
	snprintf(t->ui.place, sizeof(t->ui.place), "%s.%03u %zu/%zu %s",
		 when, (unsigned int)(at / 1000000 % 1000), in->pos + 1,
		 in->rp->nsamples, how);
}

static void archive_setup(struct tui *t)
{
	t->playing = 1;
	t->ui.clock_name = _(t->in->clock_name);
	/* its step as the interval; set_place() names its clock */
	t->ui.interval_ms = (unsigned int)(t->in->rp->step_ns / 1000000);
}

static int archive_next(struct tui *t)
{
	int err = source_next(t->in, &t->model);

	if (err == 1) {
		t->playing = 0;
		ui_message(&t->ui, "%s", _("End of the archive"));
	}
	if (err >= 0)
		set_place(t);
	return err;
}

/* Show sample @k as a sample after the one before it would show it. */
static void replay_goto(struct tui *t, size_t k)
{
	int err = 0;

	model_restart(&t->model);
	if (k > 0)
		err = source_read(t->in, k - 1, &t->model);
	if (!err)
		err = source_read(t->in, k, &t->model);
	if (err) {
		t->error = err;
		return;
	}
	set_place(t);
	tui_refresh_view(t);
}

static void replay_key(struct tui *t, wint_t ch)
{
	const struct replay *rp = t->in->rp;
	size_t pos = t->in->pos;

	switch (ch) {
	case '[':
		t->playing = 0;
		if (pos > 0)
			replay_goto(t, pos - 1);
		else
			ui_message(&t->ui, "%s", _("Start of the archive"));
		break;
	case ']':
		t->playing = 0;
		tui_sample(t);
		break;
	case 'p':
		t->playing = !t->playing && pos + 1 < rp->nsamples;
		if (!t->playing && pos + 1 >= rp->nsamples)
			ui_message(&t->ui, "%s", _("End of the archive"));
		break;
	case '+':
		if (t->speed < 64)
			t->speed *= 2;
		ui_message(&t->ui, _("Speed: %ux"), t->speed);
		break;
	case '-':
		if (t->speed > 1)
			t->speed /= 2;
		ui_message(&t->ui, _("Speed: %ux"), t->speed);
		break;
	}
	t->next_ns = tui_now(t) + rp->step_ns / t->speed;
	set_place(t);
}

static int archive_key(struct tui *t, wint_t ch)
{
	if (ch != '[' && ch != ']' && ch != 'p' && ch != '+' && ch != '-')
		return 0;
	replay_key(t, ch);
	return 1;
}

static int archive_go_to(struct tui *t, const char *text, char *why,
			 size_t len)
{
	uint64_t at;

	if (replay_parse_time(t->in->rp, text, &at, why, len))
		return -1;
	ui_open(&t->ui, OVERLAY_NONE);
	t->playing = 0;
	replay_goto(t, replay_find(t->in->rp, at));
	return 0;
}

static uint64_t archive_period_ns(const struct tui *t)
{
	return t->in->rp->step_ns / t->speed;
}

static int archive_paused(const struct tui *t)
{
	return !t->playing;
}

const struct tui_source tui_archive = {
	.setup = archive_setup,
	.next = archive_next,
	.period_ns = archive_period_ns,
	.paused = archive_paused,
	.key = archive_key,
	.go_to = archive_go_to,
};
