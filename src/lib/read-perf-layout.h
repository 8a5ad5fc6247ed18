/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf.data reader's event attributes and the sample layout they
 * describe, decoded once per attr (read-perf-layout.c): where a sample or a
 * sample_id trailer has its fields, and the decoding of a sample into the
 * event handed to the sink.
 */
#ifndef P2D_READ_PERF_LAYOUT_H
#define P2D_READ_PERF_LAYOUT_H

#include "cursor.h"
#include "read-perf-format.h"
#include "read-perf.h"

/**
 * struct p2d_id_offsets - where a sample or a sample_id trailer has the
 * fields that place an event, from its start; -1 for those it lacks
 * @tid: the pid/tid pair
 * @time: the time
 * @cpu: the cpu (and its reserved word)
 */
struct p2d_id_offsets {
	int	tid;
	int	time;
	int	cpu;
};

/**
 * struct p2d_attr - what the reader needs of one perf_event_attr
 * @type: PERF_TYPE_*
 * @config: for tracepoints, the event id
 * @period: the fixed sample period (perf record -c), 0 with a frequency
 * @sample_type: PERF_SAMPLE_* bits
 * @read_format: PERF_FORMAT_* bits
 * @branch_sample_type: PERF_SAMPLE_BRANCH_* bits
 * @regs_user: sample_regs_user mask
 * @regs_intr: sample_regs_intr mask
 * @sample_id_all: non-sample records carry a sample_id trailer
 * @inherit: the counters count the task's children too (attr.inherit)
 * @use_clockid: @clockid is valid
 * @clockid: clock of the timestamps
 * @trailer: size of the sample_id trailer of non-sample records
 * @name: event name from EVENT_DESC, or NULL
 * @samples: samples seen
 * @fixed: nothing of variable size precedes RAW in a sample, so the fields
 *	below are at fixed offsets from the end of the record header
 * @in_sample: where the pid/tid pair, the time and the cpu sit in a sample
 * @off_raw: offset of the RAW size word, or -1
 * @in_trailer: where they sit in the sample_id trailer
 * @tp_fast: a tracepoint, @fixed, whose samples have a pid/tid pair, a time
 *	and a CPU (as perf records them): read
 *	by p2d_rd_fast_samples()
 * @fast_size: with @tp_fast, the size of a sample record up to its RAW
 *	data (header, fields, RAW size word), else UINT32_MAX: the least a
 *	record p2d_rd_fast_samples() reads has
 * @vals: the &enum p2d_val its samples carry (bitmask)
 * @announced: told to the sink as a &p2d_source
 * @off: input offset of the attribute, for messages
 */
struct p2d_attr {
	uint32_t	type;
	uint64_t	config;
	uint64_t	period;
	uint64_t	sample_type;
	uint64_t	read_format;
	uint64_t	branch_sample_type;
	uint64_t	regs_user;
	uint64_t	regs_intr;
	bool		sample_id_all;
	bool		inherit;
	bool		use_clockid;
	int32_t		clockid;
	uint32_t	trailer;
	char		*name;
	uint64_t	samples;
	bool		fixed;
	struct p2d_id_offsets in_sample;
	int		off_raw;
	struct p2d_id_offsets in_trailer;
	bool		tp_fast;
	uint32_t	fast_size;
	uint32_t	vals;
	bool		announced;
	uint64_t	off;
};

/**
 * struct p2d_rd_sample - a PERF_RECORD_SAMPLE, or the sample_id trailer of
 * another record: decoded straight into the event handed to the sink
 * @ev: the event
 * @has_time: the sample has a timestamp
 * @has_cpu: the sample has a CPU
 * @sample_type: of its attr
 * @read: its PERF_SAMPLE_READ values, in the record; NULL without them
 */
struct p2d_rd_sample {
	struct p2d_event	ev;
	bool			has_time;
	bool			has_cpu;
	uint64_t		sample_type;
	const uint8_t		*read;
};

/* read-perf-layout.c */
uint32_t p2d_rd_trailer_size(uint64_t st) __hidden;
void p2d_rd_id_positions(uint64_t st, int *id_pos, int *is_pos) __hidden;
void p2d_rd_layout(struct p2d_attr *a) __hidden;
int p2d_rd_parse_sample(const struct p2d_attr *a, struct p2d_cursor *c,
			struct p2d_rd_sample *s) __hidden;
int p2d_rd_parse_trailer(const struct p2d_attr *a, const struct p2d_cursor *rec,
			 struct p2d_rd_sample *s) __hidden;

/**
 * p2d_rd_read_ids - the pid, tid, time and cpu of a sample or trailer
 * @p: its start
 * @o: where they sit (from p2d_rd_layout(); bounds checked by the caller)
 * @swap: the recording's byte order is not ours
 * @s: gets those it has, with has_pid, has_time and has_cpu
 */
static inline void p2d_rd_read_ids(const uint8_t *p, const struct p2d_id_offsets *o, bool swap,
				   struct p2d_rd_sample *s)
{
	if (o->tid >= 0) {
		s->ev.pid = p2d_get32(p + o->tid, swap);
		s->ev.tid = p2d_get32(p + o->tid + 4, swap);
		s->ev.has_pid = true;
	}
	if (o->time >= 0) {
		s->ev.ts = p2d_get64(p + o->time, swap);
		s->has_time = true;
	}
	if (o->cpu >= 0) {
		s->ev.cpu = p2d_get32(p + o->cpu, swap);
		s->has_cpu = true;
	}
}

/**
 * p2d_rd_parse_fixed - decode a sample of an attr with a fast path
 * @a: its attr (@a->fixed)
 * @c: cursor after the record header
 * @s: result (zeroed by the caller)
 *
 * Inline, for every sample; the offsets come from p2d_rd_layout().
 *
 * Returns 0 or -EBADMSG.
 */
static inline int p2d_rd_parse_fixed(const struct p2d_attr *a, const struct p2d_cursor *c,
				     struct p2d_rd_sample *s)
{
	const uint8_t *p = c->buf + c->pos;
	size_t left = p2d_cur_left(c);

	if ((size_t)a->off_raw + 4 > left)
		return -EBADMSG;
	p2d_rd_read_ids(p, &a->in_sample, c->swap, s);
	s->ev.len = p2d_get32(p + a->off_raw, c->swap);
	if (s->ev.len > left - a->off_raw - 4)
		return -EBADMSG;
	s->ev.raw = p + a->off_raw + 4;
	return 0;
}

#endif /* P2D_READ_PERF_LAYOUT_H */
