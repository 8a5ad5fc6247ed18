// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The layout of a sample, described once: the fields of a PERF_RECORD_SAMPLE
 * in the order the kernel writes them (perf_output_sample()), and
 * the fields of the sample_id trailer other records carry with
 * attr.sample_id_all (perf_event__id_header_size()). Everything the reader
 * needs of a sample_type comes from these two tables: the fixed offsets of
 * an attr's fast path, where the event id sits, the trailer's size, and
 * the parsing of samples and trailers.
 */
#include "read-perf-local.h"

#define VARIABLE	0	/* the size depends on the record */

/* PERF_RECORD_SAMPLE (WEIGHT_TYPE is either of two bits) */
static const uint64_t sample_fields[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW,
	PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER,
	PERF_SAMPLE_WEIGHT_TYPE, PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_TRANSACTION,
	PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP,
	PERF_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, PERF_SAMPLE_AUX,
};

/* The scalar fields a sample may carry, and where they go (sink.h) */
static const struct {
	uint64_t	bit;
	enum p2d_val	val;
} value_fields[] = {
	{ PERF_SAMPLE_IP,		P2D_VAL_IP },
	{ PERF_SAMPLE_ADDR,		P2D_VAL_ADDR },
	{ PERF_SAMPLE_PERIOD,		P2D_VAL_PERIOD },
	{ PERF_SAMPLE_PHYS_ADDR,	P2D_VAL_PHYS_ADDR },
	{ PERF_SAMPLE_WEIGHT_TYPE,	P2D_VAL_WEIGHT },
	{ PERF_SAMPLE_DATA_SRC,		P2D_VAL_DATA_SRC },
	{ PERF_SAMPLE_TRANSACTION,	P2D_VAL_TRANSACTION },
	{ PERF_SAMPLE_STREAM_ID,	P2D_VAL_STREAM_ID },
	{ PERF_SAMPLE_CGROUP,		P2D_VAL_CGROUP },
	{ PERF_SAMPLE_DATA_PAGE_SIZE,	P2D_VAL_DATA_PAGE_SIZE },
	{ PERF_SAMPLE_CODE_PAGE_SIZE,	P2D_VAL_CODE_PAGE_SIZE },
};

/* Branch stack flags of attr.branch_sample_type (linux/perf_event.h) */
#define BRANCH_HW_INDEX		(1ull << 17)
#define BRANCH_COUNTERS		(1ull << 19)	/* Linux 6.8 */

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
	case PERF_SAMPLE_BRANCH_STACK:
	case PERF_SAMPLE_REGS_USER:
	case PERF_SAMPLE_STACK_USER:
	case PERF_SAMPLE_REGS_INTR:
	case PERF_SAMPLE_AUX:
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
 * size and where TID, TIME and CPU sit in it, and the scalars (&enum
 * p2d_val) the samples carry.
 */
