/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf.data reader: definitions shared by its files.
 *
 * Written from the kernel ABI (linux/perf_event.h) and perf's published
 * file format (tools/perf/Documentation/perf.data-file-format.txt).
 */
#ifndef P2D_READ_PERF_LOCAL_H
#define P2D_READ_PERF_LOCAL_H

#include <linux/perf_event.h>

#include "cursor.h"
#include "read-perf.h"

/* "PERFILE2" read as a little-endian u64, and the same bytes swapped */
#define PERF_MAGIC2		0x32454c4946524550ULL
#define PERF_MAGIC2_SW		0x50455246494c4532ULL

#define PERF_FILE_HEADER_SIZE	104	/* struct perf_file_header */
#define PERF_FILE_HEADER_OLD	72	/* the same without adds_features */
#define PERF_PIPE_HEADER_SIZE	16	/* struct perf_pipe_file_header */
#define PERF_ATTR_SIZE_VER0_	64

/* Record types perf itself adds to the kernel's (tools/lib/perf/include/perf/event.h) */
enum p2d_rd_record {
	P2D_REC_HEADER_ATTR		= 64,
	P2D_REC_HEADER_EVENT_TYPE	= 65,
	P2D_REC_HEADER_TRACING_DATA	= 66,
	P2D_REC_HEADER_BUILD_ID		= 67,
	P2D_REC_FINISHED_ROUND		= 68,
	P2D_REC_ID_INDEX		= 69,
	P2D_REC_AUXTRACE_INFO		= 70,
	P2D_REC_AUXTRACE		= 71,
	P2D_REC_AUXTRACE_ERROR		= 72,
	P2D_REC_THREAD_MAP		= 73,
	P2D_REC_CPU_MAP			= 74,
	P2D_REC_STAT_CONFIG		= 75,
	P2D_REC_STAT			= 76,
	P2D_REC_STAT_ROUND		= 77,
	P2D_REC_EVENT_UPDATE		= 78,
	P2D_REC_TIME_CONV		= 79,
	P2D_REC_HEADER_FEATURE		= 80,
	P2D_REC_COMPRESSED		= 81,
	P2D_REC_FINISHED_INIT		= 82,
	P2D_REC_COMPRESSED2		= 83,
	P2D_REC_MAX
};

/* Kernel record types are below this; all but SAMPLE and the losses are side-band */
#define P2D_REC_SIDEBAND_END	P2D_REC_HEADER_ATTR

/* Feature bits of the file header (tools/perf/util/header.h) */
enum p2d_rd_feature {
	P2D_FEAT_TRACING_DATA	= 1,
	P2D_FEAT_BUILD_ID	= 2,
	P2D_FEAT_HOSTNAME	= 3,
	P2D_FEAT_OSRELEASE	= 4,
	P2D_FEAT_VERSION	= 5,
	P2D_FEAT_ARCH		= 6,
	P2D_FEAT_NRCPUS		= 7,
	P2D_FEAT_CPUDESC	= 8,
	P2D_FEAT_CPUID		= 9,
	P2D_FEAT_TOTAL_MEM	= 10,
	P2D_FEAT_CMDLINE	= 11,
	P2D_FEAT_EVENT_DESC	= 12,
	P2D_FEAT_SAMPLE_TIME	= 21,
	P2D_FEAT_CLOCKID	= 23,
	P2D_FEAT_DIR_FORMAT	= 24,
	P2D_FEAT_COMPRESSED	= 27,
	P2D_FEAT_CLOCK_DATA	= 29,
	P2D_FEAT_BITS		= 256
};

/* header.misc of a LOST_SAMPLES record: samples a BPF filter dropped */
#define P2D_MISC_LOST_SAMPLES_BPF	(1u << 15)

/* perf_event_attr flag bits we use (bit numbers in the flags word) */
#define ATTR_FLAG_FREQ		10
#define ATTR_FLAG_SAMPLE_ID_ALL	18
#define ATTR_FLAG_USE_CLOCKID	25

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
 * @vals: the &enum p2d_val its samples carry (bitmask)
 * @announced: told to the sink as a &p2d_source
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
	bool		use_clockid;
	int32_t		clockid;
	uint32_t	trailer;
	char		*name;
	uint64_t	samples;
	bool		fixed;
	struct p2d_id_offsets in_sample;
	int		off_raw;
	struct p2d_id_offsets in_trailer;
	uint32_t	vals;
	bool		announced;
};

struct p2d_unzstd;

/* A sample id looked up recently, and its attr */
struct id_cached {
	uint64_t		id;
	struct p2d_attr	*attr;
};

struct id_slot {
	uint64_t	id;
	uint32_t	attr;	/* index + 1; 0 means empty */
	int32_t		cpu;	/* from ID_INDEX, -1 when unknown */
};

/* Events lost on one CPU, as the two kinds of records report them */
struct lost_cpu {
	uint64_t	records;	/* PERF_RECORD_LOST, of this CPU's ring buffer */
	uint64_t	samples;	/* PERF_RECORD_LOST_SAMPLES of this CPU's events */
};

