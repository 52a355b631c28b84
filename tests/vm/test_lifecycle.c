/* SPDX-License-Identifier: MIT */
/*
 * test_lifecycle - load, mount, unmount, unload, reload.
 *
 * The module is pinned (rmmod refused: delete_module() fails with
 * EWOULDBLOCK, or EBUSY on kernels that say so) while its fs is mounted
 * anywhere and while any file of it is open or mapped, even after a lazy
 * umount; once the last user is gone, unload succeeds and removes
 * /sys/fs/coarse_stat_fs.  Loading again works, with the same parameters.
 * Bad parameters are refused; max_threads's default is fitted to RAM.
 * "all", which only an unload ends, is tested here for that reason.
 *
 * Each test starts with the module loaded and mounted at $CSF_ROOT (a
 * fixture restores that) and leaves it so for the next program.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "vmtest.h"

#define MODNAME "coarse_stat_fs"
#define SECOND_MOUNT "/tmp/csf-second"

static int loaded(void)
{
	return access("/sys/module/" MODNAME, F_OK) == 0;
}

static int mounted_at(const char *dir)
{
	struct statfs s;

	return statfs(dir, &s) == 0 && (uint32_t)s.f_type == CSF_FS_MAGIC;
}

/* finit_module with the parameters the init script used; 0 or errno. */
static int load_with(const char *params)
{
	const char *ko = vm_env("CSF_KO", "/lib/csf/coarse_stat_fs.ko");
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	int err = 0;

	ck_assert_msg(fd >= 0, "open %s: %s", ko, strerror(errno));
	if (syscall(SYS_finit_module, fd, params, 0) != 0)
		err = errno;
	close(fd);
	return err;
}

static int load(void)
{
	char params[64] = "";
	uint32_t clock = vm_expected_clock();

	if (clock)
		snprintf(params, sizeof(params), "clock=%s",
			 vm_env("CSF_CLOCK", "auto"));
	return load_with(params);
}

/* delete_module as rmmod does it (never waits); 0 or errno. */
static int unload(void)
{
	return syscall(SYS_delete_module, MODNAME, O_NONBLOCK) == 0 ? 0 : errno;
}

static int do_mount(const char *dir)
{
	return mount("none", dir, CSF_FS_NAME, 0, NULL) == 0 ? 0 : errno;
}

#define ck_assert_ok(err, what) \
	ck_assert_msg((err) == 0, "%s: %s", (what), strerror(err))

#define ck_assert_refused(err, what)					\
	ck_assert_msg((err) == EWOULDBLOCK || (err) == EBUSY,		\
		      "%s: %s, want EWOULDBLOCK or EBUSY", (what),	\
		      (err) ? strerror(err) : "succeeded")

/* Fixture: loaded and mounted at $CSF_ROOT, whatever the last test did. */
static void restore(void)
{
	if (mounted_at(SECOND_MOUNT))
		umount2(SECOND_MOUNT, MNT_DETACH);
	if (!loaded())
		ck_assert_ok(load(), "load " MODNAME);
	if (!mounted_at(vm_root()))
		ck_assert_ok(do_mount(vm_root()), "mount");
}

static uint64_t load_time(void)
{
	struct vm_cpu_page p;
	uint64_t t;

	vm_cpu_map(&p);
	t = p.hdr->load_time;
	if (vm_expected_clock())
		ck_assert_uint_eq(p.hdr->clock, vm_expected_clock());
	vm_cpu_unmap(&p);
	return t;
}

/* Unmount everywhere and unload; both must succeed. */
static void unmount_and_unload(void)
{
	ck_assert_ok(umount2(vm_root(), 0) == 0 ? 0 : errno, "umount");
	ck_assert_ok(unload(), "delete_module after umount");
	ck_assert(!loaded());
	ck_assert_msg(access(vm_root(), F_OK) != 0 && errno == ENOENT,
		      "%s still there after unload", vm_root());
}

START_TEST(test_unload_refused_while_mounted)
{
	ck_assert(mounted_at(vm_root()));
	ck_assert_refused(unload(), "delete_module while mounted");
	ck_assert(loaded());
	ck_assert(mounted_at(vm_root()));
}
END_TEST

