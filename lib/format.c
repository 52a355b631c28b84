// SPDX-License-Identifier: MIT
/*
 * format.c - differences of snapshots and their one-line rendering.
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

#include "internal.h"
#include "i18n.h"

static uint64_t csf_sub_clamp(uint64_t after, uint64_t before)
{
	return after > before ? after - before : 0;
}

/*
 * Refused: snapshots of two threads or of two registrations (a tid can be
 * reused), a later one that is older, or an exact counter that went back.
 * A state total may look a few ticks lower in the later snapshot, because
 * the earlier one extrapolated its open interval a little past a switch
 * the page did not show yet (see csf_read_clock()): that is clamped to 0,
 * not refused.
 *
 * The parts are converted as running sums, each part the difference of two
 * converted sums, so that they add up to the converted total exactly
 * instead of losing up to one nanosecond each to rounding.
 */
CSF_PUBLIC int csf_snap_delta(const struct csf_snap *before,
			      const struct csf_snap *after,
			      struct csf_delta *out)
{
	uint64_t part[CSF_NR_STATES], sum_ticks = 0, sum_ns, prev_ns = 0;
	unsigned int i;

	if (before->tid != after->tid ||
	    before->registered_at != after->registered_at ||
	    after->now < before->now ||
	    after->nvcsw < before->nvcsw || after->nivcsw < before->nivcsw ||
	    after->wakeups < before->wakeups ||
	    after->migrations < before->migrations)
		return -EINVAL;

	for (i = 0; i < CSF_NR_STATES; i++) {
		sum_ticks += csf_sub_clamp(after->time[i], before->time[i]);
		sum_ns = csf_ticks_to_ns(sum_ticks);
		part[i] = sum_ns - prev_ns;
		prev_ns = sum_ns;
	}
	out->wall_ns = csf_ticks_to_ns(after->now - before->now);
	out->run_ns = part[CSF_STATE_RUNNING];
	out->runnable_ns = part[CSF_STATE_RUNNABLE];
	out->sleep_ns = part[CSF_STATE_SLEEPING];
	out->iowait_ns = part[CSF_STATE_IOWAIT];
	out->blocked_ns = part[CSF_STATE_BLOCKED];
	out->nvcsw = after->nvcsw - before->nvcsw;
	out->nivcsw = after->nivcsw - before->nivcsw;
	out->wakeups = after->wakeups - before->wakeups;
	out->migrations = after->migrations - before->migrations;
	out->cpu_before = before->cpu;
	out->cpu_after = after->cpu;
	return 0;
}

/* "us" unless the locale can show the micro sign. */
static const char *csf_micro(void)
{
	const char *cs = nl_langinfo(CODESET);

	if (cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "UTF8")))
		return "\xc2\xb5s";
	return "us";
}

/*
 * Three significant digits, rounded to nearest: 9.99us, 10.0us, 100us,
 * then the next unit.  Rounding decides the unit (999.6us is "1.00ms",
 * not "1000us"), so each unit tries 2, 1 and 0 decimals in turn.  Seconds
 * are the last unit and may take more digits.
 */
CSF_PUBLIC int csf_format_ns(char *buf, size_t len, uint64_t ns)
{
	static const uint64_t unit[] = { 1000, 1000000, 1000000000 };
	const char *name[] = { csf_micro(), "ms", "s" };
	unsigned int k, dec;
	int n;

	if (ns < 1000) {
		n = snprintf(buf, len, "%uns", (unsigned int)ns);
		goto out;
	}
	for (k = 0; k < 3; k++) {
		for (dec = 100; dec; dec /= 10) {
			unsigned __int128 v = ((unsigned __int128)ns * dec +
					       unit[k] / 2) / unit[k];

			if (v >= 1000 && !(k == 2 && dec == 1))
				continue;
			if (dec == 100)
				n = snprintf(buf, len, "%u.%02u%s",
					     (unsigned int)(v / 100),
					     (unsigned int)(v % 100), name[k]);
			else if (dec == 10)
				n = snprintf(buf, len, "%u.%u%s",
					     (unsigned int)(v / 10),
					     (unsigned int)(v % 10), name[k]);
			else
				n = snprintf(buf, len, "%llu%s",
					     (unsigned long long)v, name[k]);
			goto out;
		}
	}
	return -EINVAL; /* not reached: seconds take any value */
out:
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return -ENOSPC;
	return n;
}

