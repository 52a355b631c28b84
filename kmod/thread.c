// SPDX-License-Identifier: GPL-2.0
/*
 * thread.c - registered threads: their pages, the registry, and the state
 * machine the scheduler probes drive.
 *
 * A thread registers itself by opening thread-self.  Its entry lives in a
 * fixed hash table keyed by the task pointer, looked up without locks from
 * the probes (RCU), and is removed at sched_process_free, when the task
 * pointer can no longer reach a probe nor be reused.  The page itself is
 * reference counted: every open file and every mapping holds a reference,
 * so it outlives the entry for whoever still maps it.
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
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>

#include "csf.h"
#ifdef HAVE_TASK_EXEC_STATE
#include <linux/sched/exec_state.h>
#endif

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

#define CSF_HASH_BITS 12

static DEFINE_HASHTABLE(csf_threads, CSF_HASH_BITS);
/* Serialises insertion and removal; lookups use RCU. */
static DEFINE_RAW_SPINLOCK(csf_threads_lock);
atomic_t csf_nr_entries = ATOMIC_INIT(0);

static inline atomic64_t *csf_hdr_counter(__u64 *field)
{
	return (atomic64_t *)field;
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
	hash_for_each_possible_rcu_notrace(csf_threads, t, node,
					   (unsigned long)p)
		if (t->task == p)
			return t;
	return NULL;
}

static void csf_tree_put(struct csf_tree *tree)
{
	if (!tree || !refcount_dec_and_test(&tree->ref))
		return;
	if (tree->page)
		put_page(tree->page);
	kfree(tree);
}

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
static int csf_thread_claim(struct csf_thread *t, struct task_struct *p)
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
static struct csf_thread *csf_thread_alloc(struct task_struct *p, gfp_t gfp)
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
static void csf_thread_discard(struct csf_thread *t)
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
static atomic_t csf_nr_inherit = ATOMIC_INIT(0);

static void csf_reserve_put(struct csf_thread *t)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&csf_reserve_lock, flags);
	hlist_add_head(&t->node, &csf_reserve);
	csf_reserve_nr++;
	raw_spin_unlock_irqrestore(&csf_reserve_lock, flags);
}

static void csf_reserve_fill(void)
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
static void csf_tree_join(struct csf_thread *t, struct csf_tree *tree,
			  u64 now)
{
	struct csf_tree_totals *tt;

	refcount_inc(&tree->ref);
	WRITE_ONCE(t->tree, tree);
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
static void csf_tree_exit(struct csf_tree *tree,
			  const struct csf_thread_page *tp)
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

static struct csf_thread *csf_reserve_take(void)
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
static struct csf_thread *csf_thread_insert_locked(struct csf_thread *t)
{
	struct csf_thread *old;

	lockdep_assert_held(&csf_threads_lock);
	old = csf_thread_find(t->task);
	if (old)
		return old;
	hash_add_rcu(csf_threads, &t->node, (unsigned long)t->task);
	atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->nr_allocated));
	return NULL;
}

/*
 * Make @t live in @state from @now on @cpu.  The caller keeps its probes
 * out: it holds t->lock, or @t is not in the table yet.
 */
static void csf_thread_start(struct csf_thread *t, u64 now, u32 state, int cpu)
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
	atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->generation));
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

static void csf_ns_root(struct user_namespace *ns, kuid_t *uid, kgid_t *gid)
{
	*uid = make_kuid(ns, 0);
	if (!uid_valid(*uid))
		*uid = GLOBAL_ROOT_UID;
	*gid = make_kgid(ns, 0);
	if (!gid_valid(*gid))
		*gid = GLOBAL_ROOT_GID;
}

/*
 * Whether @p is dumpable; if not, the user namespace it was exec'd in,
 * referenced, in *@ns: root there stands for it (/proc's rule, below).  A
 * kernel thread has no exec: false, with no namespace.  Process context:
 * task_lock() may sleep on PREEMPT_RT.
 */
static bool csf_task_dumpable(struct task_struct *p, struct user_namespace **ns)
{
	bool dumpable = true;
#ifdef HAVE_TASK_EXEC_STATE
	struct task_exec_state *es;

	rcu_read_lock();
	es = rcu_dereference(p->exec_state);
	if (es && READ_ONCE(es->dumpable) != TASK_DUMPABLE_OWNER) {
		*ns = get_user_ns(es->user_ns);
		dumpable = false;
	}
	rcu_read_unlock();
#else
	task_lock(p);
	if (p->mm && get_dumpable(p->mm) != SUID_DUMP_USER) {
		*ns = get_user_ns(p->mm->user_ns);
		dumpable = false;
	}
	task_unlock(p);
#endif
	return dumpable;
}