START_TEST(test_unload_refused_while_mounted_elsewhere)
{
	mkdir(SECOND_MOUNT, 0755);
	ck_assert_ok(umount2(vm_root(), 0) == 0 ? 0 : errno, "umount");
	ck_assert_ok(do_mount(SECOND_MOUNT), "mount at " SECOND_MOUNT);
	ck_assert_refused(unload(), "delete_module while mounted at " SECOND_MOUNT);
	ck_assert_ok(umount2(SECOND_MOUNT, 0) == 0 ? 0 : errno, "umount " SECOND_MOUNT);
	ck_assert_ok(unload(), "delete_module after the last umount");
	restore();
}
END_TEST

/* An open file pins the module even once the fs is lazily unmounted. */
START_TEST(test_unload_refused_while_open)
{
	int fd = open(vm_path("cpu"), O_RDONLY);
	uint32_t magic = 0;

	ck_assert_msg(fd >= 0, "open cpu: %s", strerror(errno));
	ck_assert_ok(umount2(vm_root(), MNT_DETACH) == 0 ? 0 : errno,
		     "umount -l");
	ck_assert(!mounted_at(vm_root()));
	ck_assert_refused(unload(), "delete_module with the cpu file open");
	ck_assert_int_eq(pread(fd, &magic, sizeof(magic), 0), (ssize_t)sizeof(magic));
	ck_assert_uint_eq(magic, CSF_CPU_MAGIC);
	close(fd);
	ck_assert_ok(unload(), "delete_module after close");
	ck_assert(!loaded());
	restore();
}
END_TEST

/*
 * A mapping pins it too (the mapping holds the file): after close and a
 * lazy umount the page still reads and still counts switches.
 */
START_TEST(test_unload_refused_while_mapped)
{
	struct vm_cpu_page p;
	struct vm_cpu_sample a, b;

	vm_cpu_map(&p);
	close(p.fd);
	p.fd = -1;
	ck_assert_ok(umount2(vm_root(), MNT_DETACH) == 0 ? 0 : errno,
		     "umount -l");
	ck_assert_refused(unload(), "delete_module with the cpu file mapped");
	vm_cpu_read(&p, 0, &a);
	vm_pin(0);
	vm_sleep_ms(10);
	vm_sleep_ms(10);
	vm_cpu_read(&p, 0, &b);
	ck_assert_msg(b.nr_switches > a.nr_switches,
		      "the detached page stopped counting (%" PRIu64 " -> %" PRIu64 ")",
		      a.nr_switches, b.nr_switches);
	ck_assert_refused(unload(), "delete_module with the cpu file mapped");
	vm_cpu_unmap(&p);
	ck_assert_ok(unload(), "delete_module after munmap");
	restore();
}
END_TEST

START_TEST(test_umount_unload_reload)
{
	uint64_t t1 = load_time(), t2;

	unmount_and_unload();
	ck_assert_ok(load(), "load again");
	ck_assert_msg(access(vm_root(), F_OK) == 0, "%s missing after load: %s",
		      vm_root(), strerror(errno));
	ck_assert_ok(do_mount(vm_root()), "mount again");
	t2 = load_time();
	ck_assert_msg(t2 > t1, "load_time did not move on reload (%" PRIu64
		      " -> %" PRIu64 ")", t1, t2);
}
END_TEST

START_TEST(test_reload_cycles)
{
	int i;

	for (i = 0; i < 5; i++) {
		unmount_and_unload();
		ck_assert_ok(load(), "load");
		ck_assert_ok(do_mount(vm_root()), "mount");
		(void)load_time();	/* maps, checks magic and clock */
	}
}
END_TEST

/* Two mounts show one filesystem (get_tree_single): the same page. */
START_TEST(test_second_mount_same_page)
{
	char path[256];
	uint64_t a, b;
	int fd;

	mkdir(SECOND_MOUNT, 0755);
	ck_assert_ok(do_mount(SECOND_MOUNT), "mount at " SECOND_MOUNT);
	a = load_time();
	snprintf(path, sizeof(path), "%s/cpu", SECOND_MOUNT);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert_int_eq(pread(fd, &b, sizeof(b),
			       offsetof(struct csf_cpu_header, load_time)),
			 (ssize_t)sizeof(b));
	close(fd);
	ck_assert_uint_eq(a, b);
	ck_assert_ok(umount2(SECOND_MOUNT, 0) == 0 ? 0 : errno, "umount " SECOND_MOUNT);
	ck_assert_refused(unload(), "delete_module while still mounted at the root");
}
END_TEST

