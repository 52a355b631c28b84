/* SPDX-License-Identifier: GPL-2.0 */
/*
 * thread.h - registered threads' entries, shared by the files that keep
 * them, each using only those before it: registry.c, tree.c, attach.c and
 * thread.c.
 */
#ifndef CSF_THREAD_H
#define CSF_THREAD_H

#include <linux/hash.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>

/*
 * A tree (the ABI header's struct csf_tree_totals): each member's entry
 * holds a reference until it is freed, and the tree holds the root's
 * page, where its totals are, until its last member is gone.
 */
struct csf_tree {
	refcount_t ref;
	raw_spinlock_t lock;		/* one writer of *tt at a time */
	struct page *page;		/* the root's */
	struct csf_tree_totals *tt;	/* in page */
	u32 root;			/* the root's tid */
};

struct csf_thread {
	struct hlist_node node;		/* in csf_threads, keyed by task */
	struct task_struct *task;	/* the key; valid until removal */
	struct page *page;		/* one reference held by the entry */
	struct csf_thread_page *tp;
	raw_spinlock_t lock;		/* serialises writers of tp, and waker */
	unsigned long nvcsw0, nivcsw0;	/* the task's counts at registration */
	struct csf_tree *tree;		/* set once: its new tasks join it */
	/* who began the wakeup under way (sched_waking), for its end */
	u32 waker_tid;
	char waker_comm[TASK_COMM_LEN];
	struct rcu_head rcu;
};

/* registry.c */
/*
 * The entries, hashed by task pointer into 2^csf_hash_bits buckets: half
 * as many as max_threads, sized once at load.
 */
extern struct hlist_head *csf_threads;
extern unsigned int csf_hash_bits;
/* Serialises insertion and removal; lookups use RCU. */
extern raw_spinlock_t csf_threads_lock;
/* Entries with a tree: the reserve is kept while there are any. */
extern atomic_t csf_nr_inherit;

static inline atomic64_t *csf_hdr_counter(__u64 *field)
{
	return (atomic64_t *)field;
}

/*
 * The list of threads changed: a monitor that reads the new generation
 * rescans, so the change must be visible before it.  atomic64_inc() orders
 * nothing on arm64 (on x86 it is a full barrier already).
 */
static inline void csf_generation_bump(void)
{
	smp_mb__before_atomic();
	atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->generation));
}

static __always_inline struct hlist_head *csf_bucket(struct task_struct *p)
{
	return &csf_threads[hash_ptr(p, csf_hash_bits)];
}

/*
 * The fast negative check: almost no task is registered, and for those the
 * walk ends at an empty bucket after one load.
 *
 * Callers are RCU readers, by rcu_read_lock() or by running with IRQs or
 * preemption disabled (the scheduler's own locks).  The tracepoint does not
 * make them one since 7.0: it guards its probes with SRCU, not RCU.
 */
static __always_inline struct csf_thread *csf_thread_find(struct task_struct *p)
{
	struct csf_thread *t;

	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),
			 "coarse_stat_fs: registry walked outside RCU");
	hlist_for_each_entry_rcu_notrace(t, csf_bucket(p), node)
		if (t->task == p)
			return t;
	return NULL;
}

static inline void csf_tree_put(struct csf_tree *tree)
{
	if (!tree || !refcount_dec_and_test(&tree->ref))
		return;
	if (tree->page)
		put_page(tree->page);
	kfree(tree);
}

int csf_thread_claim(struct csf_thread *t, struct task_struct *p);
struct csf_thread *csf_thread_alloc(struct task_struct *p, gfp_t gfp);
void csf_thread_discard(struct csf_thread *t);
struct csf_thread *csf_thread_insert_locked(struct csf_thread *t);
void csf_thread_start(struct csf_thread *t, u64 now, u32 state, int cpu);
void csf_reserve_fill(void);
void csf_reserve_put(struct csf_thread *t);
struct csf_thread *csf_reserve_take(void);

/* tree.c */
void csf_tree_join(struct csf_thread *t, struct csf_tree *tree, u64 now);
void csf_tree_exit(struct csf_tree *tree, const struct csf_thread_page *tp);

/* The state of a task off the CPU and not runnable: attach.c, thread.c */
static inline u32 csf_sleep_state(struct task_struct *p, unsigned int state)
{
	if (p->in_iowait)
		return CSF_STATE_IOWAIT;
	if (state & TASK_INTERRUPTIBLE)
		return CSF_STATE_SLEEPING;
	return CSF_STATE_BLOCKED;
}

#endif /* CSF_THREAD_H */
