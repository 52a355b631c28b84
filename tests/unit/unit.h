/* SPDX-License-Identifier: MIT */
/*
 * unit.h - the main() of the host unit tests (tests/unit/test_*.c).
 *
 *	int main(void)
 *	{
 *		const TTest *const tests[] = {
 *			first_test,		(START_TEST(first_test) ...)
 *			second_test,
 *			NULL,
 *		};
 *
 *		return unit_run_tests("feature", tests);
 *	}
 *
 * The tests run in list order, as one test case named like the suite,
 * each in its own forked process under fake_run() (fake_root.h), which
 * also provides the temporary base directory of fake_root_new(): link
 * tests/unit/fake_root.c too.  Forking is not optional (CK_FORK=no is
 * ignored): the library keeps per-process state that every test starts
 * afresh.
 *
 * Timeout of each test: UNIT_TIMEOUT_S, times CK_TIMEOUT_MULTIPLIER
 * (CK_DEFAULT_TIMEOUT is not read).  It catches hangs and measures
 * nothing: libcheck's 4 s default failed CPU-bound tests that take 0.2 s
 * alone, under ASan on a host busy with a VM run.
 *
 * Environment honoured, besides CK_TIMEOUT_MULTIPLIER: CK_RUN_SUITE and
 * CK_RUN_CASE (the suite and its test case are both @name),
 * CK_INCLUDE_TAGS and CK_EXCLUDE_TAGS, CK_LOG_FILE_NAME,
 * CK_TAP_LOG_FILE_NAME and CK_XML_LOG_FILE_NAME, and TMPDIR (where the
 * fake roots go).  The
 * verbosity is CK_NORMAL (fake_run()'s): CK_VERBOSITY is not read.
 *
 * Returns main()'s exit status: EXIT_SUCCESS if every test passed,
 * EXIT_FAILURE if one failed, errored or timed out.
 */
#ifndef CSF_UNIT_H
#define CSF_UNIT_H

#include <check.h>

#define UNIT_TIMEOUT_S 60

/* Run @tests (NULL-terminated) as suite @name; the exit status for main(). */
int unit_run_tests(const char *name, const TTest *const *tests);

#endif /* CSF_UNIT_H */
