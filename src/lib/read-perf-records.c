// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf.data records: the data section of a file, or the whole of a pipe
 * stream. Each record starts with struct perf_event_header { u32 type;
 * u16 misc; u16 size; } and is dispatched through a table of handlers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "read-perf-local.h"


/*
 * The attr of the sample_id trailer of a non-sample record
 * (attr.sample_id_all). perf makes every attr of a recording lay the trailer
 * out alike: one whose id is unknown (perf's synthesized records carry
 * zeros) is read with the first attr's layout.
 */
static const struct p2d_attr *trailer_attr(const struct p2d_reader *r,
					    const struct p2d_cursor *c)
{
	const struct p2d_attr *a;

	if (r->nr_attrs == 1 || r->is_pos < 0)
		return r->nr_attrs ? &r->attrs[0] : NULL;
	if (c->len < 8 + (size_t)r->is_pos)
		return NULL;
	a = p2d_rd_attr_by_id(r, p2d_get64(c->buf + c->len - r->is_pos, c->swap));
	return a ? a : &r->attrs[0];
}

/**
 * p2d_rd_trailer - the sample_id trailer of a non-sample record
 * @r: the reader
 * @rec: the record
 * @s: set to what the trailer holds
 *
 * Returns 0, or a negative errno when it cannot be read.
 */
int p2d_rd_trailer(const struct p2d_reader *r, const struct p2d_cursor *rec,
		   struct p2d_rd_sample *s)
{
	return p2d_rd_parse_trailer(trailer_attr(r, rec), rec, s);
}

/* ------------------------------------------------------------------------ */
/* Record handlers                                                          */

/* The attr of the sample record at @h (@size bytes) by its id, which ends at @id_end */
static inline __attribute__((always_inline)) struct p2d_attr *
attr_by_id(struct p2d_reader *r, const uint8_t *h, size_t size, size_t id_end, const bool swap)
{
	struct id_cached *slot;
	uint64_t id;

	if (size < id_end)
		return NULL;
	id = p2d_get64(h + id_end - 8, swap);
	slot = &r->id_cache[id % 16];
	if (slot->attr && slot->id == id)
		return slot->attr;
	slot->id = id;
	slot->attr = p2d_rd_attr_by_id(r, id);
	return slot->attr;
}

/* The attr of the sample record at @p (@len bytes) */
static inline struct p2d_attr *sample_attr_at(struct p2d_reader *r, const uint8_t *p, size_t len,
					      bool swap)
{
	if (r->nr_attrs == 1 || r->id_pos < 0)
		return r->nr_attrs ? &r->attrs[0] : NULL;
	return attr_by_id(r, p, len, 8 + (size_t)r->id_pos + 8, swap);
}

static struct p2d_attr *sample_attr(struct p2d_reader *r, const struct p2d_cursor *c)
{
	return sample_attr_at(r, c->buf, c->len, c->swap);
}

static int bad_sample(struct p2d_reader *r, const struct p2d_cursor *c)
{
	r->stats->dropped++;
	p2d_warn_once(r->d, P2D_ONCE_BAD_SAMPLE, c->base,
		      "malformed sample (or a tracepoint's without RAW data) skipped");
	return 0;
}

/*
 * A sample of perf record --off-cpu's event: decoded as perf decodes it;
 * one of the end-of-run batch (no time) goes to the sink's offcpu_batch
 */
static int offcpu_sample(struct p2d_reader *r, struct p2d_cursor *c, struct p2d_rd_sample *s)
{
	bool batch;

	s->ev.swap = c->swap;
	s->ev.off = c->base;
	if (p2d_rd_offcpu(s, &batch))
		return bad_sample(r, c);
	if (!batch)
		return 1;
	if (!r->sink->ops->offcpu_batch) {
		r->stats->other_samples++;
		return 0;
	}
	return r->sink->ops->offcpu_batch(r->sink->ctx, &s->ev);
}

