/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - csftop's data model: samples, rates, freeze, diff, processes.
 *
 * Everything csftop shows is computed here from plain arrays of
 * struct csf_snap and struct csf_cpu_snap, with no curses and no access to
 * the pages, so that unit tests can drive it with synthetic samples.  The
 * only outside dependency is the conversion of clock ticks to nanoseconds,
 * passed in by the caller (csf_ticks_to_ns in csftop, the identity in tests
 * whose synthetic pages use CSF_CLOCK_MONO).
 *
 * Times the model is given ("now_ns") are the caller's clock in nanoseconds;
 * they only measure how long an exited thread has lingered and how far apart
 * two screens are.  Per-thread rates use each snapshot's own @now, which is
 * the instant its totals were extrapolated to.
 */
#ifndef CSFTOP_MODEL_H
#define CSFTOP_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coarse_stat_fs.h"
#include "fmt.h"

/* row.flags */
#define ROW_EXITED	(1u << 0)	/* exited; kept visible for a while */
#define ROW_NEW		(1u << 1)	/* first sample: values since registration */
#define ROW_APPEARED	(1u << 2)	/* diff: registered after A */
#define ROW_GONE	(1u << 3)	/* diff: present in A, exited by B */
#define ROW_CHANGED	(1u << 4)	/* diff: some counter or state moved */
#define ROW_WAITS	(1u << 5)	/* row.waits holds its histograms' */
#define ROW_CHILD	(1u << 6)	/* a thread shown under its process */
#define ROW_PROCESS	(1u << 7)	/* its process's threads summed */

/*
 * The waits of a row's interval, from its thread's histograms (pages of
 * ABI 1.1; a replayed archive has none): the 99th percentile and the
 * longest of its waits for a CPU, the 99th of all its waits off the CPU,
 * and the last waker and preemptor, whenever they acted.
 */
struct row_waits {
	uint64_t runnable_p99_ns;
	uint64_t runnable_max_ns;
	uint64_t wait_p99_ns;
	struct csf_task waker;
	struct csf_task preemptor;
};

struct row {
	struct csf_snap snap;		/* latest sample (B in a diff) */
	uint64_t exited_at_ns;		/* caller's clock, when seen exited */
	uint64_t interval_ns;		/* denominator of shares and rates */
	uint64_t delta_ns[CSF_NR_STATES]; /* time per state in the interval */
	uint64_t total_ns[CSF_NR_STATES]; /* totals (B-A in a diff) */
	uint64_t d_nvcsw;		/* counter growth in the interval */
	uint64_t d_nivcsw;
	uint64_t migrations;		/* totals (B-A in a diff) */
	uint64_t wakeups;
	struct row_waits waits;		/* with ROW_WAITS */
	/*
	 * Its histograms, 1 + an index: live, into the model's slots;
	 * frozen or diff, into the screen's hists[].  0: none.
	 */
	uint32_t hist;
	unsigned int flags;		/* ROW_* */
};

/* A frozen or diff screen's histograms of a row, as of that screen. */
struct screen_hist {
	struct csf_hist since;		/* since registration (B's in a diff) */
	struct csf_hist span;		/* the interval (B-A in a diff) */
};

struct cpu_row {
	struct csf_cpu_snap snap;	/* latest sample */
	uint64_t wall_ns;		/* interval the figures cover */
	struct ratio stat[CSF_STAT_NR];	/* share of the /proc/stat growth */
	struct ratio busy;		/* exact, from sched_switch */
	struct ratio iowait;
	struct ratio csw_rate;		/* context switches per second */
};

enum screen_kind { SCREEN_LIVE, SCREEN_DIFF };

/*
 * What one frame shows.  rows[] is kept sorted by tid (the model merges on
 * it); display order comes from select_rows().
 */
struct screen {
	enum screen_kind kind;
	struct row *rows;
	size_t nrows;
	size_t rows_cap;
	struct cpu_row *cpus;
	unsigned int ncpus;
	uint64_t taken_ns;		/* caller's clock */
	uint64_t interval_ns;		/* since the previous screen (or A) */
	struct ratio csw_rate;		/* all CPUs */
	unsigned int nthreads;		/* live threads among rows */
	unsigned int nprocs;		/* distinct tgids among them */
	unsigned int seq;		/* samples taken so far */
	struct screen_hist *hists;	/* frozen or diff: by row.hist - 1 */
	/*
	 * Live or frozen: the sums of the threads whose rows have gone, of
	 * the processes that still have rows (csf_group_add(3)'s rule).  A diff has
	 * none: its process rows sum its thread rows.
	 */
	struct csf_gone gone;
};

enum model_mode { MODE_LIVE, MODE_FROZEN, MODE_DIFF };

struct model {
	uint64_t (*to_ns)(uint64_t ticks);
	uint64_t linger_ns;		/* how long exited threads stay */
	enum model_mode mode;
	struct screen live;		/* always current, frozen or not */
	struct screen frozen;		/* A: the last frozen screen */
	struct screen diff;		/* B - A */
	int have_frozen;
	/*
	 * Kept from frame to frame so that a sample allocates nothing once
	 * they have grown: the live screen before last, whose arrays the next
	 * sample reuses; the input in tid order; a set of tgids.
	 */
	struct screen spare;
	const struct csf_snap **in;
	size_t in_cap;
	uint32_t *tgid_set;
	size_t tgid_set_cap, tgid_set_mask;
	/*
	 * The live rows' histograms, a slot per thread for as long as its
	 * row lives, so that a frame copies only those read anew: the last
	 * two reads, the latest h[cur], read at screen seq read_seq.
	 */
	struct hist_slot {
		struct csf_hist h[2];
		unsigned int cur;
		unsigned int reads;
		unsigned int read_seq;
		uint32_t next_free;	/* 1 + the next free slot, 0: none */
	} *slots;
	size_t nslots;
	uint32_t free_slot;		/* 1 + a free slot, 0: none */
	int no_waits;			/* model_waits(m, 0): not computed */
};