/*
 * Who owns threads/<tid>: /proc's rule (task_dump_owner()), so that nobody
 * maps a page they could not read there.  The task's effective ids now;
 * but a task that is not dumpable (it changed credentials, as a daemon
 * that dropped root does, or said prctl(PR_SET_DUMPABLE, 0)) may still
 * hold what its former self could read, and belongs to root of the user
 * namespace it was exec'd in.
 */
static void csf_task_owner(struct task_struct *p, kuid_t *uid, kgid_t *gid)
{
	struct user_namespace *ns;
	const struct cred *cred;

	if (p->flags & PF_KTHREAD) {
		*uid = GLOBAL_ROOT_UID;
		*gid = GLOBAL_ROOT_GID;
		return;
	}
	rcu_read_lock();
	cred = __task_cred(p);
	*uid = cred->euid;
	*gid = cred->egid;
	rcu_read_unlock();
	if (!csf_task_dumpable(p, &ns)) {
		csf_ns_root(ns, uid, gid);
		put_user_ns(ns);
	}
}

/*
 * May the opener of @file attach @p?  The kernel's rule for reading
 * /proc/<pid>/stat's private fields (__ptrace_may_access() with
 * PTRACE_MODE_READ_FSCREDS), which modules cannot call: a thread of the
 * caller's own process; or the opener's fsuid and fsgid are every uid and
 * gid of @p and @p is dumpable; or CAP_SYS_PTRACE in @p's user namespace
 * (and in the one it was exec'd in, when it is not dumpable).  The
 * opener's credentials, not the writer's, as for cgroup.procs: a setuid
 * program handed the file cannot be made to attach for its caller.  No
 * LSM hook is consulted; coarse_stat_fs(7) says what that means.
 */
static int csf_may_attach(struct file *file, struct task_struct *p)
{
	const struct cred *cred = file->f_cred, *tcred;
	struct user_namespace *ns;
	bool ok;

	if (same_thread_group(p, current))
		return 0;
	rcu_read_lock();
	tcred = __task_cred(p);
	ok = uid_eq(cred->fsuid, tcred->euid) &&
	     uid_eq(cred->fsuid, tcred->suid) &&
	     uid_eq(cred->fsuid, tcred->uid) &&
	     gid_eq(cred->fsgid, tcred->egid) &&
	     gid_eq(cred->fsgid, tcred->sgid) &&
	     gid_eq(cred->fsgid, tcred->gid);
	ns = get_user_ns(tcred->user_ns);
	rcu_read_unlock();
	if (!ok)
		ok = file_ns_capable(file, ns, CAP_SYS_PTRACE);
	put_user_ns(ns);
	if (!ok)
		return -EPERM;
	if (!(p->flags & PF_KTHREAD) && !csf_task_dumpable(p, &ns)) {
		ok = file_ns_capable(file, ns, CAP_SYS_PTRACE);
		put_user_ns(ns);
	}
	return ok ? 0 : -EPERM;
}

/*
 * The live registered thread @pid names now, with a reference, and its
 * page with one if @pagep; NULL once it has exited.
 */
static struct task_struct *csf_thread_live(struct pid *pid,
					   struct page **pagep)
{
	struct task_struct *p;
	struct csf_thread *t;

	rcu_read_lock();
	p = pid_task(pid, PIDTYPE_PID);
	t = p ? csf_thread_find(p) : NULL;
	if (t && READ_ONCE(t->tp->state) != CSF_STATE_EXITED) {
		get_task_struct(p);
		if (pagep) {
			*pagep = t->page;
			get_page(t->page);
		}
	} else {
		p = NULL;
	}
	rcu_read_unlock();
	return p;
}

/* Whether @pid is a live registered thread, and who owns its file. */
bool csf_thread_owner(struct pid *pid, kuid_t *uid, kgid_t *gid)
{
	struct task_struct *p = csf_thread_live(pid, NULL);

	if (!p)
		return false;
	csf_task_owner(p, uid, gid);
	put_task_struct(p);
	return true;
}

