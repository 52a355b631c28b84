// SPDX-License-Identifier: MIT
/*
 * schedstat_cmp - the pages' running and runnable times against the
 * kernel's own, /proc/PID/task/TID/schedstat (sum_exec_runtime, run_delay,
 * pcount), for a workload nobody here wrote: stress-ng's CPU hogs (one
 * more than CPUs), sleepers, a futex hammer and a mutex one, and busybox
 * dd reading the virtio disk with O_DIRECT.  Run by guest_schedstat.sh.
 *
 * Both sides are read with every thread of the workload stopped
 * (SIGSTOP, each seen in state T): a stopped thread is neither running
 * nor runnable, so both sides have closed their intervals at its last
 * switch, and their differences over the 3 s between two stops compare.
 *
 * The bounds, from how each side stamps (Debian's linux-source-7.3,
 * kernel/sched/core.c __schedule() and kernel/sched/stats.h):
 *
 * - Switches: the page's nvcsw and nivcsw are the kernel's, so the sum
 *   moves exactly as /proc's voluntary_ctxt_switches and
 *   nonvoluntary_ctxt_switches do.
 * - Each switch: the kernel stamps it with the runqueue clock taken by
 *   update_rq_clock() at the start of __schedule(); the probe with its
 *   own clock read in the sched_switch tracepoint, after the pick (and,
 *   when the CPU goes idle, after its newidle balance).  sum_exec_runtime
 *   has no IRQ time to lose on these kernels (no
 *   CONFIG_IRQ_TIME_ACCOUNTING), so each switch moves only that pick's
 *   time from one side of the boundary to the other: PICK_NS at most
 *   under TCG, times kernels.tab's slow factor (a pick under KASAN and
 *   lockdep took 600 us), plus STALL_NS once, times the slow factor too,
 *   qemu stopping a vCPU inside one pick or before it takes a queued
 *   wakeup (its round robin between vCPUs, a loaded host; on 6.1-arm64 a
 *   thread's runnable once ran 99 ms over its wait_sum).
 *   That bounds runnable against each of the two numbers below.  Running
 *   against sum_exec_runtime is held tighter: csf_skew measures each
 *   task's picks, as prev (the probe counts them as running, the kernel
 *   does not) and as next (the other way round), so the difference must
 *   be their balance within the same bound.  On 6.1-arm64 under TCG a
 *   pick into idle took milliseconds (a mean of 0.6 to 0.7 ms, p99 4 ms),
 *   and dd, which sleeps on every read, ran 1 to 3 ms a switch over
 *   sum_exec_runtime: its picks, not the page.
 * - Runnable lies between two numbers of the kernel's.  run_delay misses
 *   waits: sched_info_depart() starts a wait only for a task still
 *   TASK_RUNNING, so a task preempted after it set a sleeping state but
 *   before it slept waits on the runqueue unstamped, and
 *   sched_info_arrive() then counts neither the wait nor the arrival in
 *   pcount (a migration stamps it again part-way).  The fair class's
 *   wait_sum (/proc/PID/task/TID/sched, with sched_schedstats on) counts
 *   every time on the runqueue not running, so those waits too, but also
 *   the sleep of a task EEVDF's delayed dequeue (6.12 and later) keeps
 *   queued until it is picked or its lag has decayed
 *   (put_prev_entity() starts a wait for any entity still on_rq).  The
 *   page counts the first as runnable and the second as sleeping, as the
 *   task was: so it is at least run_delay and at most wait_sum, within
 *   the picks' bound.  On 6.12-rt, wait_sum of the mutex workers moves
 *   by thousands of seconds in 3 s: the rt and fair classes keep a
 *   task's wait stamp in one place (p->stats), and priority inheritance
 *   moves the lockers between them mid-wait.  A wait_sum that moved by
 *   more than the interval, or back, is said and not compared.  Once on
 *   6.12, a stress-ng parent that sleeps nearly all the time had run_delay
 *   move by 3.06 s in 3 s, over its wait_sum's 0.19 s and its page's
 *   runnable 25 ms: a run_delay over wait_sum is said and not compared.
 *
 * The pick's time itself is measured, not assumed: the measuring module
 * tests/vm/skew (csf_skew.c, loaded by guest_schedstat.sh) sees each
 * switch just before coarse_stat_fs's probe and sums local_clock() minus
 * the scheduler's stamp.  Its distribution over the interval is noted;
 * the bounds above allow each switch PICK_NS times the slow factor, or
 * the mean pick measured when that is more (6.1-arm64), and no mean may
 * exceed PICK_MAX_NS.
 *
 * Each CPU's idle time (idle and I/O wait) is held against /proc/stat's
 * over the same interval.  /proc/stat's is the nohz idle time, which
 * starts after the switch to the idle task (tick_nohz_idle_enter() in
 * do_idle()) and ends before the switch away (tick_nohz_idle_exit()),
 * and pauses for interrupts: so it lies inside the page's.  Both ends of
 * /proc/stat are rounded to USER_HZ (10 ms), and each pair of reads is
 * apart by what the clock around it measured.  The page's idle may be
 * longer by a pick's time on each side of every idle period (csf_skew
 * counts the switches to idle) and by the interrupts the CPU took
 * (/proc/interrupts), each within PICK_NS as well.  The workload keeps
 * every CPU busy, so this holds the accounting of a loaded machine; the
 * mostly idle one is test_cpu_page's.
 */
