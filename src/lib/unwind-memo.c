// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unwindings kept for samples that come again.
 *
 * libdwfl's unwinding of a sample is a function of its registers, of the
 * words it reads (the stack copy, or the mapped files) and of the process's
 * Dwfl: it asks for the same words in the same order as long as it is
 * given the same answers. So an unwinding is kept with the registers it
 * started from and every word it read (address, whether it could, value),
 * under the generation of the Dwfl it ran in (a process's maps changed, or
 * its Dwfl was dropped: another generation). A later sample of the same
 * generation with the same registers gives the same frames if each of
 * those addresses still reads the same: it is checked word by word, in
 * order, and the kept frames are the answer, without libdwfl. Samples of a
 * thread blocked in one place (a tracepoint in a system call, a process
 * waiting) come again so: a sixth of the frames of a busy recording.
 *
 * Memory: a table of SLOTS unwindings, one per slot (a new one replaces
 * the slot's), each of at most MAX_READS words read (a few dozen is usual:
 * about 1.3 KiB with its registers and frames); one that read more is not
 * kept.
 */
#include <stdlib.h>
#include <string.h>

#include "unwind-memo.h"

#define SLOTS		512
#define MAX_READS	256
#define MAX_REGS	64

/* A word an unwinding read */
struct memo_read {
	uint64_t	addr;
	uint64_t	value;	/* 0 where it could not be read */
};

/*
 * One kept unwinding: in @mem, its registers (@nr_regs words), the words it
 * read (@nr_reads), then its frames (@n)
 */
struct memo_entry {
	uint64_t		gen;		/* 0: none kept here */
	uint64_t		abi, mask;
	uint32_t		nr_regs, nr_reads, n;
	bool			swap;
	bool			stopped_short;
	uint64_t		failed[MAX_READS / 64];	/* the reads that could not */
	size_t			cap;
	uint64_t		*mem;
};

struct p2d_uw_memo {
	struct memo_entry	*slots;		/* SLOTS */
	struct memo_read	log[MAX_READS];	/* the unwinding going on */
	uint64_t		failed[MAX_READS / 64];
	uint32_t		nr_log;
	bool			overflow;	/* it read more than MAX_READS words */
};

/**
 * p2d_uw_memo_new - a table of kept unwindings
 *
 * Returns it (p2d_uw_memo_free() it), or NULL when out of memory.
 */
