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
#include <sys/stat.h>
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

/*
 * Map @len bytes of "$root/@name" read-only and shared.  A file shorter
 * than the mapping is refused (-EPROTO): mmap would succeed, and the first
 * read of a page past its end would be a SIGBUS.  The module's files are
 * as long as their mappings (i_size), so this only refuses what CSF_ROOT
 * may point at: a truncated copy, an empty file, a header that claims
 * more CPUs than the file holds (found by tests/fuzz/fuzz_cpu_page).
 */
int csf_map_file(const char *name, size_t len, const void **out)
{
	char path[4096];
	struct stat st;
	void *p;
	int fd, err;

	err = csf_path(path, sizeof(path), name);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < len) {
		close(fd);
		/* before any header was read: not pages of ours at all */
		if (!csf_seen_abi_major)
			csf_seen_abi_major = -1;
		return -EPROTO;
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	if (p == MAP_FAILED)
		return -err;
	*out = p;
	return 0;
}
