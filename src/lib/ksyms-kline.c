// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The lines of a kallsyms ("ADDRESS TYPE NAME[\t[MODULE]]"): read from
 * the file in KBUF pieces, forward from any line's offset, and parsed
 * without copying. ksyms-kallsyms.c reads the file with them.
 */
#include <unistd.h>

#include "bytes.h"
#include "ksyms-table.h"

/**
 * p2d_klines_next - the next line of a file
 * @r: the lines
 * @line: set to it, in @r's buffer (until the next call), not NUL-terminated
 * @len: set to its bytes, without the newline
 *
 * Returns 1 with a line, 0 at the end of the file, -E2BIG for a line of
 * KBUF bytes or more, or a negative errno of read(2).
 */
int p2d_klines_next(struct klines *r, char **line, size_t *len)
{
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
		if (nl || (r->eof && r->pos < r->len)) {
			*line = r->buf + r->pos;
			*len = nl ? (size_t)(nl - *line) : r->len - r->pos;
			r->pos = nl ? (size_t)(nl - r->buf) + 1 : r->len;
			r->nr++;
			return 1;
		}
		if (r->eof)
			return 0;
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->base += r->pos;
		r->len -= r->pos;
		r->pos = 0;
		if (r->len == KBUF)
			return -E2BIG;
		do {
			n = read(r->fd, r->buf + r->len, KBUF - r->len);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		r->eof = !n;
		r->len += (size_t)n;
	}
}

/**
 * p2d_klines_seek - go forward to a file offset
 * @r: the lines
 * @off: the offset: the next line p2d_klines_next() returns starts there
 *
 * Returns 0, -ESTALE when @off is behind the lines read or past the end of
 * the file, or a negative errno of read(2).
 */
int p2d_klines_seek(struct klines *r, uint64_t off)
{
	ssize_t n;

	if (off < r->base + r->pos)
		return -ESTALE;
	/* far ahead: go there instead of reading the lines between */
	if (off > r->base + r->len + KBUF && lseek(r->fd, (off_t)off, SEEK_SET) == (off_t)off) {
		r->base = off;
		r->len = r->pos = 0;
	}
	while (off > r->base + r->len) {
		if (r->eof)
			return -ESTALE;
		r->base += r->len;
		r->len = r->pos = 0;
		do {
			n = read(r->fd, r->buf, KBUF);
		} while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		r->eof = !n;
		r->len = (size_t)n;
	}
	r->pos = (size_t)(off - r->base);
	return 0;
}

/* A hex digit's value plus one, 0 for other bytes */
static const uint8_t hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7,
	['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
	['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
	['F'] = 16,
};

/*
 * Eight hex digits at @p (either case), most significant first, as one
 * value: byte-parallel, for the addresses of a kallsyms (121,000 lines of a
 * 6.x kernel). Returns false when one of them is not a hex digit.
 */
static bool hex8(const char *p, uint32_t *v)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t x = p2d_get64(p, p2d_host_big_endian()), n;

#define GE(c)	(((x | high) - (uint64_t)(c) * ones) & high)	/* bytes >= c */
	if ((x & high) ||
	    ((GE('0') & ~GE('9' + 1)) | (GE('a') & ~GE('f' + 1)) | (GE('A') & ~GE('F' + 1))) != high)
		return false;
#undef GE
	/* each byte's value: its low nibble, plus 9 for a letter (bit 6 set) */
	n = (x & 0x0f0f0f0f0f0f0f0full) + 9 * ((x >> 6) & ones);
	n = ((n & 0x000f000f000f000full) << 4) | ((n >> 8) & 0x000f000f000f000full);
	n = ((n & 0x000000ff000000ffull) << 8) | ((n >> 16) & 0x000000ff000000ffull);
	*v = (uint32_t)(((n & 0xffff) << 16) | ((n >> 32) & 0xffff));
	return true;
}

static bool name_end(char c)
{
	return c == '\t' || c == ' ' || !c;
}

/**
 * p2d_kline_parse - the parts of a kallsyms line
 * @p: the line, not NUL-terminated
 * @len: its bytes
 * @l: set to its parts
 * @full: find where the name ends even when the line names no module
 *
 * "ADDRESS TYPE NAME[\t[MODULE]]": 1-16 hex digits, one letter, a name.
 * Without @full, @l->name_len is only set when the line may name a module
 * (it has a ']'); @l->name is set, and not empty, either way.
 *
 * Returns false when the line is not of that form.
 */
bool p2d_kline_parse(const char *p, size_t len, struct kline *l, bool full)
{
	const char *end = p + len, *q, *close;
	uint64_t a = 0;
	uint32_t hi, lo;
	unsigned int v;

	if (len > 16 && p[16] == ' ' && hex8(p, &hi) && hex8(p + 8, &lo)) {
		/* the usual line: 16 digits */
		a = (uint64_t)hi << 32 | lo;
		q = p + 16;
	} else {
		for (q = p; q < end && q - p <= 16 && (v = hex1[(uint8_t)*q]); q++)
			a = a << 4 | (v - 1);
	}
	if (q == p || q - p > 16 || end - q < 4 || q[0] != ' ' || !q[1] || q[2] != ' ' ||
	    name_end(q[3]))
		return false;
	l->addr = a;
	l->type = q[1];
	l->name = q += 3;
	l->name_len = 0;
	l->mod = NULL;
	l->mod_len = 0;
	if (!full && !memchr(q, ']', (size_t)(end - q)))
		return true;
	while (q < end && !name_end(*q))
		q++;
	l->name_len = (size_t)(q - l->name);
	if (end - q >= 2 && q[0] == '\t' && q[1] == '[') {
		close = memchr(q + 2, ']', (size_t)(end - q - 2));
		if (close && !memchr(q + 2, '\0', (size_t)(close - q - 2))) {
			l->mod = q + 2;
			l->mod_len = (size_t)(close - l->mod);
		}
	}
	return true;
}

/**
 * p2d_kline_is - is the name of a line this one?
 * @l: the line, of p2d_kline_parse()
 * @end: where the line ends
 * @ref: the name
 * @ref_len: its bytes
 *
 * Returns true when @l names @ref.
 */
bool p2d_kline_is(const struct kline *l, const char *end, const char *ref, size_t ref_len)
{
	if (l->name_len)
		return l->name_len == ref_len && !memcmp(l->name, ref, ref_len);
	return (size_t)(end - l->name) >= ref_len && !memcmp(l->name, ref, ref_len) &&
	       (l->name + ref_len == end || name_end(l->name[ref_len]));
}