/* @a's sample at @c into @s: false when it is malformed */
static bool parse_one(struct p2d_attr *a, struct p2d_cursor *c, struct p2d_rd_sample *s)
{
	if (a->type == PERF_TYPE_TRACEPOINT && a->fixed) {
		/* the common case, kept short: val[] is not read for a tracepoint */
		s->ev.has_pid = s->has_time = s->has_cpu = false;
		s->ev.cpu = 0;
		s->ev.chain = NULL;
		s->ev.nr_chain = 0;
		s->ev.regs_abi = 0;
		s->ev.ustack = NULL;
		s->read = NULL;		/* a tracepoint's own count: every sample moves it */
		return !p2d_rd_parse_fixed(a, c, s);
	}
	memset(s, 0, sizeof(*s));
	s->ev.val[P2D_VAL_PERIOD] = a->period;
	if (p2d_rd_parse_sample(a, c, s))
		return false;
	return a->type != PERF_TYPE_TRACEPOINT || s->ev.raw;
}

static int rec_sample(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_attr *a = sample_attr(r, c);
	bool offcpu = false;
	struct p2d_rd_sample s;
	int ret;

	if (!a) {
		r->stats->dropped++;
		p2d_warn_once(r->d, P2D_ONCE_UNKNOWN_ID, c->base,
			      "sample with an unknown event id skipped");
		return 0;
	}
	a->samples++;
	if (r->announced != r->nr_attrs) {
		ret = p2d_rd_announce(r);
		if (ret)
			return ret;
	}
	p2d_cur_skip(c, 8);
	if (!parse_one(a, c, &s))
		return bad_sample(r, c);
	if (a->type == PERF_TYPE_TRACEPOINT) {
		s.ev.source = P2D_TRACEPOINT;
	} else {
		s.ev.source = (uint32_t)(a - r->attrs);
		offcpu = p2d_rd_is_offcpu(a);
		if (offcpu && (ret = offcpu_sample(r, c, &s)) <= 0)
			return ret;
		s.ev.raw = NULL;
		s.ev.len = 0;
	}
	if (!s.has_time && a->type == PERF_TYPE_TRACEPOINT)
		return p2d_error(r->d, c->base, -ENOTSUP,
				 "tracepoint samples without timestamps (PERF_SAMPLE_TIME)");
	if (!s.has_time) {
		r->stats->other_samples++;
		r->stats->untimed++;
		p2d_warn_once(r->d, P2D_ONCE_NO_TIME, c->base, "samples without timestamps"
			      " (PERF_SAMPLE_TIME) cannot be placed: not converted");
		return 0;
	}
	if (!s.has_cpu) {
		r->stats->no_cpu++;
		p2d_warn_once(r->d, P2D_ONCE_NO_CPU, c->base,
			      "samples carry no CPU (PERF_SAMPLE_CPU): all on CPU 0");
	}
	s.ev.swap = c->swap;
	s.ev.off = c->base;
	s.ev.kernel_ip = !offcpu &&
			 (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	/* leader sampling: a sample for each counter read, as perf shows them */
	if (s.read && (a->read_format & PERF_FORMAT_ID))
		return p2d_rd_read_samples(r, a, &s);
	return p2d_sink_sample(r->sink, &s.ev);
}

/* @n batched tracepoint samples (and ends of rounds) to the sink, in their order */
static int deliver(struct p2d_reader *r, uint32_t n)
{
	return r->sink->ops->samples(r->sink->ctx, r->batch, n, r->swap);
}

/*
 * A FINISHED_ROUND among the samples, as p2d_rd_dispatch() counts it: in
 * the batch, after the samples before it (&p2d_sample_entry)
 */
static void round_between(struct p2d_reader *r, struct p2d_sample_entry *t, uint64_t off)
{
	r->records++;
	r->rec_count[P2D_REC_FINISHED_ROUND]++;
	memset(t, 0, sizeof(*t));
	t->cpu = UINT32_MAX;
	t->off = off;
}

/* p2d_rd_fast_samples() for a byte order (@swap) and a @packed, both constants */
static inline __attribute__((always_inline)) int fast_samples(struct p2d_reader *r,
							       const uint8_t *p, size_t len,
							       uint64_t pos, bool packed,
							       size_t *used, const bool swap)
{
	/* sample_attr_at(), with what is the same for every record in locals */
	const bool by_id = r->nr_attrs > 1 && r->id_pos >= 0;
	struct p2d_attr *only = r->nr_attrs ? r->attrs : NULL;
	const size_t id_end = 8 + (size_t)r->id_pos + 8;
	size_t done = 0, run = 0;
	uint32_t n = 0, size, raw, type;
	int ret = 0;

	*used = 0;
	if (r->announced != r->nr_attrs)
		return 0;	/* rec_sample() tells the sink of the other events first */
	while (len - done >= 8) {
		const uint8_t *h = p + done, *body = h + 8;
		struct p2d_sample_entry *t;
		struct p2d_attr *a;

		size = p2d_get16(h + 6, swap);
		type = p2d_get32(h, swap);
		if (__builtin_expect(type != PERF_RECORD_SAMPLE || size < 8 || size > len - done, 0)) {
			if (type != P2D_REC_FINISHED_ROUND || size != 8)
				break;
			round_between(r, &r->batch[n], packed ? pos : pos + done);
			done += size;
			if (++n == P2D_RD_BATCH) {
				ret = deliver(r, n);
				n = 0;
				if (ret)
					break;
			}
			continue;
		}
		a = by_id ? attr_by_id(r, h, size, id_end, swap) : only;
		if (!a || size < a->fast_size)	/* (UINT32_MAX: not @tp_fast) */
			break;
		raw = p2d_get32(body + a->off_raw, swap);
		if (raw > size - a->fast_size)
			break;
		t = &r->batch[n];
		t->ts = p2d_get64(body + a->in_sample.time, swap);
		t->cpu = p2d_get32(body + a->in_sample.cpu, swap);
		t->ids = body + a->in_sample.tid;
		t->raw = body + a->off_raw + 4;
		t->len = raw;
		t->off = packed ? pos : pos + done;
		a->samples++;
		done += size;
		run++;
		if (++n == P2D_RD_BATCH) {
			ret = deliver(r, n);
			n = 0;
			if (ret)
				break;
		}
	}
	if (n && !ret)
		ret = deliver(r, n);
	r->records += run;
	r->rec_count[PERF_RECORD_SAMPLE] += run;
	*used = done;
	return ret;
}

/**
 * p2d_rd_fast_samples - the tracepoint samples that come next, in a row
 * @r: reader
 * @p: the next records: the complete ones in @len bytes are looked at
 * @len: bytes at @p (none past the end of the data section)
 * @pos: input offset of @p; with @packed, of the compressed record they
 *	came out of
 * @packed: @p is decompressed data
 * @used: set to the bytes of the records handled
 *
 * The common record, a sample of a tracepoint whose fields sit at fixed
 * offsets (&p2d_attr fixed) and that has a time and a CPU, read without the
 * record loop's general path and handed to the sink in batches: the same
 * events, in the same order, as rec_sample() gives. The FINISHED_ROUND
 * records between them (a few events apart in some recordings) go to the
 * sink here too, in the batches (&p2d_sample_entry), which the sink's
 * samples callback takes as rec_round() would give them: the callback
 * every sample goes to, a decoded one of rec_sample() in a batch of its
 * own. It stops at the first record that is anything else (or is cut, or
 * malformed), which the record loop then reads as before.
 *
 * Returns 0 or the sink's error.
 */
int p2d_rd_fast_samples(struct p2d_reader *r, const uint8_t *p, size_t len, uint64_t pos,
			bool packed, size_t *used)
{
	/* a loop for each byte order and kind of data: they need no test in it */
	if (packed)
		return r->swap ? fast_samples(r, p, len, pos, true, used, true) :
				 fast_samples(r, p, len, pos, true, used, false);
	return r->swap ? fast_samples(r, p, len, pos, false, used, true) :
			 fast_samples(r, p, len, pos, false, used, false);
}

/**
 * p2d_rd_sideband - a side-band record to the sink
 * @r: the reader
 * @c: the record
 * @rec: what it says, decoded
 *
 * Its CPU, time and task come from its sample_id trailer; what it says of
 * a task's name or of a mapping takes effect at that time.
 *
 * Returns the sink's 0 or negative errno.
 */
int p2d_rd_sideband(struct p2d_reader *r, const struct p2d_cursor *c, struct p2d_record *rec)
{
	struct p2d_rd_sample s;

	p2d_rd_trailer(r, c, &s);
	rec->has_cpu = s.has_cpu;
	rec->cpu = s.ev.cpu;
	rec->has_time = s.has_time;
	rec->ts = s.ev.ts;
	rec->has_pid = s.ev.has_pid;
	rec->pid = s.ev.pid;
	rec->tid = s.ev.tid;
	rec->off = c->base;
	if (rec->map && !rec->kernel)
		rec->unused = !p2d_rd_need_maps(r);
	return r->sink->ops->sideband(r->sink->ctx, rec);
}

/* { header; u32 pid, tid; char comm[]; sample_id }: the name is NUL-padded */
static int rec_comm(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	const struct p2d_attr *a = trailer_attr(r, c);
	struct p2d_record ev = { .kind = P2D_RECORD_COMM };
	char comm[16] = "";
	size_t i, end = c->len;
	uint32_t pid, tid;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &pid) || p2d_cur_u32(c, &tid))
		return 0;
	if (a && a->sample_id_all && a->trailer <= p2d_cur_left(c))
		end = c->len - a->trailer;
	for (i = 0; i < sizeof(comm) - 1 && c->pos + i < end && c->buf[c->pos + i]; i++)
		comm[i] = (char)c->buf[c->pos + i];
	ev.v[0] = pid;
	ev.v[1] = tid;
	ev.v[2] = !!(misc & PERF_RECORD_MISC_COMM_EXEC);
	ev.str = comm;
	return p2d_rd_sideband(r, c, &ev);
}

