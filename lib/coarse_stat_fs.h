/* SPDX-License-Identifier: MIT */
/*
 * coarse_stat_fs.h - libcoarse_stat_fs, the public API.
 *
 * A thread learns where its time went (running, runnable, sleeping, I/O
 * wait, blocked) with no system call: after a one-time registration the
 * kernel module keeps a read-only page per thread current from the
 * scheduler, and a snapshot is a sequence-counter read of that page plus
 * one clock read.
 *
 *	struct csf_snap before, after;
 *	char buf[CSF_DIFF_BUFSZ];
 *
 *	csf_thread_snap(&before);
 *	uint64_t t0 = csf_rdtsc();
 *	op();
 *	if (csf_rdtsc() - t0 > slow) {
 *		csf_thread_snap(&after);
 *		csf_format_diff(buf, sizeof(buf), &before, &after);
 *		puts(buf);
 *	}
 *
 * Errors are negative errno values; csf_strerror() explains them in the
 * library's terms.  Every function is safe to call from any thread.  The
 * filesystem is looked for at $CSF_ROOT, default /sys/fs/coarse_stat_fs.
 */
#ifndef COARSE_STAT_FS_H
#define COARSE_STAT_FS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coarse_stat_fs_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Large enough for any csf_format_diff() line. */
#define CSF_DIFF_BUFSZ 512

/*
 * A snapshot of one thread, taken at clock tick @now.  time[] already
 * includes the open interval of @state up to @now.  Plain data: copy it,
 * store it, compare snapshots of the same thread.
 */
struct csf_snap {
	uint64_t now;			/* ticks, csf_rdtsc() clock */
	uint64_t time[CSF_NR_STATES];	/* ticks per state, up to now */
	uint64_t state_since;		/* ticks */
	uint64_t registered_at;		/* ticks */
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t wakeups;
	uint64_t migrations;
	uint32_t state;			/* enum csf_state */
	uint32_t cpu;
	uint32_t tid;
	uint32_t tgid;
	char comm[16];
};

/* The difference of two snapshots of one thread, in nanoseconds. */
struct csf_delta {
	uint64_t wall_ns;
	uint64_t run_ns;
	uint64_t runnable_ns;
	uint64_t sleep_ns;
	uint64_t iowait_ns;
	uint64_t blocked_ns;
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t wakeups;
	uint64_t migrations;
	uint32_t cpu_before;
	uint32_t cpu_after;
};

/*
 * csf_thread_snap - snapshot the calling thread.
 *
 * The first call in a thread registers it (opens thread-self, maps the page,
 * closes the fd); it may fail with -ENOENT (module not loaded or fs not
 * mounted), -ENOSPC (registration cap reached), -EPROTO (incompatible ABI)
 * or another negative errno.  Later calls make no system call, take no
 * lock and allocate nothing; they fail only with -EAGAIN, as
 * csf_thread_read() does, on a page that stays mid-update for a second,
 * which the module's pages never do.  A child created by fork() registers
 * again on its first call.  Returns 0 or a negative errno.
 */
int csf_thread_snap(struct csf_snap *snap);

/*
 * csf_rdtsc - read the clock the pages are kept on: the CPU's counter when
 * the module uses it (the TSC on x86-64, CNTVCT_EL0 on arm64),
 * CLOCK_MONOTONIC nanoseconds otherwise (see csf_clock()).  Before the
 * library has seen the module, it reads the counter.
 */
uint64_t csf_rdtsc(void);

/*
 * csf_clock - the module's clock: CSF_CLOCK_TSC (x86-64), CSF_CLOCK_CNTVCT
 * (arm64) or CSF_CLOCK_MONO, or a negative errno when the cpu page cannot
 * be mapped.
 */
int csf_clock(void);

/*
 * csf_clock_name - "tsc", "cntvct" or "monotonic" for a value of
 * csf_clock(), or "unknown" for anything else, its errors included.
 * Untranslated, like csf_state_name().
 */
const char *csf_clock_name(int clock);

/*
 * csf_ticks_to_ns - convert a duration in clock ticks to nanoseconds, with
 * the cpu header's clock_mult/clock_shift (128-bit product).  Without the
 * module there are no ticks to convert: @ticks is returned unchanged.
 */
uint64_t csf_ticks_to_ns(uint64_t ticks);

