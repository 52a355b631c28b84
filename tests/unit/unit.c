// SPDX-License-Identifier: MIT
/* unit.c - the main() of the host unit tests; see unit.h. */
#include "config.h"

#include <check.h>

#include "fake_root.h"
#include "unit.h"

static int run(const char *name, const TTest *const *tests, double timeout)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);

	if (timeout > 0)
		tcase_set_timeout(tc, timeout);
	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return fake_run(s);
}

int unit_run_tests(const char *name, const TTest *const *tests)
{
	return run(name, tests, 0);
}

int unit_run_tests_timeout(const char *name, const TTest *const *tests,
			   double timeout)
{
	return run(name, tests, timeout);
}
