// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Samples that read their counters (PERF_SAMPLE_READ: perf record -e
 * '{a,b}:S', leader sampling). perf shows such a sample once for each
 * counter it read whose value moved since that counter's (sample id's)
 * last read, under that counter's event, with the move as its period
 * (perf's session.c: a counter that did not move is not shown); the
 * record's own PERIOD is not used. Of an inherited counter (attr.inherit,
 * which newer perfs set for leader sampling), each thread's reads are its
 * own: the last value is kept per sample id and thread, as perf keeps it. A sample id perf does not know is not
 * shown either. Members that are tracepoints are left out: perf prints
 * them with the leader's payload decoded by their own format, which no
 * trace.dat event can hold (README).
 */
#include <stdlib.h>

#include "read-perf-local.h"

static uint32_t hash(uint64_t id, uint32_t tid, uint32_t cap)
{
	return (uint32_t)(((id ^ ((uint64_t)tid << 32)) * 0x9E3779B97F4A7C15ULL) >> 40) & (cap - 1);
}

/* The slot of (@id, @tid) in @t, of @cap slots (power of two), free or its own */
static struct thread_read *slot_of(struct thread_read *t, uint32_t cap, uint64_t id,
				   uint32_t tid)
{
	uint32_t i = hash(id, tid, cap);

	while (t[i].used && (t[i].id != id || t[i].tid != tid))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

/* Where the last value read of (@id, @tid) is kept: NULL when out of memory or room */
static uint64_t *thread_value(struct p2d_reader *r, uint64_t id, uint32_t tid)
{
	struct thread_read *t, *old = r->reads, *e;
	uint32_t i, cap;

	if (r->reads_cap) {
		e = slot_of(r->reads, r->reads_cap, id, tid);
		if (e->used)
			return &e->value;
	}
	if ((r->nr_reads + 1) * 2 > r->reads_cap) {
		if (r->nr_reads >= P2D_MAX_IDS)
			return NULL;
		cap = r->reads_cap ? r->reads_cap * 2 : 64;
		t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (i = 0; i < r->reads_cap; i++)
			if (old[i].used)
				*slot_of(t, cap, old[i].id, old[i].tid) = old[i];
		free(old);
		r->reads = t;
		r->reads_cap = cap;
	}
	e = slot_of(r->reads, r->reads_cap, id, tid);
	*e = (struct thread_read){ .id = id, .tid = tid, .used = true };
	r->nr_reads++;
	return &e->value;
}

/*
 * The values of @s's read (at @s->read; their bounds were checked when it
 * was parsed): the @i-th value and its id
 */
static void read_value(const struct p2d_attr *a, const struct p2d_rd_sample *s, bool swap,
		       uint64_t i, uint64_t *value, uint64_t *id)
{
	uint64_t rf = a->read_format;
	unsigned int times = 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				  !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));
	unsigned int each = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
	const uint8_t *p = s->read;

	if (rf & PERF_FORMAT_GROUP) {
		/* { nr, [times], { value, id, [lost] }[nr] } */
		p += 8 + times + i * each;
		*value = p2d_get64(p, swap);
		*id = p2d_get64(p + 8, swap);
	} else {
		/* { value, [times], id, [lost] } */
		*value = p2d_get64(p, swap);
		*id = p2d_get64(p + 8 + times, swap);
	}
}

/**
 * p2d_rd_read_samples - the samples perf shows for a sample that read its counters
 * @r: reader
 * @a: the sample's attr (PERF_SAMPLE_READ with PERF_FORMAT_ID)
 * @s: the sample, decoded (@s->read set)
 *
 * Returns 0 or a negative errno.
 */
int p2d_rd_read_samples(struct p2d_reader *r, const struct p2d_attr *a, struct p2d_rd_sample *s)
{
	bool per_thread = a->inherit && (a->sample_type & PERF_SAMPLE_TID);
	uint64_t nr = 1, i, value, id, delta, *prev;
	const struct p2d_attr *m;
	struct p2d_event ev;
	struct id_slot *slot;
	int ret;

	if (a->read_format & PERF_FORMAT_GROUP)
		nr = p2d_get64(s->read, s->ev.swap);
	for (i = 0; i < nr; i++) {
		read_value(a, s, s->ev.swap, i, &value, &id);
		slot = p2d_rd_id_slot(r, id);
		if (!slot) {
			r->stats->other_samples++;
			continue;
		}
		prev = per_thread ? thread_value(r, id, s->ev.tid) : &slot->read_prev;
		if (!prev)
			return p2d_error(r->d, s->ev.off, -ENOMEM, "out of memory (or of room for"
					 " more than %u counters' reads)", P2D_MAX_IDS);
		delta = value - *prev;
		*prev = value;
		m = &r->attrs[slot->attr - 1];
		if (!delta || (m != a && m->type == PERF_TYPE_TRACEPOINT))
			continue;
		ev = s->ev;
		if (m != a) {
			ev.source = (uint32_t)(m - r->attrs);
			ev.raw = NULL;
			ev.len = 0;
		}
		ev.val[P2D_VAL_PERIOD] = delta;
		ret = p2d_sink_sample(r->sink, &ev);
		if (ret)
			return ret;
	}
	return 0;
}
