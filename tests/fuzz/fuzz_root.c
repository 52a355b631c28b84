// SPDX-License-Identifier: MIT
/*
 * fuzz_root.c - the fake root of the fuzz targets (see fuzz.h).  Not
 * tests/unit/fake_root.c: that one is built on libcheck's assertions and
 * its fork-per-test model, a fuzz target is one process for millions of
 * inputs.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coarse_stat_fs_abi.h"
#include "fuzz.h"

static char root[4096];

void fuzz_fail(const char *file, int line, const char *what)
{
	/* fd 2, not stderr: fuzz_csftop_args points stderr at /dev/null */
	dprintf(2, "%s:%d: check failed: %s\n", file, line, what);
	abort();
}

static void fuzz_root_remove(void)
{
	char cmd[4200];

	/* the root holds only what these targets wrote: cpu, threads/<tid> */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", root);
}

const char *fuzz_root_init(void)
{
	const char *tmp = getenv("TMPDIR");
	char threads[4200];

	/*
	 * Every input rewrites a file and maps it: on tmpfs that is a few
	 * microseconds, on a disk's file system ten times more.
	 */
	if (access("/dev/shm", W_OK) == 0)
		tmp = "/dev/shm";
	else if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(root, sizeof(root), "%s/csf-fuzz.XXXXXX", tmp);
	if (!mkdtemp(root))
		fuzz_fail(__FILE__, __LINE__, "mkdtemp");
	snprintf(threads, sizeof(threads), "%s/threads", root);
	if (mkdir(threads, 0755))
		fuzz_fail(__FILE__, __LINE__, "mkdir threads");
	setenv("CSF_ROOT", root, 1);
	atexit(fuzz_root_remove);
	return root;
}

void fuzz_root_write(const char *name, const void *data, size_t len)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, 0) ||
	    (len && pwrite(fd, data, len, 0) != (ssize_t)len))
		fuzz_fail(__FILE__, __LINE__, "write a file of the root");
	close(fd);
}

void fuzz_root_cpu(uint32_t nr_cpus)
{
	size_t len = sizeof(struct csf_cpu_header) +
		     nr_cpus * sizeof(struct csf_cpu_record);
	long ps = sysconf(_SC_PAGESIZE);
	struct csf_cpu_header *h;
	unsigned char *buf;

	if (ps > 0 && len < (size_t)ps)
		len = (size_t)ps;
	buf = calloc(1, len);
	if (!buf)
		fuzz_fail(__FILE__, __LINE__, "calloc");
	h = (void *)buf;
	h->magic = CSF_CPU_MAGIC;
	h->abi_major = CSF_ABI_MAJOR;
	h->abi_minor = CSF_ABI_MINOR;
	h->header_size = sizeof(*h);
	h->record_size = sizeof(struct csf_cpu_record);
	h->nr_cpus = nr_cpus;
	h->clock = CSF_CLOCK_MONO;
	h->clock_hz = 1000000000;
	h->clock_mult = 1;
	h->clock_shift = 0;
	fuzz_root_write("cpu", buf, len);
	free(buf);
}
