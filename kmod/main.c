// SPDX-License-Identifier: GPL-2.0
/*
 * coarse_stat_fs - per-thread scheduler state and per-CPU utilisation as
 * read-only shared pages, kept current from scheduler tracepoints.
 *
 * main.c: load and unload order.
 */
#include <linux/module.h>
#include <linux/rcupdate.h>

#include "csf.h"

#define CSF_ABI_ASSERT(e) static_assert(e)
#include "coarse_stat_fs_abi_layout.h"

static int __init csf_init(void)
{
	int err;

	err = csf_params_check();
	if (err)
		return err;
	err = csf_registry_init();
	if (err)
		return err;
	err = csf_cpu_init(csf_clock_mode);
	if (err)
		goto out_registry;
	err = csf_hooks_register();
	if (err)
		goto out_cpu;
	csf_cpu_start();
	err = csf_fs_register();
	if (err)
		goto out_hooks;

	pr_info("coarse_stat_fs: clock %s, %u CPUs, up to %u threads\n",
		csf_clock_label(csf_cpu_hdr),
		nr_cpu_ids, csf_max_threads);
	/* Loaded either way: the tasks created from now on are registered. */
	if (csf_attach_all_at_load) {
		err = csf_thread_attach_all(NULL);
		if (err)
			pr_warn("coarse_stat_fs: attach_all: the threads present: error %d\n",
				err);
	}
	return 0;

out_hooks:
	csf_hooks_unregister();
	rcu_barrier();
out_cpu:
	csf_cpu_exit();
out_registry:
	csf_registry_exit();
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
	csf_registry_exit();
	csf_cpu_exit();
}

module_init(csf_init);
module_exit(csf_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-thread scheduler state and per-CPU time as read-only shared pages");
MODULE_AUTHOR("The coarse_stat_fs authors");
#ifdef CSF_VERSION
MODULE_VERSION(CSF_VERSION);
#endif
