// SPDX-License-Identifier: MIT
/*
 * The monitor API: list registered threads (numeric names only, sorted,
 * growth protocol), map and read another thread's page, the errors of a
 * missing or foreign page, and the module's counters; a monitor session
 * over them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_root.h"
#include "unit.h"

static void add_thread(const char *root, uint32_t tid)
{
	struct csf_thread_page p;
	char name[64];

	fake_thread_page(&p, tid);
	snprintf(name, sizeof(name), "threads/%u", tid);
	fake_write_thread(root, name, &p);
}

static void touch(const char *root, const char *name)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

START_TEST(list_is_sorted_and_numeric_only)
{
	const char *root = fake_root_default();
	pid_t t[16];

	add_thread(root, 300);
	add_thread(root, 7);
	add_thread(root, 45);
	add_thread(root, 1000000);
	touch(root, "threads/abc");
	touch(root, "threads/12a");
	touch(root, "threads/-5");
	touch(root, "threads/007");
	touch(root, "threads/99999999999999999999");

	ck_assert_int_eq(csf_threads_list(t, 16), 4);
	ck_assert_int_eq(t[0], 7);
	ck_assert_int_eq(t[1], 45);
	ck_assert_int_eq(t[2], 300);
	ck_assert_int_eq(t[3], 1000000);
}
END_TEST

START_TEST(list_growth_protocol)
{
	const char *root = fake_root_default();
	pid_t t[3] = { -1, -1, -1 };
	uint32_t i;
	int n;

	for (i = 1; i <= 600; i++)
		add_thread(root, 1000 - i);
	/* too small: the count, and the smallest tids */
	n = csf_threads_list(t, 2);
	ck_assert_int_eq(n, 600);
	ck_assert_int_eq(t[0], 400);
	ck_assert_int_eq(t[1], 401);
	ck_assert_int_eq(t[2], -1);
	ck_assert_int_eq(csf_threads_list(NULL, 0), 600);
}
END_TEST

START_TEST(list_empty)
{
	pid_t t[1];

	fake_root_default();
	ck_assert_int_eq(csf_threads_list(t, 1), 0);
}
END_TEST

START_TEST(map_and_read_another_thread)
{
	const char *root = fake_root_default();
	struct csf_thread_map *m = NULL;
	struct csf_thread_page p;
	struct csf_snap s;

	fake_thread_page(&p, 4321);
	p.state = CSF_STATE_EXITED;
	p.time[CSF_STATE_IOWAIT] = 99;
	p.wakeups = 3;
	fake_write_thread(root, "threads/4321", &p);

	ck_assert_int_eq(csf_thread_map(4321, &m), 0);
	ck_assert_ptr_nonnull(m);
	/* a hint: it changes nothing a read sees, and NULL is no error */
	csf_thread_prefetch(m);
	csf_thread_prefetch(NULL);
	ck_assert_int_eq(csf_thread_read(m, &s), 0);
	ck_assert_uint_eq(s.tid, 4321);
	ck_assert_uint_eq(s.state, CSF_STATE_EXITED);
	ck_assert_uint_eq(s.time[CSF_STATE_IOWAIT], 99);
	ck_assert_uint_eq(s.wakeups, 3);
	csf_thread_unmap(m);
	csf_thread_unmap(NULL);
}
END_TEST

START_TEST(map_missing_is_enoent)
{
	struct csf_thread_map *m = NULL;

	fake_root_default();
	ck_assert_int_eq(csf_thread_map(12345, &m), -ENOENT);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(csf_thread_map(0, &m), -EINVAL);
	ck_assert_int_eq(csf_thread_map(-1, &m), -EINVAL);
}
END_TEST

START_TEST(map_foreign_is_eacces)
{
	const char *root = fake_root_default();
	struct csf_thread_map *m = NULL;
	char path[4200];

	add_thread(root, 555);
	snprintf(path, sizeof(path), "%s/threads/555", root);
	ck_assert_int_eq(chmod(path, 0), 0);
	/* root reads anything: become nobody (this process only) */
	if (geteuid() == 0 && setuid(65534) != 0) {
		fprintf(stderr, "map_foreign_is_eacces: skipped, cannot "
			"setuid(65534): %s\n", strerror(errno));
		return;
	}
	ck_assert_int_eq(csf_thread_map(555, &m), -EACCES);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EACCES), "permission"));
}
END_TEST

