// SPDX-License-Identifier: MIT
/*
 * test_rt_lock - waits on a PREEMPT_RT sleeping spinlock are recorded as
 * the kernel counts them: blocked, voluntary, ended by a wakeup; and on
 * every other kernel the same lock spins and leaves no blocked time.
 *
 * What the kernel does (Debian's linux-source-6.12 6.12.95 and
 * linux-source-7.3 7.3.4; line numbers 6.12 / 7.3):
 *
 * - spinlock_t on PREEMPT_RT is an rtmutex: rt_spin_lock() ->
 *   rtlock_slowlock() -> rtlock_slowlock_locked() (kernel/locking/
 *   rtmutex.c:1824 / 1856) saves the task state in saved_state, sets
 *   TASK_RTLOCK_WAIT (current_save_and_set_rtlock_wait_state(),
 *   include/linux/sched.h:279 / 296), spins only while the owner is on a
 *   CPU (rtmutex_spin_on_owner(), rtmutex.c:1506 / 1521: "!owner_on_cpu
 *   (owner)" stops the spin) and else calls schedule_rtlock(), which is
 *   __schedule(SM_RTLOCK_WAIT) (kernel/sched/core.c:6883 / 7438).  The
 *   holder keeps preemption enabled: __rt_spin_lock() only does
 *   migrate_disable() and rcu_read_lock() (kernel/locking/spinlock_rt.c:46),
 *   and spin_lock_irq()/spin_lock_irqsave() leave interrupts on
 *   (include/linux/spinlock_rt.h:91-101 / 93-110).
 * - __schedule() (core.c:6612 / 7111) reports it as a block, not a
 *   preemption: "preempt = sched_mode == SM_PREEMPT" (core.c:6666 / 7171)
 *   makes the tracepoint's preempt false, prev_state is READ_ONCE(
 *   prev->__state) == TASK_RTLOCK_WAIT (6672 / 7177),
 *   signal_pending_state() ignores it (neither INTERRUPTIBLE nor WAKEKILL,
 *   include/linux/sched/signal.h:405 / 432), so try_to_block_task()
 *   dequeues the task and switch_count is &prev->nvcsw (6681 / 7194):
 *   trace_sched_switch(false, prev, next, TASK_RTLOCK_WAIT), nvcsw++.
 *   The module (kmod/thread.c) records that as BLOCKED (not
 *   interruptible, not in_iowait), and its nvcsw must move with the
 *   kernel's, which /proc/PID/status prints (p->nvcsw, p->nivcsw,
 *   fs/proc/array.c:401 / 400).
 * - The unlock hands the lock over with wake_up_state(waiter,
 *   TASK_RTLOCK_WAIT) (rt_mutex_wake_up_q(), rtmutex.c:565 / 574): a
 *   normal try_to_wake_up() whose state matches __state, so
 *   ttwu_do_wakeup() fires sched_wakeup (core.c:3664 / 3747), and the
 *   module ends the blocked state there (wakeups++).  Other wakeups of a
 *   task in such a wait match only saved_state: ttwu_state_match() sets
 *   saved_state = TASK_RUNNING and wakes nothing (core.c:4017 / 4149), no
 *   sched_wakeup, and the task stays blocked until the lock is its.
 *
 * Which lock: sighand->siglock, a spinlock_t (include/linux/sched/
 * signal.h:22 / 23) shared by every thread of a process.  rt_sigprocmask
 * takes it whenever the mask changes (__set_current_blocked(), kernel/
 * signal.c:3096 / 3285, returns early on an unchanged mask), tgkill takes
 * the target's (do_send_sig_info(), signal.c:1293 / 1296) and wakes the
 * target inside it (complete_signal() -> signal_wake_up_state() ->
 * wake_up_state(), signal.c:772 / 740), and rt_sigtimedwait takes it again
 * right after its sleep (do_sigtimedwait(), signal.c:3630 / 3819).
 *
 * Why contention is certain (held_lock_is_waited_for): two threads pinned
 * to CPU 0.  HOLDER is SCHED_OTHER and sends signals with tgkill; WAITER
 * is SCHED_FIFO and takes them with sigtimedwait.  On one CPU the holder
 * runs only while the FIFO waiter is off the run queue, i.e. asleep in
 * sigtimedwait (it does nothing else in the measured stretch).  Each
 * round:
 *   1. HOLDER: tgkill -> siglock taken -> wake_up_state(WAITER).  A FIFO
 *      task waking on the CPU of a fair one is resched_curr() (a hard
 *      TIF_NEED_RESCHED even with lazy preemption, wakeup_preempt(),
 *      core.c:2140 / 2293), and try_to_wake_up()'s preempt guard ends with
 *      a preemption point: HOLDER is preempted still holding siglock
 *      (preemption is on under a spinlock_t on RT).
 *   2. WAITER returns from its sleep into do_sigtimedwait(), which takes
 *      siglock: the owner is HOLDER, not on a CPU, so no adaptive spin:
 *      TASK_RTLOCK_WAIT, schedule_rtlock(): blocked, nvcsw++.  HOLDER is
 *      boosted (priority inheritance) and runs.
 *   3. HOLDER unlocks: it is deboosted, then the waiter is woken
 *      (sched_wakeup) and preempts it again (rt_mutex_wake_up_q()).
 *   4. WAITER dequeues the signal, loops and sleeps in sigtimedwait
 *      (interruptible: sleeping, nvcsw++).
 * No step depends on timing: on one CPU the order is fixed by priorities,
 * not by who is faster, and qemu's round-robin of vCPUs under
 * single-threaded TCG cannot reorder anything within one vCPU.  (Across
 * two vCPUs, TCG is why plain hammering proves nothing: a holder whose
 * vCPU qemu is not running still counts as on its CPU, so a waiter on the
 * other vCPU spins adaptively instead of blocking.)  The deadline fair
 * server does not interfere: it only runs fair tasks starved by RT ones
 * for most of a period, and the waiter runs microseconds per round.
 * So, per round, on PREEMPT_RT: WAITER at least 2 voluntary switches (1
 * sleep, 1 rtlock wait), each ended by one wakeup, and blocked time;
 * HOLDER at least 2 involuntary ones.  Elsewhere siglock spins with
 * preemption off: WAITER gets siglock free once HOLDER is preempted at its
 * unlock or syscall exit: 1 voluntary switch, no blocked time; HOLDER at
 * least 1 involuntary one, never a voluntary one.
 *
 * hammered_siglock_keeps_counts: three threads (two on CPU 0, one on
 * CPU 1) flip their signal mask for a second.  Whether a holder is
 * preempted inside siglock there is luck, so only invariants are checked:
 * the page's switch counts move exactly as the kernel's, time adds up, a
 * thread that never sleeps is never sleeping, and its only voluntary
 * switches are blocked ones (RT) or there are none (elsewhere).
 *
 * Counts against the kernel's: a thread's kernel counter minus its page counter
 * is constant while the module misses nothing.  It is sampled between two
 * snapshots with equal counts (no switch happened during getrusage())
 * at the start and at the end of each stretch, and must not change.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

#define ROUNDS_MAX	2000		/* signals per run, at most */
#define ROUNDS_NS	1000000000ull	/* or this long, whichever first */
#define HAMMER_NS	1000000000ull
#define WAITER_PRIO	10

