// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spawn.c - run a command with its whole tree registered.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "i18n.h"
#include "spawn.h"

static int redirect(enum command_io io)
{
	int fd;

	if (io == COMMAND_IO_KEEP)
		return 0;
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0 || dup2(fd, 0) < 0 ||
	    dup2(io == COMMAND_IO_NULL ? fd : 2, 1) < 0 ||
	    (io == COMMAND_IO_NULL && dup2(fd, 2) < 0))
		return -errno;
	close(fd);
	return 0;
}

static void child(const struct command *cmd, int ready, int go)
{
	int err = redirect(cmd->io);
	char c;

	if (!err)
		err = csf_attach(getpid(), CSF_ATTACH_INHERIT);

	if (write(ready, &err, sizeof(err)) != sizeof(err) || err ||
	    read(go, &c, 1) != 1)
		_exit(125);
	execvp(cmd->argv[0], cmd->argv);
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

int command_start(struct command *c)
{
	int ready[2], go[2], err = 0, r;
	pid_t p;

	c->exited = 0;
	c->root = NULL;
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
		child(c, ready[1], go[0]);
	}
	close(ready[1]);
	ready[1] = -1;
	close(go[0]);
	go[0] = -1;

	r = read_int(ready[0], &err);
	if (r <= 0)
		err = r < 0 ? r : -EPIPE;
	if (!err)
		err = csf_thread_map(p, &c->root);
	if (!err && write(go[1], "", 1) != 1)
		err = -errno;
	if (err)
		goto out_kill;
	close(go[1]);
	go[1] = -1;
	r = read_int(ready[0], &err);
	if (r < 0) {
		err = r;
		goto out_kill;
	}
	if (r) {
		/* the exec failed: the child says why and exits */
		reap(p);
		goto out_unmap;
	}
	c->pid = p;
	goto out_go;

out_kill:
	kill(p, SIGKILL);
	reap(p);
out_unmap:
	csf_thread_unmap(c->root);
	c->root = NULL;
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

int command_poll(struct command *c, int wait)
{
	pid_t r;

	if (c->exited)
		return 1;
	do
		r = waitpid(c->pid, &c->wstatus, wait ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	c->exited = r == c->pid;
	return c->exited;
}

int command_status(const struct command *c)
{
	if (!c->exited)
		return 0;
	if (WIFSIGNALED(c->wstatus))
		return 128 + WTERMSIG(c->wstatus);
	return WEXITSTATUS(c->wstatus);
}

void command_report(FILE *f, const char *prog, const struct command *c,
		    const struct csf_tree *t)
{
	char line[CSF_DIFF_BUFSZ];

	if (!c->exited)
		fprintf(f, _("%s: %s (pid %d) is still running\n"), prog,
			c->argv[0], (int)c->pid);
	else if (WIFSIGNALED(c->wstatus))
		fprintf(f, _("%s: %s (pid %d) was killed by signal %d (%s)\n"),
			prog, c->argv[0], (int)c->pid, WTERMSIG(c->wstatus),
			strsignal(WTERMSIG(c->wstatus)));
	else
		fprintf(f, _("%s: %s (pid %d) exited with status %d\n"), prog,
			c->argv[0], (int)c->pid, WEXITSTATUS(c->wstatus));
	csf_format_tree(line, sizeof(line), t);
	fprintf(f, "%s\n", line);
}

void command_close(struct command *c)
{
	csf_thread_unmap(c->root);
	c->root = NULL;
}
