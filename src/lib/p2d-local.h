/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal interfaces of libperf2dat.
 *
 * The conversion is an import handler (a reader that understands one input
 * format) feeding a sink (reorder queue -> ring-buffer page builder -> per-CPU
 * page files), followed by the writer that hands pages and metadata to
 * libtracecmd.
 */
#ifndef P2D_LOCAL_H
#define P2D_LOCAL_H

#include <byteswap.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perf2dat.h"

#define __hidden __attribute__((visibility("hidden")))
#define P2D_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Limits on sizes read from the input, so a corrupt file cannot exhaust memory */
#define P2D_MAX_CPUS		8192
#define P2D_MAX_ATTRS		4096
#define P2D_MAX_IDS		(1u << 20)
#define P2D_MAX_TRACING		(512ull << 20)	/* the tracing data blob */
#define P2D_MAX_FEATURE		(64ull << 20)	/* any other feature section */
#define P2D_MAX_TASKS		(4u << 20)
#define P2D_QUEUE_CAP		(24u << 20)	/* reorder queue payload bytes */

/* ------------------------------------------------------------------------ */
/* Byte order: alignment-safe loads and stores, optionally swapped          */

static inline uint16_t p2d_get16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_16(v) : v;
}

static inline uint32_t p2d_get32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static inline uint64_t p2d_get64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

