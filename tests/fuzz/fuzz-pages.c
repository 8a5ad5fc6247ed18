// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target of the page builder: the input drives a sequence of
 * events and losses (time steps of every size, payloads of every length,
 * page sizes and long sizes, both byte orders) and the pages are read back
 * with libtraceevent's kbuffer, the reader trace-cmd uses: every event must
 * come back with its timestamp, size and bytes, in order, and every loss
 * as a missed-events mark before the next event.
 */
#include <kbuffer.h>

#include "pages.h"
#include "fuzz.h"

#define MAX_EVENTS	4096
#define MAX_PAGES	512

struct want {
	uint64_t	ts;
	uint32_t	len;
	const uint8_t	*data;
	uint64_t	missed_before;
};

struct run {
	uint8_t		*pages;
	size_t		n;
	uint32_t	page_size;
};

static int collect(void *ctx, const uint8_t *page, size_t size)
{
	struct run *r = ctx;

	if (r->n == MAX_PAGES)
		return -ENOSPC;
	memcpy(r->pages + r->n * size, page, size);
	r->n++;
	return 0;
}

/* Bytes of the input, as a little reader */
struct in {
	const uint8_t	*p;
	size_t		left;
};

static uint64_t take(struct in *in, unsigned int bytes)
{
	uint64_t v = 0;

	while (bytes-- && in->left) {
		v = v << 8 | *in->p++;
		in->left--;
	}
	return v;
}

static void check(struct run *r, const struct want *w, unsigned int nw, uint32_t long_size,
		  bool big)
{
	struct kbuffer *kb = kbuffer_alloc(long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   big ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	unsigned long long ts;
	unsigned int i = 0;
	size_t pg;
	void *data;
	int missed;

	if (!kb)
		abort();
	for (pg = 0; pg < r->n; pg++) {
		kbuffer_load_subbuffer(kb, r->pages + pg * r->page_size);
		missed = kbuffer_missed_events(kb);
		for (data = kbuffer_read_event(kb, &ts); data; data = kbuffer_next_event(kb, &ts)) {
			if (i >= nw || ts != w[i].ts ||
			    (uint32_t)kbuffer_event_size(kb) != ((w[i].len ? w[i].len : 1) + 3) / 4 * 4 ||
			    memcmp(data, w[i].data, w[i].len) ||
			    (w[i].missed_before && missed != (int)w[i].missed_before &&
			     missed != -1) || (!w[i].missed_before && missed))
				abort();
			missed = 0;
			i++;
		}
	}
	if (i != nw)
		abort();
	kbuffer_free(kb);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct want w[MAX_EVENTS];
	struct in in = { data, size };
	struct p2d_page_builder pb;
	struct run r = { NULL, 0, 0 };
	uint64_t ts = take(&in, 4), pending = 0;
	uint32_t long_size = take(&in, 1) & 1 ? 4 : 8, len, cap;
	bool big = take(&in, 1) & 1;
	unsigned int nw = 0, op;
	int ret;

	r.page_size = 256u << (take(&in, 1) % 6);	/* 256 .. 8192 */
	r.pages = malloc((size_t)MAX_PAGES * r.page_size);
	if (!r.pages || p2d_pb_init(&pb, r.page_size, long_size, big, collect, &r))
		abort();
	cap = p2d_pb_max_event(&pb);
	while (in.left && nw < MAX_EVENTS) {
		op = (unsigned int)take(&in, 1);
		if (op < 16) {			/* a loss */
			pending += op + 1;
			if (p2d_pb_lost(&pb, op + 1))
				goto full;
			continue;
		}
		/* a time step: small mostly, sometimes past 2^27 or 2^32 */
		ts += op < 200 ? take(&in, 1) : op < 250 ? take(&in, 4) : take(&in, 6);
		len = (uint32_t)(take(&in, 2) % (cap + 64));
		if (len > in.left)
			len = (uint32_t)in.left;
		ret = p2d_pb_add(&pb, ts, in.p, len);
		if (ret == -E2BIG) {
			if (len <= cap)
				abort();
		} else if (ret == -ENOSPC) {
			goto full;
		} else if (ret) {
			abort();
		} else {
			w[nw++] = (struct want){ ts, len, in.p, pending };
			pending = 0;
		}
		in.p += len;
		in.left -= len;
	}
	if (p2d_pb_finish(&pb) == 0)
		check(&r, w, nw, long_size, big);
full:
	p2d_pb_release(&pb);
	free(r.pages);
	return 0;
}
