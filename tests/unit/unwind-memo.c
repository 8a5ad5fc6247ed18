// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the kept unwindings (unwind-memo.c): a sample with the same
 * registers, in the same Dwfl generation, gets the kept frames only when
 * every word the kept unwinding read reads the same now (failures too);
 * anything else is unwound again.
 */
#include <stdlib.h>
#include <string.h>

#include "unwind-memo.h"
#include "unit.h"

/* A fake memory: words at 0x1000 + 8 * i, readable below 0x1000 + 8 * 16 */
struct mem {
	uint64_t	w[16];
	unsigned int	reads;
};

static bool mem_read(void *arg, uint64_t addr, uint64_t *value)
{
	struct mem *m = arg;

	m->reads++;
	if (addr < 0x1000 || addr >= 0x1000 + 8 * 16 || addr % 8)
		return false;
	*value = m->w[(addr - 0x1000) / 8];
	return true;
}

static struct p2d_uw_sample sample(const uint8_t *regs)
{
	struct p2d_uw_sample s = { .pid = 1, .tid = 1, .abi = 2, .mask = 0x7,
				   .regs = regs, .nr_regs = 3 };

	return s;
}

/* An unwinding that read words 0 and 3 and a failing address, keeping 2 frames */
static void keep_one(struct p2d_uw_memo *m, struct mem *mem, uint64_t gen,
		     const struct p2d_uw_sample *s)
{
	static const uint64_t frames[] = { 0x400100, 0x400200 };
	uint64_t v;

	p2d_uw_memo_begin(m);
	CHECK(mem_read(mem, 0x1000, &v));
	p2d_uw_memo_log(m, 0x1000, true, v);
	CHECK(mem_read(mem, 0x1018, &v));
	p2d_uw_memo_log(m, 0x1018, true, v);
	p2d_uw_memo_log(m, 0x9000, false, 0);
	p2d_uw_memo_keep(m, gen, s, frames, 2, false);
}

static void test_same_sample(void)
{
	struct p2d_uw_memo *m = p2d_uw_memo_new();
	uint8_t regs[24] = { 1, 2, 3 };
	struct p2d_uw_sample s = sample(regs);
	struct mem mem = { .w = { 7, 8, 9, 10 } };
	uint64_t frames[P2D_UNWIND_MAX];
	uint32_t n = 0;
	bool stopped = true;

	CHECK(m);
	CHECK(!p2d_uw_memo_find(m, 5, &s, mem_read, &mem, frames, &n, &stopped));
	keep_one(m, &mem, 5, &s);
	CHECK(p2d_uw_memo_find(m, 5, &s, mem_read, &mem, frames, &n, &stopped));
	CHECK_EQ(n, 2);
	CHECK_EQ(frames[0], 0x400100);
	CHECK_EQ(frames[1], 0x400200);
	CHECK(!stopped);
	/* another generation of the Dwfl: unwound again */
	CHECK(!p2d_uw_memo_find(m, 6, &s, mem_read, &mem, frames, &n, &stopped));
	p2d_uw_memo_free(m);
}

static void test_differences(void)
{
	struct p2d_uw_memo *m = p2d_uw_memo_new();
	uint8_t regs[24] = { 1, 2, 3 }, other[24] = { 1, 2, 4 };
	struct p2d_uw_sample s = sample(regs), t = sample(other);
	struct mem mem = { .w = { 7, 8, 9, 10 } };
	uint64_t frames[P2D_UNWIND_MAX];
	uint32_t n = 0;
	bool stopped = false;

	keep_one(m, &mem, 5, &s);
	/* another register */
	CHECK(!p2d_uw_memo_find(m, 5, &t, mem_read, &mem, frames, &n, &stopped));
	/* a word it did not read changed: still the same frames */
	mem.w[1] = 99;
	CHECK(p2d_uw_memo_find(m, 5, &s, mem_read, &mem, frames, &n, &stopped));
	/* a word it read changed */
	mem.w[3] = 11;
	CHECK(!p2d_uw_memo_find(m, 5, &s, mem_read, &mem, frames, &n, &stopped));
	p2d_uw_memo_free(m);
}

/* A read that failed must fail again */
static bool read_all(void *arg, uint64_t addr, uint64_t *value)
{
	(void)arg;
	*value = addr;
	return true;
}

static void test_failed_read(void)
{
	struct p2d_uw_memo *m = p2d_uw_memo_new();
	uint8_t regs[24] = { 1, 2, 3 };
	struct p2d_uw_sample s = sample(regs);
	struct mem mem = { .w = { 0x1000, 8, 9, 0x1018 } };
	uint64_t frames[P2D_UNWIND_MAX];
	uint32_t n = 0;
	bool stopped = false;

	keep_one(m, &mem, 5, &s);
	CHECK(!p2d_uw_memo_find(m, 5, &s, read_all, NULL, frames, &n, &stopped));
	CHECK(p2d_uw_memo_find(m, 5, &s, mem_read, &mem, frames, &n, &stopped));
	p2d_uw_memo_free(m);
}

/* More words read than are kept: not kept */
static void test_too_many_reads(void)
{
	struct p2d_uw_memo *m = p2d_uw_memo_new();
	uint8_t regs[24] = { 1, 2, 3 };
	struct p2d_uw_sample s = sample(regs);
	uint64_t frames[P2D_UNWIND_MAX] = { 1 };
	uint32_t n = 0, i;
	bool stopped = false;

	p2d_uw_memo_begin(m);
	for (i = 0; i < 100000; i++)
		p2d_uw_memo_log(m, i, true, i);
	p2d_uw_memo_keep(m, 5, &s, frames, 1, true);
	CHECK(!p2d_uw_memo_find(m, 5, &s, read_all, NULL, frames, &n, &stopped));
	p2d_uw_memo_free(m);
}

int main(void)
{
	test_same_sample();
	test_differences();
	test_failed_read();
	test_too_many_reads();
	return unit_done("unwind-memo");
}
