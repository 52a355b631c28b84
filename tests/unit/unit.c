// SPDX-License-Identifier: MIT
/* unit.c - the main() of the host unit tests; see unit.h. */
#include "config.h"

#include <check.h>

#include "fake_root.h"
#include "unit.h"

int unit_run_tests(const char *name, const TTest *const *tests)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, UNIT_TIMEOUT_S);
	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return fake_run(s);
}
