// SPDX-License-Identifier: GPL-2.0
/*
 * attach.c - who owns a thread's page and who may attach a thread, by
 * /proc's rules, and the attach file's requests: threads that run already
 * registered, a whole process at once, all or nothing, or the whole
 * machine.
 */
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "csf.h"
#include "thread.h"
#ifdef HAVE_TASK_EXEC_STATE
#include <linux/sched/exec_state.h>
#endif

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
		cond_resched();		/* "all": a machine's worth */
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

		/* "all": IRQs on now and then; each insertion stands alone */
		if (i % 256 == 255) {
			raw_spin_unlock_irqrestore(&csf_threads_lock, flags);
			raw_spin_lock_irqsave(&csf_threads_lock, flags);
		}
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

	ts = kvcalloc(n, sizeof(*ts), GFP_KERNEL);
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
	kvfree(ts);
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

DEFINE_STATIC_KEY_FALSE(csf_all);

/*
 * Every task of the machine, referenced: kernel threads too (the idle
 * tasks are on no list).  for_each_process_thread()'s break leaves only
 * the inner loop: a full vector is retried larger.
 */
static int csf_attach_collect_all(struct task_struct ***tasksp)
{
	struct task_struct **tasks, *g, *q;
	bool full;
	int n, max;

	for (;;) {
		max = 64;
		rcu_read_lock();
		for_each_process_thread(g, q)
			max++;
		rcu_read_unlock();
		tasks = kvmalloc_array(max, sizeof(*tasks), GFP_KERNEL);
		if (!tasks)
			return -ENOMEM;
		n = 0;
		full = false;
		rcu_read_lock();
		for_each_process_thread(g, q) {
			if (n == max) {
				full = true;
				break;
			}
			get_task_struct(q);
			tasks[n++] = q;
		}
		rcu_read_unlock();
		if (!full)
			break;
		while (n)
			put_task_struct(tasks[--n]);
		kvfree(tasks);
	}
	*tasksp = tasks;
	return n;
}

/*
 * "all" written by the opener of @file, or attach_all=1 at load (@file
 * NULL): the fork probe registers every new task from now on, then every
 * task present that has no entry is registered, all or nothing.  The
 * static key's switch waits for every CPU to run the new code, so a fork
 * whose probe still saw it off had put its child on the task list before
 * the collection below.
 */
int csf_thread_attach_all(struct file *file)
{
	struct task_struct **tasks;
	int i, n, err;

	if (file && !file_ns_capable(file, &init_user_ns, CAP_SYS_PTRACE))
		return -EPERM;
	mutex_lock(&csf_attach_mutex);
	if (!static_key_enabled(&csf_all)) {
		/* Like a tree that never ends: the reserve stays filled. */
		atomic_inc(&csf_nr_inherit);
		csf_reserve_fill();
		static_branch_enable(&csf_all);
		atomic_or(CSF_CPU_F_ALL, (atomic_t *)&csf_cpu_hdr->flags);
	}
	n = csf_attach_collect_all(&tasks);
	err = n < 0 ? n : csf_thread_attach_tasks(tasks, n, false);
	mutex_unlock(&csf_attach_mutex);
	for (i = 0; i < n; i++)
		put_task_struct(tasks[i]);
	if (n >= 0)
		kvfree(tasks);
	return err;
}
