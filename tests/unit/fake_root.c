// SPDX-License-Identifier: MIT
/*
 * fake_root.c - page-shaped files for the host unit tests.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fake_root.h"

static char fake_base[4096];

static void die(const char *what)
{
	fprintf(stderr, "fake_root: %s: %s\n", what, strerror(errno));
	abort();
}

uint64_t fake_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

pid_t fake_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

const char *fake_root_new(void)
{
	static char root[4096];
	char threads[4200];

	if (snprintf(root, sizeof(root), "%s/root.XXXXXX", fake_base) >=
	    (int)sizeof(root) || !mkdtemp(root))
		die("mkdtemp");
	/* traversable by the unprivileged uid of the EACCES test */
	if (chmod(root, 0755))
		die("chmod");
	if (snprintf(threads, sizeof(threads), "%s/threads", root) >=
	    (int)sizeof(threads) || mkdir(threads, 0755))
		die("mkdir threads");
	if (setenv("CSF_ROOT", root, 1))
		die("setenv");
	return root;
}

void fake_cpu_header(struct csf_cpu_header *h, uint32_t nr_cpus,
		     uint32_t clock)
{
	memset(h, 0, sizeof(*h));
	h->magic = CSF_CPU_MAGIC;
	h->abi_major = CSF_ABI_MAJOR;
	h->abi_minor = CSF_ABI_MINOR;
	h->header_size = sizeof(struct csf_cpu_header);
	h->record_size = sizeof(struct csf_cpu_record);
	h->nr_cpus = nr_cpus;
	h->clock = clock;
	h->clock_hz = 1000000000u;
	h->clock_mult = 1;
	h->clock_shift = 0;
	h->max_threads = 1024;
	h->generation = 1;
	h->stat_period_ns = 1000000000u;
}

static void write_file(const char *root, const char *name, const void *buf,
		       size_t len)
{
	char tmp[4200], path[4200];
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", root, name) >=
	    (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		die("path too long");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(tmp);
	if (write(fd, buf, len) != (ssize_t)len)
		die("write");
	close(fd);
	if (rename(tmp, path))
		die("rename");
}

void fake_update_thread(const char *root, const char *name,
			const struct csf_thread_page *p)
{
	char path[4200];
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", root, name) >=
	    (int)sizeof(path))
		die("path too long");
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	if (pwrite(fd, p, sizeof(*p), 0) != (ssize_t)sizeof(*p))
		die("pwrite");
	close(fd);
}

static size_t page_round(size_t len)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);

	return (len + ps - 1) / ps * ps;
}

void fake_write_cpu(const char *root, const struct csf_cpu_header *h,
		    const struct csf_cpu_record *recs)
{
	size_t len = page_round(h->header_size +
				(size_t)h->nr_cpus * h->record_size);
	unsigned char *buf = malloc(len);
	unsigned int i;

	if (!buf)
		die("malloc");
	memset(buf, 0xee, len);
	memcpy(buf, h, sizeof(*h));
	for (i = 0; i < h->nr_cpus; i++) {
		unsigned char *r = buf + h->header_size +
				   (size_t)i * h->record_size;

		if (recs)
			memcpy(r, &recs[i], sizeof(*recs));
		else
			memset(r, 0, sizeof(*recs));
	}
	write_file(root, "cpu", buf, len);
	free(buf);
}

void fake_thread_page(struct csf_thread_page *p, uint32_t tid)
{
	memset(p, 0, sizeof(*p));
	p->magic = CSF_THREAD_MAGIC;
	p->abi_major = CSF_ABI_MAJOR;
	p->abi_minor = CSF_ABI_MINOR;
	p->state = CSF_STATE_RUNNING;
	p->state_since = fake_mono_ns();
	p->registered_at = p->state_since;
	p->clock = CSF_CLOCK_MONO;
	p->tid = tid;
	p->tgid = (uint32_t)getpid();
	p->cpu = 1;
	strcpy(p->comm, "fake");
}

void fake_write_thread(const char *root, const char *name,
		       const struct csf_thread_page *p)
{
	size_t len = page_round(sizeof(*p));
	unsigned char *buf = calloc(1, len);

	if (!buf)
		die("calloc");
	memcpy(buf, p, sizeof(*p));
	write_file(root, name, buf, len);
	free(buf);
}

const char *fake_root_default(void)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;
	struct csf_thread_page p;

	fake_cpu_header(&h, 2, CSF_CLOCK_MONO);
	fake_write_cpu(root, &h, NULL);
	fake_thread_page(&p, (uint32_t)fake_gettid());
	fake_write_thread(root, "thread-self", &p);
	return root;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int fake_run(Suite *s)
{
	const char *tmp = getenv("TMPDIR");
	SRunner *sr;
	int failed;

	snprintf(fake_base, sizeof(fake_base), "%s/csf-unit.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fake_base))
		die("mkdtemp");
	if (chmod(fake_base, 0755))
		die("chmod");

	sr = srunner_create(s);
	/* the library keeps per-process state: one process per test */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);

	nftw(fake_base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
