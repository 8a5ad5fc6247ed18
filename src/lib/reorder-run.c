// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reorder queue: tracepoint samples queued in runs (see reorder.c). The
 * samples of one CPU in a row, and the ends of perf's rounds between them,
 * are taken with the queue's state in locals; whatever needs more (another
 * CPU, a late sample, a full chunk, a release owed now) goes through
 * p2d_reorder_add() and p2d_reorder_round_lazy().
 */
#include "reorder-local.h"

/*
 * The end of a round (p2d_reorder_round_lazy()) inside add_tps_run()'s run
 * on @cpu, which has queued up to entry @e and payload byte @p so far.
 * False when the round would release events now or owe a release up to
 * the end of time: left to p2d_reorder_round_lazy().
 */
static __attribute__((noinline)) bool round_in_run(struct p2d_reorder *s, uint32_t cpu,
						   const struct p2d_qentry *e, const uint8_t *p)
{
	const struct cpuq *q = &s->q[cpu];
	uint64_t cur_max = s->cur_max;

	if (e > q->e + q->n && e[-1].ts > cur_max)
		cur_max = e[-1].ts;
	if (s->have_prev) {
		if (s->bytes + (size_t)(p - (q->cur->data + q->cur->used)) >= DEFER_BYTES ||
		    (s->ut_n && !s->ut_placed) || s->prev_max == UINT64_MAX)
			return false;
		s->pend_limit = s->prev_max;
		s->pending = true;
	}
	s->prev_max = cur_max;
	s->have_prev = true;
	return true;
}

/*
 * Into @lo, the earliest time a sample can be queued at on @q's end: after
 * its last entry, after what it released, after what an owed release
 * covers. False when a release is owed up to the end of time.
 */
static inline __attribute__((always_inline)) bool run_floor(const struct p2d_reorder *s,
							    const struct cpuq *q, uint64_t *lo)
{
	*lo = 0;
	if (q->n > q->head)
		*lo = q->e[q->n - 1].ts;
	if (q->emitted && q->emitted_ts > *lo)
		*lo = q->emitted_ts;
	if (s->pending && s->pend_limit >= *lo) {
		if (s->pend_limit == UINT64_MAX)
			return false;
		*lo = s->pend_limit + 1;
	}
	return true;
}

/*
 * The samples from @t on that add_entry() would queue on the spot, all of
 * @t[0]'s CPU: each one in order, after what the CPU released, after what
 * an owed release covers, with room in the CPU's chunk and entries and
 * under the queue's cap; and the ends of rounds among them that owe their
 * release. They are queued with the queue's state in locals. Returns how
 * many (the next one, if any, goes through p2d_reorder_add() or
 * p2d_reorder_round_lazy()).
 */
static __attribute__((noinline)) size_t add_tps_run(struct p2d_reorder *s,
						   const struct p2d_sample_entry *t, size_t n)
{
	uint32_t cpu = n ? t[0].cpu : UINT32_MAX;
	const struct p2d_sample_entry *x, *end;
	struct p2d_qentry *e;
	uint64_t lo;
	struct chunk *c;
	struct cpuq *q;
	uint8_t *p;
	size_t left;

	if (cpu >= s->top || !(c = (q = &s->q[cpu])->cur) || c->used == c->size ||
	    q->n >= q->room || s->bytes >= P2D_QUEUE_CAP || !run_floor(s, q, &lo))
		return 0;
	if (n > q->room - q->n)
		n = q->room - q->n;
	/* the chunk's room and the cap's, both less each payload's bytes */
	left = c->mapped - c->used;
	if (left > P2D_QUEUE_CAP - s->bytes)
		left = P2D_QUEUE_CAP - s->bytes;
	e = q->e + q->n;
	p = c->data + c->used;
	for (x = t, end = t + n; x < end; x++) {
		uint32_t len = x->len;
		uint64_t ts = x->ts;

		/* len - 1: an empty payload takes add_entry() (never at a chunk's end) */
		if (x->cpu != cpu || ts < lo || len - 1 >= left) {
			/* @raw NULL: the end of a round */
			if (x->raw || !round_in_run(s, cpu, e, p))
				break;
			if (s->pending && s->pend_limit >= lo)
				lo = s->pend_limit + 1;
			continue;
		}
		/* the entry first: nothing but the copy's arguments is left to keep */
		e->ts = ts;
		e->off = (uint64_t)(uintptr_t)p;
		e->len = len;
		e++;
		p += len;
		left -= len;
		lo = ts;
		p2d_copy_short(p - len, x->raw, len);
	}
	n = (size_t)(e - (q->e + q->n));
	if (n) {
		if (e[-1].ts > s->cur_max)
			s->cur_max = e[-1].ts;
		s->bytes += (size_t)(p - (c->data + c->used));
		c->used = (size_t)(p - c->data);
		c->live += n;
		q->n += n;
	}
	return (size_t)(x - t);
}

/**
 * p2d_reorder_add_tps - queue tracepoint samples, one after the other
 * @s: queue
 * @t: the samples: @ts, @cpu (below P2D_MAX_CPUS), @raw and @len of each;
 *	one with @raw NULL is the end of a round (p2d_reorder_round_lazy())
 * @n: how many
 * @done: set to how many were queued (the index of the one that failed)
 *
 * As p2d_reorder_add() for each (p2d_reorder_round_lazy() for the end of a
 * round), in one loop, read where the reader put them.
 *
 * Returns 0, or p2d_reorder_add()'s or p2d_reorder_round_lazy()'s error
 * for entry *@done.
 */
int p2d_reorder_add_tps(struct p2d_reorder *s, const struct p2d_sample_entry *t, size_t n,
			size_t *done)
{
	size_t i = 0;
	int ret = 0;

	while ((i += add_tps_run(s, t + i, n - i)) < n) {
		if (t[i].raw)
			ret = p2d_reorder_add(s, t[i].cpu, t[i].ts, t[i].raw, t[i].len);
		else
			ret = p2d_reorder_round_lazy(s);
		if (ret)
			break;
		i++;
	}
	*done = i;
	return ret;
}