/*
 * csf_ns_to_ticks - convert nanoseconds to clock ticks, e.g. the "slow"
 * threshold a program compares csf_rdtsc() differences with.  Without the
 * module @ns is returned unchanged.
 */
uint64_t csf_ns_to_ticks(uint64_t ns);

/* csf_clock_hz - ticks per second of the pages' clock; 0 without the module. */
uint64_t csf_clock_hz(void);

/*
 * csf_snap_delta - @after minus @before, in nanoseconds.  Both must be of
 * the same thread (same tid and registration) and @after not older than
 * @before, with no counter going back: otherwise -EINVAL.  wall_ns equals
 * the sum of the five state times up to clock rounding (the parts are
 * rounded so that they add up exactly among themselves).  A state total a
 * few ticks lower in @after, left by an extrapolation that ran just past a
 * switch, counts as 0.
 */
int csf_snap_delta(const struct csf_snap *before, const struct csf_snap *after,
		   struct csf_delta *out);

/*
 * csf_format_diff - one human-readable line: wall time, its split into run,
 * runnable, sleep, iowait and blocked, switches, wakeups, migrations and the
 * CPUs before and after ("cpu 0->1", or "cpu 1" when it did not change);
 * a zero duration reads "0".  Translated through gettext.  Returns the
 * length written (without the NUL), or a negative errno (-EINVAL as
 * csf_snap_delta, -ENOSPC when @len is too small; CSF_DIFF_BUFSZ is always
 * enough).  Nothing is written past @len, and when @len > 0 @buf is always
 * a string: "" on any error.
 */
int csf_format_diff(char *buf, size_t len, const struct csf_snap *before,
		    const struct csf_snap *after);

/*
 * csf_format_ns - @ns in a short human unit with three significant digits,
 * rounded to nearest ("812ns", "3.42ms", "1.20s"; microseconds are "us",
 * or "\xc2\xb5s", the micro sign, when the locale's codeset is UTF-8).
 * Returns the length written or -ENOSPC.
 */
int csf_format_ns(char *buf, size_t len, uint64_t ns);

/*
 * csf_state_name - "running", "runnable", "sleeping", "iowait", "blocked",
 * "exited", or "?".  Untranslated, for stable batch output; the words are
 * in the package's catalogue, so a display may pass them through gettext.
 */
const char *csf_state_name(unsigned int state);

/*
 * csf_strerror - what a negative errno returned by this library means and,
 * where it helps, what to do ("... is not mounted at ...: load the module
 * with ...").  Never NULL; the string is static or thread-local.
 */
const char *csf_strerror(int err);

/* csf_root - the directory the library uses ($CSF_ROOT or the default). */
const char *csf_root(void);

/*
 * Per-CPU view, like /proc/stat but kept exactly from the scheduler.
 */
struct csf_cpu_snap {
	uint64_t now;			/* ticks */
	uint64_t time[CSF_CPU_NR_STATES]; /* busy, idle, iowait ticks to now */
	uint64_t nr_switches;
	uint64_t stat[CSF_STAT_NR];	/* ns, /proc/stat buckets */
	uint64_t stat_time;		/* ticks: when stat[] was copied */
	uint32_t state;			/* enum csf_cpu_state */
	uint32_t online;
};

struct csf_cpu_delta {
	uint64_t wall_ns;
	uint64_t busy_ns;
	uint64_t idle_ns;
	uint64_t iowait_ns;
	uint64_t nr_switches;
	uint64_t stat_ns[CSF_STAT_NR];	/* growth of the /proc/stat buckets */
};

/* csf_cpu_count - number of CPU records (possible CPUs), or -errno. */
int csf_cpu_count(void);

/*
 * csf_cpu_snap - snapshot CPUs 0..n-1 into @snaps (a larger @n is cut to
 * csf_cpu_count()).  No system call once the cpu page is mapped.  Returns
 * the number of CPUs written or a negative errno: -EAGAIN when a record
 * stays mid-update for a second (see csf_thread_read()).
 */
int csf_cpu_snap(struct csf_cpu_snap *snaps, unsigned int n);

/*
 * csf_cpu_delta - @after minus @before of one CPU, in nanoseconds; -EINVAL
 * when @after is older.  A /proc/stat bucket that went back (the kernel's
 * NOHZ iowait can) counts as 0.
 */
