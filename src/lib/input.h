/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Input: buffered reading of a file or a pipe (input.c) */
#ifndef P2D_INPUT_H
#define P2D_INPUT_H

#include "p2d-local.h"

/**
 * struct p2d_input - the bytes of the recording
 * @fd: descriptor
 * @owns_fd: close @fd at the end
 * @seekable: regular file (features and sections may be read by offset)
 * @size: file size, 0 when unknown
 * @buf: read window
 * @cap: allocated size of @buf
 * @start: first unconsumed byte in @buf
 * @end: end of valid bytes in @buf
 * @buf_off: input offset of @buf[0]
 * @eof: the descriptor returned end of file
 * @name: shown in messages
 * @path: the file opened, NULL when the input is a descriptor given
 * @own_name: @name, when the input owns it (freed with the input)
 * @label: when set, errors name it before the offset (a file of a directory)
 */
struct p2d_input {
	int		fd;
	bool		owns_fd;
	bool		seekable;
	uint64_t	size;
	uint8_t		*buf;
	size_t		cap;
	size_t		start;
	size_t		end;
	uint64_t	buf_off;
	bool		eof;
	const char	*name;
	const char	*path;
	char		*own_name;
	const char	*label;
};

int p2d_in_open(struct p2d_input *in, const char *path, int fd) __hidden;
int p2d_in_open_part(struct p2d_input *in, const char *path) __hidden;
void p2d_in_close(struct p2d_input *in) __hidden;
int p2d_in_peek_slow(struct p2d_input *in, size_t n, const uint8_t **p) __hidden;

/**
 * p2d_in_peek - make @n bytes at the current position available
 * @in: input
 * @n: bytes needed
 * @p: set to the bytes (valid until the next call on @in)
 *
 * Inline: every record is peeked at twice.
 *
 * Returns 0, -ENODATA if the input ends first (then @in->end - @in->start
 * bytes are left), or another negative errno.
 */
static inline int p2d_in_peek(struct p2d_input *in, size_t n, const uint8_t **p)
{
	if (__builtin_expect(in->end - in->start < n, 0))
		return p2d_in_peek_slow(in, n, p);
	*p = in->buf + in->start;
	return 0;
}

/**
 * p2d_in_consume - advance past bytes obtained with p2d_in_peek()
 * @in: input
 * @n: bytes, at most what was peeked
 */
static inline void p2d_in_consume(struct p2d_input *in, size_t n)
{
	in->start += n;
}
/**
 * p2d_in_avail - bytes at the current position already read (after a peek
 *	that failed with -ENODATA: all that is left of the input)
 * @in: input
 */
static inline size_t p2d_in_avail(const struct p2d_input *in)
{
	return in->end - in->start;
}

/**
 * p2d_in_cur - those bytes (valid until the next call on @in)
 * @in: input
 */
static inline const uint8_t *p2d_in_cur(const struct p2d_input *in)
{
	return in->buf + in->start;
}

int p2d_in_read(struct p2d_input *in, void *dst, size_t n) __hidden;
int p2d_in_skip(struct p2d_input *in, uint64_t n) __hidden;
int p2d_in_seek(struct p2d_input *in, uint64_t off) __hidden;
int p2d_in_pread(struct p2d_input *in, uint64_t off, void *dst, size_t n) __hidden;

static inline uint64_t p2d_in_pos(const struct p2d_input *in)
{
	return in->buf_off + in->start;
}

/* The size of the input: a file's, or what was read of a pipe */
static inline uint64_t p2d_in_total(const struct p2d_input *in)
{
	return in->seekable && in->size ? in->size : p2d_in_pos(in);
}

#endif /* P2D_INPUT_H */
