// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf.data records: the data section of a file, or the whole of a pipe
 * stream. Each record starts with struct perf_event_header { u32 type;
 * u16 misc; u16 size; } and is dispatched through a table of handlers.
 */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>

#include "read-perf-local.h"

#define PROGRESS_STEP	(1u << 20)	/* input bytes between progress reports */
#define PROGRESS_RECORDS 256		/* ... or records */

/**
 * struct sample - what a tracepoint needs of a PERF_RECORD_SAMPLE, or of
 * the sample_id trailer of another record: decoded straight into the
 * event handed to the sink (cpu, pid, tid, has_pid, ts, raw, len)
 * @ev: the event
 * @has_time: the sample has a timestamp
 * @has_cpu: the sample has a CPU
 * @has_chain: the sample has a call chain (not converted)
 */
struct sample {
	struct p2d_event	ev;
	bool			has_time;
	bool			has_cpu;
	bool			has_chain;
};

static int skip_read_values(struct p2d_cursor *c, uint64_t rf)
{
	uint64_t times = 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));
	uint64_t value = 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
	uint64_t nr;

	if (!(rf & PERF_FORMAT_GROUP))
		return p2d_cur_skip(c, value + times);
	if (p2d_cur_u64(c, &nr) || p2d_cur_skip(c, times))
		return -EBADMSG;
	if (nr > p2d_cur_left(c) / value)
		return -EBADMSG;
	return p2d_cur_skip(c, nr * value);
}

/* Walk sample_type in the kernel's order up to RAW (perf_output_sample()) */
static int parse_sample(const struct p2d_attr *a, struct p2d_cursor *c, struct sample *s)
{
	uint64_t st = a->sample_type, nr;
	uint32_t v;

	s->ev.has_pid = st & PERF_SAMPLE_TID;
	s->has_time = st & PERF_SAMPLE_TIME;
	s->has_cpu = st & PERF_SAMPLE_CPU;
	if (p2d_cur_skip(c, 8 * __builtin_popcountll(st & (PERF_SAMPLE_IDENTIFIER |
							     PERF_SAMPLE_IP))))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_TID) && (p2d_cur_u32(c, &s->ev.pid) || p2d_cur_u32(c, &s->ev.tid)))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_TIME) && p2d_cur_u64(c, &s->ev.ts))
		return -EBADMSG;
	if (p2d_cur_skip(c, 8 * __builtin_popcountll(st & (PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
							     PERF_SAMPLE_STREAM_ID))))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_CPU) && (p2d_cur_u32(c, &s->ev.cpu) || p2d_cur_u32(c, &v)))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_PERIOD) && p2d_cur_skip(c, 8))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_READ) && skip_read_values(c, a->read_format))
		return -EBADMSG;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (p2d_cur_u64(c, &nr) || nr > p2d_cur_left(c) / 8 || p2d_cur_skip(c, nr * 8))
			return -EBADMSG;
		s->has_chain = nr > 0;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (p2d_cur_u32(c, &s->ev.len) || p2d_cur_bytes(c, s->ev.len, &s->ev.raw))
			return -EBADMSG;
	}
	return 0;
}

/* The sample_id trailer of a non-sample record (attr.sample_id_all) */
static const struct p2d_attr *trailer_attr(const struct p2d_reader *r,
					    const struct p2d_cursor *c)
{
	if (r->nr_attrs == 1 || r->is_pos < 0)
		return r->nr_attrs ? &r->attrs[0] : NULL;
	if (c->len < 8 + (size_t)r->is_pos)
		return NULL;
	return p2d_rd_attr_by_id(r, p2d_get64(c->buf + c->len - r->is_pos, c->swap));
}

static int parse_trailer(const struct p2d_reader *r, const struct p2d_cursor *rec,
			 struct sample *s)
{
	const struct p2d_attr *a = trailer_attr(r, rec);
	struct p2d_cursor c;
	uint64_t st;
	uint32_t v;

