/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the libFuzzer targets share: the input as a file, a silent log */
#ifndef P2D_FUZZ_H
#define P2D_FUZZ_H

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

/* Copy file @from to a new file @to (mode 0755) */
static inline void fuzz_copy(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	ssize_t n;

	if (in < 0 || out < 0) {
		perror(in < 0 ? from : to);
		abort();
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			abort();
	close(in);
	close(out);
}

/*
 * A --symfs root in @dir (made with mkdtemp()) holding what the recordings
 * of tests/data ($DATA, else tests/data) name and the host may not have:
 * tests/data/unwind/prog at /tmp/perf2dat-unwind/prog, where unwind.data
 * found it. fuzz_symfs_remove() removes it.
 */
static inline void fuzz_symfs(char *dir)
{
	const char *data = getenv("DATA");
	char path[PATH_MAX + 64], prog[PATH_MAX];

	snprintf(prog, sizeof(prog), "%s/unwind/prog", data ? data : "tests/data");
	if (!mkdtemp(dir)) {
		perror(dir);
		abort();
	}
	snprintf(path, sizeof(path), "%s/tmp", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/tmp/perf2dat-unwind", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/tmp/perf2dat-unwind/prog", dir);
	fuzz_copy(prog, path);
}

static inline void fuzz_symfs_remove(const char *dir)
{
	static const char *const parts[] = {
		"/tmp/perf2dat-unwind/prog", "/tmp/perf2dat-unwind", "/tmp", "",
	};
	char path[PATH_MAX + 64];
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, parts[i]);
		if (i == 0)
			unlink(path);
		else
			rmdir(path);
	}
}

/* Messages are built (and checked by the sanitizers), not shown; one line each */
static inline void fuzz_log(void *ctx, enum p2d_log_level level, const char *msg)
{
	if (strchr(msg, '\n'))
		abort();
}

#endif /* P2D_FUZZ_H */
