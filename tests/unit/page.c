// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the ring-buffer page builder. Pages are read back with
 * libtraceevent's kbuffer, the reader trace-cmd itself uses, so the
 * expectation does not come from our own encoder.
 */
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>

#include "pages.h"
#include "unit.h"

#define MAX_PAGES 64

struct sink {
	uint8_t		pages[MAX_PAGES][8192];
	int		n;
	uint32_t	size;
};

static int collect(void *ctx, const uint8_t *page, size_t size)
{
	struct sink *s = ctx;

	if (s->n >= MAX_PAGES || size > sizeof(s->pages[0]))
		return -ENOSPC;
	memcpy(s->pages[s->n++], page, size);
	s->size = (uint32_t)size;
	return 0;
}

struct rec {
	unsigned long long	ts;
	int			size;
	const uint8_t		*data;
	int			missed;	/* missed events reported at this record */
};

/* Read every event of every page back with kbuffer */
static int read_back(struct sink *s, int long_size, bool big, struct rec *out, int max)
{
	struct kbuffer *kb = kbuffer_alloc(long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   big ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	unsigned long long ts;
	int i, n = 0, missed;
	void *data;

	for (i = 0; i < s->n; i++) {
		kbuffer_load_subbuffer(kb, s->pages[i]);
		missed = kbuffer_missed_events(kb);
		for (data = kbuffer_read_event(kb, &ts); data && n < max;
		     data = kbuffer_next_event(kb, &ts)) {
			out[n].ts = ts;
			out[n].size = kbuffer_event_size(kb);
			out[n].data = data;
			out[n].missed = missed;
			missed = 0;
			n++;
		}
	}
	kbuffer_free(kb);
	return n;
}

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static void test_small_events(void)
{
	static struct sink s;
	struct p2d_page_builder pb;
	struct rec r[16];
	uint8_t ev[3][40];
	int i;

	memset(&s, 0, sizeof(s));
	CHECK_EQ(p2d_pb_init(&pb, 4096, 8, false, collect, &s), 0);
	for (i = 0; i < 3; i++) {
		fill(ev[i], sizeof(ev[i]), (uint8_t)i);
		CHECK_EQ(p2d_pb_add(&pb, 1000 + i * 10, ev[i], 36 + i), 0);
	}
	CHECK_EQ(p2d_pb_finish(&pb), 0);
	CHECK_EQ(s.n, 1);
	CHECK_EQ(read_back(&s, 8, false, r, 16), 3);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(r[i].ts, 1000 + i * 10);
		/* payloads are padded to 4 bytes */
		CHECK_EQ(r[i].size, (36 + i + 3) & ~3);
		CHECK(!memcmp(r[i].data, ev[i], 36 + i));
	}
	/* page timestamp is the first event's */
	CHECK_EQ(p2d_get64(s.pages[0], false), 1000);
	p2d_pb_release(&pb);
}

static void test_time_extend(void)
{
	static struct sink s;
	struct p2d_page_builder pb;
	unsigned long long t[] = {
		5, 5 + (1ull << 27) - 1, 5 + (1ull << 27) * 2, 5 + (1ull << 27) * 2 + 1,
		5 + (1ull << 40), 5 + (1ull << 40) + 7ull * 1000000000, 1ull << 62,
	};
	struct rec r[16];
	uint8_t ev[16];
	unsigned int i, n = sizeof(t) / sizeof(t[0]);

	memset(&s, 0, sizeof(s));
	fill(ev, sizeof(ev), 3);
	CHECK_EQ(p2d_pb_init(&pb, 4096, 8, false, collect, &s), 0);
	for (i = 0; i < n; i++)
		CHECK_EQ(p2d_pb_add(&pb, t[i], ev, sizeof(ev)), 0);
	CHECK_EQ(p2d_pb_finish(&pb), 0);
	CHECK_EQ(read_back(&s, 8, false, r, 16), n);
	for (i = 0; i < n; i++)
		CHECK_EQ(r[i].ts, t[i]);
	CHECK(pb.extends >= 3);
	/* a timestamp going backwards is refused */
	CHECK_EQ(p2d_pb_add(&pb, 1, ev, sizeof(ev)), 0);
	CHECK_EQ(p2d_pb_add(&pb, 0, ev, sizeof(ev)), -EINVAL);
	p2d_pb_release(&pb);
}

static void test_long_events(void)
{
	static struct sink s;
	static uint8_t big[3000];
	struct p2d_page_builder pb;
	uint32_t sizes[] = { 108, 112, 113, 116, 500, 2999, 3000 };
	struct rec r[16];
	unsigned int i, n = sizeof(sizes) / sizeof(sizes[0]);

	memset(&s, 0, sizeof(s));
	fill(big, sizeof(big), 9);
	CHECK_EQ(p2d_pb_init(&pb, 4096, 8, false, collect, &s), 0);
	for (i = 0; i < n; i++)
		CHECK_EQ(p2d_pb_add(&pb, 100 + i, big, sizes[i]), 0);
	CHECK_EQ(p2d_pb_finish(&pb), 0);
	CHECK_EQ(read_back(&s, 8, false, r, 16), n);
	for (i = 0; i < n; i++) {
		CHECK_EQ(r[i].ts, 100 + i);
		CHECK_EQ(r[i].size, (sizes[i] + 3) & ~3u);
		CHECK(!memcmp(r[i].data, big, sizes[i]));
	}
	/* the 112-byte event uses type_len 28, the 113-byte one the length word */
	CHECK_EQ(p2d_get32(s.pages[0] + 16 + 4 + 108, false) & 31, 28);
	/* bigger than a page: refused, nothing written */
	CHECK_EQ(p2d_pb_add(&pb, 200, big, 4096 - 16 - 7), -E2BIG);
	p2d_pb_release(&pb);
}