int csf_cpu_delta(const struct csf_cpu_snap *before,
		  const struct csf_cpu_snap *after, struct csf_cpu_delta *out);

/*
 * csf_generation - the registration generation: it changes whenever a
 * thread registers or exits, so a monitor rescans only then.
 */
int csf_generation(uint64_t *gen);

/* The module's own counters, from the cpu page's header. */
struct csf_module_stats {
	uint64_t nr_threads;	/* registered and not yet exited */
	uint64_t nr_allocated;	/* thread pages the module holds */
	uint64_t generation;	/* as csf_generation() */
	uint64_t stat_period_ns; /* refresh period of the /proc/stat buckets */
	uint32_t max_threads;	/* the registration cap */
	uint64_t nr_missed;	/* new tasks of an inheriting registration
				 * that could not be registered (0 before
				 * ABI 1.2) */
};

/*
 * csf_module_stats - the module's counters: how many threads are
 * registered, how many pages it holds, its cap.  0 or a negative errno.
 */
int csf_module_stats(struct csf_module_stats *out);

/*
 * Monitor API: other threads' pages (what csftop uses).
 *
 * csf_threads_list - the tids of registered, live threads, sorted.  Fills
 * at most @max and returns how many there are (which may exceed @max: call
 * again with a larger array; @tids may be NULL when @max is 0), or a
 * negative errno (-ENOENT: not mounted).
 */
int csf_threads_list(pid_t *tids, size_t max);

/* csf_attach() flags */
#define CSF_ATTACH_THREAD	0x1u	/* only the thread @pid, a tid */
#define CSF_ATTACH_INHERIT	0x2u	/* and what it creates from now on */

/*
 * csf_attach - register the threads of process @pid (or, with
 * CSF_ATTACH_THREAD, the one thread @pid) that are not registered yet, so
 * that csf_thread_map() can map them; with CSF_ATTACH_INHERIT also every
 * thread and process they create from then on.  The permission of
 * reading /proc/@pid/stat in full (the ptrace read rule).  0, or
 * -EINVAL, -ESRCH no such process, -EPERM not permitted, -ENOSPC the
 * module's max_threads reached, -ENOMEM, -EOPNOTSUPP a module older than
 * attaching, -ENOENT not mounted; nothing is registered on error.
 */
int csf_attach(pid_t pid, unsigned int flags);

/*
 * csf_attach_all - register every thread of the machine, kernel threads
 * included, and from now on every thread and process at its creation,
 * until the module unloads (module ABI 1.4).  Root's: CAP_SYS_PTRACE in
 * the initial user namespace.  0, or -EPERM, -ENOSPC the threads present
 * would pass max_threads (none of them is registered, but the rule for
 * new ones holds), -ENOMEM, -EOPNOTSUPP a module older than 1.4, -ENOENT
 * not mounted.
 */
int csf_attach_all(void);

struct csf_thread_map;

/*
 * csf_thread_map - map the page of thread @tid.  -ENOENT: not registered or
 * already exited; -EACCES: not yours (only its user and root may map it);
 * -EPROTO: not a page of this ABI; -EINVAL: @tid <= 0.  Release with
 * csf_thread_unmap().
 */
int csf_thread_map(pid_t tid, struct csf_thread_map **out);

/*
 * csf_thread_read - snapshot a mapped thread.  A page stays readable after
 * its thread exits: state then reads CSF_STATE_EXITED with final totals.
 * Returns 0, -EINVAL (@map NULL) or -EAGAIN: the page did not become
 * stable (sequence counter even and unchanged across the copy) within one
 * second.  The module's writers take well under a microsecond, so that
 * means a corrupt page or a stuck writer, and the reader gives up rather
 * than hang a monitor; the second is what a writer that is not running
 * may need (a vCPU of single-threaded qemu waits 100 ms for its turn).
 * @snap is then undefined; a later call may succeed.
 */
int csf_thread_read(const struct csf_thread_map *map, struct csf_snap *snap);

/*
 * csf_thread_prefetch - a hint that @map will be read soon: starts loading
 * its page into the cache and returns without waiting.  Each thread's page
 * is a mapping of its own, so reading many threads in a loop waits for a
 * TLB miss and cache misses per thread, one after the other; a monitor
 * that calls this a few threads ahead of csf_thread_read() overlaps them.
 * NULL is accepted.
 */
void csf_thread_prefetch(const struct csf_thread_map *map);

