// SPDX-License-Identifier: MIT
/*
 * test_thread_names - threads/<tid> names the thread that has that tid now:
 * not an exited thread whose page someone still maps (the open file pins
 * its dentry), not the old owner of a tid another user's thread reuses,
 * and, after an exec from a thread that is not the leader (which takes the
 * leader's tid), the exec'd thread under its new tid only.
 *
 * A tid is reused on purpose with clone3()'s set_tid (root may pick a free
 * pid since 5.5; no CONFIG_CHECKPOINT_RESTORE needed).
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmtest.h"

#define PAGE 4096

static const struct csf_thread_page *map_fd(int fd)
{
	void *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static uint32_t page_state(const struct csf_thread_page *p)
{
	return __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
}

/* Whether the threads/ directory lists @tid. */
static int listed(pid_t tid)
{
	DIR *d = opendir(vm_path("threads"));
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (atoi(e->d_name) == tid)
			found = 1;
	closedir(d);
	return found;
}

/* A registered thread that exits when told to. */
struct parked {
	pthread_barrier_t registered, release;
	pid_t tid;
	uint64_t registered_at;
	int err;
};

static void *park(void *arg)
{
	struct parked *t = arg;
	const struct csf_thread_page *p;
	int fd = open(vm_path("thread-self"), O_RDONLY | O_CLOEXEC);

	t->tid = gettid();
	p = fd >= 0 ? map_fd(fd) : NULL;
	if (!p)
		t->err = errno;
	else
		t->registered_at = p->registered_at;
	if (fd >= 0)
		close(fd);
	pthread_barrier_wait(&t->registered);
	pthread_barrier_wait(&t->release);
	if (p)
		munmap((void *)p, PAGE);
	return NULL;
}

/*
 * A thread registers; we open threads/<tid> (the open file pins its
 * dentry) and map it; the thread exits.  Returns the fd, the mapping
 * through *pagep and the tid.
 */
static int pin_exited_thread(const struct csf_thread_page **pagep,
			     struct parked *t)
{
	const struct csf_thread_page *p;
	pthread_t th;
	int fd, waited;

	memset(t, 0, sizeof(*t));
	pthread_barrier_init(&t->registered, NULL, 2);
	pthread_barrier_init(&t->release, NULL, 2);
	ck_assert_int_eq(pthread_create(&th, NULL, park, t), 0);
	pthread_barrier_wait(&t->registered);
	ck_assert_msg(!t->err, "registering: %s", strerror(t->err));

	fd = open(vm_thread_path(t->tid), O_RDONLY | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", vm_thread_path(t->tid),
		      strerror(errno));
	p = map_fd(fd);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->tid, (uint32_t)t->tid);
	ck_assert_uint_eq(p->registered_at, t->registered_at);

	pthread_barrier_wait(&t->release);
	pthread_join(th, NULL);
	/* The exit is recorded a moment after join returns (see test_thread_exit). */
	for (waited = 0; page_state(p) != CSF_STATE_EXITED && waited < 2000;
	     waited += 5)
		vm_sleep_ms(5);
	ck_assert_msg(page_state(p) == CSF_STATE_EXITED,
		      "page of %d never read exited", t->tid);
	*pagep = p;
	return fd;
}

START_TEST(exited_name_is_gone_while_pinned)
{
	const struct csf_thread_page *p;
	struct parked t;
	struct stat st;
	int fd;

	fd = pin_exited_thread(&p, &t);
	errno = 0;
	ck_assert_msg(stat(vm_thread_path(t.tid), &st) < 0 && errno == ENOENT,
		      "stat %s of an exited thread: %s", vm_thread_path(t.tid),
		      errno ? strerror(errno) : "succeeded");
	errno = 0;
	ck_assert_msg(access(vm_thread_path(t.tid), R_OK) < 0 && errno == ENOENT,
		      "access %s of an exited thread: %s", vm_thread_path(t.tid),
		      errno ? strerror(errno) : "succeeded");
	ck_assert_msg(open(vm_thread_path(t.tid), O_RDONLY) < 0 && errno == ENOENT,
		      "open %s of an exited thread: %s", vm_thread_path(t.tid),
		      strerror(errno));
	ck_assert_int_eq(listed(t.tid), 0);

	/* Who mapped it keeps a valid page. */
	ck_assert_uint_eq(p->magic, CSF_THREAD_MAGIC);
	ck_assert_uint_eq(p->tid, (uint32_t)t.tid);
	ck_assert_int_eq(fstat(fd, &st), 0);
	munmap((void *)p, PAGE);
	close(fd);
}
END_TEST

