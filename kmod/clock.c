// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - which clock the pages are kept on.
 *
 * User space extrapolates the open interval of a state with its own clock
 * read, so the module must use a clock that user space reads cheaply and
 * identically: the architecture's counter where the kernel lets user
 * space read it as the vDSO does (the TSC on x86, CNTVCT_EL0 on arm64),
 * else CLOCK_MONOTONIC (read here with the NMI-safe fast accessor, which
 * the vDSO matches).
 */
#include <linux/clocksource.h>
#include <linux/string.h>
#include <linux/printk.h>
#include <linux/smp.h>
#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
#include <asm/cpufeature.h>
#endif

#include "csf.h"

DEFINE_STATIC_KEY_FALSE(csf_clock_counter);
struct csf_state_clock csf_state_clk __read_mostly;

#if defined(CONFIG_X86_TSC)
#define CSF_COUNTER_NAME	"tsc"
#define CSF_COUNTER_CLOCK	CSF_CLOCK_TSC

/* Ticks per second, or 0 when this CPU has no counter to read. */
static u64 csf_counter_hz(void)
{
	return boot_cpu_has(X86_FEATURE_TSC) ? (u64)tsc_khz * 1000 : 0;
}

/* The conditions under which the kernel itself lets the vDSO use the TSC. */
static bool csf_counter_trusted(void)
{
	return boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	       boot_cpu_has(X86_FEATURE_NONSTOP_TSC) &&
	       !check_tsc_unstable();
}
#elif defined(CONFIG_ARM64)
#define CSF_COUNTER_NAME	"cntvct"
#define CSF_COUNTER_CLOCK	CSF_CLOCK_CNTVCT

static u64 csf_counter_hz(void)
{
	return arch_timer_get_cntfrq();
}

static void csf_cntvct_check_cpu(void *trapped)
{
	if (!(arch_timer_get_cntkctl() & ARCH_TIMER_USR_VCT_ACCESS_EN))
		atomic_inc(trapped);
}

/*
 * The arch timer driver clears EL0's access to the virtual count on a CPU
 * whose counter erratum it works around, and the kernel then emulates
 * every user read: so every CPU must allow it.
 */
static bool csf_counter_trusted(void)
{
	atomic_t trapped = ATOMIC_INIT(0);

	on_each_cpu(csf_cntvct_check_cpu, &trapped, 1);
	return !atomic_read(&trapped);
}
#else
#define CSF_COUNTER_NAME	"counter"
#define CSF_COUNTER_CLOCK	CSF_CLOCK_MONO

static u64 csf_counter_hz(void)
{
	return 0;
}

static bool csf_counter_trusted(void)
{
	return false;
}
#endif

static void csf_clock_set(struct csf_cpu_header *hdr, u32 clock, u64 hz)
{
	u32 mult = 1, shift = 0;

	/*
	 * Ten minutes of ticks times mult still fit in 64 bits, for readers
	 * without a 128-bit multiply.
	 */
	if (hz != NSEC_PER_SEC)
		clocks_calc_mult_shift(&mult, &shift, hz, NSEC_PER_SEC, 600);
	hdr->clock = clock;
	hdr->clock_hz = hz;
	hdr->clock_mult = mult;
	hdr->clock_shift = shift;
	csf_state_clk = (struct csf_state_clock){ mult, shift };
}

int csf_clock_init(const char *mode, struct csf_cpu_header *hdr)
{
	bool counter;

	if (!strcmp(mode, CSF_COUNTER_NAME)) {
		counter = true;
	} else if (!strcmp(mode, "mono")) {
		counter = false;
	} else if (!strcmp(mode, "auto")) {
		counter = csf_counter_hz() && csf_counter_trusted();
	} else {
		pr_err("coarse_stat_fs: clock=%s: expected auto, %s or mono\n",
		       mode, CSF_COUNTER_NAME);
		return -EINVAL;
	}
	if (!counter) {
		csf_clock_set(hdr, CSF_CLOCK_MONO, NSEC_PER_SEC);
		return 0;
	}
	if (!csf_counter_hz()) {
		pr_err("coarse_stat_fs: clock=%s: no usable counter on this CPU\n",
		       mode);
		return -ENODEV;
	}
	csf_clock_set(hdr, CSF_COUNTER_CLOCK, csf_counter_hz());
	static_branch_enable(&csf_clock_counter);
	if (!csf_counter_trusted())
		pr_warn("coarse_stat_fs: clock=%s forced although the kernel does not let the vDSO use it\n",
			mode);
	csf_clock_check(hdr);
	return 0;
}

const char *csf_clock_label(const struct csf_cpu_header *hdr)
{
	return hdr->clock == CSF_CLOCK_MONO ? "mono" : CSF_COUNTER_NAME;
}

/*
 * The clocksource watchdog may declare the TSC unstable long after boot and
 * tells no module about it: look again at every stat period and publish.
 */
void csf_clock_check(struct csf_cpu_header *hdr)
{
#ifdef CONFIG_X86_TSC
	if (static_branch_likely(&csf_clock_counter) &&
	    !csf_counter_trusted() &&
	    !(READ_ONCE(hdr->flags) & CSF_CPU_F_TSC_UNSTABLE))
		/* atomic: "all" sets another flag (attach.c) */
		atomic_or(CSF_CPU_F_TSC_UNSTABLE, (atomic_t *)&hdr->flags);
#endif
}