/* { header; u32 pid, ppid, tid, ptid; u64 time; sample_id } for FORK and EXIT */
static int task_record(struct p2d_reader *r, struct p2d_cursor *c, uint32_t kind)
{
	struct p2d_record ev = { .kind = kind };
	uint32_t pid, ppid, tid, ptid;
	uint64_t time = 0;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &pid) || p2d_cur_u32(c, &ppid) || p2d_cur_u32(c, &tid) ||
	    p2d_cur_u32(c, &ptid))
		return 0;
	p2d_cur_u64(c, &time);
	ev.v[0] = pid;
	ev.v[1] = ppid;
	ev.v[2] = tid;
	ev.v[3] = ptid;
	ev.v[4] = time;
	return p2d_rd_sideband(r, c, &ev);
}

static int rec_fork(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return task_record(r, c, P2D_RECORD_FORK);
}

static int rec_exit(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return task_record(r, c, P2D_RECORD_EXIT);
}

/*
 * A mapping: the file name starts at @name_off and is NUL-padded; the
 * sample_id trailer follows it. An executable one, or the kernel's (@map),
 * is kept by the conversion with its time.
 */
static int mapping(struct p2d_reader *r, struct p2d_cursor *c, size_t name_off,
		   struct p2d_record *ev, bool map)
{
	const struct p2d_attr *a = trailer_attr(r, c);
	size_t end = c->len;