/* PREEMPT_RT: "PREEMPT_RT" in uname -v (init/Makefile), or the RT patch's
 * /sys/kernel/realtime. */
static int kernel_is_rt(void)
{
	struct utsname u;
	char c = 0;
	int fd;

	if (uname(&u) == 0 && strstr(u.version, "PREEMPT_RT"))
		return 1;
	fd = open("/sys/kernel/realtime", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = 0;
		close(fd);
	}
	return c == '1';
}

/*
 * The caller's p->nvcsw and p->nivcsw, which /proc/thread-self/status
 * prints too: getrusage(RUSAGE_THREAD) copies them without a lock
 * (accumulate_thread_rusage(), kernel/sys.c) and, unlike a /proc read,
 * fits between two switches of a spinner sharing the CPU on the debug
 * kernel, where mark_now() needs a read no switch interrupted.
 */
static int kernel_switches(long long *vol, long long *invol)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -errno;
	*vol = ru.ru_nvcsw;
	*invol = ru.ru_nivcsw;
	return 0;
}

/*
 * A snapshot *s and the offsets kernel - page of both switch counts, taken
 * where no switch happened during the read.
 */
struct mark {
	struct csf_snap s;
	long long vol_off, invol_off;
};

static int mark_now(struct mark *m)
{
	struct csf_snap before;
	long long v = 0, i = 0;
	int tries, err;

	for (tries = 0; tries < 1000; tries++) {
		if ((err = csf_thread_snap(&before)))
			return err;
		if ((err = kernel_switches(&v, &i)))
			return err;
		if ((err = csf_thread_snap(&m->s)))
			return err;
		if (before.nvcsw == m->s.nvcsw && before.nivcsw == m->s.nivcsw) {
			m->vol_off = v - (long long)m->s.nvcsw;
			m->invol_off = i - (long long)m->s.nivcsw;
			return 0;
		}
	}
	return -EAGAIN;
}

