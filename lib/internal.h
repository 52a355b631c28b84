/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the files of libcoarse_stat_fs share and nobody else
 * sees.  The library is built with -fvisibility=hidden: only definitions
 * marked CSF_PUBLIC (the csf_* API of coarse_stat_fs.h) are exported.
 */
#ifndef CSF_INTERNAL_H
#define CSF_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "coarse_stat_fs.h"
#include "seq.h"

#define CSF_PUBLIC	__attribute__((visibility("default")))

/* A mapped page of another thread (monitor.c). */
struct csf_thread_map {
	const struct csf_thread_page *page;
	size_t len;
};

/*
 * The cpu page and what its header says, read once (cpu.c).  Valid after
 * csf_cpu_init() returned 0; never unmapped, a fork child keeps it.
 */
struct csf_cpu_info {
	const unsigned char *base;	/* the mapping; header at offset 0 */
	size_t map_len;
	uint32_t header_size;
	uint32_t record_size;
	uint32_t nr_cpus;
	uint32_t clock;			/* enum csf_clock */
	uint64_t clock_hz;
	uint32_t clock_mult;
	uint32_t clock_shift;
};

extern struct csf_cpu_info csf_cpu;
extern int csf_cpu_ready;		/* 1 once csf_cpu is valid */
extern uint32_t csf_clock_id;		/* 0 until the header was read */
extern size_t csf_page_size;		/* valid once csf_cpu_ready */

int csf_cpu_init_slow(void);

/* Map the cpu page once per process; 0 or a negative errno.  Cheap. */
static inline int csf_cpu_init(void)
{
	if (csf_likely(__atomic_load_n(&csf_cpu_ready, __ATOMIC_ACQUIRE)))
		return 0;
	return csf_cpu_init_slow();
}

/*
 * abi.c: which pages this library can read, and what each minor added.
 * csf_seen_abi_major is the major of the last header checked, -1 for a
 * file that is no page of ours, 0 before any: csf_strerror(-EPROTO) says
 * which.
 */
extern int csf_seen_abi_major;
int csf_thread_page_check(const struct csf_thread_page *page);
int csf_cpu_header_check(const struct csf_cpu_header *h);

/* The minor that added each part of a thread page (the ABI header's list). */
enum csf_abi_feature {
	CSF_ABI_HIST = 1,	/* histograms, waits, waker, preemptor */
	CSF_ABI_TREE = 3,	/* tree_root and the tree's totals */
};

static inline int csf_page_has(const struct csf_thread_page *page,
			       enum csf_abi_feature minor)
{
	return page->abi_minor >= (unsigned int)minor;
}

/* map.c */
int csf_path(char *buf, size_t len, const char *name);
int csf_map_file(const char *name, size_t len, const void **out);

/* error.c */
void csf_i18n_init(void);

static inline uint64_t csf_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The architecture's counter, as the pages' clock (CSF_CLOCK_COUNTER) or
 * none (0).  x86: plain RDTSC, not RDTSCP or LFENCE;RDTSC: the serialising
 * forms cost 10-30 cycles more, about the price of the whole snapshot, and
 * buy nothing a reader can use.  Unserialised, RDTSC may execute a little
 * before the page loads retire, so "now" can be a few cycles older than a
 * state_since it is compared with (the reader treats now < state_since as
 * 0, as it must anyway for clocks of different CPUs), or a little after
 * the final sequence check, so the open interval is extrapolated a few
 * cycles past a switch the page does not show yet (the next snapshot
 * corrects it; csf_snap_delta clamps the difference).
 *
 * arm64: the vDSO's read.  The ISB keeps the MRS from being performed
 * ahead of the page loads; the load from the stack whose address depends
 * on the value keeps the acquire fence after it, and so the second load of
 * seq, from being performed ahead of the MRS.  Without that, a reader
 * could load seq before a writer made it odd and then read a "now" later
 * than the writer's stamp, extending the old state past it.
 *
 * The "memory" clobbers keep the compiler from moving the read out of the
 * sequence-counter section.
 */
