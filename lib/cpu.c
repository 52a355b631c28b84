// SPDX-License-Identifier: MIT
/*
 * cpu.c - the cpu page: mapped once per process, its header checked;
 * per-CPU snapshots and deltas from it, and the registration generation in
 * its header.
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

/* Where record @i starts: the published sizes, so later minors fit. */
static const struct csf_cpu_record *csf_cpu_record(unsigned int i)
{
	return (const void *)(csf_cpu.base + csf_cpu.header_size +
			      (size_t)i * csf_cpu.record_size);
}

CSF_PUBLIC int csf_cpu_count(void)
{
	int err = csf_cpu_init();

	return err ? err : (int)csf_cpu.nr_cpus;
}

/*
 * Two writers, two sequence counters: the switch half under seq, with the
 * clock read that extrapolates it; the stat half under stat_seq, without,
 * since stat[] is a copy with its own stat_time.
 */
static int csf_cpu_read(const struct csf_cpu_record *rec,
			struct csf_cpu_snap *snap)
{
	uint64_t since, deadline_ns = 0;
	uint32_t start, state;
	unsigned int i;
	int r;

	do {
		if (csf_seq_begin(&rec->seq, &start, &deadline_ns))
			return -EAGAIN;
		state = rec->state;
		since = rec->state_since;
		for (i = 0; i < CSF_CPU_NR_STATES; i++)
			snap->time[i] = rec->time[i];
		snap->nr_switches = rec->nr_switches;
		snap->now = csf_read_clock();
	} while ((r = csf_seq_retry(&rec->seq, start, &deadline_ns)) > 0);
	if (r)
		return r;

	/* a bound of its own: the other writer, the other counter */
	deadline_ns = 0;
	do {
		if (csf_seq_begin(&rec->stat_seq, &start, &deadline_ns))
			return -EAGAIN;
		snap->online = rec->online;
		snap->stat_time = rec->stat_time;
		for (i = 0; i < CSF_STAT_NR; i++)
			snap->stat[i] = rec->stat[i];
	} while ((r = csf_seq_retry(&rec->stat_seq, start, &deadline_ns)) > 0);
	if (r)
		return r;

	snap->state = state;
	if (state < CSF_CPU_NR_STATES && snap->now > since)
		snap->time[state] += snap->now - since;
	return 0;
}

CSF_PUBLIC int csf_cpu_snap(struct csf_cpu_snap *snaps, unsigned int n)
{
	unsigned int i;
	int err;

	err = csf_cpu_init();
	if (err)
		return err;
	if (n > csf_cpu.nr_cpus)
		n = csf_cpu.nr_cpus;
	for (i = 0; i < n; i++) {
		err = csf_cpu_read(csf_cpu_record(i), &snaps[i]);
		if (err)
			return err;
	}
	return (int)n;
}

static uint64_t csf_sub_clamp(uint64_t after, uint64_t before)
{
	return after > before ? after - before : 0;
}

/*
 * Busy/idle/iowait are ours and only move forward, up to the few ticks an
 * extrapolation can run ahead of the next switch: clamped.  stat[] is the
 * kernel's own accounting, whose NOHZ iowait is known to step backwards
 * now and then: clamped too, rather than refused.
 */
CSF_PUBLIC int csf_cpu_delta(const struct csf_cpu_snap *before,
			     const struct csf_cpu_snap *after,
			     struct csf_cpu_delta *out)
{
	unsigned int i;

	if (after->now < before->now ||
	    after->nr_switches < before->nr_switches)
		return -EINVAL;
	out->wall_ns = csf_ticks_to_ns(after->now - before->now);
	out->busy_ns = csf_ticks_to_ns(csf_sub_clamp(after->time[CSF_CPU_BUSY],
						     before->time[CSF_CPU_BUSY]));
	out->idle_ns = csf_ticks_to_ns(csf_sub_clamp(after->time[CSF_CPU_IDLE],
						     before->time[CSF_CPU_IDLE]));
	out->iowait_ns = csf_ticks_to_ns(
		csf_sub_clamp(after->time[CSF_CPU_IOWAIT],
			      before->time[CSF_CPU_IOWAIT]));
	out->nr_switches = after->nr_switches - before->nr_switches;
	for (i = 0; i < CSF_STAT_NR; i++)
		out->stat_ns[i] = csf_sub_clamp(after->stat[i],
						before->stat[i]);
	return 0;
}

CSF_PUBLIC int csf_generation(uint64_t *gen)
{
	const struct csf_cpu_header *h;
	int err;

	err = csf_cpu_init();
	if (err)
		return err;
	h = (const void *)csf_cpu.base;
	/* a single aligned store by the kernel: no seqcount needed */
	*gen = __atomic_load_n(&h->generation, __ATOMIC_ACQUIRE);
	return 0;
}

CSF_PUBLIC int csf_module_stats(struct csf_module_stats *out)
{
	const struct csf_cpu_header *h;
	int err;

	if (!out)
		return -EINVAL;
	err = csf_cpu_init();
	if (err)
		return err;
	h = (const void *)csf_cpu.base;
	/* counters the kernel moves one by one: each load is consistent */
	out->nr_threads = __atomic_load_n(&h->nr_threads, __ATOMIC_RELAXED);
	out->nr_allocated = __atomic_load_n(&h->nr_allocated,
					    __ATOMIC_RELAXED);
	/* before the caller lists the threads that generation has */
	out->generation = __atomic_load_n(&h->generation, __ATOMIC_ACQUIRE);
	out->max_threads = h->max_threads;
	out->stat_period_ns = h->stat_period_ns;
	/* reserved, so 0, before ABI 1.2 */
	out->nr_missed = __atomic_load_n(&h->nr_missed, __ATOMIC_RELAXED);
	return 0;
}