#include <dirent.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

#define MAX_TASKS 512
#define MAX_CPUS 64
#define USER_HZ_NS 10000000ll		/* /proc/stat's unit */
#define SKEW_STATS "/sys/module/csf_skew/parameters/stats"
#define SKEW_TASK "/sys/module/csf_skew/parameters/task"
#define SKEW_BUCKETS 32
#define SLEEPERS 8			/* --sleep-max */
#define STR_(x) #x
#define STR(x) STR_(x)
#define RUN_MS 3000
#define PICK_NS 200000ll		/* a pick under TCG: check_skew() */
#define PICK_MAX_NS 2000000ll		/* the mean no kernel may exceed */
#define STALL_NS 60000000ll		/* one stalled vCPU; 17 ms seen */

struct side {
	uint64_t run, runnable;		/* the page's, ns */
	uint64_t switches;		/* nvcsw + nivcsw */
	uint64_t exec, delay, pcount;	/* schedstat's */
	uint64_t kswitches;		/* /proc's ctxt_switches */
	uint64_t wait_sum;		/* /proc/.../sched's, ns */
	uint64_t pick_prev, pick_next;	/* csf_skew's for this task, ns */
};

struct task {
	pid_t pid, tid;
	char comm[16];
	struct csf_thread_map *map;
	struct side a, b;
	int have_a, have_b;
};

/*
 * csf_skew's totals: bucket k counts differences d with fls64(d) == k;
 * idle[n], the switches to CPU n's idle task.
 */
struct skew {
	unsigned long long n, sum, max, negative, bucket[SKEW_BUCKETS];
	unsigned long long idle[MAX_CPUS];
};

/* One CPU at a stop: the page, /proc/stat, the clock around both. */
struct cpu_side {
	struct vm_cpu_sample page;
	struct vm_proc_cpu proc;
	uint64_t bracket_ns;
	unsigned long long irqs;	/* /proc/interrupts, its column */
};

static struct task tasks[MAX_TASKS];
/* A switch's allowance for its pick, from check_skew() */
static int64_t pick_ns;
static size_t ntasks;
static pid_t pgid;

/* /proc/@pid/stat's process group and state, or -1. */
static int proc_stat(pid_t pid, pid_t tid, pid_t *grp, char *state)
{
	char path[64], buf[512], *p;
	FILE *f;
	int pg;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p || !(p = strrchr(buf, ')')))
		return -1;
	if (sscanf(p + 2, "%c %*d %d", state, &pg) != 2)
		return -1;
	*grp = pg;
	return 0;
}

