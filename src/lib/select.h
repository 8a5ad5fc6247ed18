/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Selection (select.c): which tracepoint events a conversion keeps, from the
 * caller's strings (&struct p2d_options events, cpus, time, pids, tids, with
 * perf script's syntax), checked before the input is read and resolved
 * against the recording at its first event.
 */
#ifndef P2D_SELECT_H
#define P2D_SELECT_H

#include "sink.h"

struct p2d_tracing;
struct p2d_select;

int p2d_select_new(struct p2d_diag *d, const struct p2d_options *o,
		   struct p2d_select **out) __hidden;
void p2d_select_free(struct p2d_select *sel) __hidden;
bool p2d_select_active(const struct p2d_select *sel) __hidden;
int p2d_select_resolve(struct p2d_select *sel, struct p2d_diag *d, const struct p2d_meta *m,
		       const struct p2d_tracing *t, bool has_pid) __hidden;
bool p2d_select_keep(const struct p2d_select *sel, const struct p2d_event *ev, uint16_t id) __hidden;
bool p2d_select_lost(struct p2d_select *sel, const struct p2d_meta *m, uint32_t cpu,
		     uint64_t ts) __hidden;

#endif /* P2D_SELECT_H */
