// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The record stream of a perf.data: the data section of a file (and the
 * data.N files of a perf record --threads directory), or the whole of a
 * pipe-mode stream; the records inside compressed ones come out of a zstd
 * stream (unzstd.c) and go the same way. Each record goes to its handler
 * (read-perf-records.c). This is the import handler's entry point.
 */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "named-file.h"
#include "read-perf-local.h"
#include "unzstd.h"

#define PROGRESS_STEP		(1u << 20)	/* input bytes between progress reports */
#define PROGRESS_RECORDS	256		/* ... or records */

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


/*
 * perf 6.16's COMPRESSED2 writer could overflow header.size (u16) for a
 * record of nearly 64 KiB: it then wrote 0 or a wrapped size and no padding.
 * The true size is 16 + data_size.
 */
static uint32_t compressed2_size(struct p2d_reader *r, uint32_t size, const uint8_t *p,
				 size_t avail, uint64_t pos)
{
	uint64_t data_size;

	if (avail < 16)
		return size;
	data_size = p2d_get64(p + 8, r->swap);
	if (((16 + data_size + 7) & ~7ull) <= size || data_size > 65535 - 16)
		return size;
	p2d_warn_once(r->d, P2D_ONCE_C2_SIZE, pos, "COMPRESSED2 record with an overflowed"
		      " size (perf 6.16 bug): using its data size");
	return (uint32_t)(16 + data_size);
}

/* A record header: struct perf_event_header { u32 type; u16 misc; u16 size; } */
struct rec_header {
	uint32_t	type;
	uint16_t	misc;
	uint32_t	size;
};

/*
 * The header of the record at @p (@avail bytes there, at input offset @pos),
 * in the input or in decompressed data alike. Returns false when @avail
 * holds no header.
 */
static bool record_header(struct p2d_reader *r, const uint8_t *p, size_t avail, uint64_t pos,
			  struct rec_header *h)
{
	if (avail < 8)
		return false;
	h->type = p2d_get32(p, r->swap);
	h->misc = p2d_get16(p + 4, r->swap);
	h->size = p2d_get16(p + 6, r->swap);
	if (h->type == P2D_REC_COMPRESSED2)
		h->size = compressed2_size(r, h->size, p, avail, pos);
	return true;
}

/**
 * p2d_rd_decompress - the zstd data of a compressed record: its records
 *	are the next ones the record loop reads
 * @r: reader
 * @data: zstd data (in the input's window, which stays as it is until the
 *	loop has taken every record out of it)
 * @len: its size
 * @off: input offset of the compressed record, for messages
 *
 * All compressed records of a file form one zstd stream (unzstd.c), whose
 * records may continue from one compressed record into the next.
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_rd_decompress(struct p2d_reader *r, const uint8_t *data, size_t len, uint64_t off)
{
	r->compressed = true;
	if (!r->zstd && !(r->zstd = p2d_unzstd_new()))
		return -ENOMEM;
	p2d_unzstd_input(r->zstd, data, len);
	r->unzstd_active = true;
	r->unzstd_off = off;
	return 0;
}

/* Decompressed bytes of an unfinished record */
static size_t zstd_pending(const struct p2d_reader *r)
{
	size_t n = 0;

	if (r->zstd)
		p2d_unzstd_data(r->zstd, &n);
	return n;
}

/**
 * struct rec_next - the record the loop reads next
 * @c: its bytes
 * @h: its header
 * @pos: its input offset (a compressed record's, for one inside it)
 * @packed: it came out of a compressed record's data
 */
struct rec_next {
	struct p2d_cursor	c;
	struct rec_header	h;
	uint64_t		pos;
	bool			packed;
	bool			refilled;	/* whole only once more was decompressed */
};

/*
 * The next complete record of the decompressed data, decompressing more of
 * the current compressed record as needed. Returns 1 with @n set, 0 when
 * that record's data holds no more (the rest of a record waits for the next
 * one), or a negative errno.
 */