/* Bad parameters are refused at load and leave nothing behind. */
START_TEST(test_bad_parameters_refused)
{
	static const char *const bad[] = {
		"clock=bogus", "stat_period_ms=0", "max_threads=1048577",
	};
	unsigned int i;

	unmount_and_unload();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = load_with(bad[i]);

		ck_assert_msg(err == EINVAL, "load with %s: %s, want EINVAL",
			      bad[i], err ? strerror(err) : "loaded");
		ck_assert(!loaded());
		ck_assert(access(vm_root(), F_OK) != 0);
	}
	restore();
}
END_TEST

/* The cap in force: the cpu header's and the parameter's in sysfs. */
static long cap_in_force(void)
{
	struct vm_cpu_page p;
	char buf[32] = "";
	long hdr, sys;
	int fd;

	vm_cpu_map(&p);
	hdr = p.hdr->max_threads;
	vm_cpu_unmap(&p);
	fd = open("/sys/module/" MODNAME "/parameters/max_threads", O_RDONLY);
	ck_assert_msg(fd >= 0, "open the max_threads parameter: %s",
		      strerror(errno));
	ck_assert_int_gt(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	sys = strtol(buf, NULL, 10);
	ck_assert_int_eq(hdr, sys);
	return hdr;
}

/*
 * max_threads=0, the default, is one thread per 128 KiB of RAM, at least
 * 1024 (coarse_stat_fs(7)); the largest cap loads.
 */
START_TEST(test_max_threads_fitted)
{
	long want = vm_meminfo_kb("MemTotal") / 128;

	want = want < 1024 ? 1024 : want > (1L << 20) ? 1L << 20 : want;
	unmount_and_unload();
	ck_assert_ok(load(), "load with the default max_threads");
	ck_assert_ok(do_mount(vm_root()), "mount");
	ck_assert_int_eq(cap_in_force(), want);
	unmount_and_unload();
	ck_assert_ok(load_with("max_threads=0"), "load with max_threads=0");
	ck_assert_ok(do_mount(vm_root()), "mount");
	ck_assert_int_eq(cap_in_force(), want);
	unmount_and_unload();
	ck_assert_ok(load_with("max_threads=1048576"),
		     "load with max_threads=1048576");
	ck_assert_ok(do_mount(vm_root()), "mount");
	ck_assert_int_eq(cap_in_force(), 1L << 20);
	vm_note("max_threads fitted to MemTotal %ld kB: %ld",
		vm_meminfo_kb("MemTotal"), want);
	unmount_and_unload();
	restore();
}
END_TEST

/* "all" to the attach file: 0 or -errno. */
static int write_all(void *unused)
{
	int fd = open(vm_path("attach"), O_WRONLY | O_CLOEXEC);
	int err = 0;

	(void)unused;
	if (fd < 0)
		return -errno;
	if (write(fd, "all\n", 4) != 4)
		err = -errno;
	close(fd);
	return err;
}

/* A process forked now has a page from its start. */
static void new_process_has_page(const char *when)
{
	int status;
	pid_t child = fork();

	if (child == 0)
		_exit(access(vm_thread_path(getpid()), F_OK) ? 1 : 0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "a process created %s has no page", when);
}

/* As nobody: 0 when "all" is refused with EPERM. */
static int all_refused(void *unused)
{
	return write_all(unused) == -EPERM ? 0 : 1;
}

/* Whether the task of /proc path @dir (…/task/TID) is alive, not exiting. */
static bool task_alive(const char *dir)
{
	char path[700], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/stat", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/*
 * Whether task @tid (/proc path @dir) lacks a page for good: one that is
 * exiting has none in threads/ from its exit on, while /proc still has
 * it, so it is given @tries tenths of a second to be gone.
 */
static bool no_page(const char *dir, pid_t tid, int tries)
{
	for (int i = 0; i < tries; i++) {
		if (i)
			vm_sleep_ms(100);
		if (!access(vm_thread_path(tid), F_OK) || !task_alive(dir))
			return false;
	}
	return true;
}

/*
 * How many tasks of /proc (every thread of every process, kernel threads
 * too) have no page; with @all_expected each is named, and one exiting
 * meanwhile does not count.
 */
static int tasks_without_page(bool all_expected)
{
	char dir[300], path[600];
	struct dirent *p, *t;
	DIR *pd, *td;
	int missing = 0;

	pd = opendir("/proc");
	ck_assert_ptr_nonnull(pd);
	while ((p = readdir(pd))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(dir, sizeof(dir), "/proc/%s/task", p->d_name);
		td = opendir(dir);
		while (td && (t = readdir(td))) {
			if (t->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, t->d_name);
			if (no_page(path, atoi(t->d_name),
				    all_expected ? 10 : 1)) {
				if (all_expected)
					vm_note("no page: tid %s", t->d_name);
				missing++;
			}
		}
		if (td)
			closedir(td);
	}
	closedir(pd);
	return missing;
}

static uint32_t cpu_flags(void)
{
	struct vm_cpu_page p;
	uint32_t flags;

	vm_cpu_map(&p);
	flags = p.hdr->flags;
	vm_cpu_unmap(&p);
	return flags;
}

/*
 * "all" is root's (CAP_SYS_PTRACE in the initial user namespace); it
 * registers every task present, kernel threads too, and every task
 * created after it; it can be repeated.  attach_all=1 does the same at
 * load.  Only unloading ends it: the test reloads the module.
 */
START_TEST(test_attach_all)
{
	char cap[32];
	int ntasks;

	/* the default cap, whatever the last test loaded */
	unmount_and_unload();
	restore();
	ck_assert_int_eq(vm_as_nobody(all_refused, NULL), 0);
	ck_assert_uint_eq(cpu_flags() & CSF_CPU_F_ALL, 0);
	ntasks = tasks_without_page(false);
	ck_assert_int_gt(ntasks, 16);
	ck_assert_int_eq(write_all(NULL), 0);
	ck_assert_uint_eq(cpu_flags() & CSF_CPU_F_ALL, CSF_CPU_F_ALL);
	ck_assert_int_eq(tasks_without_page(true), 0);
	ck_assert_int_eq(access(vm_thread_path(2), F_OK), 0); /* kthreadd */
	/* a process created now, by a parent registered or not */
	new_process_has_page("after \"all\"");
	ck_assert_int_eq(write_all(NULL), 0);

	/* past the cap: none of those present, but new tasks still */
	unmount_and_unload();
	snprintf(cap, sizeof(cap), "max_threads=%d", ntasks / 2);
	ck_assert_ok(load_with(cap), cap);
	ck_assert_ok(do_mount(vm_root()), "mount");
	ck_assert_int_eq(write_all(NULL), -ENOSPC);
	ck_assert_uint_eq(cpu_flags() & CSF_CPU_F_ALL, CSF_CPU_F_ALL);
	ck_assert_int_ne(access(vm_thread_path(2), F_OK), 0);
	new_process_has_page("after a refused \"all\"");

	unmount_and_unload();
	ck_assert_ok(load_with("attach_all=1"), "load with attach_all=1");
	ck_assert_ok(do_mount(vm_root()), "mount");
	ck_assert_uint_eq(cpu_flags() & CSF_CPU_F_ALL, CSF_CPU_F_ALL);
	ck_assert_int_eq(tasks_without_page(true), 0);
	unmount_and_unload();
	restore();
	ck_assert_uint_eq(cpu_flags() & CSF_CPU_F_ALL, 0);
}
END_TEST

static void fixture(void)
{
	restore();
}

static Suite *lifecycle_suite(void)
{
	Suite *s = suite_create("lifecycle");
	TCase *tc = tcase_create("lifecycle");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, fixture, NULL);
	tcase_add_test(tc, test_unload_refused_while_mounted);
	tcase_add_test(tc, test_unload_refused_while_mounted_elsewhere);
	tcase_add_test(tc, test_unload_refused_while_open);
	tcase_add_test(tc, test_unload_refused_while_mapped);
	tcase_add_test(tc, test_umount_unload_reload);
	tcase_add_test(tc, test_reload_cycles);
	tcase_add_test(tc, test_second_mount_same_page);
	tcase_add_test(tc, test_bad_parameters_refused);
	tcase_add_test(tc, test_max_threads_fitted);
	tcase_add_test(tc, test_attach_all);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lifecycle_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	/* Leave the module loaded and mounted for the init script. */
	if (!loaded())
		load();
	if (!mounted_at(vm_root()))
		do_mount(vm_root());
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
