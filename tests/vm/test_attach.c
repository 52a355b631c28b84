// SPDX-License-Identifier: MIT
/*
 * test_attach - registering threads that did not register themselves: the
 * attach file and csf_attach(), inheritance at fork, exec, the bounds, and
 * the permission rule (the ptrace read rule of /proc/PID/stat).
 *
 * The subjects are "targets": forked children that never open thread-self
 * and obey one-byte commands on a pipe, answering each with a struct
 * reply.  A target blocked on its command pipe is asleep, which the tests
 * use as a known state.  Processes a target creates die with it
 * (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

struct target {
	pid_t pid;
	int cmd, ack;
};

struct reply {
	int32_t val;		/* a pid or tid, a count, or -errno */
	uint32_t pad;
	uint64_t t;		/* the page clock, where a command says */
};

static uint32_t page_clock;

static void send_reply(int ack, int32_t val, uint64_t t)
{
	struct reply r = { .val = val, .t = t };

	if (write(ack, &r, sizeof(r)) != sizeof(r))
		_exit(3);
}

static void *blocker(void *arg)
{
	int fd = *(int *)arg;
	pid_t tid = gettid();

	if (write(fd, &tid, sizeof(tid)) != sizeof(tid))
		_exit(4);
	for (;;)
		pause();
	return NULL;
}

/* A child of a target: dies with it, says it runs on @fd, then waits. */
static void child_waits(int fd)
{
	char c = 1;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (write(fd, &c, 1) != 1)
		_exit(5);
	for (;;)
		pause();
}

/* A fork bomb of depth @depth, every process of it saying it runs on @fd. */
static void bomb(int depth, int fd)
{
	while (depth-- > 0) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0)
			continue;		/* the child forks in its turn */
		if (fork() == 0)
			continue;
		break;
	}
	child_waits(fd);
}

static void target_loop(int cmd, int ack, const char *self)
{
	char c, fdc[16], fda[16];
	int p[2], n, i, status;
	pthread_t th;
	uint64_t now;
	pid_t pid;

	while (read(cmd, &c, 1) == 1) {
		switch (c) {
		case 'T':	/* a thread that sleeps: its tid */
			if (pipe(p) || pthread_create(&th, NULL, blocker, &p[1]) ||
			    read(p[0], &pid, sizeof(pid)) != sizeof(pid))
				_exit(6);
			close(p[0]);
			send_reply(ack, pid, 0);
			break;
		case 'F':	/* a child that runs, then sleeps; the clock as fork
				 * returned */
			if (pipe(p))
				_exit(7);
			pid = fork();
			if (pid == 0)
				child_waits(p[1]);
			now = vm_clock_now(page_clock);
			if (read(p[0], &c, 1) != 1)
				_exit(8);
			close(p[0]);
			close(p[1]);
			send_reply(ack, pid, now);
			break;
		case 'L':	/* int n: n children that exit at once */
			if (read(cmd, &n, sizeof(n)) != sizeof(n))
				_exit(9);
			for (i = 0; i < n; i++) {
				pid = fork();
				if (pid == 0)
					_exit(0);
				if (pid < 0 || waitpid(pid, &status, 0) != pid)
					break;
			}
			send_reply(ack, i, 0);
			break;
		case 'B':	/* int depth: a fork bomb; how many run */
			if (read(cmd, &n, sizeof(n)) != sizeof(n) || pipe(p))
				_exit(10);
			pid = fork();
			if (pid == 0) {
				setpgid(0, 0);
				bomb(n, p[1]);
			}
			close(p[1]);
			for (i = 0; i < (2 << n) - 1 && read(p[0], &c, 1) == 1; i++)
				;
			send_reply(ack, i, (uint64_t)pid);
			close(p[0]);
			break;
		case 'K':	/* end the bomb */
			if (read(cmd, &pid, sizeof(pid)) != sizeof(pid))
				_exit(11);
			kill(-pid, SIGKILL);
			while (waitpid(-1, NULL, __WALL) > 0)
				;
			send_reply(ack, 0, 0);
			break;
		case 'N':	/* not dumpable */
			send_reply(ack, prctl(PR_SET_DUMPABLE, 0) ? -errno : 0, 0);
			break;
		case 'X':	/* execve() itself: the new image answers */
			snprintf(fdc, sizeof(fdc), "%d", cmd);
			snprintf(fda, sizeof(fda), "%d", ack);
			execl(self, self, "--target", fdc, fda, (char *)NULL);
			send_reply(ack, -errno, 0);
			break;
		case 'U':	/* a child that execs the setuid copy of us */
			if (pipe(p))
				_exit(12);
			pid = fork();
			if (pid == 0) {
				snprintf(fdc, sizeof(fdc), "%d", p[1]);
				execl("/tmp/csf_suid", "csf_suid", "--waits", fdc,
				      (char *)NULL);
				_exit(13);
			}
			close(p[1]);
			send_reply(ack, read(p[0], &c, 1) == 1 ? pid : -1, 0);
			close(p[0]);
			break;
		default:
			_exit(14);
		}
	}
	_exit(0);
}

