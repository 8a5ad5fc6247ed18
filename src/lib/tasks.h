/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Task names: pid -> comm, written as the trace.dat's saved_cmdlines (tasks.c) */
#ifndef P2D_TASKS_H
#define P2D_TASKS_H

#include "p2d-local.h"

struct p2d_tasks;

struct p2d_tasks *p2d_tasks_alloc(void) __hidden;
void p2d_tasks_free(struct p2d_tasks *t) __hidden;
int p2d_tasks_set(struct p2d_tasks *t, uint32_t pid, const char *comm, size_t len,
		  bool weak) __hidden;
int p2d_tasks_fork(struct p2d_tasks *t, uint32_t child, uint32_t parent) __hidden;
int p2d_tasks_parse_cmdlines(struct p2d_tasks *t, const char *buf, size_t len) __hidden;
void p2d_tasks_seen(struct p2d_tasks *t, uint32_t pid) __hidden;
struct p2d_qentry;
void p2d_tasks_seen_run(struct p2d_tasks *t, const struct p2d_qentry *e, size_t n) __hidden;
const char *p2d_tasks_get(const struct p2d_tasks *t, uint32_t pid) __hidden;
unsigned int p2d_tasks_count(const struct p2d_tasks *t) __hidden;
int p2d_tasks_write(const struct p2d_tasks *t, int fd) __hidden;

#endif /* P2D_TASKS_H */
