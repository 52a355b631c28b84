/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * coarse_stat_fs_abi_layout.h - the ABI's layout in numbers: the size of
 * each struct of coarse_stat_fs_abi.h and the offsets of its parts.  Every
 * field is naturally aligned, so the layout is the same on every 64-bit
 * architecture (x86-64, arm64).  The module (kmod/main.c) and the library
 * (lib/abi.c) assert it wherever they are built: a change that moves a
 * field fails the build, on every architecture alike.
 *
 * Include it once, after coarse_stat_fs_abi.h, with CSF_ABI_ASSERT(expr)
 * defined as a static assertion.
 */
#ifndef COARSE_STAT_FS_ABI_LAYOUT_H
#define COARSE_STAT_FS_ABI_LAYOUT_H

#define CSF_ABI_OFFSET(type, field) __builtin_offsetof(struct type, field)

CSF_ABI_ASSERT(sizeof(struct csf_cpu_header) == 128);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_cpu_header, clock_hz) == 24);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_cpu_header, generation) == 48);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_cpu_header, nr_missed) == 88);

CSF_ABI_ASSERT(sizeof(struct csf_cpu_record) == 192);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_cpu_record, state_since) == 8);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_cpu_record, stat_seq) == 64);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_cpu_record, stat) == 80);

CSF_ABI_ASSERT(sizeof(struct csf_wait) == 24);
CSF_ABI_ASSERT(sizeof(struct csf_task_ref) == 32);
CSF_ABI_ASSERT(sizeof(struct csf_tree_totals) == 160);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_tree_totals, time) == 56);

CSF_ABI_ASSERT(sizeof(struct csf_thread_page) == 2328);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, seq) == 8);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, time) == 24);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, registered_at) == 112);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, comm) == 120);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, hist) == 200);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, waits) == 1328);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, waker) == 2096);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, preemptor) == 2128);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, tree_root) == 2160);
CSF_ABI_ASSERT(CSF_ABI_OFFSET(csf_thread_page, tree) == 2168);

#undef CSF_ABI_OFFSET

#endif /* COARSE_STAT_FS_ABI_LAYOUT_H */
