// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * columns.c - the column table and the mark table: see columns.h.
 */
#include <config.h>

#include <string.h>
#include <strings.h>

#include "columns.h"
#include "fmt.h"
#include "i18n.h"

/* --- values --------------------------------------------------------- */

static uint64_t pid(const struct row *r) { return r->snap.tgid; }
static uint64_t tid(const struct row *r) { return r->snap.tid; }
static uint64_t state(const struct row *r) { return row_state(r); }
static uint64_t cpu(const struct row *r) { return r->snap.cpu; }
static uint64_t migrations(const struct row *r) { return r->migrations; }
static uint64_t wakeups(const struct row *r) { return r->wakeups; }
static struct ratio vcsw(const struct row *r)
{ return row_rate(r, r->d_nvcsw); }
static struct ratio ivcsw(const struct row *r)
{ return row_rate(r, r->d_nivcsw); }

/* a state's share of the interval and its total */
#define STATE_VALUES(name, st)						\
	static struct ratio name##_pct(const struct row *r)		\
	{ return row_share(r, st); }					\
	static uint64_t name##_total(const struct row *r)		\
	{ return r->total_ns[st]; }
STATE_VALUES(run, CSF_STATE_RUNNING)
STATE_VALUES(runnable, CSF_STATE_RUNNABLE)
STATE_VALUES(sleep, CSF_STATE_SLEEPING)
STATE_VALUES(iowait, CSF_STATE_IOWAIT)
STATE_VALUES(blocked, CSF_STATE_BLOCKED)
#undef STATE_VALUES

/* the name may fill its 16 bytes without a NUL */
static const char *comm(const struct row *r, char *buf)
{
	memcpy(buf, r->snap.comm, sizeof(r->snap.comm));
	buf[sizeof(r->snap.comm)] = '\0';
	return buf;
}

static const char *comm_name(const struct row *r) { return r->snap.comm; }

/* the waits of the interval, and who last woke the thread or took its CPU */
static uint64_t runnable_p99(const struct row *r)
{ return r->waits.runnable_p99_ns; }
static uint64_t runnable_max(const struct row *r)
{ return r->waits.runnable_max_ns; }
static uint64_t wait_p99(const struct row *r) { return r->waits.wait_p99_ns; }
static uint64_t waker_tid(const struct row *r) { return r->waits.waker.tid; }
static uint64_t preemptor_tid(const struct row *r)
{ return r->waits.preemptor.tid; }
static const char *waker_name(const struct row *r)
{ return r->waits.waker.comm; }
static const char *preemptor_name(const struct row *r)
{ return r->waits.preemptor.comm; }

static int has_waits(const struct row *r) { return !!(r->flags & ROW_WAITS); }
static int has_waker(const struct row *r)
{ return has_waits(r) && r->waits.waker.at; }
static int has_preemptor(const struct row *r)
{ return has_waits(r) && r->waits.preemptor.at; }

/* A task's name, or an interrupt's (tid 0, no name). */
static const char *task_text(const struct csf_task *t)
{
	return t->tid ? t->comm : "(interrupt)";
}

static const char *waker(const struct row *r, char *buf)
{
	(void)buf;
	return task_text(&r->waits.waker);
}

static const char *preemptor(const struct row *r, char *buf)
{
	(void)buf;
	return task_text(&r->waits.preemptor);
}

static const char *state_key(const struct row *r, char *buf)
{
	(void)buf;
	return csf_state_name(row_state(r));
}

/* --- renderers ------------------------------------------------------ */

static char *render_uint(char *e, const struct row *r, const struct column *col)
{
	return fmt_uint(e, col->uint(r));
}

static char *render_count(char *e, const struct row *r,
			  const struct column *col)
{
	return fmt_count(e, col->uint(r));
}

static char *render_dur(char *e, const struct row *r, const struct column *col)
{
	return fmt_dur(e, col->uint(r));
}

static char *render_pct(char *e, const struct row *r, const struct column *col)
{
	return fmt_pct(e, col->ratio(r));
}

static char *render_rate(char *e, const struct row *r, const struct column *col)
{
	return fmt_rate(e, col->ratio(r));
}

static char *put_text(char *e, const char *s)
{
	size_t n = strnlen(s, COL_TEXT_MAX - 1);

	e -= n;
	memcpy(e, s, n);
	return e;
}

static char *render_comm(char *e, const struct row *r, const struct column *col)
{
	char name[COL_TEXT_MAX];

	e = put_text(e, col->text(r, name));
	/* a thread under its process, as ps f draws a child */
	return r->flags & ROW_CHILD ? put_text(e, " \\_ ") : e;
}

static char *render_state(char *e, const struct row *r,
			  const struct column *col)
{
	(void)col;
	return put_text(e, col_state_name(row_state(r)));
}

/* A wait's length, "-" for none of its kind in the interval. */
static char *render_wait(char *e, const struct row *r,
			 const struct column *col)
{
	uint64_t ns = col->uint(r);

	return ns ? fmt_dur(e, ns) : put_text(e, "-");
}

