// SPDX-License-Identifier: MIT
/*
 * test_thread_exit - registration lifetime: pages outlive their threads for
 * whoever maps them, threads/<tid> goes away, the generation counter moves,
 * memory returns after churn, fork children register themselves, and the
 * registration cap answers ENOSPC.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

static void snap_ok(struct csf_snap *s)
{
	int err = csf_thread_snap(s);

	ck_assert_msg(err == 0, "csf_thread_snap: %s", csf_strerror(err));
}

/*
 * pthread_join() returns once the kernel clears the thread's tid in
 * exit_mm(), a little before do_exit() fires sched_process_exit: exit
 * effects are waited for, not assumed at join.
 */
static int read_until_exited(struct csf_thread_map *m, struct csf_snap *s)
{
	int waited;

	for (waited = 0; waited < 2000; waited += 5) {
		if (csf_thread_read(m, s))
			return 0;
		if (s->state == CSF_STATE_EXITED)
			return 1;
		vm_sleep_ms(5);
	}
	return 0;
}

static int listed(pid_t tid)
{
	pid_t tids[4096];
	int i, n = csf_threads_list(tids, 4096);

	ck_assert_int_ge(n, 0);
	for (i = 0; i < n && i < 4096; i++)
		if (tids[i] == tid)
			return 1;
	return 0;
}

struct parked {
	pthread_barrier_t registered, release;
	pid_t tid;
	int err;
};

static void *park(void *arg)
{
	struct parked *p = arg;
	struct csf_snap s;

	p->err = csf_thread_snap(&s);
	p->tid = gettid();
	pthread_barrier_wait(&p->registered);
	pthread_barrier_wait(&p->release);
	return NULL;
}

START_TEST(exited_page_stays_readable)
{
	struct csf_thread_map *m;
	struct csf_snap s1, s2;
	struct parked p;
	uint64_t gen0, gen1, gen2;
	pthread_t t;

	memset(&p, 0, sizeof(p));
	pthread_barrier_init(&p.registered, NULL, 2);
	pthread_barrier_init(&p.release, NULL, 2);
	ck_assert_int_eq(csf_generation(&gen0), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, park, &p), 0);
	pthread_barrier_wait(&p.registered);
	ck_assert_msg(!p.err, "%s", csf_strerror(p.err));
	ck_assert_int_eq(csf_generation(&gen1), 0);
	ck_assert_uint_ne(gen1, gen0);
	ck_assert(listed(p.tid));

	ck_assert_int_eq(csf_thread_map(p.tid, &m), 0);
	ck_assert_int_eq(csf_thread_read(m, &s1), 0);
	ck_assert_uint_eq(s1.tid, (uint32_t)p.tid);
	ck_assert_uint_ne(s1.state, CSF_STATE_EXITED);

	pthread_barrier_wait(&p.release);
	pthread_join(t, NULL);
	ck_assert_msg(read_until_exited(m, &s1), "page never read exited");
	ck_assert_int_eq(csf_generation(&gen2), 0);
	ck_assert_uint_ne(gen2, gen1);
	vm_sleep_ms(50);
	ck_assert_int_eq(csf_thread_read(m, &s2), 0);
	ck_assert_mem_eq(s1.time, s2.time, sizeof(s1.time));
	ck_assert_uint_eq(s1.nvcsw + s1.nivcsw, s2.nvcsw + s2.nivcsw);
	csf_thread_unmap(m);

	ck_assert(!listed(p.tid));
	ck_assert_int_eq(csf_thread_map(p.tid, &m), -ENOENT);
}
END_TEST

static void *register_and_go(void *arg)
{
	struct csf_snap s;
	int *err = arg;

	*err = csf_thread_snap(&s);
	vm_sleep_ms(1);
	if (!*err)
		*err = csf_thread_snap(&s);
	return NULL;
}

/* Map every listed page over and over until killed. */
static void monitor_loop(void)
{
	for (;;) {
		pid_t tids[512];
		int i, n = csf_threads_list(tids, 512);

		for (i = 0; i < n && i < 512; i++) {
			struct csf_thread_map *m;
			struct csf_snap s;

			if (csf_thread_map(tids[i], &m))
				continue;
			if (csf_thread_read(m, &s) || s.tid != (uint32_t)tids[i])
				_exit(3);
			csf_thread_unmap(m);
		}
	}
}

static uint64_t hdr_field(const struct vm_cpu_page *c, int allocated)
{
	return __atomic_load_n(allocated ? &c->hdr->nr_allocated :
					   &c->hdr->nr_threads,
			       __ATOMIC_RELAXED);
}

/*
 * Threads register and exit in bursts while another process maps their
 * pages: no oops (the host checks dmesg), and the module's page count
 * returns to where it started once the exited tasks are freed.
 */
