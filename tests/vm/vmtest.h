/* SPDX-License-Identifier: MIT */
/*
 * vmtest.h - helpers of the guest test programs (tests/vm/test_*.c).
 *
 * The guest programs read the pages with their own seqcount loop, written
 * from the ABI header alone, so that they check the module independently of
 * the library (which has its own tests on top).
 *
 * What the guest's /init tells them, in the environment:
 *   CSF_ROOT            where the fs is mounted (default CSF_DEFAULT_ROOT)
 *   CSF_CLOCK           "mono", "tsc", "cntvct" or "auto": the module's
 *                       clock= parameter
 *   CSF_KO              path of coarse_stat_fs.ko (for reload tests)
 *   CSF_STAT_PERIOD_MS  the stat_period_ms the module was loaded with
 *   CSF_MAX_THREADS     the max_threads the module was loaded with
 *   CSF_VM_KERNEL       the kernel's name in tests/vm/kernels.tab (6.1 ... debug)
 *   CSF_VM_MODES        the clock modes of this boot, in order ("mono tsc")
 */
#ifndef CSF_VMTEST_H
#define CSF_VMTEST_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coarse_stat_fs_abi.h"

/* Second uid the programs switch to (fork + setuid) for permission checks. */
#define VM_NOBODY 65534

struct vm_cpu_page {
	int fd;
	size_t len;			/* mapped bytes: the file size */
	const struct csf_cpu_header *hdr;
};

/* A consistent copy of one record, with the clock read inside the loop. */
struct vm_cpu_sample {
	uint64_t now;				/* ticks */
	uint32_t state;
	uint64_t state_since;			/* ticks */
	uint64_t time[CSF_CPU_NR_STATES];	/* extrapolated to now */
	uint64_t nr_switches;
	uint32_t online;
	uint64_t stat_time;
	uint64_t stat[CSF_STAT_NR];
};

/* One cpuN line of /proc/stat, in nanoseconds (USER_HZ resolution). */
struct vm_proc_cpu {
	uint64_t ns[CSF_STAT_NR];
};

const char *vm_root(void);
/* $CSF_ROOT/name in a static buffer (one at a time). */
const char *vm_path(const char *name);
/* $CSF_ROOT/threads/<tid>, in vm_path()'s buffer. */
const char *vm_thread_path(pid_t tid);
/* Environment value or @def. */
const char *vm_env(const char *name, const char *def);
long vm_env_long(const char *name, long def);
/* The clock $CSF_CLOCK asks for (a CSF_CLOCK_*); 0 for "auto". */
uint32_t vm_expected_clock(void);

/* This CPU's counter clock: what "auto" may choose besides mono. */
#if defined(__aarch64__)
#define VM_CLOCK_COUNTER	CSF_CLOCK_CNTVCT
#else
#define VM_CLOCK_COUNTER	CSF_CLOCK_TSC
#endif

/*
 * True in the first clock mode of the boot (CSF_VM_MODES), so that a long
 * test whose subject does not depend on the clock runs once per kernel.
 */
bool vm_once_per_boot(void);

/*
 * kernels.tab's slow factor of the kernel under test (CSF_VM_SLOW, 1 for
 * most): a kernel with checkers runs the long loops that many times fewer.
 */
long vm_slow(void);

/* Map the cpu file read-only; aborts the test (ck_abort) on failure. */
void vm_cpu_map(struct vm_cpu_page *p);
void vm_cpu_unmap(struct vm_cpu_page *p);
const struct csf_cpu_record *vm_cpu_record(const struct vm_cpu_page *p,
					   unsigned int cpu);
/* Seqcount read of one record, extrapolated like a library reader does. */
void vm_cpu_read(const struct vm_cpu_page *p, unsigned int cpu,
		 struct vm_cpu_sample *s);

/* The page clock, read in user space: rdtsc or CLOCK_MONOTONIC ns. */
uint64_t vm_clock_now(uint32_t clock);
uint64_t vm_ticks_to_ns(const struct csf_cpu_header *h, uint64_t ticks);
uint64_t vm_mono_ns(void);
/*
 * The wall clock, in ns, to hold the page's durations against:
 * CLOCK_MONOTONIC, or the page's own TSC when the kernel stopped trusting
 * it (CSF_CPU_F_TSC_UNSTABLE).  Then clock_hz is only what a calibration
 * the kernel gave up on said (2.6 times too fast was seen, the host
 * loaded), and the page's durations can only agree with their own clock.
 */
uint64_t vm_wall_ns(const struct csf_cpu_header *h);

/* Number of CPUs in /sys/devices/system/cpu/possible ("0-1" -> 2). */
int vm_possible_cpus(void);
/* /proc/stat: the cpuN line, and the "ctxt" total. */
void vm_proc_stat_cpu(unsigned int cpu, struct vm_proc_cpu *out);
uint64_t vm_proc_stat_ctxt(void);

/* Pin the calling thread to @cpu; aborts on failure. */
void vm_pin(int cpu);
/* Fork a child pinned to @cpu that spins until killed; returns its pid. */
pid_t vm_spinner(int cpu);
void vm_kill(pid_t pid);
void vm_sleep_ms(unsigned int ms);

/*
 * Run @fn in a forked child that has switched to uid/gid VM_NOBODY, and is
 * dumpable like a program that user started; returns
 * what @fn returned (0..255), or -1 if the child died.
 */
int vm_as_nobody(int (*fn)(void *), void *arg);

/*
 * Run @tests (NULL-terminated) as suite @name, one test case, libcheck's
 * verbosity from the environment; the exit status for main().
 */
int vm_run_tests(const char *name, const TTest *const *tests);

/* A page field the module writes concurrently, read once. */
static inline uint64_t vm_load64(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Write @s to the file @path (a sysfs or debugfs knob); 0 or -errno. */
int vm_write_file(const char *path, const char *s);

/* /proc/meminfo's value for @key ("MemFree") in kB, or -1. */
long vm_meminfo_kb(const char *key);

/* One /proc/slabinfo line. */
struct vm_slab {
	char name[40];
	long active;		/* objects in use */
	long objsize;		/* bytes */
};
/* Up to @max caches of /proc/slabinfo into @s; how many, or -1. */
int vm_slab_read(struct vm_slab *s, int max);
/*
 * Shrink every slab cache: frees empty slabs and empties KASAN's
 * quarantine, which counts as allocated, so that two slab_read()s differ
 * by what was really allocated between them.
 */
void vm_shrink_slabs(void);

/*
 * Touch @bytes (at most 64 KiB) of the calling thread's stack below the
 * caller's frame, so that later code running on it takes no page fault: a page
 * table is an allocation made on the thread's behalf.
 */
void vm_touch_stack(size_t bytes);

/* A dmesg-like line on the test output, for context in failure reports. */
void vm_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* CSF_VMTEST_H */