	memset(s, 0, sizeof(*s));
	if (!a || !a->sample_id_all || a->trailer > rec->len - 8)
		return -ENOENT;
	st = a->sample_type;
	p2d_cur_init(&c, rec->buf + rec->len - a->trailer, a->trailer,
		     rec->base + rec->len - a->trailer, rec->swap);
	if (st & PERF_SAMPLE_TID) {
		p2d_cur_u32(&c, &s->ev.pid);
		p2d_cur_u32(&c, &s->ev.tid);
		s->ev.has_pid = true;
	}
	if (st & PERF_SAMPLE_TIME) {
		p2d_cur_u64(&c, &s->ev.ts);
		s->has_time = true;
	}
	p2d_cur_skip(&c, 8 * __builtin_popcountll(st & (PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID)));
	if (st & PERF_SAMPLE_CPU) {
		p2d_cur_u32(&c, &s->ev.cpu);
		p2d_cur_u32(&c, &v);
		s->has_cpu = true;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Record handlers                                                          */

static struct p2d_attr *sample_attr(struct p2d_reader *r, const struct p2d_cursor *c)
{
	uint64_t id;
	struct id_cached *slot;

	if (r->nr_attrs == 1 || r->id_pos < 0)
		return r->nr_attrs ? &r->attrs[0] : NULL;
	if (c->len < 8 + (size_t)r->id_pos + 8)
		return NULL;
	id = p2d_get64(c->buf + 8 + r->id_pos, c->swap);
	slot = &r->id_cache[id % 16];
	if (slot->attr && slot->id == id)
		return slot->attr;
	slot->id = id;
	slot->attr = p2d_rd_attr_by_id(r, id);
	return slot->attr;
}

/* parse_sample() for an attr whose RAW is at a fixed offset */
static int parse_fixed(const struct p2d_attr *a, const struct p2d_cursor *c, struct sample *s)
{
	const uint8_t *p = c->buf + c->pos;
	size_t left = p2d_cur_left(c);

	if ((size_t)a->off_raw + 4 > left)
		return -EBADMSG;
	if (a->off_tid >= 0) {
		s->ev.pid = p2d_get32(p + a->off_tid, c->swap);
		s->ev.tid = p2d_get32(p + a->off_tid + 4, c->swap);
		s->ev.has_pid = true;
	}
	if (a->off_time >= 0) {
		s->ev.ts = p2d_get64(p + a->off_time, c->swap);
		s->has_time = true;
	}
	if (a->off_cpu >= 0) {
		s->ev.cpu = p2d_get32(p + a->off_cpu, c->swap);
		s->has_cpu = true;
	}
	s->ev.len = p2d_get32(p + a->off_raw, c->swap);
	if (s->ev.len > left - a->off_raw - 4)
		return -EBADMSG;
	s->ev.raw = p + a->off_raw + 4;
	return 0;
}

static void warn_once(struct p2d_reader *r, bool *flag, uint64_t off, const char *msg)
{
	if (*flag)
		return;
	*flag = true;
	p2d_warn(r->d, off, "%s", msg);
}

static int rec_sample(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	static const char no_cpu[] = "samples carry no CPU (PERF_SAMPLE_CPU): all on CPU 0";
	struct p2d_attr *a = sample_attr(r, c);
	struct sample s;

	if (!a) {
		r->stats->dropped++;
		warn_once(r, &r->warned_id, c->base, "sample with an unknown event id skipped");
		return 0;
	}
	a->samples++;
	if (a->type != PERF_TYPE_TRACEPOINT) {
		r->stats->other_samples++;
		return 0;
	}
	memset(&s, 0, sizeof(s));
	p2d_cur_skip(c, 8);
	if ((a->fixed ? parse_fixed(a, c, &s) : parse_sample(a, c, &s)) || !s.ev.raw) {
		r->stats->dropped++;
		warn_once(r, &r->warned_bad, c->base,
			  "malformed tracepoint sample (or one without RAW data) skipped");
		return 0;
	}
	if (!s.has_time)
		return p2d_error(r->d, c->base, -ENOTSUP,
				 "tracepoint samples without timestamps (PERF_SAMPLE_TIME)");
	if (!s.has_cpu)
		warn_once(r, &r->warned_cpu, c->base, no_cpu);
	r->stats->callchains += s.has_chain;
	s.ev.off = c->base;
	return r->sink->ops->event(r->sink->ctx, &s.ev);
}

/* A side-band record takes effect at its time: the sample_id trailer's */
static int side_record(struct p2d_reader *r, struct p2d_cursor *c, struct p2d_side *rec)
{
	struct sample s;

	if (!parse_trailer(r, c, &s) && s.has_time)
		rec->ts = s.ev.ts;
	return r->sink->ops->side(r->sink->ctx, rec, c->base);
}

/* { header; u32 pid, tid; char comm[]; sample_id }: the name is NUL-padded */
static int rec_comm(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	const struct p2d_attr *a = trailer_attr(r, c);
	struct p2d_side rec = { .kind = P2D_SIDE_COMM };
	size_t i, end = c->len;
	uint32_t pid;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &pid) || p2d_cur_u32(c, &rec.tid))
		return 0;
	if (a && a->sample_id_all && a->trailer <= p2d_cur_left(c))
		end = c->len - a->trailer;
	for (i = 0; i < sizeof(rec.comm) - 1 && c->pos + i < end && c->buf[c->pos + i]; i++)
		rec.comm[i] = (char)c->buf[c->pos + i];
	return side_record(r, c, &rec);
}

