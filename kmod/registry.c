// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - registered threads' entries and pages.
 *
 * A thread registers itself by opening thread-self, or is attached
 * (attach.c) or registered at its creation (tree.c).  Its entry lives in a
 * fixed hash table keyed by the task pointer, looked up without locks from
 * the probes (RCU), and is removed at sched_process_free, when the task
 * pointer can no longer reach a probe nor be reused.  The page itself is
 * reference counted: every open file and every mapping holds a reference,
 * so it outlives the entry for whoever still maps it.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "csf.h"
#include "thread.h"

struct hlist_head *csf_threads __ro_after_init;
unsigned int csf_hash_bits __ro_after_init;
DEFINE_RAW_SPINLOCK(csf_threads_lock);
atomic_t csf_nr_entries = ATOMIC_INIT(0);

static void csf_thread_free_rcu(struct rcu_head *rcu)
{
	struct csf_thread *t = container_of(rcu, struct csf_thread, rcu);

	csf_tree_put(t->tree);
	put_page(t->page);
	kfree(t);
}

/* An entry's memory, not yet anyone's. */
static struct csf_thread *csf_thread_new(gfp_t gfp)
{
	struct csf_thread *t = kzalloc(sizeof(*t), gfp);

	if (t)
		t->page = alloc_page(gfp | __GFP_ZERO);
	if (t && !t->page) {
		kfree(t);
		t = NULL;
	}
	return t;
}

static void csf_thread_delete(struct csf_thread *t)
{
	put_page(t->page);
	kfree(t);
}

/*
 * Make @t @p's, counted against the cap: its page gets its identity but no
 * state or clock.  No allocation: the fork probe uses it.
 */
int csf_thread_claim(struct csf_thread *t, struct task_struct *p)
{
	struct csf_thread_page *tp = page_address(t->page);

	if (atomic_inc_return(&csf_nr_entries) > csf_max_threads) {
		atomic_dec(&csf_nr_entries);
		return -ENOSPC;
	}
	t->task = p;
	t->tp = tp;
	raw_spin_lock_init(&t->lock);
	tp->magic = CSF_THREAD_MAGIC;
	tp->abi_major = CSF_ABI_MAJOR;
	tp->abi_minor = CSF_ABI_MINOR;
	tp->clock = csf_cpu_hdr->clock;
	tp->tid = task_pid_nr(p);
	tp->tgid = task_tgid_nr(p);
	memcpy(tp->comm, p->comm, sizeof(tp->comm));
	tp->comm[sizeof(tp->comm) - 1] = '\0';
	/* Not live until csf_thread_start(): the probes leave it alone. */
	tp->state = CSF_STATE_EXITED;
	return 0;
}

/* A new entry for @p, not in the table yet (process context). */
struct csf_thread *csf_thread_alloc(struct task_struct *p, gfp_t gfp)
{
	struct csf_thread *t = csf_thread_new(gfp);
	int err;

	if (!t)
		return ERR_PTR(-ENOMEM);
	err = csf_thread_claim(t, p);
	if (err) {
		csf_thread_delete(t);
		return ERR_PTR(err);
	}
	return t;
}

/* A claimed entry that never entered the table (process context). */
void csf_thread_discard(struct csf_thread *t)
{
	csf_thread_delete(t);
	atomic_dec(&csf_nr_entries);
}

/*
 * Entries made in process context for the fork probe, which may not
 * sleep (preemption is off there before 7.0, and PREEMPT_RT allows no
 * allocation then).  Filled when a registration with inherit is made,
 * refilled by a work item once half used, and given back by it once no
 * entry with inherit is left (csf_nr_inherit).  A fork bomb empties it
 * faster than it is refilled: then the probe allocates without sleeping,
 * except on PREEMPT_RT, where the children it finds empty are counted as
 * missed (nr_missed) even below the cap.
 */
#define CSF_RESERVE 64

