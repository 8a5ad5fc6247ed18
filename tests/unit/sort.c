// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the reorder queue: per-CPU time order, perf's round rule
 * (release up to the newest time of the previous round), stability for
 * equal timestamps, late events, lost marks, the memory cap, and the
 * side-band queue (one time order across CPUs, records without a time at
 * once), and rounds released later (p2d_reorder_round_lazy()).
 */
#include <stdlib.h>

#include "reorder.h"
#include "unit.h"

#define MAX_OUT 200000

struct out {
	uint32_t	cpu;
	uint64_t	ts;
	uint64_t	len;
	uint8_t		tag;
	bool		lost;
};

static struct out outs[MAX_OUT];
static int nout;

static int collect(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data, uint64_t len)
{
	if (nout >= MAX_OUT)
		return -ENOSPC;
	outs[nout].cpu = cpu;
	outs[nout].ts = ts;
	outs[nout].len = len;
	outs[nout].lost = !data;
	outs[nout].tag = data ? data[0] : 0;
	nout++;
	return 0;
}

static int add(struct p2d_reorder *s, uint32_t cpu, uint64_t ts, uint8_t tag)
{
	uint8_t ev[16] = { tag };

	return p2d_reorder_add(s, cpu, ts, ev, sizeof(ev));
}

static void test_rounds(void)
{
	struct p2d_reorder *s = p2d_reorder_new(collect, NULL, NULL);

	nout = 0;
	add(s, 0, 10, 1);
	add(s, 0, 20, 2);
	CHECK_EQ(p2d_reorder_round(s), 0);
	/* nothing is certain after the first round */
	CHECK_EQ(nout, 0);
	add(s, 1, 15, 3);
	add(s, 0, 30, 4);
	add(s, 1, 25, 5);
	CHECK_EQ(p2d_reorder_round(s), 0);
	/* up to 20, the newest time of the previous round */
	CHECK_EQ(nout, 3);
	CHECK(outs[0].cpu == 0 && outs[0].ts == 10 && outs[1].ts == 20);
	CHECK(outs[2].cpu == 1 && outs[2].ts == 15);
	CHECK_EQ(p2d_reorder_flush(s), 0);
	CHECK_EQ(nout, 5);
	CHECK(outs[3].cpu == 0 && outs[3].ts == 30);
	CHECK(outs[4].cpu == 1 && outs[4].ts == 25);
	p2d_reorder_free(s);
}

static void test_order(void)
{
	struct p2d_reorder *s = p2d_reorder_new(collect, NULL, NULL);

	nout = 0;
	add(s, 2, 50, 1);
	add(s, 2, 40, 2);
	add(s, 2, 45, 3);
	add(s, 2, 45, 4);	/* same time: stays after the first 45 */
	add(s, 2, 5, 5);
	CHECK_EQ(p2d_reorder_flush(s), 0);
	CHECK_EQ(nout, 5);
	CHECK(outs[0].ts == 5 && outs[1].ts == 40 && outs[2].ts == 45 && outs[3].ts == 45 &&
	      outs[4].ts == 50);
	CHECK(outs[2].tag == 3 && outs[3].tag == 4);
	p2d_reorder_free(s);
}

static void test_late_and_lost(void)
{
	struct p2d_reorder *s = p2d_reorder_new(collect, NULL, NULL);

	nout = 0;
	add(s, 0, 100, 1);
	CHECK_EQ(p2d_reorder_flush(s), 0);
	/* older than what was written: an event cannot go back, a loss can be shown */
	add(s, 0, 90, 2);
	CHECK_EQ(p2d_reorder_late(s), 1);
	CHECK_EQ(p2d_reorder_add_lost(s, 0, 80, 7), 0);
	add(s, 0, 110, 3);
	CHECK_EQ(p2d_reorder_flush(s), 0);
	CHECK_EQ(nout, 3);
	CHECK(outs[1].lost && outs[1].len == 7 && outs[1].ts == 100);
	CHECK(!outs[2].lost && outs[2].ts == 110);
	/* a bad CPU */
	CHECK_EQ(add(s, P2D_MAX_CPUS, 1, 0), -ERANGE);
	p2d_reorder_free(s);
}

static uint64_t cap_count, cap_last[2];
static bool cap_ordered = true;

static int check_order(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data, uint64_t len)
{
	if (cap_count++ && ts < cap_last[cpu])
		cap_ordered = false;
	cap_last[cpu] = ts;
	return 0;
}

