/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Aligned blocks of one size in 2 MiB slabs of huge pages, where the kernel has them (slab.c) */
#ifndef P2D_SLAB_H
#define P2D_SLAB_H

#include <stdbool.h>
#include <stddef.h>

#include "p2d-local.h"

struct p2d_slab;

/* The slabs of one user; zeroed is empty */
struct p2d_slabs {
	struct p2d_slab	*list;		/* every slab, the one being cut first */
	size_t		cut;		/* bytes of the first slab handed out */
	bool		none;		/* mapping a slab failed: aligned_alloc() from then on */
};

void *p2d_slab_get(struct p2d_slabs *s, size_t size) __hidden;
void p2d_slab_put(struct p2d_slabs *s, void *p) __hidden;
void p2d_slabs_free(struct p2d_slabs *s) __hidden;

#endif
