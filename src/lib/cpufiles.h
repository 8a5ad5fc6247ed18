/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-CPU page streams (cpufiles.c): events in per-CPU time order are
 * packed into pages (pages.h), and the pages go to one unlinked temporary
 * file per CPU.
 */
#ifndef P2D_CPUFILES_H
#define P2D_CPUFILES_H

#include "diag.h"
#include "reorder.h"

/**
 * struct p2d_cpu_stats - what one CPU's stream holds
 * @fd: the unlinked file of its pages
 * @bytes: bytes of pages in @fd
 * @events: events written
 * @lost: events lost on this CPU
 * @first_ts: first timestamp
 * @last_ts: last timestamp
 */
struct p2d_cpu_stats {
	int		fd;
	uint64_t	bytes;
	uint64_t	events;
	uint64_t	lost;
	uint64_t	first_ts;
	uint64_t	last_ts;
};

struct p2d_cpufiles;

struct p2d_cpufiles *p2d_cpufiles_new(const char *dir, uint32_t page_size, uint32_t long_size,
				      bool big_endian, struct p2d_diag *d) __hidden;
int p2d_cpufiles_event(struct p2d_cpufiles *cf, uint32_t cpu, uint64_t ts, const uint8_t *data,
		       uint64_t len) __hidden;
int p2d_cpufiles_run(struct p2d_cpufiles *cf, uint32_t cpu, const struct p2d_qentry *e,
		     size_t n, size_t *done) __hidden;
int p2d_cpufiles_finish(struct p2d_cpufiles *cf) __hidden;
int p2d_cpufiles_sync(struct p2d_cpufiles *cf) __hidden;
uint32_t p2d_cpufiles_nr(const struct p2d_cpufiles *cf) __hidden;
const struct p2d_cpu_stats *p2d_cpufiles_cpu(const struct p2d_cpufiles *cf, uint32_t cpu) __hidden;
uint32_t p2d_cpufiles_page_size(const struct p2d_cpufiles *cf) __hidden;
void p2d_cpufiles_free(struct p2d_cpufiles *cf) __hidden;

#endif /* P2D_CPUFILES_H */
