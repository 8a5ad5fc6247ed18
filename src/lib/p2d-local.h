/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every file of libperf2dat shares: visibility, printf checking, the
 * limits on sizes read from an input, and the byte-order primitives.
 *
 * The stages, each with its own header:
 *
 *	input.h cursor.h	bytes of the recording, bounds-checked reads
 *	read-perf.h		the perf.data reader (an import handler)
 *	sink.h			what an import handler feeds: events, losses,
 *				side-band records, metadata (meta.h)
 *	tracing.h		the tracing data: event formats (libtraceevent)
 *	select.h		which events a conversion keeps
 *	reorder.h		per-CPU time order within perf's rounds
 *	tasks.h			task names
 *	pages.h			ftrace ring-buffer pages
 *	cpufiles.h		pages of each CPU in unlinked files
 *	write.h			the trace.dat, through libtracecmd's writer
 *	diag.h			messages: errors with their input offset
 *
 * convert.c runs them: p2d_convert() of perf2dat.h.
 */
#ifndef P2D_LOCAL_H
#define P2D_LOCAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <sys/types.h>

#include "perf2dat.h"

#define __hidden __attribute__((visibility("hidden")))
#define P2D_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Limits on sizes read from the input, so a corrupt file cannot exhaust memory */
#define P2D_MAX_CPUS		8192
#define P2D_MAX_ATTRS		4096
#define P2D_MAX_IDS		(1u << 20)
#define P2D_MAX_TRACING		(512ull << 20)	/* the tracing data blob */
#define P2D_MAX_FEATURE		(64ull << 20)	/* any other feature section */
#define P2D_MAX_TASKS		(4u << 20)
#define P2D_QUEUE_CAP		(24u << 20)	/* reorder queue payload bytes */
#define P2D_PREFAULT_MIN	(64u << 10)	/* hash tables this large are mapped at once */

#include "bytes.h"

/**
 * struct p2d_names - where a stage says that a named temporary file exists
 * @fn: the caller's &p2d_name_fn, or NULL
 * @ctx: passed to @fn
 */
struct p2d_names {
	p2d_name_fn	fn;
	void		*ctx;
};

/* told before the name is made, and once it is gone */
static inline void p2d_names_tell(const struct p2d_names *n, const char *path, bool created)
{
	if (n->fn)
		n->fn(n->ctx, path, created);
}

/* Helpers */
int p2d_write_all(int fd, const void *buf, size_t len) __hidden;
int p2d_pwrite_all(int fd, const void *buf, size_t len, off_t off) __hidden;
int p2d_tmpfile(const char *dir) __hidden;
void p2d_tmpfile_names(const struct p2d_names *names) __hidden;
void p2d_prefault(void *p, size_t len) __hidden;
void p2d_prefault_to(void *base, size_t *mapped, size_t need, size_t size) __hidden;
int p2d_small_tmp_dir(char **dir, char *why, size_t why_len) __hidden;
int p2d_thread_create(pthread_t *t, void *(*fn)(void *), void *arg) __hidden;

#endif /* P2D_LOCAL_H */
