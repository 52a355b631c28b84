/* SPDX-License-Identifier: MIT */
/*
 * fake_root.h - a directory laid out like the mounted filesystem, with
 * regular files in the page formats of coarse_stat_fs_abi.h, so that the
 * library can be tested without the module.
 *
 * Every test runs in its own process (libcheck's fork mode, forced by
 * fake_run()), so each can point CSF_ROOT at a fresh fake root before its
 * first library call: the library reads CSF_ROOT and the cpu header once.
 */
#ifndef CSF_FAKE_ROOT_H
#define CSF_FAKE_ROOT_H

#include <check.h>
#include <stdint.h>
#include <sys/types.h>

#include "coarse_stat_fs.h"

/* A new empty root (mode 0755, with threads/), exported as CSF_ROOT. */
const char *fake_root_new(void);

/* A header for @nr_cpus CPUs on @clock, 1:1 nanoseconds, v1.0 sizes. */
void fake_cpu_header(struct csf_cpu_header *h, uint32_t nr_cpus,
		     uint32_t clock);

/*
 * Write root/cpu: @h, then h->nr_cpus records from @recs (NULL: zeroes) at
 * h->header_size + i * h->record_size.  Bytes beyond the v1.0 structures
 * are filled with 0xee, as fields of a later minor would be.
 */
void fake_write_cpu(const char *root, const struct csf_cpu_header *h,
		    const struct csf_cpu_record *recs);

/* A thread page of @tid, this ABI, RUNNING since now on CLOCK_MONOTONIC. */
void fake_thread_page(struct csf_thread_page *p, uint32_t tid);

/*
 * Write a page-sized file root/@name holding @p, by rename(): whoever has
 * the old file mapped keeps seeing the old contents.
 */
void fake_write_thread(const char *root, const char *name,
		       const struct csf_thread_page *p);

/* Rewrite root/@name in place: its mappings see @p, as the module's do. */
void fake_update_thread(const char *root, const char *name,
			const struct csf_thread_page *p);

/* The usual setup: a root, a 2-CPU MONO cpu file, thread-self of gettid. */
const char *fake_root_default(void);

uint64_t fake_mono_ns(void);
pid_t fake_gettid(void);

/* Run @s in fork mode under a temporary base directory; exit status. */
int fake_run(Suite *s);

#endif /* CSF_FAKE_ROOT_H */
