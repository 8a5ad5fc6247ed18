/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf.data reader, an import handler (sink.h): written from the kernel
 * ABI (linux/perf_event.h) and perf's published file format. Its internals
 * are in read-perf-local.h.
 */
#ifndef P2D_READ_PERF_H
#define P2D_READ_PERF_H

#include "sink.h"

extern const struct p2d_import p2d_import_perf __hidden;

bool p2d_perf_magic(const void *buf, size_t len) __hidden;
int p2d_perf_read(struct p2d_input *in, const struct p2d_sink *sink, struct p2d_diag *d,
		  struct p2d_read_stats *stats) __hidden;

#endif /* P2D_READ_PERF_H */
