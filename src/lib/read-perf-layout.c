// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The layout of a sample, described once: the fields of a PERF_RECORD_SAMPLE
 * in the order the kernel writes them (perf_output_sample()), up to RAW, and
 * the fields of the sample_id trailer other records carry with
 * attr.sample_id_all (perf_event__id_header_size()). Everything the reader
 * needs of a sample_type comes from these two tables: the fixed offsets of
 * an attr's fast path, where the event id sits, the trailer's size, and
 * the parsing of samples and trailers.
 */
#include "read-perf-local.h"

#define VARIABLE	0	/* the size depends on the record */

/* PERF_RECORD_SAMPLE, up to RAW */
static const uint64_t sample_fields[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW,
};

/* The sample_id trailer */
static const uint64_t id_fields[] = {
	PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
	PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* The read_format values of one event: value, then id and lost as asked */
static unsigned int read_value_size(uint64_t rf)
{
	return 8 * (1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
}

static unsigned int read_times_size(uint64_t rf)
{
	return 8 * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING));
}

/* Bytes of field @bit in a sample, or VARIABLE */
static unsigned int field_size(uint64_t bit, uint64_t rf)
{
	switch (bit) {
	case PERF_SAMPLE_READ:
		return rf & PERF_FORMAT_GROUP ? VARIABLE : read_value_size(rf) + read_times_size(rf);
	case PERF_SAMPLE_CALLCHAIN:
	case PERF_SAMPLE_RAW:
		return VARIABLE;
	default:
		return 8;
	}
}

/* Offset of field @bit in a sample of @st, or -1 (absent, or after a variable field) */
static int sample_offset(uint64_t st, uint64_t rf, uint64_t bit)
{
	unsigned int i, size;
	int pos = 0;

	for (i = 0; i < NR(sample_fields); i++) {
		if (!(st & sample_fields[i]))
			continue;
		if (sample_fields[i] == bit)
			return pos;
		size = field_size(sample_fields[i], rf);
		if (size == VARIABLE)
			return -1;
		pos += (int)size;
	}
	return -1;
}

/* Offset of field @bit in the sample_id trailer of @st, or -1 */
static int trailer_offset(uint64_t st, uint64_t bit)
{
	unsigned int i;
	int pos = 0;

	for (i = 0; i < NR(id_fields); i++) {
		if (!(st & id_fields[i]))
			continue;
		if (id_fields[i] == bit)
			return pos;
		pos += 8;
	}
	return -1;
}

/**
 * p2d_rd_trailer_size - bytes of the sample_id trailer of @st
 * @st: sample_type
 */
uint32_t p2d_rd_trailer_size(uint64_t st)
{
	unsigned int i;
	uint32_t n = 0;

	for (i = 0; i < NR(id_fields); i++)
		n += st & id_fields[i] ? 8 : 0;
	return n;
}

/**
 * p2d_rd_id_positions - where the event id sits
 * @st: sample_type (perf requires every attr of a recording to agree)
 * @id_pos: set to its offset in a sample, after the record header, or -1
 * @is_pos: set to its offset from the end of a sample_id trailer, or -1
 */
void p2d_rd_id_positions(uint64_t st, int *id_pos, int *is_pos)
{
	uint64_t bit = st & PERF_SAMPLE_IDENTIFIER ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
	int t = trailer_offset(st, bit);

	*id_pos = st & bit ? sample_offset(st, 0, bit) : -1;
	*is_pos = t < 0 ? -1 : (int)p2d_rd_trailer_size(st) - t;
}

/**
 * p2d_rd_layout - the fast path of an attr's samples
 * @a: attr, with sample_type and read_format set
 *
 * Where TID, TIME, CPU and RAW sit when nothing of variable size (a call
 * chain, a group READ) comes before RAW: the common case, read without
 * walking sample_type for every sample (@a->fixed). Also the trailer's
 * size and where TID, TIME and CPU sit in it.
 */