/* { header; u32 pid, ppid, tid, ptid; u64 time; sample_id } for FORK and EXIT */
static int task_record(struct p2d_reader *r, struct p2d_cursor *c, uint32_t kind)
{
	struct p2d_side rec = { .kind = kind };
	uint32_t pid, ppid, ptid;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &pid) || p2d_cur_u32(c, &ppid) || p2d_cur_u32(c, &rec.tid) ||
	    p2d_cur_u32(c, &ptid))
		return 0;
	rec.parent = ptid;
	return side_record(r, c, &rec);
}

static int rec_fork(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return task_record(r, c, P2D_SIDE_FORK);
}

static int rec_exit(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return task_record(r, c, P2D_SIDE_EXIT);
}

static int place_lost(struct p2d_reader *r, struct p2d_cursor *c, const struct sample *s,
		      uint64_t count)
{
	if (!s->has_cpu)
		warn_once(r, &r->warned_lost, c->base,
			  "lost-events record without CPU: counted, not placed");
	/* time 0: perf's end-of-recording totals; the loss goes after the CPU's data */
	return r->sink->ops->lost(r->sink->ctx, s->has_cpu ? s->ev.cpu : P2D_NO_CPU,
				  s->has_time && s->ev.ts ? s->ev.ts : UINT64_MAX, count);
}

/* The loss counters of @cpu, NULL if out of memory or range */
static struct lost_cpu *lost_of(struct p2d_reader *r, uint32_t cpu)
{
	struct lost_cpu *n;
	uint32_t nr;

	if (cpu < r->nr_lost)
		return &r->lost[cpu];
	if (cpu >= P2D_MAX_CPUS)
		return NULL;
	nr = r->nr_lost ? r->nr_lost : 4;
	while (nr <= cpu)
		nr *= 2;
	n = realloc(r->lost, nr * sizeof(*n));
	if (!n)
		return NULL;
	memset(n + r->nr_lost, 0, (nr - r->nr_lost) * sizeof(*n));
	r->lost = n;
	r->nr_lost = nr;
	return &r->lost[cpu];
}

/*
 * { header; u64 id; u64 lost; sample_id }: a ring buffer overflowed, and
 * this many records of every event it carries were lost. The mark goes on
 * the CPU of the buffer, where the loss happened.
 */
static int rec_lost(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct lost_cpu *l;
	uint64_t id, count;
	struct sample s;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &id) || p2d_cur_u64(c, &count))
		return 0;
	parse_trailer(r, c, &s);
	if (s.has_cpu && (l = lost_of(r, s.ev.cpu)))
		l->records += count;
	return place_lost(r, c, &s, count);
}

/* The CPU of a sample id: from ID_INDEX, else from the record's sample_id */
static bool id_cpu(const struct p2d_reader *r, const struct p2d_cursor *c,
		   const struct sample *s, uint32_t *cpu)
{
	const struct id_slot *slot = NULL;

	if (r->is_pos >= 0 && c->len >= 8 + (size_t)r->is_pos)
		slot = p2d_rd_id_slot(r, p2d_get64(c->buf + c->len - r->is_pos, c->swap));
	if (slot && slot->cpu >= 0) {
		*cpu = (uint32_t)slot->cpu;
		return true;
	}
	*cpu = s->ev.cpu;
	return s->has_cpu;
}

