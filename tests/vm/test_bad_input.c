/* SPDX-License-Identifier: MIT */
/*
 * test_bad_input - misuse of the cpu file gets the documented errno, never
 * a crash (the host fails the run on any WARN/BUG/Oops in dmesg).
 *
 *   open for writing                 EACCES, even for root
 *   write on a read-only fd          EBADF (the VFS)
 *   mmap PROT_WRITE, MAP_SHARED      EACCES (the VFS: fd not writable)
 *   mmap PROT_WRITE, MAP_PRIVATE     EPERM
 *   mmap PROT_EXEC                   EPERM
 *   mprotect(PROT_WRITE or EXEC)     EACCES (VM_MAYWRITE/VM_MAYEXEC cleared)
 *   mmap past the end of the file    EINVAL (length or offset)
 *
 * Run as root and, where the answer could differ, as uid 65534 too.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "vmtest.h"

static long page;

/* errno of a failed call, or 0 when it succeeded. */
#define ERRNO_OF(call) ((call) < 0 ? errno : 0)

static int open_cpu(void)
{
	int fd = open(vm_path("cpu"), O_RDONLY);

	ck_assert_msg(fd >= 0, "open cpu: %s", strerror(errno));
	return fd;
}

static off_t cpu_size(int fd)
{
	struct stat st;

	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_gt(st.st_size, 0);
	return st.st_size;
}

/* errno of an mmap, 0 on success (then unmapped again). */
static int mmap_errno(int fd, size_t len, int prot, int flags, off_t off)
{
	void *m = mmap(NULL, len, prot, flags, fd, off);

	if (m == MAP_FAILED)
		return errno;
	munmap(m, len);
	return 0;
}

#define ck_assert_errno(got, want, what)				\
	ck_assert_msg((got) == (want), "%s: %s, want %s", (what),	\
		      (got) ? strerror(got) : "succeeded", strerror(want))

/* ---- open and write ------------------------------------------------------- */

START_TEST(test_open_for_writing_refused)
{
	ck_assert_errno(ERRNO_OF(open(vm_path("cpu"), O_WRONLY)), EACCES,
			"open(cpu, O_WRONLY) as root");
	ck_assert_errno(ERRNO_OF(open(vm_path("cpu"), O_RDWR)), EACCES,
			"open(cpu, O_RDWR) as root");
	ck_assert_errno(ERRNO_OF(open(vm_path("cpu"), O_WRONLY | O_TRUNC)),
			EACCES, "open(cpu, O_WRONLY|O_TRUNC) as root");
}
END_TEST

static int nobody_opens_for_writing(void *unused)
{
	(void)unused;
	if (open(vm_path("cpu"), O_WRONLY) >= 0 || errno != EACCES)
		return 1;
	if (open(vm_path("cpu"), O_RDWR) >= 0 || errno != EACCES)
		return 2;
	return 0;
}

START_TEST(test_open_for_writing_refused_nobody)
{
	ck_assert_int_eq(vm_as_nobody(nobody_opens_for_writing, NULL), 0);
}
END_TEST

START_TEST(test_write_on_read_only_fd)
{
	int fd = open_cpu();
	char c = 0;

	ck_assert_errno(ERRNO_OF(write(fd, &c, 1)), EBADF, "write");
	ck_assert_errno(ERRNO_OF(pwrite(fd, &c, 1, 0)), EBADF, "pwrite");
	ck_assert_errno(ERRNO_OF(ftruncate(fd, 0)), EINVAL, "ftruncate");
	close(fd);
}
END_TEST

/* truncate(2) needs no open file; it must not shrink the cpu file either. */
START_TEST(test_truncate_refused)
{
	int fd = open_cpu();
	off_t size = cpu_size(fd);
	struct stat st;
	int err;

	close(fd);
	err = ERRNO_OF(truncate(vm_path("cpu"), 0));
	ck_assert_int_eq(stat(vm_path("cpu"), &st), 0);
	ck_assert_msg(err != 0, "truncate(cpu, 0) as root succeeded (size now %lld)",
		      (long long)st.st_size);
	ck_assert_int_eq(st.st_size, size);
}
END_TEST

