// SPDX-License-Identifier: MIT
/*
 * The clock: csf_rdtsc() reads what the cpu header announces (the CPU's
 * counter before any header), csf_ticks_to_ns() applies its mult/shift
 * with a 128-bit product, csf_ns_to_ticks() goes back through clock_hz.
 */
#include "config.h"

#include <errno.h>

#include "fake_root.h"
#include "unit.h"

static void write_clock(uint32_t clock, uint32_t mult, uint32_t shift)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;

	fake_cpu_header(&h, 1, clock);
	h.clock_mult = mult;
	h.clock_shift = shift;
	fake_write_cpu(root, &h, NULL);
}

START_TEST(mono_clock_reads_clock_monotonic)
{
	uint64_t a, t, b;

	write_clock(CSF_CLOCK_MONO, 1, 0);
	ck_assert_int_eq(csf_clock(), CSF_CLOCK_MONO);
	a = fake_mono_ns();
	t = csf_rdtsc();
	b = fake_mono_ns();
	ck_assert_uint_le(a, t);
	ck_assert_uint_le(t, b);
}
END_TEST

/*
 * The CPU's counter, serialised so that a <= csf_rdtsc() <= b holds on one
 * CPU, and the counter clock of the other architecture, which this one's
 * library must refuse.
 */
#if defined(__x86_64__)
#define COUNTER		CSF_CLOCK_TSC
#define FOREIGN		CSF_CLOCK_CNTVCT
static uint64_t counter(void)
{
	uint64_t t;

	__builtin_ia32_lfence();
	t = __builtin_ia32_rdtsc();
	__builtin_ia32_lfence();
	return t;
}
#elif defined(__aarch64__)
#define COUNTER		CSF_CLOCK_CNTVCT
#define FOREIGN		CSF_CLOCK_TSC
static uint64_t counter(void)
{
	uint64_t t;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb"
			     : "=r"(t) : : "memory");
	return t;
}
#endif

#ifdef COUNTER
START_TEST(counter_before_the_page_is_known)
{
	uint64_t a, t, b;

	/* no library call has mapped anything yet */
	a = counter();
	t = csf_rdtsc();
	b = counter();
	ck_assert_uint_le(a, t);
	ck_assert_uint_le(t, b);
}
END_TEST

START_TEST(counter_clock_reads_the_counter)
{
	uint64_t a, t, b;

	write_clock(COUNTER, 1u << 31, 32);
	ck_assert_int_eq(csf_clock(), COUNTER);
	a = counter();
	t = csf_rdtsc();
	b = counter();
	ck_assert_uint_le(a, t);
	ck_assert_uint_le(t, b);
}
END_TEST

START_TEST(another_architectures_counter_is_refused)
{
	write_clock(FOREIGN, 1u << 31, 32);
	ck_assert_int_eq(csf_clock(), -EPROTO);
}
END_TEST
#define COUNTER_OR_MONO	COUNTER
#else
#define COUNTER_OR_MONO	CSF_CLOCK_MONO
#endif

START_TEST(ticks_to_ns_uses_mult_and_shift)
{
	/* 2 GHz: 0.5 ns per tick */
	write_clock(COUNTER_OR_MONO, 1u << 31, 32);
	ck_assert_uint_eq(csf_ticks_to_ns(1000), 500);
	ck_assert_uint_eq(csf_ticks_to_ns(3), 1);
	/* 2^62 ticks * 2^31 overflows 64 bits; the result does not */
	ck_assert_uint_eq(csf_ticks_to_ns(1ull << 62), 1ull << 61);
}
END_TEST

START_TEST(ns_to_ticks_uses_clock_hz)
{
	const char *root = fake_root_new();
	struct csf_cpu_header h;

	fake_cpu_header(&h, 1, COUNTER_OR_MONO);
	h.clock_hz = 2000000000u;	/* mult/shift below say the same */
	h.clock_mult = 1u << 31;
	h.clock_shift = 32;
	fake_write_cpu(root, &h, NULL);
	ck_assert_uint_eq(csf_clock_hz(), 2000000000u);
	ck_assert_uint_eq(csf_ns_to_ticks(500), 1000);
	ck_assert_uint_eq(csf_ns_to_ticks(1000000), 2000000);
	/* an hour of ns times 2e9 overflows 64 bits; the result does not */
	ck_assert_uint_eq(csf_ns_to_ticks(3600000000000ull), 7200000000000ull);
	ck_assert_uint_eq(csf_ticks_to_ns(csf_ns_to_ticks(123456789)),
			  123456789);
}
END_TEST

START_TEST(clock_names_are_stable_words)
{
	ck_assert_str_eq(csf_clock_name(CSF_CLOCK_TSC), "tsc");
	ck_assert_str_eq(csf_clock_name(CSF_CLOCK_MONO), "monotonic");
	ck_assert_str_eq(csf_clock_name(0), "unknown");
	ck_assert_str_eq(csf_clock_name(CSF_CLOCK_CNTVCT), "cntvct");
	ck_assert_str_eq(csf_clock_name(CSF_CLOCK_CNTVCT + 1), "unknown");
	ck_assert_str_eq(csf_clock_name(1 << 30), "unknown");
	write_clock(CSF_CLOCK_MONO, 1, 0);
	ck_assert_str_eq(csf_clock_name(csf_clock()), "monotonic");
}
END_TEST

START_TEST(ticks_to_ns_without_module_is_identity)
{
	fake_root_new();	/* empty: no cpu file */
	ck_assert_uint_eq(csf_ticks_to_ns(12345), 12345);
	ck_assert_uint_eq(csf_ns_to_ticks(12345), 12345);
	ck_assert_uint_eq(csf_clock_hz(), 0);
	ck_assert_int_eq(csf_clock(), -ENOENT);
	ck_assert_str_eq(csf_clock_name(csf_clock()), "unknown");
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		mono_clock_reads_clock_monotonic,
#ifdef COUNTER
		counter_before_the_page_is_known,
		counter_clock_reads_the_counter,
		another_architectures_counter_is_refused,
#endif
		ticks_to_ns_uses_mult_and_shift,
		ns_to_ticks_uses_clock_hz,
		clock_names_are_stable_words,
		ticks_to_ns_without_module_is_identity,
		NULL,
	};

	return unit_run_tests("clock", tests);
}