#define MODEL_LINGER_NS 2000000000ull	/* exited threads: 2 s */

void model_init(struct model *m, uint64_t (*to_ns)(uint64_t ticks));
void model_free(struct model *m);

/*
 * model_sample - take a new live sample.  @snaps are all threads read this
 * time (any order; exited ones included), @cpus the CPU snapshots.  Threads
 * missing from @snaps that were there before are kept as exited for
 * linger_ns.  @hists, when not NULL, holds by snapshot its thread's
 * histograms read this time, or NULL when none was read (nothing closed
 * since the last read).  Returns 0 or -ENOMEM (the previous live screen is
 * kept).
 */
int model_sample(struct model *m, const struct csf_snap *snaps,
		 const struct csf_hist *const *hists, size_t n,
		 const struct csf_cpu_snap *cpus, unsigned int ncpus,
		 uint64_t now_ns);

/*
 * model_waits - whether live rows' waits (row.waits, ROW_WAITS) are
 * computed: they are from model_init() on.  Off, a sample still keeps every
 * thread's histograms, but skips their delta and quantiles, which nothing
 * shown then reads.  Turned on, the live rows get them at once, as the
 * last sample would have given them; model_freeze() gives them to what it
 * freezes whatever this says.  Returns 1 when it computed them, else 0.
 */
int model_waits(struct model *m, int on);

/*
 * model_row_waits - for a view that draws only some rows: while
 * model_waits() is off, @r of the live screen (or a copy of one, as a
 * process's thread shown under it) into @out with its waits, and 1; 0
 * when @r has them already, or has none to have.
 */
int model_row_waits(const struct model *m, const struct row *r,
		    struct row *out);

/* Which of a row's histograms model_row_hist() gives. */
enum hist_span {
	HIST_SPAN,		/* the interval (B-A in a diff) */
	HIST_SINCE,		/* since registration (B's in a diff) */
};

/*
 * model_row_hist - @r's histograms (a row of the shown screen @s) over
 * @span, in @out; -ENOENT when it has none.
 */
int model_row_hist(const struct model *m, const struct screen *s,
		   const struct row *r, enum hist_span span,
		   struct csf_hist *out);

/*
 * model_restart - the next sample starts afresh, as the first one did (a
 * replay jumped to another time); the frozen screen A is kept.
 */
void model_restart(struct model *m);

/* Freeze: the shown screen stops changing; it becomes A for a diff. */
int model_freeze(struct model *m);
/* Back to the live screen; A is kept for a later diff. */
void model_live(struct model *m);
/*
 * model_diff - take B (the current live sample) and show B - A.  Without an
 * A yet, freezes the current screen as A and returns 0; returns 1 when a
 * diff is shown, -ENOMEM on failure.
 */
int model_diff(struct model *m);

/* The screen to draw in the current mode. */
const struct screen *model_shown(const struct model *m);

/*
 * The processes of a screen, for the process view and --processes: one
 * row per tgid summing its threads' rows (times, shares, counters; a
 * process's share of the interval may pass 100%, as in top), in a screen
 * of its own whose rows are in tgid order.  A process row's TID is its
 * tgid, its name and CPU the main thread's (the lowest tid's when the
 * main thread is not registered), its state the most active of its
 * threads' (running, runnable, iowait, blocked, sleeping; exited when all
 * are), and it has no histograms.  The CPUs and counts are @src's,
 * borrowed: valid while @src is.
 */
struct proc_screen {
	struct screen s;
	size_t *order;			/* scratch: @src's rows by tgid */
	size_t order_cap;
};

/* Fill @out from @src; 0 or -ENOMEM (@out then holds no rows). */
int model_processes(const struct screen *src, struct proc_screen *out);
/*
 * model_processes_threads - append to @out's rows copies of @src's rows of
 * process @tgid's threads, flagged ROW_CHILD, to show them unfolded under
 * their process; the number appended, or -ENOMEM.
 */
long model_processes_threads(const struct screen *src, struct proc_screen *out,
			     uint32_t tgid);
void model_processes_free(struct proc_screen *p);

/* Room for @n indices in *@idx (of *@cap): 0, or -ENOMEM. */
int model_idx_reserve(size_t **idx, size_t *cap, size_t n);

/*
 * Share of the interval spent in @state: at most all of it for a thread
 * (whatever a page says), the sum of its threads' for a process row.
 */
static inline struct ratio row_share(const struct row *r, unsigned int state)
{
	struct ratio q = { 0, r->interval_ns };

	if (state < CSF_NR_STATES)
		q.num = r->delta_ns[state];
	if (q.num > q.den && !(r->flags & ROW_PROCESS))
		q.num = q.den;
	return q;
}

/* @count over the interval, per second. */
static inline struct ratio row_rate(const struct row *r, uint64_t count)
{
	return (struct ratio){ count, r->interval_ns };
}

/* State to show: EXITED for exited or gone rows. */
static inline unsigned int row_state(const struct row *r)
{
	if (r->flags & (ROW_EXITED | ROW_GONE))
		return CSF_STATE_EXITED;
	return r->snap.state;
}

#endif /* CSFTOP_MODEL_H */
