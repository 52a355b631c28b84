// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics.c - every csf metric: its name, PMID, type, semantics, units,
 * help, and where its value is in a snapshot (metrics.h).
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "coarse_stat_fs.h"
#include "metrics.h"

#define NS PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_NSEC, 0)
#define COUNT PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define NONE PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define THREAD(field) offsetof(struct csf_snap, field)
#define CPU(field) offsetof(struct csf_cpu_snap, field)
#define WAITS(field) offsetof(struct thread_waits, field)

#define WAITS_FROM " From the thread's histograms, since its registration " \
	"(pages of ABI 1.1; 0 for older ones): interpolated within their " \
	"log2 bucket as csf_hist_quantile(3) says."
#define RUNQ(k, name, what)						\
	{ "thread.waits.runnable." name, CL_WAITS, k, PM_TYPE_U64,	\
	  THREAD_INDOM, PM_SEM_INSTANT, NS, what " wait for a CPU",	\
	  "The " what " of the thread's waits for a CPU, in "		\
	  "nanoseconds." WAITS_FROM, WAITS(runnable) + (k) * sizeof(uint64_t), \
	  0 }
#define TASK(k, who, field, type, units, what, help, off)		\
	{ "thread." who "." field, CL_WAITS, k, type, THREAD_INDOM,	\
	  PM_SEM_INSTANT, units, what, help, off, 0 }

#define PROC_SUM "  Summed over the process's registered threads, live " \
	"and those that exited while the agent ran."

/* the five states of a thread or process cluster, under PREFIX "time." */
#define TIME(cl, in, st, prefix, name, what, more)			\
	{ prefix "time." name, cl, st, PM_TYPE_U64, in, PM_SEM_COUNTER,	\
	  NS, "time " what, "Nanoseconds spent " what ", since "	\
	  "registration, from the scheduler's tracepoints: exact to the "\
	  "clock of the pages." more,				\
	  THREAD(time) + (st) * sizeof(uint64_t), 1 }
#define STATES(cl, in, prefix, more)					\
	TIME(cl, in, CSF_STATE_RUNNING, prefix, "running",		\
	     "running on a CPU", more),					\
	TIME(cl, in, CSF_STATE_RUNNABLE, prefix, "runnable",		\
	     "waiting for a CPU", more),				\
	TIME(cl, in, CSF_STATE_SLEEPING, prefix, "sleeping",		\
	     "in interruptible sleep", more),				\
	TIME(cl, in, CSF_STATE_IOWAIT, prefix, "iowait",		\
	     "waiting for I/O", more),					\
	TIME(cl, in, CSF_STATE_BLOCKED, prefix, "blocked",		\
	     "in uninterruptible sleep, not for I/O", more)
#define COUNTS(cl, in, prefix, more)					\
	{ prefix "nvcsw", cl, IT_NVCSW, PM_TYPE_U64, in, PM_SEM_COUNTER,	\
	  COUNT, "voluntary context switches",				\
	  "Voluntary context switches since registration, as "		\
	  "/proc/PID/status counts them." more, THREAD(nvcsw), 0 }, \
	{ prefix "nivcsw", cl, IT_NIVCSW, PM_TYPE_U64, in,		\
	  PM_SEM_COUNTER, COUNT, "involuntary context switches",	\
	  "Involuntary context switches (preemptions) since "		\
	  "registration." more, THREAD(nivcsw), 0 },		\
	{ prefix "wakeups", cl, IT_WAKEUPS, PM_TYPE_U64, in,		\
	  PM_SEM_COUNTER, COUNT, "wakeups from sleep",			\
	  "Ends of a sleeping, iowait or blocked state since "		\
	  "registration." more, THREAD(wakeups), 0 },		\
	{ prefix "migrations", cl, IT_MIGRATIONS, PM_TYPE_U64, in,	\
	  PM_SEM_COUNTER, COUNT, "migrations to another CPU",		\
	  "Moves to another CPU since registration." more,	\
	  THREAD(migrations), 0 }
#define STAT(k, name)							\
	{ "cpu.stat." name, CL_CPU, IT_STAT + k, PM_TYPE_U64, CPU_INDOM,	\
	  PM_SEM_COUNTER, NS, "/proc/stat " name " time",		\
	  "The CPU's " name " time as /proc/stat counts it, in "	\
	  "nanoseconds, copied by the module every stat_period_ms "	\
	  "(coarse_stat_fs(7)).", CPU(stat) + (k) * sizeof(uint64_t), 0 }