/*
 * { header; u64 lost; sample_id }: samples one event lost on one CPU (its
 * PERF_FORMAT_LOST count), written by perf record when it stops; perf
 * report's "Total Lost Samples" is their sum. The same losses were already
 * reported, per ring buffer, by PERF_RECORD_LOST: only what those did not
 * cover on a CPU is new (p2d_rd_lost_excess()). The sample_id of these records
 * often says CPU 0: the CPU of the event id, from ID_INDEX, is the right
 * one. Samples a BPF filter dropped on purpose
 * (PERF_RECORD_MISC_LOST_SAMPLES_BPF) are not losses.
 */
static int rec_lost_samples(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct lost_cpu *l;
	uint64_t count;
	struct sample s;
	uint32_t cpu;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &count) || (misc & P2D_MISC_LOST_SAMPLES_BPF))
		return 0;
	parse_trailer(r, c, &s);
	if (!id_cpu(r, c, &s, &cpu))
		cpu = 0;
	l = lost_of(r, cpu);
	if (l)
		l->samples += count;
	return 0;
}

/**
 * p2d_rd_lost_excess - losses the LOST_SAMPLES records of a CPU report beyond
 * its PERF_RECORD_LOST ones, marked at the end of that CPU's data
 * @r: reader, at the end of the input
 *
 * The total is then perf report's "Total Lost Samples" whenever perf wrote
 * LOST_SAMPLES records, and the sum of the LOST records otherwise.
 *
 * Returns 0 or a negative errno.
 */
int p2d_rd_lost_excess(struct p2d_reader *r)
{
	struct sample s = { .has_cpu = true };
	struct p2d_cursor c = { .base = p2d_in_pos(r->in) };
	uint32_t cpu;
	int ret = 0;

	for (cpu = 0; cpu < r->nr_lost && !ret; cpu++) {
		const struct lost_cpu *l = &r->lost[cpu];

		s.ev.cpu = cpu;
		if (l->samples > l->records)
			ret = place_lost(r, &c, &s, l->samples - l->records);
	}
	return ret;
}

/*
 * { header; u64 nr; { u64 id, idx, cpu, tid; } entries[nr]; } (perf >= 6.1
 * may append { u64 machine_pid, vcpu; } per entry after them): which CPU
 * each sample id counts on.
 */
static int rec_id_index(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	uint64_t nr, i, id, idx, cpu, tid;
	struct id_slot *slot;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &nr) || nr > p2d_cur_left(c) / 32)
		return 0;
	for (i = 0; i < nr; i++) {
		if (p2d_cur_u64(c, &id) || p2d_cur_u64(c, &idx) || p2d_cur_u64(c, &cpu) ||
		    p2d_cur_u64(c, &tid))
			break;
		slot = p2d_rd_id_slot(r, id);
		if (slot && cpu < P2D_MAX_CPUS)
			slot->cpu = (int32_t)cpu;
	}
	return 0;
}

static int rec_round(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return r->sink->ops->round(r->sink->ctx);
}

/* Pipe mode: struct attr_event { header; perf_event_attr attr; u64 id[]; } */
static int rec_header_attr(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_attr a;
	uint32_t asize;
	int ret;

	if (c->len < 8 + PERF_ATTR_SIZE_VER0_)
		return p2d_error(r->d, c->base, -EBADMSG, "short HEADER_ATTR record");
	asize = p2d_get32(c->buf + 12, c->swap);
	if (!asize)
		asize = PERF_ATTR_SIZE_VER0_;
	if (asize > c->len - 8)
		return p2d_error(r->d, c->base, -EBADMSG, "HEADER_ATTR with attr size %u", asize);
	p2d_cur_skip(c, 8);
	ret = p2d_rd_parse_attr(r, c, asize, &a);
	if (!ret)
		ret = p2d_rd_add_attr(r, &a, c, p2d_cur_left(c) / 8);
	return ret ? ret : p2d_rd_meta(r);
}

static int rec_tracing_data(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	uint32_t size;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &size))
		return p2d_error(r->d, c->base, -EBADMSG, "short HEADER_TRACING_DATA record");
	r->extra = size;
	r->tracing_follows = true;
	return 0;
}

static int rec_feature(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	uint64_t feat;
	int ret;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &feat))
		return p2d_error(r->d, c->base, -EBADMSG, "short HEADER_FEATURE record");
	if (feat >= P2D_FEAT_BITS || feat == P2D_FEAT_TRACING_DATA)
		return 0;
	ret = p2d_rd_feature(r, (unsigned int)feat, c);
	return ret ? ret : p2d_rd_meta(r);
}

