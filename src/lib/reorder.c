// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reorder queue.
 *
 * perf.data is ordered only per round: perf writes a FINISHED_ROUND record
 * after each pass over its ring buffers, and an event of round N can be
 * older than events of round N but never older than the newest event of
 * round N-1. So at each FINISHED_ROUND every queued event up to the newest
 * timestamp of the previous round can be released (the rule perf's own
 * ordered-events queue uses). Memory is bounded by two rounds, and by
 * P2D_QUEUE_CAP should a recording lack rounds.
 *
 * Only the per-CPU order matters for ring-buffer pages, so each CPU has its
 * own queue: an array of entries kept sorted by timestamp (stable: equal
 * timestamps keep their arrival order). An entry older than the array's
 * last goes to a second sorted array, merged into the first before events
 * are released: a CPU's events often come as two streams in order, each
 * of whose entries moved the first array's tail up one (30 instructions an
 * event on bench/real's syscalls mix). Both arrays are stable. Payloads are copied into chunks of
 * CHUNK_SIZE bytes, filled one after the other; a chunk whose payloads have
 * all been released goes to a free list and is filled again, so payloads
 * are copied once, into memory that is already mapped and most likely in
 * the cache. (An arena compacted by copying into fresh memory each round
 * cost a fifth of a conversion with call chains, bench/real.) Free chunks
 * are kept: memory stays what the queue held at its fullest, as an arena's
 * would. Chunks, cut from huge-page slabs (slab.c), are aligned on their size, so
 * a payload's address gives its chunk; a payload larger than a chunk gets
 * one of its own, freed with it.
 *
 * Side-band records (a task's name, its fork and exit) go through one more
 * queue, ordered across all CPUs, released by the same rule: perf writes its
 * CPU buffers one after the other, so a fork read from CPU 0's buffer can
 * come before the exec, on CPU 1, that named its parent. They are sorted
 * (stable) when released, not put in place as they come. Each is released
 * after every event before it and before every event after it. A record
 * without a timestamp (perf's synthesized ones carry 0) takes effect at
 * once, as in perf's ordered-events queue.
 *
 * Events without a time (the perf:* events of the records perf synthesizes
 * at the start, timestamp 0, p2d_reorder_add_untimed()) wait at time 0 at
 * the heads of their queues until events are first released, then take
 * the earliest time queued: every
 * CPU's events stay in time order, and readers do not see a time axis
 * from 0 (KernelShark merged the CPUs wrongly then).
 */
#include <stdlib.h>

#include "reorder-local.h"

/**
 * p2d_reorder_new - create a reorder queue
 * @emit: receives events in per-CPU time order
 * @emit_side: receives side-band records in time order (may be NULL when
 *	none are added)
 * @ctx: passed to @emit and @emit_side
 *
 * Returns the queue, or NULL when out of memory.
 */
struct p2d_reorder *p2d_reorder_new(p2d_emit_fn emit, p2d_side_fn emit_side, void *ctx)
{
	struct p2d_reorder *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->emit = emit;
	s->emit_side = emit_side;
	s->ctx = ctx;
	return s;
}

/**
 * p2d_reorder_free - free a reorder queue and whatever it still holds
 * @s: queue, may be NULL
 */
void p2d_reorder_free(struct p2d_reorder *s)
{
	uint32_t i;

	if (!s)
		return;
	for (i = 0; i < s->nq; i++) {
		free(s->q[i].e);
		free(s->q[i].late);
	}
	p2d_chunks_free(s);
	free(s->q);
	free(s->side.e);
	free(s->side.tmp);
	free(s);
}

/**
 * p2d_reorder_set_run - release runs of plain events through @emit_run
 * @s: queue
 * @emit_run: receives consecutive events of one CPU at once (lost marks and
 *	groups still go to the queue's emit callback)
 */
void p2d_reorder_set_run(struct p2d_reorder *s, p2d_emit_run_fn emit_run)
{
	s->emit_run = emit_run;
}

/**
 * p2d_reorder_late - events dropped because they arrived after newer
 * events of their CPU had already been written
 * @s: queue
 */
uint64_t p2d_reorder_late(const struct p2d_reorder *s)
{
	return s->late;
}

static struct cpuq *get_queue(struct p2d_reorder *s, uint32_t cpu)
{
	struct cpuq *q;
	uint32_t nq;

	if (cpu < s->nq) {
		if (cpu >= s->top)
			s->top = cpu + 1;
		return &s->q[cpu];
	}
	if (cpu >= P2D_MAX_CPUS)
		return NULL;
	nq = s->nq ? s->nq : 8;
	while (nq <= cpu)
		nq *= 2;
	q = realloc(s->q, nq * sizeof(*q));
	if (!q)
		return NULL;
	memset(q + s->nq, 0, (nq - s->nq) * sizeof(*q));
	s->q = q;
	s->nq = nq;
	s->top = cpu + 1;
	return &s->q[cpu];
}

static __attribute__((noinline)) int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

/*
 * Room for one more entry: the array grown when full (what is mapped of
 * it is known up to its entries if it moved), its next pages mapped
 */
static __attribute__((noinline)) int more_entries(struct cpuq *q)
{
	struct p2d_qentry *old = q->e;
	size_t need = (q->n + 1) * sizeof(*q->e);

	if (q->n == q->cap) {
		if (grow((void **)&q->e, &q->cap, q->n + 1, sizeof(*q->e)))
			return -ENOMEM;
		if (q->e != old)
			q->mapped = q->n * sizeof(*q->e);
	}
	if (need > q->mapped)
		p2d_prefault_to(q->e, &q->mapped, need, q->cap * sizeof(*q->e));
	q->room = q->mapped / sizeof(*q->e) < q->cap ? q->mapped / sizeof(*q->e) : q->cap;
	return 0;
}

/* Room in @q's late entries after every one with ts <= @ts, or NULL */
static __attribute__((noinline)) struct p2d_qentry *late_entry(struct cpuq *q, uint64_t ts)
{
	size_t lo = 0, hi = q->nlate, mid;

	if (q->nlate == q->late_cap &&
	    grow((void **)&q->late, &q->late_cap, q->nlate + 1, sizeof(*q->late)))
		return NULL;
	if (hi && q->late[hi - 1].ts > ts) {
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (q->late[mid].ts <= ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(&q->late[lo + 1], &q->late[lo], (q->nlate - lo) * sizeof(*q->late));
	} else {
		lo = q->nlate;
	}
	q->nlate++;
	return &q->late[lo];
}

/*
 * Merge @q's late entries into its array, from the back: one time order.
 * Of equal timestamps the array's come first: they arrived before (the
 * array's last time only grows between merges, and an entry goes to the
 * late ones when older than it).
 */
static __attribute__((noinline)) int merge_late(struct cpuq *q)
{
	struct p2d_qentry *old = q->e;
	size_t i = q->n, j = q->nlate, k = q->n + q->nlate;

	if (grow((void **)&q->e, &q->cap, k, sizeof(*q->e)))
		return -ENOMEM;
	if (q->e != old)
		q->mapped = q->n * sizeof(*q->e);
	while (j) {
		if (i > q->head && q->e[i - 1].ts > q->late[j - 1].ts)
			q->e[--k] = q->e[--i];
		else
			q->e[--k] = q->late[--j];
	}
	q->n += q->nlate;
	q->nlate = 0;
	if (q->n * sizeof(*q->e) > q->mapped)
		p2d_prefault_to(q->e, &q->mapped, q->n * sizeof(*q->e), q->cap * sizeof(*q->e));
	q->room = q->mapped / sizeof(*q->e) < q->cap ? q->mapped / sizeof(*q->e) : q->cap;
	return 0;
}

/*
 * Queue an entry in time order, stable. The fields are stored one by one:
 * copying a struct just built on the stack stalls on store forwarding.
 */
static inline int insert(struct cpuq *q, uint64_t ts, uint64_t off, uint32_t len)
{
	struct p2d_qentry *e;

	if (q->n == q->room && more_entries(q))
		return -ENOMEM;
	/* the common case: in order */
	if (q->n == q->head || q->e[q->n - 1].ts <= ts)
		e = &q->e[q->n++];
	else if (!(e = late_entry(q, ts)))
		return -ENOMEM;
	e->ts = ts;
	e->off = off;
	e->len = len;
	return 0;
}

static inline __attribute__((always_inline)) int add_entry(struct p2d_reorder *s, uint32_t cpu,
							   uint64_t ts, const void *data,
							   uint32_t len, uint64_t lost);
static int flush_pending(struct p2d_reorder *s);


/**
 * p2d_reorder_add - queue one event
 * @s: queue
 * @cpu: CPU (below P2D_MAX_CPUS)
 * @ts: timestamp
 * @data: payload, copied
 * @len: payload bytes
 *
 * Returns 0, -ENOMEM, -ERANGE for a bad CPU or size, or the emit callback's
 * error.
 */
int p2d_reorder_add(struct p2d_reorder *s, uint32_t cpu, uint64_t ts, const void *data,
		   uint32_t len)
{
	if (len & P2D_GROUP_FLAG)
		return -ERANGE;
	return add_entry(s, cpu, ts, data, len, 0);
}

/**
 * p2d_reorder_add_group - queue events that stay together
 * @s: queue
 * @cpu: CPU (below P2D_MAX_CPUS)
 * @ts: their timestamp
 * @data: their payloads, in a layout the emit callback knows; copied
 * @len: bytes (below P2D_GROUP_FLAG)
 * @nr_events: events in the group (counted when it arrives too late)
 *
 * One entry for an event and the stack events that follow it: one
 * insertion and one release instead of one per event. The emit callback
 * gets @len with P2D_GROUP_FLAG set.
 *
 * Returns 0, -ENOMEM, -ERANGE for a bad CPU or size, or the emit callback's
 * error.
 */
int p2d_reorder_add_group(struct p2d_reorder *s, uint32_t cpu, uint64_t ts, const void *data,
			  uint32_t len, uint32_t nr_events)
{
	if (len & P2D_GROUP_FLAG)
		return -ERANGE;
	return add_entry(s, cpu, ts, data, len | P2D_GROUP_FLAG, nr_events);
}

/**
 * p2d_reorder_add_lost - queue a lost-events mark
 * @s: queue
 * @cpu: CPU whose events were lost
 * @ts: when
 * @count: how many
 *
 * Returns 0 or a negative errno.
 */
int p2d_reorder_add_lost(struct p2d_reorder *s, uint32_t cpu, uint64_t ts, uint64_t count)
{
	return add_entry(s, cpu, ts, NULL, P2D_LOST_MARK, count);
}

static int over_cap(struct p2d_reorder *s);

/**
 * p2d_reorder_add_untimed - queue an event that has no time
 * @s: queue
 * @cpu: its CPU
 * @data: the event, copied
 * @len: its size
 *
 * Held until events are first released, then given the earliest time
 * queued (see the top of this file); after that, the time the first ones
 * got, or the last time released on @cpu when later.
 *
 * Returns 0, -ENOMEM, -ERANGE (@cpu too large), or the emit callback's
 * error.
 */
int p2d_reorder_add_untimed(struct p2d_reorder *s, uint32_t cpu, const void *data, uint32_t len)
{
	struct cpuq *q = cpu < s->top ? &s->q[cpu] : get_queue(s, cpu);

	int ret;

	if (!q)
		return cpu >= P2D_MAX_CPUS ? -ERANGE : -ENOMEM;
	if (s->pending && (ret = flush_pending(s)))
		return ret;
	if (s->ut_placed)
		return add_entry(s, cpu, q->emitted && q->emitted_ts > s->ut_ts ? q->emitted_ts :
				 s->ut_ts, data, len, 0);
	s->ut_n++;	/* at time 0, before every timed event of its CPU */
	return add_entry(s, cpu, 0, data, len, 0);
}

/**
 * p2d_reorder_add_side - queue a side-band record
 * @s: queue
 * @rec: the record, copied; @rec->ts 0 means no timestamp: released at once
 *
 * Records are released to the emit_side callback in timestamp order
 * (stable), by the rule that releases events.
 *
 * Returns 0, -ENOMEM, or the callback's error.
 */
int p2d_reorder_add_side(struct p2d_reorder *s, const struct p2d_side *rec)
{
	struct sideq *q = &s->side;
	int ret;

	if (s->pending && rec->ts <= s->pend_limit && (ret = flush_pending(s)))
		return ret;
	if (!rec->ts)
		return s->emit_side(s->ctx, rec);
	if (q->n == q->cap && grow((void **)&q->e, &q->cap, q->n + 1, sizeof(*q->e)))
		return -ENOMEM;
	/* sorted when released (sort_side()): an insertion moved all later ones */
	if (q->n > q->head && q->e[q->n - 1].ts > rec->ts)
		q->unsorted = true;
	q->e[q->n++] = *rec;
	s->bytes += sizeof(*q->e);
	if (rec->ts > s->cur_max)
		s->cur_max = rec->ts;
	return s->bytes <= P2D_QUEUE_CAP ? 0 : over_cap(s);
}

/*
 * An array of @n entries of @size bytes whose first @head were released:
 * emptied when all were, else moved down once they are more than half
 */
static void compact(void *e, size_t *head, size_t *n, size_t size)
{
	if (*head == *n) {
		*head = *n = 0;
	} else if (*head > *n / 2) {
		memmove(e, (char *)e + *head * size, (*n - *head) * size);
		*n -= *head;
		*head = 0;
	}
}

static bool plain(const struct p2d_qentry *e)
{
	return e->len != P2D_LOST_MARK && !(e->len & P2D_GROUP_FLAG);
}

/* Release the plain events from @q's head (one) on, up to @limit, as one run */
static int flush_run(struct p2d_reorder *s, struct cpuq *q, uint32_t cpu, uint64_t limit,
		     bool strict)
{
	const struct p2d_qentry *first = &q->e[q->head], *x = first + 1, *end = &q->e[q->n];
	uint64_t upto = limit - strict;		/* the last time released */
	uint64_t other = 0;	/* the bits of other chunks' payload addresses */
	size_t i, bytes = first->len, nr, n;
	struct chunk *c;
	int ret;

	/* a lost mark (P2D_LOST_MARK) or a group has P2D_GROUP_FLAG */
	for (; x < end && !(x->len & P2D_GROUP_FLAG) && x->ts <= upto; x++) {
		bytes += x->len;
		other |= x->off ^ first->off;
	}
	n = (size_t)(x - first);
	ret = s->emit_run(s->ctx, cpu, first, n);
	s->bytes -= bytes;
	first = &q->e[q->head];
	if (other < CHUNK_SIZE) {	/* all in one chunk */
		chunk_of(first->off)->live -= n - 1;
		release(s, q, first->off);
	} else {
		/* release() for each, once per stretch of payloads in one chunk */
		for (i = q->head; i < q->head + n; i += nr) {
			c = chunk_of(q->e[i].off);
			for (nr = 1; i + nr < q->head + n && chunk_of(q->e[i + nr].off) == c; nr++)
				;
			c->live -= nr - 1;
			release(s, q, q->e[i].off);
		}
	}
	q->emitted = true;
	q->emitted_ts = first[n - 1].ts;
	q->head += n;
	return ret;
}

/* Release a CPU's events up to @limit (before it when @strict) */
static int flush_queue(struct p2d_reorder *s, uint32_t cpu, uint64_t limit, bool strict)
{
	struct cpuq *q = &s->q[cpu];
	struct p2d_qentry *ent;
	int ret;

	while (q->head < q->n) {
		ent = &q->e[q->head];
		if (ent->ts > limit || (strict && ent->ts == limit))
			break;
		if (s->emit_run && plain(ent)) {
			ret = flush_run(s, q, cpu, limit, strict);
			if (ret)
				return ret;
			continue;
		}
		if (ent->len == P2D_LOST_MARK) {
			ret = s->emit(s->ctx, cpu, ent->ts, NULL, ent->off);
		} else {
			ret = s->emit(s->ctx, cpu, ent->ts,
				      (const void *)(uintptr_t)ent->off, ent->len);
			release(s, q, ent->off);
			s->bytes -= ent->len & ~P2D_GROUP_FLAG;
		}
		if (ret)
			return ret;
		q->emitted = true;
		q->emitted_ts = ent->ts;
		q->head++;
	}
	return 0;
}

static int flush_cpus(struct p2d_reorder *s, uint64_t limit, bool strict)
{
	uint32_t cpu;
	int ret;

	for (cpu = 0; cpu < s->top; cpu++) {
		ret = flush_queue(s, cpu, limit, strict);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Give the held events without a time (time 0, at the heads of their
 * CPUs' queues) the earliest time queued: no later than any other event,
 * so the queues stay in order. With no other event queued they wait,
 * unless @force (end of input, queues full): then they keep time 0.
 */
static void place_untimed(struct p2d_reorder *s, bool force)
{
	uint64_t ts = UINT64_MAX;
	struct cpuq *q;
	uint32_t cpu;
	size_t i;

	for (cpu = 0; cpu < s->nq; cpu++) {
		q = &s->q[cpu];
		for (i = q->head; i < q->n && !q->e[i].ts; i++)
			;
		if (i < q->n && q->e[i].ts < ts)
			ts = q->e[i].ts;
	}
	if (ts == UINT64_MAX) {
		if (!force)
			return;
		ts = 0;
	}
	for (cpu = 0; cpu < s->nq; cpu++) {
		q = &s->q[cpu];
		for (i = q->head; i < q->n && !q->e[i].ts; i++)
			q->e[i].ts = ts;
	}
	s->ut_ts = ts;
	s->ut_placed = true;
}

/*
 * Sort the queued side-band records by time, those of one time in the
 * order they came: a merge sort, bottom up (perf's per-CPU buffers give
 * them in runs in order; inserting each in place moved a round's worth of
 * records each time, 15 instructions an event of a sched recording).
 */
static int sort_side(struct sideq *q)
{
	size_t n = q->n - q->head, w, i, l, m, j, r, k;
	struct p2d_side *src = q->e + q->head, *dst, *t;

	q->unsorted = false;
	if (n < 2)
		return 0;
	if (grow((void **)&q->tmp, &q->tmp_cap, n, sizeof(*q->tmp)))
		return -ENOMEM;
	dst = q->tmp;
	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			m = i + w < n ? i + w : n;
			r = i + 2 * w < n ? i + 2 * w : n;
			for (l = i, j = m, k = i; l < m && j < r; k++)
				dst[k] = src[j].ts < src[l].ts ? src[j++] : src[l++];
			for (; l < m; k++)
				dst[k] = src[l++];
			for (; j < r; k++)
				dst[k] = src[j++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != q->e + q->head)
		memcpy(q->e + q->head, src, n * sizeof(*src));
	return 0;
}

/*
 * Release everything up to @limit in one time order: each side-band record
 * after the events before it, so that a task's events are released under
 * the name it had then (perf script's view).
 */
static int flush_upto(struct p2d_reorder *s, uint64_t limit)
{
	struct sideq *sq = &s->side;
	uint32_t cpu;
	int ret;

	for (cpu = 0; cpu < s->top; cpu++)
		if (s->q[cpu].nlate && (ret = merge_late(&s->q[cpu])))
			return ret;

	if (s->ut_n && !s->ut_placed) {
		place_untimed(s, limit == UINT64_MAX);
		if (!s->ut_placed)
			return 0;	/* nothing timed yet: they all wait */
	}
	if (sq->unsorted && (ret = sort_side(sq)))
		return ret;
	while (sq->head < sq->n && sq->e[sq->head].ts <= limit) {
		ret = flush_cpus(s, sq->e[sq->head].ts, true);
		if (!ret)
			ret = s->emit_side(s->ctx, &sq->e[sq->head]);
		if (ret)
			return ret;
		sq->head++;
		s->bytes -= sizeof(*sq->e);
	}
	compact(sq->e, &sq->head, &sq->n, sizeof(*sq->e));
	ret = flush_cpus(s, limit, false);
	for (cpu = 0; !ret && cpu < s->top; cpu++)
		compact(s->q[cpu].e, &s->q[cpu].head, &s->q[cpu].n, sizeof(*s->q[cpu].e));
	return ret;
}

/* Queues are full: release what is certainly in order, then everything */
static __attribute__((noinline)) int over_cap(struct p2d_reorder *s)
{
	int ret;

	if (s->pending) {
		ret = flush_pending(s);
		if (ret || s->bytes <= P2D_QUEUE_CAP)
			return ret;
	}
	if (s->have_prev) {
		ret = flush_upto(s, s->prev_max);
		if (ret || s->bytes <= P2D_QUEUE_CAP / 2)
			return ret;
	}
	return flush_upto(s, UINT64_MAX);
}

/*
 * An event (@data, @len), a group of @lost events (@len has
 * P2D_GROUP_FLAG) or, when @data is NULL, a mark of @lost lost events
 */
static inline __attribute__((always_inline)) int add_entry(struct p2d_reorder *s, uint32_t cpu,
							   uint64_t ts, const void *data,
							   uint32_t len, uint64_t lost)
{
	struct cpuq *q = cpu < s->top ? &s->q[cpu] : get_queue(s, cpu);
	uint32_t size = len & ~P2D_GROUP_FLAG;
	uint64_t off = lost;
	int ret;

	if (!q)
		return cpu >= P2D_MAX_CPUS ? -ERANGE : -ENOMEM;
	if (s->pending && ts <= s->pend_limit && (ret = flush_pending(s)))
		return ret;
	if (q->emitted && ts < q->emitted_ts) {
		/* a loss can still be shown where we are; an event cannot */
		if (data) {
			s->late += len & P2D_GROUP_FLAG ? lost : 1;
			return 0;
		}
		ts = q->emitted_ts;
	}
	if (data) {
		off = store(s, q, data, size);
		if (!off)
			return -ENOMEM;
		s->bytes += size;
		if (ts > s->cur_max)
			s->cur_max = ts;
	}
	ret = insert(q, ts, off, len);
	if (ret)
		return ret;
	if (s->bytes <= P2D_QUEUE_CAP)
		return 0;
	return over_cap(s);
}

/* Release what the rounds passed so far owe (p2d_reorder_round_lazy()) */
static int flush_pending(struct p2d_reorder *s)
{
	s->pending = false;
	return flush_upto(s, s->pend_limit);
}

/**
 * p2d_reorder_round - a FINISHED_ROUND record was read
 * @s: queue
 *
 * Releases every event not newer than the newest one of the previous round.
 *
 * Returns 0 or the emit callback's error.
 */
int p2d_reorder_round(struct p2d_reorder *s)
{
	int ret = s->pending ? flush_pending(s) : 0;

	if (!ret && s->have_prev)
		ret = flush_upto(s, s->prev_max);
	s->prev_max = s->cur_max;
	s->have_prev = true;
	return ret;
}

/**
 * p2d_reorder_round_lazy - p2d_reorder_round(), the release perhaps later
 * @s: queue
 *
 * Rounds of a few events each cost more to release one by one than their
 * events do (bench/real's syscalls mix: 10 events a round): the release is
 * owed until DEFER_BYTES are queued, and made at once before anything
 * could tell the difference: an event, loss or side-band record at or
 * before the time owed, an event without a time, the queue's cap, the end.
 * The emit callbacks then get each CPU's events, and the side-band records
 * between them, as p2d_reorder_round() would have given them; only the
 * order across CPUs between two side-band records may differ: for
 * consumers that keep each CPU apart.
 *
 * Returns 0 or the emit callback's error.
 */
int p2d_reorder_round_lazy(struct p2d_reorder *s)
{
	int ret = 0;

	if (s->have_prev) {
		s->pend_limit = s->prev_max;	/* never less than the one owed */
		s->pending = true;
		/* events without a time get theirs at the first release */
		if (s->bytes >= DEFER_BYTES || (s->ut_n && !s->ut_placed))
			ret = flush_pending(s);
	}
	s->prev_max = s->cur_max;
	s->have_prev = true;
	return ret;
}

/**
 * p2d_reorder_flush - release everything (end of input)
 * @s: queue
 *
 * Returns 0 or the emit callback's error.
 */
int p2d_reorder_flush(struct p2d_reorder *s)
{
	int ret = s->pending ? flush_pending(s) : 0;

	return ret ? ret : flush_upto(s, UINT64_MAX);
}
