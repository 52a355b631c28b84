// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - which clock the pages are kept on.
 *
 * User space extrapolates the open interval of a state with its own clock
 * read, so the module must use a clock that user space reads cheaply and
 * identically: the TSC where the kernel trusts it, else CLOCK_MONOTONIC
 * (read here with the NMI-safe fast accessor, which the vDSO matches).
 */
#include <linux/clocksource.h>
#include <linux/string.h>
#include <linux/printk.h>
#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
#include <asm/cpufeature.h>
#endif

#include "csf.h"

DEFINE_STATIC_KEY_FALSE(csf_clock_tsc);
struct csf_state_clock csf_state_clk __read_mostly;

#ifdef CONFIG_X86_TSC
/* The conditions under which the kernel itself lets the vDSO use the TSC. */
static bool csf_tsc_reliable(void)
{
	return boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	       boot_cpu_has(X86_FEATURE_NONSTOP_TSC) &&
	       !check_tsc_unstable();
}
#endif

int csf_clock_init(const char *mode, struct csf_cpu_header *hdr)
{
	bool want_tsc;

	if (!strcmp(mode, "tsc")) {
		want_tsc = true;
	} else if (!strcmp(mode, "mono")) {
		want_tsc = false;
	} else if (!strcmp(mode, "auto")) {
#ifdef CONFIG_X86_TSC
		want_tsc = boot_cpu_has(X86_FEATURE_TSC) && csf_tsc_reliable();
#else
		want_tsc = false;
#endif
	} else {
		pr_err("coarse_stat_fs: clock=%s: expected auto, tsc or mono\n",
		       mode);
		return -EINVAL;
	}

	if (want_tsc) {
#ifdef CONFIG_X86_TSC
		u32 mult, shift;

		if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz) {
			pr_err("coarse_stat_fs: clock=tsc: this CPU has no usable TSC\n");
			return -ENODEV;
		}
		/*
		 * Ten minutes of ticks times mult still fit in 64 bits, for
		 * readers without a 128-bit multiply.
		 */
		clocks_calc_mult_shift(&mult, &shift, tsc_khz * 1000,
				       NSEC_PER_SEC, 600);
		hdr->clock = CSF_CLOCK_TSC;
		hdr->clock_hz = (u64)tsc_khz * 1000;
		hdr->clock_mult = mult;
		hdr->clock_shift = shift;
		csf_state_clk = (struct csf_state_clock){ mult, shift };
		static_branch_enable(&csf_clock_tsc);
		csf_clock_check(hdr);
		if (hdr->flags & CSF_CPU_F_TSC_UNSTABLE)
			pr_warn("coarse_stat_fs: clock=tsc forced although the kernel marked the TSC unstable\n");
#else
		pr_err("coarse_stat_fs: clock=tsc: no TSC on this architecture\n");
		return -ENODEV;
#endif
	} else {
		hdr->clock = CSF_CLOCK_MONO;
		hdr->clock_hz = NSEC_PER_SEC;
		hdr->clock_mult = 1;
		hdr->clock_shift = 0;
		csf_state_clk = (struct csf_state_clock){ 1, 0 };
	}
	return 0;
}

/*
 * The clocksource watchdog may declare the TSC unstable long after boot and
 * tells no module about it: look again at every stat period and publish.
 */
void csf_clock_check(struct csf_cpu_header *hdr)
{
#ifdef CONFIG_X86_TSC
	if (static_branch_likely(&csf_clock_tsc) && !csf_tsc_reliable() &&
	    !(READ_ONCE(hdr->flags) & CSF_CPU_F_TSC_UNSTABLE))
		WRITE_ONCE(hdr->flags, hdr->flags | CSF_CPU_F_TSC_UNSTABLE);
#endif
}
