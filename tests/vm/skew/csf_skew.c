// SPDX-License-Identifier: GPL-2.0
/*
 * csf_skew - how long after the scheduler's own stamp of a context switch
 * a sched_switch probe runs.  A measuring module for the VM suite
 * (tests/vm/guest_schedstat.sh), not part of the product.
 *
 * __schedule() takes the runqueue clock (update_rq_clock()) before it
 * picks the next task, and the pick stamps that task's se.exec_start with
 * it (rq_clock_task(), which is rq_clock() on kernels without
 * CONFIG_IRQ_TIME_ACCOUNTING and CONFIG_PARAVIRT_TIME_ACCOUNTING: every
 * kernel of tests/vm/kernels.tab).  The sched_switch tracepoint runs after
 * the pick.  local_clock() there, on the same CPU and from the same
 * sched_clock, minus next->se.exec_start, is the time the scheduler's
 * stamp and a probe's stamp lie apart.  This probe registers before
 * coarse_stat_fs's (a higher priority), so it reads the clock just before
 * that probe stamps the switch.
 *
 * /sys/module/csf_skew/parameters/stats reads the totals since load, in
 * two lines:
 *
 *   SWITCHES SUM_NS MAX_NS NEGATIVE B0 B1 ... B31
 *   IDLE0 IDLE1 ...
 *
 * with Bk the switches whose difference d has fls64(d) == k (B0: d == 0),
 * and NEGATIVE those where exec_start was later than local_clock(), which
 * would mean the two are not one clock.  The idle task is left out: not
 * every kernel of the table stamps its exec_start at the pick.  IDLEn
 * counts the switches to possible CPU n's idle task: each starts an idle
 * period, which /proc/stat's nohz idle time sees begin later and end
 * earlier than a probe does.
 *
 * The same per task.  The scheduler ends prev's sum_exec_runtime at its
 * last update_curr() in __schedule(), which sets prev->se.exec_start to
 * that stamp, so local_clock() minus it is the time a probe counts as
 * prev's running and the kernel does not; next's is the time the kernel
 * counts and a probe does not yet.  Write a pid to
 * /sys/module/csf_skew/parameters/task and read it back as
 *
 *   PREV_NS NEXT_NS
 *
 * the sums since load of that task's differences as prev and as next
 * (pids are taken modulo TASK_SLOTS: unique below the default pid_max).
 */
#include <linux/bitops.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <trace/events/sched.h>

#define NBUCKETS 32

struct skew {
	u64 n, sum, max, negative, idle;
	u64 bucket[NBUCKETS];
};

static DEFINE_PER_CPU(struct skew, skews);
static struct tracepoint *switch_tp;

#define TASK_SLOTS 32768
struct task_skew {
	u64 prev, next;
};
static struct task_skew *task_skews;
static int skew_pid;

/* A task switches out and in on one CPU at a time: one writer a field. */
static struct task_skew *task_slot(const struct task_struct *p)
{
	return &task_skews[(unsigned int)p->pid % TASK_SLOTS];
}

/* Called with interrupts off, from __schedule(). */
static void skew_switch(void *data, bool preempt, struct task_struct *prev,
			struct task_struct *next, unsigned int prev_state)
{
	struct skew *s = this_cpu_ptr(&skews);
	u64 now = local_clock();
	struct task_skew *t;
	unsigned int b;
	s64 d;

	if (!is_idle_task(prev)) {
		d = (s64)(now - prev->se.exec_start);
		t = task_slot(prev);
		if (d >= 0)
			WRITE_ONCE(t->prev, t->prev + d);
		else
			s->negative++;
	}
	if (is_idle_task(next)) {
		s->idle++;
		return;
	}
	d = (s64)(now - next->se.exec_start);
	if (d < 0) {
		s->negative++;
		return;
	}
	b = min_t(unsigned int, fls64(d), NBUCKETS - 1);
	s->n++;
	s->sum += d;
	s->max = max_t(u64, s->max, d);
	s->bucket[b]++;
	t = task_slot(next);
	WRITE_ONCE(t->next, t->next + d);
}

/* Readers sum the CPUs' counters as they are: each is one aligned u64. */
static int stats_get(char *buf, const struct kernel_param *kp)
{
	struct skew t = { 0 };
	int cpu, b, len;

	for_each_possible_cpu(cpu) {
		const struct skew *s = per_cpu_ptr(&skews, cpu);

		t.n += READ_ONCE(s->n);
		t.sum += READ_ONCE(s->sum);
		t.max = max_t(u64, t.max, READ_ONCE(s->max));
		t.negative += READ_ONCE(s->negative);
		for (b = 0; b < NBUCKETS; b++)
			t.bucket[b] += READ_ONCE(s->bucket[b]);
	}
	len = scnprintf(buf, PAGE_SIZE, "%llu %llu %llu %llu", t.n, t.sum,
			t.max, t.negative);
	for (b = 0; b < NBUCKETS; b++)
		len += scnprintf(buf + len, PAGE_SIZE - len, " %llu",
				 t.bucket[b]);
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	for_each_possible_cpu(cpu)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%llu ",
				 READ_ONCE(per_cpu_ptr(&skews, cpu)->idle));
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops stats_ops = {
	.get = stats_get,
};
module_param_cb(stats, &stats_ops, NULL, 0444);
MODULE_PARM_DESC(stats, "switches, sum, max, negative, log2 buckets (ns); idle");

static int task_set(const char *val, const struct kernel_param *kp)
{
	return kstrtoint(val, 0, &skew_pid);
}

static int task_get(char *buf, const struct kernel_param *kp)
{
	const struct task_skew *t = &task_skews[(unsigned int)skew_pid %
						TASK_SLOTS];

	return scnprintf(buf, PAGE_SIZE, "%llu %llu\n", READ_ONCE(t->prev),
			 READ_ONCE(t->next));
}

static const struct kernel_param_ops task_ops = {
	.set = task_set,
	.get = task_get,
};
module_param_cb(task, &task_ops, NULL, 0644);
MODULE_PARM_DESC(task, "write a pid, read its sums as prev and as next (ns)");

static void find_switch(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		switch_tp = tp;
}

static int __init skew_init(void)
{
	int err;

	check_trace_callback_type_sched_switch(skew_switch);
	for_each_kernel_tracepoint(find_switch, NULL);
	if (!switch_tp)
		return -ENOENT;
	task_skews = vzalloc(TASK_SLOTS * sizeof(*task_skews));
	if (!task_skews)
		return -ENOMEM;
	err = tracepoint_probe_register_prio(switch_tp, skew_switch, NULL,
					     TRACEPOINT_DEFAULT_PRIO + 1);
	if (err)
		vfree(task_skews);
	return err;
}

static void __exit skew_exit(void)
{
	tracepoint_probe_unregister(switch_tp, skew_switch, NULL);
	tracepoint_synchronize_unregister();
	vfree(task_skews);
}

module_init(skew_init);
module_exit(skew_exit);
MODULE_DESCRIPTION("coarse_stat_fs test: scheduler stamp to probe, per switch");
MODULE_LICENSE("GPL");
