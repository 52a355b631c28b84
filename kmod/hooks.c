// SPDX-License-Identifier: GPL-2.0
/*
 * hooks.c - the scheduler tracepoint probes: the hot path.
 *
 * __tracepoint_sched_* are not exported to modules, so the tracepoints are
 * found by name with for_each_kernel_tracepoint() and attached with
 * tracepoint_probe_register(), which takes a void *: nothing there checks
 * a probe's prototype, and a mismatch reads garbage arguments (or traps on
 * kCFI kernels).  csf_check_probe_types() has the compiler check each one.
 *
 * Since 7.0 a tracepoint runs its probes under SRCU-fast instead of with
 * preemption disabled: each probe below says what still keeps it from being
 * preempted, and what needs its own RCU read lock.
 *
 * sched_wakeup_new is not hooked: a task registered at its creation
 * (sched_process_fork) is runnable from then on, which its first wakeup
 * would not change, and any other has run before it is registered.
 */
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include "csf.h"

/*
 * Under the runqueue lock, IRQs off: timestamps and additions only.  Each
 * record it writes reads the clock inside its own write (csf.h says why).
 */
static void csf_probe_switch(void *data, bool preempt,
			     struct task_struct *prev,
			     struct task_struct *next,
			     unsigned int prev_state)
{
	csf_cpu_switch(preempt, prev, next, prev_state);
	if (csf_threads_any())
		csf_thread_switch(preempt, prev, next, prev_state);
}

/*
 * The start of a wakeup, in the waker's context, under p->pi_lock: the end
 * (sched_wakeup) may come later on p's CPU, from the interrupt that ran its
 * queue of wakeups, where current is not the waker.
 */
static void csf_probe_waking(void *data, struct task_struct *p)
{
	if (csf_threads_any())
		csf_thread_waking(p);
}

/*
 * May run on any CPU, under p->pi_lock and the target runqueue's lock; or,
 * when a task wakes itself, on its own CPU with only preemption disabled.
 */
static void csf_probe_wakeup(void *data, struct task_struct *p)
{
	csf_cpu_wakeup(p);
	if (csf_threads_any())
		csf_thread_wakeup(p);
}

/*
 * set_task_cpu() traces before it checks whether the CPU changes at all;
 * only a real change is a migration (se.nr_migrations counts the same).
 * Its callers hold p->pi_lock or the runqueue lock, IRQs off.
 */
static void csf_probe_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	if (task_cpu(p) == dest_cpu)
		return;
	csf_cpu_migrate(p, dest_cpu);
	if (csf_threads_any())
		csf_thread_migrate(p);
}

/*
 * In the parent, from kernel_clone(), before the child is first woken:
 * process context, preemptible since 7.0.  For a parent nobody registered
 * it costs the fast negative check the other probes make.
 */
static void csf_probe_fork(void *data, struct task_struct *parent,
			   struct task_struct *child)
{
	if (csf_threads_any() || static_branch_unlikely(&csf_all))
		csf_thread_fork(parent, child);
}

/*
 * sched_process_exit gained group_dead in 6.16; compat.h tells which.  From
 * do_exit(), preemptible since 7.0.
 */
#ifdef HAVE_SCHED_PROCESS_EXIT_GROUP_DEAD
static void csf_probe_exit(void *data, struct task_struct *p, bool group_dead)
#else
static void csf_probe_exit(void *data, struct task_struct *p)
#endif
{
	if (csf_threads_any())
		csf_thread_exit(p);
}

/*
 * The new name at once (a switch-out would give it later); only an exec
 * from a thread other than the leader changes the tid (de_thread()):
 * old_pid is the tid it had.  From exec_binprm(), process context,
 * preemptible since 7.0.
 */
static void csf_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	if (csf_threads_any())
		csf_thread_exec(p, old_pid != task_pid_nr(p));
}

/* From an RCU callback (delayed_put_task_struct()), IRQs on. */
static void csf_probe_free(void *data, struct task_struct *p)
{
	if (csf_threads_any())
		csf_thread_free(p);
}

static struct csf_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
	bool registered;
} csf_probes[] = {
	{ "sched_switch", csf_probe_switch },
	{ "sched_waking", csf_probe_waking },
	{ "sched_wakeup", csf_probe_wakeup },
	{ "sched_migrate_task", csf_probe_migrate },
	{ "sched_process_fork", csf_probe_fork },
	{ "sched_process_exit", csf_probe_exit },
	{ "sched_process_exec", csf_probe_exec },
	{ "sched_process_free", csf_probe_free },
};

/*
 * check_trace_callback_type_<tp>() takes a pointer to the exact probe type
 * the tracepoint declares: with -Werror=incompatible-pointer-types (Kbuild)
 * a probe that does not match fails the build.  Keep it in step with
 * csf_probes[].  It generates no code.
 */
static void csf_check_probe_types(void)
{
	check_trace_callback_type_sched_switch(csf_probe_switch);
	check_trace_callback_type_sched_waking(csf_probe_waking);
	check_trace_callback_type_sched_wakeup(csf_probe_wakeup);
	check_trace_callback_type_sched_migrate_task(csf_probe_migrate);
	check_trace_callback_type_sched_process_fork(csf_probe_fork);
	check_trace_callback_type_sched_process_exit(csf_probe_exit);
	check_trace_callback_type_sched_process_exec(csf_probe_exec);
	check_trace_callback_type_sched_process_free(csf_probe_free);
}

static void csf_find_tracepoint(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(csf_probes); i++)
		if (!strcmp(tp->name, csf_probes[i].name))
			csf_probes[i].tp = tp;
}

void csf_hooks_unregister(void)
{
	int i;

	for (i = ARRAY_SIZE(csf_probes) - 1; i >= 0; i--) {
		if (!csf_probes[i].registered)
			continue;
		tracepoint_probe_unregister(csf_probes[i].tp,
					    csf_probes[i].func, NULL);
		csf_probes[i].registered = false;
	}
	/* No probe runs on any CPU once this returns. */
	tracepoint_synchronize_unregister();
}

int csf_hooks_register(void)
{
	int i, err;

	csf_check_probe_types();
	for_each_kernel_tracepoint(csf_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(csf_probes); i++) {
		if (!csf_probes[i].tp) {
			pr_err("coarse_stat_fs: tracepoint %s not found\n",
			       csf_probes[i].name);
			err = -ENOENT;
			goto fail;
		}
		err = tracepoint_probe_register(csf_probes[i].tp,
						csf_probes[i].func, NULL);
		if (err) {
			pr_err("coarse_stat_fs: cannot attach to %s: %d\n",
			       csf_probes[i].name, err);
			goto fail;
		}
		csf_probes[i].registered = true;
	}
	return 0;
fail:
	csf_hooks_unregister();
	return err;
}