/* csf_thread_unmap - release a mapping; NULL is accepted. */
void csf_thread_unmap(struct csf_thread_map *map);

/*
 * A tree (module ABI 1.3): the threads an attach with CSF_ATTACH_INHERIT
 * registered, and every thread and process they created after, read from
 * the page of its root, the first thread the attach named (a process's
 * leader).  The sums are over the members that exited: a live member's
 * time is its own page's.
 */
struct csf_tree {
	uint64_t wall_ns;	/* from the tree's start to the exit of its
				 * last member, or to now while one runs */
	uint64_t run_ns;	/* the sums over the exited members */
	uint64_t runnable_ns;
	uint64_t sleep_ns;
	uint64_t iowait_ns;
	uint64_t blocked_ns;
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t wakeups;
	uint64_t migrations;
	uint64_t threads;	/* members, the root included */
	uint64_t processes;	/* of them, processes (their first threads) */
	uint64_t running;	/* of them, not exited yet: not in the sums */
	uint64_t missed;	/* threads and processes members created that
				 * could not be registered */
	uint32_t root;		/* the root's tid */
};

/*
 * csf_thread_read_tree - the tree whose root @map is.  The page stays
 * readable after the root exits, so map it before (threads/<tid> is gone
 * then).  0, -EINVAL (@map NULL), -ENODATA (@map is no tree's root),
 * -EOPNOTSUPP (a module older than trees) or -EAGAIN as csf_thread_read().
 */
int csf_thread_read_tree(const struct csf_thread_map *map,
			 struct csf_tree *tree);

/*
 * csf_thread_tree - the tid of the root of the tree the thread @map is in,
 * as the root had it when the tree began; 0 when in none, for @map NULL,
 * or for a module older than trees.  A thread joins at most one tree,
 * once: the value changes only from 0.
 */
uint32_t csf_thread_tree(const struct csf_thread_map *map);

/*
 * csf_format_tree - @tree in csf_format_diff()'s words: "wall 2.05s; 7
 * threads in 5 processes: run 1.20s + runnable 10.0ms + sleep 9.00s +
 * iowait 0 + blocked 0; csw 45 vol/12 invol, 30 wakeups, 4 migrations",
 * then "; N still running, not counted" and "; N not registered" when
 * not zero.  Translated through gettext.  The length written, or -ENOSPC
 * (CSF_DIFF_BUFSZ is always enough); @buf is always a string when @len > 0.
 */
int csf_format_tree(char *buf, size_t len, const struct csf_tree *tree);

/*
 * The shape of the intervals (pages of ABI 1.1).  For each state, how many
 * of its intervals fell in each length bucket (the ABI header's rule: bucket
 * b < CSF_HIST_BUCKETS - 1 ends at CSF_HIST_UPPER_NS(b), bucket 0 starts at
 * 0 and bucket b > 0 at CSF_HIST_UPPER_NS(b - 1); the last has no end), the
 * longest, the last CSF_WAITS waits, who last woke the thread and who last
 * took its CPU.  Read apart from csf_thread_snap(), whose cost it would
 * multiply: csf_thread_hist() for the calling thread, csf_thread_read_hist()
 * for another; csf_hist_delta() gives what happened between two reads.
 */
struct csf_task {
	uint64_t at;			/* ticks: when; 0: never */
	uint32_t tid;			/* 0, with comm "": an interrupt */
	char comm[16];
};

struct csf_hist {
	uint64_t now;			/* ticks: when it was read */
	uint64_t registered_at;		/* ticks: whose (with tid) */
	uint32_t tid;
	/*
	 * Bit s set: max_ns[s] is exact.  Always after a read (the longest
	 * since registration); in a delta, when the thread's longest of
	 * state s ended between the two reads or, off the CPU, when waits[]
	 * still held all of the delta's waits.  Otherwise max_ns[s] is 0 and
	 * csf_hist_quantile() bounds the longest by its bucket.
	 */
	uint32_t max_known;
	uint64_t count[CSF_NR_STATES][CSF_HIST_BUCKETS];
	uint64_t max_ns[CSF_NR_STATES];
	uint64_t max_end[CSF_NR_STATES]; /* ticks: when it ended; 0: none */
	struct csf_task waker;		/* who last ended a sleep */
	struct csf_task preemptor;	/* who last took its CPU */
	uint64_t nr_waits;		/* off-CPU intervals closed */
	/* the last of them, in ticks, as the page has them: the latest is
	 * waits[(nr_waits - 1) % CSF_WAITS] */
	struct csf_wait waits[CSF_WAITS];
};