/* struct auxtrace_event { header; u64 size; ... } is followed by size bytes */
static int rec_auxtrace(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &r->extra))
		return p2d_error(r->d, c->base, -EBADMSG, "short AUXTRACE record");
	return 0;
}

/* { header; char data[]; } */
static int rec_compressed(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	r->compressed = true;
	return p2d_rd_zstd_feed(r, c->buf + 8, c->len - 8, c->base);
}

/* { header; u64 data_size; char data[data_size]; } padded to 8 bytes */
static int rec_compressed2(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	uint64_t size = 0;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &size) || size > p2d_cur_left(c))
		return p2d_error(r->d, c->base, -EBADMSG, "COMPRESSED2 data size %llu",
				 (unsigned long long)size);
	r->compressed = true;
	return p2d_rd_zstd_feed(r, c->buf + 16, size, c->base);
}

typedef int (*record_fn)(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc);

static const record_fn record_handlers[P2D_REC_MAX] = {
	[PERF_RECORD_SAMPLE]		= rec_sample,
	[PERF_RECORD_COMM]		= rec_comm,
	[PERF_RECORD_FORK]		= rec_fork,
	[PERF_RECORD_EXIT]		= rec_exit,
	[PERF_RECORD_LOST]		= rec_lost,
	[PERF_RECORD_LOST_SAMPLES]	= rec_lost_samples,
	[P2D_REC_FINISHED_ROUND]	= rec_round,
	[P2D_REC_ID_INDEX]		= rec_id_index,
	[P2D_REC_HEADER_ATTR]		= rec_header_attr,
	[P2D_REC_HEADER_TRACING_DATA]	= rec_tracing_data,
	[P2D_REC_HEADER_FEATURE]	= rec_feature,
	[P2D_REC_AUXTRACE]		= rec_auxtrace,
	[P2D_REC_COMPRESSED]		= rec_compressed,
	[P2D_REC_COMPRESSED2]		= rec_compressed2,
};

/**
 * p2d_rd_record_handled - does the reader use records of this type?
 * @type: record type
 */
bool p2d_rd_record_handled(unsigned int type)
{
	return type < P2D_REC_MAX && record_handlers[type];
}

/* ------------------------------------------------------------------------ */
/* The record loop                                                          */

static int read_extra(struct p2d_reader *r, uint64_t pos)
{
	uint64_t n = r->extra;
	uint8_t *blob;
	int ret;

	r->extra = 0;
	if (r->data_end != UINT64_MAX && n > r->data_end - p2d_in_pos(r->in))
		return p2d_error(r->d, pos, -EBADMSG, "record payload crosses the end of data");
	if (!r->tracing_follows) {
		ret = p2d_in_skip(r->in, n);
		return ret ? p2d_error(r->d, pos, -EBADMSG, "truncated record payload") : 0;
	}
	r->tracing_follows = false;
	if (n > P2D_MAX_TRACING)
		return p2d_error(r->d, pos, -E2BIG, "tracing data of %llu bytes",
				 (unsigned long long)n);
	/* a file says what is left: allocate nothing for bytes that are not there */
	if (r->in->seekable && (p2d_in_pos(r->in) > r->in->size ||
				n > r->in->size - p2d_in_pos(r->in)))
		return p2d_error(r->d, pos, -EBADMSG, "truncated tracing data");
	blob = malloc(n ? n : 1);
	if (!blob)
		return -ENOMEM;
	ret = p2d_in_read(r->in, blob, n);
	if (ret) {
		free(blob);
		return p2d_error(r->d, pos, -EBADMSG, "truncated tracing data");
	}
	return p2d_rd_tracing(r, blob, n, pos);
}

/* A record that cannot be walked past: fatal inside a known data section */
static int bad_record(struct p2d_reader *r, uint64_t pos, const char *what, unsigned int v)
{
	if (r->data_end == UINT64_MAX) {
		p2d_warn(r->d, pos, "%s (%u): ignoring the rest of the input", what, v);
		return 0;
	}
	return p2d_error(r->d, pos, -EBADMSG, "%s (%u)", what, v);
}