static void target_start(struct target *t)
{
	struct reply r;
	char self[PATH_MAX];
	int cmd[2], ack[2];
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	ck_assert_int_eq(pipe(cmd), 0);
	ck_assert_int_eq(pipe(ack), 0);
	t->pid = fork();
	ck_assert_int_ge(t->pid, 0);
	if (t->pid == 0) {
		close(cmd[1]);
		close(ack[0]);
		prctl(PR_SET_NAME, "csf-target");
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* the bomb's orphans are ours to reap, not init's */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		send_reply(ack[1], 0, 0);
		target_loop(cmd[0], ack[1], self);
	}
	close(cmd[0]);
	close(ack[1]);
	t->cmd = cmd[1];
	t->ack = ack[0];
	/* named, and on its way to sleep on its command pipe */
	ck_assert_int_eq(read(t->ack, &r, sizeof(r)), sizeof(r));
}

static struct reply target_do(struct target *t, char c, const int *arg)
{
	struct reply r;

	ck_assert_int_eq(write(t->cmd, &c, 1), 1);
	if (arg)
		ck_assert_int_eq(write(t->cmd, arg, sizeof(*arg)),
				 sizeof(*arg));
	ck_assert_msg(read(t->ack, &r, sizeof(r)) == sizeof(r),
		      "target %d gave no answer to %c", t->pid, c);
	return r;
}

static void target_stop(struct target *t)
{
	close(t->cmd);
	close(t->ack);
	vm_kill(t->pid);
}

/* The page of @tid as the library reads it; -errno if it cannot map it. */
static int page_of(pid_t tid, struct csf_snap *s)
{
	struct csf_thread_map *m;
	int err = csf_thread_map(tid, &m);

	if (err)
		return err;
	err = csf_thread_read(m, s);
	csf_thread_unmap(m);
	return err;
}

static struct csf_snap page_ok(pid_t tid)
{
	struct csf_snap s;
	int err = page_of(tid, &s);

	ck_assert_msg(!err, "threads/%d: %s", tid, strerror(-err));
	ck_assert_uint_eq(s.tid, (uint32_t)tid);
	return s;
}

static struct csf_module_stats stats(void)
{
	struct csf_module_stats st;

	ck_assert_int_eq(csf_module_stats(&st), 0);
	return st;
}

static void attach_ok(pid_t pid, unsigned int flags)
{
	int err = csf_attach(pid, flags);

	ck_assert_msg(!err, "csf_attach(%d, %#x): %s", pid, flags,
		      strerror(-err));
}

