/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reorder queue: per-CPU time order within perf's rounds (reorder.c) */
#ifndef P2D_REORDER_H
#define P2D_REORDER_H

#include "sink.h"
#include "slab.h"

#define P2D_LOST_MARK	UINT32_MAX	/* length of a lost-events entry */
#define P2D_GROUP_FLAG	(1u << 31)	/* in @len: a group (p2d_reorder_add_group()) */

/**
 * typedef p2d_emit_fn - receives events in per-CPU time order
 * @ctx: the queue's context
 * @cpu: CPU
 * @ts: timestamp
 * @data: payload, or NULL for a lost-events mark
 * @len: payload length, or lost count when @data is NULL; with
 *	P2D_GROUP_FLAG set the payload is a group of events
 */
typedef int (*p2d_emit_fn)(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data,
			   uint64_t len);

/**
 * struct p2d_qentry - a queued event, as p2d_emit_run_fn gets it
 * @ts: timestamp
 * @off: the payload's address
 * @len: payload bytes
 */
struct p2d_qentry {
	uint64_t	ts;
	uint64_t	off;
	uint32_t	len;
};

/**
 * typedef p2d_emit_run_fn - receives a run of one CPU's events in time order
 * @ctx: the queue's context
 * @cpu: CPU
 * @e: the events (no lost mark, no group among them)
 * @n: how many
 *
 * The payloads stay valid until it returns.
 */
typedef int (*p2d_emit_run_fn)(void *ctx, uint32_t cpu, const struct p2d_qentry *e, size_t n);

/**
 * typedef p2d_side_fn - receives side-band records in time order
 * @ctx: the queue's context
 * @rec: the record
 */
typedef int (*p2d_side_fn)(void *ctx, const struct p2d_side *rec);

struct p2d_reorder;

struct p2d_reorder *p2d_reorder_new(p2d_emit_fn emit, p2d_side_fn emit_side, void *ctx) __hidden;
void p2d_reorder_free(struct p2d_reorder *q) __hidden;
void p2d_reorder_set_run(struct p2d_reorder *q, p2d_emit_run_fn emit_run) __hidden;
int p2d_reorder_add(struct p2d_reorder *q, uint32_t cpu, uint64_t ts, const void *data,
		    uint32_t len) __hidden;
int p2d_reorder_add_tps(struct p2d_reorder *q, const struct p2d_sample_entry *t, size_t n,
			size_t *done) __hidden;
int p2d_reorder_add_group(struct p2d_reorder *q, uint32_t cpu, uint64_t ts, const void *data,
			  uint32_t len, uint32_t nr_events) __hidden;
int p2d_reorder_add_lost(struct p2d_reorder *q, uint32_t cpu, uint64_t ts, uint64_t count) __hidden;
int p2d_reorder_add_side(struct p2d_reorder *q, const struct p2d_side *rec) __hidden;
int p2d_reorder_add_untimed(struct p2d_reorder *q, uint32_t cpu, const void *data,
			    uint32_t len) __hidden;
int p2d_reorder_round(struct p2d_reorder *q) __hidden;
int p2d_reorder_round_lazy(struct p2d_reorder *q) __hidden;
int p2d_reorder_flush(struct p2d_reorder *q) __hidden;
uint64_t p2d_reorder_late(const struct p2d_reorder *q) __hidden;

#endif /* P2D_REORDER_H */
