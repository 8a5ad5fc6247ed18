// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Packs events into ftrace ring-buffer pages, the unit trace.dat stores.
 *
 * A page is a header (u64 timestamp, then a long "commit" holding the number
 * of data bytes and the missed-events flags) followed by events. Each event
 * starts with a 32-bit word: type_len (5 bits) and time_delta (27 bits) from
 * the previous event. type_len 1..28 is a data event of type_len * 4 bytes;
 * 0 is a data event whose length follows in the next word; 30 is a
 * TIME_EXTEND carrying the high bits of a delta that does not fit 27 bits.
 * When events were lost before a page, bit 31 of commit is set, and when
 * room is left the count is stored as a long after the data (bit 30).
 */
#include <stdlib.h>

#include "pages.h"
#include "reorder.h"

#define TS_SHIFT		27
#define TS_MASK			((1u << TS_SHIFT) - 1)
#define TYPE_DATA_MAX		28
#define TYPE_TIME_EXTEND	30
#define SMALL_DATA_MAX		(TYPE_DATA_MAX * 4)
#define COMMIT_MISSED		(1ull << 31)
#define COMMIT_MISSED_STORED	(1ull << 30)

static uint32_t event_word(const struct p2d_page_builder *pb, uint32_t type_len,
			   uint32_t delta)
{
	/* bit-field order follows the byte order of the kernel that wrote it */
	if (pb->big_endian)
		return (type_len << TS_SHIFT) | delta;
	return type_len | (delta << 5);
}

static void put_word(struct p2d_page_builder *pb, uint8_t *p, uint32_t type_len,
		     uint32_t delta)
{
	p2d_put32(p, event_word(pb, type_len, delta), pb->swap);
}

static void put_long(struct p2d_page_builder *pb, uint8_t *p, uint64_t v)
{
	if (pb->long_size == 8)
		p2d_put64(p, v, pb->swap);
	else
		p2d_put32(p, (uint32_t)v, pb->swap);
}

/**
 * p2d_pb_init - set up a page builder
 * @pb: builder
 * @page_size: bytes per page (power of two, at least 256)
 * @long_size: size of a kernel long (4 or 8)
 * @big_endian: write a big-endian page
 * @flush: receives each finished page
 * @ctx: passed to @flush
 *
 * Returns 0, -EINVAL for bad geometry, or -ENOMEM.
 */
int p2d_pb_init(struct p2d_page_builder *pb, uint32_t page_size, uint32_t long_size,
		bool big_endian, p2d_page_fn flush, void *ctx)
{
	memset(pb, 0, sizeof(*pb));
	if ((long_size != 4 && long_size != 8) || page_size < 256 ||
	    page_size > (1u << 24) || (page_size & (page_size - 1)))
		return -EINVAL;
	pb->page = calloc(1, page_size);
	if (!pb->page)
		return -ENOMEM;
	pb->page_size = page_size;
	pb->long_size = long_size;
	pb->hdr_size = 8 + long_size;
	pb->big_endian = big_endian;
	pb->swap = big_endian != p2d_host_big_endian();
	pb->flush = flush;
	pb->ctx = ctx;
	return 0;
}

/**
 * p2d_pb_release - free the builder's page
 * @pb: builder
 */
void p2d_pb_release(struct p2d_page_builder *pb)
{
	free(pb->page);
	pb->page = NULL;
}

/* Bytes of event data a page can hold, keeping room for a lost count */
static uint32_t capacity(const struct p2d_page_builder *pb, bool lost)
{
	return pb->page_size - pb->hdr_size - (lost ? pb->long_size : 0);
}

/**
 * p2d_pb_max_event - the largest payload that fits in one page
 * @pb: builder
 */
uint32_t p2d_pb_max_event(const struct p2d_page_builder *pb)
{
	return capacity(pb, true) - 8;
}

/*
 * The page is complete: write its header, zero what follows the data (the
 * only bytes not written since the page was opened) and hand it over. The
 * page is not touched after the flush callback, which may point pb->page at
 * another buffer for the next page (cpufiles.c builds pages in place in
 * its write buffers).
 */
