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
 * timestamps keep their arrival order) and an arena holding the payloads.
 *
 * Side-band records (a task's name, its fork and exit) go through one more
 * queue, ordered across all CPUs, released by the same rule: perf writes its
 * CPU buffers one after the other, so a fork read from CPU 0's buffer can
 * come before the exec, on CPU 1, that named its parent. Each is released
 * after every event before it and before every event after it. A record
 * without a timestamp (perf's synthesized ones carry 0) takes effect at
 * once, as in perf's ordered-events queue.
 */
#include <stdlib.h>

#include "reorder.h"

struct entry {
	uint64_t	ts;
	uint64_t	off;	/* arena offset, or lost count */
	uint32_t	len;	/* P2D_LOST_MARK for a lost-events entry */
};

struct cpuq {
	struct entry	*e;
	size_t		head;
	size_t		n;
	size_t		cap;
	uint8_t		*arena;
	size_t		alen;
	size_t		acap;
	size_t		dead;
	uint64_t	emitted_ts;
	bool		emitted;
};

/* The side-band queue: records in time order across CPUs */
struct sideq {
	struct p2d_side	*e;
	size_t		head;
	size_t		n;
	size_t		cap;
};

struct p2d_reorder {
	struct cpuq	*q;
	uint32_t	nq;
	struct sideq	side;
	p2d_emit_fn	emit;
	p2d_side_fn	emit_side;
	void		*ctx;
	uint64_t	cur_max;
	uint64_t	prev_max;
	bool		have_prev;
	size_t		bytes;
	uint64_t	late;
};

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
		free(s->q[i].arena);
	}
	free(s->q);
	free(s->side.e);
	free(s);
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

	if (cpu < s->nq)
		return &s->q[cpu];
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

/* Make room after every queued entry with ts <= @ts (there is room) */
static struct entry *make_room(struct cpuq *q, uint64_t ts)
{
	size_t lo = q->head, hi = q->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (q->e[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&q->e[lo + 1], &q->e[lo], (q->n - lo) * sizeof(*q->e));
	q->n++;
	return &q->e[lo];
}

/*
 * Queue an entry in time order, stable. The fields are stored one by one:
 * copying a struct just built on the stack stalls on store forwarding.
 */
static inline int insert(struct cpuq *q, uint64_t ts, uint64_t off, uint32_t len)
{
	struct entry *e;

	if (q->n == q->cap && grow((void **)&q->e, &q->cap, q->n + 1, sizeof(*q->e)))
		return -ENOMEM;
	/* the common case: in order */
	if (q->n == q->head || q->e[q->n - 1].ts <= ts)
		e = &q->e[q->n++];
	else
		e = make_room(q, ts);
	e->ts = ts;
	e->off = off;
	e->len = len;
	return 0;
}

static int add_entry(struct p2d_reorder *s, uint32_t cpu, uint64_t ts, const void *data,
		     uint32_t len, uint64_t lost);


/**
 * p2d_reorder_add - queue one event
 * @s: queue
 * @cpu: CPU (below P2D_MAX_CPUS)
 * @ts: timestamp
 * @data: payload, copied
 * @len: payload bytes
 *
 * Returns 0, -ENOMEM, -ERANGE for a bad CPU, or the emit callback's error.
 */
int p2d_reorder_add(struct p2d_reorder *s, uint32_t cpu, uint64_t ts, const void *data,
		   uint32_t len)
{
	return add_entry(s, cpu, ts, data, len, 0);
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
	size_t lo, hi, mid;

	if (!rec->ts)
		return s->emit_side(s->ctx, rec);
	if (q->n == q->cap && grow((void **)&q->e, &q->cap, q->n + 1, sizeof(*q->e)))
		return -ENOMEM;
	lo = q->head;
	hi = q->n;
	if (lo < hi && q->e[hi - 1].ts > rec->ts) {
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (q->e[mid].ts <= rec->ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		memmove(&q->e[lo + 1], &q->e[lo], (q->n - lo) * sizeof(*q->e));
	} else {
		lo = q->n;
	}
	q->e[lo] = *rec;
	q->n++;
	s->bytes += sizeof(*q->e);
	if (rec->ts > s->cur_max)
		s->cur_max = rec->ts;
	return s->bytes <= P2D_QUEUE_CAP ? 0 : over_cap(s);
}

static int compact(struct cpuq *q)
{
	uint8_t *na;
	size_t i, pos = 0;

	if (q->head == q->n) {
		q->head = q->n = 0;
		q->alen = q->dead = 0;
		return 0;
	}
	if (q->head > q->n / 2) {
		memmove(q->e, q->e + q->head, (q->n - q->head) * sizeof(*q->e));
		q->n -= q->head;
		q->head = 0;
	}
	if (q->dead < q->alen / 2)
		return 0;
	na = malloc(q->acap);
	if (!na)
		return -ENOMEM;
	for (i = q->head; i < q->n; i++) {
		if (q->e[i].len == P2D_LOST_MARK)
			continue;
		memcpy(na + pos, q->arena + q->e[i].off, q->e[i].len);
		q->e[i].off = pos;
		pos += q->e[i].len;
	}
	free(q->arena);
	q->arena = na;
	q->alen = pos;
	q->dead = 0;
	return 0;
}

/* Release a CPU's events up to @limit (before it when @strict) */
static int flush_queue(struct p2d_reorder *s, uint32_t cpu, uint64_t limit, bool strict)
{
	struct cpuq *q = &s->q[cpu];
	struct entry *ent;
	int ret;

	while (q->head < q->n) {
		ent = &q->e[q->head];
		if (ent->ts > limit || (strict && ent->ts == limit))
			break;
		if (ent->len == P2D_LOST_MARK) {
			ret = s->emit(s->ctx, cpu, ent->ts, NULL, ent->off);
		} else {
			ret = s->emit(s->ctx, cpu, ent->ts, q->arena + ent->off, ent->len);
			q->dead += ent->len;
			s->bytes -= ent->len;
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

	for (cpu = 0; cpu < s->nq; cpu++) {
		ret = flush_queue(s, cpu, limit, strict);
		if (ret)
			return ret;
	}
	return 0;
}

static void compact_side(struct sideq *q)
{
	if (q->head == q->n) {
		q->head = q->n = 0;
	} else if (q->head > q->n / 2) {
		memmove(q->e, q->e + q->head, (q->n - q->head) * sizeof(*q->e));
		q->n -= q->head;
		q->head = 0;
	}
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

	while (sq->head < sq->n && sq->e[sq->head].ts <= limit) {
		ret = flush_cpus(s, sq->e[sq->head].ts, true);
		if (!ret)
			ret = s->emit_side(s->ctx, &sq->e[sq->head]);
		if (ret)
			return ret;
		sq->head++;
		s->bytes -= sizeof(*sq->e);
	}
	compact_side(sq);
	ret = flush_cpus(s, limit, false);
	for (cpu = 0; !ret && cpu < s->nq; cpu++)
		ret = compact(&s->q[cpu]);
	return ret;
}

/* Queues are full: release what is certainly in order, then everything */
static __attribute__((noinline)) int over_cap(struct p2d_reorder *s)
{
	int ret;

	if (s->have_prev) {
		ret = flush_upto(s, s->prev_max);
		if (ret || s->bytes <= P2D_QUEUE_CAP / 2)
			return ret;
	}
	return flush_upto(s, UINT64_MAX);
}

/* An event (@data, @len) or, when @data is NULL, a mark of @lost lost events */
static int add_entry(struct p2d_reorder *s, uint32_t cpu, uint64_t ts, const void *data,
		     uint32_t len, uint64_t lost)
{
	struct cpuq *q = cpu < s->nq ? &s->q[cpu] : get_queue(s, cpu);
	uint64_t off = lost;
	int ret;

	if (!q)
		return cpu >= P2D_MAX_CPUS ? -ERANGE : -ENOMEM;
	if (q->emitted && ts < q->emitted_ts) {
		/* a loss can still be shown where we are; an event cannot */
		if (data) {
			s->late++;
			return 0;
		}
		ts = q->emitted_ts;
	}
	if (data) {
		if (q->alen + len > q->acap &&
		    grow((void **)&q->arena, &q->acap, q->alen + len, 1))
			return -ENOMEM;
		memcpy(q->arena + q->alen, data, len);
		off = q->alen;
		q->alen += len;
		s->bytes += len;
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
	int ret = 0;

	if (s->have_prev)
		ret = flush_upto(s, s->prev_max);
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
	return flush_upto(s, UINT64_MAX);
}
