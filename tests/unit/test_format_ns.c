// SPDX-License-Identifier: MIT
/*
 * csf_format_ns(): three significant digits, rounding that may carry into
 * the next unit, "us" in ASCII locales and the micro sign in UTF-8 ones;
 * csf_state_name().
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "fake_root.h"
#include "unit.h"

static const char *fmt(uint64_t ns)
{
	static char buf[64];
	int n = csf_format_ns(buf, sizeof(buf), ns);

	ck_assert_int_eq(n, (int)strlen(buf));
	return buf;
}

START_TEST(units_and_rounding)
{
	ck_assert_str_eq(fmt(0), "0ns");
	ck_assert_str_eq(fmt(812), "812ns");
	ck_assert_str_eq(fmt(999), "999ns");
	ck_assert_str_eq(fmt(1000), "1.00us");
	ck_assert_str_eq(fmt(1234), "1.23us");
	ck_assert_str_eq(fmt(1235), "1.24us");
	ck_assert_str_eq(fmt(9994), "9.99us");
	ck_assert_str_eq(fmt(9995), "10.0us");
	ck_assert_str_eq(fmt(12345), "12.3us");
	ck_assert_str_eq(fmt(99949), "99.9us");
	ck_assert_str_eq(fmt(99950), "100us");
	ck_assert_str_eq(fmt(999499), "999us");
	ck_assert_str_eq(fmt(999500), "1.00ms");
	ck_assert_str_eq(fmt(3050000), "3.05ms");
	ck_assert_str_eq(fmt(12350000), "12.4ms");
	ck_assert_str_eq(fmt(999500000), "1.00s");
	ck_assert_str_eq(fmt(1200000000), "1.20s");
	ck_assert_str_eq(fmt(123456000000ull), "123s");
	ck_assert_str_eq(fmt(3600000000000ull), "3600s");
	ck_assert_str_eq(fmt(UINT64_MAX), "18446744074s");
}
END_TEST

START_TEST(micro_sign_only_in_utf8)
{
	ck_assert_str_eq(fmt(2500), "2.50us");
	if (!setlocale(LC_ALL, "C.UTF-8")) {
		fprintf(stderr, "micro_sign_only_in_utf8: no C.UTF-8 locale, "
			"half of the test skipped\n");
		return;
	}
	ck_assert_str_eq(fmt(2500), "2.50\xc2\xb5s");
	ck_assert_str_eq(fmt(2500000), "2.50ms");
	setlocale(LC_ALL, "C");
	ck_assert_str_eq(fmt(2500), "2.50us");
}
END_TEST

START_TEST(short_buffer_is_enospc)
{
	char buf[8];

	ck_assert_int_eq(csf_format_ns(buf, 6, 1234), -ENOSPC);
	ck_assert_int_eq(csf_format_ns(buf, 7, 1234), 6);
	ck_assert_str_eq(buf, "1.23us");
	ck_assert_int_eq(csf_format_ns(buf, 3, 12), -ENOSPC);
}
END_TEST

START_TEST(state_names)
{
	ck_assert_str_eq(csf_state_name(CSF_STATE_RUNNING), "running");
	ck_assert_str_eq(csf_state_name(CSF_STATE_RUNNABLE), "runnable");
	ck_assert_str_eq(csf_state_name(CSF_STATE_SLEEPING), "sleeping");
	ck_assert_str_eq(csf_state_name(CSF_STATE_IOWAIT), "iowait");
	ck_assert_str_eq(csf_state_name(CSF_STATE_BLOCKED), "blocked");
	ck_assert_str_eq(csf_state_name(CSF_STATE_EXITED), "exited");
	ck_assert_str_eq(csf_state_name(CSF_STATE_EXITED + 1), "?");
	ck_assert_str_eq(csf_state_name(~0u), "?");
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		units_and_rounding,
		micro_sign_only_in_utf8,
		short_buffer_is_enospc,
		state_names,
		NULL,
	};

	return unit_run_tests("format_ns", tests);
}
