// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the reader's checked primitives: the cursor (bounds,
 * byte order, strings), the input window over files and pipes, and the
 * inline copy of payloads.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "cursor.h"
#include "input.h"
#include "unit.h"

static void test_numbers(void)
{
	static const uint8_t b[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };
	struct p2d_cursor c;
	uint64_t v64;
	uint32_t v32;
	uint8_t v8;

	p2d_cur_init(&c, b, sizeof(b), 0x100, false);
	CHECK_EQ(p2d_cur_u32(&c, &v32), 0);
	CHECK_EQ(v32, p2d_host_big_endian() ? 0x01020304 : 0x04030201);
	CHECK_EQ(p2d_cur_u64(&c, &v64), 0);
	CHECK_EQ(p2d_cur_off(&c), 0x10c);
	CHECK_EQ(p2d_cur_left(&c), 1);
	/* a read past the end fails and does not move */
	CHECK_EQ(p2d_cur_u32(&c, &v32), -EBADMSG);
	CHECK_EQ(p2d_cur_u64(&c, &v64), -EBADMSG);
	CHECK_EQ(p2d_cur_skip(&c, 2), -EBADMSG);
	CHECK_EQ(p2d_cur_left(&c), 1);
	CHECK_EQ(p2d_cur_u8(&c, &v8), 0);
	CHECK_EQ(v8, 13);
	CHECK_EQ(p2d_cur_u8(&c, &v8), -EBADMSG);

	/* swapped */
	p2d_cur_init(&c, b, sizeof(b), 0, true);
	CHECK_EQ(p2d_cur_u32(&c, &v32), 0);
	CHECK_EQ(v32, p2d_host_big_endian() ? 0x04030201 : 0x01020304);
	CHECK_EQ(p2d_cur_u64(&c, &v64), 0);
	CHECK_EQ(v64, p2d_host_big_endian() ? 0x0c0b0a0908070605ull : 0x05060708090a0b0cull);
	/* huge skips do not wrap */
	CHECK_EQ(p2d_cur_skip(&c, UINT64_MAX), -EBADMSG);
}

static void test_strings(void)
{
	static const uint8_t b[] = { 'a', 'b', 0, 'c', 8, 0, 0, 0, 'x', 'y', 0, 0, 0, 0, 0, 0,
				     9, 0, 0, 0, 'n', 'o', 'n', 'u', 'l' };
	struct p2d_cursor c, sub;
	const char *s;

	p2d_cur_init(&c, b, sizeof(b), 0, p2d_host_big_endian());
	CHECK_EQ(p2d_cur_cstr(&c, &s), 0);
	CHECK(!strcmp(s, "ab"));
	CHECK_EQ(p2d_cur_sub(&c, 1, &sub), 0);
	CHECK_EQ(p2d_cur_off(&sub), 3);
	CHECK_EQ(p2d_cur_left(&sub), 1);
	/* perf string: u32 length, NUL-padded bytes */
	CHECK_EQ(p2d_cur_perf_str(&c, &s), 0);
	CHECK(!strcmp(s, "xy"));
	/* length beyond the end */
	CHECK_EQ(p2d_cur_perf_str(&c, &s), -EBADMSG);
	/* a string without NUL */
	p2d_cur_init(&c, b + 20, 5, 0, false);
	CHECK_EQ(p2d_cur_cstr(&c, &s), -EBADMSG);
	CHECK_EQ(p2d_cur_sub(&c, 6, &sub), -EBADMSG);
}

static void test_input(bool pipe_mode)
{
	static uint8_t data[3 << 20];
	struct p2d_input in;
	const uint8_t *p;
	uint8_t buf[100];
	char path[] = "/tmp/p2d-unit-XXXXXX";
	int fds[2], fd;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13 + i / 256);
	if (pipe_mode) {
		CHECK_EQ(pipe(fds), 0);
		if (fork() == 0) {
			close(fds[0]);
			p2d_write_all(fds[1], data, sizeof(data));
			_exit(0);
		}
		close(fds[1]);
		fd = fds[0];
	} else {
		fd = mkstemp(path);
		CHECK(fd >= 0);
		unlink(path);
		CHECK_EQ(p2d_write_all(fd, data, sizeof(data)), 0);
		lseek(fd, 0, SEEK_SET);
	}
	CHECK_EQ(p2d_in_open(&in, NULL, fd), 0);
	CHECK_EQ(in.seekable, !pipe_mode);
	CHECK_EQ(p2d_in_peek(&in, 16, &p), 0);
	CHECK(!memcmp(p, data, 16));
	p2d_in_consume(&in, 10);
	CHECK_EQ(p2d_in_pos(&in), 10);
	/* a peek across the window refills it */
	CHECK_EQ(p2d_in_skip(&in, (2 << 20) - 20), 0);
	CHECK_EQ(p2d_in_peek(&in, 65536, &p), 0);
	CHECK(!memcmp(p, data + (2 << 20) - 10, 65536));
	CHECK_EQ(p2d_in_read(&in, buf, sizeof(buf)), 0);
	CHECK(!memcmp(buf, data + (2 << 20) - 10, sizeof(buf)));
	CHECK_EQ(p2d_in_pos(&in), (2 << 20) + 90);
	CHECK_EQ(p2d_in_pread(&in, 5, buf, 10), pipe_mode ? -ESPIPE : 0);
	/* the end */
	CHECK_EQ(p2d_in_skip(&in, sizeof(data) - p2d_in_pos(&in) - 3), 0);
	CHECK_EQ(p2d_in_peek(&in, 4, &p), -ENODATA);
	CHECK_EQ(in.end - in.start, 3);
	CHECK_EQ(p2d_in_peek(&in, 3, &p), 0);
	CHECK(!memcmp(p, data + sizeof(data) - 3, 3));
	CHECK_EQ(p2d_in_skip(&in, 10), -ENODATA);
	p2d_in_close(&in);
	close(fd);
}

/*
 * p2d_copy_short() moves exactly @n bytes, whatever @n and the alignment:
 * the source is a buffer of exactly @n bytes (a sanitizer or valgrind sees
 * any read past it), the destination has guard bytes on both sides
 */
static void test_copy_short(void)
{
	uint8_t dst[256 + 32], *src;
	size_t n, off, i;
	int bad;

	for (n = 0; n <= 200; n++) {
		for (off = 0; off < 16; off++) {
			src = malloc(n ? n : 1);
			if (!src) {
				CHECK(src);
				return;
			}
			for (i = 0; i < n; i++)
				src[i] = (uint8_t)(i * 7 + n + 1);
			memset(dst, 0xa5, sizeof(dst));
			p2d_copy_short(dst + 16 + off, src, n);
			bad = 0;
			for (i = 0; i < sizeof(dst); i++) {
				if (i >= 16 + off && i < 16 + off + n)
					bad += dst[i] != src[i - 16 - off];
				else
					bad += dst[i] != 0xa5;
			}
			CHECK_EQ(bad, 0);
			free(src);
		}
	}
}

int main(void)
{
	test_numbers();
	test_strings();
	test_input(false);
	test_input(true);
	test_copy_short();
	return unit_done("unit-cursor");
}
