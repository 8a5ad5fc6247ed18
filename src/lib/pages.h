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
int p2d_pb_lost(struct p2d_page_builder *pb, uint64_t count) __hidden;
int p2d_pb_lost_before(struct p2d_page_builder *pb, uint64_t count) __hidden;
int p2d_pb_finish(struct p2d_page_builder *pb) __hidden;
uint32_t p2d_pb_max_event(const struct p2d_page_builder *pb) __hidden;

#endif /* P2D_PAGES_H */
