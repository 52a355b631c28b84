// SPDX-License-Identifier: MIT
/*
 * fuzz_thread_page - the library's page check and sequence-counter read on
 * arbitrary bytes: the input is the file threads/1 of a fake root, of any
 * length, and goes through csf_thread_map() and csf_thread_read() as a
 * monitor's would, and its histograms through csf_thread_read_hist(),
 * csf_hist_delta() and csf_hist_quantile().  No crash, no UB, no hang: an
 * odd seq must end in -EAGAIN (with the bound at 0 here, at the first
 * retry).
 */
#include "config.h"

#include <string.h>

#include "coarse_stat_fs.h"
#include "internal.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_root_init();
	fuzz_root_cpu(2);
	csf_seq_timeout_ns = 0;
	return 0;
}

/* Whatever the counts, the quantiles stay in order and ns. */
static void fuzz_hist(const struct csf_thread_map *m,
		      const struct csf_thread_page *page, size_t size)
{
	static struct csf_hist a, b, d;
	int err = csf_thread_read_hist(m, &a);

	if (err) {
		fuzz_assert(err == -EOPNOTSUPP || err == -EAGAIN);
		if (size >= sizeof(*page) && !(page->seq & 1))
			fuzz_assert(err == -EOPNOTSUPP && page->abi_minor < 1);
		return;
	}
	fuzz_assert(!a.waker.comm[15] && !a.preemptor.comm[15]);
	b = a;
	b.now++;
	fuzz_assert(csf_hist_delta(&a, &b, &d) == 0);
	for (unsigned int states = 1; states < 1u << CSF_NR_STATES;
	     states = states * 3 + 1) {
		uint64_t p50 = csf_hist_quantile(&a, states, 0.5);
		uint64_t p99 = csf_hist_quantile(&a, states, 0.99);

		fuzz_assert(p50 <= p99);
		fuzz_assert(csf_hist_quantile(&d, states, 0.99) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct csf_thread_page *page;
	struct csf_thread_map *m;
	struct csf_snap s;
	int err;

	fuzz_root_write("threads/1", data, size);
	err = csf_thread_map(1, &m);
	if (err) {
		fuzz_assert(err < 0);
		fuzz_assert(csf_strerror(err) != NULL);
		return 0;
	}
	csf_thread_prefetch(m);
	memset(&s, 0x5a, sizeof(s));
	err = csf_thread_read(m, &s);
	page = (const void *)data;
	if (size >= sizeof(*page) && !(page->seq & 1))
		fuzz_assert(err == 0);
	if (!err) {
		fuzz_assert(memchr(s.comm, '\0', sizeof(s.comm)) != NULL);
		fuzz_assert(csf_state_name(s.state) != NULL);
	} else {
		fuzz_assert(err == -EAGAIN);
	}
	fuzz_hist(m, page, size);
	csf_thread_unmap(m);
	return 0;
}