/* A duration of the diff line: "0" when nothing happened, as in sums. */
static void csf_diff_ns(char *buf, size_t len, uint64_t ns)
{
	if (!ns || csf_format_ns(buf, len, ns) < 0)
		snprintf(buf, len, "0");
}

struct csf_out {
	char *buf;
	size_t len;
	size_t pos;
	int full;
};

static void csf_out_add(struct csf_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void csf_out_add(struct csf_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->pos)
		o->full = 1;
	else
		o->pos += (size_t)n;
}

/* ", woken by NAME (TID)" and the like, for a task of the span. */
static void csf_diff_task(struct csf_out *o, const char *what,
			  const struct csf_task *t)
{
	if (t->tid)
		csf_out_add(o, ", %s %s (%u)", what, t->comm, t->tid);
	else
		csf_out_add(o, ", %s %s", what, _("an interrupt"));
}

/*
 * The second line, for an operation that waited: its longest wait, and
 * who woke the thread and who took its CPU during it.  Only the calling
 * thread's own page says, read now: the snapshots must be its own, and
 * it must still hold the span's waits (CSF_WAITS of them).
 */
static void csf_diff_waits(struct csf_out *o, const struct csf_snap *before,
			   const struct csf_snap *after)
{
	const struct csf_thread_page *self = csf_self_mapped();
	char dur[24];
	struct csf_hist h;
	unsigned int state;
	uint64_t ns;
	int sure;

	if (!self || csf_page_read_hist(self, &h) || h.tid != after->tid ||
	    h.registered_at != after->registered_at ||
	    csf_hist_longest_wait(&h, before->now, after->now, &state, &ns,
				  &sure))
		return;
	csf_diff_ns(dur, sizeof(dur), ns);
	if (sure)
		csf_out_add(o, _("\nlongest wait: %s %s"),
			    _(csf_state_name(state)), dur);
	else
		csf_out_add(o, _("\nlongest of the last %u waits: %s %s"),
			    CSF_WAITS, _(csf_state_name(state)), dur);
	if (h.waker.at > before->now && h.waker.at <= after->now)
		csf_diff_task(o, _("woken by"), &h.waker);
	if (h.preemptor.at > before->now && h.preemptor.at <= after->now)
		csf_diff_task(o, _("preempted by"), &h.preemptor);
}

/* "; csw 3 vol/1 invol, 3 wakeups, 1 migration" */
static void csf_out_counters(struct csf_out *o, uint64_t nvcsw,
			     uint64_t nivcsw, uint64_t wakeups,
			     uint64_t migrations)
{
	csf_out_add(o, _("; csw %llu vol/%llu invol"),
		    (unsigned long long)nvcsw, (unsigned long long)nivcsw);
	csf_out_add(o, dngettext(PACKAGE, ", %llu wakeup", ", %llu wakeups",
				 (unsigned long)wakeups),
		    (unsigned long long)wakeups);
	csf_out_add(o, dngettext(PACKAGE, ", %llu migration",
				 ", %llu migrations",
				 (unsigned long)migrations),
		    (unsigned long long)migrations);
}

CSF_PUBLIC int csf_format_diff(char *buf, size_t len,
			       const struct csf_snap *before,
			       const struct csf_snap *after)
{
	char wall[24], run[24], runnable[24], sleep[24], iowait[24],
	     blocked[24];
	struct csf_out o = { buf, len, 0, 0 };
	struct csf_delta d;
	int err;

	/*
	 * Whatever fails, @buf holds a string: a caller that prints it
	 * without looking at the result (the seed example does) prints "".
	 * Found by tests/fuzz/fuzz_format_diff.
	 */
	if (len)
		buf[0] = '\0';
	err = csf_snap_delta(before, after, &d);
	if (err)
		return err;
	if (!len)
		return -ENOSPC;
	csf_i18n_init();

	csf_diff_ns(wall, sizeof(wall), d.wall_ns);
	csf_diff_ns(run, sizeof(run), d.run_ns);
	csf_diff_ns(runnable, sizeof(runnable), d.runnable_ns);
	csf_diff_ns(sleep, sizeof(sleep), d.sleep_ns);
	csf_diff_ns(iowait, sizeof(iowait), d.iowait_ns);
	csf_diff_ns(blocked, sizeof(blocked), d.blocked_ns);

	csf_out_add(&o, _("wall %s = run %s + runnable %s + sleep %s + iowait %s + blocked %s"),
		    wall, run, runnable, sleep, iowait, blocked);
	csf_out_counters(&o, d.nvcsw, d.nivcsw, d.wakeups, d.migrations);
	if (d.cpu_before == d.cpu_after)
		csf_out_add(&o, _(", cpu %u"), d.cpu_after);
	else
		csf_out_add(&o, _(", cpu %u->%u"), d.cpu_before, d.cpu_after);
	if (d.runnable_ns || d.sleep_ns || d.iowait_ns || d.blocked_ns)
		csf_diff_waits(&o, before, after);

	if (o.full) {
		buf[0] = '\0';
		return -ENOSPC;
	}
	return (int)o.pos;
}

