// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Aligned blocks of one size (the reorder queue's chunks) cut from 2 MiB
 * slabs that the kernel may back with transparent huge pages
 * (MADV_HUGEPAGE). The chunks are most of what a dwarf conversion's
 * thread writes to for the first time (13 MiB of sample stacks waiting in
 * the queue, bench/work/real-dwarf.data): as 4 KiB pages each is a fault,
 * or a step of p2d_prefault_to(), and on a virtual machine that maps guest
 * pages through the hypervisor (bench/README, "Page faults") those were
 * the conversion thread's dearest kernel time; a huge page is one fault
 * per slab. Where huge pages are off or none is free, the slab is ordinary
 * memory, as the chunks were; so is the first slab, where a small queue
 * would otherwise take 2 MiB of memory for a few pages of payloads (peak
 * RSS of a conversion of tests/data/no-tracepoints.data: 4.7 MiB, 5.3-6.0
 * with a huge first slab). A block is handed out once and kept by its
 * user (the queue keeps free chunks on a list of its own); the slabs are
 * unmapped together at the end. With no slab to be had, blocks come from
 * aligned_alloc().
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "slab.h"

#define SLAB_SIZE	(2u << 20)

struct p2d_slab {
	struct p2d_slab	*next;
	uint8_t		*base;		/* SLAB_SIZE aligned */
};

/* A new slab at the head of the list, or false */
static bool new_slab(struct p2d_slabs *s)
{
	struct p2d_slab *sl = malloc(sizeof(*sl));
	uint8_t *m, *base;

	if (!sl)
		return false;
	/* twice the size, to cut an aligned slab out of it */
	m = mmap(NULL, 2 * SLAB_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		free(sl);
		return false;
	}
	base = (uint8_t *)(((uintptr_t)m + SLAB_SIZE - 1) & ~(uintptr_t)(SLAB_SIZE - 1));
	/* nothing of these was ever touched: no TLB to flush */
	if (base > m)
		munmap(m, (size_t)(base - m));
	if (base + SLAB_SIZE < m + 2 * SLAB_SIZE)
		munmap(base + SLAB_SIZE, (size_t)(m + 2 * SLAB_SIZE - (base + SLAB_SIZE)));
#ifdef MADV_HUGEPAGE
	/* a hint (without it, 4 KiB pages); not the first slab: a small queue stays small */
	if (s->list)
		madvise(base, SLAB_SIZE, MADV_HUGEPAGE);
#endif
	sl->base = base;
	sl->next = s->list;
	s->list = sl;
	s->cut = 0;
	return true;
}

/**
 * p2d_slab_get - a block of @size bytes, @size aligned
 * @s: the slabs
 * @size: a power of two that divides 2 MiB
 *
 * Returns the block (its pages not yet touched), or NULL when out of memory.
 */
void *p2d_slab_get(struct p2d_slabs *s, size_t size)
{
	void *p;

	if (s->none)
		return aligned_alloc(size, size);
	if ((!s->list || s->cut + size > SLAB_SIZE) && !new_slab(s)) {
		s->none = true;
		return aligned_alloc(size, size);
	}
	p = s->list->base + s->cut;
	s->cut += size;
	return p;
}

/**
 * p2d_slab_put - give back a block of p2d_slab_get(), at the end
 * @s: the slabs
 * @p: the block
 *
 * A block of a slab stays with it (p2d_slabs_free() unmaps it); one of
 * aligned_alloc() is freed.
 */
void p2d_slab_put(struct p2d_slabs *s, void *p)
{
	const struct p2d_slab *sl;

	for (sl = s->list; sl; sl = sl->next)
		if ((uint8_t *)p >= sl->base && (uint8_t *)p < sl->base + SLAB_SIZE)
			return;
	free(p);
}

/**
 * p2d_slabs_free - unmap every slab
 * @s: the slabs, empty after
 */
void p2d_slabs_free(struct p2d_slabs *s)
{
	while (s->list) {
		struct p2d_slab *sl = s->list;

		s->list = sl->next;
		munmap(sl->base, SLAB_SIZE);
		free(sl);
	}
	s->cut = 0;
}
