// SPDX-License-Identifier: GPL-2.0
/*
 * cpu.c - the cpu file: per-CPU busy/idle/iowait time kept exactly from
 * sched_switch, and the /proc/stat buckets copied by a deferrable timer.
 *
 * Each CPU record has two writers with their own sequence counters: the
 * CPU's own sched_switch probe (IRQs off, so one writer per record without
 * a lock) and the stat timer.  Readers spin while a count is odd, so no
 * writer may be preempted between its two increments.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kernel_stat.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>

#include "csf.h"

struct csf_cpu_header *csf_cpu_hdr;
size_t csf_cpu_size;

/*
 * I/O waiters whose last CPU is this one, mirroring the scheduler's private
 * rq->nr_iowait: +1 when a task with in_iowait is switched out to sleep
 * here, -1 when it is woken (moved along when the wakeup migrates it).  A
 * CPU that goes idle while its count is positive is in I/O wait, the rule
 * /proc/stat applies.
 */
static DEFINE_PER_CPU(atomic_t, csf_nr_iowait);

static struct timer_list csf_stat_timer;
static bool csf_stat_stopping;

static inline struct csf_cpu_record *csf_cpu_rec(unsigned int cpu)
{
	return (void *)csf_cpu_hdr + sizeof(*csf_cpu_hdr) +
	       cpu * sizeof(struct csf_cpu_record);
}

/* Deactivated: switched out asleep rather than preempted or kept runnable. */
static inline bool csf_went_to_sleep(bool preempt, struct task_struct *prev,
				     unsigned int prev_state)
{
	return !preempt && prev_state != TASK_RUNNING &&
	       READ_ONCE(prev->__state) != TASK_RUNNING;
}

/* Hot path: under the runqueue lock with IRQs off. */
void csf_cpu_switch(bool preempt, struct task_struct *prev,
		    struct task_struct *next, unsigned int prev_state)
{
	int cpu = smp_processor_id();
	struct csf_cpu_record *r = csf_cpu_rec(cpu);
	atomic_t *nr_iowait = this_cpu_ptr(&csf_nr_iowait);
	u32 state;

	if (prev->in_iowait && csf_went_to_sleep(preempt, prev, prev_state))
		atomic_inc(nr_iowait);

	if (!is_idle_task(next))
		state = CSF_CPU_BUSY;
	else if (atomic_read(nr_iowait) > 0)
		state = CSF_CPU_IOWAIT;
	else
		state = CSF_CPU_IDLE;

	csf_write_begin(&r->seq);
	csf_cpu_state_switch(r, csf_now(), state);
	csf_write_end(&r->seq);
}

/*
 * A wakeup ends an I/O wait counted at switch-out, except when the task was
 * woken before it got off its CPU (it never slept: on_cpu is still set).
 * A task woken after being preempted inside io_schedule() is counted here
 * without having been counted at switch-out; the decrement saturates at
 * zero so such a rare race costs a moment of under-count, never drift.
 */
void csf_cpu_wakeup(struct task_struct *p)
{
	if (p->in_iowait && !READ_ONCE(p->on_cpu))
		atomic_dec_if_positive(per_cpu_ptr(&csf_nr_iowait,
						   task_cpu(p)));
}

/* A wakeup that migrates moves the waiter's count with it. */
void csf_cpu_migrate(struct task_struct *p, int dest_cpu)
{
	if (p->in_iowait && READ_ONCE(p->__state) == TASK_WAKING &&
	    atomic_dec_if_positive(per_cpu_ptr(&csf_nr_iowait,
					       task_cpu(p))) >= 0)
		atomic_inc(per_cpu_ptr(&csf_nr_iowait, dest_cpu));
}

/*
 * Idle and iowait exactly as fs/proc/stat.c shows them.  Since 7.2 the
 * NOHZ idle time is kept in kcpustat itself and /proc/stat prints what
 * kcpustat_cpu_fetch() gives; before, it asks the tick code, in whole
 * microseconds, and falls back to kcpustat only for an offline CPU or
 * without NOHZ (-1).
 */
static u64 csf_idle_ns(const struct kernel_cpustat *kcs, int cpu, bool iowait)
{
#ifdef HAVE_KCPUSTAT_FIELD_IDLE
	return kcs->cpustat[iowait ? CPUTIME_IOWAIT : CPUTIME_IDLE];
#else
	u64 us = -1ULL;

	if (cpu_online(cpu))
		us = iowait ? get_cpu_iowait_time_us(cpu, NULL) :
			      get_cpu_idle_time_us(cpu, NULL);
	if (us == -1ULL)
		return kcs->cpustat[iowait ? CPUTIME_IOWAIT : CPUTIME_IDLE];
	return us * NSEC_PER_USEC;
#endif
}

