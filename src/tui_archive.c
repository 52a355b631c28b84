// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui_archive.c - the screen's samples from a PCP archive (csftop -a):
 * played at its recorded step times a speed, paused, stepped, or sent to
 * a time.  Built with Performance Co-Pilot only; the pages are tui.c's.
 */
#include <config.h>

#include <time.h>

#include "i18n.h"
#include "replay.h"
#include "tui.h"

/* Give the model the archive's sample @k. */
static int feed(struct tui *t, size_t k)
{
	struct replay *rp = t->rp;
	int err;

	err = replay_read(rp, k);
	if (!err)
		err = model_sample(&t->model, rp->snaps, NULL, rp->nsnaps,
				   rp->cpus, rp->ncpus, replay_time(rp, k));
	if (!err)
		t->pos = k;
	return err;
}

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

static void archive_setup(struct tui *t)
{
	t->playing = 1;
	t->ui.clock_name = _(t->rp->clock);
	/* its step as the interval; set_place() names its clock */
	t->ui.interval_ms = (unsigned int)(t->rp->step_ns / 1000000);
}

static int archive_next(struct tui *t)
{
	size_t k = 0;
	int err;

	if (t->samples) {
		if (t->pos + 1 >= t->rp->nsamples) {
			t->playing = 0;
			ui_message(&t->ui, "%s", _("End of the archive"));
			set_place(t);
			return 1;
		}
		k = t->pos + 1;
	}
	err = feed(t, k);
	if (!err)
		set_place(t);
	return err;
}

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
			ui_message(&t->ui, "%s", _("Start of the archive"));
		break;
	case ']':
		t->playing = 0;
		tui_sample(t);
		break;
	case 'p':
		t->playing = !t->playing && t->pos + 1 < t->rp->nsamples;
		if (!t->playing && t->pos + 1 >= t->rp->nsamples)
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
	t->next_ns = tui_now(t) + t->rp->step_ns / t->speed;
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

	if (replay_parse_time(t->rp, text, &at, why, len))
		return -1;
	ui_open(&t->ui, OVERLAY_NONE);
	t->playing = 0;
	replay_goto(t, replay_find(t->rp, at));
	return 0;
}

static uint64_t archive_period_ns(const struct tui *t)
{
	return t->rp->step_ns / t->speed;
}

static int archive_paused(const struct tui *t)
{
	return !t->playing;
}

static const char *archive_strerror(int err)
{
	return replay_strerror(err);
}

static void archive_close(struct tui *t)
{
	replay_close(t->rp);
}

const struct tui_source tui_archive = {
	.to_ns = replay_to_ns,
	.setup = archive_setup,
	.next = archive_next,
	.period_ns = archive_period_ns,
	.paused = archive_paused,
	.key = archive_key,
	.go_to = archive_go_to,
	.strerror = archive_strerror,
	.close = archive_close,
};
