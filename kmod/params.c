// SPDX-License-Identifier: GPL-2.0
/*
 * params.c: the module parameters, read by every part; checked once at
 * load, before any part starts.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>

#include "csf.h"

#define CSF_MAX_THREADS_LIMIT (1u << 20)

unsigned int csf_max_threads;
module_param_named(max_threads, csf_max_threads, uint, 0444);
MODULE_PARM_DESC(max_threads,
		 "Most threads registered at once, 1..1048576, or 0 (the default): one per 128 KiB of RAM (one 4 KiB page and ~100 bytes each)");

unsigned int csf_stat_period_ms = 10;
module_param_named(stat_period_ms, csf_stat_period_ms, uint, 0444);
MODULE_PARM_DESC(stat_period_ms,
		 "Refresh period of the /proc/stat buckets in the cpu file, 1..10000 ms (default 10)");

bool csf_attach_all_at_load;
module_param_named(attach_all, csf_attach_all_at_load, bool, 0444);
MODULE_PARM_DESC(attach_all,
		 "Register every thread at load, and every task at its creation from then on (as \"all\" written to attach)");

char *csf_clock_mode = "auto";
module_param_named(clock, csf_clock_mode, charp, 0444);
MODULE_PARM_DESC(clock,
		 "auto (the CPU's counter where the vDSO reads it), tsc (x86), cntvct (arm64) or mono (CLOCK_MONOTONIC ns)");

/*
 * The kernel's own default threads-max with 16 KiB stacks: one thread per
 * 128 KiB of RAM, so that every thread the machine runs by default can be
 * registered, and the pages take at most 1/32 of RAM.
 */
static unsigned int __init csf_max_threads_fitted(void)
{
	u64 n = div_u64((u64)totalram_pages() << PAGE_SHIFT, SZ_128K);

	return clamp_t(u64, n, 1024, CSF_MAX_THREADS_LIMIT);
}

int __init csf_params_check(void)
{
	if (!csf_max_threads)
		csf_max_threads = csf_max_threads_fitted();
	if (csf_max_threads > CSF_MAX_THREADS_LIMIT) {
		pr_err("coarse_stat_fs: max_threads=%u: expected 0 (fitted) or 1..%u\n",
		       csf_max_threads, CSF_MAX_THREADS_LIMIT);
		return -EINVAL;
	}
	if (csf_stat_period_ms < 1 || csf_stat_period_ms > 10000) {
		pr_err("coarse_stat_fs: stat_period_ms=%u: expected 1..10000\n",
		       csf_stat_period_ms);
		return -EINVAL;
	}
	return 0;
}
