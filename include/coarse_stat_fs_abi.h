/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * coarse_stat_fs_abi.h - the shared-memory ABI of coarse_stat_fs.
 *
 * This header is the only definition of the pages the kernel module
 * publishes; the module, the library and any third-party reader include it.
 * A reader in another language needs nothing else.
 *
 * Files of the filesystem (mounted at /sys/fs/coarse_stat_fs):
 *
 *   cpu            one header (struct csf_cpu_header) followed by one
 *                  struct csf_cpu_record per possible CPU, padded to whole
 *                  pages.  World-readable; mmap it read-only from offset 0.
 *   thread-self    opening it registers the calling thread; mmap of that fd
 *                  maps the thread's own struct csf_thread_page (one page,
 *                  offset 0, read-only).  The fd may be closed after mmap.
 *   threads/<tid>  the page of the registered thread that has tid <tid> now
 *                  (global pid namespace), mode 0400; gone once that thread
 *                  has exited, even while someone still maps its page.
 *                  Owned as /proc/<tid> files are (task_dump_owner()): by the
 *                  thread's current effective uid and gid, or by root (of
 *                  the user namespace it was exec'd in) while the thread is
 *                  not dumpable, as after it changed credentials (a daemon
 *                  that dropped root) or prctl(PR_SET_DUMPABLE, 0).  A thread
 *                  other than the leader that calls execve() takes the
 *                  leader's tid; its page's tid and its name follow.
 *   attach         write-only, mode 0222 (ABI 1.2): writing "PID" registers
 *                  every thread of the process PID names (in the writer's
 *                  pid namespace) that is not registered yet; "PID thread"
 *                  only the thread with that tid; either followed by
 *                  " inherit" also registers, at their creation, every
 *                  thread and process that a thread so registered creates
 *                  from then on.  One request per write(2), which returns
 *                  its length or fails with nothing registered: ESRCH no
 *                  such process, EPERM the opener of the file may not read
 *                  it as /proc/PID/stat's private fields (the ptrace read
 *                  rule, coarse_stat_fs(7)), ENOSPC max_threads reached,
 *                  ENOMEM, EINVAL a malformed request.  Opening it for
 *                  reading fails with EACCES.  A request with inherit
 *                  makes a tree (ABI 1.3, struct csf_tree_totals below).
 *                  "all" (ABI 1.4) registers every thread of the machine,
 *                  kernel threads included, and from then on every task
 *                  at its creation, in no tree, until the module unloads
 *                  (the module parameter attach_all=1 does it at load):
 *                  EPERM unless the opener has CAP_SYS_PTRACE in the
 *                  initial user namespace.  The creation rule is in force
 *                  from the first such request on, whatever it returns;
 *                  the present threads are registered all or nothing, and
 *                  a request may be repeated.  CSF_CPU_F_ALL says so.
 *
 * Clock.  Every timestamp and every duration in these pages is in "ticks"
 * of one clock, named by csf_cpu_header.clock:
 *
 *   CSF_CLOCK_TSC     the x86 time-stamp counter as returned by RDTSC in
 *                     user space (same TSC offset as the kernel sees);
 *   CSF_CLOCK_MONO    nanoseconds of CLOCK_MONOTONIC, as clock_gettime()
 *                     returns them;
 *   CSF_CLOCK_CNTVCT  the arm64 generic timer's virtual count, CNTVCT_EL0
 *                     as user space reads it, in ticks of CNTFRQ_EL0.
 *
 * The clock is chosen when the module loads and never changes while it is
 * loaded.  The counter of the architecture (TSC, CNTVCT) is chosen where
 * the kernel lets user space read it as its own vDSO does: on x86 a TSC
 * the kernel trusts, on arm64 a virtual count that no CPU traps (no
 * counter erratum's workaround).  Elsewhere it is CSF_CLOCK_MONO.  A
 * reader reads the counter with the vDSO's ordering: on arm64 an ISB
 * before the MRS, and later loads made to wait for its value.
 * Convert a duration to nanoseconds with
 *
 *   ns = (ticks * clock_mult) >> clock_shift      (128-bit product)
 *
 * or with clock_hz.  When the kernel later stops trusting the TSC it sets
 * CSF_CPU_F_TSC_UNSTABLE: the numbers stay on the same clock but may drift
 * between CPUs.
 *
 * Sequence counters.  Each record has a 32-bit sequence counter that is odd
 * while the kernel writes it.  A consistent copy is read like this (the
 * same protocol as the vDSO's and perf_event_mmap_page's):
 *
 *   do {
 *           seq = READ_ONCE(rec->seq);
 *           if (seq & 1)
 *                   continue;                  // writer active: retry
 *           smp_rmb();
 *           copy = *rec;                       // plain loads
 *           now = read_clock();                // to extrapolate, see below
 *           smp_rmb();
 *   } while (seq & 1 || READ_ONCE(rec->seq) != seq);
 *
 * On x86 smp_rmb() is a compiler barrier.  A writer never waits for a
 * reader, so a reader may retry but never blocks the scheduler.
 *
 * Extrapolation.  Totals count closed intervals only.  The interval of the
 * current state began at state_since; a reader adds (now - state_since) to
 * the total of the current state to get the value at "now".  Clock reads of
 * different CPUs can be a few ticks apart, so treat now < state_since as 0.
 * The kernel reads the clock that closes an interval only once the record's
 * counter is odd, so a reader that copied the record before that write
 * read its own clock before the time the write stamps: totals read one
 * after another never go back, but for the few cycles a CPU may read its
 * clock ahead of its earlier store becoming visible.
 *
 * Switch stamps.  A context switch is stamped with the probe's own read of
 * this clock in the sched_switch tracepoint, after the scheduler picked
 * the next task.  The scheduler stamps it earlier, with the run queue
 * clock read before the pick (schedstat's sum_exec_runtime and run_delay,
 * next->se.exec_start).  So each switch moves the pick's time from one
 * side to the other: into the running time of the task leaving and the
 * runnable time of the task coming in (coarse_stat_fs(7), "Against the
 * kernel's own numbers", gives it per kernel).  The pages keep the probe's
 * stamp.  The scheduler's is on sched_clock, not on this clock, and to
 * date a switch back to it would take from a state time a reader may
 * already have extrapolated to its own later "now": totals would go back.
 *
 * Versioning.  CSF_ABI_MAJOR changes when a field moves or changes meaning:
 * readers must refuse a major they do not know.  CSF_ABI_MINOR grows when
 * fields are added in reserved space or at the end of a record (sizes are
 * published in the header; a thread page's own abi_minor says which of its
 * fields exist): readers accept any minor and ignore what they do not
 * know.  Reserved fields read as zero.  coarse_stat_fs_abi_layout.h gives
 * the layout in numbers, the same on x86-64 and arm64, and the module and
 * the library assert it when they are built.
 *
 *   1.0  the first release.
 *   1.1  thread pages gain, after reserved[]: the interval histograms,
 *        the longest interval of each state, the last CSF_WAITS waits,
 *        and who last woke the thread and who last took its CPU.
 *   1.2  the attach file; the cpu header gains nr_missed.
 *   1.3  thread pages gain, after preemptor: tree_root and the totals of
 *        the tree a thread is the root of (struct csf_tree_totals).
 *   1.4  the attach file takes "all"; the cpu header's CSF_CPU_F_ALL.
 */
#ifndef COARSE_STAT_FS_ABI_H
#define COARSE_STAT_FS_ABI_H

#include <linux/types.h>

#define CSF_ABI_MAJOR		1
#define CSF_ABI_MINOR		4	/* 1.4: the whole machine */

#define CSF_CPU_MAGIC		0x55504373u	/* "sCPU" little endian */
#define CSF_THREAD_MAGIC	0x44485473u	/* "sTHD" little endian */

#define CSF_FS_NAME		"coarse_stat_fs"
#define CSF_FS_MAGIC		0x63736673u	/* statfs f_type, "csfs" */
#define CSF_DEFAULT_ROOT	"/sys/fs/coarse_stat_fs"
#define CSF_ATTACH_FILE		"attach"	/* in the root, ABI 1.2 */

/* csf_cpu_header.clock */
enum csf_clock {
	CSF_CLOCK_TSC = 1,
	CSF_CLOCK_MONO = 2,
	CSF_CLOCK_CNTVCT = 3,	/* arm64 */
};

/* csf_cpu_header.flags */
#define CSF_CPU_F_TSC_UNSTABLE	(1u << 0)
#define CSF_CPU_F_ALL		(1u << 1)	/* (1.4) "all" in force */

/*
 * Thread states.  The first CSF_NR_STATES index csf_thread_page.time[].
 *
 * RUNNING   on a CPU.
 * RUNNABLE  on a runqueue waiting for a CPU: preempted, or woken and not yet
 *           switched in.
 * SLEEPING  interruptible sleep (TASK_INTERRUPTIBLE): nanosleep, futex,
 *           poll, a read of a pipe or socket.
 * IOWAIT    asleep with in_iowait set, i.e. in io_schedule(): waiting on
 *           block or page-cache I/O.  This is the kernel's own definition
 *           of I/O wait (the one behind /proc/stat iowait), whatever the
 *           kind of sleep.
 * BLOCKED   any other stop: uninterruptible or killable without in_iowait
 *           (mutexes, the parent of vfork()), stopped, traced, frozen.
 * EXITED    terminal: the thread has exited; totals are final and no
 *           interval is open (state_since is the exit time).
 */
enum csf_state {
	CSF_STATE_RUNNING = 0,
	CSF_STATE_RUNNABLE = 1,
	CSF_STATE_SLEEPING = 2,
	CSF_STATE_IOWAIT = 3,
	CSF_STATE_BLOCKED = 4,
	CSF_NR_STATES = 5,
	CSF_STATE_EXITED = 5,
};

/* csf_cpu_record.state: what the CPU is doing since state_since. */
enum csf_cpu_state {
	CSF_CPU_BUSY = 0,	/* running a task other than the idle task */
	CSF_CPU_IDLE = 1,	/* idle task, no I/O waiter belongs to it */
	CSF_CPU_IOWAIT = 2,	/* idle task, an I/O waiter last ran here */
	CSF_CPU_NR_STATES = 3,
};

/*
 * /proc/stat buckets, index of csf_cpu_record.stat[], in nanoseconds, in the
 * order of a /proc/stat "cpuN" line.  Copied from the kernel's own
 * accounting (kcpustat, NOHZ idle times) every stat_period_ns.
 */
enum csf_stat {
	CSF_STAT_USER = 0,
	CSF_STAT_NICE,
	CSF_STAT_SYSTEM,
	CSF_STAT_IDLE,
	CSF_STAT_IOWAIT,
	CSF_STAT_IRQ,
	CSF_STAT_SOFTIRQ,
	CSF_STAT_STEAL,
	CSF_STAT_GUEST,
	CSF_STAT_GUEST_NICE,
	CSF_STAT_NR,
};

/*
 * The first bytes of the cpu file.  Fields without a sequence counter are
 * written once at load, except generation, nr_threads and flags, which are
 * single aligned 64/32-bit stores a reader may read at any time.
 */
struct csf_cpu_header {
	__u32 magic;		/* CSF_CPU_MAGIC */
	__u16 abi_major;	/* CSF_ABI_MAJOR */
	__u16 abi_minor;	/* CSF_ABI_MINOR */
	__u32 header_size;	/* bytes; the first record starts here */
	__u32 record_size;	/* bytes between two csf_cpu_records */
	__u32 nr_cpus;		/* records: possible CPUs, ids 0..nr_cpus-1 */
	__u32 clock;		/* enum csf_clock */
	__u64 clock_hz;		/* ticks per second */
	__u32 clock_mult;	/* ns = (ticks * clock_mult) >> clock_shift */
	__u32 clock_shift;
	__u32 flags;		/* CSF_CPU_F_* */
	__u32 max_threads;	/* module parameter: registration cap */
	__u64 generation;	/* +1 at every registration, thread exit
				 * and change of tid (exec from a thread
				 * other than the leader) */
	__u64 nr_threads;	/* threads registered and not yet exited */
	__u64 stat_period_ns;	/* refresh period of csf_cpu_record.stat[] */
	__u64 load_time;	/* ticks: when the module loaded */
	__u64 nr_allocated;	/* thread pages held by the module: registered
				 * threads plus exited ones the kernel has not
				 * yet released; a mapping keeps its page
				 * alive on its own */
	__u64 nr_missed;	/* (1.2) threads and processes that a thread
				 * registered with inherit created and that
				 * could not be registered: max_threads
				 * reached, or no page ready at the fork */
	__u64 reserved[4];
};

/*
 * One per possible CPU.  Two writers, two sequence counters: the CPU's own
 * sched_switch probe writes the first cache line under seq; a deferrable
 * timer writes stat[] under stat_seq.
 */
struct csf_cpu_record {
	/* written by sched_switch on this CPU, protected by seq */
	__u32 seq;
	__u32 state;		/* enum csf_cpu_state */
	__u64 state_since;	/* ticks: start of the current state */
	__u64 time[CSF_CPU_NR_STATES]; /* ticks per closed interval */
	__u64 nr_switches;	/* context switches on this CPU */
	__u64 reserved0[2];

	/* written by the stat timer, protected by stat_seq */
	__u32 stat_seq;
	__u32 online;		/* 1 when the CPU was online at stat_time */
	__u64 stat_time;	/* ticks: when stat[] was copied */
	__u64 stat[CSF_STAT_NR]; /* ns, enum csf_stat */
	__u64 reserved1[4];
};

/*
 * Interval histograms (ABI 1.1).  Whenever an interval of a state closes
 * (the thread leaves the state; an interval of length 0 closes nothing),
 * with len its length in ticks and
 *
 *   ns = (len * clock_mult) >> clock_shift   (the cpu header's conversion)
 *
 * hist[state][b] counts one, for the bucket
 *
 *   b = 0                      when ns < 2^10 (1.024 us)
 *   b = fls64(ns) - 10         when 2^10 <= ns < 2^34
 *   b = CSF_HIST_BUCKETS - 1   when ns >= 2^34 (17.18 s)
 *
 * where fls64(x) is the 1-based position of x's highest set bit.  So
 * bucket 0 holds [0, 2^10) ns, bucket b of 1..24 holds [2^(b+9), 2^(b+10))
 * ns, and bucket 25 holds 2^34 ns and more.  Bucket b < 25 has the upper
 * bound CSF_HIST_UPPER_NS(b) = 2^(b+10) ns, exclusive.
 */
#define CSF_HIST_BUCKETS	26
#define CSF_HIST_MIN_SHIFT	10	/* bucket 0 ends at 2^10 ns */
#define CSF_HIST_UPPER_NS(b)	(1ull << ((b) + CSF_HIST_MIN_SHIFT))

/*
 * One closed off-CPU interval (RUNNABLE, SLEEPING, IOWAIT or BLOCKED), for
 * csf_thread_page.waits[].
 */
struct csf_wait {
	__u64 end;		/* ticks: when it ended */
	__u64 len;		/* ticks */
	__u32 state;		/* enum csf_state */
	__u32 reserved;
};

/* A task named in a thread page: who woke it, who took its CPU. */
struct csf_task_ref {
	__u64 at;		/* ticks: when; 0: never */
	__u32 tid;		/* global pid namespace; 0 with an empty comm:
				 * an interrupt, no task */
	__u32 reserved;
	char comm[16];		/* its name then */
};

#define CSF_WAITS		32	/* a power of two */

/*
 * A tree (ABI 1.3): the threads an attach request with inherit registers,
 * and every thread and process they create from then on, registered at
 * creation (the fork of a member makes a member).  An entry that was
 * registered already joins the tree if it is in none.  The totals live in
 * the page of the tree's root, the first thread the request names (the
 * process's leader for a process); in every other page they are zero.
 * They outlive the root: a mapping of its page (made before it exited:
 * threads/<tid> is gone after) shows the tree until its last member
 * exits, and after.
 *
 * A member that exits adds its page's final time[] and counters here, in
 * the same write section of its page that makes it EXITED: so a reader
 * that sums the tree's live members and these totals, and finds seq
 * unchanged around that, counted every member once.  Own sequence count
 * (the writers are the members' CPUs, one at a time).
 */
struct csf_tree_totals {
	__u32 seq;
	__u32 reserved0;
	__u64 began;		/* ticks: when the root joined; 0: no tree */
	__u64 last_exit;	/* ticks: the latest exit of a member */
	__u64 nr_members;	/* threads that joined, the root included */
	__u64 nr_processes;	/* of them, processes' leaders */
	__u64 nr_exited;	/* of them, exited: summed below */
	__u64 nr_missed;	/* threads and processes members created
				 * that could not be registered (also in
				 * the cpu header's nr_missed) */
	__u64 time[CSF_NR_STATES]; /* ticks, of the exited members */
	__u64 nvcsw;
	__u64 nivcsw;
	__u64 wakeups;
	__u64 migrations;
	__u64 reserved[4];
};

/*
 * A registered thread's page.  Only the first sizeof(struct
 * csf_thread_page) bytes of the page are used.  One writer at a time (the
 * probes take a per-thread lock); readers use seq.  The fields after
 * reserved[] exist from ABI 1.1 (abi_minor >= 1); the same seq covers
 * them, up to tree, which has its own (ABI 1.3).
 */
struct csf_thread_page {
	__u32 magic;		/* CSF_THREAD_MAGIC */
	__u16 abi_major;
	__u16 abi_minor;
	__u32 seq;
	__u32 state;		/* enum csf_state */
	__u64 state_since;	/* ticks: start of the current state */
	__u64 time[CSF_NR_STATES]; /* ticks per closed interval */
	__u64 nvcsw;		/* voluntary switches (as /proc status) */
	__u64 nivcsw;		/* involuntary switches */
	__u64 wakeups;		/* ends of a SLEEPING/IOWAIT/BLOCKED state */
	__u64 migrations;	/* CPU changes */
	__u32 cpu;		/* CPU it runs on or last ran on */
	__u32 clock;		/* enum csf_clock, as in the cpu header */
	__u32 tid;		/* global pid namespace; the leader's after an
				 * execve() from another thread */
	__u32 tgid;
	__u64 registered_at;	/* ticks: sum(time) + open = now - this */
	char comm[16];		/* task name, refreshed at each switch-out
				 * and at exec */
	__u64 reserved[8];

	/* ABI 1.1 */
	__u64 hist[CSF_NR_STATES][CSF_HIST_BUCKETS]; /* closed intervals
				 * per state and length bucket, see above */
	__u64 max_len[CSF_NR_STATES]; /* ticks: the longest closed interval
				 * of each state since registration */
	__u64 max_end[CSF_NR_STATES]; /* ticks: when it ended; 0: none yet */
	__u64 nr_waits;		/* off-CPU intervals closed since registration */
	struct csf_wait waits[CSF_WAITS]; /* the last of them: the latest is
				 * waits[(nr_waits - 1) % CSF_WAITS] */
	struct csf_task_ref waker; /* the task that last ended a sleep of
				 * this thread: the one running when the
				 * wakeup began (sched_waking), or an
				 * interrupt; at is when the sleep ended */
	struct csf_task_ref preemptor; /* the task that last took its CPU
				 * while it was still runnable: the next
				 * of that sched_switch, a preemption in
				 * the kernel or on the way back to user
				 * space, where the tracepoint's preempt
				 * is false */

	/* ABI 1.3 */
	__u32 tree_root;	/* the tid of the root of the tree this thread
				 * is a member of, as it was when the tree
				 * began; 0: in none */
	__u32 reserved2;
	struct csf_tree_totals tree; /* when this is a tree's root */
};

#endif /* COARSE_STAT_FS_ABI_H */