/**
 * p2d_rd_dispatch - hand one record to its handler
 * @r: reader
 * @c: cursor over the whole record
 * @type: record type
 * @misc: header misc bits
 * @inner: the record came out of compressed data
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_dispatch(struct p2d_reader *r, struct p2d_cursor *c, uint32_t type, uint16_t misc,
		  bool inner)
{
	int ret;

	r->records++;
	if (type >= P2D_REC_MAX) {
		r->rec_unknown++;
		return 0;
	}
	r->rec_count[type]++;
	if (type < P2D_REC_SIDEBAND_END && type != PERF_RECORD_SAMPLE && type != PERF_RECORD_LOST &&
	    type != PERF_RECORD_LOST_SAMPLES)
		r->stats->sideband++;
	if (!record_handlers[type])
		return 0;
	if (inner && (type == P2D_REC_COMPRESSED || type == P2D_REC_COMPRESSED2))
		return p2d_error(r->d, c->base, -EBADMSG, "compressed record inside compressed data");
	ret = record_handlers[type](r, c, misc);
	if (!ret && inner && r->extra)
		return p2d_error(r->d, c->base, -EBADMSG,
				 "record with a trailing payload inside compressed data");
	return ret;
}

/*
 * perf 6.16's COMPRESSED2 writer could overflow header.size (u16) for a
 * record of nearly 64 KiB: it then wrote 0 or a wrapped size and no padding.
 * The true size is 16 + data_size.
 */
static uint32_t compressed2_size(struct p2d_reader *r, uint32_t size, uint64_t pos)
{
	const uint8_t *p;
	uint64_t data_size;

	if (p2d_in_peek(r->in, 16, &p))
		return size;
	data_size = p2d_get64(p + 8, r->swap);
	if (((16 + data_size + 7) & ~7ull) <= size || data_size > 65535 - 16)
		return size;
	if (!r->warned_c2) {
		p2d_warn(r->d, pos, "COMPRESSED2 record with an overflowed size (perf 6.16"
			 " bug): using its data size");
		r->warned_c2 = true;
	}
	return (uint32_t)(16 + data_size);
}