static HLIST_HEAD(csf_reserve);
static unsigned int csf_reserve_nr;
static DEFINE_RAW_SPINLOCK(csf_reserve_lock);
atomic_t csf_nr_inherit = ATOMIC_INIT(0);

void csf_reserve_put(struct csf_thread *t)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&csf_reserve_lock, flags);
	hlist_add_head(&t->node, &csf_reserve);
	csf_reserve_nr++;
	raw_spin_unlock_irqrestore(&csf_reserve_lock, flags);
}

void csf_reserve_fill(void)
{
	struct csf_thread *t;

	while (READ_ONCE(csf_reserve_nr) < CSF_RESERVE) {
		t = csf_thread_new(GFP_KERNEL);
		if (!t)
			return;
		csf_reserve_put(t);
	}
}

/*
 * Checked under the reserve's lock: a registration with inherit counts
 * itself before it fills the reserve, so a fill is never given back.
 */
static void csf_reserve_adjust(struct work_struct *unused)
{
	struct csf_thread *t;
	struct hlist_node *tmp;
	unsigned long flags;
	HLIST_HEAD(drop);

	if (atomic_read(&csf_nr_inherit)) {
		csf_reserve_fill();
		return;
	}
	raw_spin_lock_irqsave(&csf_reserve_lock, flags);
	if (!atomic_read(&csf_nr_inherit)) {
		hlist_move_list(&csf_reserve, &drop);
		csf_reserve_nr = 0;
	}
	raw_spin_unlock_irqrestore(&csf_reserve_lock, flags);
	hlist_for_each_entry_safe(t, tmp, &drop, node)
		csf_thread_delete(t);
}

static DECLARE_WORK(csf_reserve_work, csf_reserve_adjust);

struct csf_thread *csf_reserve_take(void)
{
	struct csf_thread *t = NULL;
	unsigned long flags;
	bool low;

	raw_spin_lock_irqsave(&csf_reserve_lock, flags);
	if (!hlist_empty(&csf_reserve)) {
		t = hlist_entry(csf_reserve.first, struct csf_thread, node);
		hlist_del(&t->node);
		csf_reserve_nr--;
	}
	low = csf_reserve_nr < CSF_RESERVE / 2;
	raw_spin_unlock_irqrestore(&csf_reserve_lock, flags);
	/* Not the runqueue lock here: waking a worker is allowed. */
	if (low)
		schedule_work(&csf_reserve_work);
	if (!t && !IS_ENABLED(CONFIG_PREEMPT_RT))
		t = csf_thread_new(GFP_NOWAIT | __GFP_NOWARN);
	return t;
}

/*
 * Put @t in the table unless its task has an entry already, which is
 * returned instead.  Under csf_threads_lock, so a task never has two.
 */
struct csf_thread *csf_thread_insert_locked(struct csf_thread *t)
{
	struct csf_thread *old;

	lockdep_assert_held(&csf_threads_lock);
	old = csf_thread_find(t->task);
	if (old)
		return old;
	hlist_add_head_rcu(&t->node, csf_bucket(t->task));
	atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->nr_allocated));
	return NULL;
}

/*
 * Make @t live in @state from @now on @cpu.  The caller keeps its probes
 * out: it holds t->lock, or @t is not in the table yet.
 */
void csf_thread_start(struct csf_thread *t, u64 now, u32 state, int cpu)
{
	struct task_struct *p = t->task;
	struct csf_thread_page *tp = t->tp;

	t->nvcsw0 = p->nvcsw;
	t->nivcsw0 = p->nivcsw;
	csf_write_begin(&tp->seq);
	tp->registered_at = now;
	tp->state_since = now;
	tp->cpu = cpu;
	tp->state = state;
	csf_write_end(&tp->seq);
	atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->nr_threads));
	csf_generation_bump();
}

