// SPDX-License-Identifier: MIT
/*
 * fuzz_cpu_page - the cpu file's header check, its mapping and the per-CPU
 * read on arbitrary bytes: the input is the whole file "cpu" of a fake
 * root.  The library maps the cpu file once per process, so each input
 * first undoes that mapping (the state internal.h declares) and the next
 * call maps the new bytes through the real csf_cpu_init().
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "coarse_stat_fs.h"
#include "internal.h"
#include "fuzz.h"

#define MAX_SNAPS 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_root_init();
	csf_seq_timeout_ns = 0;
	return 0;
}

static void forget_cpu_page(void)
{
	if (!csf_cpu_ready)
		return;
	munmap((void *)csf_cpu.base, csf_cpu.map_len);
	memset(&csf_cpu, 0, sizeof(csf_cpu));
	csf_cpu_ready = 0;
	csf_clock_id = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csf_cpu_snap a[MAX_SNAPS], b[MAX_SNAPS];
	struct csf_cpu_delta d;
	uint64_t gen;
	int n, got, i;

	forget_cpu_page();
	fuzz_root_write("cpu", data, size);
	n = csf_cpu_count();
	if (n < 0) {
		fuzz_assert(csf_strerror(n) != NULL);
		fuzz_assert(csf_clock() == n || csf_clock() < 0);
		fuzz_assert(csf_clock_hz() == 0);
		fuzz_assert(csf_ticks_to_ns(12345) == 12345);
		return 0;
	}
	fuzz_assert(n > 0);
	fuzz_assert((CSF_CLOCK_COUNTER && csf_clock() == CSF_CLOCK_COUNTER) ||
		    csf_clock() == CSF_CLOCK_MONO);
	fuzz_assert(csf_generation(&gen) == 0);
	(void)csf_ticks_to_ns(~0ull);
	(void)csf_ns_to_ticks(~0ull);
	(void)csf_clock_hz();
	got = csf_cpu_snap(a, MAX_SNAPS);
	if (got < 0) {
		fuzz_assert(got == -EAGAIN);
		return 0;
	}
	fuzz_assert(got == (n < MAX_SNAPS ? n : MAX_SNAPS));
	fuzz_assert(csf_cpu_snap(b, MAX_SNAPS) == got);
	for (i = 0; i < got; i++) {
		/* same bytes, later clock: never refused */
		fuzz_assert(csf_cpu_delta(&a[i], &b[i], &d) == 0);
		(void)csf_cpu_delta(&b[i], &a[i], &d);
	}
	return 0;
}
