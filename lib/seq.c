// SPDX-License-Identifier: MIT
/*
 * seq.c - the sequence-counter reader's slow path (seq.h): a bounded wait
 * for a writer caught in the middle of a record.
 */
#include "config.h"

#include "internal.h"

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
