// SPDX-License-Identifier: MIT
/*
 * test_thread_owner - who owns threads/<tid>: /proc's rule
 * (task_dump_owner()).  The thread's effective uid and gid now, and root
 * while the thread is not dumpable: after it changed credentials (a daemon
 * that dropped root is not readable by the user it now runs as) or said
 * prctl(PR_SET_DUMPABLE, 0).  Each check is made with a fresh lookup and
 * with the name held open, whose dentry is then revalidated, not looked up.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmtest.h"

#define PAGE 4096

/*
 * A registered single-threaded child, forked as root, that changes its
 * credentials on command.  Commands (one byte each, answered with errno
 * or 0):
 *   e  effective uid and gid become VM_NOBODY (real and saved stay root)
 *   r  effective uid and gid become root again
 *   x  every uid and gid become VM_NOBODY: privileges dropped for good
 *   D  prctl(PR_SET_DUMPABLE, 1)     N  prctl(PR_SET_DUMPABLE, 0)
 *   o  open its own threads/<tid> (errno of that)
 */
struct agent {
	pid_t pid;
	int cmd, ack;
};

static int set_ids(long uid, long gid, int all)
{
	if (syscall(SYS_setresgid, all ? gid : -1, gid, all ? gid : -1))
		return errno;
	if (syscall(SYS_setresuid, all ? uid : -1, uid, all ? uid : -1))
		return errno;
	return 0;
}

static int agent_do(char c)
{
	int fd;

	switch (c) {
	case 'e':
		return set_ids(VM_NOBODY, VM_NOBODY, 0);
	case 'r':
		/* uid first: setting the gid back needs root's euid. */
		if (syscall(SYS_setresuid, -1, 0, -1))
			return errno;
		return syscall(SYS_setresgid, -1, 0, -1) ? errno : 0;
	case 'x':
		if (syscall(SYS_setgroups, 0, NULL))
			return errno;
		return set_ids(VM_NOBODY, VM_NOBODY, 1);
	case 'D':
	case 'N':
		return prctl(PR_SET_DUMPABLE, c == 'D', 0, 0, 0) ? errno : 0;
	case 'o':
		fd = open(vm_thread_path(getpid()), O_RDONLY);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
	return EINVAL;
}

static void agent_start(struct agent *a)
{
	int cmd[2], ack[2];
	const void *p;
	int fd;
	char c;

	ck_assert_int_eq(pipe(cmd), 0);
	ck_assert_int_eq(pipe(ack), 0);
	a->pid = fork();
	ck_assert_int_ge(a->pid, 0);
	if (a->pid == 0) {
		close(cmd[1]);
		close(ack[0]);
		fd = open(vm_path("thread-self"), O_RDONLY);
		p = fd >= 0 ? mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0) :
			      MAP_FAILED;
		c = p == MAP_FAILED ? (char)errno : 0;
		if (write(ack[1], &c, 1) != 1 || c)
			_exit(1);
		while (read(cmd[0], &c, 1) == 1) {
			c = (char)agent_do(c);
			if (write(ack[1], &c, 1) != 1)
				_exit(2);
		}
		_exit(0);
	}
	close(cmd[0]);
	close(ack[1]);
	a->cmd = cmd[1];
	a->ack = ack[0];
	ck_assert_int_eq(read(a->ack, &c, 1), 1);
	ck_assert_msg(!c, "agent cannot register: %s", strerror(c));
}

/* Send a command; the errno it answered. */
static int agent(struct agent *a, char c)
{
	char r;

	ck_assert_int_eq(write(a->cmd, &c, 1), 1);
	ck_assert_int_eq(read(a->ack, &r, 1), 1);
	return r;
}

static void agent_ok(struct agent *a, char c)
{
	int err = agent(a, c);

	ck_assert_msg(!err, "agent command %c: %s", c, strerror(err));
}

static void agent_stop(struct agent *a)
{
	int status;

	close(a->cmd);
	close(a->ack);
	ck_assert_int_eq(waitpid(a->pid, &status, 0), a->pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "agent: status %#x", status);
}

/* As uid nobody: 0 when threads/<tid> opens and maps tid's page, else errno. */
static int nobody_opens(void *arg)
{
	pid_t tid = *(pid_t *)arg;
	const struct csf_thread_page *p;
	int fd = open(vm_thread_path(tid), O_RDONLY);

	if (fd < 0)
		return errno;
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 200;
	return p->tid == (uint32_t)tid ? 0 : 201;
}

