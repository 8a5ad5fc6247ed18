/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Byte order: alignment-safe loads and stores, optionally swapped */
#ifndef P2D_BYTES_H
#define P2D_BYTES_H

#include <byteswap.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t p2d_get16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_16(v) : v;
}

static inline uint32_t p2d_get32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static inline uint64_t p2d_get64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

static inline void p2d_put16(void *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline void p2d_put32(void *p, uint32_t v, bool swap)
{
	if (swap)
		v = bswap_32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void p2d_put64(void *p, uint64_t v, bool swap)
{
	if (swap)
		v = bswap_64(v);
	memcpy(p, &v, sizeof(v));
}

static inline bool p2d_host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

#endif /* P2D_BYTES_H */
