// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A zstd stream as a byte producer. The compressed data of one piece is
 * given with p2d_unzstd_input(); each p2d_unzstd_fill() decompresses as much
 * as the free room holds; the reader takes the bytes it can use and
 * consumes them. Unconsumed bytes stay for the next fill, and the next
 * piece: a stream may cut its content anywhere.
 */
#include <stdlib.h>

#include <zstd.h>

#include "unzstd.h"

#define ROOM_MIN	(64u << 10)	/* free room a fill wants */
#define CAP_INITIAL	(1u << 20)

/**
 * struct p2d_unzstd - a zstd stream being decompressed
 * @ds: libzstd's state
 * @in: the compressed data not used yet
 * @buf: decompressed bytes
 * @start: first unconsumed byte of @buf
 * @end: end of the decompressed bytes
 * @cap: size of @buf
 */
struct p2d_unzstd {
	ZSTD_DStream	*ds;
	ZSTD_inBuffer	in;
	uint8_t		*buf;
	size_t		start;
	size_t		end;
	size_t		cap;
};

/**
 * p2d_unzstd_new - a zstd stream
 *
 * Returns the stream, or NULL when out of memory.
 */
struct p2d_unzstd *p2d_unzstd_new(void)
{
	struct p2d_unzstd *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->ds = ZSTD_createDStream();
	z->cap = CAP_INITIAL;
	z->buf = malloc(z->cap);
	if (!z->ds || !z->buf || ZSTD_isError(ZSTD_initDStream(z->ds))) {
		p2d_unzstd_free(z);
		return NULL;
	}
	return z;
}

/**
 * p2d_unzstd_free - free a stream
 * @z: stream, may be NULL
 */
void p2d_unzstd_free(struct p2d_unzstd *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->buf);
	free(z);
}

/**
 * p2d_unzstd_input - the next piece of compressed data
 * @z: stream
 * @data: compressed bytes (must stay valid while fills use them)
 * @len: their count
 */
void p2d_unzstd_input(struct p2d_unzstd *z, const void *data, size_t len)
{
	z->in.src = data;
	z->in.size = len;
	z->in.pos = 0;
}

/* Room for a fill: unconsumed bytes to the front, the buffer grown if full */
static int make_room(struct p2d_unzstd *z)
{
	uint8_t *nb;

	if (z->start) {
		memmove(z->buf, z->buf + z->start, z->end - z->start);
		z->end -= z->start;
		z->start = 0;
	}
	if (z->cap - z->end >= ROOM_MIN)
		return 0;
	nb = realloc(z->buf, z->cap * 2);
	if (!nb)
		return -ENOMEM;
	z->buf = nb;
	z->cap *= 2;
	return 0;
}

/**
 * p2d_unzstd_fill - decompress what the free room holds
 * @z: stream
 * @why: set to libzstd's reason on an error
 *
 * Returns 1 when bytes were added, 0 when the piece gives nothing more (the
 * next piece may), -EBADMSG for damaged data, or -ENOMEM.
 */
int p2d_unzstd_fill(struct p2d_unzstd *z, const char **why)
{
	ZSTD_outBuffer out;
	size_t zret;
	int ret;

	if (z->in.pos == z->in.size && !z->in.size)
		return 0;
	ret = make_room(z);
	if (ret)
		return ret;
	out.dst = z->buf + z->end;
	out.size = z->cap - z->end;
	out.pos = 0;
	zret = ZSTD_decompressStream(z->ds, &out, &z->in);
	if (ZSTD_isError(zret)) {
		*why = ZSTD_getErrorName(zret);
		return -EBADMSG;
	}
	z->end += out.pos;
	return out.pos > 0;
}

/**
 * p2d_unzstd_data - the decompressed bytes not consumed yet
 * @z: stream
 * @len: set to their count
 */
const uint8_t *p2d_unzstd_data(const struct p2d_unzstd *z, size_t *len)
{
	*len = z->end - z->start;
	return z->buf + z->start;
}

/**
 * p2d_unzstd_consume - the reader used @n bytes
 * @z: stream
 * @n: bytes (at most what p2d_unzstd_data() gave)
 */
void p2d_unzstd_consume(struct p2d_unzstd *z, size_t n)
{
	z->start += n;
	if (z->start == z->end)
		z->start = z->end = 0;
}
