/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reorder queue internals: the queues and their payload memory (reorder-mem.c) */
#ifndef P2D_REORDER_LOCAL_H
#define P2D_REORDER_LOCAL_H

#include "reorder.h"
#include "slab.h"

#define CHUNK_SIZE	(128u << 10)
#define DEFER_BYTES	(64u << 10)	/* queued before an owed release is made */

/* Payload memory: CHUNK_SIZE aligned, larger for one big payload */
struct chunk {
	struct chunk	*next;		/* on the free list */
	struct chunk	*all_next;	/* every chunk, to free them */
	struct chunk	*all_prev;
	size_t		size;		/* bytes of data[] */
	size_t		used;
	size_t		mapped;		/* bytes of data[] mapped (p2d_prefault_to()) */
	size_t		live;		/* payloads not yet released */
	uint8_t		data[];
};

struct cpuq {
	struct p2d_qentry	*e;
	size_t		head;
	size_t		n;
	size_t		cap;
	size_t		mapped;		/* bytes of @e mapped (p2d_prefault_to()) */
	size_t		room;		/* entries both allocated and mapped */
	struct chunk	*cur;		/* being filled */
	uint64_t	emitted_ts;
	bool		emitted;
	struct p2d_qentry *late;	/* entries older than @e's last, in order */
	size_t		nlate;
	size_t		late_cap;
};

/*
 * The side-band queue: records across CPUs, in time order once sorted
 * (@unsorted: one came in earlier than the one before it)
 */
struct sideq {
	struct p2d_side	*e;
	size_t		head;
	size_t		n;
	size_t		cap;
	bool		unsorted;
	struct p2d_side	*tmp;		/* sort_side()'s */
	size_t		tmp_cap;
};

struct p2d_reorder {
	struct cpuq	*q;
	uint32_t	nq;
	uint32_t	top;		/* one more than the highest CPU queued on */
	struct sideq	side;
	p2d_emit_fn	emit;
	p2d_emit_run_fn	emit_run;
	p2d_side_fn	emit_side;
	void		*ctx;
	uint64_t	cur_max;
	uint64_t	prev_max;
	bool		have_prev;
	bool		pending;	/* a release up to @pend_limit is owed */
	uint64_t	pend_limit;
	size_t		bytes;
	uint64_t	late;
	struct chunk	*all;
	struct chunk	*free;
	struct p2d_slabs slabs;		/* where the chunks are cut from */
	uint64_t	ut_n;		/* events without a time, at the queues' heads */
	uint64_t	ut_ts;		/* the time they got, once placed */
	bool		ut_placed;
};

struct chunk *p2d_chunk_room(struct p2d_reorder *s, struct cpuq *q, size_t len) __hidden;
void p2d_chunk_put(struct p2d_reorder *s, struct chunk *c) __hidden;
void p2d_chunks_free(struct p2d_reorder *s) __hidden;

static inline bool big_chunk(const struct chunk *c)
{
	return c->size != CHUNK_SIZE - sizeof(*c);
}

static inline struct chunk *chunk_of(uint64_t addr)
{
	return (struct chunk *)(uintptr_t)(addr & ~(uint64_t)(CHUNK_SIZE - 1));
}

/* Copy a payload into @q's chunk; returns its address or 0 */
static inline uint64_t store(struct p2d_reorder *s, struct cpuq *q, const void *data,
			     uint32_t len)
{
	struct chunk *c = q->cur;
	uint8_t *p;

	/*
	 * One test for room and mapped pages: a chunk's mapped bytes stand in
	 * for its free ones (a big chunk, used == size, always takes the slow
	 * path, whatever its mapped bytes)
	 */
	if (!c || c->mapped - c->used < len || c->used == c->size) {
		c = p2d_chunk_room(s, q, len);
		if (!c)
			return 0;
	}
	p = c->data + c->used;
	memcpy(p, data, len);
	c->used += len;
	if (big_chunk(c))
		c->used = c->size;	/* one payload: its address must give the chunk */
	c->live++;
	return (uint64_t)(uintptr_t)p;
}

/* A payload was released */
static inline void release(struct p2d_reorder *s, struct cpuq *q, uint64_t addr)
{
	struct chunk *c = chunk_of(addr);

	if (--c->live)
		return;
	if (c != q->cur) {
		p2d_chunk_put(s, c);
	} else if (big_chunk(c)) {
		q->cur = NULL;
		p2d_chunk_put(s, c);
	} else {
		c->used = 0;	/* empty: filled again from the start */
	}
}

#endif /* P2D_REORDER_LOCAL_H */