static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* One thread's stretch: its two marks and what went wrong, if anything. */
struct side {
	const char *name;
	struct mark a, b;
	int err;
	char what[96];
};

static void side_fail(struct side *sd, int err, const char *what)
{
	if (sd->err)
		return;
	sd->err = err ? err : -EIO;
	snprintf(sd->what, sizeof(sd->what), "%s", what);
}

static void side_check(const struct side *sd, struct csf_delta *d)
{
	char line[CSF_DIFF_BUFSZ];
	long long kv, ki;
	uint64_t sum, diff;

	ck_assert_msg(!sd->err, "%s: %s: %s", sd->name, sd->what,
		      csf_strerror(sd->err));
	ck_assert_int_eq(csf_snap_delta(&sd->a.s, &sd->b.s, d), 0);
	ck_assert_int_gt(csf_format_diff(line, sizeof(line), &sd->a.s,
					 &sd->b.s), 0);
	kv = sd->b.vol_off + (long long)sd->b.s.nvcsw -
	     (sd->a.vol_off + (long long)sd->a.s.nvcsw);
	ki = sd->b.invol_off + (long long)sd->b.s.nivcsw -
	     (sd->a.invol_off + (long long)sd->a.s.nivcsw);
	vm_note("%s: %s", sd->name, line);
	vm_note("%s: page %llu vol %llu invol, kernel %lld vol %lld invol, %llu wakeups",
		sd->name, (unsigned long long)d->nvcsw,
		(unsigned long long)d->nivcsw, kv, ki,
		(unsigned long long)d->wakeups);

	/* The page's counts move exactly as the kernel's own. */
	ck_assert_msg(sd->a.vol_off == sd->b.vol_off,
		      "%s: voluntary switches: page %llu, kernel %lld",
		      sd->name, (unsigned long long)d->nvcsw, kv);
	ck_assert_msg(sd->a.invol_off == sd->b.invol_off,
		      "%s: involuntary switches: page %llu, kernel %lld",
		      sd->name, (unsigned long long)d->nivcsw, ki);
	/* Totals add up to the wall time (five tick-to-ns roundings). */
	sum = d->run_ns + d->runnable_ns + d->sleep_ns + d->iowait_ns +
	      d->blocked_ns;
	diff = sum > d->wall_ns ? sum - d->wall_ns : d->wall_ns - sum;
	ck_assert_msg(diff <= 5, "%s: parts %llu ns != wall %llu ns", sd->name,
		      (unsigned long long)sum, (unsigned long long)d->wall_ns);
	ck_assert_uint_eq(d->iowait_ns, 0);
}

/* ---- held_lock_is_waited_for ------------------------------------------ */

struct pair {
	pthread_barrier_t setup;
	atomic_int waiter_tid;
	atomic_int waiter_ready;
	int sig, stop_sig;
	long sent, received;		/* including the stop signal */
	struct side waiter, holder;
};

static void *waiter_main(void *arg)
{
	struct pair *pr = arg;
	struct side *sd = &pr->waiter;
	struct sched_param sp = { .sched_priority = WAITER_PRIO };
	struct timespec zero = { 0, 0 }, limit = { 5, 0 };
	struct csf_snap reg;
	sigset_t set;
	int err, sig;

	sigemptyset(&set);
	sigaddset(&set, pr->sig);
	sigaddset(&set, pr->stop_sig);
	if ((err = pin_self(0)))
		side_fail(sd, err, "pin to CPU 0");
	else if ((err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)))
		side_fail(sd, -err, "SCHED_FIFO (needs root)");
	else if ((err = csf_thread_snap(&reg)))
		side_fail(sd, err, "register");
	/* Fault in sigtimedwait's code outside the stretch. */
	sigtimedwait(&set, NULL, &zero);
	atomic_store(&pr->waiter_tid, (int)gettid());
	pthread_barrier_wait(&pr->setup);
	if (sd->err) {
		atomic_store(&pr->waiter_ready, -1);
		return NULL;
	}

	if ((err = mark_now(&sd->a))) {
		side_fail(sd, err, "start mark");
		atomic_store(&pr->waiter_ready, -1);
		return NULL;
	}
	/* FIFO on CPU 0: the holder cannot run before this thread sleeps. */
	atomic_store(&pr->waiter_ready, 1);
	do {
		sig = sigtimedwait(&set, NULL, &limit);
		if (sig < 0) {
			side_fail(sd, -errno, "sigtimedwait");
			break;
		}
		pr->received++;
	} while (sig != pr->stop_sig);
	if ((err = mark_now(&sd->b)))
		side_fail(sd, err, "end mark");
	return NULL;
}

