/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - what the libFuzzer targets share: a fake root shaped like the
 * mounted filesystem, in a directory of its own, whose files the targets
 * rewrite with the fuzzer's bytes so that the library reads them through
 * its real path (open, mmap, check, sequence-counter copy).
 */
#ifndef CSF_FUZZ_H
#define CSF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A fresh root under $TMPDIR, exported as CSF_ROOT; removed at exit. */
const char *fuzz_root_init(void);

/* Make root/@name exactly @len bytes of @data (in place: same inode). */
void fuzz_root_write(const char *name, const void *data, size_t len);

/* A valid cpu file: @nr_cpus records, CSF_CLOCK_MONO, 1:1 ns. */
void fuzz_root_cpu(uint32_t nr_cpus);

/* Abort with a message: libFuzzer keeps the input that got here. */
#define fuzz_assert(cond)						\
	do {								\
		if (!(cond))						\
			fuzz_fail(__FILE__, __LINE__, #cond);		\
	} while (0)
void fuzz_fail(const char *file, int line, const char *what)
	__attribute__((noreturn));

#endif /* CSF_FUZZ_H */
