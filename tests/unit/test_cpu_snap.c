// SPDX-License-Identifier: MIT
/*
 * Per-CPU snapshots: records found by the published sizes (so a later
 * minor's larger header and records are read right), the open interval
 * extrapolated, deltas, and the registration generation.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fake_root.h"
#include "unit.h"

#define NR 3

static uint64_t since;

/* A later minor: 64 more header bytes, 40 more per record, all 0xee. */
static const char *write_future_cpu(void)
{
	const char *root = fake_root_new();
	struct csf_cpu_record r[NR];
	struct csf_cpu_header h;
	unsigned int i, j;

	fake_cpu_header(&h, NR, CSF_CLOCK_MONO);
	h.abi_minor = CSF_ABI_MINOR + 3;
	h.header_size += 64;
	h.record_size += 40;
	h.generation = 42;
	memset(r, 0, sizeof(r));
	since = fake_mono_ns() - 1000000000u;
	for (i = 0; i < NR; i++) {
		r[i].state = CSF_CPU_BUSY;
		r[i].state_since = since;
		for (j = 0; j < CSF_CPU_NR_STATES; j++)
			r[i].time[j] = 1000 * (i + 1) + j;
		r[i].nr_switches = 100 + i;
		r[i].online = 1;
		r[i].stat_time = 7 + i;
		for (j = 0; j < CSF_STAT_NR; j++)
			r[i].stat[j] = 10000 * (i + 1) + j;
	}
	r[1].state = CSF_CPU_IDLE;
	r[2].state = CSF_CPU_IOWAIT;
	r[2].online = 0;
	fake_write_cpu(root, &h, r);
	return root;
}

START_TEST(records_at_published_offsets)
{
	struct csf_cpu_snap s[NR];
	unsigned int i, j;

	write_future_cpu();
	ck_assert_int_eq(csf_cpu_count(), NR);
	ck_assert_int_eq(csf_cpu_snap(s, NR), NR);
	for (i = 0; i < NR; i++) {
		for (j = 0; j < CSF_STAT_NR; j++)
			ck_assert_uint_eq(s[i].stat[j], 10000 * (i + 1) + j);
		ck_assert_uint_eq(s[i].nr_switches, 100 + i);
		ck_assert_uint_eq(s[i].stat_time, 7 + i);
		ck_assert_uint_ge(s[i].now, since + 1000000000u);
	}
	ck_assert_uint_eq(s[0].online, 1);
	ck_assert_uint_eq(s[2].online, 0);
	ck_assert_uint_eq(s[1].state, CSF_CPU_IDLE);
}
END_TEST

START_TEST(open_interval_is_extrapolated)
{
	struct csf_cpu_snap s[NR];
	unsigned int i, j;

	write_future_cpu();
	ck_assert_int_eq(csf_cpu_snap(s, NR), NR);
	/* CPU i is in state i since "since" */
	for (i = 0; i < NR; i++)
		for (j = 0; j < CSF_CPU_NR_STATES; j++)
			ck_assert_uint_eq(s[i].time[j],
					  1000 * (i + 1) + j +
					  (i == j ? s[i].now - since : 0));
}
END_TEST

START_TEST(snap_count_is_clamped)
{
	struct csf_cpu_snap s[NR + 5];

	write_future_cpu();
	ck_assert_int_eq(csf_cpu_snap(s, NR + 5), NR);
	ck_assert_int_eq(csf_cpu_snap(s, 1), 1);
	ck_assert_int_eq(csf_cpu_snap(s, 0), 0);
}
END_TEST

START_TEST(delta_of_each_bucket)
{
	struct csf_cpu_snap a, b;
	struct csf_cpu_delta d;
	unsigned int i;

	write_future_cpu();
	memset(&a, 0, sizeof(a));
	a.now = 1000;
	a.time[CSF_CPU_BUSY] = 10;
	a.time[CSF_CPU_IDLE] = 20;
	a.time[CSF_CPU_IOWAIT] = 30;
	a.nr_switches = 5;
	for (i = 0; i < CSF_STAT_NR; i++)
		a.stat[i] = 100;
	b = a;
	b.now += 600;
	b.time[CSF_CPU_BUSY] += 100;
	b.time[CSF_CPU_IDLE] += 200;
	b.time[CSF_CPU_IOWAIT] += 300;
	b.nr_switches += 9;
	b.stat[CSF_STAT_USER] += 50;
	b.stat[CSF_STAT_IOWAIT] -= 20;	/* the kernel's NOHZ iowait can */

	ck_assert_int_eq(csf_cpu_delta(&a, &b, &d), 0);
	ck_assert_uint_eq(d.wall_ns, 600);
	ck_assert_uint_eq(d.busy_ns, 100);
	ck_assert_uint_eq(d.idle_ns, 200);
	ck_assert_uint_eq(d.iowait_ns, 300);
	ck_assert_uint_eq(d.nr_switches, 9);
	ck_assert_uint_eq(d.stat_ns[CSF_STAT_USER], 50);
	ck_assert_uint_eq(d.stat_ns[CSF_STAT_IOWAIT], 0);
	ck_assert_uint_eq(d.stat_ns[CSF_STAT_SYSTEM], 0);

	ck_assert_int_eq(csf_cpu_delta(&b, &a, &d), -EINVAL);
}
END_TEST

START_TEST(generation_is_read_live)
{
	const char *root = write_future_cpu();
	uint64_t gen, v = 43;
	char path[4200];
	int fd;

	ck_assert_int_eq(csf_generation(&gen), 0);
	ck_assert_uint_eq(gen, 42);
	snprintf(path, sizeof(path), "%s/cpu", root);
	fd = open(path, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, &v, sizeof(v),
				offsetof(struct csf_cpu_header, generation)),
			 8);
	close(fd);
	ck_assert_int_eq(csf_generation(&gen), 0);
	ck_assert_uint_eq(gen, 43);
}
END_TEST

START_TEST(many_cpus_span_several_pages)
{
	const char *root = fake_root_new();
	struct csf_cpu_record r[64];
	struct csf_cpu_snap s[64];
	struct csf_cpu_header h;
	unsigned int i;

	fake_cpu_header(&h, 64, CSF_CLOCK_MONO);
	memset(r, 0, sizeof(r));
	for (i = 0; i < 64; i++)
		r[i].nr_switches = i * 3;
	fake_write_cpu(root, &h, r);
	ck_assert_int_eq(csf_cpu_snap(s, 64), 64);
	ck_assert_uint_eq(s[63].nr_switches, 63 * 3);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		records_at_published_offsets,
		open_interval_is_extrapolated,
		snap_count_is_clamped,
		delta_of_each_bucket,
		generation_is_read_live,
		many_cpus_span_several_pages,
		NULL,
	};

	return unit_run_tests("cpu_snap", tests);
}