/* The tree is fixed: no files made, removed or renamed, even by root. */
START_TEST(test_tree_is_fixed)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/new", vm_root());
	ck_assert_msg(ERRNO_OF(open(path, O_CREAT | O_RDONLY, 0444)) != 0,
		      "creat in %s succeeded", vm_root());
	ck_assert_msg(ERRNO_OF(mkdir(path, 0755)) != 0, "mkdir succeeded");
	ck_assert_msg(ERRNO_OF(unlink(vm_path("cpu"))) != 0,
		      "unlink(cpu) succeeded");
	ck_assert_msg(ERRNO_OF(rename(vm_path("cpu"), path)) != 0,
		      "rename(cpu) succeeded");
	ck_assert_int_eq(stat(vm_path("cpu"), &st), 0);
}
END_TEST

START_TEST(test_ioctl_unknown)
{
	int fd = open_cpu();
	int x = 0;

	ck_assert_errno(ERRNO_OF(ioctl(fd, _IOW('c', 0x42, int), &x)), ENOTTY,
			"ioctl");
	close(fd);
}
END_TEST

/* ---- mmap --------------------------------------------------------------- */

START_TEST(test_mmap_shared_writable)
{
	int fd = open_cpu();

	ck_assert_errno(mmap_errno(fd, (size_t)page, PROT_READ | PROT_WRITE,
				   MAP_SHARED, 0), EACCES,
			"mmap(PROT_READ|PROT_WRITE, MAP_SHARED)");
	ck_assert_errno(mmap_errno(fd, (size_t)page, PROT_WRITE, MAP_SHARED, 0),
			EACCES, "mmap(PROT_WRITE, MAP_SHARED)");
	close(fd);
}
END_TEST

START_TEST(test_mmap_private_writable)
{
	int fd = open_cpu();

	ck_assert_errno(mmap_errno(fd, (size_t)page, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE, 0), EPERM,
			"mmap(PROT_READ|PROT_WRITE, MAP_PRIVATE)");
	close(fd);
}
END_TEST

START_TEST(test_mmap_exec)
{
	int fd = open_cpu();

	ck_assert_errno(mmap_errno(fd, (size_t)page, PROT_READ | PROT_EXEC,
				   MAP_SHARED, 0), EPERM,
			"mmap(PROT_READ|PROT_EXEC, MAP_SHARED)");
	close(fd);
}
END_TEST

static void mprotect_refused(int flags)
{
	int fd = open_cpu();
	void *m = mmap(NULL, (size_t)page, PROT_READ, flags, fd, 0);

	ck_assert_msg(m != MAP_FAILED, "mmap: %s", strerror(errno));
	ck_assert_errno(ERRNO_OF(mprotect(m, (size_t)page, PROT_READ | PROT_WRITE)),
			EACCES, "mprotect(PROT_READ|PROT_WRITE)");
	ck_assert_errno(ERRNO_OF(mprotect(m, (size_t)page, PROT_READ | PROT_EXEC)),
			EACCES, "mprotect(PROT_READ|PROT_EXEC)");
	/* The mapping is intact and still readable. */
	ck_assert_uint_eq(*(const uint32_t *)m, CSF_CPU_MAGIC);
	munmap(m, (size_t)page);
	close(fd);
}

START_TEST(test_mprotect_write_shared)
{
	mprotect_refused(MAP_SHARED);
}
END_TEST

START_TEST(test_mprotect_write_private)
{
	mprotect_refused(MAP_PRIVATE);
}
END_TEST

/* A write through /proc/self/mem (what ptrace pokes use) cannot reach it. */
START_TEST(test_proc_mem_write_refused)
{
	int fd = open_cpu();
	int mem = open("/proc/self/mem", O_RDWR);
	const uint32_t *m = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	uint32_t junk = 0xdeadbeef;

	ck_assert_int_ge(mem, 0);
	ck_assert(m != MAP_FAILED);
	ck_assert_msg(pwrite(mem, &junk, sizeof(junk), (off_t)(uintptr_t)m) < 0,
		      "write through /proc/self/mem succeeded");
	ck_assert_uint_eq(m[0], CSF_CPU_MAGIC);
	munmap((void *)m, (size_t)page);
	close(mem);
	close(fd);
}
END_TEST