void p2d_rd_layout(struct p2d_attr *a)
{
	uint64_t st = a->sample_type, rf = a->read_format;

	a->trailer = a->sample_id_all ? p2d_rd_trailer_size(st) : 0;
	a->off_tid = sample_offset(st, rf, PERF_SAMPLE_TID);
	a->off_time = sample_offset(st, rf, PERF_SAMPLE_TIME);
	a->off_cpu = sample_offset(st, rf, PERF_SAMPLE_CPU);
	a->off_raw = sample_offset(st, rf, PERF_SAMPLE_RAW);
	a->fixed = a->off_raw >= 0;
	a->trl_tid = trailer_offset(st, PERF_SAMPLE_TID);
	a->trl_time = trailer_offset(st, PERF_SAMPLE_TIME);
	a->trl_cpu = trailer_offset(st, PERF_SAMPLE_CPU);
}

/* READ: one value, or a group of them */
static int skip_read(struct p2d_cursor *c, uint64_t rf)
{
	uint64_t value = read_value_size(rf), nr;

	if (!(rf & PERF_FORMAT_GROUP))
		return p2d_cur_skip(c, value + read_times_size(rf));
	if (p2d_cur_u64(c, &nr) || p2d_cur_skip(c, read_times_size(rf)) ||
	    nr > p2d_cur_left(c) / value)
		return -EBADMSG;
	return p2d_cur_skip(c, nr * value);
}

/* One field of a sample or trailer at @c into @s */
static int read_field(struct p2d_cursor *c, uint64_t bit, uint64_t rf, struct p2d_rd_sample *s)
{
	uint64_t nr;
	uint32_t res;

	switch (bit) {
	case PERF_SAMPLE_TID:
		s->ev.has_pid = true;
		return p2d_cur_u32(c, &s->ev.pid) || p2d_cur_u32(c, &s->ev.tid) ? -EBADMSG : 0;
	case PERF_SAMPLE_TIME:
		s->has_time = true;
		return p2d_cur_u64(c, &s->ev.ts);
	case PERF_SAMPLE_CPU:
		s->has_cpu = true;
		return p2d_cur_u32(c, &s->ev.cpu) || p2d_cur_u32(c, &res) ? -EBADMSG : 0;
	case PERF_SAMPLE_READ:
		return skip_read(c, rf);
	case PERF_SAMPLE_CALLCHAIN:
		if (p2d_cur_u64(c, &nr) || nr > p2d_cur_left(c) / 8 || p2d_cur_skip(c, nr * 8))
			return -EBADMSG;
		s->has_chain = nr > 0;
		return 0;
	case PERF_SAMPLE_RAW:
		return p2d_cur_u32(c, &s->ev.len) || p2d_cur_bytes(c, s->ev.len, &s->ev.raw) ?
		       -EBADMSG : 0;
	default:
		return p2d_cur_skip(c, 8);
	}
}

/**
 * p2d_rd_parse_sample - decode a sample, field by field, up to RAW
 * @a: its attr
 * @c: cursor after the record header
 * @s: result (zeroed by the caller)
 *
 * Returns 0 or -EBADMSG.
 */
int p2d_rd_parse_sample(const struct p2d_attr *a, struct p2d_cursor *c, struct p2d_rd_sample *s)
{
	unsigned int i;

	for (i = 0; i < NR(sample_fields); i++) {
		if ((a->sample_type & sample_fields[i]) &&
		    read_field(c, sample_fields[i], a->read_format, s))
			return -EBADMSG;
	}
	return 0;
}

/**
 * p2d_rd_parse_trailer - decode the sample_id trailer of a record
 * @a: the attr the record belongs to
 * @rec: cursor over the whole record
 * @s: result (zeroed here)
 *
 * Returns 0, or -ENOENT when the record has no trailer.
 */
int p2d_rd_parse_trailer(const struct p2d_attr *a, const struct p2d_cursor *rec,
			 struct p2d_rd_sample *s)
{
	const uint8_t *p;

	memset(s, 0, sizeof(*s));
	if (!a || !a->sample_id_all || a->trailer > rec->len - 8)
		return -ENOENT;
	p = rec->buf + rec->len - a->trailer;
	if (a->trl_tid >= 0) {
		s->ev.pid = p2d_get32(p + a->trl_tid, rec->swap);
		s->ev.tid = p2d_get32(p + a->trl_tid + 4, rec->swap);
		s->ev.has_pid = true;
	}
	if (a->trl_time >= 0) {
		s->ev.ts = p2d_get64(p + a->trl_time, rec->swap);
		s->has_time = true;
	}
	if (a->trl_cpu >= 0) {
		s->ev.cpu = p2d_get32(p + a->trl_cpu, rec->swap);
		s->has_cpu = true;
	}
	return 0;
}
