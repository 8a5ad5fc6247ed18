/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ring-buffer pages as the kernel's ftrace writes them (pages.c) */
#ifndef P2D_PAGES_H
#define P2D_PAGES_H

#include "p2d-local.h"

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
struct p2d_qentry;
int p2d_pb_add_run(struct p2d_page_builder *pb, const struct p2d_qentry *e, size_t n,
		   size_t *done) __hidden;
int p2d_pb_lost(struct p2d_page_builder *pb, uint64_t count) __hidden;
int p2d_pb_lost_before(struct p2d_page_builder *pb, uint64_t count) __hidden;
int p2d_pb_finish(struct p2d_page_builder *pb) __hidden;
uint32_t p2d_pb_max_event(const struct p2d_page_builder *pb) __hidden;

#define P2D_PB_TS_SHIFT		27	/* bits of a delta in an event's header */
#define P2D_PB_SMALL_MAX	112	/* the largest payload its header gives the length of */

/**
 * p2d_pb_add_fast - p2d_pb_add(), the common case inline
 * @pb: builder
 * @ts: timestamp
 * @data: payload
 * @len: payload bytes
 *
 * An event of at most P2D_PB_SMALL_MAX bytes, a short delta, room in the
 * open page: written here, the same bytes p2d_pb_add() writes; anything
 * else goes to p2d_pb_add().
 */
static inline int p2d_pb_add_fast(struct p2d_page_builder *pb, uint64_t ts, const void *data,
				  uint32_t len)
{
	uint32_t len4 = len ? (len + 3) & ~3u : 4, room, word;
	uint64_t delta = ts - pb->last_ts;
	uint8_t *p;

	room = pb->page_size - pb->hdr_size - (pb->missed ? pb->long_size : 0);
	if (!pb->open || ts < pb->last_ts || len4 > P2D_PB_SMALL_MAX ||
	    delta >= (1u << P2D_PB_TS_SHIFT) || pb->used + 4 + len4 > room)
		return p2d_pb_add(pb, ts, data, len);
	p = pb->page + pb->hdr_size + pb->used;
	word = pb->big_endian ? (len4 / 4) << P2D_PB_TS_SHIFT | (uint32_t)delta :
	       len4 / 4 | (uint32_t)delta << 5;
	p2d_put32(p, word, pb->swap);
	memset(p + len4, 0, 4);
	memcpy(p + 4, data, len);
	pb->used += 4 + len4;
	pb->last_ts = ts;
	pb->events++;
	return 0;
}

#endif /* P2D_PAGES_H */