/* The page of live registered thread @pid with a reference, and its owner. */
struct page *csf_thread_get_page(struct pid *pid, kuid_t *uid, kgid_t *gid)
{
	struct page *page;
	struct task_struct *p = csf_thread_live(pid, &page);

	if (!p)
		return NULL;
	csf_task_owner(p, uid, gid);
	put_task_struct(p);
	return page;
}

/* Up to @max tids of live registered threads, in no order; the count. */
int csf_thread_tids(pid_t *tids, int max)
{
	struct csf_thread *t;
	int bkt, n = 0;

	rcu_read_lock();
	hash_for_each_rcu(csf_threads, bkt, t, node) {
		if (n == max)
			break;
		if (READ_ONCE(t->tp->state) != CSF_STATE_EXITED)
			tids[n++] = READ_ONCE(t->tp->tid);
	}
	rcu_read_unlock();
	return n;
}


static inline u32 csf_sleep_state(struct task_struct *p, unsigned int state)
{
	if (p->in_iowait)
		return CSF_STATE_IOWAIT;
	if (state & TASK_INTERRUPTIBLE)
		return CSF_STATE_SLEEPING;
	return CSF_STATE_BLOCKED;
}

/*
 * The state of @p, which is not current, as far as a module can see it:
 * the runqueue lock that would make it exact is private to the scheduler.
 * A task between its switch's tracepoint and the end of the switch is
 * taken for the state it leaves, which the next event corrects: the first
 * interval may be attributed to the state next to it, for at most one
 * scheduling slice (coarse_stat_fs(7), "Attaching").
 */
static u32 csf_task_state(struct task_struct *p)
{
	unsigned int state = READ_ONCE(p->__state);

	if (READ_ONCE(p->on_rq))
		return READ_ONCE(p->on_cpu) ? CSF_STATE_RUNNING :
					      CSF_STATE_RUNNABLE;
	if (state == TASK_RUNNING)
		return CSF_STATE_RUNNABLE;
	return csf_sleep_state(p, state);
}

/*
 * One attach request at a time: only a request gives an entry that exists
 * already a tree (a fork gives one to a new entry), so two requests could
 * otherwise both root a tree in the same page.  Process context, rare.
 */
static DEFINE_MUTEX(csf_attach_mutex);

/*
 * With @inherit, the tree of an attach request: the one its first
 * registered task is in already, or a new one rooted there.  Under
 * csf_threads_lock, so the entry found and its tree stay; @fresh is the
 * tree allocated beforehand, NULL'ed when taken.  NULL: no task has an
 * entry, so nothing can join.
 */
static struct csf_tree *csf_tree_get_locked(struct task_struct **tasks, int n,
					    struct csf_tree **fresh)
{
	struct csf_tree *tree;
	struct csf_thread *t = NULL;
	int i;

	for (i = 0; i < n && !t; i++)
		t = csf_thread_find(tasks[i]);
	if (!t)
		return NULL;
	if (t->tree) {
		refcount_inc(&t->tree->ref);
		return t->tree;
	}
	tree = *fresh;
	*fresh = NULL;
	get_page(t->page);
	tree->page = t->page;
	tree->tt = &t->tp->tree;
	tree->root = READ_ONCE(t->tp->tid);
	return tree;
}

/*
 * An entry for each task of @tasks (n) that has none, in @ts: 0, or an
 * errno with what was allocated left in @ts for the caller to discard.
 */
static int csf_attach_alloc(struct task_struct **tasks, int n,
			    struct csf_thread **ts)
{
	struct csf_thread *t;
	int i;

	for (i = 0; i < n; i++) {
		rcu_read_lock();
		t = csf_thread_find(tasks[i]);
		rcu_read_unlock();
		if (t)
			continue;	/* registered already */
		ts[i] = csf_thread_alloc(tasks[i], GFP_KERNEL);
		if (IS_ERR(ts[i])) {
			int err = PTR_ERR(ts[i]);

			ts[i] = NULL;
			return err;
		}
	}
	return 0;
}

/*
 * Insert the entries of @ts into the table, not live; those of tasks gone
 * or registered meanwhile are discarded.  Returns how many went in; with
 * @fresh_tree (inherit), *@tree is the tree they join, referenced.
 */
