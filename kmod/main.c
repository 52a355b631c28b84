// SPDX-License-Identifier: GPL-2.0
/*
 * coarse_stat_fs - per-thread scheduler state and per-CPU utilisation as
 * read-only shared pages, kept current from scheduler tracepoints.
 *
 * main.c: module parameters, load and unload order.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>

#include "csf.h"

unsigned int csf_max_threads = 8192;
module_param_named(max_threads, csf_max_threads, uint, 0444);
MODULE_PARM_DESC(max_threads,
		 "Most threads registered at once, 1..1048576 (default 8192; one 4 KiB page and ~100 bytes each)");

unsigned int csf_stat_period_ms = 10;
module_param_named(stat_period_ms, csf_stat_period_ms, uint, 0444);
MODULE_PARM_DESC(stat_period_ms,
		 "Refresh period of the /proc/stat buckets in the cpu file, 1..10000 ms (default 10)");

static char *csf_clock_mode = "auto";
module_param_named(clock, csf_clock_mode, charp, 0444);
MODULE_PARM_DESC(clock,
		 "auto (TSC when the kernel trusts it), tsc or mono (CLOCK_MONOTONIC ns)");

static int __init csf_init(void)
{
	int err;

	if (csf_max_threads < 1 || csf_max_threads > (1u << 20)) {
		pr_err("coarse_stat_fs: max_threads=%u: expected 1..1048576\n",
		       csf_max_threads);
		return -EINVAL;
	}
	if (csf_stat_period_ms < 1 || csf_stat_period_ms > 10000) {
		pr_err("coarse_stat_fs: stat_period_ms=%u: expected 1..10000\n",
		       csf_stat_period_ms);
		return -EINVAL;
	}

	err = csf_cpu_init(csf_clock_mode);
	if (err)
		return err;
	err = csf_hooks_register();
	if (err)
		goto out_cpu;
	csf_cpu_start();
	err = csf_fs_register();
	if (err)
		goto out_hooks;

	pr_info("coarse_stat_fs: clock %s, %u CPUs, up to %u threads\n",
		csf_cpu_hdr->clock == CSF_CLOCK_TSC ? "tsc" : "mono",
		nr_cpu_ids, csf_max_threads);
	return 0;

out_hooks:
	csf_hooks_unregister();
	rcu_barrier();
	csf_threads_release_all();
out_cpu:
	csf_cpu_exit();
	return err;
}

/*
 * Unmounted and no file open (both pin the module), so nobody maps a page.
 * The probes go first and are waited for; then the RCU callbacks they
 * queued (they run this module's code); then the memory.
 */
static void __exit csf_exit(void)
{
	csf_fs_unregister();
	csf_hooks_unregister();
	rcu_barrier();
	csf_threads_release_all();
	csf_cpu_exit();
}

module_init(csf_init);
module_exit(csf_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-thread scheduler state and per-CPU time as read-only shared pages");
MODULE_AUTHOR("The coarse_stat_fs authors");
