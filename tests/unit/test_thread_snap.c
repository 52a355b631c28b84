// SPDX-License-Identifier: MIT
/*
 * csf_thread_snap(): registration once per thread, the live page, the open
 * interval extrapolated to "now", unmapping at thread exit and
 * re-registration in a fork child.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_root.h"
#include "unit.h"

START_TEST(copies_the_page)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;
	struct csf_thread_page p;
	struct csf_snap s;

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	fake_write_cpu(root, &h, NULL);
	fake_thread_page(&p, 321);
	p.tgid = 300;
	p.state = CSF_STATE_EXITED;
	p.state_since = 1000;
	p.registered_at = 10;
	p.time[0] = 1;
	p.time[1] = 2;
	p.time[2] = 3;
	p.time[3] = 4;
	p.time[4] = 5;
	p.nvcsw = 6;
	p.nivcsw = 7;
	p.wakeups = 8;
	p.migrations = 9;
	p.cpu = 3;
	memcpy(p.comm, "0123456789abcdef", 16);	/* no NUL from the page */
	fake_write_thread(root, "thread-self", &p);

	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.tid, 321);
	ck_assert_uint_eq(s.tgid, 300);
	ck_assert_uint_eq(s.state, CSF_STATE_EXITED);
	ck_assert_uint_eq(s.state_since, 1000);
	ck_assert_uint_eq(s.registered_at, 10);
	ck_assert_uint_eq(s.time[0], 1);
	ck_assert_uint_eq(s.time[4], 5);
	ck_assert_uint_eq(s.nvcsw, 6);
	ck_assert_uint_eq(s.nivcsw, 7);
	ck_assert_uint_eq(s.wakeups, 8);
	ck_assert_uint_eq(s.migrations, 9);
	ck_assert_uint_eq(s.cpu, 3);
	ck_assert_str_eq(s.comm, "0123456789abcde");
}
END_TEST

START_TEST(open_interval_is_extrapolated)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_snap s;
	uint64_t since;

	fake_thread_page(&p, 1);
	since = fake_mono_ns() - 1000000000u;
	p.state = CSF_STATE_RUNNABLE;
	p.state_since = since;
	p.time[CSF_STATE_RUNNING] = 100;
	p.time[CSF_STATE_RUNNABLE] = 5;
	fake_write_thread(root, "thread-self", &p);

	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_ge(s.now, since + 1000000000u);
	ck_assert_uint_eq(s.time[CSF_STATE_RUNNABLE], 5 + (s.now - since));
	ck_assert_uint_eq(s.time[CSF_STATE_RUNNING], 100);
	ck_assert_uint_eq(s.time[CSF_STATE_SLEEPING], 0);
}
END_TEST

START_TEST(exited_is_not_extrapolated)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_snap s;
	unsigned int i;

	fake_thread_page(&p, 1);
	p.state = CSF_STATE_EXITED;
	p.state_since = fake_mono_ns() - 1000000000u;
	for (i = 0; i < CSF_NR_STATES; i++)
		p.time[i] = 10 * (i + 1);
	fake_write_thread(root, "thread-self", &p);

	ck_assert_int_eq(csf_thread_snap(&s), 0);
	for (i = 0; i < CSF_NR_STATES; i++)
		ck_assert_uint_eq(s.time[i], 10 * (i + 1));
}
END_TEST

START_TEST(state_since_in_the_future_adds_nothing)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_snap s;

	/* another CPU's clock a little ahead of ours */
	fake_thread_page(&p, 1);
	p.state = CSF_STATE_SLEEPING;
	p.state_since = fake_mono_ns() + 1000000000u;
	p.time[CSF_STATE_SLEEPING] = 42;
	fake_write_thread(root, "thread-self", &p);

	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.time[CSF_STATE_SLEEPING], 42);
}
END_TEST

START_TEST(registers_once_and_reads_the_live_page)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_snap s;
	char path[4200];
	uint64_t v = 777;
	int fd;

	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.tid, (uint32_t)fake_gettid());

	/* in place, as the kernel updates it: seen */
	snprintf(path, sizeof(path), "%s/thread-self", root);
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, &v, sizeof(v),
				offsetof(struct csf_thread_page, nvcsw)), 8);
	close(fd);
	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.nvcsw, 777);

	/* a new file: not seen, the thread-self is not opened again */
	fake_thread_page(&p, 999);
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.tid, (uint32_t)fake_gettid());
}
END_TEST

static int count_mappings(const char *root)
{
	char line[8192], path[4200];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	snprintf(path, sizeof(path), "%s/thread-self", root);
	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, path) != NULL;
	if (f)
		fclose(f);
	return n;
}

struct exit_arg {
	const char *root;
	int mapped;
	int err;
};

static void *snap_and_exit(void *p)
{
	struct exit_arg *a = p;
	struct csf_snap s;

	a->err = csf_thread_snap(&s);
	a->mapped = count_mappings(a->root);
	return NULL;
}

START_TEST(thread_exit_unmaps_its_page)
{
	struct exit_arg a = { fake_root_default(), 0, 0 };
	pthread_t t;

	ck_assert_int_eq(count_mappings(a.root), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, snap_and_exit, &a), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(a.err, 0);
	ck_assert_int_eq(a.mapped, 1);
	ck_assert_int_eq(count_mappings(a.root), 0);
}
END_TEST

START_TEST(fork_child_registers_again)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_snap s;
	int status;
	pid_t pid;

	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.tid, (uint32_t)fake_gettid());

	/* what thread-self gives the next thread that opens it */
	fake_thread_page(&p, 4242);
	fake_write_thread(root, "thread-self", &p);

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* the parent's page is not mapped here: no stale pointer */
		if (count_mappings(root) != 0)
			_exit(2);
		if (csf_thread_snap(&s) || s.tid != 4242)
			_exit(3);
		if (csf_thread_snap(&s) || s.tid != 4242)
			_exit(4);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child: status 0x%x", status);

	/* the parent keeps its own page */
	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.tid, (uint32_t)fake_gettid());
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		copies_the_page,
		open_interval_is_extrapolated,
		exited_is_not_extrapolated,
		state_since_in_the_future_adds_nothing,
		registers_once_and_reads_the_live_page,
		thread_exit_unmaps_its_page,
		fork_child_registers_again,
		NULL,
	};

	return unit_run_tests("thread_snap", tests);
}
