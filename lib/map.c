// SPDX-License-Identifier: MIT
/*
 * map.c - mapping files of the filesystem: open, mmap read-only, close.
 * The fd is not kept: a mapping holds its own reference to the page.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* "$root/@name" into @buf; 0 or -ENAMETOOLONG. */
int csf_path(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", csf_root(), name);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Map @len bytes of "$root/@name" read-only and shared. */
int csf_map_file(const char *name, size_t len, const void **out)
{
	char path[4096];
	void *p;
	int fd, err;

	err = csf_path(path, sizeof(path), name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	if (p == MAP_FAILED)
		return -err;
	*out = p;
	return 0;
}

/*
 * A thread page we can read: the magic says it is one, the major says we
 * know its layout.  Any minor is fine: later minors only add fields we do
 * not read.
 */
int csf_thread_page_check(const struct csf_thread_page *page)
{
	if (page->magic != CSF_THREAD_MAGIC) {
		csf_seen_abi_major = -1;
		return -EPROTO;
	}
	if (page->abi_major != CSF_ABI_MAJOR) {
		csf_seen_abi_major = page->abi_major;
		return -EPROTO;
	}
	return 0;
}
