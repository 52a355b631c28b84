// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cputime.c - run a command with its output discarded and print the CPU
 * time it used: "USER_US SYS_US STATUS".  wait4()'s rusage counts exactly
 * that child, with microsecond resolution, the same under busybox and bash
 * (whose time and times builtins print differently).
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: cputime COMMAND [ARG]...\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 1;
	}
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("cputime: wait4");
		return 1;
	}
	printf("%lld %lld %d\n",
	       (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
	       (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