/* The owner of threads/<pid>, and what uid nobody and root may do with it. */
static void expect_owner(struct agent *a, uid_t uid, gid_t gid,
			 const char *when)
{
	struct stat st;
	int fd, rc;

	ck_assert_msg(stat(vm_thread_path(a->pid), &st) == 0, "%s: stat: %s", when,
		      strerror(errno));
	ck_assert_msg(st.st_uid == uid && st.st_gid == gid,
		      "%s: owner %u:%u, expected %u:%u", when,
		      (unsigned int)st.st_uid, (unsigned int)st.st_gid,
		      (unsigned int)uid, (unsigned int)gid);
	ck_assert_uint_eq(st.st_mode & 07777, 0400);
	rc = vm_as_nobody(nobody_opens, &a->pid);
	if (uid == VM_NOBODY)
		ck_assert_msg(rc == 0, "%s: uid %d cannot open it: %s", when,
			      VM_NOBODY, rc > 0 ? strerror(rc) : "died");
	else
		ck_assert_msg(rc == EACCES, "%s: uid %d opens it: %s", when,
			      VM_NOBODY, rc ? strerror(rc) : "succeeded");
	fd = open(vm_thread_path(a->pid), O_RDONLY);
	ck_assert_msg(fd >= 0, "%s: root cannot open it: %s", when,
		      strerror(errno));
	close(fd);
}

/* With @pinned, the name stays open from before the first change. */
static void owner_follows_euid(int pinned)
{
	struct agent a;
	int pin = -1;

	agent_start(&a);
	expect_owner(&a, 0, 0, "registered as root");
	if (pinned) {
		pin = open(vm_thread_path(a.pid), O_RDONLY);
		ck_assert_int_ge(pin, 0);
	}
	/* The kernel made it non-dumpable: still root's. */
	agent_ok(&a, 'e');
	expect_owner(&a, 0, 0, "euid nobody, not dumpable");
	agent_ok(&a, 'D');
	expect_owner(&a, VM_NOBODY, VM_NOBODY, "euid nobody, dumpable");
	agent_ok(&a, 'r');
	agent_ok(&a, 'D');
	expect_owner(&a, 0, 0, "euid root again");
	if (pin >= 0)
		close(pin);
	agent_stop(&a);
}

START_TEST(owner_follows_euid_and_egid)
{
	owner_follows_euid(0);
}
END_TEST

START_TEST(owner_follows_euid_and_egid_pinned)
{
	owner_follows_euid(1);
}
END_TEST

/* A daemon that dropped root keeps what root opened: not its user's. */
static void dropped_root(int pinned)
{
	struct agent a;
	int pin = -1;

	agent_start(&a);
	if (pinned) {
		pin = open(vm_thread_path(a.pid), O_RDONLY);
		ck_assert_int_ge(pin, 0);
	}
	agent_ok(&a, 'x');
	expect_owner(&a, 0, 0, "dropped root");
	ck_assert_int_eq(agent(&a, 'o'), EACCES);
	/* ... until it says it may be dumped. */
	agent_ok(&a, 'D');
	expect_owner(&a, VM_NOBODY, VM_NOBODY, "dropped root, then dumpable");
	ck_assert_int_eq(agent(&a, 'o'), 0);
	if (pin >= 0)
		close(pin);
	agent_stop(&a);
}

START_TEST(dropped_root_is_not_its_new_users)
{
	dropped_root(0);
}
END_TEST

START_TEST(dropped_root_is_not_its_new_users_pinned)
{
	dropped_root(1);
}
END_TEST

/* prctl(PR_SET_DUMPABLE, 0) hands the file to root, 1 gives it back. */
static void not_dumpable(int pinned)
{
	struct agent a;
	int pin = -1;

	agent_start(&a);
	agent_ok(&a, 'x');
	agent_ok(&a, 'D');
	expect_owner(&a, VM_NOBODY, VM_NOBODY, "uid nobody, dumpable");
	if (pinned) {
		pin = open(vm_thread_path(a.pid), O_RDONLY);
		ck_assert_int_ge(pin, 0);
	}
	agent_ok(&a, 'N');
	expect_owner(&a, 0, 0, "PR_SET_DUMPABLE 0");
	ck_assert_int_eq(agent(&a, 'o'), EACCES);
	agent_ok(&a, 'D');
	expect_owner(&a, VM_NOBODY, VM_NOBODY, "PR_SET_DUMPABLE 1");
	if (pin >= 0)
		close(pin);
	agent_stop(&a);
}

START_TEST(non_dumpable_is_roots)
{
	not_dumpable(0);
}
END_TEST

START_TEST(non_dumpable_is_roots_pinned)
{
	not_dumpable(1);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		owner_follows_euid_and_egid,
		owner_follows_euid_and_egid_pinned,
		dropped_root_is_not_its_new_users,
		dropped_root_is_not_its_new_users_pinned,
		non_dumpable_is_roots,
		non_dumpable_is_roots_pinned,
		NULL,
	};

	return vm_run_tests("thread_owner", tests);
}
