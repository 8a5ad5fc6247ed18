// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reorder queue: payload memory, chunks of CHUNK_SIZE bytes (see reorder.c)
 */
#include <stdlib.h>

#include "reorder-local.h"

static void chunk_unlink(struct p2d_reorder *s, struct chunk *c)
{
	if (c->all_prev)
		c->all_prev->all_next = c->all_next;
	else
		s->all = c->all_next;
	if (c->all_next)
		c->all_next->all_prev = c->all_prev;
	free(c);
}

/* A chunk with room for @len bytes: a free one, or a new one */
static __attribute__((noinline)) struct chunk *chunk_get(struct p2d_reorder *s, size_t len)
{
	size_t size = CHUNK_SIZE;
	struct chunk *c;

	if (len <= CHUNK_SIZE - sizeof(*c) && s->free) {
		c = s->free;
		s->free = c->next;
		c->used = c->live = 0;
		return c;
	}
	while (size - sizeof(*c) < len)
		size *= 2;
	c = size == CHUNK_SIZE ? p2d_slab_get(&s->slabs, size) : aligned_alloc(CHUNK_SIZE, size);
	if (!c)
		return NULL;
	c->size = size - sizeof(*c);
	c->used = c->live = c->mapped = 0;
	c->all_prev = NULL;
	c->all_next = s->all;
	if (s->all)
		s->all->all_prev = c;
	s->all = c;
	return c;
}

/**
 * p2d_chunk_put - a chunk none of whose payloads is queued any more
 * @s: queue
 * @c: the chunk: to the free list, or freed when it is a big one
 */
void p2d_chunk_put(struct p2d_reorder *s, struct chunk *c)
{
	if (big_chunk(c)) {
		chunk_unlink(s, c);
		return;
	}
	c->next = s->free;
	s->free = c;
}

/**
 * p2d_chunk_room - a chunk for @len more bytes, mapped
 * @s: queue
 * @q: the CPU's queue
 * @len: payload bytes
 *
 * @q's own chunk (its next pages mapped), or a free or new one. A payload
 * never starts at the end of a chunk: that is the next one.
 *
 * Returns the chunk, or NULL when out of memory.
 */
__attribute__((noinline)) struct chunk *p2d_chunk_room(struct p2d_reorder *s, struct cpuq *q,
							size_t len)
{
	struct chunk *c = q->cur, *nc;

	if (!c || c->size - c->used < len || c->used == c->size) {
		nc = chunk_get(s, len);
		if (!nc)
			return NULL;
		/* the full chunk goes when its last payload is released */
		if (c && !c->live)
			p2d_chunk_put(s, c);
		q->cur = c = nc;
	}
	if (c->mapped - c->used < len)
		p2d_prefault_to(c->data, &c->mapped, c->used + len, c->size);
	return c;
}

/**
 * p2d_chunks_free - free every chunk of a queue
 * @s: queue
 */
void p2d_chunks_free(struct p2d_reorder *s)
{
	while (s->all) {
		struct chunk *c = s->all;

		s->all = c->all_next;
		p2d_slab_put(&s->slabs, c);
	}
	p2d_slabs_free(&s->slabs);
	s->free = NULL;
}