START_TEST(map_bad_magic_is_eproto)
{
	const char *root = fake_root_default();
	struct csf_thread_map *m = NULL;
	struct csf_thread_page p;

	fake_thread_page(&p, 8);
	p.magic = 0;
	fake_write_thread(root, "threads/8", &p);
	ck_assert_int_eq(csf_thread_map(8, &m), -EPROTO);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(module_stats_are_the_header_counters)
{
	const char *root = fake_root_new();
	struct csf_module_stats st;
	struct csf_cpu_header h;

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	h.nr_threads = 7;
	h.nr_allocated = 9;
	h.generation = 42;
	h.max_threads = 8192;
	h.stat_period_ns = 10000000;
	h.nr_missed = 3;
	fake_write_cpu(root, &h, NULL);
	memset(&st, 0xa5, sizeof(st));
	ck_assert_int_eq(csf_module_stats(&st), 0);
	ck_assert_uint_eq(st.nr_threads, 7);
	ck_assert_uint_eq(st.nr_allocated, 9);
	ck_assert_uint_eq(st.generation, 42);
	ck_assert_uint_eq(st.max_threads, 8192);
	ck_assert_uint_eq(st.stat_period_ns, 10000000);
	ck_assert_uint_eq(st.nr_missed, 3);
	ck_assert_int_eq(csf_module_stats(NULL), -EINVAL);
}
END_TEST

START_TEST(module_stats_unmounted_is_enoent)
{
	struct csf_module_stats st;

	setenv("CSF_ROOT", "/nonexistent/coarse_stat_fs", 1);
	ck_assert_int_eq(csf_module_stats(&st), -ENOENT);
}
END_TEST

/* A fresh, empty attach file in @root, open. */
static int attach_file(const char *root)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/attach", root);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	return fd;
}

/* The attach file @fd holds @want and nothing else; closed. */
static void attach_written(int fd, const char *want)
{
	char got[64];
	ssize_t n = pread(fd, got, sizeof(got) - 1, 0);

	close(fd);
	ck_assert_int_ge(n, 0);
	got[n] = '\0';
	ck_assert_str_eq(got, want);
}

/* What csf_attach() writes: one request per call, as the module parses. */
static void attach_request(const char *root, unsigned int flags,
			   const char *want)
{
	int fd = attach_file(root);

	ck_assert_int_eq(csf_attach(4242, flags), 0);
	attach_written(fd, want);
}

START_TEST(attach_writes_one_request)
{
	const char *root = fake_root_new();

	attach_request(root, 0, "4242\n");
	attach_request(root, CSF_ATTACH_THREAD, "4242 thread\n");
	attach_request(root, CSF_ATTACH_INHERIT, "4242 inherit\n");
	attach_request(root, CSF_ATTACH_THREAD | CSF_ATTACH_INHERIT,
		       "4242 thread inherit\n");
}
END_TEST

START_TEST(attach_all_writes_all)
{
	int fd = attach_file(fake_root_new());

	ck_assert_int_eq(csf_attach_all(), 0);
	attach_written(fd, "all\n");
}
END_TEST

START_TEST(attach_refuses_bad_arguments)
{
	fake_root_new();
	ck_assert_int_eq(csf_attach(0, 0), -EINVAL);
	ck_assert_int_eq(csf_attach(-2, 0), -EINVAL);
	ck_assert_int_eq(csf_attach(1, 4), -EINVAL);
}
END_TEST

START_TEST(attach_without_the_file)
{
	struct csf_cpu_header h;
	const char *root = fake_root_new();

	/* a module before ABI 1.2: the pages, no attach file */
	fake_cpu_header(&h, 1, CSF_CLOCK_MONO);
	fake_write_cpu(root, &h, NULL);
	ck_assert_int_eq(csf_attach(1, 0), -EOPNOTSUPP);
	ck_assert_int_eq(csf_attach_all(), -EOPNOTSUPP);
}
END_TEST

START_TEST(attach_unmounted_is_enoent)
{
	setenv("CSF_ROOT", "/nonexistent/coarse_stat_fs", 1);
	ck_assert_int_eq(csf_attach(1, 0), -ENOENT);
	ck_assert_int_eq(csf_attach_all(), -ENOENT);
}
END_TEST