/**
 * p2d_rd_read_records - read every record of the data section (or stream)
 * @r: reader positioned at the first record
 *
 * A record cut by the end of the file ends the data with a warning.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_read_records(struct p2d_reader *r)
{
	struct p2d_input *in = r->in;
	struct p2d_cursor c;
	const uint8_t *p;
	uint64_t pos;
	uint32_t type, size;
	uint16_t misc;
	int ret;

	for (;;) {
		pos = p2d_in_pos(in);
		if (pos >= r->data_end)
			break;
		ret = p2d_in_peek(in, 8, &p);
		if (ret == -ENODATA) {
			if (in->end > in->start)
				p2d_warn(r->d, pos, "input ends inside a record header");
			break;
		}
		if (ret)
			return p2d_error(r->d, pos, ret, "read error: %s", strerror(-ret));
		type = p2d_get32(p, r->swap);
		misc = p2d_get16(p + 4, r->swap);
		size = p2d_get16(p + 6, r->swap);
		if (type == P2D_REC_COMPRESSED2)
			size = compressed2_size(r, size, pos);
		if (size < 8)
			return bad_record(r, pos, "record size below 8", size);
		if (size > r->data_end - pos)
			return bad_record(r, pos, "record crosses the end of the data section", size);
		ret = p2d_in_peek(in, size, &p);
		if (ret == -ENODATA) {
			if (type >= 256)
				p2d_warn(r->d, pos, "%zu bytes at the end are not a record"
					 " (trailing garbage): ignored", in->end - in->start);
			else
				p2d_warn(r->d, pos, "input ends inside a record of type %u (%zu"
					 " of %u bytes; truncated): ignored", type,
					 in->end - in->start, size);
			break;
		}
		if (ret)
			return p2d_error(r->d, pos, ret, "read error: %s", strerror(-ret));
		p2d_cur_init(&c, p, size, pos, r->swap);
		ret = p2d_rd_dispatch(r, &c, type, misc, false);
		if (ret)
			return ret;
		p2d_in_consume(in, size);
		if (r->extra) {
			ret = read_extra(r, pos);
			if (ret)
				return ret;
		}
		if (pos - r->last_progress >= PROGRESS_STEP || !(r->records % PROGRESS_RECORDS)) {
			r->last_progress = pos;
			r->sink->ops->progress(r->sink->ctx, pos, r->in->size);
		}
	}
	return 0;
}

static bool rd_probe(const uint8_t *buf, size_t len)
{
	return p2d_perf_magic(buf, len);
}

/* "data.N" files of a perf record --threads directory, in N order */
static int is_data_n(const struct dirent *d)
{
	const char *p = d->d_name;

	if (strncmp(p, "data.", 5) || !p[5])
		return 0;
	for (p += 5; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static int cmp_data_n(const struct dirent **a, const struct dirent **b)
{
	unsigned long x = strtoul((*a)->d_name + 5, NULL, 10);
	unsigned long y = strtoul((*b)->d_name + 5, NULL, 10);

	return (x > y) - (x < y);
}

/*
 * Each file of a compressed (-z) --threads directory is a zstd stream of its
 * own: the state of one does not carry over into the next.
 */
static void end_decomp_stream(struct p2d_reader *r)
{
	if (p2d_rd_zstd_pending(r))
		p2d_warn(r->d, p2d_in_pos(r->in), "compressed data ends inside a record (%zu"
			 " bytes): ignored", p2d_rd_zstd_pending(r));
	p2d_rd_zstd_free(r);
}

static int read_dir_file(struct p2d_reader *r, const char *dir, const char *name)
{
	struct p2d_input *main_in = r->in, sub;
	char *path;
	int ret;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	ret = p2d_in_open(&sub, path, -1);
	if (ret) {
		ret = p2d_error(r->d, P2D_NO_OFFSET, ret, "%s: %s", path, strerror(-ret));
	} else {
		sub.label = name;
		r->in = &sub;
		r->d->label = name;
		r->d->name = path;
		r->data_end = UINT64_MAX;
		r->last_progress = 0;
		ret = p2d_rd_read_records(r);
		if (!ret)
			end_decomp_stream(r);
		r->stats->input_bytes += p2d_in_total(&sub);
		r->in = main_in;
		r->d->label = NULL;
		r->d->name = main_in->name;
	}
	p2d_in_close(&sub);
	free(path);
	return ret;
}

/*
 * perf record --threads writes one file per thread: "data" holds the header
 * and the main thread's records, "data.N" only records. Each CPU's ring
 * buffer is read by one thread, so each CPU's events are in one file, in
 * order: reading the files one after the other keeps every CPU in order.
 */
static int read_dir_files(struct p2d_reader *r)
{
	struct dirent **list;
	char *copy, *dir;
	int i, n, ret = 0;

	if (!r->in->seekable || !strcmp(r->in->name, "<stdin>")) {
		p2d_warn(r->d, P2D_NO_OFFSET, "this recording continues in data.N files of its"
			 " directory (perf record --threads): give the directory to read them");
		return 0;
	}
	copy = strdup(r->in->name);
	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	n = scandir(dir, &list, is_data_n, cmp_data_n);
	if (n < 0) {
		ret = p2d_error(r->d, P2D_NO_OFFSET, -errno, "%s: %s", dir, strerror(errno));
		free(copy);
		return ret;
	}
	end_decomp_stream(r);
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = read_dir_file(r, dir, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	free(copy);
	return ret;
}

static int rd_read(struct p2d_input *in, const struct p2d_sink *sink, struct p2d_diag *d,
		   struct p2d_read_stats *stats)
{
	struct p2d_reader r;
	int ret;

	memset(&r, 0, sizeof(r));
	memset(stats, 0, sizeof(*stats));
	r.sink = sink;
	r.d = d;
	r.stats = stats;
	r.in = in;
	r.id_pos = r.is_pos = -1;
	d->name = in->name;
	ret = p2d_rd_read_file_header(&r);
	if (!ret)
		ret = p2d_rd_read_records(&r);
	if (!ret && !r.pipe && (r.feat[P2D_FEAT_DIR_FORMAT / 64] >> (P2D_FEAT_DIR_FORMAT % 64)) & 1)
		ret = read_dir_files(&r);
	if (!ret)
		ret = p2d_rd_lost_excess(&r);
	if (!ret)
		end_decomp_stream(&r);
	if (!ret)
		p2d_rd_report_read(&r);
	stats->input_bytes += p2d_in_total(in);
	p2d_rd_zstd_free(&r);
	p2d_rd_reader_release(&r);
	return ret;
}

const struct p2d_import p2d_import_perf = {
	.name	= "perf.data",
	.probe	= rd_probe,
	.read	= rd_read,
};
