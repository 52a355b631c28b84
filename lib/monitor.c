// SPDX-License-Identifier: MIT
/*
 * monitor.c - other threads' pages: list the registered threads, map one,
 * read it with the same sequence-counter copy as the thread's own snapshot.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* A tid as the kernel writes it: decimal digits, no sign, no leading 0. */
static int csf_parse_tid(const char *name, pid_t *tid)
{
	unsigned long v = 0;
	const char *c;

	if (name[0] < '1' || name[0] > '9')
		return 0;
	for (c = name; *c; c++) {
		if (*c < '0' || *c > '9')
			return 0;
		v = v * 10 + (unsigned long)(*c - '0');
		if (v > INT_MAX)
			return 0;
	}
	*tid = (pid_t)v;
	return 1;
}

static int csf_tid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * All tids are collected and sorted before any is returned, so that a
 * short array gets the smallest ones and a second call with a larger array
 * extends the same order.
 */
CSF_PUBLIC int csf_threads_list(pid_t *tids, size_t max)
{
	char path[4096];
	struct dirent *de;
	pid_t *all = NULL, tid;
	size_t n = 0, cap = 0;
	DIR *dir;
	int err;

	err = csf_path(path, sizeof(path), "threads");
	if (err)
		return err;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((errno = 0, de = readdir(dir))) {
		if (!csf_parse_tid(de->d_name, &tid))
			continue;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 256;
			pid_t *p = realloc(all, ncap * sizeof(*all));

			if (!p) {
				err = -ENOMEM;
				goto out;
			}
			all = p;
			cap = ncap;
		}
		all[n++] = tid;
	}
	if (errno) {
		err = -errno;
		goto out;
	}
	if (n > INT_MAX) {
		err = -EOVERFLOW;
		goto out;
	}
	/*
	 * With no thread, all is NULL, and qsort() and memcpy() take no NULL
	 * even for 0 elements (UBSan's nonnull-attribute, --enable-sanitizers).
	 */
	if (n) {
		qsort(all, n, sizeof(*all), csf_tid_cmp);
		if (tids && max)
			memcpy(tids, all, (n < max ? n : max) * sizeof(*all));
	}
	err = (int)n;
out:
	free(all);
	closedir(dir);
	return err;
}

CSF_PUBLIC int csf_thread_map(pid_t tid, struct csf_thread_map **out)
{
	struct csf_thread_map *map;
	char name[32];
	const void *p;
	int err;

	if (tid <= 0 || !out)
		return -EINVAL;
	/* for the clock csf_thread_read() extrapolates with */
	err = csf_cpu_init();
	if (err)
		return err;
	map = malloc(sizeof(*map));
	if (!map)
		return -ENOMEM;
	snprintf(name, sizeof(name), "threads/%d", (int)tid);
	err = csf_map_file(name, csf_page_size, &p);
	if (err)
		goto out_free;
	err = csf_thread_page_check(p);
	if (err) {
		munmap((void *)p, csf_page_size);
		goto out_free;
	}
	map->page = p;
	map->len = csf_page_size;
	*out = map;
	return 0;

out_free:
	free(map);
	return err;
}

CSF_PUBLIC int csf_thread_read(const struct csf_thread_map *map,
			       struct csf_snap *snap)
{
	if (!map)
		return -EINVAL;
	return csf_page_read(map->page, snap);
}

/*
 * The parts are converted as running sums, as csf_snap_delta() does, so
 * that they add up to the converted sum.
 */
CSF_PUBLIC int csf_thread_read_tree(const struct csf_thread_map *map,
				    struct csf_tree *tree)
{
	uint64_t *part[CSF_NR_STATES] = {
		&tree->run_ns, &tree->runnable_ns, &tree->sleep_ns,
		&tree->iowait_ns, &tree->blocked_ns,
	};
	uint64_t now, end, sum_ticks = 0, sum_ns, prev_ns = 0;
	struct csf_tree_totals tt;
	unsigned int i;
	int err;

	if (!map)
		return -EINVAL;
	err = csf_page_read_tree(map->page, &tt, &now);
	if (err)
		return err;
	memset(tree, 0, sizeof(*tree));
	for (i = 0; i < CSF_NR_STATES; i++) {
		sum_ticks += tt.time[i];
		sum_ns = csf_ticks_to_ns(sum_ticks);
		*part[i] = sum_ns - prev_ns;
		prev_ns = sum_ns;
	}
	tree->running = tt.nr_members - tt.nr_exited;
	end = tree->running ? now : tt.last_exit;
	tree->wall_ns = end > tt.began ? csf_ticks_to_ns(end - tt.began) : 0;
	tree->nvcsw = tt.nvcsw;
	tree->nivcsw = tt.nivcsw;
	tree->wakeups = tt.wakeups;
	tree->migrations = tt.migrations;
	tree->threads = tt.nr_members;
	tree->processes = tt.nr_processes;
	tree->missed = tt.nr_missed;
	tree->root = map->page->tree_root;
	return 0;
}

CSF_PUBLIC uint32_t csf_thread_tree(const struct csf_thread_map *map)
{
	if (!map || !csf_page_has(map->page, CSF_ABI_TREE))
		return 0;
	/* one aligned word, written once: no sequence count needed */
	return __atomic_load_n(&map->page->tree_root, __ATOMIC_RELAXED);
}

CSF_PUBLIC void csf_thread_prefetch(const struct csf_thread_map *map)
{
	const char *p;

	if (!map)
		return;
	/* the lines csf_page_read() copies; 64 is the x86 and arm64 line */
	p = (const char *)map->page;
	for (size_t off = 0; off < offsetof(struct csf_thread_page, reserved);
	     off += 64)
		__builtin_prefetch(p + off);
}

CSF_PUBLIC void csf_thread_unmap(struct csf_thread_map *map)
{
	if (!map)
		return;
	munmap((void *)map->page, map->len);
	free(map);
}

/*
 * One request, one write: the module answers each with the errno of the
 * whole request.  A root without the attach file is a module older than
 * ABI 1.2 (or a copy of the pages, as the tests make).
 */
static int attach_request(const char *req)
{
	char path[4096];
	struct stat st;
	size_t n = strlen(req);
	int fd, err;

	err = csf_path(path, sizeof(path), CSF_ATTACH_FILE);
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err == -ENOENT && !csf_path(path, sizeof(path), "cpu") &&
		    !stat(path, &st))
			err = -EOPNOTSUPP;
		return err;
	}
	err = write(fd, req, n) == (ssize_t)n ? 0 : -errno;
	close(fd);
	return err;
}

CSF_PUBLIC int csf_attach(pid_t pid, unsigned int flags)
{
	char req[48];

	if (pid <= 0 || (flags & ~(CSF_ATTACH_THREAD | CSF_ATTACH_INHERIT)))
		return -EINVAL;
	snprintf(req, sizeof(req), "%d%s%s\n", (int)pid,
		 flags & CSF_ATTACH_THREAD ? " thread" : "",
		 flags & CSF_ATTACH_INHERIT ? " inherit" : "");
	return attach_request(req);
}

/* The request is well formed: a module that refuses it predates 1.4. */
CSF_PUBLIC int csf_attach_all(void)
{
	int err = attach_request("all\n");

	return err == -EINVAL ? -EOPNOTSUPP : err;
}