/* States for csf_hist_quantile(): one, or all four off the CPU. */
#define CSF_HIST_STATE(s)	(1u << (s))
#define CSF_HIST_OFF_CPU	(CSF_HIST_STATE(CSF_STATE_RUNNABLE) | \
				 CSF_HIST_STATE(CSF_STATE_SLEEPING) | \
				 CSF_HIST_STATE(CSF_STATE_IOWAIT) | \
				 CSF_HIST_STATE(CSF_STATE_BLOCKED))

/*
 * csf_thread_hist - the calling thread's histograms.  Registers the thread
 * on first use, as csf_thread_snap() does.  0, -EOPNOTSUPP when the module
 * is older than ABI 1.1, or as csf_thread_snap().
 */
int csf_thread_hist(struct csf_hist *h);

/*
 * csf_thread_read_hist - the histograms of a thread mapped with
 * csf_thread_map().  0, -EINVAL (@map NULL), -EOPNOTSUPP (a page older
 * than ABI 1.1) or -EAGAIN as csf_thread_read().
 */
int csf_thread_read_hist(const struct csf_thread_map *map,
			 struct csf_hist *h);

/*
 * csf_hist_delta - what happened between two reads of one thread's
 * histograms: the intervals that closed between them, bucket by bucket;
 * the longest of each state where it is known (max_known); and, in
 * waker, preemptor and waits[], those of @after that fall between the two
 * reads (the others zeroed; nr_waits counts the delta's waits).  -EINVAL
 * for two threads or registrations, or an @after older than @before.
 */
int csf_hist_delta(const struct csf_hist *before, const struct csf_hist *after,
		   struct csf_hist *out);

/*
 * csf_hist_quantile - the @q quantile (0 < @q <= 1: 0.5, 0.9, 0.99, and
 * 1 for the longest), in nanoseconds, of the intervals of the states in
 * @states (CSF_HIST_STATE(s) bits, or CSF_HIST_OFF_CPU), 0 when there are
 * none.  The rule, as Prometheus' histogram_quantile(): with N intervals,
 * the rank q * N falls in bucket b, of bounds [L, U), after C intervals of
 * the buckets below it; the quantile is L + (U - L) * (q * N - C) /
 * count[b], linear within the bucket.  The last bucket's U is the longest
 * interval when that is known, else 2 * L.  When the longest of every
 * state asked is known (max_known), no quantile exceeds it and q = 1 is
 * that longest exactly.
 */
uint64_t csf_hist_quantile(const struct csf_hist *h, unsigned int states,
			   double q);

/* What csf_hist_summarize() tells of the intervals of some states. */
struct csf_hist_summary {
	uint64_t count;			/* intervals */
	uint64_t p50_ns, p90_ns, p99_ns;
	uint64_t max_ns;		/* the longest, or its bucket's bound */
	int max_known;			/* max_ns is the longest exactly */
};

/*
 * csf_hist_summarize - the intervals of the states in @states of @h, in
 * one pass: how many, and their quantiles 0.5, 0.9, 0.99 and 1 exactly as
 * csf_hist_quantile() gives them; all zero when there are none.
 */
void csf_hist_summarize(const struct csf_hist *h, unsigned int states,
			struct csf_hist_summary *out);

/*
 * Monitor session: every registered thread the caller may map, and every
 * CPU, one sample at a time, as csftop and the PCP agent read them.  A
 * sample costs one sequence-counter copy per thread and per CPU; the list
 * of threads is read again only when the module's generation changed.
 */
struct csf_session;

/* One sample, the session's until its next csf_session_read() or close. */
struct csf_sample {
	/*
	 * The threads, in tid order, each once.  A thread that exited is
	 * given, its state CSF_STATE_EXITED with final totals, in at least
	 * one sample: those until the module's list no longer has it.
	 * Writable: the caller may adjust its copy (say, a test's clock).
	 */
	struct csf_snap *threads;
	size_t nthreads;
	/*
	 * By thread: its histograms read in this sample, because an
	 * interval closed since the last read, or NULL (nothing new, or
	 * histograms off); and the latest read, whenever it was, or NULL.
	 */
	const struct csf_hist *const *hists;
	const struct csf_hist *const *lasts;
	struct csf_cpu_snap *cpus;	/* writable, as threads */
	unsigned int ncpus;
	unsigned int denied;		/* registered, not ours to map */
	uint64_t missed;		/* the module's nr_missed */
};