static int close_page(struct p2d_page_builder *pb, uint64_t missed)
{
	uint64_t commit = pb->used;
	uint32_t end = pb->hdr_size + pb->used;

	if (missed) {
		commit |= COMMIT_MISSED;
		if (end + pb->long_size <= pb->page_size) {
			put_long(pb, pb->page + end, missed);
			end += pb->long_size;
			commit |= COMMIT_MISSED_STORED;
		}
	}
	p2d_put64(pb->page, pb->page_ts, pb->swap);
	put_long(pb, pb->page + 8, commit);
	memset(pb->page + end, 0, pb->page_size - end);
	pb->open = false;
	pb->used = 0;
	pb->pages++;
	return pb->flush(pb->ctx, pb->page, pb->page_size);
}

static void open_page(struct p2d_page_builder *pb, uint64_t ts)
{
	pb->open = true;
	pb->page_ts = ts;
	pb->last_ts = ts;
	pb->used = 0;
}

/* Size in the page of an event of @len payload bytes: header word(s) + data */
static inline uint32_t event_size(uint32_t len, uint32_t *len4)
{
	*len4 = len ? (len + 3) & ~3u : 4;
	return (*len4 <= SMALL_DATA_MAX ? 4 : 8) + *len4;
}

/* Start a new page for an event of @size bytes, closing the current one */
static __attribute__((noinline)) int next_page(struct p2d_page_builder *pb, uint64_t ts, uint32_t size)
{
	int ret;

	if (pb->open) {
		ret = close_page(pb, pb->missed);
		pb->missed = 0;
		if (ret)
			return ret;
	}
	if (size > capacity(pb, pb->missed != 0))
		return -E2BIG;
	open_page(pb, ts);
	return 0;
}

/**
 * p2d_pb_add - append one event
 * @pb: builder
 * @ts: timestamp, not before the previous event's
 * @data: payload
 * @len: payload bytes (padded to 4 in the page)
 *
 * Returns 0, -E2BIG if the event cannot fit in a page, -EINVAL if @ts goes
 * backwards, or the flush callback's error.
 */
int p2d_pb_add(struct p2d_page_builder *pb, uint64_t ts, const void *data, uint32_t len)
{
	uint32_t len4, size, delta32 = 0;
	uint64_t delta = 0;
	uint8_t *p;
	int ret;

	if (len > pb->page_size)
		return -E2BIG;
	size = event_size(len, &len4);
	if (pb->open) {
		if (ts < pb->last_ts)
			return -EINVAL;
		delta = ts - pb->last_ts;
	}
	/* common case: the event and its delta fit the open page */
	if (!pb->open || pb->used + size + (delta > TS_MASK ? 8 : 0) >
			 capacity(pb, pb->missed != 0) || (delta >> TS_SHIFT) > UINT32_MAX) {
		ret = next_page(pb, ts, size);
		if (ret)
			return ret;
		delta = 0;
	}

	p = pb->page + pb->hdr_size + pb->used;
	if (delta > TS_MASK) {
		put_word(pb, p, TYPE_TIME_EXTEND, (uint32_t)(delta & TS_MASK));
		p2d_put32(p + 4, (uint32_t)(delta >> TS_SHIFT), pb->swap);
		p += 8;
		pb->used += 8;
		pb->extends++;
	} else {
		delta32 = (uint32_t)delta;
	}
	if (len4 <= SMALL_DATA_MAX) {
		put_word(pb, p, len4 / 4, delta32);
		p += 4;
	} else {
		put_word(pb, p, 0, delta32);
		p2d_put32(p + 4, len4 + 4, pb->swap);
		p += 8;
	}
	/* the padding to 4 bytes must be zero: clear the last word first */
	memset(p + len4 - 4, 0, 4);
	memcpy(p, data, len);
	pb->used += size;
	pb->last_ts = ts;
	pb->events++;
	return 0;
}

/**
 * p2d_pb_add_run - add events in time order
 * @pb: builder
 * @e: the events (payload addresses in @off)
 * @n: how many
 * @done: set to how many were added
 *
 * As p2d_pb_add() for each, stopping at the first that fails. The common
 * case (a little-endian output in this host's order, a small event with a
 * short delta that fits the open page) is written with the page's state in
 * locals: the same bytes p2d_pb_add_fast() writes.
 *
 * Returns 0, or p2d_pb_add()'s error for event *@done.
 */