/* A task: its name, or an interrupt in the language shown. */
static char *render_task(char *e, const struct row *r,
			 const struct column *col)
{
	char name[COL_TEXT_MAX];
	const char *t = col->text(r, name);

	if (!strcmp(t, "(interrupt)"))
		t = _("(interrupt)");
	return put_text(e, t);
}

/* --- the table ------------------------------------------------------ */

/* -b text gives every number but CPU seven characters, a fixed grid */
#define BATCH_W 7

#define ID(k, t, h, w, prio, fn)					\
	{ .key = k, .title = t, .help = h, .kind = COL_KIND_INT,	\
	  .align = ALIGN_RIGHT, .width = w, .batch_width = w,		\
	  .priority = prio, .uint = fn, .render = render_uint }
#define SHARE(k, t, h, prio, fn)					\
	{ .key = k, .title = t, .help = h, .kind = COL_KIND_PCT,	\
	  .align = ALIGN_RIGHT, .width = FMT_PCT_W,			\
	  .batch_width = BATCH_W, .priority = prio, .desc_first = 1,	\
	  .ratio = fn, .render = render_pct }
#define TOTAL(k, t, h, prio, fn)					\
	{ .key = k, .title = t, .help = h, .kind = COL_KIND_NS,		\
	  .align = ALIGN_RIGHT, .width = FMT_DUR_W,			\
	  .batch_width = BATCH_W, .priority = prio, .desc_first = 1,	\
	  .uint = fn, .render = render_dur }
#define RATE(k, t, h, prio, fn)						\
	{ .key = k, .title = t, .help = h, .kind = COL_KIND_RATE,	\
	  .align = ALIGN_RIGHT, .width = FMT_RATE_W,			\
	  .batch_width = BATCH_W, .priority = prio, .desc_first = 1,	\
	  .ratio = fn, .render = render_rate }
/*
 * The waits are not in -b text, whose rows they would make much wider
 * and dearer; CSV and JSON have them.
 */
#define WAIT(k, t, h, prio, fn)						\
	{ .key = k, .title = t, .help = h, .kind = COL_KIND_NS,		\
	  .align = ALIGN_RIGHT, .width = FMT_DUR_W, .priority = prio,	\
	  .desc_first = 1, .waits = 1, .has = has_waits, .uint = fn,	\
	  .render = render_wait }
#define TASK(k, t, h, prio, fn, nm)					\
	{ .key = k, .title = t, .help = h, .kind = COL_KIND_TEXT,	\
	  .align = ALIGN_LEFT, .width = 15, .priority = prio,		\
	  .waits = 1, .has = has_##fn, .text = fn, .name = nm,		\
	  .render = render_task }
#define COUNT(k, t, h, prio, fn)					\
	{ .key = k, .title = t, .help = h, .kind = COL_KIND_INT,	\
	  .align = ALIGN_RIGHT, .width = FMT_COUNT_W,			\
	  .batch_width = BATCH_W, .priority = prio, .desc_first = 1,	\
	  .uint = fn, .render = render_count }