static void *holder_main(void *arg)
{
	struct pair *pr = arg;
	struct side *sd = &pr->holder;
	struct csf_snap reg;
	pid_t pid = getpid(), tid;
	uint64_t end;
	int err, ready;

	if ((err = pin_self(0)))
		side_fail(sd, err, "pin to CPU 0");
	else if ((err = csf_thread_snap(&reg)))
		side_fail(sd, err, "register");
	syscall(SYS_tgkill, pid, gettid(), 0);	/* fault in the code */
	pthread_barrier_wait(&pr->setup);
	tid = atomic_load(&pr->waiter_tid);
	while (!(ready = atomic_load(&pr->waiter_ready)))
		;
	if (ready < 0 || sd->err || pr->waiter.err) {
		side_fail(sd, 0, "waiter not ready");
		if (ready > 0)		/* let it finish */
			syscall(SYS_tgkill, pid, tid, pr->stop_sig);
		return NULL;
	}

	if ((err = mark_now(&sd->a)))
		side_fail(sd, err, "start mark");
	end = vm_mono_ns() + ROUNDS_NS;
	while (pr->sent < ROUNDS_MAX - 1 && vm_mono_ns() < end) {
		if (syscall(SYS_tgkill, pid, tid, pr->sig)) {
			side_fail(sd, -errno, "tgkill");
			break;
		}
		pr->sent++;
	}
	if (syscall(SYS_tgkill, pid, tid, pr->stop_sig))
		side_fail(sd, -errno, "tgkill (stop)");
	else
		pr->sent++;
	if ((err = mark_now(&sd->b)))
		side_fail(sd, err, "end mark");
	return NULL;
}

START_TEST(held_lock_is_waited_for)
{
	int rt = kernel_is_rt();
	struct csf_delta w, h;
	struct pair pr;
	pthread_t tw, th;
	sigset_t set, old;
	uint64_t r;

	vm_note("kernel is %sPREEMPT_RT", rt ? "" : "not ");
	memset(&pr, 0, sizeof(pr));
	pr.sig = SIGRTMIN;
	pr.stop_sig = SIGRTMIN + 1;
	pr.waiter.name = "waiter";
	pr.holder.name = "holder";
	/* Blocked in every thread: only sigtimedwait takes them. */
	sigemptyset(&set);
	sigaddset(&set, pr.sig);
	sigaddset(&set, pr.stop_sig);
	ck_assert_int_eq(pthread_sigmask(SIG_BLOCK, &set, &old), 0);
	ck_assert_int_eq(pthread_barrier_init(&pr.setup, NULL, 2), 0);
	ck_assert_int_eq(pthread_create(&tw, NULL, waiter_main, &pr), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, holder_main, &pr), 0);
	pthread_join(th, NULL);
	pthread_join(tw, NULL);
	pthread_barrier_destroy(&pr.setup);
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	side_check(&pr.waiter, &w);
	side_check(&pr.holder, &h);
	r = (uint64_t)pr.sent;
	vm_note("%ld rounds", pr.sent);
	ck_assert_int_eq(pr.received, pr.sent);
	ck_assert_uint_gt(r, 0);

	/* The waiter: each round one sleep in sigtimedwait, never blocked
	 * there (interruptible), and every stop ended by one wakeup. */
	ck_assert_uint_gt(w.sleep_ns, 0);
	ck_assert_uint_eq(w.wakeups, w.nvcsw);
	/* The holder never sleeps, never blocks on the waiter's behalf. */
	ck_assert_uint_eq(h.sleep_ns, 0);
	ck_assert_uint_eq(h.wakeups, h.nvcsw);
	if (rt) {
		/* One rtlock wait per round on top of the sleep: blocked,
		 * voluntary, ended by the unlock's sched_wakeup. */
		ck_assert_uint_ge(w.nvcsw, 2 * r);
		ck_assert_msg(w.blocked_ns > 0,
			      "waiter: %llu rtlock waits recorded with no blocked time",
			      (unsigned long long)(w.nvcsw - r));
		/* Preempted at the wakeup under siglock and at the unlock. */
		ck_assert_uint_ge(h.nivcsw, 2 * r);
	} else {
		/* siglock spins: no wait on it, no blocked time. */
		ck_assert_uint_ge(w.nvcsw, r);
		ck_assert_uint_eq(w.blocked_ns, 0);
		ck_assert_uint_eq(h.nvcsw, 0);
		ck_assert_uint_eq(h.blocked_ns, 0);
		ck_assert_uint_ge(h.nivcsw, r);
	}
}
END_TEST