const struct metric metrics[] = {
	{ "cpu.busy", CL_CPU, CSF_CPU_BUSY, PM_TYPE_U64, CPU_INDOM,
	  PM_SEM_COUNTER, NS, "time the CPU ran a task",
	  "Nanoseconds the CPU ran a task other than its idle task, kept "
	  "exactly at every context switch (not sampled at the tick).",
	  CPU(time) + CSF_CPU_BUSY * sizeof(uint64_t), 1 },
	{ "cpu.idle", CL_CPU, CSF_CPU_IDLE, PM_TYPE_U64, CPU_INDOM,
	  PM_SEM_COUNTER, NS, "time the CPU was idle, no I/O waiter",
	  "Nanoseconds the CPU ran its idle task while no task waiting for "
	  "I/O last ran on it.", CPU(time) + CSF_CPU_IDLE * sizeof(uint64_t), 1 },
	{ "cpu.iowait", CL_CPU, CSF_CPU_IOWAIT, PM_TYPE_U64, CPU_INDOM,
	  PM_SEM_COUNTER, NS, "time the CPU was idle with an I/O waiter",
	  "Nanoseconds the CPU ran its idle task while a task that last ran "
	  "on it waited for I/O.",
	  CPU(time) + CSF_CPU_IOWAIT * sizeof(uint64_t), 1 },
	{ "cpu.switches", CL_CPU, IT_SWITCHES, PM_TYPE_U64, CPU_INDOM,
	  PM_SEM_COUNTER, COUNT, "context switches on the CPU",
	  "Context switches on the CPU since the module loaded.",
	  CPU(nr_switches), 0 },
	{ "cpu.online", CL_CPU, IT_ONLINE, PM_TYPE_U32, CPU_INDOM,
	  PM_SEM_INSTANT, NONE, "1 if the CPU is online",
	  "1 if the CPU was online when its /proc/stat buckets were last "
	  "copied, else 0.", CPU(online), 0 },
	STAT(CSF_STAT_USER, "user"),
	STAT(CSF_STAT_NICE, "nice"),
	STAT(CSF_STAT_SYSTEM, "system"),
	STAT(CSF_STAT_IDLE, "idle"),
	STAT(CSF_STAT_IOWAIT, "iowait"),
	STAT(CSF_STAT_IRQ, "irq"),
	STAT(CSF_STAT_SOFTIRQ, "softirq"),
	STAT(CSF_STAT_STEAL, "steal"),
	STAT(CSF_STAT_GUEST, "guest"),
	STAT(CSF_STAT_GUEST_NICE, "guest_nice"),

	STATES(CL_THREAD, THREAD_INDOM, "thread.", ""),
	STATES(CL_PROC, PROC_INDOM, "proc.", PROC_SUM),

	COUNTS(CL_THREAD, THREAD_INDOM, "thread.", ""),
	{ "thread.state", CL_THREAD, IT_STATE, PM_TYPE_STRING, THREAD_INDOM,
	  PM_SEM_INSTANT, NONE, "scheduler state",
	  "running, runnable, sleeping, iowait or blocked.", THREAD(state), 0 },
	{ "thread.cpu", CL_THREAD, IT_CPU, PM_TYPE_U32, THREAD_INDOM,
	  PM_SEM_INSTANT, NONE, "CPU it runs or last ran on",
	  "The CPU the thread runs on, or last ran on.", THREAD(cpu), 0 },
	{ "thread.tgid", CL_THREAD, IT_TGID, PM_TYPE_U32, THREAD_INDOM,
	  PM_SEM_DISCRETE, NONE, "process ID",
	  "The thread's process (thread group) ID: its csf.proc instance.",
	  THREAD(tgid), 0 },
	{ "thread.comm", CL_THREAD, IT_COMM, PM_TYPE_STRING, THREAD_INDOM,
	  PM_SEM_INSTANT, NONE, "thread name",
	  "The thread's name (comm), as the page has it now.",
	  THREAD(comm), 0 },
	RUNQ(0, "p50", "median"),
	RUNQ(1, "p90", "90th percentile"),
	RUNQ(2, "p99", "99th percentile"),
	RUNQ(3, "max", "longest"),
	{ "thread.waits.all.p99", CL_WAITS, 4, PM_TYPE_U64, THREAD_INDOM,
	  PM_SEM_INSTANT, NS, "99th percentile of all waits",
	  "The 99th percentile of all the thread's waits off the CPU (for a "
	  "CPU, asleep, for I/O, blocked), in nanoseconds." WAITS_FROM,
	  WAITS(all_p99), 0 },
	TASK(5, "waker", "tid", PM_TYPE_U32, NONE, "thread ID of its last waker",
	     "The thread ID of the task that last ended a sleep of the "
	     "thread; 0 when that was an interrupt (a timer, a device), or "
	     "when it never slept.", WAITS(waker_tid)),
	TASK(6, "waker", "comm", PM_TYPE_STRING, NONE, "name of its last waker",
	     "The name of the task that last ended a sleep of the thread, as "
	     "it was then; empty for an interrupt or none.", WAITS(waker)),
	TASK(7, "preemptor", "tid", PM_TYPE_U32, NONE,
	     "thread ID of its last preemptor",
	     "The thread ID of the task that last took the thread's CPU while "
	     "it was still runnable; 0 for none.", WAITS(preemptor_tid)),
	TASK(8, "preemptor", "comm", PM_TYPE_STRING, NONE,
	     "name of its last preemptor",
	     "The name of the task that last took the thread's CPU while it "
	     "was still runnable, as it was then; empty for none.",
	     WAITS(preemptor)),
	COUNTS(CL_PROC, PROC_INDOM, "proc.", PROC_SUM),
	{ "proc.nthreads", CL_PROC, IT_NTHREADS, PM_TYPE_U32, PROC_INDOM,
	  PM_SEM_INSTANT, NONE, "live registered threads",
	  "How many of the process's threads are registered and live.", 0, 0 },

	{ "module.nthreads", CL_MODULE, IT_M_THREADS, PM_TYPE_U64,
	  PM_INDOM_NULL, PM_SEM_INSTANT, NONE, "registered threads",
	  "Threads registered with coarse_stat_fs and not yet exited, all "
	  "users'.", 0, 0 },
	{ "module.pages", CL_MODULE, IT_M_PAGES, PM_TYPE_U64, PM_INDOM_NULL,
	  PM_SEM_INSTANT, NONE, "thread pages held",
	  "Thread pages the module holds: registered threads and exited "
	  "ones the kernel has not released yet.", 0, 0 },
	{ "module.max_threads", CL_MODULE, IT_M_MAX, PM_TYPE_U32,
	  PM_INDOM_NULL, PM_SEM_DISCRETE, NONE, "registration cap",
	  "The module's max_threads parameter: registrations beyond it "
	  "fail with ENOSPC.", 0, 0 },
	{ "module.generation", CL_MODULE, IT_M_GEN, PM_TYPE_U64,
	  PM_INDOM_NULL, PM_SEM_COUNTER, COUNT, "registrations and exits",
	  "Grows at every registration, thread exit and change of tid.", 0, 0 },
	{ "module.clock", CL_MODULE, IT_M_CLOCK, PM_TYPE_STRING,
	  PM_INDOM_NULL, PM_SEM_DISCRETE, NONE, "clock of the pages",
	  "tsc or monotonic: the clock the module stamps the pages with.", 0, 0 },
	{ "agent.unreadable", CL_MODULE, IT_M_UNREADABLE, PM_TYPE_U32,
	  PM_INDOM_NULL, PM_SEM_INSTANT, NONE,
	  "registered threads the agent may not read",
	  "Registered threads whose pages the agent's user may not map "
	  "(only a thread's user and root may): they are missing from "
	  "csf.thread and csf.proc.  0 for the daemon, which runs as root.", 0, 0 },
};
const size_t nr_metrics = sizeof(metrics) / sizeof(metrics[0]);

