/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The perf.data reader: its state and the functions its files share. The
 * file format's constants are in read-perf-format.h, the attributes and
 * the sample layout in read-perf-layout.h.
 *
 * Written from the kernel ABI (linux/perf_event.h) and perf's published
 * file format (tools/perf/Documentation/perf.data-file-format.txt).
 */
#ifndef P2D_READ_PERF_LOCAL_H
#define P2D_READ_PERF_LOCAL_H

#include "cursor.h"
#include "read-perf-format.h"
#include "read-perf-layout.h"
#include "read-perf.h"

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
	uint64_t	read_prev;	/* its counter's last value a sample read */
};

/* The last value a sample read of a sample id's counter in one thread */
struct thread_read {
	uint64_t	id;
	uint64_t	value;
	uint32_t	tid;
	bool		used;
};

/* Events lost on one CPU, as the two kinds of records report them */
struct lost_cpu {
	uint64_t	records;	/* PERF_RECORD_LOST, of this CPU's ring buffer */
	uint64_t	samples;	/* PERF_RECORD_LOST_SAMPLES of this CPU's events */
};

/*
 * A clock the recording gives, and how many of its sampling and other event
 * attributes (and CLOCK_DATA) give it (p2d_rd_clock_vote()): @clock (-1:
 * perf's own), @off of the first
 */
struct p2d_clock_vote {
	int32_t		clock;
	uint32_t	sampling;
	uint32_t	others;
	uint64_t	off;
};

#define P2D_RD_CLOCKS	8	/* clocks told apart */

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
 * @reads: the last value read of each (sample id, thread), for the samples
 *	of inherited counters that read them (read-perf-read.c)
 * @reads_cap: slots in @reads (power of two)
 * @nr_reads: used slots
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
 * @lost_unplaced: losses of LOST_SAMPLES records of no known CPU
 * @compressed: the records came (partly) compressed
 * @rec_count: records read, by type (those inside compressed ones included)
 * @rec_unknown: records of types beyond @rec_count
 * @announced: @attrs told to the sink (p2d_source) so far, at the last sample
 * @clocks: the clocks of @attrs, counted
 * @nr_clocks: entries of @clocks
 * @switch_output: one piece of a perf record --switch-output run (its cmdline)
 */
#define P2D_RD_BATCH	256	/* tracepoint samples handed to the sink at once */

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
	bool			late_attrs;	/* a file's data section described events */
	uint32_t		maps_attrs;	/* nr_attrs + 1 when need_maps was found */
	bool			need_maps;	/* p2d_rd_need_maps() then */
	uint64_t		data_off;
	uint64_t		data_end;
	uint64_t		feat[P2D_FEAT_BITS / 64];
	struct p2d_attr		*attrs;
	uint32_t		nr_attrs;
	struct id_slot		*ids;
	uint32_t		ids_cap;
	uint32_t		nr_ids;
	struct thread_read	*reads;
	uint32_t		reads_cap;
	uint32_t		nr_reads;
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
	uint64_t		lost_unplaced;
	bool			compressed;
	uint64_t		rec_count[P2D_REC_MAX];
	uint64_t		rec_unknown;
	uint32_t		announced;
	struct p2d_clock_vote	clocks[P2D_RD_CLOCKS];
	uint32_t		nr_clocks;
	struct p2d_sample_entry batch[P2D_RD_BATCH];
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
int p2d_rd_trailer(const struct p2d_reader *r, const struct p2d_cursor *rec,
		   struct p2d_rd_sample *s) __hidden;
int p2d_rd_sideband(struct p2d_reader *r, const struct p2d_cursor *c,
		    struct p2d_record *rec) __hidden;

/* read-perf-lost.c: losses */
int p2d_rd_rec_lost(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc) __hidden;
int p2d_rd_rec_lost_samples(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc) __hidden;
int p2d_rd_lost_excess(struct p2d_reader *r) __hidden;
int p2d_rd_read_samples(struct p2d_reader *r, const struct p2d_attr *a,
			struct p2d_rd_sample *s) __hidden;
int p2d_rd_build_id(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc) __hidden;
bool p2d_rd_record_handled(unsigned int type) __hidden;
int p2d_rd_fast_samples(struct p2d_reader *r, const uint8_t *p, size_t len, uint64_t pos,
			bool packed, size_t *used) __hidden;

/* read-perf-attrs.c */
int p2d_rd_announce(struct p2d_reader *r) __hidden;
bool p2d_rd_need_maps(struct p2d_reader *r) __hidden;
bool p2d_rd_is_offcpu(const struct p2d_attr *a) __hidden;
int p2d_rd_offcpu(struct p2d_rd_sample *s, bool *batch) __hidden;
void p2d_rd_clock_vote(struct p2d_reader *r, int32_t clock, bool sampling, uint64_t off) __hidden;
void p2d_rd_attr_clock(struct p2d_reader *r, const struct p2d_attr *a) __hidden;
int p2d_rd_attrs_finish(struct p2d_reader *r) __hidden;

/* read-perf-report.c */
void p2d_rd_report_read(const struct p2d_reader *r) __hidden;

/* read-perf-stream.c: the record stream */
int p2d_rd_read_records(struct p2d_reader *r) __hidden;
int p2d_rd_decompress(struct p2d_reader *r, const uint8_t *data, size_t len, uint64_t off) __hidden;

#endif /* P2D_READ_PERF_LOCAL_H */