static void csf_stat_refresh(struct timer_list *unused)
{
	struct kernel_cpustat kcs;
	u64 st[CSF_STAT_NR];
	int cpu;

	for_each_possible_cpu(cpu) {
		struct csf_cpu_record *r = csf_cpu_rec(cpu);
		bool online = cpu_online(cpu);

		BUILD_BUG_ON(sizeof(st) != sizeof(r->stat));
		kcpustat_cpu_fetch(&kcs, cpu);
		st[CSF_STAT_USER] = kcs.cpustat[CPUTIME_USER];
		st[CSF_STAT_NICE] = kcs.cpustat[CPUTIME_NICE];
		st[CSF_STAT_SYSTEM] = kcs.cpustat[CPUTIME_SYSTEM];
		st[CSF_STAT_IDLE] = csf_idle_ns(&kcs, cpu, false);
		st[CSF_STAT_IOWAIT] = csf_idle_ns(&kcs, cpu, true);
		st[CSF_STAT_IRQ] = kcs.cpustat[CPUTIME_IRQ];
		st[CSF_STAT_SOFTIRQ] = kcs.cpustat[CPUTIME_SOFTIRQ];
		st[CSF_STAT_STEAL] = kcs.cpustat[CPUTIME_STEAL];
		st[CSF_STAT_GUEST] = kcs.cpustat[CPUTIME_GUEST];
		st[CSF_STAT_GUEST_NICE] = kcs.cpustat[CPUTIME_GUEST_NICE];

		/*
		 * Timer callbacks are preemptible on PREEMPT_RT, and the
		 * first refresh runs in process context: a writer preempted
		 * here would leave readers spinning on an odd count.  The
		 * fetches above stay outside, for latency only: they take no
		 * lock that sleeps on RT.
		 */
		preempt_disable();
		csf_write_begin(&r->stat_seq);
		memcpy(r->stat, st, sizeof(st));
		r->online = online;
		r->stat_time = csf_now();
		csf_write_end(&r->stat_seq);
		preempt_enable();
	}
	csf_clock_check(csf_cpu_hdr);

	if (!READ_ONCE(csf_stat_stopping))
		mod_timer(&csf_stat_timer,
			  jiffies + msecs_to_jiffies(csf_stat_period_ms));
}

/*
 * Runs on every online CPU with IRQs off (on_each_cpu()): learn whether it
 * is idle right now.  IRQs off also keeps this CPU's sched_switch probe, the
 * record's other writer, out.
 */
static void csf_cpu_seed_state(void *unused)
{
	struct csf_cpu_record *r = csf_cpu_rec(smp_processor_id());

	csf_write_begin(&r->seq);
	csf_close_interval(&r->time[r->state], &r->state_since, csf_now());
	r->state = is_idle_task(current) ? CSF_CPU_IDLE : CSF_CPU_BUSY;
	csf_write_end(&r->seq);
}

int csf_cpu_init(const char *clock_mode)
{
	size_t bytes = sizeof(struct csf_cpu_header) +
		       nr_cpu_ids * sizeof(struct csf_cpu_record);
	struct csf_cpu_header *hdr;
	unsigned int cpu;
	int err;

	BUILD_BUG_ON(sizeof(struct csf_cpu_header) % 64);
	BUILD_BUG_ON(sizeof(struct csf_cpu_record) % 64);

	csf_cpu_size = PAGE_ALIGN(bytes);
	hdr = vmalloc_user(csf_cpu_size);	/* zeroed */
	if (!hdr)
		return -ENOMEM;

	hdr->magic = CSF_CPU_MAGIC;
	hdr->abi_major = CSF_ABI_MAJOR;
	hdr->abi_minor = CSF_ABI_MINOR;
	hdr->header_size = sizeof(struct csf_cpu_header);
	hdr->record_size = sizeof(struct csf_cpu_record);
	hdr->nr_cpus = nr_cpu_ids;
	hdr->max_threads = csf_max_threads;
	hdr->stat_period_ns = (u64)csf_stat_period_ms * NSEC_PER_MSEC;
	err = csf_clock_init(clock_mode, hdr);
	if (err) {
		vfree(hdr);
		return err;
	}
	hdr->load_time = csf_now();
	csf_cpu_hdr = hdr;
	csf_stat_stopping = false;
	/* Deferrable: an idle CPU is not woken up to refresh statistics. */
	timer_setup(&csf_stat_timer, csf_stat_refresh, TIMER_DEFERRABLE);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct csf_cpu_record *r = csf_cpu_rec(cpu);

		r->state = CSF_CPU_IDLE;
		r->state_since = hdr->load_time;
	}
	return 0;
}

/* Called once the probes are registered, so no switch goes unseen after. */
void csf_cpu_start(void)
{
	on_each_cpu(csf_cpu_seed_state, NULL, 1);
	csf_stat_refresh(&csf_stat_timer);
}

void csf_cpu_exit(void)
{
	WRITE_ONCE(csf_stat_stopping, true);
	timer_delete_sync(&csf_stat_timer);
	vfree(csf_cpu_hdr);
	csf_cpu_hdr = NULL;
}