/*
 * csf_session_open - a session, in *@out.  0, or -ENOENT (not mounted),
 * -EPROTO, -ENOMEM as csf_cpu_count().  Release with csf_session_close().
 */
int csf_session_open(struct csf_session **out);

/*
 * csf_session_tree - from the next sample on, only the threads of the
 * tree whose root is @root (see csf_thread_tree()); 0: every thread.
 */
void csf_session_tree(struct csf_session *s, pid_t root);

/*
 * csf_session_hists - whether samples read histograms (on from open).
 * Off, csf_sample.hists and lasts hold only NULL, and ~1.9 KB per
 * thread that switched is not copied.
 */
void csf_session_hists(struct csf_session *s, int on);

/*
 * csf_session_read - take a sample into @out: 0, or a negative errno
 * (-ENOENT: the filesystem went away; -ENOMEM).  A thread whose page
 * cannot be read this time (-EAGAIN) is left out of this sample.
 */
int csf_session_read(struct csf_session *s, struct csf_sample *out);

/* csf_session_close - release @s and its samples; NULL is accepted. */
void csf_session_close(struct csf_session *s);

/*
 * Group sums: a process's or a tree's times and counters, with one rule for
 * its exited threads, which csftop's process rows, pmdacsf's csf.proc and
 * a command's header all follow:
 *
 *   A process's times and counters are its threads' totals: those running
 *   now, and those that exited while the monitor watched.  The exited
 *   ones' stay in the sum until the process has no thread left to show.
 *
 * A thread that exits leaves the monitor its last page, once (see
 * struct csf_sample); the monitor folds it into a table of exited sums by
 * tgid (struct csf_gone), which a process's sum adds to its live threads'.
 */
struct csf_group {
	uint32_t tgid;
	uint64_t time_ns[CSF_NR_STATES];	/* per state */
	uint64_t nvcsw, nivcsw, wakeups, migrations;
};

/* The exited threads' sums, one per process, sorted by tgid; zero it first. */
struct csf_gone {
	struct csf_group *v;
	size_t n, cap;
};

/* csf_group_add - add @t's sums to @g's. */
void csf_group_add(struct csf_group *g, const struct csf_group *t);
/* csf_group_of_snap - a snapshot's totals, its ticks in nanoseconds. */
struct csf_group csf_group_of_snap(const struct csf_snap *t);
/* csf_tree_add_snap - add @t's totals to the sums of @tree. */
void csf_tree_add_snap(struct csf_tree *tree, const struct csf_snap *t);

/*
 * csf_gone_reserve - room for @n processes in all, so that csf_gone_add()
 * cannot fail: 0 or -ENOMEM.
 */
int csf_gone_reserve(struct csf_gone *gg, size_t n);
/* csf_gone_copy - @dst, a copy of @src: 0 or -ENOMEM (@dst unchanged). */
int csf_gone_copy(struct csf_gone *dst, const struct csf_gone *src);
/*
 * csf_gone_add - fold @t, the sums of an exited thread of process
 * @t->tgid, in: 0 or -ENOMEM, which it never is with room reserved.
 */
int csf_gone_add(struct csf_gone *gg, const struct csf_group *t);
/* csf_gone_find - process @tgid's exited threads' sums, or NULL. */
const struct csf_group *csf_gone_find(const struct csf_gone *gg,
				      uint32_t tgid);
/*
 * csf_gone_keep - drop the sums of the processes @shown(@arg, tgid) says
 * are no longer shown: a process with no thread left takes its exited
 * ones' with it.
 */
void csf_gone_keep(struct csf_gone *gg,
		   int (*shown)(const void *arg, uint32_t tgid),
		   const void *arg);
/* csf_gone_clear - empty @gg, keeping its memory. */
void csf_gone_clear(struct csf_gone *gg);
/* csf_gone_free - release @gg's memory; it is empty and zeroed after. */
void csf_gone_free(struct csf_gone *gg);

#ifdef __cplusplus
}
#endif

#endif /* COARSE_STAT_FS_H */
