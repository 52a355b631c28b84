/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csf.h - declarations shared by the files of the coarse_stat_fs module.
 */
#ifndef CSF_H
#define CSF_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/timekeeping.h>
#include <linux/spinlock.h>
#include <linux/mm.h>
#ifdef CONFIG_ARM64
#include <asm/arch_timer.h>
#endif

#include "compat.h"
#ifndef HAVE_VMF_INSERT_MIXED_PFN
#include <linux/pfn_t.h>
#endif
#include "coarse_stat_fs_abi.h"
#include "state.h"

struct task_struct;
struct super_block;

/* params.c: module parameters, checked by csf_params_check() at load */
extern unsigned int csf_max_threads;
extern unsigned int csf_stat_period_ms;
extern char *csf_clock_mode;
extern bool csf_attach_all_at_load;
int csf_params_check(void);

/* clock.c: on when the pages are on the architecture's counter */
DECLARE_STATIC_KEY_FALSE(csf_clock_counter);
/* The cpu header's conversion, for the state machine's histograms. */
extern struct csf_state_clock csf_state_clk;

/* The clock of every timestamp in the pages; see the ABI header. */
static __always_inline u64 csf_now(void)
{
#if defined(CONFIG_X86_TSC)
	if (static_branch_likely(&csf_clock_counter))
		return rdtsc();
#elif defined(CONFIG_ARM64)
	/* ISB; MRS, and later loads wait for the value: the vDSO's read */
	if (static_branch_likely(&csf_clock_counter))
		return __arch_counter_get_cntvct();
#endif
	return ktime_get_mono_fast_ns();
}

int csf_clock_init(const char *mode, struct csf_cpu_header *hdr);
const char *csf_clock_label(const struct csf_cpu_header *hdr);
void csf_clock_check(struct csf_cpu_header *hdr);

/* cpu.c: the cpu file */
extern struct csf_cpu_header *csf_cpu_hdr;
extern size_t csf_cpu_size;		/* bytes, whole pages */

int csf_cpu_init(const char *clock_mode);
void csf_cpu_start(void);
void csf_cpu_exit(void);
void csf_cpu_switch(bool preempt, struct task_struct *prev,
		    struct task_struct *next, unsigned int prev_state);
void csf_cpu_wakeup(struct task_struct *p);
void csf_cpu_migrate(struct task_struct *p, int dest_cpu);

/* registry.c: registered threads (thread.h has the files' own part) */
struct pid;
int csf_thread_register(struct page **pagep);
int csf_thread_tids(pid_t *tids, int max);
void csf_thread_free(struct task_struct *p);	/* sched_process_free */
int csf_registry_init(void);
void csf_registry_exit(void);	/* frees every entry */
/* Entries in the registry; 0 lets every probe return at once. */
extern atomic_t csf_nr_entries;

static __always_inline bool csf_threads_any(void)
{
	return atomic_read(&csf_nr_entries) != 0;
}

/* attach.c: owners, and the attach file */
bool csf_thread_owner(struct pid *pid, kuid_t *uid, kgid_t *gid);
struct page *csf_thread_get_page(struct pid *pid, kuid_t *uid, kgid_t *gid);
int csf_thread_attach(struct file *file, pid_t nr, bool thread, bool inherit);
int csf_thread_attach_all(struct file *file);
/* On from the first "all" request: every new task is registered. */
DECLARE_STATIC_KEY_FALSE(csf_all);

/* tree.c: sched_process_fork */
void csf_thread_fork(struct task_struct *parent, struct task_struct *child);

/* thread.c: the other probes */
void csf_thread_switch(bool preempt, struct task_struct *prev,
		       struct task_struct *next, unsigned int prev_state);
void csf_thread_waking(struct task_struct *p);
void csf_thread_wakeup(struct task_struct *p);
void csf_thread_migrate(struct task_struct *p);
void csf_thread_exit(struct task_struct *p);
void csf_thread_exec(struct task_struct *p, bool new_tid);

/* hooks.c: scheduler tracepoints */
int csf_hooks_register(void);
void csf_hooks_unregister(void);

/* fs.c */
int csf_fs_register(void);
void csf_fs_unregister(void);

/*
 * VMA flags for our read-only pages.  vm_flags became read-only behind
 * vm_flags_set()/vm_flags_clear() in 6.3; Debian's 6.1 does not have them.
 */
static inline void csf_vma_flags(struct vm_area_struct *vma, vm_flags_t set,
				 vm_flags_t clear)
{
#ifdef HAVE_VM_FLAGS_SET
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * Our mappings are VM_MIXEDMAP | VM_IO and their pages are inserted by pfn,
 * so no get_user_pages() can take one: the GUP walk refuses VM_IO, and the
 * ptes are special (no struct page behind them for the mm).  Otherwise
 * root's madvise(MADV_HWPOISON) would reach memory_failure(), which marks
 * the page poisoned before it finds it cannot handle a page it does not
 * know, and every later fault on it would SIGBUS.  The mappings hold no
 * page references: the file does (thread pages), or the module, pinned by
 * the file (the cpu area), and every mapping holds its file.  VM_MIXEDMAP
 * rather than VM_PFNMAP keeps MADV_DONTNEED working.
 */
#define CSF_VM_FLAGS (VM_MIXEDMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP)

static inline vm_fault_t csf_insert_pfn(struct vm_fault *vmf,
					unsigned long pfn)
{
#ifdef HAVE_VMF_INSERT_MIXED_PFN
	return vmf_insert_mixed(vmf->vma, vmf->address, pfn);
#else
	/* No pfn_t flags: ordinary memory with a memmap, not a device's. */
	return vmf_insert_mixed(vmf->vma, vmf->address,
				__pfn_to_pfn_t(pfn, 0));
#endif
}

/*
 * Seqcount writer side of the ABI's protocol (one writer at a time).
 * Readers spin while the count is odd and never block a writer, so a
 * writer must not be preempted until csf_write_end().
 *
 * A writer that stamps a time (closes an interval) reads csf_now() after
 * csf_write_begin(), not before.  A reader extends the open interval to
 * its own clock read; with the stamp taken first, a reader that copied the
 * record between the two would extend the old state past the stamp, and
 * the next reader would see that state's total lower; a vCPU stopped
 * there by its host (or by qemu's single-threaded TCG, for a round-robin
 * slice) holds that window open for milliseconds.  What remains is the
 * store buffer: x86 may read the TSC, and arm64 CNTVCT_EL0 (its ISB waits
 * for no store), before the odd count is visible to other CPUs: for as
 * long as a store takes to drain, which an smp_mb() would close at about
 * the price of the clock read itself on every switch.  The smp_wmb()s
 * order the record's stores between the two counts on both, as the
 * kernel's own seqcount does, and the reader's loads pair with them.
 */
static __always_inline void csf_write_begin(__u32 *seq)
{
	lockdep_assert_preemption_disabled();
	WRITE_ONCE(*seq, *seq + 1);
	smp_wmb();
}

static __always_inline void csf_write_end(__u32 *seq)
{
	smp_wmb();
	WRITE_ONCE(*seq, *seq + 1);
}

/*
 * Close the open interval [*since, now) into @total and start a new one.
 * Clock reads on two CPUs may be a few ticks out of order; never moving
 * since backwards keeps sum(totals) == since - registered_at exactly.
 */
#endif /* CSF_H */
