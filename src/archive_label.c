// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * archive_label.c - do the labels of a PCP archive's files agree
 * (archive_label.h)?
 *
 * Every file of an archive (.meta, .index, .0, .1, ...) starts with the
 * same label record; only the volume number differs (LOGARCHIVE(5)).
 * libpcp reads the label of the first volume it opens and checks little
 * of the others', so damage inside another file's label, which leaves
 * every record readable, passes it on every version.  Format 3's label
 * is 808 bytes where format 2's is 132: a damage at a fixed offset hits
 * records in one format and labels in the other.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive_label.h"

#define LABEL_MAX 4096		/* format 3's is 808 bytes */
#define MAGIC_V2 0x50052602u
#define MAGIC_V3 0x50052603u

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * The label record of @path into @buf: its length, 0 when there is no
 * such file, -1 when it does not start with a label of format 2 or 3.
 */
static long read_label(const char *path, unsigned char *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;
	uint32_t len, magic;

	if (!f)
		return errno == ENOENT ? 0 : -1;
	n = fread(buf, 1, 8, f);
	len = n == 8 ? be32(buf) : 0;
	magic = n == 8 ? be32(buf + 4) : 0;
	if (n != 8 || len < 32 || len > LABEL_MAX ||
	    (magic != MAGIC_V2 && magic != MAGIC_V3) ||
	    fread(buf + 8, 1, len - 8, f) != len - 8 ||
	    be32(buf + len - 4) != len) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return (long)len;
}

/* The byte offset of the volume number in a label record. */
static size_t vol_offset(const unsigned char *label)
{
	return be32(label + 4) == MAGIC_V3 ? 24 : 20;
}

/* @a and @b agree but for their volume numbers. */
static int same_label(const unsigned char *a, long alen,
		      const unsigned char *b, long blen)
{
	size_t v = vol_offset(a);

	return alen == blen && !memcmp(a, b, v) &&
	       !memcmp(a + v + 4, b + v + 4, (size_t)alen - v - 4);
}

/*
 * @archive's base name: the name less a ".meta", ".index" or ".N" of its
 * files (a compressed volume's name is left as it is: it has no label to
 * read here).
 */
static void base_name(const char *archive, char *base, size_t len)
{
	const char *dot = strrchr(archive, '.');
	const char *slash = strrchr(archive, '/');

	snprintf(base, len, "%s", archive);
	if (!dot || (slash && dot < slash))
		return;
	if (!strcmp(dot, ".meta") || !strcmp(dot, ".index") ||
	    (dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1)))
		base[dot - archive] = '\0';
}

/* Compare the label of @base@suffix with @first (or make it @first). */
static int check_file(const char *base, const char *suffix,
		      unsigned char *first, long *first_len,
		      unsigned char *buf, char *why, size_t len)
{
	char path[4096];
	long n;

	snprintf(path, sizeof(path), "%s%s", base, suffix);
	n = read_label(path, buf);
	if (n == 0)
		return 0;
	if (n < 0 || (*first_len && !same_label(first, *first_len, buf, n))) {
		snprintf(why, len, "%s", path);
		return -1;
	}
	if (!*first_len) {
		memcpy(first, buf, (size_t)n);
		*first_len = n;
	}
	return 1;
}

int archive_labels_agree(const char *archive, char *why, size_t len)
{
	static const char *const fixed[] = { ".meta", ".index" };
	unsigned char *first = malloc(LABEL_MAX), *buf = malloc(LABEL_MAX);
	char base[4096], vol[32];
	long first_len = 0;
	int rc = 0;

	if (!first || !buf) {
		free(first);
		free(buf);
		return -ENOMEM;
	}
	base_name(archive, base, sizeof(base));
	/* the first volume's label is what libpcp reads: the reference */
	rc = check_file(base, ".0", first, &first_len, buf, why, len);
	for (size_t i = 0; i < 2 && rc >= 0; i++)
		rc = check_file(base, fixed[i], first, &first_len, buf, why,
				len);
	/* further volumes are numbered on from 1; a missing one ends them */
	for (unsigned int v = 1; rc >= 0; v++) {
		snprintf(vol, sizeof(vol), ".%u", v);
		rc = check_file(base, vol, first, &first_len, buf, why, len);
		if (rc == 0)
			break;
	}
	free(first);
	free(buf);
	return rc < 0 ? -EILSEQ : 0;
}