	if (a && a->sample_id_all && a->trailer + name_off <= c->len)
		end = c->len - a->trailer;
	/* the name must end inside the record: no string is read past it */
	if (name_off >= end || !memchr(c->buf + name_off, '\0', end - name_off))
		return 0;
	ev->str = (const char *)c->buf + name_off;
	ev->map = map;
	return p2d_rd_sideband(r, c, ev);
}

/* The start of both: { header; u32 pid, tid; u64 addr, len, pgoff; } */
static int mmap_head(struct p2d_cursor *c, struct p2d_record *ev)
{
	uint32_t pid, tid;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &pid) || p2d_cur_u32(c, &tid) || p2d_cur_u64(c, &ev->v[2]) ||
	    p2d_cur_u64(c, &ev->v[3]) || p2d_cur_u64(c, &ev->v[4]))
		return -EBADMSG;
	ev->v[0] = pid;
	ev->v[1] = tid;
	return 0;
}

static bool kernel_mode(uint16_t misc)
{
	return (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
}

/* { header; u32 pid, tid; u64 addr, len, pgoff; char filename[]; sample_id } */
static int rec_mmap(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_record ev = { .kind = P2D_RECORD_MMAP, .kernel = kernel_mode(misc) };

	if (mmap_head(c, &ev))
		return 0;
	/* no protection in the record: executable unless it says data */
	ev.v[5] = misc & PERF_RECORD_MISC_MMAP_DATA ? 1 : 5;
	return mapping(r, c, 40, &ev, !(misc & PERF_RECORD_MISC_MMAP_DATA));
}

/*
 * { header; u32 pid, tid; u64 addr, len, pgoff; 24 bytes of device or
 * build id; u32 prot, flags; char filename[]; sample_id }. With
 * PERF_RECORD_MISC_MMAP_BUILD_ID the 24 bytes are { u8 size; u8, u16
 * reserved; u8 build_id[20]; }, else { u32 maj, min; u64 ino, ino_generation; }.
 */
static int rec_mmap2(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_record ev = { .kind = P2D_RECORD_MMAP, .kernel = kernel_mode(misc) };
	const uint8_t *id;
	uint32_t prot, flags;

	if (mmap_head(c, &ev) || p2d_cur_bytes(c, 24, &id) || p2d_cur_u32(c, &prot) ||
	    p2d_cur_u32(c, &flags))
		return 0;
	if ((misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && id[0] && id[0] <= P2D_BUILD_ID_MAX) {
		ev.build_id_size = id[0];
		memcpy(ev.build_id, id + 4, id[0]);
	}
	ev.v[5] = prot;
	ev.v[6] = flags;
	/* perf >= 6.16 writes the kernel's and modules' maps as MMAP2 with prot 0 */
	return mapping(r, c, 72, &ev, (prot & 4 /* PROT_EXEC */) || ev.kernel);
}

/* { header; [u32 next_prev_pid, next_prev_tid;] sample_id }, CPU_WIDE with the pids */
static int rec_switch(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_record ev = { .kind = P2D_RECORD_SWITCH };

	ev.v[0] = !!(misc & PERF_RECORD_MISC_SWITCH_OUT);
	ev.v[1] = !!(misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	return p2d_rd_sideband(r, c, &ev);
}

static int rec_switch_wide(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_record ev = { .kind = P2D_RECORD_SWITCH };
	uint32_t pid, tid;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &pid) || p2d_cur_u32(c, &tid))
		return 0;
	ev.v[0] = !!(misc & PERF_RECORD_MISC_SWITCH_OUT);
	ev.v[1] = !!(misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	ev.v[2] = pid;
	ev.v[3] = tid;
	return p2d_rd_sideband(r, c, &ev);
}

/* { header; u64 time, id, stream_id; sample_id } */
static int throttle(struct p2d_reader *r, struct p2d_cursor *c, uint32_t kind)
{
	struct p2d_record ev = { .kind = kind };

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &ev.v[0]) || p2d_cur_u64(c, &ev.v[1]) || p2d_cur_u64(c, &ev.v[2]))
		return 0;
	return p2d_rd_sideband(r, c, &ev);
}

