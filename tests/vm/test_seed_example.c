// SPDX-License-Identifier: MIT
/*
 * test_seed_example - the design brief's usage example (examples/seed.c,
 * shipped next to this program) prints a line for each slow operation,
 * naming the sleep of the ones that slept.
 */
#define _GNU_SOURCE
#include <check.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmtest.h"

/* The duration after "@label " in a diff line, in ns; -1 if absent. */
static double part_ns(const char *line, const char *label)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 },
		      { "ms", 1e6 }, { "s", 1e9 } };
	const char *p = strstr(line, label);
	char *end;
	double v;
	size_t i;

	if (!p)
		return -1;
	v = strtod(p + strlen(label), &end);
	if (end == p + strlen(label))
		return -1;
	if (v == 0)
		return 0;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strncmp(end, units[i].unit, strlen(units[i].unit)))
			return v * units[i].ns;
	return -1;
}

START_TEST(slow_operations_are_explained)
{
	char self[PATH_MAX], cmd[PATH_MAX + 64], line[512];
	int sleepers = 0, slow = 0;
	double prev_waits = 0, prev_sleep = 0;
	ssize_t n;
	FILE *f;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	/* 16 rounds on tmpfs: rounds 4, 8, 12, 16 sleep 3 ms, nothing else is slow */
	snprintf(cmd, sizeof(cmd), "%s/seed 16", dirname(self));
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	/*
	 * Every line explains a slow operation.  The four 3 ms sleeps must be
	 * there.  On a loaded host a 100 us spin may be slow too: in the
	 * guest it then shows as runnable, or as running when the host held
	 * the whole vCPU, but never as a sleep.
	 */
	while (fgets(line, sizeof(line), f)) {
		double wall = part_ns(line, "wall "), sleep, waits, longest;

		vm_note("%s", strtok(line, "\n"));
		/*
		 * An operation that waited has a second line naming its
		 * longest wait: its own, so no longer than all its waits,
		 * and a single sleep of the round is that long.
		 */
		if (!strncmp(line, "longest ", 8)) {
			char state[16], label[20];

			ck_assert_msg(prev_waits > 0, "a longest wait of no wait");
			ck_assert_int_eq(sscanf(strstr(line, ": ") + 2, "%15s",
						state), 1);
			snprintf(label, sizeof(label), ": %s ", state);
			longest = part_ns(line, label);
			ck_assert_msg(longest > 0, "no length of the wait");
			ck_assert_msg(longest <= prev_waits * 1.01 + 1e3,
				      "longer than all its waits");
			if (prev_sleep > 0 && !strcmp(state, "sleeping"))
				ck_assert_msg(longest >= prev_sleep * 0.99 - 1e3,
					      "the one sleep is not its length");
			prev_waits = 0;
			continue;
		}
		ck_assert_msg(!strncmp(line, "wall ", 5), "not a diff line");
		/* over 1 ms, printed to 3 digits: "1.00ms" is possible */
		ck_assert_msg(wall >= 0.995e6, "reported but not slow");
		if (wall >= 2.995e6)
			slow++;
		sleep = part_ns(line, " + sleep ");
		ck_assert_msg(sleep >= 0, "no sleep part");
		waits = part_ns(line, " + runnable ") + sleep +
			part_ns(line, " + iowait ") + part_ns(line, " + blocked ");
		prev_waits = waits;
		prev_sleep = sleep;
		/*
		 * nanosleep guarantees the wall time, not the split: time in
		 * the syscall before the switch-out is running (under TCG, a
		 * held vCPU makes that long), and when the vCPU is held past
		 * the timer's expiry the task never switches out: a sleep
		 * round with no voluntary switch is all running, and rightly
		 * names no sleep.  A voluntary switch-out must name its wait.
		 */
		if (sleep > 0) {
			ck_assert_msg(wall >= 2.995e6, "slept less than asked");
			ck_assert_ptr_nonnull(strstr(line, "1 wakeup"));
			sleepers++;
		} else {
			ck_assert_msg(strstr(line, "csw 0 vol") ||
					      part_ns(line, " + iowait ") > 0 ||
					      part_ns(line, " + blocked ") > 0,
				      "switched out voluntarily, no wait named");
		}
	}
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_int_ge(slow, 4);
	vm_note("%d of the slow operations slept", sleepers);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		slow_operations_are_explained,
		NULL,
	};

	return vm_run_tests("seed_example", tests);
}
