// SPDX-License-Identifier: MIT
/*
 * fuzz_format_diff - csf_snap_delta() and csf_format_diff() on arbitrary
 * pairs of snapshots (time going backwards, counters wrapping, states out
 * of range) with arbitrary clock conversions and buffer lengths, small
 * ones included.  The line must always be NUL-terminated within @len,
 * nothing may be written past @len (a canary follows it), and the length
 * returned must be the string's.
 *
 * Input: two struct csf_snap, then clock_mult (4 bytes), clock_shift (1)
 * and len (2), zeroes where the input is short.  The conversion is set in
 * the library's cpu state directly, within what its header check admits
 * (mult != 0, shift < 64), as if a cpu page said so.
 */
#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "coarse_stat_fs.h"
#include "internal.h"
#include "fuzz.h"

#define CANARY 16

struct input {
	struct csf_snap before, after;
	uint32_t mult;
	uint8_t shift;
	uint16_t len;
};

/* The input's bytes, in the order the comment above gives. */
static void parse(struct input *in, const uint8_t *data, size_t size)
{
	uint8_t raw[2 * sizeof(struct csf_snap) + 7];
	size_t off = 2 * sizeof(struct csf_snap);

	memset(raw, 0, sizeof(raw));
	memcpy(raw, data, size < sizeof(raw) ? size : sizeof(raw));
	memcpy(&in->before, raw, sizeof(in->before));
	memcpy(&in->after, raw + sizeof(in->before), sizeof(in->after));
	memcpy(&in->mult, raw + off, 4);
	in->shift = raw[off + 4];
	memcpy(&in->len, raw + off + 5, 2);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the micro sign is the one multibyte unit: UTF-8 exercises it */
	setlocale(LC_ALL, "C.UTF-8");
	csf_cpu.clock = CSF_CLOCK_MONO;
	csf_cpu.clock_hz = 1000000000;
	csf_clock_id = CSF_CLOCK_MONO;
	__atomic_store_n(&csf_cpu_ready, 1, __ATOMIC_RELEASE);
	return 0;
}

static void check_line(const char *buf, size_t len, int r)
{
	size_t i;

	for (i = 0; i < CANARY; i++)
		fuzz_assert((unsigned char)buf[len + i] == 0xa5);
	if (!len)
		return;
	fuzz_assert(memchr(buf, '\0', len) != NULL);
	if (r >= 0)
		fuzz_assert(strlen(buf) == (size_t)r && (size_t)r < len);
	else
		fuzz_assert(buf[0] == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	struct csf_delta d;
	char *buf;
	size_t len;
	int r, rd;

	parse(&in, data, size);
	csf_cpu.clock_mult = in.mult ? in.mult : 1;
	csf_cpu.clock_shift = in.shift & 63;
	len = in.len % (CSF_DIFF_BUFSZ + 64);

	rd = csf_snap_delta(&in.before, &in.after, &d);
	fuzz_assert(rd == 0 || rd == -EINVAL);

	buf = malloc(len + CANARY);
	fuzz_assert(buf != NULL);
	memset(buf, 0xa5, len + CANARY);
	r = csf_format_diff(buf, len, &in.before, &in.after);
	check_line(buf, len, r);
	if (rd)
		fuzz_assert(r == rd);
	/* what CSF_DIFF_BUFSZ promises */
	if (!rd && len >= CSF_DIFF_BUFSZ)
		fuzz_assert(r > 0);

	/* -ENOSPC leaves snprintf's cut string: terminated, nothing more */
	memset(buf, 0xa5, len + CANARY);
	r = csf_format_ns(buf, len, rd ? in.after.now : d.wall_ns);
	fuzz_assert(r >= 0 || r == -ENOSPC);
	if (r >= 0)
		check_line(buf, len, r);
	for (size_t i = 0; i < CANARY; i++)
		fuzz_assert((unsigned char)buf[len + i] == 0xa5);
	if (len)
		fuzz_assert(memchr(buf, '\0', len) != NULL);
	free(buf);
	return 0;
}
