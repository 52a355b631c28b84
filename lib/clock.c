// SPDX-License-Identifier: MIT
/*
 * clock.c - the clock the cpu page's header announces: csf_rdtsc(),
 * csf_clock(), csf_clock_hz(), csf_ticks_to_ns(), csf_ns_to_ticks().
 */
#include "config.h"

#include "internal.h"

CSF_PUBLIC uint64_t csf_rdtsc(void)
{
	return csf_read_clock();
}

CSF_PUBLIC int csf_clock(void)
{
	int err = csf_cpu_init();

	return err ? err : (int)csf_cpu.clock;
}

/*
 * The 128-bit product keeps long durations exact: a TSC mult is around
 * 2^shift / GHz with shift up to 32, so a 64-bit product would overflow
 * after seconds.  Without the cpu page the ticks are returned unchanged
 * (no module, no ticks to convert).
 */
CSF_PUBLIC uint64_t csf_ticks_to_ns(uint64_t ticks)
{
	if (csf_cpu_init())
		return ticks;
	return (uint64_t)(((unsigned __int128)ticks * csf_cpu.clock_mult) >>
			  csf_cpu.clock_shift);
}

/* Through clock_hz, not mult/shift: mult/shift only go one way exactly. */
CSF_PUBLIC uint64_t csf_ns_to_ticks(uint64_t ns)
{
	if (csf_cpu_init() || !csf_cpu.clock_hz)
		return ns;
	return (uint64_t)((unsigned __int128)ns * csf_cpu.clock_hz /
			  1000000000u);
}

CSF_PUBLIC uint64_t csf_clock_hz(void)
{
	return csf_cpu_init() ? 0 : csf_cpu.clock_hz;
}