struct p2d_uw_memo *p2d_uw_memo_new(void)
{
	struct p2d_uw_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->slots = calloc(SLOTS, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

/**
 * p2d_uw_memo_free - free it
 * @m: the table, may be NULL
 */
void p2d_uw_memo_free(struct p2d_uw_memo *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < SLOTS; i++)
		free(m->slots[i].mem);
	free(m->slots);
	free(m);
}

/**
 * p2d_uw_memo_begin - an unwinding starts: its reads are logged from now on
 * @m: the table
 */
void p2d_uw_memo_begin(struct p2d_uw_memo *m)
{
	m->nr_log = 0;
	m->overflow = false;
	memset(m->failed, 0, sizeof(m->failed));
}

/**
 * p2d_uw_memo_log - the unwinding read a word
 * @m: the table
 * @addr: its address
 * @ok: whether it could be read
 * @value: the word read (when @ok)
 */
void p2d_uw_memo_log(struct p2d_uw_memo *m, uint64_t addr, bool ok, uint64_t value)
{
	if (m->nr_log >= MAX_READS) {
		m->overflow = true;
		return;
	}
	if (!ok)
		m->failed[m->nr_log / 64] |= 1ull << (m->nr_log % 64);
	m->log[m->nr_log++] = (struct memo_read){ addr, ok ? value : 0 };
}

static bool regs_fit(const struct p2d_uw_sample *s)
{
	return s->nr_regs <= MAX_REGS;
}

static struct memo_entry *slot(struct p2d_uw_memo *m, uint64_t gen,
			       const struct p2d_uw_sample *s)
{
	uint64_t h = gen * 0x9e3779b97f4a7c15ull ^ s->mask ^ s->abi << 7;
	size_t i, len = (size_t)s->nr_regs * 8;
	uint64_t w;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, s->regs + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return &m->slots[(h ^ h >> 32) & (SLOTS - 1)];
}

static bool same_key(const struct memo_entry *e, uint64_t gen, const struct p2d_uw_sample *s)
{
	return e->gen == gen && e->abi == s->abi && e->mask == s->mask &&
	       e->nr_regs == s->nr_regs && e->swap == s->swap &&
	       !memcmp(e->mem, s->regs, (size_t)s->nr_regs * 8);
}

/**
 * p2d_uw_memo_keep - keep the unwinding just done (logged since p2d_uw_memo_begin())
 * @m: the table
 * @gen: the generation of the Dwfl it ran in (not 0)
 * @s: the sample
 * @frames: the frames it gave
 * @n: how many
 * @stopped_short: it stopped at a file missing here
 *
 * Not kept when it read too many words, or memory runs out.
 */
void p2d_uw_memo_keep(struct p2d_uw_memo *m, uint64_t gen, const struct p2d_uw_sample *s,
		      const uint64_t *frames, uint32_t n, bool stopped_short)
{
	struct memo_entry *e;
	size_t words;

	if (m->overflow || !gen || !regs_fit(s) || n > P2D_UNWIND_MAX)
		return;
	words = s->nr_regs + 2 * (size_t)m->nr_log + n;
	e = slot(m, gen, s);
	e->gen = 0;
	if (words > e->cap) {
		uint64_t *mem = realloc(e->mem, words * 8);

		if (!mem)
			return;
		e->mem = mem;
		e->cap = words;
	}
	e->abi = s->abi;
	e->mask = s->mask;
	e->nr_regs = s->nr_regs;
	e->swap = s->swap;
	e->stopped_short = stopped_short;
	memcpy(e->failed, m->failed, sizeof(e->failed));
	memcpy(e->mem, s->regs, (size_t)s->nr_regs * 8);
	if (m->nr_log)
		memcpy(e->mem + s->nr_regs, m->log, m->nr_log * sizeof(*m->log));
	e->nr_reads = m->nr_log;
	if (n)
		memcpy(e->mem + s->nr_regs + 2 * (size_t)m->nr_log, frames, n * sizeof(*frames));
	e->n = n;
	e->gen = gen;
}

/**
 * p2d_uw_memo_find - the frames of a kept unwinding that this sample repeats
 * @m: the table
 * @gen: the generation of the process's Dwfl
 * @s: the sample
 * @read: reads a word as the unwinding would (from @s's stack, or a file)
 * @arg: its argument
 * @frames: set to the frames (room for P2D_UNWIND_MAX)
 * @n: set to how many
 * @stopped_short: set to whether it stopped at a file missing here
 *
 * Returns true when one is kept for the same generation and registers, and
 * each word it read reads the same now; else false, and nothing is set.
 */
bool p2d_uw_memo_find(struct p2d_uw_memo *m, uint64_t gen, const struct p2d_uw_sample *s,
		      p2d_uw_read_fn read, void *arg, uint64_t *frames, uint32_t *n,
		      bool *stopped_short)
{
	const struct memo_read *r;
	struct memo_entry *e;
	uint64_t v;
	uint32_t i;
	bool ok;

	if (!gen || !regs_fit(s))
		return false;
	e = slot(m, gen, s);
	if (!same_key(e, gen, s))
		return false;
	r = (const struct memo_read *)(e->mem + e->nr_regs);
	for (i = 0; i < e->nr_reads; i++) {
		v = 0;
		ok = read(arg, r[i].addr, &v);
		if (ok != !(e->failed[i / 64] & 1ull << (i % 64)) || (ok && v != r[i].value))
			return false;
	}
	if (e->n)
		memcpy(frames, e->mem + e->nr_regs + 2 * (size_t)e->nr_reads,
		       e->n * sizeof(*frames));
	*n = e->n;
	*stopped_short = e->stopped_short;
	return true;
}
