/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The executable mappings of the processes, from a recording's MMAP/MMAP2
 * records, written as the trace.dat's PROCMAPS options for the processes
 * with user stacks (procmaps.c), so that tools that look up a task's maps
 * (tracecmd_search_task_map()) find the library of each user address.
 */
#ifndef P2D_PROCMAPS_H
#define P2D_PROCMAPS_H

#include "sink.h"
#include "tasks.h"

struct p2d_procmaps;

/**
 * typedef p2d_procmap_fn - receives the PROCMAPS text of one process
 * @ctx: its context
 * @text: "PID NR COMM\n" then "START END FILE\n" per mapping, hex numbers
 */
typedef int (*p2d_procmap_fn)(void *ctx, const char *text);

struct p2d_procmaps *p2d_procmaps_new(void) __hidden;
void p2d_procmaps_free(struct p2d_procmaps *m) __hidden;
int p2d_procmaps_add(struct p2d_procmaps *m, const struct p2d_mmap *map) __hidden;
int p2d_procmaps_want(struct p2d_procmaps *m, uint32_t pid) __hidden;
int p2d_procmaps_each(struct p2d_procmaps *m, const struct p2d_tasks *tasks,
		      p2d_procmap_fn fn, void *ctx) __hidden;

#endif /* P2D_PROCMAPS_H */
