/* SPDX-License-Identifier: MIT */
/*
 * seq.h - the sequence-counter reader: the one implementation of the
 * protocol include/coarse_stat_fs_abi.h describes, for every record of
 * every page (seq.c has its slow path).
 */
#ifndef CSF_SEQ_H
#define CSF_SEQ_H

#include <errno.h>
#include <stdint.h>

#define csf_likely(x)	__builtin_expect(!!(x), 1)
#define csf_unlikely(x)	__builtin_expect(!!(x), 0)

static inline void csf_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" : : : "memory");
#endif
}

/*
 * How long a reader waits for a record to be stable (seq even and the same
 * before and after the copy) before it gives up with -EAGAIN: one second.
 * The module's writers hold seq odd for well under a microsecond, with
 * preemption off, so only a corrupt page (a CSF_ROOT file, say) or a stuck
 * writer gets here; but the bound must also survive a writer that merely
 * does not run: under qemu's single-threaded TCG the vCPU that holds seq
 * odd waits for the spinning one's round-robin kick, 100 ms, and a busy
 * host or hypervisor adds its own steal.  A variable, not a constant, so
 * that the fuzz targets can set 0 (give up at the first retry) and stay
 * fast on pages with an odd seq.
 */
#define CSF_SEQ_TIMEOUT_NS 1000000000ull
extern uint64_t csf_seq_timeout_ns;

/*
 * The sequence-counter reader's slow path, out of line: a wait between two
 * attempts.  *@deadline_ns is 0 before the first wait of a read.  0: try
 * again; -EAGAIN: past the bound.
 */
int csf_seq_wait(uint64_t *deadline_ns) __attribute__((cold));

/*
 * The sequence-counter reader, the one implementation of the protocol the
 * ABI header describes, in the kernel's read_seqcount_begin()/retry()
 * shape so that a reader copies straight into its result:
 *
 *	uint64_t deadline = 0;
 *	int r;
 *
 *	do {
 *		if (csf_seq_begin(&rec->seq, &start, &deadline))
 *			return -EAGAIN;
 *		...plain loads of rec...
 *	} while ((r = csf_seq_retry(&rec->seq, start, &deadline)) > 0);
 *	if (r)
 *		return r;
 *
 * The acquire load in csf_seq_begin() keeps the loads of the record from
 * being performed before it; the acquire fence in csf_seq_retry() keeps
 * them from being performed after the second load of seq.  On x86 both are
 * compiler barriers only; on arm64 they are the smp_rmb() the protocol
 * needs.  A writer never waits for us, so an odd or changed seq just
 * means: copy again, until the deadline (CSF_SEQ_TIMEOUT_NS) says the
 * writer is not coming back.  The fast path (seq even and unchanged) reads
 * no clock and calls nothing.
 */
static inline int csf_seq_begin(const uint32_t *seq, uint32_t *start,
				uint64_t *deadline_ns)
{
	while (csf_unlikely((*start = __atomic_load_n(seq, __ATOMIC_ACQUIRE)) &
			    1))
		if (csf_seq_wait(deadline_ns))
			return -EAGAIN;
	return 0;
}

/* 0: the copy is good; 1: copy again; -EAGAIN: give up. */
static inline int csf_seq_retry(const uint32_t *seq, uint32_t start,
				uint64_t *deadline_ns)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (csf_likely(__atomic_load_n(seq, __ATOMIC_RELAXED) == start))
		return 0;
	return csf_seq_wait(deadline_ns) ? -EAGAIN : 1;
}

#endif /* CSF_SEQ_H */
