// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test of named-file.c: what a recording's names may open, and where
 * they lead under a root.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "named-file.h"
#include "unit.h"

static void check_under(const char *root, const char *path, const char *want)
{
	char *got = p2d_path_under(root, path);

	CHECK(got && !strcmp(got, want));
	if (got && strcmp(got, want))
		fprintf(stderr, "  p2d_path_under(%s, %s) = %s, not %s\n", root ? root : "NULL",
			path, got, want);
	free(got);
}

static void test_path_under(void)
{
	check_under(NULL, "/usr/lib/libc.so.6", "/usr/lib/libc.so.6");
	check_under("", "//usr///lib/./libc.so.6", "/usr/lib/libc.so.6");
	check_under("/", "/a/b", "/a/b");
	check_under("/s", "/usr/lib/x", "/s/usr/lib/x");
	check_under("/s/", "/usr/lib/x", "/s/usr/lib/x");
	check_under("/s", "/../../etc/passwd", "/s/etc/passwd");
	check_under("/s", "/a/../../../b/../c", "/s/c");
	check_under("/s", "/a/b/..", "/s/a");
	check_under("/s", "/..", "/s/");
	check_under(NULL, "/../../tmp/x", "/tmp/x");
	check_under("/s", "rel/../../x", "/s/x");
	check_under("/s", "/a/...", "/s/a/...");
	check_under("/s", "/a/..b/c", "/s/a/..b/c");
}

static void test_component(void)
{
	CHECK(p2d_path_component("6.1.0-13-amd64"));
	CHECK(p2d_path_component("..x"));
	CHECK(!p2d_path_component(NULL));
	CHECK(!p2d_path_component(""));
	CHECK(!p2d_path_component("."));
	CHECK(!p2d_path_component(".."));
	CHECK(!p2d_path_component("../../../tmp/x"));
	CHECK(!p2d_path_component("a/b"));
}

static void test_open(void)
{
	char dir[] = "/tmp/p2d-named-XXXXXX", path[64], why[128];
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	/* a regular file: opened, read-only, blocking */
	snprintf(path, sizeof(path), "%s/reg", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1);
	close(fd);
	fd = p2d_open_named(path, why, sizeof(why));
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_EQ(fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK), O_RDONLY);
		CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		close(fd);
	}
	/* a FIFO with no writer: refused at once, not waited on */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK_EQ(p2d_open_named(path, why, sizeof(why)), -P2D_ENOTREG);
	CHECK(!strcmp(why, "a FIFO, not a regular file: not opened"));
	unlink(path);
	/* a directory, a device, a link to one */
	CHECK_EQ(p2d_open_named(dir, why, sizeof(why)), -P2D_ENOTREG);
	CHECK(!strcmp(why, "a directory, not a regular file: not opened"));
	CHECK_EQ(p2d_open_named("/dev/zero", why, sizeof(why)), -P2D_ENOTREG);
	CHECK(!strcmp(why, "a character device, not a regular file: not opened"));
	snprintf(path, sizeof(path), "%s/link", dir);
	CHECK(symlink("/dev/null", path) == 0);
	CHECK_EQ(p2d_open_named(path, NULL, 0), -P2D_ENOTREG);
	unlink(path);
	/* missing: the errno, not a refusal */
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK_EQ(p2d_open_named(path, why, sizeof(why)), -ENOENT);
	CHECK(!strcmp(p2d_named_strerror(P2D_ENOTREG), "not a regular file"));
	snprintf(path, sizeof(path), "%s/reg", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_path_under();
	test_component();
	test_open();
	return unit_done("named-file");
}
