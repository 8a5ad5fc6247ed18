/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Checked cursor: every read of input bytes goes through these (cursor.c) */
#ifndef P2D_CURSOR_H
#define P2D_CURSOR_H

#include "p2d-local.h"

/**
 * struct p2d_cursor - a bounds-checked, endian-aware view of input bytes
 * @buf: first byte
 * @len: bytes in @buf
 * @pos: next byte to read
 * @base: input file offset of @buf[0], for messages
 * @swap: the input is in the other byte order
 */
struct p2d_cursor {
	const uint8_t	*buf;
	size_t		len;
	size_t		pos;
	uint64_t	base;
	bool		swap;
};

static inline void p2d_cur_init(struct p2d_cursor *c, const void *buf, size_t len,
				uint64_t base, bool swap)
{
	c->buf = buf;
	c->len = len;
	c->pos = 0;
	c->base = base;
	c->swap = swap;
}

static inline size_t p2d_cur_left(const struct p2d_cursor *c)
{
	return c->len - c->pos;
}

static inline uint64_t p2d_cur_off(const struct p2d_cursor *c)
{
	return c->base + c->pos;
}

static inline int p2d_cur_u16(struct p2d_cursor *c, uint16_t *v)
{
	if (c->len - c->pos < 2)
		return -EBADMSG;
	*v = p2d_get16(c->buf + c->pos, c->swap);
	c->pos += 2;
	return 0;
}

static inline int p2d_cur_u32(struct p2d_cursor *c, uint32_t *v)
{
	if (c->len - c->pos < 4)
		return -EBADMSG;
	*v = p2d_get32(c->buf + c->pos, c->swap);
	c->pos += 4;
	return 0;
}

static inline int p2d_cur_u64(struct p2d_cursor *c, uint64_t *v)
{
	if (c->len - c->pos < 8)
		return -EBADMSG;
	*v = p2d_get64(c->buf + c->pos, c->swap);
	c->pos += 8;
	return 0;
}

static inline int p2d_cur_skip(struct p2d_cursor *c, uint64_t n)
{
	if (n > c->len - c->pos)
		return -EBADMSG;
	c->pos += n;
	return 0;
}

static inline int p2d_cur_bytes(struct p2d_cursor *c, uint64_t n, const uint8_t **p)
{
	if (n > c->len - c->pos)
		return -EBADMSG;
	*p = c->buf + c->pos;
	c->pos += n;
	return 0;
}

int p2d_cur_u8(struct p2d_cursor *c, uint8_t *v) __hidden;
int p2d_cur_cstr(struct p2d_cursor *c, const char **s) __hidden;
int p2d_cur_perf_str(struct p2d_cursor *c, const char **s) __hidden;
int p2d_cur_sub(struct p2d_cursor *c, uint64_t n, struct p2d_cursor *sub) __hidden;

#endif /* P2D_CURSOR_H */