void thread_waits_of(struct thread_waits *w, const struct csf_hist *h)
{
	struct csf_hist_summary runq, off;

	memset(w, 0, sizeof(*w));
	if (!h)
		return;
	csf_hist_summarize(h, CSF_HIST_STATE(CSF_STATE_RUNNABLE), &runq);
	csf_hist_summarize(h, CSF_HIST_OFF_CPU, &off);
	w->runnable[0] = runq.p50_ns;
	w->runnable[1] = runq.p90_ns;
	w->runnable[2] = runq.p99_ns;
	w->runnable[3] = runq.max_ns;
	w->all_p99 = off.p99_ns;
	w->waker_tid = h->waker.tid;
	w->preemptor_tid = h->preemptor.tid;
	memcpy(w->waker, h->waker.comm, sizeof(w->waker));
	memcpy(w->preemptor, h->preemptor.comm, sizeof(w->preemptor));
}

pmAtomValue metric_get(const struct metric *m, const void *snap)
{
	const char *p = (const char *)snap + m->off;
	pmAtomValue a;
	uint32_t v32;

	switch (m->type) {
	case PM_TYPE_U64:
		memcpy(&a.ull, p, sizeof(a.ull));
		if (m->ticks)
			a.ull = csf_ticks_to_ns(a.ull);
		break;
	case PM_TYPE_U32:
		memcpy(&a.ul, p, sizeof(a.ul));
		break;
	default:
		if (m->cluster == CL_THREAD && m->item == IT_STATE) {
			memcpy(&v32, p, sizeof(v32));
			a.cp = (char *)csf_state_name(v32);
		} else {
			a.cp = (char *)p;
		}
	}
	return a;
}

int metric_put(const struct metric *m, void *snap, const pmAtomValue *a)
{
	char *p = (char *)snap + m->off;
	uint32_t st;

	switch (m->type) {
	case PM_TYPE_U64:
		memcpy(p, &a->ull, sizeof(a->ull));
		return 0;
	case PM_TYPE_U32:
		memcpy(p, &a->ul, sizeof(a->ul));
		return 0;
	}
	if (m->item != IT_STATE) {
		/* the comm, cut as the kernel cuts it */
		size_t room = sizeof(((struct csf_snap *)0)->comm);
		size_t len = strnlen(a->cp, room - 1);

		memcpy(p, a->cp, len);
		memset(p + len, 0, room - len);
		return 0;
	}
	for (st = 0; st <= CSF_STATE_EXITED; st++)
		if (!strcmp(a->cp, csf_state_name(st))) {
			memcpy(p, &st, sizeof(st));
			return 0;
		}
	return -EINVAL;
}