void p2d_rd_layout(struct p2d_attr *a)
{
	uint64_t st = a->sample_type, rf = a->read_format;
	unsigned int i;

	a->vals = 0;
	for (i = 0; i < NR(value_fields); i++)
		a->vals |= st & value_fields[i].bit ? 1u << value_fields[i].val : 0;
	/* a fixed period is not sampled: every sample has it (as perf script shows) */
	if (a->period)
		a->vals |= 1u << P2D_VAL_PERIOD;

	a->trailer = a->sample_id_all ? p2d_rd_trailer_size(st) : 0;
	a->in_sample.tid = sample_offset(st, rf, PERF_SAMPLE_TID);
	a->in_sample.time = sample_offset(st, rf, PERF_SAMPLE_TIME);
	a->in_sample.cpu = sample_offset(st, rf, PERF_SAMPLE_CPU);
	a->off_raw = sample_offset(st, rf, PERF_SAMPLE_RAW);
	a->fixed = a->off_raw >= 0;
	a->tp_fast = a->type == PERF_TYPE_TRACEPOINT && a->fixed && a->in_sample.tid >= 0 &&
		     a->in_sample.time >= 0 && a->in_sample.cpu >= 0;
	a->fast_size = a->tp_fast ? 8 + (uint32_t)a->off_raw + 4 : UINT32_MAX;
	a->in_trailer.tid = trailer_offset(st, PERF_SAMPLE_TID);
	a->in_trailer.time = trailer_offset(st, PERF_SAMPLE_TIME);
	a->in_trailer.cpu = trailer_offset(st, PERF_SAMPLE_CPU);
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

/* { u64 abi; u64 regs[weight(mask)]; }: no registers when abi is 0 */
static int skip_regs(struct p2d_cursor *c, uint64_t mask)
{
	uint64_t abi;

	if (p2d_cur_u64(c, &abi))
		return -EBADMSG;
	return abi ? p2d_cur_skip(c, 8 * (uint64_t)__builtin_popcountll(mask)) : 0;
}

/* The user registers, for the unwinder: kept where they are */
static int read_regs(struct p2d_cursor *c, uint64_t mask, struct p2d_rd_sample *s)
{
	uint64_t abi;

	if (p2d_cur_u64(c, &abi))
		return -EBADMSG;
	if (!abi)
		return 0;
	s->ev.regs_abi = abi;
	s->ev.regs_mask = mask;
	return p2d_cur_bytes(c, 8 * (uint64_t)__builtin_popcountll(mask), &s->ev.regs);
}

/* { u64 size; char data[size]; u64 dyn_size; }: dyn_size bytes of data are valid */
static int read_ustack(struct p2d_cursor *c, struct p2d_rd_sample *s)
{
	const uint8_t *data;
	uint64_t size, dyn;

	if (p2d_cur_u64(c, &size) || p2d_cur_bytes(c, size, &data))
		return -EBADMSG;
	if (!size)
		return 0;
	if (p2d_cur_u64(c, &dyn))
		return -EBADMSG;
	s->ev.ustack = data;
	s->ev.ustack_size = dyn < size ? dyn : size;
	return 0;
}

/* { u64 nr; [u64 hw_idx;] { u64 from, to, flags; } lbr[nr]; [u64 counters[nr];] } */
static int skip_branches(struct p2d_cursor *c, uint64_t bst)
{
	uint64_t nr, each = 24 + (bst & BRANCH_COUNTERS ? 8 : 0);

	if (p2d_cur_u64(c, &nr) || ((bst & BRANCH_HW_INDEX) && p2d_cur_skip(c, 8)) ||
	    nr > p2d_cur_left(c) / each)
		return -EBADMSG;
	return p2d_cur_skip(c, nr * each);
}

/* AUX: { u64 size; char data[size]; } */
static int skip_sized(struct p2d_cursor *c)
{
	uint64_t size;

	return p2d_cur_u64(c, &size) || p2d_cur_skip(c, size) ? -EBADMSG : 0;
}

/* A scalar field into its &enum p2d_val slot */
static int read_value(struct p2d_cursor *c, uint64_t bit, struct p2d_rd_sample *s)
{
	unsigned int i;
	uint64_t v;

	if (p2d_cur_u64(c, &v))
		return -EBADMSG;
	for (i = 0; i < NR(value_fields); i++) {
		if (value_fields[i].bit == bit) {
			/* WEIGHT_STRUCT: var1_dw is the low half in either byte order */
			s->ev.val[value_fields[i].val] = bit == PERF_SAMPLE_WEIGHT_TYPE &&
				!(s->sample_type & PERF_SAMPLE_WEIGHT) ? (uint32_t)v : v;
			break;
		}
	}
	return 0;
}

/* One field of a sample or trailer at @c into @s */
static int read_field(struct p2d_cursor *c, uint64_t bit, const struct p2d_attr *a,
		      struct p2d_rd_sample *s)
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
		s->read = c->buf + c->pos;
		return skip_read(c, a->read_format);
	case PERF_SAMPLE_CALLCHAIN:
		if (p2d_cur_u64(c, &nr) || nr > p2d_cur_left(c) / 8 || nr > UINT32_MAX)
			return -EBADMSG;
		s->ev.nr_chain = (uint32_t)nr;
		s->ev.chain = c->buf + c->pos;	/* even when empty: the sample has one */
		return p2d_cur_skip(c, nr * 8);
	case PERF_SAMPLE_RAW:
		return p2d_cur_u32(c, &s->ev.len) || p2d_cur_bytes(c, s->ev.len, &s->ev.raw) ?
		       -EBADMSG : 0;
	case PERF_SAMPLE_BRANCH_STACK:
		return skip_branches(c, a->branch_sample_type);
	case PERF_SAMPLE_REGS_USER:
		return read_regs(c, a->regs_user, s);
	case PERF_SAMPLE_REGS_INTR:
		return skip_regs(c, a->regs_intr);
	case PERF_SAMPLE_STACK_USER:
		return read_ustack(c, s);
	case PERF_SAMPLE_AUX:
		return skip_sized(c);
	case PERF_SAMPLE_IDENTIFIER:
	case PERF_SAMPLE_ID:
		return p2d_cur_skip(c, 8);
	default:
		return read_value(c, bit, s);
	}
}

/**
 * p2d_rd_parse_sample - decode a sample, field by field
 * @a: its attr
 * @c: cursor after the record header
 * @s: result (zeroed by the caller)
 *
 * Returns 0 or -EBADMSG.
 */
int p2d_rd_parse_sample(const struct p2d_attr *a, struct p2d_cursor *c, struct p2d_rd_sample *s)
{
	unsigned int i;

	s->sample_type = a->sample_type;
	s->ev.swap = c->swap;
	for (i = 0; i < NR(sample_fields); i++) {
		if ((a->sample_type & sample_fields[i]) && read_field(c, sample_fields[i], a, s))
			return -EBADMSG;
	}
	return 0;
}

/**
 * p2d_rd_parse_trailer - decode the sample_id trailer of a record
 * @a: the attr the record belongs to
 * @rec: cursor over the whole record
 * @s: result: its pid, tid, has_pid, ts, has_time, cpu and has_cpu
 *
 * Returns 0, or -ENOENT when the record has no trailer.
 */
int p2d_rd_parse_trailer(const struct p2d_attr *a, const struct p2d_cursor *rec,
			 struct p2d_rd_sample *s)
{
	s->ev.has_pid = s->has_time = s->has_cpu = false;
	s->ev.pid = s->ev.tid = s->ev.cpu = 0;
	s->ev.ts = 0;
	if (!a || !a->sample_id_all || a->trailer > rec->len - 8)
		return -ENOENT;
	p2d_rd_read_ids(rec->buf + rec->len - a->trailer, &a->in_trailer, rec->swap, s);
	return 0;
}
