// SPDX-License-Identifier: MIT
/*
 * test_thread_security - who may map a thread's page, and that nobody can
 * write one.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

static void snap_ok(struct csf_snap *s)
{
	int err = csf_thread_snap(s);

	ck_assert_msg(err == 0, "csf_thread_snap: %s", csf_strerror(err));
}

/* As uid nobody: root's thread is off limits, its own page is not. */
static int nobody_view(void *arg)
{
	pid_t root_tid = *(pid_t *)arg;
	struct csf_thread_map *m;
	struct csf_snap s;
	struct stat st;

	if (csf_thread_map(root_tid, &m) != -EACCES)
		return 10;
	if (open(vm_thread_path(root_tid), O_RDONLY) >= 0 || errno != EACCES)
		return 11;
	if (csf_thread_snap(&s))
		return 12;
	if (stat(vm_thread_path(gettid()), &st))
		return 13;
	if (st.st_uid != VM_NOBODY || (st.st_mode & 07777) != 0400)
		return 14;
	if (csf_thread_map(gettid(), &m))
		return 15;
	if (csf_thread_read(m, &s) || s.tid != (uint32_t)gettid())
		return 16;
	csf_thread_unmap(m);
	return 0;
}

START_TEST(other_users_cannot_map)
{
	struct csf_snap s;
	struct stat st;
	pid_t tid;
	int rc;

	snap_ok(&s);
	tid = gettid();
	ck_assert_int_eq(stat(vm_thread_path(tid), &st), 0);
	ck_assert_uint_eq(st.st_uid, 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0400);
	rc = vm_as_nobody(nobody_view, &tid);
	ck_assert_msg(rc == 0, "check %d failed as uid nobody", rc);
}
END_TEST

START_TEST(pages_cannot_be_written)
{
	const char *self = vm_path("thread-self");
	char byte;
	void *p;
	int fd;

	errno = 0;
	ck_assert_int_lt(open(self, O_RDWR), 0);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_lt(open(self, O_WRONLY), 0);
	ck_assert_int_eq(errno, EACCES);

	fd = open(self, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_lt(write(fd, "x", 1), 0);
	ck_assert_int_eq(errno, EBADF);

	ck_assert_ptr_eq(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			      fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_ptr_eq(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			      fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_ptr_eq(mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED,
			      fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_ptr_eq(mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0),
			 MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_eq(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 4096),
			 MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);

	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_lt(mprotect(p, 4096, PROT_READ | PROT_WRITE), 0);
	ck_assert_int_eq(errno, EACCES);
	/* A write through /proc/self/mem (ptrace's path) is refused too. */
	{
		int mem = open("/proc/self/mem", O_RDWR);

		ck_assert_int_ge(mem, 0);
		byte = 1;
		ck_assert_int_lt(pwrite(mem, &byte, 1, (off_t)(uintptr_t)p), 0);
		close(mem);
	}
	ck_assert_uint_eq(((struct csf_thread_page *)p)->magic,
			  CSF_THREAD_MAGIC);
	munmap(p, 4096);
	close(fd);
}
END_TEST

/* A range dropped with MADV_DONTNEED faults back in with the same page. */
START_TEST(dontneed_refaults)
{
	const struct csf_thread_page *p;
	uint32_t tid;
	int fd;

	fd = open(vm_path("thread-self"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	close(fd);
	tid = p->tid;
	ck_assert_uint_eq(tid, (uint32_t)gettid());
	ck_assert_int_eq(madvise((void *)p, 4096, MADV_DONTNEED), 0);
	ck_assert_uint_eq(p->magic, CSF_THREAD_MAGIC);
	ck_assert_uint_eq(p->tid, tid);
	munmap((void *)p, 4096);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		other_users_cannot_map,
		pages_cannot_be_written,
		dontneed_refaults,
		NULL,
	};

	return vm_run_tests("thread_security", tests);
}