static int next_packed(struct p2d_reader *r, struct rec_next *n)
{
	const char *why = "";
	const uint8_t *p;
	size_t len;
	int ret;

	n->refilled = false;
	for (;;) {
		p = p2d_unzstd_data(r->zstd, &len);
		if (record_header(r, p, len, r->unzstd_off, &n->h)) {
			if (n->h.size < 8)
				return p2d_error(r->d, r->unzstd_off, -EBADMSG, "record of size %u in"
						 " compressed data", n->h.size);
			if (n->h.size <= len)
				break;
		}
		ret = p2d_unzstd_fill(r->zstd, &why);
		if (ret == -EBADMSG)
			return p2d_error(r->d, r->unzstd_off, ret, "zstd: %s", why);
		if (ret <= 0) {
			r->unzstd_active = false;
			return ret;
		}
		n->refilled = true;
	}
	n->pos = r->unzstd_off;
	n->packed = true;
	p2d_cur_init(&n->c, p, n->h.size, n->pos, r->swap);
	return 1;
}

/*
 * The next record of the input. Returns 1 with @n set, 0 at the end of the
 * data (a record cut by the end of the file ends it, with a warning), or a
 * negative errno.
 */
static int next_input(struct p2d_reader *r, struct rec_next *n)
{
	struct p2d_input *in = r->in;
	const uint8_t *p;
	uint64_t pos;
	int ret;

	pos = p2d_in_pos(in);
	if (pos >= r->data_end)
		return 0;
	ret = p2d_in_peek(in, 16, &p);
	if (ret == -ENODATA)
		ret = p2d_in_peek(in, 8, &p);
	if (ret == -ENODATA) {
		if (p2d_in_avail(in)) {
			p2d_warn(r->d, pos, "input ends inside a record header");
			r->stats->truncated_at = pos + 1;
		}
		return 0;
	}
	if (ret)
		return p2d_error(r->d, pos, ret, "read error: %s", strerror(-ret));
	if (!record_header(r, p, p2d_in_avail(in), pos, &n->h))
		return 0;	/* not reached: 8 bytes were peeked */
	if (n->h.size < 8)
		return bad_record(r, pos, "record size below 8", n->h.size);
	if (n->h.size > r->data_end - pos)
		return bad_record(r, pos, "record crosses the end of the data section", n->h.size);
	ret = p2d_in_peek(in, n->h.size, &p);
	if (ret == -ENODATA) {
		if (n->h.type >= 256)
			p2d_warn(r->d, pos, "%zu bytes at the end are not a record"
				 " (trailing garbage): ignored", p2d_in_avail(in));
		else
			p2d_warn(r->d, pos, "input ends inside a record of type %u (%zu"
				 " of %u bytes; truncated): ignored", n->h.type,
				 p2d_in_avail(in), n->h.size);
		r->stats->truncated_at = pos + 1;
		return 0;
	}
	if (ret)
		return p2d_error(r->d, pos, ret, "read error: %s", strerror(-ret));
	n->pos = pos;
	n->packed = false;
	p2d_cur_init(&n->c, p, n->h.size, pos, r->swap);
	return 1;
}

/* A record of compressed data may be neither compressed nor followed by a payload */
static int check_packed(struct p2d_reader *r, const struct rec_next *n, bool after)
{
	if (!after && (n->h.type == P2D_REC_COMPRESSED || n->h.type == P2D_REC_COMPRESSED2))
		return p2d_error(r->d, n->pos, -EBADMSG, "compressed record inside compressed data");
	if (after && r->extra)
		return p2d_error(r->d, n->pos, -EBADMSG,
				 "record with a trailing payload inside compressed data");
	return 0;
}

/*
 * The tracepoint samples in a row that the input's window (or the
 * decompressed data) holds: through p2d_rd_fast_samples().
 */
static int fast_run(struct p2d_reader *r)
{
	struct p2d_input *in = r->in;
	const uint8_t *p;
	uint64_t pos;
	size_t len, used;
	int ret;

	if (r->unzstd_active) {
		pos = r->unzstd_off;
		p = p2d_unzstd_data(r->zstd, &len);
		ret = p2d_rd_fast_samples(r, p, len, pos, true, &used);
		if (used)
			p2d_unzstd_consume(r->zstd, used);
	} else {
		pos = p2d_in_pos(in);
		if (pos >= r->data_end)
			return 0;
		len = p2d_in_avail(in);
		if (len > r->data_end - pos)
			len = r->data_end - pos;
		ret = p2d_rd_fast_samples(r, p2d_in_cur(in), len, pos, false, &used);
		p2d_in_consume(in, used);
		pos += used;
	}
	if (!ret && used && pos - r->last_progress >= PROGRESS_STEP) {
		r->last_progress = pos;
		r->sink->ops->progress(r->sink->ctx, pos, r->in->size);
	}
	return ret;
}