static void test_cap(void)
{
	struct p2d_reorder *s = p2d_reorder_new(check_order, NULL, NULL);
	uint64_t i, n = (P2D_QUEUE_CAP / 16) * 3 / 2;
	uint8_t ev[16] = { 0 };
	int bad = 0;

	for (i = 0; i < n; i++)
		bad += p2d_reorder_add(s, (uint32_t)(i % 2), i, ev, sizeof(ev)) != 0;
	CHECK_EQ(bad, 0);
	/* without rounds, the queue releases events once it holds the cap */
	CHECK(cap_count > 0 && cap_count < n);
	CHECK_EQ(p2d_reorder_flush(s), 0);
	CHECK_EQ(cap_count, n);
	CHECK(cap_ordered);
	CHECK_EQ(p2d_reorder_late(s), 0);
	p2d_reorder_free(s);
}

static struct p2d_side sides[64];
static int nside, side_at[64];	/* side_at: events released before each record */

static int collect_side(void *ctx, const struct p2d_side *rec)
{
	if (nside >= 64)
		return -ENOSPC;
	side_at[nside] = nout;
	sides[nside++] = *rec;
	return 0;
}

static int side(struct p2d_reorder *s, uint64_t ts, uint32_t kind, uint32_t tid)
{
	struct p2d_side rec = { .ts = ts, .kind = kind, .tid = tid };

	return p2d_reorder_add_side(s, &rec);
}

static void test_side(void)
{
	struct p2d_reorder *s = p2d_reorder_new(collect, collect_side, NULL);

	nout = nside = 0;
	/* CPU 0's buffer is read first: a fork at 30, then CPU 1's exec at 20 */
	CHECK_EQ(side(s, 30, P2D_SIDE_FORK, 2), 0);
	add(s, 0, 31, 1);
	CHECK_EQ(side(s, 20, P2D_SIDE_COMM, 1), 0);
	/* no timestamp (perf's synthesized records): released at once */
	CHECK_EQ(side(s, 0, P2D_SIDE_COMM, 9), 0);
	CHECK_EQ(nside, 1);
	CHECK(sides[0].tid == 9);
	CHECK_EQ(p2d_reorder_round(s), 0);
	CHECK_EQ(nside, 1);
	CHECK_EQ(side(s, 40, P2D_SIDE_EXIT, 2), 0);
	CHECK_EQ(side(s, 25, P2D_SIDE_COMM, 3), 0);
	/* the second round releases up to 31, the newest time of the first */
	CHECK_EQ(p2d_reorder_round(s), 0);
	CHECK_EQ(nside, 4);
	CHECK(sides[1].ts == 20 && sides[1].tid == 1);
	CHECK(sides[2].ts == 25 && sides[2].tid == 3);
	CHECK(sides[3].ts == 30 && sides[3].kind == P2D_SIDE_FORK);
	CHECK_EQ(nout, 1);
	/* equal times keep their order */
	CHECK_EQ(side(s, 50, P2D_SIDE_COMM, 4), 0);
	CHECK_EQ(side(s, 50, P2D_SIDE_COMM, 5), 0);
	CHECK_EQ(p2d_reorder_flush(s), 0);
	CHECK_EQ(nside, 7);
	CHECK(sides[4].ts == 40 && sides[5].tid == 4 && sides[6].tid == 5);
	p2d_reorder_free(s);

	/* one time order: a record comes after the events before it, on any CPU */
	s = p2d_reorder_new(collect, collect_side, NULL);
	nout = nside = 0;
	add(s, 0, 10, 1);
	add(s, 0, 20, 2);
	add(s, 1, 12, 3);
	add(s, 1, 15, 4);	/* at the record's time: after it */
	CHECK_EQ(side(s, 15, P2D_SIDE_COMM, 7), 0);
	CHECK_EQ(p2d_reorder_flush(s), 0);
	CHECK_EQ(nside, 1);
	CHECK_EQ(side_at[0], 2);
	CHECK(outs[0].ts == 10 && outs[1].ts == 12);
	CHECK_EQ(nout, 4);
	p2d_reorder_free(s);
}

/* One log of what leaves the queue: events (cpu, time, tag) and side-band records */
struct logent {
	uint32_t	cpu;		/* UINT32_MAX: a side-band record */
	uint64_t	ts;
	uint64_t	len;
	uint8_t		tag;
};

