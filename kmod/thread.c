// SPDX-License-Identifier: GPL-2.0
/*
 * thread.c - the state machine the scheduler probes drive on registered
 * threads' pages (registry.c keeps the entries, tree.c the fork probe).
 *
 * State machine (per thread, under its lock; state.h has the part that
 * does not need the kernel).  Every event first closes the open interval
 * into the total of the recorded state, so the totals always add up to
 * the time since registration whatever order events come in:
 *
 *   switch out, asleep       -> SLEEPING, IOWAIT or BLOCKED
 *   switch out, preempted or
 *     still TASK_RUNNING     -> RUNNABLE
 *   switch out, either way   -> nvcsw, nivcsw: the task's own counters
 *                               since registration.  __schedule() bumps
 *                               them before it traces the switch, and by
 *                               a rule the tracepoint cannot always show:
 *                               since 6.12 a sleep cut short by a signal
 *                               is traced as prev_state TASK_RUNNING yet
 *                               counted voluntary.
 *   switch out, runnable     -> preemptor: the task switched in
 *   switch in                -> RUNNING on this CPU
 *   waking (its start)       -> the waker: the task running it, or an
 *                               interrupt; kept for the wakeup's end
 *   wakeup of an asleep one  -> RUNNABLE; wakeups++; waker
 *   wakeup of a RUNNING or
 *     RUNNABLE one           -> nothing: it was woken before it got off the
 *                               CPU, so it never slept (ttwu_runnable)
 *   migration                -> migrations++
 *   exec from a non-leader   -> tid: the leader's, which de_thread() gave it
 *   exit                     -> EXITED, terminal: later events are ignored;
 *                               a tree's member adds its totals to the tree
 *
 * and every interval that closes is counted in its state's histogram, may
 * be its longest, and, off the CPU, becomes the latest of waits[].
 */
#include <linux/hardirq.h>
#include <linux/hashtable.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "csf.h"
#include "thread.h"

/*
 * Writers of a page hold the thread's lock, then make the sequence count
 * odd.  NULL when the thread has exited: EXITED is terminal and later
 * events of the dying task change nothing.
 */
static __always_inline struct csf_thread_page *
csf_page_begin(struct csf_thread *t)
{
	lockdep_assert_held(&t->lock);
	if (!csf_state_live(t->tp))
		return NULL;
	csf_write_begin(&t->tp->seq);
	return t->tp;
}

static __always_inline void csf_page_end(struct csf_thread_page *tp)
{
	csf_write_end(&tp->seq);
}