static void test_page_boundaries(void)
{
	static struct sink s;
	struct p2d_page_builder pb;
	static struct rec r[400];
	uint8_t ev[60];
	uint32_t commit;
	int i, n = 300, total = 0;

	memset(&s, 0, sizeof(s));
	CHECK_EQ(p2d_pb_init(&pb, 4096, 8, false, collect, &s), 0);
	for (i = 0; i < n; i++) {
		fill(ev, sizeof(ev), (uint8_t)i);
		CHECK_EQ(p2d_pb_add(&pb, 1000000ull + (uint64_t)i * 100, ev, sizeof(ev)), 0);
	}
	CHECK_EQ(p2d_pb_finish(&pb), 0);
	/* 64 bytes per event, 4080 data bytes per page: 63 events a page */
	CHECK_EQ(s.n, (n + 62) / 63);
	for (i = 0; i < s.n; i++) {
		commit = (uint32_t)p2d_get64(s.pages[i] + 8, false);
		CHECK(commit <= 4096 - 16);
		CHECK_EQ(commit % 64, 0);
		total += commit / 64;
		/* the unused tail of a page is zero */
		CHECK(s.pages[i][4095] == 0);
	}
	CHECK_EQ(total, n);
	CHECK_EQ(read_back(&s, 8, false, r, 400), n);
	for (i = 0; i < n; i++) {
		fill(ev, sizeof(ev), (uint8_t)i);
		CHECK_EQ(r[i].ts, 1000000ull + (uint64_t)i * 100);
		CHECK(!memcmp(r[i].data, ev, sizeof(ev)));
	}
	/* each page starts at its first event's time */
	CHECK_EQ(p2d_get64(s.pages[1], false), 1000000ull + 63 * 100);
	p2d_pb_release(&pb);
}

static void test_lost(void)
{
	static struct sink s;
	struct p2d_page_builder pb;
	struct rec r[8];
	uint8_t ev[20];

	memset(&s, 0, sizeof(s));
	fill(ev, sizeof(ev), 1);
	CHECK_EQ(p2d_pb_init(&pb, 4096, 8, false, collect, &s), 0);
	CHECK_EQ(p2d_pb_add(&pb, 10, ev, sizeof(ev)), 0);
	CHECK_EQ(p2d_pb_lost(&pb, 42), 0);
	CHECK_EQ(p2d_pb_lost(&pb, 8), 0);
	CHECK_EQ(p2d_pb_add(&pb, 20, ev, sizeof(ev)), 0);
	CHECK_EQ(p2d_pb_add(&pb, 30, ev, sizeof(ev)), 0);
	CHECK_EQ(p2d_pb_lost(&pb, 5), 0);
	CHECK_EQ(p2d_pb_finish(&pb), 0);
	/* page 1: event 10; page 2 (50 lost before it): 20, 30; page 3: empty, 5 lost */
	CHECK_EQ(s.n, 3);
	CHECK_EQ(read_back(&s, 8, false, r, 8), 3);
	CHECK_EQ(r[0].missed, 0);
	CHECK_EQ(r[1].missed, 50);
	CHECK_EQ(r[2].missed, 0);
	CHECK_EQ(p2d_get64(s.pages[2] + 8, false) >> 30, 3);
	p2d_pb_release(&pb);
}

static void test_geometry(bool big, int long_size, uint32_t page_size)
{
	static struct sink s;
	struct p2d_page_builder pb;
	static struct rec r[200];
	uint8_t ev[130];
	int i, n = 150;

	memset(&s, 0, sizeof(s));
	CHECK_EQ(p2d_pb_init(&pb, page_size, (uint32_t)long_size, big, collect, &s), 0);
	for (i = 0; i < n; i++) {
		fill(ev, sizeof(ev), (uint8_t)i);
		CHECK_EQ(p2d_pb_add(&pb, (1ull << 33) * (uint64_t)i + 1, ev,
				    (uint32_t)(i % 2 ? 130 : 24)), 0);
	}
	CHECK_EQ(p2d_pb_finish(&pb), 0);
	CHECK_EQ(read_back(&s, long_size, big, r, 200), n);
	for (i = 0; i < n; i++) {
		fill(ev, sizeof(ev), (uint8_t)i);
		CHECK_EQ(r[i].ts, (1ull << 33) * (uint64_t)i + 1);
		CHECK(!memcmp(r[i].data, ev, i % 2 ? 130 : 24));
	}
	p2d_pb_release(&pb);
}

static void test_bad_geometry(void)
{
	struct p2d_page_builder pb;

	CHECK_EQ(p2d_pb_init(&pb, 4000, 8, false, collect, NULL), -EINVAL);
	CHECK_EQ(p2d_pb_init(&pb, 4096, 2, false, collect, NULL), -EINVAL);
	CHECK_EQ(p2d_pb_init(&pb, 64, 8, false, collect, NULL), -EINVAL);
}

int main(void)
{
	test_small_events();
	test_time_extend();
	test_long_events();
	test_page_boundaries();
	test_lost();
	test_geometry(false, 4, 4096);
	test_geometry(true, 8, 4096);
	test_geometry(true, 4, 8192);
	test_bad_geometry();
	return unit_done("unit-page");
}