static int write_attach(int fd, const char *s)
{
	ssize_t n = write(fd, s, strlen(s));

	return n < 0 ? -errno : n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/* Outside any test: no libcheck assertion here. */
static void setup(void)
{
	int clock = csf_clock();

	if (clock < 0) {
		printf("test_attach: %s\n", csf_strerror(clock));
		exit(EXIT_FAILURE);
	}
	page_clock = (uint32_t)clock;
}

START_TEST(attach_file_rules)
{
	static const char *const bad[] = {
		"", "\n", "x", "0", "-3", "1x", "1 ", " 1", "1 bogus",
		"1 thread thread", "1 inherit inherit", "1 inherit thread",
		"99999999999", "1 thread inherit extra",
		"1                                               thread",
		"all inherit", "all 1", " all", "All", "all\n\n",
	};
	char req[32];
	struct stat st;
	pid_t gone;
	int fd;

	ck_assert_int_eq(stat(vm_path("attach"), &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0222);
	ck_assert_uint_eq(st.st_uid, 0);
	ck_assert_int_lt(open(vm_path("attach"), O_RDONLY), 0);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_lt(open(vm_path("attach"), O_RDWR), 0);
	ck_assert_int_eq(errno, EACCES);
	fd = open(vm_path("attach"), O_WRONLY);
	ck_assert_int_ge(fd, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(write_attach(fd, bad[i]) == -EINVAL,
			      "'%s' was not refused with EINVAL", bad[i]);

	gone = fork();
	if (gone == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(gone, NULL, 0), gone);
	snprintf(req, sizeof(req), "%d", gone);
	ck_assert_int_eq(write_attach(fd, req), -ESRCH);
	close(fd);

	ck_assert_int_eq(csf_attach(0, 0), -EINVAL);
	ck_assert_int_eq(csf_attach(-1, 0), -EINVAL);
	ck_assert_int_eq(csf_attach(getpid(), 0x80), -EINVAL);
	ck_assert_int_eq(csf_attach(gone, 0), -ESRCH);
	ck_assert_int_eq(csf_attach(gone, CSF_ATTACH_THREAD), -ESRCH);
}
END_TEST

/* A sleeping process of three threads: all of them, asleep, exactly once. */
START_TEST(attach_sleeping_process)
{
	struct csf_module_stats st0, st1, st2;
	struct csf_snap s, a, b;
	struct target t;
	pid_t tids[3];
	uint64_t t0, t1, sum;
	int i;

	target_start(&t);
	tids[0] = t.pid;
	tids[1] = target_do(&t, 'T', NULL).val;
	tids[2] = target_do(&t, 'T', NULL).val;
	ck_assert_int_eq(page_of(t.pid, &s), -ENOENT);
	st0 = stats();
	t0 = vm_clock_now(page_clock);
	attach_ok(t.pid, 0);
	t1 = vm_clock_now(page_clock);
	st1 = stats();
	ck_assert_uint_eq(st1.nr_threads, st0.nr_threads + 3);
	ck_assert_uint_eq(st1.nr_allocated, st0.nr_allocated + 3);
	ck_assert_uint_gt(st1.generation, st0.generation);
	for (i = 0; i < 3; i++) {
		s = page_ok(tids[i]);
		ck_assert_uint_eq(s.tgid, (uint32_t)t.pid);
		ck_assert_str_eq(s.comm, "csf-target");
		ck_assert_msg(s.state == CSF_STATE_SLEEPING,
			      "thread %d: state %s, not sleeping", tids[i],
			      csf_state_name(s.state));
		ck_assert_msg(s.registered_at >= t0 && s.registered_at <= t1,
			      "registered at %llu, outside the attach call "
			      "[%llu, %llu]",
			      (unsigned long long)s.registered_at,
			      (unsigned long long)t0, (unsigned long long)t1);
	}

	/* Again: nothing new. */
	attach_ok(t.pid, 0);
	attach_ok(tids[2], 0);
	st2 = stats();
	ck_assert_uint_eq(st2.nr_threads, st1.nr_threads);
	ck_assert_uint_eq(st2.generation, st1.generation);

	/* It goes on sleeping; the buckets add up to the time attached. */
	a = page_ok(tids[1]);
	vm_sleep_ms(200);
	b = page_ok(tids[1]);
	sum = 0;
	for (i = 0; i < CSF_NR_STATES; i++)
		sum += b.time[i];
	/* A clock read behind state_since extrapolates nothing. */
	ck_assert_uint_eq(sum, (b.now > b.state_since ? b.now : b.state_since) -
			       b.registered_at);
	ck_assert_uint_eq(b.time[CSF_STATE_RUNNING], a.time[CSF_STATE_RUNNING]);
	ck_assert_uint_gt(b.time[CSF_STATE_SLEEPING],
			  a.time[CSF_STATE_SLEEPING]);

	/* Without inherit its new threads and children are not registered. */
	ck_assert_int_eq(page_of(target_do(&t, 'T', NULL).val, &s), -ENOENT);
	ck_assert_int_eq(page_of(target_do(&t, 'F', NULL).val, &s), -ENOENT);
	target_stop(&t);
}
END_TEST

START_TEST(attach_one_thread)
{
	struct csf_snap s;
	struct target t;
	pid_t tid;

	target_start(&t);
	tid = target_do(&t, 'T', NULL).val;
	attach_ok(tid, CSF_ATTACH_THREAD);
	s = page_ok(tid);
	ck_assert_uint_eq(s.tgid, (uint32_t)t.pid);
	ck_assert_int_eq(page_of(t.pid, &s), -ENOENT);
	/* A tid without CSF_ATTACH_THREAD names its process, as /proc does. */
	attach_ok(tid, 0);
	page_ok(t.pid);
	target_stop(&t);
}
END_TEST

/* A spinner is never seen asleep, whenever it is attached. */
START_TEST(attach_spinner)
{
	struct csf_snap a, b;
	pid_t pid = vm_spinner(0);

	vm_sleep_ms(50);
	attach_ok(pid, 0);
	a = page_ok(pid);
	ck_assert_msg(a.state == CSF_STATE_RUNNING ||
		      a.state == CSF_STATE_RUNNABLE, "spinner attached %s",
		      csf_state_name(a.state));
	vm_sleep_ms(300);
	b = page_ok(pid);
	vm_kill(pid);
	ck_assert_uint_eq(b.time[CSF_STATE_SLEEPING], 0);
	ck_assert_uint_eq(b.time[CSF_STATE_IOWAIT], 0);
	ck_assert_uint_eq(b.time[CSF_STATE_BLOCKED], 0);
	ck_assert_uint_gt(b.time[CSF_STATE_RUNNING], a.time[CSF_STATE_RUNNING]);
	ck_assert_uint_eq(b.wakeups, 0);
}
END_TEST

/*
 * With inherit, a new thread and a new process are registered at their
 * creation: runnable from before they first run.
 */
START_TEST(inherit_registers_at_creation)
{
	struct csf_snap s;
	struct reply r;
	struct target t;
	pid_t tid;

	target_start(&t);
	attach_ok(t.pid, CSF_ATTACH_INHERIT);
	r = target_do(&t, 'F', NULL);
	ck_assert_int_gt(r.val, 0);
	s = page_ok(r.val);
	ck_assert_uint_eq(s.tgid, (uint32_t)r.val);
	ck_assert_msg(s.registered_at <= r.t,
		      "child registered at %llu, after fork returned (%llu)",
		      (unsigned long long)s.registered_at,
		      (unsigned long long)r.t);
	/* It has run (it answered): its wait for a first CPU was counted. */
	ck_assert_msg(s.time[CSF_STATE_RUNNABLE] > 0 &&
		      s.time[CSF_STATE_RUNNING] > 0,
		      "child: %s since %llu, registered %llu, now %llu, "
		      "run %llu runnable %llu sleep %llu, nvcsw %llu nivcsw "
		      "%llu, wakeups %llu",
		      csf_state_name(s.state),
		      (unsigned long long)s.state_since,
		      (unsigned long long)s.registered_at,
		      (unsigned long long)s.now,
		      (unsigned long long)s.time[CSF_STATE_RUNNING],
		      (unsigned long long)s.time[CSF_STATE_RUNNABLE],
		      (unsigned long long)s.time[CSF_STATE_SLEEPING],
		      (unsigned long long)s.nvcsw,
		      (unsigned long long)s.nivcsw,
		      (unsigned long long)s.wakeups);

	tid = target_do(&t, 'T', NULL).val;
	s = page_ok(tid);
	ck_assert_uint_eq(s.tgid, (uint32_t)t.pid);
	ck_assert_uint_gt(s.time[CSF_STATE_RUNNABLE], 0);
	target_stop(&t);
}
END_TEST

/* execve() keeps the registration: same page, new name, totals go on. */
START_TEST(exec_keeps_registration)
{
	struct csf_snap a, b;
	struct csf_thread_map *m;
	struct target t;
	struct reply r;

	target_start(&t);
	attach_ok(t.pid, 0);
	ck_assert_int_eq(csf_thread_map(t.pid, &m), 0);
	ck_assert_int_eq(csf_thread_read(m, &a), 0);
	ck_assert_str_eq(a.comm, "csf-target");
	r = target_do(&t, 'X', NULL);
	ck_assert_int_eq(r.val, t.pid);
	/* The new name from the exec on, before any switch out gives it. */
	ck_assert_int_eq(csf_thread_read(m, &b), 0);
	ck_assert_str_eq(b.comm, "test_attach");
	/* Then the new image sleeps on its command pipe. */
	for (int i = 0; i < 500; i++) {
		ck_assert_int_eq(csf_thread_read(m, &b), 0);
		if (b.state == CSF_STATE_SLEEPING)
			break;
		vm_sleep_ms(10);
	}
	csf_thread_unmap(m);
	ck_assert_uint_eq(b.state, CSF_STATE_SLEEPING);
	ck_assert_str_eq(b.comm, "test_attach");
	ck_assert_uint_eq(b.tid, a.tid);
	ck_assert_uint_eq(b.registered_at, a.registered_at);
	ck_assert_uint_gt(b.time[CSF_STATE_RUNNING], a.time[CSF_STATE_RUNNING]);
	/* And a fresh lookup finds the same page. */
	a = page_ok(t.pid);
	ck_assert_uint_eq(a.registered_at, b.registered_at);
	target_stop(&t);
}
END_TEST

/*
 * The counts once every exited thread is released (an RCU callback after
 * its reap): a baseline that later frees do not move.
 */
static struct csf_module_stats settled(void)
{
	struct csf_module_stats st = stats();

	for (int i = 0; i < 300 && st.nr_allocated != st.nr_threads; i++) {
		vm_sleep_ms(100);
		st = stats();
	}
	ck_assert_uint_eq(st.nr_allocated, st.nr_threads);
	return st;
}

static void wait_counts(const struct csf_module_stats *want)
{
	struct csf_module_stats st = stats();

	/* Entries go at sched_process_free, an RCU callback after the reap. */
	for (int i = 0; i < 300 && (st.nr_allocated != want->nr_allocated ||
				    st.nr_threads != want->nr_threads); i++) {
		vm_sleep_ms(100);
		st = stats();
	}
	ck_assert_uint_eq(st.nr_threads, want->nr_threads);
	ck_assert_uint_eq(st.nr_allocated, want->nr_allocated);
}

/*
 * 5,000 children that exit at once, each registered at its fork; on a
 * slow kernel a share of them (its checkers see each fork and exit alike:
 * 5,000 took 615 s on the debug kernel).
 */
START_TEST(inherit_fork_exit_loop)
{
	struct csf_module_stats st0, st1;
	struct csf_thread_map *root;
	struct csf_tree tr;
	struct target t;
	int n = (int)(5000 / vm_slow());
	uint64_t missed;

	if (!vm_once_per_boot())
		return;
	target_start(&t);
	attach_ok(t.pid, CSF_ATTACH_INHERIT);
	ck_assert_int_eq(csf_thread_map(t.pid, &root), 0);
	st0 = settled();
	ck_assert_int_eq(target_do(&t, 'L', &n).val, n);
	wait_counts(&st0);
	st1 = stats();
	missed = st1.nr_missed - st0.nr_missed;
	vm_note("%d forks, %llu of them missed", n,
		(unsigned long long)missed);
	/* Each child registered made the generation move twice. */
	ck_assert_uint_eq(st1.generation - st0.generation,
			  2 * ((uint64_t)n - missed));
	ck_assert_uint_lt(missed, (uint64_t)n);
	/* The tree saw each child join and exit, or missed it. */
	ck_assert_int_eq(csf_thread_read_tree(root, &tr), 0);
	ck_assert_uint_eq(tr.missed, missed);
	ck_assert_uint_eq(tr.threads, 1 + (uint64_t)n - missed);
	ck_assert_uint_eq(tr.processes, tr.threads);
	ck_assert_uint_eq(tr.running, 1);
	csf_thread_unmap(root);
	target_stop(&t);
}
END_TEST

/*
 * A tree counts its members, and its sums are the final totals of those
 * that exited, exactly: the same ticks, converted the same way.
 */
START_TEST(tree_sums_exited_members)
{
	struct csf_thread_map *root, *cm;
	struct csf_snap zero, fin;
	struct csf_delta d;
	struct csf_tree tr;
	struct target t;
	struct reply r;
	int i;

	target_start(&t);
	attach_ok(t.pid, CSF_ATTACH_INHERIT);
	ck_assert_int_eq(csf_thread_map(t.pid, &root), 0);
	ck_assert_int_eq(csf_thread_read_tree(root, &tr), 0);
	ck_assert_uint_eq(tr.root, (uint32_t)t.pid);
	ck_assert_uint_eq(tr.threads, 1);
	ck_assert_uint_eq(tr.processes, 1);
	ck_assert_uint_eq(tr.running, 1);
	ck_assert_uint_eq(tr.run_ns + tr.runnable_ns + tr.sleep_ns +
			  tr.iowait_ns + tr.blocked_ns, 0);

	r = target_do(&t, 'F', NULL);
	ck_assert_int_eq(csf_thread_map(r.val, &cm), 0);
	ck_assert_int_eq(csf_thread_read_tree(cm, &tr), -ENODATA);
	ck_assert_int_eq(csf_thread_read_tree(root, &tr), 0);
	ck_assert_uint_eq(tr.threads, 2);
	ck_assert_uint_eq(tr.processes, 2);
	ck_assert_uint_eq(tr.running, 2);

	ck_assert_int_eq(kill(r.val, SIGKILL), 0);
	for (i = 0; i < 300; i++) {
		ck_assert_int_eq(csf_thread_read(cm, &fin), 0);
		if (fin.state == CSF_STATE_EXITED)
			break;
		vm_sleep_ms(10);
	}
	ck_assert_uint_eq(fin.state, CSF_STATE_EXITED);
	ck_assert_int_eq(csf_thread_read_tree(root, &tr), 0);
	ck_assert_uint_eq(tr.threads, 2);
	ck_assert_uint_eq(tr.running, 1);
	ck_assert_uint_eq(tr.missed, 0);

	zero = fin;
	memset(zero.time, 0, sizeof(zero.time));
	zero.nvcsw = zero.nivcsw = zero.wakeups = zero.migrations = 0;
	zero.now = fin.registered_at;
	ck_assert_int_eq(csf_snap_delta(&zero, &fin, &d), 0);
	ck_assert_uint_gt(d.run_ns, 0);
	ck_assert_uint_eq(tr.run_ns, d.run_ns);
	ck_assert_uint_eq(tr.runnable_ns, d.runnable_ns);
	ck_assert_uint_eq(tr.sleep_ns, d.sleep_ns);
	ck_assert_uint_eq(tr.iowait_ns, d.iowait_ns);
	ck_assert_uint_eq(tr.blocked_ns, d.blocked_ns);
	ck_assert_uint_eq(tr.nvcsw, d.nvcsw);
	ck_assert_uint_eq(tr.nivcsw, d.nivcsw);
	ck_assert_uint_eq(tr.wakeups, d.wakeups);
	ck_assert_uint_eq(tr.migrations, d.migrations);
	csf_thread_unmap(cm);
	csf_thread_unmap(root);
	target_stop(&t);
}
END_TEST

/*
 * A tree's wall never goes back from one read to the next, at its end
 * either: while a member runs it grows with the reader's clock, and once
 * the last one has exited it is fixed at that exit.  A root pinned to CPU
 * 0 exits while this thread, on CPU 1, reads the tree between sleeps of
 * 20 us, each of which under qemu's single-threaded TCG stops CPU 0
 * wherever it is; so many roots in turn, that some of the reads land
 * inside the exit.  The exit is stamped inside the tree's write, so no
 * read before it can have gone further (1 us: mono mode's two clocks).
 */
START_TEST(tree_wall_never_goes_back)
{
	uint64_t worst = 0, reads = 0;
	long i, n = 300 / vm_slow();
	const struct timespec gap = { 0, 20000 };

	vm_pin(1);
	for (i = 0; i < n; i++) {
		struct csf_thread_map *root;
		struct csf_tree tr;
		uint64_t last = 0;
		int go[2], status;
		pid_t pid;
		char c;

		ck_assert_int_eq(pipe(go), 0);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			vm_pin(0);
			close(go[1]);
			_exit(read(go[0], &c, 1) == 1 ? 0 : 1);
		}
		close(go[0]);
		attach_ok(pid, CSF_ATTACH_INHERIT);
		ck_assert_int_eq(csf_thread_map(pid, &root), 0);
		ck_assert_int_eq(write(go[1], "g", 1), 1);
		close(go[1]);
		do {
			ck_assert_int_eq(csf_thread_read_tree(root, &tr), 0);
			if (tr.wall_ns < last && last - tr.wall_ns > worst)
				worst = last - tr.wall_ns;
			last = tr.wall_ns;
			reads++;
			nanosleep(&gap, NULL);
		} while (tr.running);
		csf_thread_unmap(root);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	vm_note("%ld trees, %llu reads, worst fall of a wall %llu ns", n,
		(unsigned long long)reads, (unsigned long long)worst);
	ck_assert_uint_le(worst, 1000);
}
END_TEST

/* The process group of /proc/@pid/stat, or -1. */
static pid_t pgrp_of(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	int pgrp = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* After the last ')': a comm may hold anything */
	if (fgets(buf, sizeof(buf), f)) {
		close_paren = strrchr(buf, ')');
		if (!close_paren ||
		    sscanf(close_paren + 1, " %*c %*d %d", &pgrp) != 1)
			pgrp = -1;
	}
	fclose(f);
	return pgrp;
}

/*
 * Attach the processes of group @pgrp one by one until the cap refuses
 * one (true), or none is left (false).  Those registered already answer 0.
 */
static bool attach_group_until_full(pid_t pgrp)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int err = 0;

	ck_assert_ptr_nonnull(dir);
	while (err != -ENOSPC && (d = readdir(dir))) {
		pid_t pid = (pid_t)atoi(d->d_name);

		if (pid <= 0 || pgrp_of(pid) != pgrp)
			continue;
		err = csf_attach(pid, 0);
		ck_assert_msg(!err || err == -ENOSPC, "csf_attach(%d): %s",
			      (int)pid, strerror(-err));
	}
	closedir(dir);
	return err == -ENOSPC;
}

/*
 * A fork bomb under inherit never passes max_threads; the forks it could
 * not register are counted as missed, and all is as before once it is
 * gone.  The fork probe takes entries from a reserve that a work item
 * refills, so a bomb may run it dry below the cap (6.12 under TCG: 234
 * of 256): the cap's own count is checked by filling the rest by attach.
 */
START_TEST(inherit_fork_bomb_bounded)
{
	struct csf_module_stats st0, st1, st2;
	struct csf_thread_map *root;
	struct csf_tree tr;
	struct target t;
	int depth = 8, err;
	struct reply r;
	struct csf_snap s;

	if (!vm_once_per_boot())
		return;
	target_start(&t);
	st0 = settled();
	attach_ok(t.pid, CSF_ATTACH_INHERIT);
	ck_assert_int_eq(csf_thread_map(t.pid, &root), 0);
	r = target_do(&t, 'B', &depth);
	ck_assert_int_eq(r.val, (2 << depth) - 1);
	st1 = stats();
	vm_note("bomb of %d processes: %llu registered, %llu missed, cap %u",
		r.val, (unsigned long long)st1.nr_threads,
		(unsigned long long)(st1.nr_missed - st0.nr_missed),
		st1.max_threads);
	/*
	 * Within the cap, and the children of registered processes that
	 * found no entry counted; theirs are not: a parent that is not
	 * registered passes nothing on.
	 */
	ck_assert_uint_le(st1.nr_allocated, st1.max_threads);
	ck_assert_uint_gt(st1.nr_missed, st0.nr_missed);
	ck_assert_uint_le(st1.nr_missed - st0.nr_missed +
			  st1.nr_allocated - st0.nr_allocated,
			  (uint64_t)r.val + 1);
	/* Every miss was the tree's; every page taken, its member's. */
	ck_assert_int_eq(csf_thread_read_tree(root, &tr), 0);
	ck_assert_uint_eq(tr.missed, st1.nr_missed - st0.nr_missed);
	ck_assert_uint_eq(tr.threads, st1.nr_allocated - st0.nr_allocated);
	csf_thread_unmap(root);
	/* The cap refuses only once its count is that of the entries. */
	ck_assert(attach_group_until_full((pid_t)r.t));
	ck_assert_uint_eq(stats().nr_allocated, st1.max_threads);
	/* Past the cap a registration fails; the system goes on. */
	err = csf_thread_snap(&s);
	ck_assert_int_eq(err, -ENOSPC);
	{
		int pgid = (int)r.t;

		target_do(&t, 'K', &pgid);
	}
	target_stop(&t);
	wait_counts(&st0);
	st2 = stats();
	ck_assert_uint_eq(st2.nr_threads, st0.nr_threads);
}
END_TEST

/* --- permission ----------------------------------------------------- */

struct as_nobody {
	pid_t root_target;
	int want_dumpable;
};

/* As nobody: attach root's process (refused) and our own. */
static int nobody_attaches(void *arg)
{
	struct as_nobody *a = arg;
	struct target t;
	struct csf_snap s;
	struct stat st;
	int err;

	err = csf_attach(a->root_target, 0);
	if (err != -EPERM)
		return 10;
	if (csf_attach(a->root_target, CSF_ATTACH_THREAD) != -EPERM)
		return 11;
	target_start(&t);
	if (!a->want_dumpable && target_do(&t, 'N', NULL).val)
		return 12;
	err = csf_attach(t.pid, CSF_ATTACH_INHERIT);
	if (a->want_dumpable) {
		if (err)
			return 13;
		if (stat(vm_thread_path(t.pid), &st) ||
		    st.st_uid != VM_NOBODY || page_of(t.pid, &s))
			return 14;
	} else if (err != -EPERM) {
		return 15;
	}
	target_stop(&t);
	return 0;
}

static void nobody_rules(const char *when)
{
	struct as_nobody a = { .want_dumpable = 1 };
	struct target t;
	int rc;

	target_start(&t);
	a.root_target = t.pid;
	rc = vm_as_nobody(nobody_attaches, &a);
	ck_assert_msg(rc == 0, "%s: nobody's attach rules: check %d failed",
		      when, rc);
	a.want_dumpable = 0;
	rc = vm_as_nobody(nobody_attaches, &a);
	ck_assert_msg(rc == 0, "%s: nobody's own undumpable process: "
		      "check %d failed", when, rc);
	/* Root may attach anything, nobody's undumpable process too. */
	attach_ok(t.pid, 0);
	page_ok(t.pid);
	target_stop(&t);
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Yama restricts what ptrace may attach to (PTRACE_MODE_ATTACH), not what
 * /proc shows (PTRACE_MODE_READ): the rules do not change with its scope.
 * 3 cannot be undone until reboot: not tried.
 */
START_TEST(permission_rules)
{
	static const char yama[] = "/proc/sys/kernel/yama/ptrace_scope";
	int scope = read_int(yama);
	char v[16];

	if (scope < 0) {
		vm_note("no Yama in this kernel");
		nobody_rules("no Yama");
		return;
	}
	vm_note("Yama ptrace_scope is %d at boot", scope);
	for (int s = 0; s <= 2; s++) {
		snprintf(v, sizeof(v), "%d", s);
		ck_assert_int_eq(vm_write_file(yama, v), 0);
		nobody_rules(s == 0 ? "ptrace_scope 0" :
			     s == 1 ? "ptrace_scope 1" : "ptrace_scope 2");
	}
	snprintf(v, sizeof(v), "%d", scope);
	ck_assert_int_eq(vm_write_file(yama, v), 0);
}
END_TEST

/*
 * The opener's credentials decide, not the writer's: a file root opened
 * with the fsuid of nobody cannot attach root's process.
 */
START_TEST(opener_credentials_decide)
{
	struct target t;
	char req[16];
	int fd;

	target_start(&t);
	/*
	 * Opened with euid (so fsuid and the effective capabilities) of
	 * nobody, written as root again.
	 */
	ck_assert_int_eq(syscall(SYS_setresgid, -1, VM_NOBODY, -1), 0);
	ck_assert_int_eq(syscall(SYS_setresuid, -1, VM_NOBODY, -1), 0);
	fd = open(vm_path("attach"), O_WRONLY);
	ck_assert_int_eq(syscall(SYS_setresuid, -1, 0, -1), 0);
	ck_assert_int_eq(syscall(SYS_setresgid, -1, 0, -1), 0);
	ck_assert_int_ge(fd, 0);
	snprintf(req, sizeof(req), "%d", t.pid);
	ck_assert_int_eq(write_attach(fd, req), -EPERM);
	close(fd);
	fd = open(vm_path("attach"), O_WRONLY);
	ck_assert_int_eq(write_attach(fd, req), 0);
	close(fd);
	page_ok(t.pid);
	target_stop(&t);
}
END_TEST

/* As nobody: an inheriting tree that execs a setuid-root program. */
static int nobody_setuid_exec(void *arg)
{
	struct target t;
	struct stat st;
	struct reply r;
	pid_t tids[64];
	int n, i, fd;

	(void)arg;
	target_start(&t);
	if (csf_attach(t.pid, CSF_ATTACH_INHERIT))
		return 20;
	r = target_do(&t, 'U', NULL);
	if (r.val <= 0)
		return 21;
	/* registered at its fork, and still after the exec */
	n = csf_threads_list(tids, 64);
	for (i = 0; i < n && i < 64 && tids[i] != r.val; i++)
		;
	if (i == n || i == 64)
		return 22;
	/* root's now, and not readable by the user who started it */
	if (stat(vm_thread_path(r.val), &st) || st.st_uid != 0)
		return 23;
	fd = open(vm_thread_path(r.val), O_RDONLY);
	if (fd >= 0 || errno != EACCES)
		return 24;
	target_stop(&t);
	return 0;
}

START_TEST(setuid_exec_in_inheriting_tree)
{
	char self[PATH_MAX];
	ssize_t n;
	int in, out, rc;
	char buf[65536];

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	in = open(self, O_RDONLY);
	out = open("/tmp/csf_suid", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ck_assert_int_ge(in, 0);
	ck_assert_int_ge(out, 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ck_assert_int_eq(write(out, buf, (size_t)n), n);
	close(in);
	close(out);
	ck_assert_int_eq(chmod("/tmp/csf_suid", 04755), 0);
	rc = vm_as_nobody(nobody_setuid_exec, NULL);
	unlink("/tmp/csf_suid");
	ck_assert_msg(rc == 0, "setuid exec: check %d failed", rc);
}
END_TEST

int main(int argc, char **argv)
{
	const TTest *const tests[] = {
		attach_file_rules,
		attach_sleeping_process,
		attach_one_thread,
		attach_spinner,
		inherit_registers_at_creation,
		exec_keeps_registration,
		inherit_fork_exit_loop,
		tree_sums_exited_members,
		tree_wall_never_goes_back,
		inherit_fork_bomb_bounded,
		permission_rules,
		opener_credentials_decide,
		setuid_exec_in_inheriting_tree,
		NULL
	};

	if (argc == 4 && !strcmp(argv[1], "--target")) {
		int ack = atoi(argv[3]);

		setup();
		send_reply(ack, getpid(), 0);
		target_loop(atoi(argv[2]), ack, argv[0]);
	}
	if (argc == 3 && !strcmp(argv[1], "--waits")) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		child_waits(atoi(argv[2]));
	}
	setup();
	return vm_run_tests("attach", tests);
}