CSF_PUBLIC int csf_format_tree(char *buf, size_t len,
			       const struct csf_tree *t)
{
	char wall[24], run[24], runnable[24], sleep[24], iowait[24],
	     blocked[24], threads[64];
	struct csf_out o = { buf, len, 0, 0 };

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	csf_i18n_init();
	csf_diff_ns(wall, sizeof(wall), t->wall_ns);
	csf_diff_ns(run, sizeof(run), t->run_ns);
	csf_diff_ns(runnable, sizeof(runnable), t->runnable_ns);
	csf_diff_ns(sleep, sizeof(sleep), t->sleep_ns);
	csf_diff_ns(iowait, sizeof(iowait), t->iowait_ns);
	csf_diff_ns(blocked, sizeof(blocked), t->blocked_ns);
	/* two plurals in one phrase: each number gets its own */
	snprintf(threads, sizeof(threads),
		 dngettext(PACKAGE, "%llu thread", "%llu threads",
			   (unsigned long)t->threads),
		 (unsigned long long)t->threads);

	csf_out_add(&o, dngettext(PACKAGE,
				  "wall %s; %s in %llu process: run %s + runnable %s + sleep %s + iowait %s + blocked %s",
				  "wall %s; %s in %llu processes: run %s + runnable %s + sleep %s + iowait %s + blocked %s",
				  (unsigned long)t->processes),
		    wall, threads, (unsigned long long)t->processes, run,
		    runnable, sleep, iowait, blocked);
	csf_out_counters(&o, t->nvcsw, t->nivcsw, t->wakeups, t->migrations);
	if (t->running)
		csf_out_add(&o, _("; %llu still running, not counted"),
			    (unsigned long long)t->running);
	if (t->missed)
		csf_out_add(&o, _("; %llu not registered"),
			    (unsigned long long)t->missed);
	if (o.full) {
		buf[0] = '\0';
		return -ENOSPC;
	}
	return (int)o.pos;
}

static const char *const csf_state_names[] = {
	[CSF_STATE_RUNNING] = N_("running"),
	[CSF_STATE_RUNNABLE] = N_("runnable"),
	[CSF_STATE_SLEEPING] = N_("sleeping"),
	[CSF_STATE_IOWAIT] = N_("iowait"),
	[CSF_STATE_BLOCKED] = N_("blocked"),
	[CSF_STATE_EXITED] = N_("exited"),
};

/*
 * Untranslated, so that batch output and scripts see stable words; the
 * strings are in the catalogue: a display passes them through _().
 */
CSF_PUBLIC const char *csf_state_name(unsigned int state)
{
	if (state >= sizeof(csf_state_names) / sizeof(csf_state_names[0]))
		return "?";
	return csf_state_names[state];
}

static const char *const csf_clock_names[] = {
	[CSF_CLOCK_TSC] = N_("tsc"),
	[CSF_CLOCK_MONO] = N_("monotonic"),
	[CSF_CLOCK_CNTVCT] = N_("cntvct"),
};

/* Untranslated, as csf_state_name(): CSV, JSON and PCP see stable words. */
CSF_PUBLIC const char *csf_clock_name(int clock)
{
	if (clock <= 0 ||
	    (size_t)clock >= sizeof(csf_clock_names) / sizeof(csf_clock_names[0]) ||
	    !csf_clock_names[clock])
		return N_("unknown");
	return csf_clock_names[clock];
}
