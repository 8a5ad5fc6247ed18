/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unwindings kept for samples that come again (unwind-memo.c): a sample
 * with the registers of an earlier one, in the same process's Dwfl, whose
 * stack holds what that unwinding read, unwinds to the same frames.
 */
#ifndef P2D_UNWIND_MEMO_H
#define P2D_UNWIND_MEMO_H

#include "unwind.h"

struct p2d_uw_memo;

/**
 * typedef p2d_uw_read_fn - read a word of the sample's memory, as the unwinding does
 * @arg: the caller's argument
 * @addr: the address
 * @value: set to the word
 *
 * Returns false when it cannot be read.
 */
typedef bool (*p2d_uw_read_fn)(void *arg, uint64_t addr, uint64_t *value);

struct p2d_uw_memo *p2d_uw_memo_new(void) __hidden;
void p2d_uw_memo_free(struct p2d_uw_memo *m) __hidden;
void p2d_uw_memo_begin(struct p2d_uw_memo *m) __hidden;
void p2d_uw_memo_log(struct p2d_uw_memo *m, uint64_t addr, bool ok, uint64_t value) __hidden;
void p2d_uw_memo_keep(struct p2d_uw_memo *m, uint64_t gen, const struct p2d_uw_sample *s,
		      const uint64_t *frames, uint32_t n, bool stopped_short) __hidden;
bool p2d_uw_memo_find(struct p2d_uw_memo *m, uint64_t gen, const struct p2d_uw_sample *s,
		      p2d_uw_read_fn read, void *arg, uint64_t *frames, uint32_t *n,
		      bool *stopped_short) __hidden;

#endif /* P2D_UNWIND_MEMO_H */
