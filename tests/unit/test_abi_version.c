// SPDX-License-Identifier: MIT
/*
 * The library reads ABI major 1 of any minor and refuses anything else
 * with -EPROTO and a message that says so.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "fake_root.h"
#include "unit.h"

START_TEST(cpu_bad_magic_is_eproto)
{
	const char *root = fake_root_default();
	struct csf_cpu_header h;
	struct csf_snap s;

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	h.magic = CSF_THREAD_MAGIC;
	fake_write_cpu(root, &h, NULL);
	ck_assert_int_eq(csf_thread_snap(&s), -EPROTO);
	ck_assert_int_eq(csf_cpu_count(), -EPROTO);
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EPROTO), "magic"));
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EPROTO), root));
}
END_TEST

START_TEST(cpu_other_major_is_eproto)
{
	const char *root = fake_root_default();
	struct csf_cpu_header h;

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	h.abi_major = CSF_ABI_MAJOR + 1;
	fake_write_cpu(root, &h, NULL);
	ck_assert_int_eq(csf_clock(), -EPROTO);
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EPROTO), "ABI 2"));
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EPROTO), "ABI 1"));
}
END_TEST

START_TEST(thread_bad_magic_is_eproto)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_snap s;

	fake_thread_page(&p, 1);
	p.magic = CSF_CPU_MAGIC;
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_snap(&s), -EPROTO);
}
END_TEST

START_TEST(thread_other_major_is_eproto)
{
	const char *root = fake_root_default();
	struct csf_thread_page p;
	struct csf_snap s;

	fake_thread_page(&p, 1);
	p.abi_major = 0;
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_snap(&s), -EPROTO);
	/* a refused page is not kept: the next call tries again */
	fake_thread_page(&p, 1);
	fake_write_thread(root, "thread-self", &p);
	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.tid, 1);
}
END_TEST

START_TEST(any_minor_is_accepted)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;
	struct csf_thread_page p;
	struct csf_snap s;

	fake_cpu_header(&h, 3, CSF_CLOCK_MONO);
	h.abi_minor = 9;
	h.header_size += 64;
	h.record_size += 40;
	fake_write_cpu(root, &h, NULL);
	fake_thread_page(&p, 77);
	p.abi_minor = 9;
	p.reserved[0] = 0xdeadbeef;
	fake_write_thread(root, "thread-self", &p);

	ck_assert_int_eq(csf_thread_snap(&s), 0);
	ck_assert_uint_eq(s.tid, 77);
	ck_assert_int_eq(csf_cpu_count(), 3);
}
END_TEST

START_TEST(header_smaller_than_v1_is_eproto)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	h.record_size = sizeof(struct csf_cpu_record) - 8;
	fake_write_cpu(root, &h, NULL);
	ck_assert_int_eq(csf_cpu_count(), -EPROTO);
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EPROTO), "malformed"));
}
END_TEST

START_TEST(unknown_clock_is_eproto)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;

	fake_cpu_header(&h, 2, 7);
	fake_write_cpu(root, &h, NULL);
	ck_assert_int_eq(csf_clock(), -EPROTO);
}
END_TEST

/* The monitor path refuses another major too, and says which. */
START_TEST(monitor_other_major_is_eproto)
{
	const char *root = fake_root_default();
	struct csf_thread_map *map = NULL;
	struct csf_thread_page p;

	fake_thread_page(&p, 4242);
	p.abi_major = CSF_ABI_MAJOR + 1;
	fake_write_thread(root, "threads/4242", &p);
	ck_assert_int_eq(csf_thread_map(4242, &map), -EPROTO);
	ck_assert_ptr_null(map);
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EPROTO), "ABI 2"));
	ck_assert_ptr_nonnull(strstr(csf_strerror(-EPROTO), "same major"));
}
END_TEST

/*
 * A newer minor of the same major: fields added in reserved space are
 * ignored, the known ones read as before, by the thread itself and by a
 * monitor.
 */
START_TEST(newer_minor_reads_known_fields)
{
	const char *root = fake_root_default();
	struct csf_thread_map *map = NULL;
	struct csf_thread_page p;
	struct csf_snap s;

	fake_thread_page(&p, 4243);
	p.abi_minor = CSF_ABI_MINOR + 1;
	p.nvcsw = 7;
	memset(p.reserved, 0x5a, sizeof(p.reserved));
	fake_write_thread(root, "threads/4243", &p);
	ck_assert_int_eq(csf_thread_map(4243, &map), 0);
	ck_assert_int_eq(csf_thread_read(map, &s), 0);
	ck_assert_uint_eq(s.tid, 4243);
	ck_assert_uint_eq(s.nvcsw, 7);
	ck_assert_uint_eq(s.state, CSF_STATE_RUNNING);
	csf_thread_unmap(map);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		cpu_bad_magic_is_eproto,
		cpu_other_major_is_eproto,
		thread_bad_magic_is_eproto,
		thread_other_major_is_eproto,
		any_minor_is_accepted,
		header_smaller_than_v1_is_eproto,
		unknown_clock_is_eproto,
		monitor_other_major_is_eproto,
		newer_minor_reads_known_fields,
		NULL,
	};

	return unit_run_tests("abi_version", tests);
}
