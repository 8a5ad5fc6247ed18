/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libtraceevent (1.7) loses a few bytes inside tep_parse_event() on some
 * damaged formats. libFuzzer runs each input that allocated more than it
 * freed a second time, then scans the whole heap (half a second with
 * hundreds of MiB): with the formats mutated, some 25 times a minute. So a
 * target marks its calls of the parser (tep_losses_enter(), _leave()),
 * what they allocate is watched, and what is left of it after the input,
 * every handle freed, is freed by tep_losses_free(): nothing can refer to
 * it any more.
 *
 * Only under AddressSanitizer: LeakSanitizer alone (clang 14) runs no hook
 * for realloc(), so a block the parser grew would be freed here a second
 * time (found as crashes in libtraceevent's add_event() after thousands of
 * inputs). There libtraceevent's losses are left to tests/hostile/lsan.supp.
 */
#ifndef P2D_TEP_LOSSES_H
#define P2D_TEP_LOSSES_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
					      void (*free_hook)(const volatile void *));

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEP_LOSSES_HOOKS 1
#endif
#endif

#define TEP_LOST_SLOTS	(1u << 14)	/* the parser's blocks alive at once, at most half */
#define TEP_LOST_GONE	1

static __thread int tep_in_parser;
static uintptr_t tep_block[TEP_LOST_SLOTS];	/* open addressing: 0 empty, 1 freed */
static uint32_t tep_nr_blocks, tep_slots_used;
static pthread_mutex_t tep_lock = PTHREAD_MUTEX_INITIALIZER;

static inline uint32_t tep_block_slot(uintptr_t p)
{
	return (uint32_t)(((uint64_t)p * 0x9e3779b97f4a7c15ull) >> 50) & (TEP_LOST_SLOTS - 1);
}

static inline void tep_losses_malloc(const volatile void *ptr, size_t size)
{
	uint32_t i;

	if (!tep_in_parser || !ptr)
		return;
	pthread_mutex_lock(&tep_lock);
	if (tep_slots_used < TEP_LOST_SLOTS / 2) {	/* else libFuzzer sees them */
		for (i = tep_block_slot((uintptr_t)ptr); tep_block[i] > TEP_LOST_GONE;
		     i = (i + 1) & (TEP_LOST_SLOTS - 1))
			;
		tep_slots_used += !tep_block[i];
		tep_block[i] = (uintptr_t)ptr;
		tep_nr_blocks++;
	}
	pthread_mutex_unlock(&tep_lock);
}

static inline void tep_losses_unwatch(const volatile void *ptr)
{
	uint32_t i;

	if (!__atomic_load_n(&tep_nr_blocks, __ATOMIC_RELAXED) || !ptr)
		return;
	pthread_mutex_lock(&tep_lock);
	for (i = tep_block_slot((uintptr_t)ptr); tep_block[i]; i = (i + 1) & (TEP_LOST_SLOTS - 1)) {
		if (tep_block[i] == (uintptr_t)ptr) {
			tep_block[i] = TEP_LOST_GONE;
			tep_nr_blocks--;
			break;
		}
	}
	pthread_mutex_unlock(&tep_lock);
}

/* From LLVMFuzzerInitialize() */
static inline void tep_losses_watch(void)
{
#ifdef TEP_LOSSES_HOOKS
	__sanitizer_install_malloc_and_free_hooks(tep_losses_malloc, tep_losses_unwatch);
#endif
}

static inline void tep_losses_enter(void)
{
	tep_in_parser++;
}

static inline void tep_losses_leave(void)
{
	tep_in_parser--;
}

/* After an input, every handle freed: free what the parser lost */
static inline void tep_losses_free(void)
{
	uint32_t i;
	void *p;

	for (i = 0; i < TEP_LOST_SLOTS && tep_nr_blocks; i++) {
		if (tep_block[i] <= TEP_LOST_GONE)
			continue;
		p = (void *)tep_block[i];
		tep_block[i] = 0;
		tep_nr_blocks--;
		free(p);
	}
	if (tep_slots_used)
		memset(tep_block, 0, sizeof(tep_block));
	tep_nr_blocks = tep_slots_used = 0;
}

#endif /* P2D_TEP_LOSSES_H */
