/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the libFuzzer targets share: the input as a file, a silent log */
#ifndef P2D_FUZZ_H
#define P2D_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf2dat.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A memfd holding exactly @data, positioned at its start */
static inline int fuzz_file(int fd, const uint8_t *data, size_t size)
{
	if (fd < 0)
		fd = memfd_create("p2d-fuzz-input", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) < 0 ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size) || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	return fd;
}

/* Messages are built (and checked by the sanitizers), not shown; one line each */
static inline void fuzz_log(void *ctx, enum p2d_log_level level, const char *msg)
{
	if (strchr(msg, '\n'))
		abort();
}

#endif /* P2D_FUZZ_H */
