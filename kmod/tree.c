// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - trees: the threads registered with inherit, and the tasks they
 * create, which the fork probe registers from the registry's reserve.
 */
#include <linux/hashtable.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>

#include "csf.h"
#include "thread.h"

/*
 * A tree's totals change: the caller holds a member's lock or the table's
 * (IRQs off), and takes the tree's inside it.
 */
static struct csf_tree_totals *csf_tree_begin(struct csf_tree *tree)
	__acquires(&tree->lock)
{
	raw_spin_lock(&tree->lock);
	csf_write_begin(&tree->tt->seq);
	return tree->tt;
}

static void csf_tree_end(struct csf_tree *tree)
	__releases(&tree->lock)
{
	csf_write_end(&tree->tt->seq);
	raw_spin_unlock(&tree->lock);
}

/*
 * @t, live, joins @tree at @now: its page names the root, the tree counts
 * it, and what its task creates joins too.  The caller holds t->lock, or
 * @t is not in the table yet; IRQs are off.
 */
void csf_tree_join(struct csf_thread *t, struct csf_tree *tree, u64 now)
{
	struct csf_tree_totals *tt;

	refcount_inc(&tree->ref);
	/*
	 * The fork probe reads t->tree without a lock: a new tree's fields,
	 * set just before under csf_threads_lock, must be visible first.
	 */
	smp_store_release(&t->tree, tree);
	atomic_inc(&csf_nr_inherit);
	csf_write_begin(&t->tp->seq);
	t->tp->tree_root = tree->root;
	csf_write_end(&t->tp->seq);
	tt = csf_tree_begin(tree);
	if (!tt->began)
		tt->began = now;
	tt->nr_members++;
	if (thread_group_leader(t->task))
		tt->nr_processes++;
	csf_tree_end(tree);
}

/*
 * A member's final totals, in its page's write section that makes it
 * EXITED (the ABI header says why).  The exit is stamped inside the tree's
 * own write: a reader extends a running tree's wall to its clock (csf.h).
 */
void csf_tree_exit(struct csf_tree *tree, const struct csf_thread_page *tp)
{
	struct csf_tree_totals *tt = csf_tree_begin(tree);
	int i;

	for (i = 0; i < CSF_NR_STATES; i++)
		tt->time[i] += tp->time[i];
	tt->nvcsw += tp->nvcsw;
	tt->nivcsw += tp->nivcsw;
	tt->wakeups += tp->wakeups;
	tt->migrations += tp->migrations;
	tt->nr_exited++;
	tt->last_exit = csf_now();
	csf_tree_end(tree);
}

/*
 * sched_process_fork, in the parent (current), before the child is first
 * woken: a child of a thread registered with inherit, or any child once
 * "all" was asked for, is registered, live at once and runnable from its
 * creation, as nothing can run or wake it yet.  Before 7.0 the probe
 * runs with preemption disabled, so nothing here may sleep; a registration
 * that fails is counted (nr_missed), not retried.
 */
void csf_thread_fork(struct task_struct *parent, struct task_struct *child)
{
	struct csf_tree *tree;
	struct csf_thread *t;
	unsigned long flags;
	u64 now;

	rcu_read_lock();
	t = csf_thread_find(parent);
	tree = t ? READ_ONCE(t->tree) : NULL;
	rcu_read_unlock();
	/* The parent's entry, and so its tree, lasts while it runs this. */
	if (!tree && !static_branch_unlikely(&csf_all))
		return;

	t = csf_reserve_take();
	if (!t || csf_thread_claim(t, child)) {
		if (t)
			csf_reserve_put(t);
		atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->nr_missed));
		if (!tree)
			return;
		local_irq_save(flags);
		csf_tree_begin(tree)->nr_missed++;
		csf_tree_end(tree);
		local_irq_restore(flags);
		return;
	}
	raw_spin_lock_irqsave(&csf_threads_lock, flags);
	/* A new task has no entry: insertion cannot find one. */
	csf_thread_insert_locked(t);
	now = csf_now();
	csf_thread_start(t, now, CSF_STATE_RUNNABLE, task_cpu(child));
	if (tree)
		csf_tree_join(t, tree, now);
	raw_spin_unlock_irqrestore(&csf_threads_lock, flags);
}