/* Register current (idempotent) and return its page with a reference. */
int csf_thread_register(struct page **pagep)
{
	struct task_struct *p = current;
	struct csf_thread *t, *old;
	unsigned long flags;

	rcu_read_lock();
	t = csf_thread_find(p);
	if (t)
		get_page(t->page);
	rcu_read_unlock();
	if (t) {
		*pagep = t->page;
		return 0;
	}

	t = csf_thread_alloc(p, GFP_KERNEL);
	if (IS_ERR(t))
		return PTR_ERR(t);
	/*
	 * IRQs (and so preemption) off from the first timestamp to the
	 * insertion: the thread cannot be switched out unseen in between.
	 */
	raw_spin_lock_irqsave(&csf_threads_lock, flags);
	old = csf_thread_insert_locked(t);
	if (old)
		get_page(old->page);
	else
		csf_thread_start(t, csf_now(), CSF_STATE_RUNNING,
				 smp_processor_id());
	raw_spin_unlock_irqrestore(&csf_threads_lock, flags);
	if (old) {
		/* Attached by another meanwhile. */
		csf_thread_discard(t);
		t = old;
	} else {
		get_page(t->page);
	}
	*pagep = t->page;
	return 0;
}

/* Up to @max tids of live registered threads, in no order; the count. */
int csf_thread_tids(pid_t *tids, int max)
{
	struct csf_thread *t;
	unsigned long bkt;
	int n = 0;

	rcu_read_lock();
	for (bkt = 0; bkt < (1UL << csf_hash_bits) && n < max; bkt++)
		hlist_for_each_entry_rcu(t, &csf_threads[bkt], node) {
			if (n == max)
				break;
			if (READ_ONCE(t->tp->state) != CSF_STATE_EXITED)
				tids[n++] = READ_ONCE(t->tp->tid);
		}
	rcu_read_unlock();
	return n;
}

/*
 * sched_process_free: the task is gone for good (an RCU callback after its
 * last reference).  The entry leaves the table now and is freed after a
 * grace period, when no probe can still be looking at it.
 */
void csf_thread_free(struct task_struct *p)
{
	struct csf_thread *t;
	unsigned long flags;

	/* Every task is freed once: look without the lock first. */
	rcu_read_lock();
	t = csf_thread_find(p);
	rcu_read_unlock();
	if (!t)
		return;

	raw_spin_lock_irqsave(&csf_threads_lock, flags);
	hlist_del_init_rcu(&t->node);
	raw_spin_unlock_irqrestore(&csf_threads_lock, flags);
	atomic_dec(&csf_nr_entries);
	atomic64_dec(csf_hdr_counter(&csf_cpu_hdr->nr_allocated));
	if (READ_ONCE(t->tree) && atomic_dec_and_test(&csf_nr_inherit))
		schedule_work(&csf_reserve_work);
	call_rcu(&t->rcu, csf_thread_free_rcu);
}

int __init csf_registry_init(void)
{
	csf_hash_bits = max(order_base_2(csf_max_threads), 2) - 1;
	csf_threads = kvcalloc(1UL << csf_hash_bits, sizeof(*csf_threads),
			       GFP_KERNEL);
	return csf_threads ? 0 : -ENOMEM;
}

/*
 * Module exit or a failed load, after the probes are gone and RCU
 * callbacks have run.
 */
void csf_registry_exit(void)
{
	struct hlist_node *tmp;
	struct csf_thread *t;
	unsigned long bkt;

	cancel_work_sync(&csf_reserve_work);
	hlist_for_each_entry_safe(t, tmp, &csf_reserve, node)
		csf_thread_delete(t);
	INIT_HLIST_HEAD(&csf_reserve);
	csf_reserve_nr = 0;
	atomic_set(&csf_nr_inherit, 0);

	for (bkt = 0; bkt < (1UL << csf_hash_bits); bkt++)
		hlist_for_each_entry_safe(t, tmp, &csf_threads[bkt], node) {
			hlist_del(&t->node);
			csf_tree_put(t->tree);
			put_page(t->page);
			kfree(t);
		}
	atomic_set(&csf_nr_entries, 0);
	kvfree(csf_threads);
}