static int rec_throttle(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return throttle(r, c, P2D_RECORD_THROTTLE);
}

static int rec_unthrottle(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return throttle(r, c, P2D_RECORD_UNTHROTTLE);
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
	r->late_attrs = !r->pipe;
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
	return p2d_rd_decompress(r, c->buf + 8, c->len - 8, c->base);
}

/* { header; u64 data_size; char data[data_size]; } padded to 8 bytes */
static int rec_compressed2(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	uint64_t size = 0;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &size) || size > p2d_cur_left(c))
		return p2d_error(r->d, c->base, -EBADMSG, "COMPRESSED2 data size %llu",
				 (unsigned long long)size);
	return p2d_rd_decompress(r, c->buf + 16, size, c->base);
}

/*
 * struct perf_record_header_build_id { header; s32 pid; u8 build_id[24];
 * char filename[]; }, a HEADER_BUILD_ID record of a pipe or an entry of the
 * BUILD_ID feature section. With PERF_RECORD_MISC_BUILD_ID_SIZE, byte 20
 * of build_id is its size; else it is 20 bytes.
 */
#define MISC_BUILD_ID_SIZE	(1u << 15)

/**
 * p2d_rd_build_id - one build id entry
 * @r: reader
 * @c: cursor over the whole entry, its header included
 * @misc: the header's misc bits
 *
 * An entry that makes no sense is skipped.
 *
 * Returns 0 or the sink's error.
 */