/* Priorities: a thread's identity and the signature column stay longest. */
const struct column columns[COL_NR] = {
	[COL_PID] = ID("pid", N_("PID"), N_("process id (tgid)"), 7, 0, pid),
	[COL_TID] = ID("tid", N_("TID"), N_("thread id"), 7, 1, tid),
	[COL_COMM] = { .key = "comm", .title = N_("COMM"),
		       .help = N_("thread name"), .kind = COL_KIND_TEXT,
		       .align = ALIGN_LEFT, .width = 15, .batch_width = 15,
		       .priority = 2, .text = comm, .name = comm_name,
		       .render = render_comm },
	[COL_STATE] = { .key = "state", .title = N_("STATE"),
			.help = N_("state at sample time"),
			.kind = COL_KIND_TEXT, .align = ALIGN_LEFT,
			.width = 0, .batch_width = 8, .priority = 3,
			.uint = state, .text = state_key,
			.render = render_state },
	[COL_CPU] = ID("cpu", N_("CPU"), N_("CPU it runs or last ran on"), 3,
		       9, cpu),
	[COL_RUN_PCT] = SHARE("run", N_("RUN%"),
			      N_("share of the interval on a CPU"), 5,
			      run_pct),
	[COL_RUNNABLE_PCT] = SHARE("runnable", N_("RUNQ%"),
				   N_("share of the interval waiting for a "
				      "CPU"), 4, runnable_pct),
	[COL_SLEEP_PCT] = SHARE("sleep", N_("SLEEP%"),
				N_("share of the interval sleeping"), 6,
				sleep_pct),
	[COL_IOWAIT_PCT] = SHARE("iowait", N_("IOW%"),
				 N_("share of the interval waiting for I/O"),
				 7, iowait_pct),
	[COL_BLOCKED_PCT] = SHARE("blocked", N_("BLK%"),
				  N_("share of the interval blocked "
				     "otherwise"), 8, blocked_pct),
	[COL_RUN_TOTAL] = TOTAL("run_total", N_("RUN"),
				N_("total time on a CPU"), 13, run_total),
	[COL_RUNNABLE_TOTAL] = TOTAL("runnable_total", N_("RUNQ"),
				     N_("total time waiting for a CPU"), 12,
				     runnable_total),
	[COL_SLEEP_TOTAL] = TOTAL("sleep_total", N_("SLEEP"),
				  N_("total time sleeping"), 15, sleep_total),
	[COL_IOWAIT_TOTAL] = TOTAL("iowait_total", N_("IOW"),
				   N_("total time waiting for I/O"), 14,
				   iowait_total),
	[COL_BLOCKED_TOTAL] = TOTAL("blocked_total", N_("BLK"),
				    N_("total time blocked otherwise"), 16,
				    blocked_total),
	[COL_VCSW_RATE] = RATE("vcsw", N_("VCSW/s"),
			       N_("voluntary context switches per second"),
			       10, vcsw),
	[COL_IVCSW_RATE] = RATE("ivcsw", N_("IVCSW/s"),
				N_("involuntary context switches per second"),
				11, ivcsw),
	[COL_MIGRATIONS] = COUNT("migrations", N_("MIGR"),
				 N_("migrations between CPUs"), 17,
				 migrations),
	[COL_WAKEUPS] = COUNT("wakeups", N_("WAKEUPS"), N_("wakeups"), 18,
			      wakeups),
	[COL_RUNNABLE_P99] = WAIT("runnable_p99", N_("RUNQ99"),
				  N_("99th percentile of the waits for a CPU "
				     "in the interval"), 19, runnable_p99),
	[COL_RUNNABLE_MAX] = WAIT("runnable_max", N_("RUNQMAX"),
				  N_("longest wait for a CPU in the interval "
				     "(its bucket's bound when not known)"),
				  20, runnable_max),
	[COL_WAIT_P99] = WAIT("wait_p99", N_("WAIT99"),
			      N_("99th percentile of all waits off the CPU "
				 "in the interval"), 21, wait_p99),
	[COL_WAKER] = TASK("waker", N_("WAKER"),
			   N_("the task that last woke it"), 22, waker,
			   waker_name),
	[COL_PREEMPTOR] = TASK("preemptor", N_("PREEMPTOR"),
			       N_("the task that last took its CPU"), 23,
			       preemptor, preemptor_name),
	[COL_WAKER_TID] = { .key = "waker_tid", .title = N_("WTID"),
			    .help = N_("thread id of the last waker (0: an "
				       "interrupt)"), .kind = COL_KIND_INT,
			    .align = ALIGN_RIGHT, .width = 7, .priority = 24,
			    .waits = 1, .has = has_waker, .uint = waker_tid,
			    .render = render_uint },
	[COL_PREEMPTOR_TID] = { .key = "preemptor_tid", .title = N_("PTID"),
				.help = N_("thread id of the last preemptor"),
				.kind = COL_KIND_INT, .align = ALIGN_RIGHT,
				.width = 7, .priority = 25, .waits = 1,
				.has = has_preemptor, .uint = preemptor_tid,
				.render = render_uint },
};

char *col_dash(char *end)
{
	*--end = '-';
	return end;
}

int column_by_key(const char *key)
{
	for (int c = 0; c < COL_NR; c++)
		if (!strcasecmp(key, columns[c].key))
			return c;
	return -1;
}

/* Looked up once: a gettext lookup costs more than a row's numbers. */
const char *col_title(enum col c)
{
	static const char *titles[COL_NR];

	if (!titles[c])
		titles[c] = _(columns[c].title);
	return titles[c];
}

const char *col_state_name(unsigned int st)
{
	static const char *names[CSF_STATE_EXITED + 1];

	if (st > CSF_STATE_EXITED)
		return "?";
	if (!names[st])
		names[st] = _(csf_state_name(st));
	return names[st];
}

/* --- marks ---------------------------------------------------------- */

/*
 * Live rows carry only ROW_EXITED and ROW_NEW, diff rows only the others
 * and ROW_EXITED, so one order serves both: exited before new, appeared
 * and gone before exited.
 */
static const struct mark marks[] = {
	{ ROW_APPEARED, '+', "appeared", MARK_NEW },
	{ ROW_GONE, '-', "gone", MARK_ENDED },
	{ ROW_EXITED, 'x', "exited", MARK_ENDED },
	{ ROW_CHANGED, '*', "changed", MARK_CHANGED },
	{ ROW_NEW, '+', "new", MARK_NEW },
};
static const struct mark no_mark = { 0, ' ', "", MARK_PLAIN };

const struct mark *mark_of(const struct screen *s, const struct row *r)
{
	unsigned int flags = r->flags;

	/* on the first sample every thread is new: no mark then */
	if (s->seq <= 1)
		flags &= ~ROW_NEW;
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (flags & marks[i].flag)
			return &marks[i];
	return &no_mark;
}
