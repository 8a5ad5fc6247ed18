/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every file of libperf2dat shares: visibility, printf checking, the
 * limits on sizes read from an input, and the byte-order primitives.
 *
 * The stages, in the order a sample goes through them, and their files
 * (tests/integration/house.sh checks that every file of src/lib is here):
 *
 *  interface	api.c: the caller's options and summary, versioned by size;
 *		util.c: helpers (whole writes, threads, paths, prefaulting);
 *		diag.c diag.h: errors with their input offset, warnings
 *  formats	importers.c: the table of input formats; import.c: which one
 *		an input is
 *  input	input.c input.h: the read window; cursor.c cursor.h bytes.h:
 *		bounds-checked, endian-aware reads; unzstd.c unzstd.h: zstd
 *		records as bytes; named-file.c named-file.h: the files a
 *		recording names, opened only when they are regular files
 *  reader	read-perf.h read-perf-local.h read-perf-format.h: the perf.data
 *		import handler: read-perf-import.c (its descriptor),
 *		read-perf-header.c (header, attrs, features), read-perf-attrs.c,
 *		read-perf-layout.c read-perf-layout.h (a sample's layout),
 *		read-perf-stream.c (file, pipe, --threads directory),
 *		read-perf-records.c (the record handlers), read-perf-lost.c,
 *		read-perf-read.c (samples that read their counters),
 *		read-perf-offcpu.c, read-perf-report.c (what -v tells)
 *  sink	sink.h: what an import handler feeds; meta.c meta.h: the
 *		recording's metadata; convert.c conv.h: the conversion;
 *		conv-sink.c: its sink; select.c select.h: the events kept;
 *		synth.c synth.h: the events perf2dat writes itself;
 *		offcpu.c offcpu.h: perf --off-cpu's end-of-run batch
 *  tracing	tracing.h tracing-local.h tracing.c: the tracing data;
 *		tracing-index.c: formats parsed when first needed;
 *		tracing-swap.c: payloads of the other byte order;
 *		tracing-probe.c: formats tried in a child first;
 *		tracing-plugins.c: formats whose plugins never return
 *  reorder	reorder.h reorder-local.h reorder.c: per-CPU time order within
 *		perf's rounds; reorder-run.c: runs of tracepoint samples;
 *		reorder-mem.c slab.c slab.h: the queue's payload memory
 *  emit	conv-emit.c: what leaves the queue; tasks.c tasks.h: task names
 *  kernel	ksyms.h ksyms.c: the kernel symbols a trace.dat needs;
 *   symbols	ksyms-source.c: where they come from; ksyms-kallsyms.c
 *		ksyms-kline.c: a kallsyms, read as perf reads it;
 *		ksyms-table.c ksyms-table.h: a vmlinux's table;
 *		ksyms-code.c: KSYMBOL records (BPF, ftrace trampolines)
 *  user	maps.c maps.h: the processes' mappings; dso.c dso.h: the
 *   stacks	mapped files; dso-file.c: where a file is found here;
 *		dso-fetch.c: symbol servers; elfid.c elfid.h: build ids;
 *		elfsyms.c elfsyms.h elfplt.c: ELF symbols and PLT entries as
 *		perf makes them; dwarf-names.c dwarf-names.h: names from
 *		DWARF; jitmap.c jitmap.h: /tmp/perf-PID.map; usyms.c usyms.h
 *		usyms-files.c usyms-files.h: names of user frames; unwind.c
 *		unwind.h unwind-regs.c unwind-memo.c unwind-memo.h: DWARF
 *		unwinding of user stacks (elfutils)
 *  pages	pages.c pages.h: ftrace ring-buffer pages; cpufiles.c
 *		cpufiles.h: each CPU's pages in an unlinked file
 *  writer	write.h write-trace.c tracecmd-writer.h: the trace.dat,
 *		through libtracecmd's writer; write-dir.c: the metadata it
 *		reads; write-output.c: the output named when complete;
 *		tmp-tree.c tmp-tree.h: where temporaries may be made
 *
 * p2d-local.h (this file): what every file shares.
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