/**
 * p2d_rd_read_records - read every record of the data section (or stream)
 * @r: reader positioned at the first record
 *
 * One loop over the records of the input and those of compressed records'
 * data alike: while a compressed record's data gives records they come
 * first (in the order perf wrote them), then the input goes on. A record
 * cut by the end of the file ends the data with a warning.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_read_records(struct p2d_reader *r)
{
	struct rec_next n;
	int ret;

	for (;;) {
		ret = fast_run(r);
		if (ret)
			return ret;
		ret = r->unzstd_active ? next_packed(r, &n) : 0;
		if (!ret)
			ret = next_input(r, &n);
		if (ret <= 0)
			return ret;
		/*
		 * A sample cut by the end of a compressed record's data (perf
		 * compresses its buffers in pieces, not record by record) is
		 * whole now: back to the fast path, which takes it if it can
		 */
		if (n.packed && n.refilled && n.h.type == PERF_RECORD_SAMPLE)
			continue;
		if (n.packed && (ret = check_packed(r, &n, false)))
			return ret;
		ret = p2d_rd_dispatch(r, &n.c, n.h.type, n.h.misc);
		if (ret)
			return ret;
		if (n.packed) {
			ret = check_packed(r, &n, true);
			if (ret)
				return ret;
			p2d_unzstd_consume(r->zstd, n.h.size);
			continue;
		}
		/* a compressed record's data stays in the window until the next peek */
		p2d_in_consume(r->in, n.h.size);
		if (r->extra) {
			ret = read_extra(r, n.pos);
			if (ret)
				return ret;
		}
		if (n.pos - r->last_progress >= PROGRESS_STEP || !(r->records % PROGRESS_RECORDS)) {
			r->last_progress = n.pos;
			r->sink->ops->progress(r->sink->ctx, n.pos, r->in->size);
		}
	}
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
	if (zstd_pending(r))
		p2d_warn(r->d, p2d_in_pos(r->in), "compressed data ends inside a record (%zu"
			 " bytes): ignored", zstd_pending(r));
	p2d_unzstd_free(r->zstd);
	r->zstd = NULL;
	r->unzstd_active = false;
}

static int read_dir_file(struct p2d_reader *r, const char *dir, const char *name)
{
	struct p2d_input *main_in = r->in, sub = { .fd = -1 };
	struct stat st = { 0 };
	char *path;
	int ret;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	/* the directory's own file, not a link to another (perf writes none) */
	ret = p2d_in_open_part(&sub, path);
	if (ret == -P2D_ENOTREG && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		ret = p2d_error(r->d, P2D_NO_OFFSET, ret, "%s: a symbolic link: not followed",
				path);
	} else if (ret) {
		ret = p2d_error(r->d, P2D_NO_OFFSET, ret, "%s: %s", path, p2d_named_strerror(-ret));
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
 * They are read when the input is such a directory or its "data" file; a
 * file of another name (a copy of "data" elsewhere) says nothing of what
 * else its directory holds.
 */
static int read_dir_files(struct p2d_reader *r)
{
	struct dirent **list;
	char *copy, *dir;
	const char *base;
	int i, n, ret = 0;

	base = r->in->path ? strrchr(r->in->path, '/') : NULL;
	base = base ? base + 1 : r->in->path;
	if (!r->in->seekable || !base || strcmp(base, "data")) {
		p2d_warn(r->d, P2D_NO_OFFSET, "this recording continues in data.N files of its"
			 " directory (perf record --threads): give the directory to read them");
		return 0;
	}
	copy = strdup(r->in->path);
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

/**
 * p2d_perf_read - read a perf.data recording (the perf format's read)
 * @in: the input, at its start (a --threads directory: its "data" file)
 * @sink: what the records feed
 * @d: diagnostics
 * @stats: filled with what was read but not delivered
 *
 * Returns 0, or a negative errno with a message in @d.
 */
int p2d_perf_read(struct p2d_input *in, const struct p2d_sink *sink, struct p2d_diag *d,
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
		ret = p2d_rd_attrs_finish(&r);
	if (!ret)
		end_decomp_stream(&r);
	if (!ret)
		p2d_rd_report_read(&r);
	stats->input_bytes += p2d_in_total(in);
	p2d_unzstd_free(r.zstd);
	p2d_rd_reader_release(&r);
	return ret;
}
