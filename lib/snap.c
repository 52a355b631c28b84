// SPDX-License-Identifier: MIT
/*
 * snap.c - csf_thread_snap(): the calling thread's page.
 *
 * The hot path is a thread-local pointer test and csf_page_read(): one
 * sequence-counter copy and one clock read, no system call, no lock, no
 * allocation.  Everything else (registration, thread exit, fork) is the
 * slow path below it.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>

#include "internal.h"

/*
 * initial-exec: a fixed offset from the thread pointer instead of a
 * __tls_get_addr() call on every snapshot.  One pointer fits the static
 * TLS surplus glibc reserves for libraries, even when dlopen()ed.
 */
static __thread const struct csf_thread_page *csf_self
	__attribute__((tls_model("initial-exec")));

static pthread_key_t csf_self_key;
static pthread_once_t csf_self_once = PTHREAD_ONCE_INIT;
static int csf_self_once_err;

/* out of line: its registers and stack stay out of the hot path */
static int csf_self_register(void) __attribute__((noinline, cold));

/* Everything but one good read of a registered thread's TSC page. */
static int csf_thread_snap_slow(struct csf_snap *snap)
	__attribute__((noinline, cold));

/*
 * One attempt inline, the rest out of line, so that the common case is a
 * short function that saves no registers (bench_snap).
 */
CSF_PUBLIC int csf_thread_snap(struct csf_snap *snap)
{
	const struct csf_thread_page *page = csf_self;

	if (csf_likely(page) && !csf_page_read_once(page, snap))
		return 0;
	return csf_thread_snap_slow(snap);
}

static int csf_thread_snap_slow(struct csf_snap *snap)
{
	if (!csf_self) {
		int err = csf_self_register();

		if (err)
			return err;
	}
	return csf_page_read(csf_self, snap);
}

const struct csf_thread_page *csf_self_mapped(void)
{
	return csf_self;
}

CSF_PUBLIC int csf_thread_hist(struct csf_hist *h)
{
	if (!csf_self) {
		int err = csf_self_register();

		if (err)
			return err;
	}
	return csf_page_read_hist(csf_self, h);
}

/* Thread exit: the mapping is ours to drop; the kernel page lives on. */
static void csf_self_destroy(void *page)
{
	csf_self = NULL;
	munmap(page, csf_page_size);
}

/*
 * fork: the child does not inherit thread pages (the module sets
 * VM_DONTCOPY, and we ask for MADV_DONTFORK too), so the pointer the
 * calling thread's TLS carried into the child points at nothing, and the
 * destructor must not unmap whatever lands at that address later.
 */
static void csf_self_atfork_child(void)
{
	csf_self = NULL;
	pthread_setspecific(csf_self_key, NULL);
}

static void csf_self_setup(void)
{
	csf_self_once_err = pthread_key_create(&csf_self_key,
					       csf_self_destroy);
	if (!csf_self_once_err)
		csf_self_once_err = pthread_atfork(NULL, NULL,
						   csf_self_atfork_child);
}

static int csf_self_register(void)
{
	const void *p;
	int err;

	err = csf_cpu_init();
	if (err)
		return err;
	pthread_once(&csf_self_once, csf_self_setup);
	if (csf_self_once_err)
		return -csf_self_once_err;

	/* opening thread-self is what registers the thread */
	err = csf_map_file("thread-self", csf_page_size, &p);
	if (err)
		return err;
	err = csf_thread_page_check(p);
	if (err)
		goto out_unmap;
	/*
	 * Belt and braces for kernels (and test files) without VM_DONTCOPY:
	 * a child reading its parent's page would get plausible wrong
	 * numbers, which is worse than a fault.
	 */
	madvise((void *)p, csf_page_size, MADV_DONTFORK);
	err = -pthread_setspecific(csf_self_key, p);
	if (err)
		goto out_unmap;
	csf_self = p;
	return 0;

out_unmap:
	munmap((void *)p, csf_page_size);
	return err;
}
