// SPDX-License-Identifier: MIT
/*
 * Without the filesystem every entry point answers -ENOENT, and
 * csf_strerror() names the directory and the two commands that fix it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_root.h"
#include "unit.h"

#define MISSING "/nonexistent/coarse_stat_fs"

START_TEST(missing_root_is_enoent_everywhere)
{
	struct csf_thread_map *m;
	struct csf_cpu_snap cs;
	struct csf_snap s;
	uint64_t gen;
	pid_t tids[4];

	setenv("CSF_ROOT", MISSING, 1);
	ck_assert_int_eq(csf_thread_snap(&s), -ENOENT);
	ck_assert_int_eq(csf_clock(), -ENOENT);
	ck_assert_int_eq(csf_cpu_count(), -ENOENT);
	ck_assert_int_eq(csf_cpu_snap(&cs, 1), -ENOENT);
	ck_assert_int_eq(csf_generation(&gen), -ENOENT);
	ck_assert_int_eq(csf_threads_list(tids, 4), -ENOENT);
	ck_assert_int_eq(csf_thread_map(1, &m), -ENOENT);
}
END_TEST

START_TEST(enoent_message_names_root_and_fix)
{
	const char *msg;

	setenv("CSF_ROOT", MISSING, 1);
	msg = csf_strerror(-ENOENT);
	ck_assert_ptr_nonnull(strstr(msg, "not mounted at " MISSING));
	ck_assert_ptr_nonnull(strstr(msg, "modprobe coarse_stat_fs"));
	ck_assert_ptr_nonnull(
		strstr(msg, "mount -t coarse_stat_fs none " MISSING));
	ck_assert_ptr_nonnull(strstr(msg, "CSF_ROOT"));
}
END_TEST

START_TEST(missing_thread_self_is_enoent)
{
	const char *root = fake_root_default();
	struct csf_snap s;
	char path[4200];

	snprintf(path, sizeof(path), "%s/thread-self", root);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(csf_thread_snap(&s), -ENOENT);
	/* the filesystem is there: the message is about the thread */
	ck_assert_ptr_nonnull(strstr(csf_strerror(-ENOENT), "no such thread"));
}
END_TEST

START_TEST(root_defaults_and_is_read_once)
{
	unsetenv("CSF_ROOT");
	ck_assert_str_eq(csf_root(), CSF_DEFAULT_ROOT);
	setenv("CSF_ROOT", "/elsewhere", 1);
	ck_assert_str_eq(csf_root(), CSF_DEFAULT_ROOT);
}
END_TEST

START_TEST(root_from_environment)
{
	setenv("CSF_ROOT", "/elsewhere", 1);
	ck_assert_str_eq(csf_root(), "/elsewhere");
}
END_TEST

START_TEST(failure_is_not_sticky)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;
	struct csf_thread_page p;
	struct csf_snap s;

	/* module loaded after the first try */
	ck_assert_int_eq(csf_thread_snap(&s), -ENOENT);
	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	fake_write_cpu(root, &h, NULL);
	fake_thread_page(&p, 5);
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_snap(&s), 0);
}
END_TEST

START_TEST(strerror_is_never_null)
{
	int e;

	for (e = 0; e < 200; e++)
		ck_assert_ptr_nonnull(csf_strerror(-e));
	ck_assert_ptr_nonnull(csf_strerror(12345));
	ck_assert_str_eq(csf_strerror(-ENOMEM), strerror(ENOMEM));
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		missing_root_is_enoent_everywhere,
		enoent_message_names_root_and_fix,
		missing_thread_self_is_enoent,
		root_defaults_and_is_read_once,
		root_from_environment,
		failure_is_not_sticky,
		strerror_is_never_null,
		NULL,
	};

	return unit_run_tests("not_mounted", tests);
}