static void csf_switch_out(struct csf_thread *t, bool preempt,
			   struct task_struct *prev, struct task_struct *next,
			   unsigned int prev_state)
{
	bool voluntary = !preempt && prev_state != TASK_RUNNING;
	struct csf_thread_page *tp;
	unsigned long flags;

	raw_spin_lock_irqsave(&t->lock, flags);
	tp = csf_page_begin(t);
	if (tp) {
		u64 now = csf_now();
		/* A pending signal keeps a voluntary sleeper runnable. */
		u32 state = voluntary && READ_ONCE(prev->__state) != TASK_RUNNING ?
			    csf_sleep_state(prev, prev_state) :
			    CSF_STATE_RUNNABLE;

		csf_state_switch_out(tp, &csf_state_clk, now, state,
				     prev->nvcsw - t->nvcsw0,
				     prev->nivcsw - t->nivcsw0);
		/*
		 * Still runnable, it lost its CPU to @next.  Not only when
		 * @preempt says so: that is an in-kernel preemption, and a
		 * thread preempted in user space is switched out by schedule()
		 * on its way back there, with preempt false.
		 */
		if (state == CSF_STATE_RUNNABLE)
			csf_state_name_task(&tp->preemptor, now,
					    task_pid_nr(next), next->comm);
		memcpy(tp->comm, prev->comm, sizeof(tp->comm) - 1);
		csf_page_end(tp);
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

static void csf_switch_in(struct csf_thread *t)
{
	struct csf_thread_page *tp;
	unsigned long flags;

	raw_spin_lock_irqsave(&t->lock, flags);
	tp = csf_page_begin(t);
	if (tp) {
		csf_state_switch_in(tp, &csf_state_clk, csf_now(),
				    smp_processor_id());
		csf_page_end(tp);
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

/* sched_switch: runqueue lock held, IRQs off. */
void csf_thread_switch(bool preempt, struct task_struct *prev,
		       struct task_struct *next, unsigned int prev_state)
{
	struct csf_thread *t;

	t = csf_thread_find(prev);
	if (t)
		csf_switch_out(t, preempt, prev, next, prev_state);
	t = csf_thread_find(next);
	if (t)
		csf_switch_in(t);
}

/*
 * sched_waking, in the waker's context, under p->pi_lock (IRQs off): the
 * waker is the task running, unless that is an interrupt (a timer, a
 * device), which is no task's doing: tid 0, no name.
 */
void csf_thread_waking(struct task_struct *p)
{
	struct csf_thread *t = csf_thread_find(p);
	unsigned long flags;

	if (!t)
		return;
	raw_spin_lock_irqsave(&t->lock, flags);
	if (in_task()) {
		t->waker_tid = task_pid_nr(current);
		memcpy(t->waker_comm, current->comm, sizeof(t->waker_comm));
	} else {
		t->waker_tid = 0;
		memset(t->waker_comm, 0, sizeof(t->waker_comm));
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

/*
 * May run on any CPU, under p->pi_lock and a runqueue lock, or from the
 * interrupt that runs a CPU's queued wakeups: the waker is the one
 * sched_waking saw.
 */
void csf_thread_wakeup(struct task_struct *p)
{
	struct csf_thread *t = csf_thread_find(p);
	struct csf_thread_page *tp;
	unsigned long flags;

	if (!t)
		return;
	raw_spin_lock_irqsave(&t->lock, flags);
	tp = csf_page_begin(t);
	if (tp) {
		u64 now = csf_now();

		if (csf_state_wakeup(tp, &csf_state_clk, now))
			csf_state_name_task(&tp->waker, now, t->waker_tid,
					    t->waker_comm);
		csf_page_end(tp);
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

void csf_thread_migrate(struct task_struct *p)
{
	struct csf_thread *t = csf_thread_find(p);
	struct csf_thread_page *tp;
	unsigned long flags;

	if (!t)
		return;
	raw_spin_lock_irqsave(&t->lock, flags);
	tp = csf_page_begin(t);
	if (tp) {
		csf_state_migrate(tp);
		csf_page_end(tp);
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

/*
 * Apply @update to @p's page inside its write section, if @p is registered
 * and has a page; true if it did.  For the probes that are preemptible
 * since 7.0 (exit, exec): the walk needs its own RCU read lock, as other
 * entries of the bucket may be freed under it.  Ours cannot, its task being
 * alive.
 */
static bool csf_thread_update(struct task_struct *p,
			      void (*update)(struct csf_thread *t,
					     struct task_struct *p))
{
	struct csf_thread_page *tp;
	struct csf_thread *t;
	unsigned long flags;
	bool done = false;

	rcu_read_lock();
	t = csf_thread_find(p);
	if (t) {
		raw_spin_lock_irqsave(&t->lock, flags);
		tp = csf_page_begin(t);
		if (tp) {
			update(t, p);
			csf_page_end(tp);
			done = true;
		}
		raw_spin_unlock_irqrestore(&t->lock, flags);
	}
	rcu_read_unlock();
	return done;
}

static void csf_page_exit(struct csf_thread *t, struct task_struct *p)
{
	u64 now = csf_now();

	csf_state_exit(t->tp, &csf_state_clk, now);
	if (t->tree)
		csf_tree_exit(t->tree, t->tp);
}

/* sched_process_exit: the thread itself, in do_exit(). */
void csf_thread_exit(struct task_struct *p)
{
	if (!csf_thread_update(p, csf_page_exit))
		return;
	atomic64_dec(csf_hdr_counter(&csf_cpu_hdr->nr_threads));
	csf_generation_bump();
}

static void csf_page_rename(struct csf_thread *t, struct task_struct *p)
{
	struct csf_thread_page *tp = t->tp;

	/* Read without the seqcount by csf_thread_tids(). */
	WRITE_ONCE(tp->tid, task_pid_nr(p));
	tp->tgid = task_tgid_nr(p);
	memcpy(tp->comm, p->comm, sizeof(tp->comm) - 1);
}

/*
 * sched_process_exec: the page takes the new name.  A thread that was not
 * its group's leader also has a new tid, the leader's, which de_thread()
 * gave it (@new_tid).  The registry is keyed by task, so the entry stays;
 * the page and the threads/ listing take the new tid, and a monitor's
 * list of threads/ changed: it is told as for an exit.
 */
void csf_thread_exec(struct task_struct *p, bool new_tid)
{
	if (csf_thread_update(p, csf_page_rename) && new_tid)
		csf_generation_bump();
}