/**
 * struct p2d_reader - state of one perf.data read
 * @sink: where what is read goes
 * @d: diagnostics
 * @stats: what is counted, not delivered
 * @meta: the recording's metadata, as far as read (given to @sink)
 * @tracing_seen: the tracing data was given to @sink
 * @in: the input
 * @swap: the file is in the other byte order
 * @pipe: pipe-mode stream (everything arrives as records)
 * @data_off: start of the data section
 * @data_end: end of the data section, or UINT64_MAX to read to end of input
 * @feat: adds_features bitmap
 * @attrs: the events
 * @nr_attrs: count of @attrs
 * @ids: sample id -> attr map (open addressing)
 * @ids_cap: slots in @ids (power of two)
 * @nr_ids: used slots
 * @id_pos: byte offset of the event id in a sample, -1 if none
 * @is_pos: byte offset from the end of the id in a sample_id trailer, -1
 * @extra: bytes following the current record that belong to it
 * @tracing_follows: those bytes are tracing data
 * @records: records seen
 * @last_progress: input offset of the last progress report
 * @id_cache: recently looked-up sample ids, by their low bits
 *	(events of several CPUs interleave, each CPU with its own ids)
 * @zstd: the zstd stream of compressed records, NULL until the first
 * @unzstd_active: the data of the last compressed record may give more
 *	records: the record loop takes them before the input's next
 * @unzstd_off: input offset of that compressed record
 * @lost: events lost per CPU, by the two kinds of records
 * @nr_lost: size of @lost
 * @warned_id: warned about a sample with an unknown id
 * @warned_bad: warned about a malformed sample
 * @warned_cpu: warned about samples without CPU
 * @warned_lost: warned about a lost record that cannot be placed
 * @warned_c2: warned about an overflowed COMPRESSED2 size
 * @warned_time: warned about samples without a time
 * @compressed: the records came (partly) compressed
 * @rec_count: records read, by type (those inside compressed ones included)
 * @rec_unknown: records of types beyond @rec_count
 * @announced: @attrs told to the sink (p2d_source) so far, at the last sample
 * @switch_output: one piece of a perf record --switch-output run (its cmdline)
 */
struct p2d_reader {
	const struct p2d_sink	*sink;
	struct p2d_diag		*d;
	struct p2d_read_stats	*stats;
	struct p2d_meta		meta;
	bool			tracing_seen;
	bool			switch_output;
	struct p2d_input	*in;
	bool			swap;
	bool			pipe;
	uint64_t		data_off;
	uint64_t		data_end;
	uint64_t		feat[P2D_FEAT_BITS / 64];
	struct p2d_attr		*attrs;
	uint32_t		nr_attrs;
	struct id_slot		*ids;
	uint32_t		ids_cap;
	uint32_t		nr_ids;
	int			id_pos;
	int			is_pos;
	uint64_t		extra;
	bool			tracing_follows;
	uint64_t		records;
	uint64_t		last_progress;
	struct id_cached	id_cache[16];
	struct p2d_unzstd	*zstd;
	bool			unzstd_active;
	uint64_t		unzstd_off;
	struct lost_cpu		*lost;
	uint32_t		nr_lost;
	bool			warned_id;
	bool			warned_bad;
	bool			warned_cpu;
	bool			warned_lost;
	bool			warned_c2;
	bool			warned_time;
	bool			compressed;
	uint64_t		rec_count[P2D_REC_MAX];
	uint64_t		rec_unknown;
	uint32_t		announced;
};

/**
 * struct p2d_rd_sample - a PERF_RECORD_SAMPLE, or the sample_id trailer of
 * another record: decoded straight into the event handed to the sink
 * @ev: the event
 * @has_time: the sample has a timestamp
 * @has_cpu: the sample has a CPU
 * @sample_type: of its attr
 */
struct p2d_rd_sample {
	struct p2d_event	ev;
	bool			has_time;
	bool			has_cpu;
	uint64_t		sample_type;
};

/* Hand the tracing data (malloc()ed, given away) to the sink */
static inline int p2d_rd_tracing(struct p2d_reader *r, uint8_t *blob, size_t len, uint64_t off)
{
	r->tracing_seen = true;
	return r->sink->ops->tracing(r->sink->ctx, blob, len, off);
}

/* Tell the sink what the metadata is now */
static inline int p2d_rd_meta(struct p2d_reader *r)
{
	return r->sink->ops->meta(r->sink->ctx, &r->meta);
}

/* read-perf-header.c */
int p2d_rd_read_file_header(struct p2d_reader *r) __hidden;
int p2d_rd_parse_attr(struct p2d_reader *r, struct p2d_cursor *c, uint32_t size,
		    struct p2d_attr *a) __hidden;
int p2d_rd_add_attr(struct p2d_reader *r, const struct p2d_attr *a, struct p2d_cursor *ids,
		  uint64_t nr_ids) __hidden;
int p2d_rd_feature(struct p2d_reader *r, unsigned int feat, struct p2d_cursor *c) __hidden;
void p2d_rd_reader_release(struct p2d_reader *r) __hidden;
struct p2d_attr *p2d_rd_attr_by_id(const struct p2d_reader *r, uint64_t id) __hidden;
struct id_slot *p2d_rd_id_slot(const struct p2d_reader *r, uint64_t id) __hidden;

/* read-perf-records.c: the record handlers */
int p2d_rd_dispatch(struct p2d_reader *r, struct p2d_cursor *c, uint32_t type,
		    uint16_t misc) __hidden;
int p2d_rd_lost_excess(struct p2d_reader *r) __hidden;
int p2d_rd_build_id(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc) __hidden;
bool p2d_rd_record_handled(unsigned int type) __hidden;

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

/* read-perf-report.c */
void p2d_rd_report_read(const struct p2d_reader *r) __hidden;

/* read-perf-stream.c: the record stream */
int p2d_rd_read_records(struct p2d_reader *r) __hidden;
int p2d_rd_decompress(struct p2d_reader *r, const uint8_t *data, size_t len, uint64_t off) __hidden;

#endif /* P2D_READ_PERF_LOCAL_H */