int p2d_pb_add_run(struct p2d_page_builder *pb, const struct p2d_qentry *e, size_t n,
		   size_t *done)
{
	size_t i = 0, start;
	int ret = 0;

	if (pb->swap || pb->big_endian) {
		for (; i < n; i++) {
			ret = p2d_pb_add_fast(pb, e[i].ts, (const void *)(uintptr_t)e[i].off,
					      e[i].len);
			if (ret)
				break;
		}
		*done = i;
		return ret;
	}
	while (i < n) {
		if (pb->open) {
			/* the page's free bytes, less an event's header word */
			uint8_t *base = pb->page + pb->hdr_size, *p = base + pb->used;
			const uint8_t *lim = base + pb->page_size - pb->hdr_size -
					     (pb->missed ? pb->long_size : 0) - 4;
			const struct p2d_qentry *x = e + i, *end = e + n;
			uint64_t last = pb->last_ts;

			for (; x < end; x++) {
				/* 0 for an empty payload: p2d_pb_add() gives it 4 bytes */
				uint32_t len = x->len, len4 = ((len - 1) | 3) + 1;
				uint64_t delta = x->ts - last;

				/* an earlier time makes @delta wrap, too large */
				if (delta >= (1u << P2D_PB_TS_SHIFT) ||
				    len4 - 4 > P2D_PB_SMALL_MAX - 4 || (ptrdiff_t)len4 > lim - p)
					break;
				p2d_put32(p, len4 / 4 | (uint32_t)delta << 5, false);
				memset(p + len4, 0, 4);
				p2d_copy_short(p + 4, (const void *)(uintptr_t)x->off, len);
				p += 4 + len4;
				last = x->ts;
			}
			start = i;
			i = (size_t)(x - e);
			pb->used = (uint32_t)(p - base);
			pb->last_ts = last;
			pb->events += i - start;
			if (i == n)
				break;
		}
		ret = p2d_pb_add(pb, e[i].ts, (const void *)(uintptr_t)e[i].off, e[i].len);
		if (ret)
			break;
		i++;
	}
	*done = i;
	return ret;
}

/**
 * p2d_pb_lost - note that @count events were lost at this point
 * @pb: builder
 * @count: events lost (0 is ignored)
 *
 * The current page is closed; the next one is flagged with the loss, the
 * way the kernel reports overruns to readers.
 *
 * Returns 0 or the flush callback's error.
 */
int p2d_pb_lost(struct p2d_page_builder *pb, uint64_t count)
{
	int ret = 0;

	if (!count)
		return 0;
	if (pb->open) {
		ret = close_page(pb, pb->missed);
		pb->missed = 0;
	}
	pb->missed += count;
	return ret;
}

/**
 * p2d_pb_lost_before - note that @count events were lost at some time before
 * the events of the open page
 * @pb: builder
 * @count: events lost (0 is ignored)
 *
 * For losses whose time is unknown (perf reports some only when it stops):
 * the open page is flagged, so readers show them before its first event.
 * Without an open page, or without room in it for the count, they go to the
 * next page as with p2d_pb_lost().
 *
 * Returns 0 or the flush callback's error.
 */
int p2d_pb_lost_before(struct p2d_page_builder *pb, uint64_t count)
{
	if (!count)
		return 0;
	if (pb->open && (pb->missed ||
			 pb->hdr_size + pb->used + pb->long_size <= pb->page_size)) {
		pb->missed += count;
		return 0;
	}
	return p2d_pb_lost(pb, count);
}

/**
 * p2d_pb_finish - flush the last page
 * @pb: builder
 *
 * A loss after the last event is written as an empty page carrying it.
 *
 * Returns 0 or the flush callback's error.
 */
int p2d_pb_finish(struct p2d_page_builder *pb)
{
	int ret = 0;

	if (pb->open) {
		ret = close_page(pb, pb->missed);
		pb->missed = 0;
	}
	if (!ret && pb->missed) {
		open_page(pb, pb->last_ts);
		ret = close_page(pb, pb->missed);
		pb->missed = 0;
	}
	return ret;
}