static int csf_attach_insert(struct task_struct **tasks, int n,
			     struct csf_thread **ts,
			     struct csf_tree **fresh_tree,
			     struct csf_tree **tree)
{
	struct csf_thread *t;
	struct hlist_node *tmp;
	unsigned long flags;
	int i, fresh = 0;
	HLIST_HEAD(unused);

	/*
	 * The RCU read section keeps a task that is still hashed from
	 * reaching sched_process_free, which is queued after it is unhashed
	 * (release_task()): its entry cannot outlive it.
	 */
	rcu_read_lock();
	raw_spin_lock_irqsave(&csf_threads_lock, flags);
	for (i = 0; i < n; i++) {
		struct task_struct *p = tasks[i];

		if (!ts[i])
			continue;
		/* Gone, or registered meanwhile: not ours to start. */
		if (!pid_alive(p) || (p->flags & PF_EXITING) ||
		    csf_thread_insert_locked(ts[i])) {
			hlist_add_head(&ts[i]->node, &unused);
			ts[i] = NULL;
			continue;
		}
		fresh++;
	}
	if (fresh_tree)
		*tree = csf_tree_get_locked(tasks, n, fresh_tree);
	raw_spin_unlock_irqrestore(&csf_threads_lock, flags);
	rcu_read_unlock();
	hlist_for_each_entry_safe(t, tmp, &unused, node)
		csf_thread_discard(t);
	return fresh;
}

/*
 * After the grace period: make the entries of @ts live, each under its
 * lock, and let every live entry of @tasks join @tree if it has none.
 */
static void csf_attach_start(struct task_struct **tasks, int n,
			     struct csf_thread **ts, struct csf_tree *tree)
{
	struct csf_thread *t;
	unsigned long flags;
	int i;

	for (i = 0; i < n; i++) {
		struct task_struct *p = tasks[i];

		rcu_read_lock();
		t = csf_thread_find(p);
		if (t) {
			u64 now;

			raw_spin_lock_irqsave(&t->lock, flags);
			now = csf_now();
			if (t == ts[i] && !(READ_ONCE(p->flags) & PF_EXITING))
				csf_thread_start(t, now, csf_task_state(p),
						 task_cpu(p));
			if (tree && !t->tree && csf_state_live(t->tp))
				csf_tree_join(t, tree, now);
			raw_spin_unlock_irqrestore(&t->lock, flags);
		}
		rcu_read_unlock();
		ts[i] = NULL;	/* in the table: no longer ours */
	}
}

/*
 * Register every task of @tasks (n, referenced) that is not yet, all or
 * none: past the cap or out of memory, nothing changes.  With @inherit
 * they and the entries that exist already join a tree (unless in one),
 * and their future children and threads are registered at creation.
 *
 * A task other than current may be switching, waking or exiting on
 * another CPU while it is inserted, and a probe that looked it up a moment
 * before missed it.  So the entries go in not live (EXITED, which every
 * probe leaves alone), a grace period lets every probe that could have
 * missed them finish, and only then is each one's state read and the entry
 * made live under its lock, the probes queued behind it.  A task found
 * exiting by then stays EXITED: its exit may be one of the events missed.
 */
