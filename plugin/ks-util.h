/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Two small helpers the plugin's C parts share (stacks.c, blocked.c): an
 * array grown by doubling, and a number field of a record.
 */
#ifndef P2D_KS_UTIL_H
#define P2D_KS_UTIL_H

#include <errno.h>
#include <stdlib.h>

#include "event-parse.h"

/* *@p, of *@cap elements of @size bytes, made to hold @need (0 or -ENOMEM) */
static inline int p2d_ks_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* Field @f of @rec, -1 when there is no such field */
static inline long long p2d_ks_number(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return -1;
	return (long long)v;
}

#endif /* P2D_KS_UTIL_H */