/* What the clone3() child with the reused tid needs, set before the clone. */
struct reuse {
	pid_t tid;
	int ready[2], go[2];
	char self[256], path[256];
	uint64_t registered_at;		/* its page's, for the parent */
};

/*
 * The child of a raw clone3() shares nothing with glibc's idea of its
 * threads, so it makes raw system calls only (glibc's setuid() would
 * signal threads it thinks it has).  Exit status: 0, or the failed check.
 */
static int reuser(struct reuse *r)
{
	const struct csf_thread_page *own, *named;
	int fd;
	char c = 0;

	if (syscall(SYS_setgroups, 0, NULL) ||
	    syscall(SYS_setresgid, VM_NOBODY, VM_NOBODY, VM_NOBODY) ||
	    syscall(SYS_setresuid, VM_NOBODY, VM_NOBODY, VM_NOBODY) ||
	    syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0))
		return 10;
	if (syscall(SYS_gettid) != r->tid)
		return 11;
	fd = open(r->self, O_RDONLY);
	if (fd < 0)
		return 12;
	own = map_fd(fd);
	close(fd);
	if (!own || own->tid != (uint32_t)r->tid)
		return 13;
	/* Its own page by name: the stale entry said EACCES here. */
	fd = open(r->path, O_RDONLY);
	if (fd < 0)
		return errno == EACCES ? 14 : 15;
	named = map_fd(fd);
	close(fd);
	if (!named || named->registered_at != own->registered_at)
		return 16;
	r->registered_at = own->registered_at;
	if (write(r->ready[1], &r->registered_at, sizeof(r->registered_at)) !=
	    sizeof(r->registered_at))
		return 17;
	if (read(r->go[0], &c, 1) != 1)
		return 18;
	return 0;
}

static pid_t clone_with_tid(pid_t tid)
{
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uintptr_t)&tid;
	args.set_tid_size = 1;
	return syscall(SYS_clone3, &args, sizeof(args));
}

