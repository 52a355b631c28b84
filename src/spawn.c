// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spawn.c - start a command with its whole tree registered.
 *
 * The child registers itself with inherit and waits; the parent maps its
 * page, whose tree totals outlive it, and only then lets it exec: so the
 * command is registered from its first instruction, and every thread and
 * process it creates from their creation.  Two close-on-exec pipes carry
 * the handshake: the child's registration result, the parent's go, and
 * the errno of a failed exec (end of file: the exec happened).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "spawn.h"

static void child(char *const argv[], int ready, int go)
{
	int err = csf_attach(getpid(), CSF_ATTACH_INHERIT);
	char c;

	if (write(ready, &err, sizeof(err)) != sizeof(err) || err ||
	    read(go, &c, 1) != 1)
		_exit(125);
	execvp(argv[0], argv);
	err = errno;
	if (write(ready, &err, sizeof(err)) != sizeof(err))
		_exit(125);
	_exit(err == ENOENT ? 127 : 126);
}

/* Read one int from @fd: 1, 0 at end of file, or -errno. */
static int read_int(int fd, int *v)
{
	ssize_t n;

	do
		n = read(fd, v, sizeof(*v));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == sizeof(*v);
}

static void reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int spawn_start(char *const argv[], pid_t *pid, struct csf_thread_map **root)
{
	int ready[2], go[2], err = 0, r;
	pid_t p;

	if (pipe2(ready, O_CLOEXEC))
		return -errno;
	if (pipe2(go, O_CLOEXEC)) {
		err = -errno;
		goto out_ready;
	}
	p = fork();
	if (p < 0) {
		err = -errno;
		goto out_go;
	}
	if (!p) {
		close(ready[0]);
		close(go[1]);
		child(argv, ready[1], go[0]);
	}
	close(ready[1]);
	ready[1] = -1;
	close(go[0]);
	go[0] = -1;

	r = read_int(ready[0], &err);
	if (r <= 0)
		err = r < 0 ? r : -EPIPE;
	if (!err)
		err = csf_thread_map(p, root);
	if (err) {
		kill(p, SIGKILL);
		reap(p);
		goto out_go;
	}
	if (write(go[1], "", 1) != 1) {
		err = -errno;
		csf_thread_unmap(*root);
		kill(p, SIGKILL);
		reap(p);
		goto out_go;
	}
	close(go[1]);
	go[1] = -1;
	r = read_int(ready[0], &err);
	if (r) {
		/* the exec failed (and the child is exiting), or the pipe */
		err = r < 0 ? -r : err;
		csf_thread_unmap(*root);
		reap(p);
		goto out_go;
	}
	*pid = p;
out_go:
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
out_ready:
	close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
	return err;
}

int spawn_status(int wstatus)
{
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return WEXITSTATUS(wstatus);
}