START_TEST(churn_returns_memory)
{
	enum { ROUNDS = 8, THREADS = 32 };
	struct vm_cpu_page c;
	uint64_t threads0, alloc0;
	int round, i, status, waited;
	pid_t monitor;

	vm_cpu_map(&c);
	threads0 = hdr_field(&c, 0);
	alloc0 = hdr_field(&c, 1);
	monitor = fork();
	ck_assert_int_ge(monitor, 0);
	if (monitor == 0)
		monitor_loop();

	for (round = 0; round < ROUNDS; round++) {
		pthread_t t[THREADS];
		int err[THREADS];

		for (i = 0; i < THREADS; i++)
			ck_assert_int_eq(pthread_create(&t[i], NULL,
							register_and_go,
							&err[i]), 0);
		for (i = 0; i < THREADS; i++) {
			pthread_join(t[i], NULL);
			ck_assert_msg(!err[i], "%s", csf_strerror(err[i]));
		}
	}
	kill(monitor, SIGKILL);
	ck_assert_int_eq(waitpid(monitor, &status, 0), monitor);
	ck_assert_msg(WIFSIGNALED(status), "monitor saw a bad page (exit %d)",
		      WEXITSTATUS(status));

	/*
	 * Exits are recorded a moment after join returns; pages are freed
	 * at sched_process_free, an RCU grace period after reaping.
	 */
	for (waited = 0; (hdr_field(&c, 0) != threads0 ||
			  hdr_field(&c, 1) != alloc0) && waited < 5000;
	     waited += 10)
		vm_sleep_ms(10);
	ck_assert_uint_eq(hdr_field(&c, 0), threads0);
	vm_note("pages held: %llu before, %llu after %d ms",
		(unsigned long long)alloc0,
		(unsigned long long)hdr_field(&c, 1), waited);
	ck_assert_uint_eq(hdr_field(&c, 1), alloc0);
	vm_cpu_unmap(&c);
}
END_TEST

/* The parent's page is not inherited (VM_DONTCOPY): the child registers. */
static int count_self_mappings(void)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "/thread-self") || strstr(line, "/threads/"))
			n++;
	fclose(f);
	return n;
}

START_TEST(fork_child_registers_itself)
{
	struct csf_snap parent, after;
	int status;
	pid_t pid;

	snap_ok(&parent);
	ck_assert_int_eq(count_self_mappings(), 1);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct csf_snap child;

		if (count_self_mappings() != 0)
			_exit(2);
		if (csf_thread_snap(&child))
			_exit(3);
		if (child.tid != (uint32_t)getpid() || child.tid == parent.tid)
			_exit(4);
		if (count_self_mappings() != 1)
			_exit(5);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child check %d failed", WEXITSTATUS(status));
	snap_ok(&after);
	ck_assert_uint_eq(after.tid, parent.tid);
}
END_TEST

struct capped {
	pthread_barrier_t *done;
	int err;
};

static void *register_and_wait(void *arg)
{
	struct capped *c = arg;
	struct csf_snap s;

	c->err = csf_thread_snap(&s);
	pthread_barrier_wait(c->done);
	return NULL;
}

/* Past max_threads, registration fails with ENOSPC and says why. */
START_TEST(cap_gives_enospc)
{
	struct vm_cpu_page c;
	pthread_barrier_t done;
	struct capped *cs;
	pthread_t *t;
	int i, n, ok = 0, full = 0;

	vm_cpu_map(&c);
	ck_assert_msg(c.hdr->max_threads <= 1024,
		      "load the module with max_threads <= 1024 for this test (is %u)",
		      c.hdr->max_threads);
	/* Pages of threads exited in earlier tests must be gone first. */
	for (i = 0; hdr_field(&c, 1) != hdr_field(&c, 0) && i < 500; i++)
		vm_sleep_ms(10);
	ck_assert_uint_eq(hdr_field(&c, 1), hdr_field(&c, 0));
	n = c.hdr->max_threads - hdr_field(&c, 1) + 1;
	cs = calloc(n, sizeof(*cs));
	t = calloc(n, sizeof(*t));
	pthread_barrier_init(&done, NULL, n + 1);
	for (i = 0; i < n; i++) {
		cs[i].done = &done;
		ck_assert_int_eq(pthread_create(&t[i], NULL, register_and_wait,
						&cs[i]), 0);
	}
	pthread_barrier_wait(&done);
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		if (!cs[i].err)
			ok++;
		else if (cs[i].err == -ENOSPC)
			full++;
		else
			ck_abort_msg("unexpected %s", csf_strerror(cs[i].err));
	}
	ck_assert_int_eq(ok, n - 1);
	ck_assert_int_eq(full, 1);
	ck_assert_ptr_nonnull(strstr(csf_strerror(-ENOSPC), "max_threads"));
	free(cs);
	free(t);
	vm_cpu_unmap(&c);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		exited_page_stays_readable,
		churn_returns_memory,
		fork_child_registers_itself,
		cap_gives_enospc,
		NULL,
	};

	return vm_run_tests("thread_exit", tests);
}
