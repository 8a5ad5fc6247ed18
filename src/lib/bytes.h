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

/* 16 bytes, moved as one (an unaligned vector load or store) */
struct p2d_16 {
	uint8_t b[16];
};

/**
 * p2d_copy_short - memcpy() for the short payloads of tracepoint events
 * @dst: destination
 * @src: source (not overlapping @dst)
 * @n: bytes
 *
 * Inline, as two to five loads and stores of 16, 8 or 4 bytes that may
 * overlap, for up to 80 bytes (a sched_switch payload is 68): every
 * event's payload is copied twice (into the reorder queue, then into its
 * page), and a call of memcpy() costs more instructions than such a copy
 * (bench/results/instructions.md). Longer copies go to memcpy().
 */
static inline void p2d_copy_short(void *dst, const void *src, size_t n)
{
	const uint8_t *s = src;
	uint8_t *d = dst;

	if (n - 16 <= 64 - 16) {		/* 16 to 64 bytes: most */
		struct p2d_16 a, b, c, e;

		memcpy(&a, s, 16);
		memcpy(&e, s + n - 16, 16);
		if (n > 32) {
			memcpy(&b, s + 16, 16);
			memcpy(&c, s + n - 32, 16);
			memcpy(d + 16, &b, 16);
			memcpy(d + n - 32, &c, 16);
		}
		memcpy(d, &a, 16);
		memcpy(d + n - 16, &e, 16);
	} else if (n - 65 <= 80 - 65) {
		struct p2d_16 v[5];

		memcpy(&v[0], s, 16);
		memcpy(&v[1], s + 16, 16);
		memcpy(&v[2], s + 32, 16);
		memcpy(&v[3], s + 48, 16);
		memcpy(&v[4], s + n - 16, 16);
		memcpy(d, &v[0], 16);
		memcpy(d + 16, &v[1], 16);
		memcpy(d + 32, &v[2], 16);
		memcpy(d + 48, &v[3], 16);
		memcpy(d + n - 16, &v[4], 16);
	} else if (n > 80) {
		memcpy(d, s, n);
	} else if (n >= 8) {
		uint64_t a, e;

		memcpy(&a, s, 8);
		memcpy(&e, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &e, 8);
	} else if (n >= 4) {
		uint32_t a, e;

		memcpy(&a, s, 4);
		memcpy(&e, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &e, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

#endif /* P2D_BYTES_H */
