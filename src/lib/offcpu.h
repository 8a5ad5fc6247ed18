/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf record --off-cpu's end-of-run batch (read-perf-offcpu.c tells it
 * apart): samples without a time, kept by the conversion and appended to
 * the trace.dat after everything trace-cmd reads, for KernelShark's off-CPU
 * tree (plugin/offcpu-batch.c reads it back; perf2dat(1) OFF-CPU).
 */
#ifndef P2D_OFFCPU_H
#define P2D_OFFCPU_H

#include <stdint.h>

#include "diag.h"

struct p2d_offcpu;

struct p2d_offcpu *p2d_offcpu_new(void) __hidden;
void p2d_offcpu_free(struct p2d_offcpu *o) __hidden;
int p2d_offcpu_add(struct p2d_offcpu *o, uint32_t pid, uint32_t tid, uint64_t ns,
		   const uint64_t *user, uint32_t nr_user) __hidden;
uint64_t p2d_offcpu_count(const struct p2d_offcpu *o) __hidden;
int p2d_offcpu_frames(const struct p2d_offcpu *o, int (*fn)(void *ctx, uint32_t pid, uint64_t ip),
		      void *ctx) __hidden;
int p2d_offcpu_append(const struct p2d_offcpu *o, int fd, struct p2d_diag *d) __hidden;

#endif /* P2D_OFFCPU_H */