START_TEST(test_mmap_past_end)
{
	int fd = open_cpu();
	size_t size = (size_t)cpu_size(fd);

	/* The whole file maps; one page more does not. */
	ck_assert_errno(mmap_errno(fd, size, PROT_READ, MAP_SHARED, 0), 0,
			"mmap of the whole file");
	ck_assert_errno(mmap_errno(fd, size + (size_t)page, PROT_READ,
				   MAP_SHARED, 0), EINVAL,
			"mmap(MAP_SHARED) one page longer than the file");
	ck_assert_errno(mmap_errno(fd, (size_t)page, PROT_READ, MAP_SHARED,
				   (off_t)size), EINVAL,
			"mmap(MAP_SHARED) at offset == file size");
	ck_assert_errno(mmap_errno(fd, (size_t)page, PROT_READ, MAP_SHARED,
				   (off_t)size + 16 * page), EINVAL,
			"mmap(MAP_SHARED) at an offset far past the end");
	ck_assert_errno(mmap_errno(fd, size + (size_t)page, PROT_READ,
				   MAP_PRIVATE, 0), EINVAL,
			"mmap(MAP_PRIVATE) one page longer than the file");
	close(fd);
}
END_TEST

/* mremap cannot grow a mapping past the file (VM_DONTEXPAND). */
START_TEST(test_mremap_grow_refused)
{
	int fd = open_cpu();
	size_t size = (size_t)cpu_size(fd);
	void *m = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	void *g;

	ck_assert(m != MAP_FAILED);
	g = mremap(m, size, size + (size_t)page, MREMAP_MAYMOVE);
	ck_assert_msg(g == MAP_FAILED, "mremap grew the mapping");
	ck_assert_uint_eq(*(const uint32_t *)m, CSF_CPU_MAGIC);
	munmap(m, size);
	close(fd);
}
END_TEST

/* Dropped pages fault back in (no SIGBUS, no stale data). */
START_TEST(test_madvise_dontneed_refaults)
{
	int fd = open_cpu();
	const uint32_t *m = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);

	ck_assert(m != MAP_FAILED);
	ck_assert_uint_eq(m[0], CSF_CPU_MAGIC);
	ck_assert_int_eq(madvise((void *)m, (size_t)page, MADV_DONTNEED), 0);
	ck_assert_uint_eq(m[0], CSF_CPU_MAGIC);
	munmap((void *)m, (size_t)page);
	close(fd);
}
END_TEST

static int nobody_misuses(void *unused)
{
	int fd = open(vm_path("cpu"), O_RDONLY);

	(void)unused;
	if (fd < 0)
		return 10;
	if (mmap_errno(fd, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, 0) != EACCES)
		return 11;
	if (mmap_errno(fd, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0) != EPERM)
		return 12;
	if (truncate(vm_path("cpu"), 0) == 0)
		return 13;
	return 0;
}

START_TEST(test_mmap_refused_nobody)
{
	ck_assert_int_eq(vm_as_nobody(nobody_misuses, NULL), 0);
}
END_TEST

static Suite *bad_input_suite(void)
{
	Suite *s = suite_create("bad_input");
	TCase *tc;

	tc = tcase_create("files");
	tcase_add_test(tc, test_open_for_writing_refused);
	tcase_add_test(tc, test_open_for_writing_refused_nobody);
	tcase_add_test(tc, test_write_on_read_only_fd);
	tcase_add_test(tc, test_truncate_refused);
	tcase_add_test(tc, test_tree_is_fixed);
	tcase_add_test(tc, test_ioctl_unknown);
	suite_add_tcase(s, tc);

	tc = tcase_create("mmap");
	tcase_add_test(tc, test_mmap_shared_writable);
	tcase_add_test(tc, test_mmap_private_writable);
	tcase_add_test(tc, test_mmap_exec);
	tcase_add_test(tc, test_mprotect_write_shared);
	tcase_add_test(tc, test_mprotect_write_private);
	tcase_add_test(tc, test_proc_mem_write_refused);
	tcase_add_test(tc, test_mmap_past_end);
	tcase_add_test(tc, test_mremap_grow_refused);
	tcase_add_test(tc, test_madvise_dontneed_refaults);
	tcase_add_test(tc, test_mmap_refused_nobody);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bad_input_suite());
	int failed;

	page = sysconf(_SC_PAGESIZE);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