/* Call @fn on every thread of every process of the group; how many. */
static int each_task(void (*fn)(pid_t pid, pid_t tid, char state))
{
	DIR *d = opendir("/proc"), *td;
	struct dirent *e, *te;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[64];
		pid_t pid = (pid_t)atoi(e->d_name), grp;
		char st;

		if (pid <= 0 || proc_stat(pid, pid, &grp, &st) || grp != pgid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		td = opendir(path);
		if (!td)
			continue;
		while ((te = readdir(td))) {
			pid_t tid = (pid_t)atoi(te->d_name);

			if (tid > 0 && !proc_stat(pid, tid, &grp, &st)) {
				fn(pid, tid, st);
				n++;
			}
		}
		closedir(td);
	}
	closedir(d);
	return n;
}

static int not_stopped;

static void count_running(pid_t pid, pid_t tid, char state)
{
	(void)pid;
	(void)tid;
	if (state != 'T' && state != 't' && state != 'Z' && state != 'X')
		not_stopped++;
}

/* SIGSTOP the group and wait until every thread of it is stopped. */
static void stop_all(void)
{
	ck_assert_int_eq(kill(-pgid, SIGSTOP), 0);
	for (int i = 0; i < 2000; i++) {
		not_stopped = 0;
		each_task(count_running);
		if (!not_stopped)
			return;
		vm_sleep_ms(10);
	}
	ck_abort_msg("%d threads of the workload did not stop", not_stopped);
}

static struct task *task_of(pid_t tid)
{
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i].tid == tid)
			return &tasks[i];
	return NULL;
}

static void add_task(pid_t pid, pid_t tid, char state)
{
	struct task *t = task_of(tid);

	(void)state;
	if (t || ntasks == MAX_TASKS)
		return;
	t = &tasks[ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
}

/*
 * /proc/PID/task/TID/sched's wait_sum ("ms.ns", with sched_schedstats on):
 * the fair class's time on the runqueue not running, which it starts at
 * every enqueue and at every switch-out of a task still on the runqueue,
 * whatever its state.
 */
static int read_wait_sum(const struct task *t, struct side *s)
{
	char path[64], line[160], name[64];
	unsigned long long ms, ns;
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", t->pid,
		 t->tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s : %llu.%llu", name, &ms, &ns) == 3 &&
			strlen(name) >= 8 &&
			!strcmp(name + strlen(name) - 8, "wait_sum");
	fclose(f);
	if (found)
		s->wait_sum = ms * 1000000 + ns;
	return found ? 0 : -1;
}

static int read_schedstat(const struct task *t, struct side *s)
{
	char path[64], line[128];
	unsigned long long exec, delay, pcount;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", t->pid,
		 t->tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu %llu", &exec, &delay, &pcount);
	fclose(f);
	if (n != 3)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", t->pid,
		 t->tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	s->kswitches = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
			s->kswitches += v;
	}
	fclose(f);
	s->exec = exec;
	s->delay = delay;
	s->pcount = pcount;
	return read_wait_sum(t, s);
}

/* Both sides of @t now; 0, or -1 when it is gone or not registered. */
/* csf_skew's picks of task @tid, as prev and as next. */
static int read_task_skew(pid_t tid, struct side *s)
{
	char pid[16];
	FILE *f;
	int n;

	snprintf(pid, sizeof(pid), "%d", (int)tid);
	if (vm_write_file(SKEW_TASK, pid) || !(f = fopen(SKEW_TASK, "r")))
		return -1;
	n = fscanf(f, "%" SCNu64 " %" SCNu64, &s->pick_prev, &s->pick_next);
	fclose(f);
	return n == 2 ? 0 : -1;
}

