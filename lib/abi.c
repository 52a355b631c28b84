// SPDX-License-Identifier: MIT
/*
 * abi.c - which pages this library can read: the checks of a thread
 * page's and the cpu page's header, and the major they last saw, which
 * csf_strerror(-EPROTO) reports.  What each minor added is in internal.h
 * (enum csf_abi_feature).
 */
#include "config.h"

#include "internal.h"

#define CSF_ABI_ASSERT(e) _Static_assert(e, #e)
#include "coarse_stat_fs_abi_layout.h"

int csf_seen_abi_major;

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

/*
 * What this library can read: the header's sizes are at least v1.0's, and
 * keep every record aligned for its 64-bit fields and atomic seq loads (a
 * misaligned record is undefined behaviour in C and a fault on some
 * CPUs; found by tests/fuzz/fuzz_cpu_page).
 */
int csf_cpu_header_check(const struct csf_cpu_header *h)
{
	if (h->magic != CSF_CPU_MAGIC) {
		csf_seen_abi_major = -1;
		return -EPROTO;
	}
	if (h->abi_major != CSF_ABI_MAJOR) {
		csf_seen_abi_major = h->abi_major;
		return -EPROTO;
	}
	csf_seen_abi_major = h->abi_major;
	if (h->header_size < sizeof(struct csf_cpu_header) ||
	    h->record_size < sizeof(struct csf_cpu_record) ||
	    h->nr_cpus == 0 || h->clock_mult == 0 || h->clock_shift > 63 ||
	    h->header_size % _Alignof(struct csf_cpu_record) ||
	    h->record_size % _Alignof(struct csf_cpu_record))
		return -EPROTO;
	/* a counter other than ours is a clock this CPU cannot read */
	if (h->clock != CSF_CLOCK_MONO &&
	    (!CSF_CLOCK_COUNTER || h->clock != CSF_CLOCK_COUNTER))
		return -EPROTO;
	return 0;
}
