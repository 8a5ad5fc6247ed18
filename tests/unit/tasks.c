// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the task table: names from records override saved_cmdlines,
 * a fork gives the child its parent's current name (replacing an older one),
 * and a task is written under the name it had at its last event.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tasks.h"
#include "unit.h"

/* The table as the trace.dat's saved_cmdlines would hold it */
static char *written(const struct p2d_tasks *t)
{
	static char buf[4096];
	int fd = memfd_create("tasks", 0);
	ssize_t n;

	if (fd < 0 || p2d_tasks_write(t, fd))
		return "";
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_sources(void)
{
	struct p2d_tasks *t = p2d_tasks_alloc();
	static const char cmdlines[] = "10 fromcmd\n11 other\nbad line\n12\n";

	CHECK_EQ(p2d_tasks_parse_cmdlines(t, cmdlines, sizeof(cmdlines) - 1), 0);
	CHECK_EQ(p2d_tasks_count(t), 2);
	/* a record names the task: it wins over saved_cmdlines, whatever the order */
	CHECK_EQ(p2d_tasks_set(t, 10, "record", 6, false), 0);
	CHECK_EQ(p2d_tasks_parse_cmdlines(t, "10 late\n", 8), 0);
	CHECK(!strcmp(p2d_tasks_get(t, 10), "record"));
	CHECK(!strcmp(p2d_tasks_get(t, 11), "other"));
	/* names are cut at 15 characters, kept byte for byte */
	CHECK_EQ(p2d_tasks_set(t, 13, "a\tname-longer-than-sixteen", 40, false), 0);
	CHECK(!strcmp(p2d_tasks_get(t, 13), "a\tname-longer-t"));
	p2d_tasks_free(t);
}

static void test_fork(void)
{
	struct p2d_tasks *t = p2d_tasks_alloc();

	CHECK_EQ(p2d_tasks_set(t, 1, "bash", 4, false), 0);
	CHECK_EQ(p2d_tasks_set(t, 2, "stale", 5, false), 0);
	/* pid 2 reused: the fork replaces its old name */
	CHECK_EQ(p2d_tasks_fork(t, 2, 1), 0);
	CHECK(!strcmp(p2d_tasks_get(t, 2), "bash"));
	/* the parent's later exec does not rename the child */
	CHECK_EQ(p2d_tasks_set(t, 1, "ls", 2, false), 0);
	CHECK(!strcmp(p2d_tasks_get(t, 2), "bash"));
	/* a parent without a name leaves the child alone */
	CHECK_EQ(p2d_tasks_fork(t, 3, 99), 0);
	CHECK(p2d_tasks_get(t, 3) == NULL);
	p2d_tasks_free(t);
}

static void test_shown(void)
{
	struct p2d_tasks *t = p2d_tasks_alloc();
	unsigned int i;

	CHECK_EQ(p2d_tasks_set(t, 5, "sh", 2, false), 0);
	p2d_tasks_seen(t, 5);
	/* exec after the task's last event: it keeps the name its events had */
	CHECK_EQ(p2d_tasks_set(t, 5, "true", 4, false), 0);
	CHECK_EQ(p2d_tasks_set(t, 6, "sh", 2, false), 0);
	p2d_tasks_seen(t, 6);
	CHECK_EQ(p2d_tasks_set(t, 6, "cat", 3, false), 0);
	p2d_tasks_seen(t, 6);
	/* no event at all: the last name */
	CHECK_EQ(p2d_tasks_set(t, 7, "a", 1, false), 0);
	CHECK_EQ(p2d_tasks_set(t, 7, "b", 1, false), 0);
	CHECK(!strcmp(written(t), "5 sh\n6 cat\n7 b\n"));
	/* the table grows (rehash) between events */
	for (i = 100; i < 5000; i++)
		CHECK_EQ(p2d_tasks_set(t, i, "x", 1, false), 0);
	p2d_tasks_seen(t, 7);
	CHECK_EQ(p2d_tasks_set(t, 7, "c", 1, false), 0);
	CHECK(!strncmp(written(t), "5 sh\n6 cat\n7 b\n100 x\n", 20));
	p2d_tasks_free(t);
}

/* what libtraceevent's reading of saved_cmdlines would lose is written otherwise */
static void test_written_names(void)
{
	struct p2d_tasks *t = p2d_tasks_alloc();

	CHECK_EQ(p2d_tasks_set(t, 1, "tab\there", 8, false), 0);
	CHECK_EQ(p2d_tasks_set(t, 2, "", 1, false), 0);
	CHECK_EQ(p2d_tasks_set(t, 3, " lead", 5, false), 0);
	CHECK_EQ(p2d_tasks_set(t, 4, "\tx\ny\x1b\xc3\xa9 ", 8, false), 0);
	CHECK_EQ(p2d_tasks_count(t), 4);
	CHECK(!strcmp(written(t), "1 tab\there\n"
			   "2 \xe2\x80\x8b\n"
			   "3 \xe2\x80\x8b lead\n"
			   "4 \xe2\x80\x8b\tx\xe2\x90\xa4y\x1b\xc3\xa9 \n"));
	p2d_tasks_free(t);
}

int main(void)
{
	test_sources();
	test_written_names();
	test_fork();
	test_shown();
	return unit_done("unit-tasks");
}