static inline void p2d_put16(void *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void p2d_put32(void *p, uint32_t v, bool swap)
{
	if (swap)
		v = bswap_32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void p2d_put64(void *p, uint64_t v, bool swap)
{
	if (swap)
		v = bswap_64(v);
	memcpy(p, &v, sizeof(v));
}

static inline bool p2d_host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* ------------------------------------------------------------------------ */
/* Checked cursor: every read of input bytes goes through these             */

/**
 * struct p2d_cursor - a bounds-checked, endian-aware view of input bytes
 * @buf: first byte
 * @len: bytes in @buf
 * @pos: next byte to read
 * @base: input file offset of @buf[0], for messages
 * @swap: the input is in the other byte order
 */
struct p2d_cursor {
	const uint8_t	*buf;
	size_t		len;
	size_t		pos;
	uint64_t	base;
	bool		swap;
};

static inline void p2d_cur_init(struct p2d_cursor *c, const void *buf, size_t len,
				uint64_t base, bool swap)
{
	c->buf = buf;
	c->len = len;
	c->pos = 0;
	c->base = base;
	c->swap = swap;
}

static inline size_t p2d_cur_left(const struct p2d_cursor *c)
{
	return c->len - c->pos;
}

static inline uint64_t p2d_cur_off(const struct p2d_cursor *c)
{
	return c->base + c->pos;
}

static inline int p2d_cur_u32(struct p2d_cursor *c, uint32_t *v)
{
	if (c->len - c->pos < 4)
		return -EBADMSG;
	*v = p2d_get32(c->buf + c->pos, c->swap);
	c->pos += 4;
	return 0;
}

static inline int p2d_cur_u64(struct p2d_cursor *c, uint64_t *v)
{
	if (c->len - c->pos < 8)
		return -EBADMSG;
	*v = p2d_get64(c->buf + c->pos, c->swap);
	c->pos += 8;
	return 0;
}

static inline int p2d_cur_skip(struct p2d_cursor *c, uint64_t n)
{
	if (n > c->len - c->pos)
		return -EBADMSG;
	c->pos += n;
	return 0;
}

static inline int p2d_cur_bytes(struct p2d_cursor *c, uint64_t n, const uint8_t **p)
{
	if (n > c->len - c->pos)
		return -EBADMSG;
	*p = c->buf + c->pos;
	c->pos += n;
	return 0;
}

int p2d_cur_u8(struct p2d_cursor *c, uint8_t *v) __hidden;
int p2d_cur_cstr(struct p2d_cursor *c, const char **s) __hidden;
int p2d_cur_perf_str(struct p2d_cursor *c, const char **s) __hidden;
int p2d_cur_sub(struct p2d_cursor *c, uint64_t n, struct p2d_cursor *sub) __hidden;

/* ------------------------------------------------------------------------ */
/* Input: buffered reading of a file or a pipe                              */

/**
 * struct p2d_input - the bytes of the recording
 * @fd: descriptor
 * @owns_fd: close @fd at the end
 * @seekable: regular file (features and sections may be read by offset)
 * @size: file size, 0 when unknown
 * @buf: read window
 * @cap: allocated size of @buf
 * @start: first unconsumed byte in @buf
 * @end: end of valid bytes in @buf
 * @buf_off: input offset of @buf[0]
 * @eof: the descriptor returned end of file
 * @name: shown in messages
 * @label: when set, errors name it before the offset (a file of a directory)
 */
struct p2d_input {
	int		fd;
	bool		owns_fd;
	bool		seekable;
	uint64_t	size;
	uint8_t		*buf;
	size_t		cap;
	size_t		start;
	size_t		end;
	uint64_t	buf_off;
	bool		eof;
	const char	*name;
	const char	*label;
};

int p2d_in_open(struct p2d_input *in, const char *path, int fd) __hidden;
void p2d_in_close(struct p2d_input *in) __hidden;
int p2d_in_peek(struct p2d_input *in, size_t n, const uint8_t **p) __hidden;
void p2d_in_consume(struct p2d_input *in, size_t n) __hidden;
int p2d_in_read(struct p2d_input *in, void *dst, size_t n) __hidden;
int p2d_in_skip(struct p2d_input *in, uint64_t n) __hidden;
int p2d_in_seek(struct p2d_input *in, uint64_t off) __hidden;
int p2d_in_pread(struct p2d_input *in, uint64_t off, void *dst, size_t n) __hidden;

static inline uint64_t p2d_in_pos(const struct p2d_input *in)
{
	return in->buf_off + in->start;
}

/* The size of the input: a file's, or what was read of a pipe */
static inline uint64_t p2d_in_total(const struct p2d_input *in)
{
	return in->seekable && in->size ? in->size : p2d_in_pos(in);
}

/* ------------------------------------------------------------------------ */
/* Tracing data (the ftrace metadata perf stores)                           */

struct tep_handle;

/** struct p2d_span - a piece of the tracing data blob */
struct p2d_span {
	const char	*data;
	size_t		len;
};

/** struct p2d_tsystem - one event system and its format files */
struct p2d_tsystem {
	const char	*name;
	struct p2d_span	*events;
	unsigned int	nr_events;
};

/**
 * struct p2d_tracing - parsed tracing data
 * @blob: owned copy of the raw tracing data
 * @blob_len: its size
 * @version: "0.5" or "0.6"
 * @big_endian: numbers in the tracing data (and event payloads) are big-endian
 * @long_size: kernel long size (4 or 8), from header_page's commit field
 * @page_size: ring-buffer page size
 * @header_page: events/header_page
 * @header_event: events/header_event
 * @ftrace: ftrace/<event>/format files
 * @nr_ftrace: count of @ftrace
 * @systems: event systems
 * @nr_systems: count of @systems
 * @kallsyms: /proc/kallsyms, usually empty
 * @printk: printk_formats
 * @cmdlines: saved_cmdlines (version 0.6)
 * @tep: the formats parsed by libtraceevent
 */
struct p2d_tracing {
	uint8_t			*blob;
	size_t			blob_len;
	char			version[8];
	bool			big_endian;
	unsigned int		long_size;
	unsigned int		page_size;
	struct p2d_span		header_page;
	struct p2d_span		header_event;
	struct p2d_span		*ftrace;
	unsigned int		nr_ftrace;
	struct p2d_tsystem	*systems;
	unsigned int		nr_systems;
	struct p2d_span		kallsyms;
	struct p2d_span		printk;
	struct p2d_span		cmdlines;
	struct tep_handle	*tep;
};

struct p2d_conv;

int p2d_tracing_parse(struct p2d_conv *cv, uint8_t *blob, size_t len, uint64_t off) __hidden;
void p2d_tracing_free(struct p2d_tracing *t) __hidden;
int p2d_swap_payload(struct tep_handle *tep, uint8_t *buf, uint32_t len) __hidden;

/* ------------------------------------------------------------------------ */
/* Task names                                                               */

struct p2d_tasks;

struct p2d_tasks *p2d_tasks_alloc(void) __hidden;
void p2d_tasks_free(struct p2d_tasks *t) __hidden;
int p2d_tasks_set(struct p2d_tasks *t, uint32_t pid, const char *comm, size_t len,
		  bool weak) __hidden;
int p2d_tasks_fork(struct p2d_tasks *t, uint32_t child, uint32_t parent) __hidden;
int p2d_tasks_parse_cmdlines(struct p2d_tasks *t, const char *buf, size_t len) __hidden;
unsigned int p2d_tasks_count(const struct p2d_tasks *t) __hidden;
int p2d_tasks_write(const struct p2d_tasks *t, int fd) __hidden;
const char *p2d_tasks_get(const struct p2d_tasks *t, uint32_t pid) __hidden;
void p2d_tasks_seen(struct p2d_tasks *t, uint32_t pid) __hidden;

/* ------------------------------------------------------------------------ */
/* Ring-buffer page builder                                                 */

/**
 * typedef p2d_page_fn - receives each finished page
 * @ctx: the builder's context
 * @page: page_size bytes
 * @size: page_size
 */
typedef int (*p2d_page_fn)(void *ctx, const uint8_t *page, size_t size);

/**
 * struct p2d_page_builder - packs events into ftrace ring-buffer pages
 * @page: the page being filled
 * @page_size: bytes per page
 * @hdr_size: page header size (8 + long size)
 * @long_size: size of the commit field
 * @swap: write numbers in the other byte order
 * @big_endian: the output is big-endian (event header bit layout)
 * @used: bytes of event data in @page
 * @open: @page holds a page header (at least one event or a lost mark)
 * @page_ts: timestamp of the page
 * @last_ts: timestamp of the last event written
 * @missed: events lost before the next page
 * @flush: called with each finished page
 * @ctx: passed to @flush
 * @pages: pages flushed
 * @events: events added
 * @extends: TIME_EXTEND records written
 */
struct p2d_page_builder {
	uint8_t		*page;
	uint32_t	page_size;
	uint32_t	hdr_size;
	uint32_t	long_size;
	bool		swap;
	bool		big_endian;
	uint32_t	used;
	bool		open;
	uint64_t	page_ts;
	uint64_t	last_ts;
	uint64_t	missed;
	p2d_page_fn	flush;
	void		*ctx;
	uint64_t	pages;
	uint64_t	events;
	uint64_t	extends;
};

int p2d_pb_init(struct p2d_page_builder *pb, uint32_t page_size, uint32_t long_size,
		bool big_endian, p2d_page_fn flush, void *ctx) __hidden;
void p2d_pb_release(struct p2d_page_builder *pb) __hidden;
int p2d_pb_add(struct p2d_page_builder *pb, uint64_t ts, const void *data, uint32_t len) __hidden;
int p2d_pb_lost(struct p2d_page_builder *pb, uint64_t count) __hidden;
int p2d_pb_lost_before(struct p2d_page_builder *pb, uint64_t count) __hidden;
int p2d_pb_finish(struct p2d_page_builder *pb) __hidden;
uint32_t p2d_pb_max_event(const struct p2d_page_builder *pb) __hidden;

/* ------------------------------------------------------------------------ */
/* Reorder queue: per-CPU time order within perf's rounds                   */

#define P2D_LOST_MARK	UINT32_MAX	/* length of a lost-events entry */

/**
 * typedef p2d_emit_fn - receives events in per-CPU time order
 * @ctx: the sorter's context
 * @cpu: CPU
 * @ts: timestamp
 * @data: payload, or NULL for a lost-events mark
 * @len: payload length, or lost count when @data is NULL
 */
typedef int (*p2d_emit_fn)(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data,
			   uint64_t len);

/** enum p2d_side_kind - what a side-band record says */
enum p2d_side_kind {
	P2D_SIDE_COMM,		/* @tid is named @comm (exec, prctl) */
	P2D_SIDE_FORK,		/* @tid was created by @parent */
	P2D_SIDE_EXIT,		/* @tid ended */
};

/**
 * struct p2d_side - a side-band record, ordered with the events
 * @ts: timestamp, 0 when the record has none
 * @kind: &enum p2d_side_kind
 * @tid: the task
 * @parent: for a fork, the task it came from
 * @comm: for a name, NUL-terminated (truncated to 15 characters)
 */
struct p2d_side {
	uint64_t	ts;
	uint32_t	kind;
	uint32_t	tid;
	uint32_t	parent;
	char		comm[16];
};

/**
 * typedef p2d_side_fn - receives side-band records in time order
 * @ctx: the sorter's context
 * @rec: the record
 */
typedef int (*p2d_side_fn)(void *ctx, const struct p2d_side *rec);

struct p2d_sorter;

struct p2d_sorter *p2d_sorter_alloc(p2d_emit_fn emit, p2d_side_fn emit_side, void *ctx) __hidden;
int p2d_sorter_add_side(struct p2d_sorter *s, const struct p2d_side *rec) __hidden;
void p2d_sorter_free(struct p2d_sorter *s) __hidden;
int p2d_sorter_add(struct p2d_sorter *s, uint32_t cpu, uint64_t ts, const void *data,
		   uint32_t len) __hidden;
int p2d_sorter_add_lost(struct p2d_sorter *s, uint32_t cpu, uint64_t ts, uint64_t count) __hidden;
int p2d_sorter_round(struct p2d_sorter *s) __hidden;
int p2d_sorter_flush(struct p2d_sorter *s) __hidden;
uint64_t p2d_sorter_late(const struct p2d_sorter *s) __hidden;

/* ------------------------------------------------------------------------ */
/* Per-CPU page streams in unlinked temporary files                         */

/**
 * struct p2d_cpu - the pages of one CPU
 * @fd: unlinked temporary file, -1 until the first event
 * @pb: page builder
 * @wbuf: write buffer
 * @wlen: bytes in @wbuf
 * @bytes: bytes written to @fd
 * @events: events written
 * @lost: events lost on this CPU
 * @first_ts: first timestamp
 * @last_ts: last timestamp
 */
struct p2d_cpu {
	int			fd;
	struct p2d_page_builder	pb;
	uint8_t			*wbuf;
	size_t			wlen;
	uint64_t		bytes;
	uint64_t		events;
	uint64_t		lost;
	uint64_t		first_ts;
	uint64_t		last_ts;
};

/**
 * struct p2d_cpuset - all CPUs
 * @cpu: array indexed by CPU number (NULL for CPUs without data yet)
 * @nr: size of @cpu
 * @dir: directory for temporary files
 * @page_size: ring-buffer page size
 * @long_size: kernel long size
 * @big_endian: output byte order
 */
struct p2d_cpuset {
	struct p2d_cpu	**cpu;
	uint32_t	nr;
	const char	*dir;
	uint32_t	page_size;
	uint32_t	long_size;
	bool		big_endian;
};

int p2d_cpuset_event(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, const uint8_t *data,
		     uint64_t len) __hidden;
int p2d_cpuset_finish(struct p2d_conv *cv) __hidden;
void p2d_cpuset_release(struct p2d_cpuset *cs) __hidden;

/* ------------------------------------------------------------------------ */
/* The conversion                                                           */

/**
 * struct p2d_meta - what the recording says about itself
 */
struct p2d_meta {
	char		*hostname;
	char		*osrelease;
	char		*arch;
	char		*perf_version;
	char		*cmdline;
	uint32_t	nr_cpus_avail;
	uint32_t	nr_cpus_online;
	bool		has_clockid;
	int32_t		clockid;
	bool		has_clock_data;
	uint64_t	clock_tod_ns;
	uint64_t	clock_id_ns;
	uint64_t	clock_res_ns;
	bool		has_sample_time;
	uint64_t	sample_time_first;
	uint64_t	sample_time_last;
};

/**
 * struct p2d_conv - state of one conversion
 * @opts: the caller's options
 * @sum: the caller's summary
 * @err_set: @sum->error holds the first error
 * @meta: recording metadata
 * @tracing: parsed tracing data, NULL until seen
 * @tasks: pid -> comm
 * @sorter: reorder queue
 * @cpus: per-CPU page streams
 * @tmpdir: private temporary directory (tracefs-shaped tree)
 * @data_dir: directory for the large temporary files
 * @in: the input being read
 * @no_cpu_warned: warned that samples carry no CPU
 * @big_warned: warned about an event too large for a page
 * @unknown_warned: warned about an event id missing from the formats
 * @dir_data: for a directory input, the path of its "data" file
 * @swap_payload: payloads are in the other byte order (converted to ours)
 * @scratch: a payload being swapped
 * @swap_warned: warned about an event that cannot be swapped
 * @select: the selection (p2d-select.c)
 * @signals_held: termination signals are blocked while @tmpdir exists
 * @known: bitmap of the event ids the formats describe
 * @other_input_bytes: bytes read from the data.N files of a directory
 * @kallsyms_bytes: size of the --kallsyms file
 */
struct p2d_conv {
	const struct p2d_options	*opts;
	struct p2d_summary		*sum;
	bool				err_set;
	struct p2d_meta			meta;
	struct p2d_tracing		*tracing;
	struct p2d_tasks		*tasks;
	struct p2d_sorter		*sorter;
	struct p2d_cpuset		cpus;
	char				*tmpdir;
	char				*data_dir;
	struct p2d_input		*in;
	bool				no_cpu_warned;
	bool				big_warned;
	bool				unknown_warned;
	char				*dir_data;
	bool				swap_payload;
	uint8_t				*scratch;
	bool				swap_warned;
	struct p2d_select		*select;
	bool				signals_held;
	uint8_t				*known;
	uint64_t			other_input_bytes;
	uint64_t			kallsyms_bytes;
};

#define P2D_NO_OFFSET	UINT64_MAX	/* p2d_error() about no particular input offset */

int p2d_error(struct p2d_conv *cv, uint64_t off, int err, const char *fmt, ...)
	P2D_PRINTF(4, 5) __hidden;
void p2d_warn(struct p2d_conv *cv, uint64_t off, const char *fmt, ...) P2D_PRINTF(3, 4) __hidden;
void p2d_info(struct p2d_conv *cv, const char *fmt, ...) P2D_PRINTF(2, 3) __hidden;
void p2d_log(const struct p2d_options *opts, enum p2d_log_level level, const char *fmt, ...)
	P2D_PRINTF(3, 4) __hidden;

/**
 * struct p2d_event - one tracepoint event as an import handler delivers it
 * @cpu: CPU it was recorded on
 * @pid: process id (thread group), when @has_pid
 * @tid: thread id, when @has_pid
 * @has_pid: the recording carries pid and tid
 * @ts: timestamp in ns
 * @raw: the ftrace payload (common fields first), in the recording's byte order
 * @len: payload bytes
 * @off: input offset of the record, for messages
 */
struct p2d_event {
	uint32_t	cpu;
	uint32_t	pid;
	uint32_t	tid;
	bool		has_pid;
	uint64_t	ts;
	const uint8_t	*raw;
	uint32_t	len;
	uint64_t	off;
};

/* Selection of events (p2d-select.c), called by the sink */
struct p2d_select;

int p2d_select_init(struct p2d_conv *cv) __hidden;
int p2d_select_event(struct p2d_conv *cv, const struct p2d_event *ev) __hidden;
bool p2d_select_lost(struct p2d_conv *cv, uint32_t cpu, uint64_t ts) __hidden;
void p2d_select_release(struct p2d_conv *cv) __hidden;

/* What an import handler calls while it reads */
int p2d_sink_tracing(struct p2d_conv *cv, uint8_t *blob, size_t len, uint64_t off) __hidden;
int p2d_sink_event(struct p2d_conv *cv, const struct p2d_event *ev) __hidden;
int p2d_sink_lost(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, uint64_t count) __hidden;
int p2d_sink_round(struct p2d_conv *cv) __hidden;
int p2d_sink_side(struct p2d_conv *cv, const struct p2d_side *rec, uint64_t off) __hidden;
void p2d_sink_progress(struct p2d_conv *cv) __hidden;

/**
 * struct p2d_import - an input format
 * @name: format name
 * @probe: does this buffer (the first bytes of the input) look like ours?
 * @read: read the whole input, feeding the sink
 */
struct p2d_import {
	const char	*name;
	bool		(*probe)(const uint8_t *buf, size_t len);
	int		(*read)(struct p2d_conv *cv, struct p2d_input *in);
};

extern const struct p2d_import p2d_import_perf __hidden;

/* ------------------------------------------------------------------------ */
/* Temporary tracefs-shaped tree and the trace.dat writer                   */

int p2d_tracedir_create(struct p2d_conv *cv) __hidden;
void p2d_tracedir_remove(struct p2d_conv *cv) __hidden;
int p2d_write_trace(struct p2d_conv *cv, int out_fd) __hidden;

/* Helpers */
int p2d_write_all(int fd, const void *buf, size_t len) __hidden;
int p2d_tmpfile(const char *dir) __hidden;
const char *p2d_clock_name(int32_t clockid) __hidden;
int p2d_kallsyms_check(struct p2d_conv *cv, const char *path, uint64_t *size) __hidden;
bool p2d_tod_offset(const struct p2d_meta *m, uint64_t *ns) __hidden;
int p2d_no_tod(struct p2d_conv *cv) __hidden;

#endif /* P2D_LOCAL_H */