/* The module's generation moves on, in place, as the module's does. */
static void bump_generation(const char *root)
{
	struct csf_cpu_header h;
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/cpu", root);
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
	h.generation++;
	ck_assert_int_eq(pwrite(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
	close(fd);
}

static void add_tree_thread(const char *root, uint32_t tid, uint32_t tree)
{
	struct csf_thread_page p;
	char name[64];

	fake_thread_page(&p, tid);
	p.tree_root = tree;
	snprintf(name, sizeof(name), "threads/%u", tid);
	fake_write_thread(root, name, &p);
}

START_TEST(session_samples_threads_in_order_and_cpus)
{
	const char *root = fake_root_default();
	struct csf_session *s = NULL;
	struct csf_sample smp;

	add_thread(root, 300);
	add_thread(root, 7);
	ck_assert_int_eq(csf_session_open(&s), 0);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 2);
	ck_assert_uint_eq(smp.threads[0].tid, 7);
	ck_assert_uint_eq(smp.threads[1].tid, 300);
	ck_assert_uint_eq(smp.ncpus, 2);
	ck_assert_uint_eq(smp.denied, 0);
	/* histograms read at first, then only when an interval closed */
	ck_assert_ptr_nonnull(smp.hists[0]);
	ck_assert_ptr_eq(smp.lasts[0], smp.hists[0]);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_ptr_null(smp.hists[0]);
	ck_assert_ptr_nonnull(smp.lasts[0]);
	ck_assert_uint_eq(smp.lasts[1]->tid, 300);
	csf_session_hists(s, 0);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_ptr_null(smp.hists[1]);
	ck_assert_ptr_null(smp.lasts[1]);
	csf_session_close(s);
	csf_session_close(NULL);
}
END_TEST

START_TEST(session_lists_again_on_generation_change)
{
	const char *root = fake_root_default();
	struct csf_session *s = NULL;
	struct csf_thread_page p;
	struct csf_sample smp;
	char path[4200];

	add_thread(root, 7);
	ck_assert_int_eq(csf_session_open(&s), 0);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 1);
	/* a thread registered: listed at the next generation only */
	add_thread(root, 8);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 1);
	bump_generation(root);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 2);
	/* it exits: its final page once more, then it is gone */
	fake_thread_page(&p, 8);
	p.state = CSF_STATE_EXITED;
	p.time[CSF_STATE_SLEEPING] = 55;
	fake_update_thread(root, "threads/8", &p);
	snprintf(path, sizeof(path), "%s/threads/8", root);
	ck_assert_int_eq(unlink(path), 0);
	bump_generation(root);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 2);
	ck_assert_uint_eq(smp.threads[1].tid, 8);
	ck_assert_uint_eq(smp.threads[1].state, CSF_STATE_EXITED);
	ck_assert_uint_eq(smp.threads[1].time[CSF_STATE_SLEEPING], 55);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 1);
	ck_assert_uint_eq(smp.threads[0].tid, 7);
	csf_session_close(s);
}
END_TEST

START_TEST(session_tree_limits_the_threads)
{
	const char *root = fake_root_default();
	struct csf_session *s = NULL;
	struct csf_sample smp;

	add_tree_thread(root, 7, 0);
	add_tree_thread(root, 8, 8);
	add_tree_thread(root, 9, 8);
	ck_assert_int_eq(csf_session_open(&s), 0);
	csf_session_tree(s, 8);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 2);
	ck_assert_uint_eq(smp.threads[0].tid, 8);
	ck_assert_uint_eq(smp.threads[1].tid, 9);
	csf_session_tree(s, 0);
	ck_assert_int_eq(csf_session_read(s, &smp), 0);
	ck_assert_uint_eq(smp.nthreads, 3);
	csf_session_close(s);
}
END_TEST

START_TEST(session_unmounted_is_enoent)
{
	struct csf_session *s = (struct csf_session *)&s;

	setenv("CSF_ROOT", "/nonexistent/coarse_stat_fs", 1);
	ck_assert_int_eq(csf_session_open(&s), -ENOENT);
	ck_assert_ptr_null(s);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		list_is_sorted_and_numeric_only,
		list_growth_protocol,
		list_empty,
		map_and_read_another_thread,
		map_missing_is_enoent,
		map_foreign_is_eacces,
		map_bad_magic_is_eproto,
		module_stats_are_the_header_counters,
		module_stats_unmounted_is_enoent,
		attach_writes_one_request,
		attach_all_writes_all,
		attach_refuses_bad_arguments,
		attach_without_the_file,
		attach_unmounted_is_enoent,
		session_samples_threads_in_order_and_cpus,
		session_lists_again_on_generation_change,
		session_tree_limits_the_threads,
		session_unmounted_is_enoent,
		NULL,
	};

	return unit_run_tests("monitor", tests);
}