#if defined(__x86_64__) || defined(__i386__)
#define CSF_CLOCK_COUNTER	CSF_CLOCK_TSC

static inline uint64_t csf_counter(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
#define CSF_CLOCK_COUNTER	CSF_CLOCK_CNTVCT

static inline uint64_t csf_counter(void)
{
	uint64_t v, addr;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	__asm__ __volatile__("eor %0, %1, %1\n\t"
			     "add %0, sp, %0\n\t"
			     "ldr xzr, [%0]"
			     : "=&r"(addr) : "r"(v) : "memory");
	return v;
}
#else
#define CSF_CLOCK_COUNTER	0

static inline uint64_t csf_counter(void)
{
	return 0;
}
#endif

/* The clock of the pages: the counter unless they are on CLOCK_MONOTONIC. */
static inline uint64_t csf_read_clock(void)
{
	if (CSF_CLOCK_COUNTER &&
	    csf_likely(__atomic_load_n(&csf_clock_id, __ATOMIC_RELAXED) !=
		       CSF_CLOCK_MONO))
		return csf_counter();
	return csf_mono_ns();
}

/*
 * The page's fields a snapshot takes, copied in runs the two layouts
 * share (times, counters, ids, name), plain loads; the page's state.
 */
static inline uint32_t csf_page_copy(const struct csf_thread_page *page,
				     struct csf_snap *snap)
{
	memcpy(snap->time, page->time, sizeof(snap->time));
	memcpy(&snap->nvcsw, &page->nvcsw, 4 * sizeof(uint64_t));
	memcpy(&snap->tid, &page->tid, 2 * sizeof(uint32_t));
	memcpy(snap->comm, page->comm, sizeof(snap->comm));
	snap->state_since = page->state_since;
	snap->registered_at = page->registered_at;
	snap->cpu = page->cpu;
	return page->state;
}

/* What a good copy still needs: the open interval, a terminated name. */
static inline int csf_page_done(struct csf_snap *snap, uint32_t state)
{
	snap->state = state;
	/* EXITED has no open interval: its totals are final */
	if (state < CSF_NR_STATES && snap->now > snap->state_since)
		snap->time[state] += snap->now - snap->state_since;
	snap->comm[sizeof(snap->comm) - 1] = '\0';
	return 0;
}

/*
 * csf_page_read_once - the common case of csf_page_read(), inline: one
 * attempt at a stable page on the counter.  1 when it read nothing and
 * csf_page_read() must.
 */
static inline int csf_page_read_once(const struct csf_thread_page *page,
				     struct csf_snap *snap)
{
	uint32_t start, state;

	if (!CSF_CLOCK_COUNTER)
		return 1;
	start = __atomic_load_n(&page->seq, __ATOMIC_ACQUIRE);
	if (csf_unlikely((start & 1) ||
			 __atomic_load_n(&csf_clock_id, __ATOMIC_RELAXED) !=
			 CSF_CLOCK_COUNTER))
		return 1;
	state = csf_page_copy(page, snap);
	snap->now = csf_counter();
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (csf_unlikely(__atomic_load_n(&page->seq, __ATOMIC_RELAXED) != start))
		return 1;
	return csf_page_done(snap, state);
}

/*
 * csf_page_read - a consistent snapshot of a thread page at "now", the
 * open interval added: the thread's own csf_thread_snap() and the
 * monitor's csf_thread_read() both read through this, and only this.
 * "now" is read inside the section so that it and the copy describe one
 * instant; the arithmetic waits until the copy is known to be good.  0,
 * or -EAGAIN when the page did not become stable within the bound (@snap
 * is then undefined).
 */
static inline int csf_page_read(const struct csf_thread_page *page,
				struct csf_snap *snap)
{
	uint64_t deadline_ns = 0;
	uint32_t start, state;
	int r;

	do {
		if (csf_seq_begin(&page->seq, &start, &deadline_ns))
			return -EAGAIN;
		state = csf_page_copy(page, snap);
		snap->now = csf_read_clock();
	} while ((r = csf_seq_retry(&page->seq, start, &deadline_ns)) > 0);
	if (csf_unlikely(r))
		return r;
	return csf_page_done(snap, state);
}

/*
 * csf_page_read_hist - a consistent copy of a thread page's ABI 1.1 part,
 * the other reading of a page: csf_thread_hist() and csf_thread_read_hist()
 * read through this, and only this.  It copies ~1.9 KB, which is why
 * csf_page_read() does not.  0, -EOPNOTSUPP for a page older than 1.1,
 * or -EAGAIN as csf_page_read().
 */
static inline int csf_page_read_hist(const struct csf_thread_page *page,
				     struct csf_hist *h)
{
	uint64_t deadline_ns = 0, max_len[CSF_NR_STATES];
	uint32_t start;
	unsigned int i;
	int r;

	if (!csf_page_has(page, CSF_ABI_HIST))
		return -EOPNOTSUPP;
	do {
		if (csf_seq_begin(&page->seq, &start, &deadline_ns))
			return -EAGAIN;
		h->tid = page->tid;
		h->registered_at = page->registered_at;
		memcpy(h->count, page->hist, sizeof(h->count));
		memcpy(max_len, page->max_len, sizeof(max_len));
		memcpy(h->max_end, page->max_end, sizeof(h->max_end));
		h->nr_waits = page->nr_waits;
		memcpy(h->waits, page->waits, sizeof(h->waits));
		h->waker.at = page->waker.at;
		h->waker.tid = page->waker.tid;
		memcpy(h->waker.comm, page->waker.comm, sizeof(h->waker.comm));
		h->preemptor.at = page->preemptor.at;
		h->preemptor.tid = page->preemptor.tid;
		memcpy(h->preemptor.comm, page->preemptor.comm,
		       sizeof(h->preemptor.comm));
		h->now = csf_read_clock();
	} while ((r = csf_seq_retry(&page->seq, start, &deadline_ns)) > 0);
	if (csf_unlikely(r))
		return r;

	for (i = 0; i < CSF_NR_STATES; i++)
		h->max_ns[i] = csf_ticks_to_ns(max_len[i]);
	h->max_known = (1u << CSF_NR_STATES) - 1;
	h->waker.comm[sizeof(h->waker.comm) - 1] = '\0';
	h->preemptor.comm[sizeof(h->preemptor.comm) - 1] = '\0';
	return 0;
}

/*
 * csf_page_read_tree - a consistent copy of a tree's totals in its root's
 * page, the third reading of a page (csf_thread_read_tree() only).  0,
 * -EOPNOTSUPP for a page older than 1.3, -ENODATA for a page that is no
 * tree's root, or -EAGAIN as csf_page_read().  Durations in ticks; *@now
 * is when it was read.
 */
static inline int csf_page_read_tree(const struct csf_thread_page *page,
				     struct csf_tree_totals *tt,
				     uint64_t *now)
{
	uint64_t deadline_ns = 0;
	uint32_t start;
	int r;

	if (!csf_page_has(page, CSF_ABI_TREE))
		return -EOPNOTSUPP;
	do {
		if (csf_seq_begin(&page->tree.seq, &start, &deadline_ns))
			return -EAGAIN;
		memcpy(tt, &page->tree, sizeof(*tt));
		*now = csf_read_clock();
	} while ((r = csf_seq_retry(&page->tree.seq, start,
				    &deadline_ns)) > 0);
	if (csf_unlikely(r))
		return r;
	return tt->began ? 0 : -ENODATA;
}

/* snap.c: the calling thread's page, or NULL before its first snapshot. */
const struct csf_thread_page *csf_self_mapped(void);

/*
 * hist.c: the longest wait of @h (a read, not a delta) that ended in
 * (@from, @to], ticks: its state and length in ns, and whether it is the
 * longest for sure (1) or only the longest waits[] still held (0).
 * -ENOENT when there is none.
 */
int csf_hist_longest_wait(const struct csf_hist *h, uint64_t from,
			  uint64_t to, unsigned int *state, uint64_t *ns,
			  int *sure);

#endif /* CSF_INTERNAL_H */
