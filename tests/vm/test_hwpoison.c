// SPDX-License-Identifier: MIT
/*
 * test_hwpoison - root's madvise(MADV_HWPOISON) or MADV_SOFT_OFFLINE on a
 * mapping of cpu or of a thread page fails and leaves the page usable:
 * for that mapping, for new mappings (which used to die of SIGBUS), and
 * for reads through /proc/self/mem (what a debugger does).
 *
 * Only a kernel with CONFIG_MEMORY_FAILURE knows these advices; on one
 * without (the debug kernel's tinyconfig) there is nothing to poison and
 * the tests say so and pass.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmtest.h"

#define PAGE 4096
/* glibc's <sys/mman.h> lacks it; the value of asm-generic/mman-common.h */
#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif

/*
 * Whether this kernel has CONFIG_MEMORY_FAILURE: madvise() checks the
 * advice before anything else and answers EINVAL to one it does not know,
 * while a known advice over zero bytes succeeds without doing anything.
 */
static int have_memory_failure(void)
{
	void *a = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int known, soft;

	ck_assert_ptr_ne(a, MAP_FAILED);
	known = madvise(a, 0, MADV_HWPOISON) == 0;
	ck_assert_msg(known || errno == EINVAL,
		      "madvise(0 bytes, MADV_HWPOISON): %s", strerror(errno));
	soft = madvise(a, 0, MADV_SOFT_OFFLINE) == 0;
	ck_assert_msg(soft == known, "MADV_SOFT_OFFLINE %sknown, MADV_HWPOISON %sknown",
		      soft ? "" : "un", known ? "" : "un");
	munmap(a, PAGE);
	if (!known)
		vm_note("this kernel has no CONFIG_MEMORY_FAILURE: MADV_HWPOISON and MADV_SOFT_OFFLINE are EINVAL, nothing to poison: skipped");
	return known;
}

/* In a child, so that a SIGBUS is a failed check: map @path, read magic. */
static void new_mapping_reads(const char *path, uint32_t magic,
			      const char *after)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(path, O_RDONLY);
		const volatile uint32_t *p;

		if (fd < 0)
			_exit(2);
		p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			_exit(3);
		_exit(*p == magic ? 0 : 4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!WIFSIGNALED(status),
		      "after %s, a new mapping of %s died of signal %d", after,
		      path, WTERMSIG(status));
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "after %s, a new mapping of %s: check %d", after, path,
		      WEXITSTATUS(status));
}

/* The same mapping after MADV_DONTNEED, and through /proc/self/mem. */
static void mapping_still_reads(const void *p, uint32_t magic)
{
	uint32_t v = 0;
	int mem;

	ck_assert_uint_eq(*(const volatile uint32_t *)p, magic);
	ck_assert_int_eq(madvise((void *)p, PAGE, MADV_DONTNEED), 0);
	ck_assert_uint_eq(*(const volatile uint32_t *)p, magic);
	mem = open("/proc/self/mem", O_RDONLY);
	ck_assert_int_ge(mem, 0);
	ck_assert_msg(pread(mem, &v, sizeof(v), (off_t)(uintptr_t)p) ==
		      sizeof(v), "read through /proc/self/mem: %s",
		      strerror(errno));
	ck_assert_uint_eq(v, magic);
	close(mem);
}

/*
 * Each advice fails on @p, a mapping of @path, and the page stays usable
 * for @p and for a new mapping.  The poison must be refused, not only
 * reported: a kernel that poisons the page says EBUSY all the same, and
 * soft offlining a poisoned page succeeds.
 */
static void poison_refused(const void *p, const char *path, uint32_t magic)
{
	static const struct {
		int advice;
		const char *name;
	} advices[] = {
		{ MADV_HWPOISON, "MADV_HWPOISON" },
		{ MADV_SOFT_OFFLINE, "MADV_SOFT_OFFLINE" },
	};
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(advices) / sizeof(advices[0]); i++) {
		errno = 0;
		rc = madvise((void *)p, PAGE, advices[i].advice);
		vm_note("%s on %s: %s", advices[i].name, path,
			rc ? strerror(errno) : "succeeded");
		new_mapping_reads(path, magic, advices[i].name);
		mapping_still_reads(p, magic);
		ck_assert_msg(rc < 0, "%s on %s succeeded", advices[i].name,
			      path);
	}
}

START_TEST(cpu_page_survives_poison)
{
	const void *p;
	int fd;

	if (!have_memory_failure())
		return;
	fd = open(vm_path("cpu"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_uint_eq(*(const uint32_t *)p, CSF_CPU_MAGIC);
	poison_refused(p, vm_path("cpu"), CSF_CPU_MAGIC);
	munmap((void *)p, PAGE);
	close(fd);
}
END_TEST

START_TEST(thread_page_survives_poison)
{
	const struct csf_thread_page *p;
	char name[64];
	int fd;

	if (!have_memory_failure())
		return;
	fd = open(vm_path("thread-self"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_uint_eq(p->magic, CSF_THREAD_MAGIC);
	snprintf(name, sizeof(name), "threads/%d", gettid());
	poison_refused(p, vm_path(name), CSF_THREAD_MAGIC);
	ck_assert_uint_eq(p->tid, (uint32_t)gettid());
	munmap((void *)p, PAGE);
	close(fd);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		cpu_page_survives_poison,
		thread_page_survives_poison,
		NULL,
	};

	return vm_run_tests("hwpoison", tests);
}