static struct logent lazy_log[2][4096];
static int lazy_n[2];
static int lazy_run;

static int lazy_ev(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data, uint64_t len)
{
	struct logent *e = &lazy_log[lazy_run][lazy_n[lazy_run]++];

	e->cpu = cpu;
	e->ts = ts;
	e->len = data ? len : len | 1ull << 40;
	e->tag = data ? data[0] : 0;
	return 0;
}

static int lazy_side(void *ctx, const struct p2d_side *rec)
{
	struct logent *e = &lazy_log[lazy_run][lazy_n[lazy_run]++];

	e->cpu = UINT32_MAX;
	e->ts = rec->ts;
	e->len = rec->tid;
	e->tag = 0;
	return 0;
}

/* The same operations, with rounds released at once (0) or perhaps later (1) */
static uint64_t lazy_play(int run, bool *deferred)
{
	struct p2d_reorder *s = p2d_reorder_new(lazy_ev, lazy_side, NULL);
	uint32_t seed = 12345, r, cpu;
	uint64_t t = 100, late;
	struct p2d_side rec;
	uint8_t ev[16];
	int i, before;

	lazy_run = run;
	lazy_n[run] = 0;
	for (i = 0; i < 3000; i++) {
		seed = seed * 1103515245 + 12345;
		r = seed >> 8;
		cpu = r & 1;
		t += r % 7;
		memset(ev, 0, sizeof(ev));
		ev[0] = (uint8_t)i;
		switch ((r >> 4) % 16) {
		case 0:	/* a round */
			before = lazy_n[run];
			CHECK_EQ(run ? p2d_reorder_round_lazy(s) : p2d_reorder_round(s), 0);
			if (run && lazy_n[run] == before && i > 100)
				*deferred = true;
			break;
		case 1:	/* a side-band record, sometimes without a time or in the past */
			memset(&rec, 0, sizeof(rec));
			rec.kind = P2D_SIDE_COMM;
			rec.tid = (uint32_t)i;
			rec.ts = r & 256 ? 0 : r & 512 ? t - r % 200 : t;
			CHECK_EQ(p2d_reorder_add_side(s, &rec), 0);
			break;
		case 2:	/* a loss */
			CHECK_EQ(p2d_reorder_add_lost(s, cpu, t - r % 50, 1 + r % 3), 0);
			break;
		case 3:	/* an event well in the past: late, or queued before others */
			CHECK_EQ(p2d_reorder_add(s, cpu, t > 300 ? t - 300 + r % 100 : t, ev,
						 sizeof(ev)), 0);
			break;
		default:	/* two streams a CPU, a little out of order */
			CHECK_EQ(p2d_reorder_add(s, cpu, t - r % 30, ev, sizeof(ev)), 0);
			break;
		}
	}
	CHECK_EQ(p2d_reorder_flush(s), 0);
	late = p2d_reorder_late(s);
	p2d_reorder_free(s);
	return late;
}

/* Each CPU's events and the side-band records between them: as with p2d_reorder_round() */
static void test_lazy(void)
{
	bool deferred = false;
	uint64_t late0 = lazy_play(0, &deferred), late1 = lazy_play(1, &deferred);
	const struct logent *a, *b;
	uint32_t cpu;
	int i, j;

	CHECK(deferred);
	CHECK_EQ(late0, late1);
	CHECK(late0 > 0);
	CHECK_EQ(lazy_n[0], lazy_n[1]);
	for (cpu = 0; cpu < 2; cpu++) {
		for (i = j = 0;; i++, j++) {
			while (i < lazy_n[0] && lazy_log[0][i].cpu != cpu &&
			       lazy_log[0][i].cpu != UINT32_MAX)
				i++;
			while (j < lazy_n[1] && lazy_log[1][j].cpu != cpu &&
			       lazy_log[1][j].cpu != UINT32_MAX)
				j++;
			if (i == lazy_n[0] || j == lazy_n[1])
				break;
			a = &lazy_log[0][i];
			b = &lazy_log[1][j];
			CHECK(a->cpu == b->cpu && a->ts == b->ts && a->len == b->len && a->tag == b->tag);
		}
		CHECK(i == lazy_n[0] && j == lazy_n[1]);
	}
}

int main(void)
{
	test_rounds();
	test_order();
	test_late_and_lost();
	test_cap();
	test_side();
	test_lazy();
	return unit_done("unit-sort");
}