START_TEST(reused_tid_names_the_new_thread)
{
	const struct csf_thread_page *old, *now;
	struct reuse r;
	struct parked t;
	struct stat st;
	uint64_t child_at;
	int fd, fd2, status, tries;
	pid_t pid;

	fd = pin_exited_thread(&old, &t);
	memset(&r, 0, sizeof(r));
	r.tid = t.tid;
	snprintf(r.self, sizeof(r.self), "%s", vm_path("thread-self"));
	snprintf(r.path, sizeof(r.path), "%s", vm_thread_path(t.tid));
	ck_assert_int_eq(pipe(r.ready), 0);
	ck_assert_int_eq(pipe(r.go), 0);

	/* The tid is free once the exited thread is released: soon. */
	for (tries = 0; (pid = clone_with_tid(t.tid)) < 0 && errno == EEXIST &&
			tries < 400; tries++)
		vm_sleep_ms(5);
	ck_assert_msg(pid >= 0, "clone3 with set_tid %d: %s", t.tid,
		      strerror(errno));
	if (pid == 0)
		syscall(SYS_exit_group, reuser(&r));
	close(r.ready[1]);
	close(r.go[0]);

	if (read(r.ready[0], &child_at, sizeof(child_at)) != sizeof(child_at)) {
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_abort_msg("uid %d's thread with the reused tid %d failed check %d (14: EACCES on its own threads/<tid>)",
			     VM_NOBODY, t.tid,
			     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}

	/* Root sees the new thread under the name, with its owner. */
	ck_assert_int_eq(stat(vm_thread_path(t.tid), &st), 0);
	ck_assert_uint_eq(st.st_uid, VM_NOBODY);
	ck_assert_uint_eq(st.st_gid, VM_NOBODY);
	fd2 = open(vm_thread_path(t.tid), O_RDONLY | O_CLOEXEC);
	ck_assert_msg(fd2 >= 0, "root: open %s of the new thread: %s",
		      vm_thread_path(t.tid), strerror(errno));
	now = map_fd(fd2);
	ck_assert_ptr_nonnull(now);
	ck_assert_uint_eq(now->tid, (uint32_t)t.tid);
	ck_assert_uint_eq(now->registered_at, child_at);
	ck_assert_uint_ne(now->registered_at, old->registered_at);
	ck_assert_uint_ne(page_state(now), CSF_STATE_EXITED);
	ck_assert_int_eq(listed(t.tid), 1);

	/* The old file still is the old thread's, with its owner. */
	ck_assert_uint_eq(page_state(old), CSF_STATE_EXITED);
	ck_assert_uint_eq(old->registered_at, t.registered_at);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_uint_eq(st.st_uid, 0);

	ck_assert_int_eq(write(r.go[1], "x", 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "reused-tid child: status %#x", status);
	munmap((void *)now, PAGE);
	munmap((void *)old, PAGE);
	close(fd2);
	close(fd);
	close(r.ready[0]);
	close(r.go[1]);
}
END_TEST

/*
 * After execve() from a non-leader thread, in the new image (main() below):
 * the same registration, under the leader's tid which the thread now has.
 * Exit status: 0, or the failed check.
 */
static int after_exec(char **argv)
{
	const struct csf_thread_page *p, *named;
	pid_t old = atoi(argv[2]), pid = getpid();
	uint64_t at = strtoull(argv[3], NULL, 10);
	struct stat st;
	int fd;

	if (gettid() != pid || old == pid)
		return 2;
	/* A second open of thread-self gives the page it registered. */
	fd = open(vm_path("thread-self"), O_RDONLY);
	if (fd < 0)
		return 3;
	p = map_fd(fd);
	close(fd);
	if (!p || p->registered_at != at)
		return 4;
	if (p->tid != (uint32_t)pid)
		return 5;
	if (page_state(p) == CSF_STATE_EXITED)
		return 6;
	if (listed(pid) != 1)
		return 7;
	if (listed(old) != 0)
		return 8;
	if (stat(vm_thread_path(old), &st) == 0)
		return 9;
	/* The leader registered too and has exited: the name is ours now. */
	fd = open(vm_thread_path(pid), O_RDONLY);
	if (fd < 0)
		return 10;
	named = map_fd(fd);
	close(fd);
	if (!named || named->registered_at != at)
		return 11;
	return 0;
}

static void *exec_from_thread(void *arg)
{
	char tid[16], at[32];
	const struct csf_thread_page *p;
	int fd = open(vm_path("thread-self"), O_RDONLY | O_CLOEXEC);

	(void)arg;
	p = fd >= 0 ? map_fd(fd) : NULL;
	if (!p)
		_exit(20);
	snprintf(tid, sizeof(tid), "%d", gettid());
	snprintf(at, sizeof(at), "%llu",
		 (unsigned long long)p->registered_at);
	execl("/proc/self/exe", "test_thread_names", "--after-exec", tid, at,
	      (char *)NULL);
	_exit(21);
}

START_TEST(exec_from_thread_takes_the_leader_tid)
{
	static const char *const what[] = {
		[2] = "not the leader after exec",
		[3] = "thread-self does not open",
		[4] = "not the same registration",
		[5] = "the page keeps the old tid",
		[6] = "the page reads exited",
		[7] = "threads/ does not list the new tid",
		[8] = "threads/ still lists the old tid",
		[9] = "threads/<old tid> still resolves",
		[10] = "threads/<new tid> does not open",
		[11] = "threads/<new tid> is another page",
		[20] = "registering before exec",
		[21] = "execl",
	};
	int status, code;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pthread_t th;
		int fd = open(vm_path("thread-self"), O_RDONLY | O_CLOEXEC);

		if (fd < 0 || !map_fd(fd))
			_exit(22);
		if (pthread_create(&th, NULL, exec_from_thread, NULL))
			_exit(23);
		for (;;)
			pause();	/* de_thread() ends us */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status), "exec'd process: status %#x", status);
	code = WEXITSTATUS(status);
	ck_assert_msg(code == 0, "after exec from a non-leader thread: check %d: %s",
		      code, code < (int)(sizeof(what) / sizeof(what[0])) &&
		      what[code] ? what[code] : "?");
}
END_TEST

int main(int argc, char **argv)
{
	const TTest *const tests[] = {
		exited_name_is_gone_while_pinned,
		reused_tid_names_the_new_thread,
		exec_from_thread_takes_the_leader_tid,
		NULL,
	};

	if (argc == 4 && !strcmp(argv[1], "--after-exec"))
		return after_exec(argv);
	return vm_run_tests("thread_names", tests);
}
