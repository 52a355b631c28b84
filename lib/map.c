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

uint64_t csf_seq_timeout_ns = CSF_SEQ_TIMEOUT_NS;

/*
 * The first wait of a read only sets the deadline: a writer caught in the
 * middle is the common case and is gone after one pause.  The clock is
 * read once per wait, which is nothing next to a pause on a record that
 * stays busy.
 */
int csf_seq_wait(uint64_t *deadline_ns)
{
	uint64_t now = csf_mono_ns();

	if (!*deadline_ns) {
		*deadline_ns = now + __atomic_load_n(&csf_seq_timeout_ns,
						     __ATOMIC_RELAXED);
		/* 0 is "not set yet": a timeout of 0 must still expire */
		if (!*deadline_ns)
			*deadline_ns = 1;
	} else if (now >= *deadline_ns) {
		return -EAGAIN;
	}
	csf_cpu_relax();
	return 0;
}