static int read_side(struct task *t, struct side *s)
{
	struct csf_snap snap;

	if (!t->map && csf_thread_map(t->tid, &t->map))
		return -1;
	if (csf_thread_read(t->map, &snap) ||
	    snap.state == CSF_STATE_EXITED || read_schedstat(t, s) ||
	    read_task_skew(t->tid, s))
		return -1;
	memcpy(t->comm, snap.comm, sizeof(t->comm));
	s->run = csf_ticks_to_ns(snap.time[CSF_STATE_RUNNING]);
	s->runnable = csf_ticks_to_ns(snap.time[CSF_STATE_RUNNABLE]);
	s->switches = snap.nvcsw + snap.nivcsw;
	return 0;
}

/* The workload, in a process group of its own: its pgid. */
static pid_t start_workload(int nhogs)
{
	char hogs[16], cmd[160];
	pid_t pid = fork(), dd;

	ck_assert_int_ge(pid, 0);
	snprintf(hogs, sizeof(hogs), "%d", nhogs);
	if (!pid) {
		setpgid(0, 0);
		execl("/usr/bin/stress-ng", "stress-ng", "--cpu", hogs,
		      "--sleep", "1", "--sleep-max", STR(SLEEPERS), "--futex", "1",
		      "--mutex", "1", "--timeout", "600", "--quiet",
		      (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	snprintf(cmd, sizeof(cmd),
		 "while :; do dd if=%s of=/dev/null bs=4096 count=4096 "
		 "iflag=direct 2>/dev/null; done",
		 vm_env("CSF_VM_DISK", "/dev/vda"));
	dd = fork();
	ck_assert_int_ge(dd, 0);
	if (!dd) {
		setpgid(0, pid);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(dd, pid);
	return pid;
}

static void read_skew(struct skew *k, int ncpus)
{
	FILE *f = fopen(SKEW_STATS, "r");
	int n;

	ck_assert_msg(f != NULL, "%s: csf_skew is not loaded", SKEW_STATS);
	n = fscanf(f, "%llu %llu %llu %llu", &k->n, &k->sum, &k->max,
		   &k->negative);
	for (int b = 0; n == 4 + b && b < SKEW_BUCKETS; b++)
		n += fscanf(f, "%llu", &k->bucket[b]);
	for (int c = 0; n == 4 + SKEW_BUCKETS + c && c < ncpus; c++)
		n += fscanf(f, "%llu", &k->idle[c]);
	fclose(f);
	ck_assert_int_eq(n, 4 + SKEW_BUCKETS + ncpus);
}

/* The upper edge of the bucket that holds the @q quantile of @d, ns. */
static unsigned long long skew_quantile(const struct skew *d, double q)
{
	unsigned long long seen = 0;

	for (int b = 0; b < SKEW_BUCKETS; b++) {
		seen += d->bucket[b];
		if (seen >= q * (double)d->n)
			return 1ull << b;
	}
	return 1ull << (SKEW_BUCKETS - 1);
}

/* The picks of the interval, from csf_skew at the two stops. */
static void check_skew(const struct skew *a, const struct skew *b)
{
	struct skew d = { .n = b->n - a->n, .sum = b->sum - a->sum };

	for (int i = 0; i < SKEW_BUCKETS; i++)
		d.bucket[i] = b->bucket[i] - a->bucket[i];
	ck_assert_msg(b->negative == 0,
		      "%llu switches with exec_start later than local_clock()",
		      b->negative);
	ck_assert_uint_gt(d.n, 0);
	vm_note("pick to probe over %llu switches: mean %llu us, p50 < %llu "
		"us, p99 < %llu us; max %llu us since load", d.n,
		d.sum / d.n / 1000, skew_quantile(&d, 0.5) / 1000,
		skew_quantile(&d, 0.99) / 1000, b->max / 1000);
	ck_assert_msg(d.sum / d.n <= (unsigned long long)(PICK_MAX_NS *
							  vm_slow()),
		      "the mean pick took %llu us, more than %lld us",
		      d.sum / d.n / 1000, PICK_MAX_NS * vm_slow() / 1000);
	pick_ns = PICK_NS * vm_slow();
	if ((int64_t)(d.sum / d.n) > pick_ns)
		pick_ns = (int64_t)(d.sum / d.n);
}

/* Each CPU's column of /proc/interrupts, summed into c[cpu].irqs. */
static void read_irqs(struct cpu_side *c, int ncpus)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[1024];

	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < ncpus; i++)
		c[i].irqs = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[MAX_CPUS];
		char *p = strchr(line, ':'), *end;
		const char *name = line + strspn(line, " ");
		int n = 0;

		/* ERR and MIS have one total, not a column per CPU */
		if (!strncmp(name, "ERR:", 4) || !strncmp(name, "MIS:", 4))
			continue;
		for (p = p ? p + 1 : NULL; p && n < ncpus; p = end, n++) {
			v[n] = strtoull(p, &end, 10);
			if (end == p)
				break;
		}
		for (int i = 0; n == ncpus && i < ncpus; i++)
			c[i].irqs += v[i];
	}
	fclose(f);
}

/* Each CPU's page and /proc/stat line, and its interrupts. */
static void read_cpus(const struct vm_cpu_page *p, struct cpu_side *c,
		      int ncpus)
{
	read_irqs(c, ncpus);
	for (int i = 0; i < ncpus; i++) {
		uint64_t t0 = vm_mono_ns();

		vm_cpu_read(p, (unsigned int)i, &c[i].page);
		vm_proc_stat_cpu((unsigned int)i, &c[i].proc);
		c[i].bracket_ns = vm_mono_ns() - t0;
	}
}

static uint64_t page_ns(const struct vm_cpu_page *p,
			const struct cpu_side *a, const struct cpu_side *b,
			int state)
{
	return vm_ticks_to_ns(p->hdr, b->page.time[state] -
				      a->page.time[state]);
}

static uint64_t proc_ns(const struct cpu_side *a, const struct cpu_side *b,
			int first, int last)
{
	uint64_t ns = 0;

	for (int i = first; i <= last; i++)
		ns += b->proc.ns[i] - a->proc.ns[i];
	return ns;
}

/*
 * CPU @cpu's idle time, the page's against /proc/stat's (see the top),
 * over an interval with @periods idle periods begun in it.
 */
static void compare_cpu(const struct vm_cpu_page *p, int cpu,
			const struct cpu_side *a, const struct cpu_side *b,
			int64_t periods)
{
	int64_t idle = (int64_t)(page_ns(p, a, b, CSF_CPU_IDLE) +
				 page_ns(p, a, b, CSF_CPU_IOWAIT));
	int64_t total = idle + (int64_t)page_ns(p, a, b, CSF_CPU_BUSY);
	int64_t pidle = (int64_t)proc_ns(a, b, CSF_STAT_IDLE,
					 CSF_STAT_IOWAIT);
	int64_t ptotal = (int64_t)proc_ns(a, b, 0, CSF_STAT_STEAL);
	int64_t slack = 2 * USER_HZ_NS + (int64_t)(a->bracket_ns +
						   b->bracket_ns);
	int64_t irqs = (int64_t)(b->irqs - a->irqs);
	int64_t over = slack + ((periods + 1) * 2 + irqs) * pick_ns +
		       STALL_NS * vm_slow();

	vm_note("cpu %d: idle %lld ms, /proc/stat %lld ms; busy %lld ms, "
		"/proc/stat %lld ms; %lld idle periods, %lld interrupts",
		cpu, (long long)idle / 1000000, (long long)pidle / 1000000,
		(long long)(total - idle) / 1000000,
		(long long)(ptotal - pidle) / 1000000, (long long)periods,
		(long long)irqs);
	ck_assert_msg(idle >= pidle - slack,
		      "cpu %d: idle %lld us, /proc/stat's nohz idle %lld us: "
		      "more than %lld us under it", cpu, (long long)idle / 1000,
		      (long long)pidle / 1000, (long long)slack / 1000);
	ck_assert_msg(idle <= pidle + over,
		      "cpu %d: idle %lld us, /proc/stat's nohz idle %lld us: "
		      "more than %lld us over it (%lld idle periods, %lld "
		      "interrupts)", cpu, (long long)idle / 1000,
		      (long long)pidle / 1000, (long long)over / 1000,
		      (long long)periods, (long long)irqs);
}

static int compared, short_threads;
static int64_t short_waits, short_ns;

static void note(const struct task *t, int64_t drun, int64_t dexec,
		 int64_t picks, int64_t drnbl, int64_t dwait, int64_t ddelay)
{
	vm_note("%-15s %5d sw %5llu pc %5llu run %8lld exec %8lld (%+6lld, "
		"picks %+6lld) rnbl %8lld wait %8lld (%+6lld) delay %8lld us",
		t->comm, t->tid,
		(unsigned long long)(t->b.switches - t->a.switches),
		(unsigned long long)(t->b.pcount - t->a.pcount),
		(long long)drun / 1000, (long long)dexec / 1000,
		(long long)(drun - dexec) / 1000, (long long)picks / 1000,
		(long long)drnbl / 1000,
		(long long)dwait / 1000, (long long)(drnbl - dwait) / 1000,
		(long long)ddelay / 1000);
}

/* @t's two sides over the @wall_ns of the interval, within the bounds. */
static void compare(const struct task *t, int64_t wall_ns)
{
	int64_t drun = (int64_t)(t->b.run - t->a.run);
	int64_t drnbl = (int64_t)(t->b.runnable - t->a.runnable);
	int64_t dexec = (int64_t)(t->b.exec - t->a.exec);
	int64_t ddelay = (int64_t)(t->b.delay - t->a.delay);
	int64_t dwait = (int64_t)(t->b.wait_sum - t->a.wait_sum);
	int64_t sw = (int64_t)(t->b.switches - t->a.switches);
	int64_t pc = (int64_t)(t->b.pcount - t->a.pcount);
	int64_t picks = (int64_t)(t->b.pick_prev - t->a.pick_prev) -
			(int64_t)(t->b.pick_next - t->a.pick_next);
	int64_t bound = sw * pick_ns + STALL_NS * vm_slow();
	int stale = dwait < 0 || dwait > wall_ns;

	if (!t->have_b)
		return;
	compared++;
	note(t, drun, dexec, picks, drnbl, dwait, ddelay);
	ck_assert_msg(t->b.switches - t->a.switches ==
		      t->b.kswitches - t->a.kswitches,
		      "%s %d: %lld switches, the kernel's %llu", t->comm,
		      t->tid, (long long)sw,
		      (unsigned long long)(t->b.kswitches - t->a.kswitches));
	ck_assert_msg(llabs(drun - dexec - picks) <= bound,
		      "%s %d: running %lld us, sum_exec_runtime %lld us plus "
		      "its picks %lld us: more apart than %lld us over %lld "
		      "switches", t->comm, t->tid, (long long)drun / 1000,
		      (long long)dexec / 1000, (long long)picks / 1000,
		      (long long)bound / 1000, (long long)sw);
	if (stale) {
		vm_note("%s %d: wait_sum moved by %lld ms in %lld ms: not "
			"compared", t->comm, t->tid, (long long)dwait / 1000000,
			(long long)wall_ns / 1000000);
		dwait = INT64_MAX / 2;
	} else if (ddelay > dwait + bound) {
		vm_note("%s %d: run_delay %lld ms over wait_sum %lld ms: the "
			"kernel's two disagree, run_delay not compared",
			t->comm, t->tid, (long long)ddelay / 1000000,
			(long long)dwait / 1000000);
		ddelay = 0;
	}
	ck_assert_msg(drnbl >= ddelay - bound && drnbl <= dwait + bound,
		      "%s %d: runnable %lld us, not between run_delay %lld us "
		      "and wait_sum %lld us within %lld us (%lld switches)",
		      t->comm, t->tid, (long long)drnbl / 1000,
		      (long long)ddelay / 1000, (long long)dwait / 1000,
		      (long long)bound / 1000, (long long)sw);
	ck_assert_msg(pc <= sw, "%s %d: pcount %lld over %lld switches",
		      t->comm, t->tid, (long long)pc, (long long)sw);
	if (!stale && dwait - ddelay > bound) {
		short_threads++;
		short_waits += sw - pc;
		short_ns += dwait - ddelay;
	}
}

static void count_one(pid_t pid, pid_t tid, char state)
{
	(void)pid;
	(void)tid;
	(void)state;
}

/*
 * Wait until the workload has its threads: stress-ng's own, each CPU
 * hog, the sleep worker and its SLEEPERS, the futex worker and the child
 * it wakes, the mutex worker and its two lockers; and sh with its dd.
 */
static int wait_workload(int hogs)
{
	int want = 1 + hogs + 1 + SLEEPERS + 2 + 3 + 2, n = 0;

	for (int i = 0; i < 600 && n < want; i++) {
		vm_sleep_ms(50);
		n = each_task(count_one);
	}
	ck_assert_msg(n >= want, "the workload has %d threads of %d", n,
		      want);
	return want;
}

static void attach_one(pid_t pid, pid_t tid, char state)
{
	(void)state;
	if (pid == tid)
		csf_attach(pid, CSF_ATTACH_INHERIT);
}

START_TEST(schedstat_agrees)
{
	int ncpus = vm_possible_cpus(), hogs = ncpus + 1, want, status;
	struct cpu_side cpu_a[MAX_CPUS], cpu_b[MAX_CPUS];
	struct skew skew_a, skew_b;
	struct vm_cpu_page page;
	int64_t wall;

	ck_assert_int_ge(csf_clock(), 0);
	ck_assert_int_le(ncpus, MAX_CPUS);
	vm_cpu_map(&page);
	ck_assert_int_eq(vm_write_file("/proc/sys/kernel/sched_schedstats",
				       "1"), 0);
	pgid = start_workload(hogs);
	want = wait_workload(hogs);
	each_task(attach_one);
	vm_sleep_ms(500);
	stop_all();
	each_task(add_task);
	for (size_t i = 0; i < ntasks; i++)
		tasks[i].have_a = !read_side(&tasks[i], &tasks[i].a);
	read_skew(&skew_a, ncpus);
	read_cpus(&page, cpu_a, ncpus);
	wall = (int64_t)vm_mono_ns();
	ck_assert_int_eq(kill(-pgid, SIGCONT), 0);
	vm_sleep_ms(RUN_MS);
	stop_all();
	wall = (int64_t)vm_mono_ns() - wall;
	read_cpus(&page, cpu_b, ncpus);
	read_skew(&skew_b, ncpus);
	for (size_t i = 0; i < ntasks; i++)
		tasks[i].have_b = tasks[i].have_a &&
				  !read_side(&tasks[i], &tasks[i].b);
	kill(-pgid, SIGKILL);
	while (waitpid(-pgid, &status, 0) > 0)
		;
	vm_write_file("/proc/sys/kernel/sched_schedstats", "0");
	/* the picks first: the bounds below assume them */
	check_skew(&skew_a, &skew_b);
	for (size_t i = 0; i < ntasks; i++)
		compare(&tasks[i], wall);
	vm_note("%d threads compared; run_delay short of wait_sum in %d, "
		"by %lld ms, pcount of the switches by %lld", compared,
		short_threads, (long long)short_ns / 1000000,
		(long long)short_waits);
	/* all but a dd that ended in the interval */
	ck_assert_int_ge(compared, want - 1);
	for (int i = 0; i < ncpus; i++)
		compare_cpu(&page, i, &cpu_a[i], &cpu_b[i],
			    (int64_t)(skew_b.idle[i] - skew_a.idle[i]));
	vm_cpu_unmap(&page);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = { schedstat_agrees, NULL };

	return vm_run_tests("schedstat_cmp", tests);
}