/* ---- hammered_siglock_keeps_counts ------------------------------------- */

#define NHAMMER 3

struct hammer {
	pthread_barrier_t *start;
	int cpu;
	long flips;
	struct side sd;
};

static void *hammer_main(void *arg)
{
	struct hammer *hm = arg;
	struct csf_snap reg;
	sigset_t one;
	uint64_t end;
	int err, i;

	sigemptyset(&one);
	sigaddset(&one, SIGUSR2);
	if ((err = pin_self(hm->cpu)))
		side_fail(&hm->sd, err, "pin");
	else if ((err = csf_thread_snap(&reg)))
		side_fail(&hm->sd, err, "register");
	pthread_sigmask(SIG_BLOCK, &one, NULL);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	pthread_barrier_wait(hm->start);
	if (hm->sd.err)
		return NULL;
	if ((err = mark_now(&hm->sd.a))) {
		side_fail(&hm->sd, err, "start mark");
		return NULL;
	}
	end = vm_mono_ns() + HAMMER_NS;
	/* A changed mask each call: siglock each call. */
	while (vm_mono_ns() < end) {
		for (i = 0; i < 64; i++) {
			syscall(SYS_rt_sigprocmask, SIG_BLOCK, &one, NULL,
				_NSIG / 8);
			syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &one, NULL,
				_NSIG / 8);
		}
		hm->flips += 128;
	}
	if ((err = mark_now(&hm->sd.b)))
		side_fail(&hm->sd, err, "end mark");
	return NULL;
}

START_TEST(hammered_siglock_keeps_counts)
{
	static const char *const names[NHAMMER] = { "hammer0", "hammer1",
						    "hammer2" };
	int rt = kernel_is_rt(), ncpu = vm_possible_cpus(), i;
	struct hammer hm[NHAMMER];
	pthread_barrier_t start;
	pthread_t t[NHAMMER];

	memset(hm, 0, sizeof(hm));
	ck_assert_int_eq(pthread_barrier_init(&start, NULL, NHAMMER), 0);
	for (i = 0; i < NHAMMER; i++) {
		hm[i].start = &start;
		hm[i].cpu = i == NHAMMER - 1 && ncpu > 1 ? 1 : 0;
		hm[i].sd.name = names[i];
		ck_assert_int_eq(pthread_create(&t[i], NULL, hammer_main,
						&hm[i]), 0);
	}
	for (i = 0; i < NHAMMER; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start);

	for (i = 0; i < NHAMMER; i++) {
		struct csf_delta d;

		side_check(&hm[i].sd, &d);
		vm_note("%s on CPU %d: %ld mask changes", names[i], hm[i].cpu,
			hm[i].flips);
		ck_assert_int_gt(hm[i].flips, 0);
		/* rt_sigprocmask never sleeps. */
		ck_assert_uint_eq(d.sleep_ns, 0);
		ck_assert_uint_eq(d.wakeups, d.nvcsw);
		if (rt) {
			/* Any voluntary switch was an rtlock wait: blocked. */
			ck_assert_msg((d.nvcsw > 0) == (d.blocked_ns > 0),
				      "%s: %llu voluntary switches, %llu ns blocked",
				      names[i], (unsigned long long)d.nvcsw,
				      (unsigned long long)d.blocked_ns);
		} else {
			ck_assert_uint_eq(d.nvcsw, 0);
			ck_assert_uint_eq(d.blocked_ns, 0);
		}
	}
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		held_lock_is_waited_for,
		hammered_siglock_keeps_counts,
		NULL,
	};

	return vm_run_tests("rt_lock", tests);
}