int p2d_rd_build_id(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_build_id bid = { 0 };
	const uint8_t *id;
	const char *file;
	uint32_t pid;

	if (!r->sink->ops->build_id)
		return 0;
	p2d_cur_skip(c, 8);
	if (p2d_cur_u32(c, &pid) || p2d_cur_bytes(c, 24, &id) || p2d_cur_cstr(c, &file))
		return 0;
	bid.size = misc & MISC_BUILD_ID_SIZE ? id[20] : 20;
	if (!bid.size || bid.size > P2D_BUILD_ID_MAX)
		return 0;
	memcpy(bid.id, id, bid.size);
	bid.kernel = (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	bid.file = file;
	return r->sink->ops->build_id(r->sink->ctx, &bid, c->base);
}

static int rec_build_id(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	return p2d_rd_build_id(r, c, misc);
}

/* { header; u64 addr; u32 len; u16 ksym_type, flags; char name[]; sample_id } */
static int rec_ksymbol(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_ksymbol k = { 0 };
	uint16_t flags;

	(void)misc;
	if (!r->sink->ops->ksymbol)
		return 0;
	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &k.addr) || p2d_cur_u32(c, &k.len) || p2d_cur_u16(c, &k.type) ||
	    p2d_cur_u16(c, &flags) || p2d_cur_cstr(c, &k.name))
		return 0;
	k.unregister = flags & 1;	/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
	return r->sink->ops->ksymbol(r->sink->ctx, &k, c->base);
}

typedef int (*record_fn)(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc);

static const record_fn record_handlers[P2D_REC_MAX] = {
	[PERF_RECORD_SAMPLE]		= rec_sample,
	[PERF_RECORD_MMAP]		= rec_mmap,
	[PERF_RECORD_MMAP2]		= rec_mmap2,
	[PERF_RECORD_SWITCH]		= rec_switch,
	[PERF_RECORD_SWITCH_CPU_WIDE]	= rec_switch_wide,
	[PERF_RECORD_THROTTLE]		= rec_throttle,
	[PERF_RECORD_UNTHROTTLE]	= rec_unthrottle,
	[PERF_RECORD_COMM]		= rec_comm,
	[PERF_RECORD_FORK]		= rec_fork,
	[PERF_RECORD_EXIT]		= rec_exit,
	[PERF_RECORD_LOST]		= p2d_rd_rec_lost,
	[PERF_RECORD_LOST_SAMPLES]	= p2d_rd_rec_lost_samples,
	[P2D_REC_FINISHED_ROUND]	= rec_round,
	[P2D_REC_ID_INDEX]		= rec_id_index,
	[P2D_REC_HEADER_ATTR]		= rec_header_attr,
	[P2D_REC_HEADER_TRACING_DATA]	= rec_tracing_data,
	[P2D_REC_HEADER_FEATURE]	= rec_feature,
	[P2D_REC_HEADER_BUILD_ID]	= rec_build_id,
	[PERF_RECORD_KSYMBOL]		= rec_ksymbol,
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

/**
 * p2d_rd_dispatch - hand one record to its handler
 * @r: reader
 * @c: cursor over the whole record
 * @type: record type
 * @misc: header misc bits
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_dispatch(struct p2d_reader *r, struct p2d_cursor *c, uint32_t type, uint16_t misc)
{
	r->records++;
	if (type >= P2D_REC_MAX) {
		r->rec_unknown++;
		return 0;
	}
	r->rec_count[type]++;
	if (type >= P2D_REC_STAT_CONFIG && type <= P2D_REC_STAT_ROUND)
		r->stats->stat_records++;
	if (type < P2D_REC_SIDEBAND_END && type != PERF_RECORD_SAMPLE && type != PERF_RECORD_LOST &&
	    type != PERF_RECORD_LOST_SAMPLES)
		r->stats->sideband++;
	return record_handlers[type] ? record_handlers[type](r, c, misc) : 0;
}
