// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Compressed records (perf record -z). PERF_RECORD_COMPRESSED (81) carries
 * zstd data after its header; PERF_RECORD_COMPRESSED2 (83, perf >= 6.16)
 * has a u64 data_size first and pads the record to 8 bytes. All of them
 * form one zstd stream, decompressed with one context; the output is a
 * sequence of ordinary records, and a record may continue from one
 * compressed record into the next, so the tail of the output is kept.
 */
#include <stdlib.h>

#include <zstd.h>

#include "read-perf-local.h"

#define DECOMP_MIN_ROOM		(64u << 10)	/* a record is at most 64 KiB */
#define DECOMP_INITIAL		(1u << 20)

struct p2d_rd_zstd {
	ZSTD_DStream	*ds;
	uint8_t		*buf;
	size_t		len;
	size_t		cap;
};

static int decomp_init(struct p2d_reader *r)
{
	struct p2d_rd_zstd *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->ds = ZSTD_createDStream();
	d->cap = DECOMP_INITIAL;
	d->buf = malloc(d->cap);
	if (!d->ds || !d->buf || ZSTD_isError(ZSTD_initDStream(d->ds))) {
		ZSTD_freeDStream(d->ds);
		free(d->buf);
		free(d);
		return -ENOMEM;
	}
	r->decomp = d;
	return 0;
}

/**
 * p2d_rd_zstd_free - release the decompression state
 * @r: reader
 */
void p2d_rd_zstd_free(struct p2d_reader *r)
{
	struct p2d_rd_zstd *d = r->decomp;

	if (!d)
		return;
	ZSTD_freeDStream(d->ds);
	free(d->buf);
	free(d);
	r->decomp = NULL;
}

/* Dispatch every complete record in the output; keep a partial one */
static int drain(struct p2d_reader *r, uint64_t off)
{
	struct p2d_rd_zstd *d = r->decomp;
	struct p2d_cursor c;
	size_t pos = 0;
	uint16_t size;
	int ret = 0;

	while (d->len - pos >= 8) {
		size = p2d_get16(d->buf + pos + 6, r->swap);
		if (size < 8) {
			ret = p2d_error(r->d, off, -EBADMSG,
					"record of size %u in compressed data", size);
			break;
		}
		if (size > d->len - pos)
			break;
		p2d_cur_init(&c, d->buf + pos, size, off, r->swap);
		ret = p2d_rd_dispatch(r, &c, p2d_get32(d->buf + pos, r->swap),
				    p2d_get16(d->buf + pos + 4, r->swap), true);
		if (ret)
			break;
		pos += size;
	}
	memmove(d->buf, d->buf + pos, d->len - pos);
	d->len -= pos;
	return ret;
}

/**
 * p2d_rd_zstd_feed - decompress the payload of one compressed record and
 * process the records it completes
 * @r: reader
 * @data: zstd data
 * @len: its size
 * @off: input offset of the compressed record, for messages
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_rd_zstd_feed(struct p2d_reader *r, const uint8_t *data, size_t len, uint64_t off)
{
	ZSTD_inBuffer in = { data, len, 0 };
	struct p2d_rd_zstd *d;
	ZSTD_outBuffer out;
	size_t zret;
	int ret;

	if (!r->decomp && (ret = decomp_init(r)))
		return ret;
	d = r->decomp;
	for (;;) {
		if (d->cap - d->len < DECOMP_MIN_ROOM) {
			ret = drain(r, off);
			if (ret)
				return ret;
		}
		out.dst = d->buf + d->len;
		out.size = d->cap - d->len;
		out.pos = 0;
		zret = ZSTD_decompressStream(d->ds, &out, &in);
		if (ZSTD_isError(zret))
			return p2d_error(r->d, off, -EBADMSG, "zstd: %s", ZSTD_getErrorName(zret));
		d->len += out.pos;
		/* done when the input is used up and the output was not full */
		if (in.pos == in.size && out.pos < out.size)
			break;
	}
	return drain(r, off);
}

/**
 * p2d_rd_zstd_pending - bytes of an unfinished record left at the end
 * @r: reader
 */
size_t p2d_rd_zstd_pending(const struct p2d_reader *r)
{
	return r->decomp ? r->decomp->len : 0;
}