static int csf_thread_attach_tasks(struct task_struct **tasks, int n,
				   bool inherit)
{
	struct csf_tree *fresh_tree = NULL, *tree = NULL;
	struct csf_thread **ts;
	int i, err;

	ts = kcalloc(n, sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	err = csf_attach_alloc(tasks, n, ts);
	if (err)
		goto out;
	if (inherit) {
		fresh_tree = kzalloc(sizeof(*fresh_tree), GFP_KERNEL);
		if (!fresh_tree) {
			err = -ENOMEM;
			goto out;
		}
		refcount_set(&fresh_tree->ref, 1);	/* ours, until the end */
		raw_spin_lock_init(&fresh_tree->lock);
	}
	if (csf_attach_insert(tasks, n, ts, inherit ? &fresh_tree : NULL,
			      &tree))
		synchronize_rcu();
	csf_attach_start(tasks, n, ts, tree);
	if (tree)
		csf_reserve_fill();
out:
	for (i = 0; i < n; i++)
		if (ts[i])
			csf_thread_discard(ts[i]);
	csf_tree_put(tree);
	kfree(fresh_tree);
	kfree(ts);
	return err;
}

/*
 * The tasks of an attach request, referenced: the thread @pid names, or
 * every thread of its process.  A thread the process starts meanwhile is
 * not among them (unless a thread already registered with inherit starts
 * it).
 */
static int csf_attach_collect(struct task_struct *p, bool thread,
			      struct task_struct ***tasksp)
{
	struct task_struct **tasks, *q;
	int n, max;

	if (thread) {
		tasks = kmalloc(sizeof(*tasks), GFP_KERNEL);
		if (!tasks)
			return -ENOMEM;
		get_task_struct(p);
		tasks[0] = p;
		*tasksp = tasks;
		return 1;
	}
	for (;;) {
		max = get_nr_threads(p) + 8;
		tasks = kvmalloc_array(max, sizeof(*tasks), GFP_KERNEL);
		if (!tasks)
			return -ENOMEM;
		n = 0;
		rcu_read_lock();
		for_each_thread(p, q) {
			if (n == max)
				break;
			get_task_struct(q);
			tasks[n++] = q;
		}
		rcu_read_unlock();
		if (n < max)
			break;
		while (n)
			put_task_struct(tasks[--n]);
		kvfree(tasks);
	}
	*tasksp = tasks;
	return n;
}

/*
 * Write to the attach file: register the process that @nr (in the
 * caller's pid namespace) names, or with @thread that one thread, if the
 * opener of @file may read it as /proc does.  All or nothing.
 */
int csf_thread_attach(struct file *file, pid_t nr, bool thread, bool inherit)
{
	struct task_struct **tasks, *p;
	int i, n, err = 0;

	rcu_read_lock();
	p = pid_task(find_vpid(nr), PIDTYPE_PID);
	if (p)
		get_task_struct(p);
	rcu_read_unlock();
	if (!p)
		return -ESRCH;
	n = csf_attach_collect(p, thread, &tasks);
	put_task_struct(p);
	if (n < 0)
		return n;
	for (i = 0; i < n && !err; i++)
		err = csf_may_attach(file, tasks[i]);
	if (!err) {
		mutex_lock(&csf_attach_mutex);
		err = csf_thread_attach_tasks(tasks, n, inherit);
		mutex_unlock(&csf_attach_mutex);
	}
	for (i = 0; i < n; i++)
		put_task_struct(tasks[i]);
	kvfree(tasks);
	return err;
}

/*
 * sched_process_fork, in the parent (current), before the child is first
 * woken: a child of a thread registered with inherit is registered, live
 * at once and runnable from its creation, as nothing can run or wake it
 * yet.  Before 7.0 the probe runs with preemption disabled, so nothing
 * here may sleep; a registration that fails is counted (nr_missed), not
 * retried.
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
	if (!tree)
		return;

	t = csf_reserve_take();
	if (!t || csf_thread_claim(t, child)) {
		if (t)
			csf_reserve_put(t);
		atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->nr_missed));
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
	csf_tree_join(t, tree, now);
	raw_spin_unlock_irqrestore(&csf_threads_lock, flags);
}

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
	atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->generation));
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
		atomic64_inc(csf_hdr_counter(&csf_cpu_hdr->generation));
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
	hash_del_rcu(&t->node);
	raw_spin_unlock_irqrestore(&csf_threads_lock, flags);
	atomic_dec(&csf_nr_entries);
	atomic64_dec(csf_hdr_counter(&csf_cpu_hdr->nr_allocated));
	if (READ_ONCE(t->tree) && atomic_dec_and_test(&csf_nr_inherit))
		schedule_work(&csf_reserve_work);
	call_rcu(&t->rcu, csf_thread_free_rcu);
}

/* Module exit, after the probes are gone and RCU callbacks have run. */
void csf_threads_release_all(void)
{
	struct hlist_node *tmp;
	struct csf_thread *t;
	int bkt;

	cancel_work_sync(&csf_reserve_work);
	hlist_for_each_entry_safe(t, tmp, &csf_reserve, node)
		csf_thread_delete(t);
	INIT_HLIST_HEAD(&csf_reserve);
	csf_reserve_nr = 0;
	atomic_set(&csf_nr_inherit, 0);

	hash_for_each_safe(csf_threads, bkt, tmp, t, node) {
		hash_del(&t->node);
		csf_tree_put(t->tree);
		put_page(t->page);
		kfree(t);
	}
	atomic_set(&csf_nr_entries, 0);
}
