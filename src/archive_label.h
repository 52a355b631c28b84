/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * archive_label.h - check that the files of a PCP archive carry one label.
 */
#ifndef CSFTOP_ARCHIVE_LABEL_H
#define CSFTOP_ARCHIVE_LABEL_H

#include <stddef.h>

/*
 * archive_labels_agree - 0 when the labels of @archive's uncompressed
 * files (.meta, .index, .0, .1, ...) agree but for their volume numbers,
 * as LOGARCHIVE(5) says they do, or when @archive names no such files (a
 * directory, a list, compressed volumes: libpcp alone judges those);
 * -EILSEQ when one is no label or differs, with that file's name in @why;
 * -ENOMEM.
 */
int archive_labels_agree(const char *archive, char *why, size_t len);

#endif /* CSFTOP_ARCHIVE_LABEL_H */
