// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Checked reads from input bytes. The fixed-size readers are inline in
 * p2d-local.h; the ones here deal with strings and sub-ranges.
 */
#include "cursor.h"

/**
 * p2d_cur_u8 - read one byte
 * @c: cursor
 * @v: result
 *
 * Returns 0, or -EBADMSG if no byte is left.
 */
int p2d_cur_u8(struct p2d_cursor *c, uint8_t *v)
{
	if (c->pos >= c->len)
		return -EBADMSG;
	*v = c->buf[c->pos++];
	return 0;
}

/**
 * p2d_cur_cstr - read a NUL-terminated string
 * @c: cursor
 * @s: set to the string, which stays inside the cursor's buffer
 *
 * Returns 0, or -EBADMSG if no NUL is found before the end.
 */
int p2d_cur_cstr(struct p2d_cursor *c, const char **s)
{
	const uint8_t *start = c->buf + c->pos;
	const uint8_t *nul = memchr(start, 0, c->len - c->pos);

	if (!nul)
		return -EBADMSG;
	*s = (const char *)start;
	c->pos += (size_t)(nul - start) + 1;
	return 0;
}

/**
 * p2d_cur_perf_str - read a perf header string (u32 length, then bytes)
 * @c: cursor
 * @s: set to the string; it must be NUL-terminated inside its length
 *
 * Returns 0, or -EBADMSG if the length overruns or no NUL is present.
 */
int p2d_cur_perf_str(struct p2d_cursor *c, const char **s)
{
	const uint8_t *p;
	uint32_t len;
	int ret;

	ret = p2d_cur_u32(c, &len);
	if (ret)
		return ret;
	ret = p2d_cur_bytes(c, len, &p);
	if (ret)
		return ret;
	if (!len || !memchr(p, 0, len))
		return -EBADMSG;
	*s = (const char *)p;
	return 0;
}

/**
 * p2d_cur_sub - carve the next @n bytes out as a cursor of their own
 * @c: cursor, advanced past the @n bytes
 * @n: size of the sub-range
 * @sub: the new cursor (same byte order, offsets kept)
 *
 * Returns 0, or -EBADMSG if fewer than @n bytes are left.
 */
int p2d_cur_sub(struct p2d_cursor *c, uint64_t n, struct p2d_cursor *sub)
{
	const uint8_t *p;
	uint64_t off = p2d_cur_off(c);
	int ret;

	ret = p2d_cur_bytes(c, n, &p);
	if (ret)
		return ret;
	p2d_cur_init(sub, p, n, off, c->swap);
	return 0;
}
