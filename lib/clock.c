// SPDX-License-Identifier: MIT
/*
 * clock.c - the cpu page's header, read once per process, and the clock it
 * announces: csf_rdtsc(), csf_clock(), csf_clock_hz(), csf_ticks_to_ns(),
 * csf_ns_to_ticks().
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

struct csf_cpu_info csf_cpu;
int csf_cpu_ready;
uint32_t csf_clock_id;
size_t csf_page_size;
int csf_seen_abi_major;

/*
 * What this library can read: the header's sizes are at least v1.0's, and
 * keep every record aligned for its 64-bit fields and atomic seq loads (a
 * misaligned record is undefined behaviour in C and a fault on some
 * CPUs; found by tests/fuzz/fuzz_cpu_page).
 */
static int csf_cpu_header_check(const struct csf_cpu_header *h)
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
#if defined(__x86_64__) || defined(__i386__)
	if (h->clock != CSF_CLOCK_TSC && h->clock != CSF_CLOCK_MONO)
		return -EPROTO;
#else
	/* no TSC to read here: the pages would be on a clock we lack */
	if (h->clock != CSF_CLOCK_MONO)
		return -EPROTO;
#endif
	return 0;
}

/*
 * Map the header's page first to learn how long the file is, then the
 * whole file.  Only mmap is used: the ABI promises mmap, not read().
 */
static int csf_cpu_map(void)
{
	const struct csf_cpu_header *h;
	const void *p;
	size_t len;
	long ps;
	int err;

	ps = sysconf(_SC_PAGESIZE);
	csf_page_size = ps > 0 ? (size_t)ps : 4096;

	err = csf_map_file("cpu", csf_page_size, &p);
	if (err)
		return err;
	h = p;
	err = csf_cpu_header_check(h);
	if (err)
		goto out_unmap;

	len = (size_t)h->header_size + (size_t)h->nr_cpus * h->record_size;
	len = (len + csf_page_size - 1) & ~(csf_page_size - 1);
	if (len > csf_page_size) {
		const void *all;

		err = csf_map_file("cpu", len, &all);
		if (err)
			goto out_unmap;
		munmap((void *)p, csf_page_size);
		p = all;
		h = p;
	}

	csf_cpu.base = p;
	csf_cpu.map_len = len;
	csf_cpu.header_size = h->header_size;
	csf_cpu.record_size = h->record_size;
	csf_cpu.nr_cpus = h->nr_cpus;
	csf_cpu.clock = h->clock;
	csf_cpu.clock_hz = h->clock_hz;
	csf_cpu.clock_mult = h->clock_mult;
	csf_cpu.clock_shift = h->clock_shift;
	return 0;

out_unmap:
	munmap((void *)p, csf_page_size);
	return err;
}

/*
 * A failure is not remembered: the module may be loaded later in the life
 * of the process, and the next call should then succeed.  Success is, and
 * costs one acquire load from then on (csf_cpu_init()).
 */
int csf_cpu_init_slow(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int err = 0;

	pthread_mutex_lock(&lock);
	if (!__atomic_load_n(&csf_cpu_ready, __ATOMIC_RELAXED)) {
		err = csf_cpu_map();
		if (!err) {
			__atomic_store_n(&csf_clock_id, csf_cpu.clock,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&csf_cpu_ready, 1, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&lock);
	return err;
}

CSF_PUBLIC uint64_t csf_rdtsc(void)
{
	return csf_read_clock();
}

CSF_PUBLIC int csf_clock(void)
{
	int err = csf_cpu_init();

	return err ? err : (int)csf_cpu.clock;
}

/*
 * The 128-bit product keeps long durations exact: a TSC mult is around
 * 2^shift / GHz with shift up to 32, so a 64-bit product would overflow
 * after seconds.  Without the cpu page the ticks are returned unchanged
 * (no module, no ticks to convert).
 */
CSF_PUBLIC uint64_t csf_ticks_to_ns(uint64_t ticks)
{
	if (csf_cpu_init())
		return ticks;
	return (uint64_t)(((unsigned __int128)ticks * csf_cpu.clock_mult) >>
			  csf_cpu.clock_shift);
}

/* Through clock_hz, not mult/shift: mult/shift only go one way exactly. */
CSF_PUBLIC uint64_t csf_ns_to_ticks(uint64_t ns)
{
	if (csf_cpu_init() || !csf_cpu.clock_hz)
		return ns;
	return (uint64_t)((unsigned __int128)ns * csf_cpu.clock_hz /
			  1000000000u);
}

CSF_PUBLIC uint64_t csf_clock_hz(void)
{
	return csf_cpu_init() ? 0 : csf_cpu.clock_hz;
}
