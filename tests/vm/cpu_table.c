/* SPDX-License-Identifier: MIT */
/*
 * cpu_table - the demo until csftop exists: print the per-CPU table of the
 * cpu page a few times, through the library.
 *
 *   cpu_table [COUNT [INTERVAL_MS]]     (default 5 tables, 1000 ms apart)
 *
 * Busy/idle/iowait come from the module's sched_switch accounting; user,
 * system, irq and softirq from its copy of the kernel's /proc/stat buckets.
 * scripts/demo runs it (on the host when the module can be loaded there,
 * else in the VM); csftop will take its place.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "coarse_stat_fs.h"

static const char *cpu_state_name(uint32_t s)
{
	switch (s) {
	case CSF_CPU_BUSY: return "busy";
	case CSF_CPU_IDLE: return "idle";
	case CSF_CPU_IOWAIT: return "iowait";
	default: return "?";
	}
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 5;
	long interval_ms = argc > 2 ? atol(argv[2]) : 1000;
	struct csf_cpu_snap *a, *b;
	int n, i, round;
	struct timespec ts = { interval_ms / 1000, (interval_ms % 1000) * 1000000L };

	n = csf_cpu_count();
	if (n < 0) {
		fprintf(stderr, "cpu_table: %s\n", csf_strerror(n));
		return 1;
	}
	a = calloc((size_t)n, sizeof(*a));
	b = calloc((size_t)n, sizeof(*b));
	if (!a || !b)
		return 1;
	printf("coarse_stat_fs cpu page at %s: %d CPUs, clock %s\n", csf_root(),
	       n, csf_clock() == CSF_CLOCK_TSC ? "tsc" : "mono");
	if (csf_cpu_snap(a, (unsigned int)n) < 0)
		return 1;
	for (round = 0; round < count; round++) {
		nanosleep(&ts, NULL);
		if (csf_cpu_snap(b, (unsigned int)n) < 0)
			return 1;
		printf("\n%-4s %-7s %6s %6s %7s %9s %6s %6s %6s %8s\n", "cpu",
		       "now", "busy%", "idle%", "iowait%", "switch/s", "user%",
		       "sys%", "irq%", "softirq%");
		for (i = 0; i < n; i++) {
			struct csf_cpu_delta d;

			if (csf_cpu_delta(&a[i], &b[i], &d) < 0)
				continue;
			printf("%-4d %-7s %6.1f %6.1f %7.1f %9.0f %6.1f %6.1f %6.1f %8.1f\n",
			       i, b[i].online ? cpu_state_name(b[i].state) : "offline",
			       pct(d.busy_ns, d.wall_ns), pct(d.idle_ns, d.wall_ns),
			       pct(d.iowait_ns, d.wall_ns),
			       d.wall_ns ? d.nr_switches * 1e9 / (double)d.wall_ns : 0,
			       pct(d.stat_ns[CSF_STAT_USER] + d.stat_ns[CSF_STAT_NICE], d.wall_ns),
			       pct(d.stat_ns[CSF_STAT_SYSTEM], d.wall_ns),
			       pct(d.stat_ns[CSF_STAT_IRQ], d.wall_ns),
			       pct(d.stat_ns[CSF_STAT_SOFTIRQ], d.wall_ns));
		}
		fflush(stdout);
		for (i = 0; i < n; i++)
			a[i] = b[i];
	}
	free(a);
	free(b);
	return 0;
}
