/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The processes' executable mappings, in time order (maps.c): MMAP/MMAP2
 * records add to a process's maps, replacing what they overlap; a forked
 * process starts with a copy of its parent's; an exec empties them. The
 * unwinder looks user addresses up in them, and each process with user
 * stacks gets the trace.dat's PROCMAPS option (what trace-cmd record
 * --proc-map writes) with the maps it had at its last user stack, so that
 * tracecmd_search_task_map() finds the library of each user address.
 */
#ifndef P2D_MAPS_H
#define P2D_MAPS_H

#include "dso.h"
#include "tasks.h"

/**
 * struct p2d_map - one mapping
 * @start: its first address
 * @end: the address after it
 * @pgoff: the file offset mapped at @start
 * @dso: the file (&struct p2d_dsos index)
 */
struct p2d_map {
	uint64_t	start;
	uint64_t	end;
	uint64_t	pgoff;
	uint32_t	dso;
};

struct p2d_maps;

/**
 * typedef p2d_procmap_fn - receives the PROCMAPS text of one process
 * @ctx: its context
 * @text: "PID NR COMM\n" then "START END FILE\n" per mapping, hex numbers
 */
typedef int (*p2d_procmap_fn)(void *ctx, const char *text);

struct p2d_maps *p2d_maps_new(void) __hidden;
void p2d_maps_free(struct p2d_maps *m) __hidden;
int p2d_maps_mmap(struct p2d_maps *m, uint32_t pid, const struct p2d_map *map) __hidden;
int p2d_maps_fork(struct p2d_maps *m, uint32_t pid, uint32_t ppid) __hidden;
void p2d_maps_exec(struct p2d_maps *m, uint32_t pid) __hidden;
const struct p2d_map *p2d_maps_find(const struct p2d_maps *m, uint32_t pid,
				    uint64_t addr) __hidden;
uint64_t p2d_maps_generation(const struct p2d_maps *m, uint32_t pid) __hidden;
uint64_t p2d_maps_content(const struct p2d_maps *m, uint32_t pid) __hidden;
int p2d_maps_want(struct p2d_maps *m, uint32_t pid) __hidden;
int p2d_maps_each(const struct p2d_maps *m, const struct p2d_dsos *dsos,
		  const struct p2d_tasks *tasks, p2d_procmap_fn fn, void *ctx) __hidden;

#endif /* P2D_MAPS_H */
