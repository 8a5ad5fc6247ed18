// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-CPU page streams. Events leave the reorder queue in per-CPU time
 * order, are packed into pages, and the pages go to one unlinked temporary
 * file per CPU: nothing of the recording stays in memory, and nothing is
 * left on disk if the process dies. libtracecmd's writer later reads each
 * file by the name /proc/self/fd/N.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "p2d-local.h"

#define WBUF_SIZE	(128u << 10)

/**
 * p2d_tmpfile - create an unlinked temporary file
 * @dir: directory to create it in
 *
 * Returns a read-write descriptor or a negative errno.
 */
int p2d_tmpfile(const char *dir)
{
	char *path;
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	/* file systems without O_TMPFILE: create and unlink at once */
	if (asprintf(&path, "%s/.perf2dat-XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
	} else {
		unlink(path);
	}
	free(path);
	return fd;
}

/* The write buffer holds at least one page */
static size_t wbuf_size(uint32_t page_size)
{
	return page_size > WBUF_SIZE ? page_size : WBUF_SIZE;
}

static int write_out(struct p2d_cpu *c)
{
	int ret;

	if (!c->wlen)
		return 0;
	ret = p2d_write_all(c->fd, c->wbuf, c->wlen);
	c->bytes += c->wlen;
	c->wlen = 0;
	return ret;
}

/*
 * Pages are built in place in the write buffer: the builder's page is the
 * next free page_size slot of c->wbuf, so a finished page is not copied.
 */
static int page_out(void *ctx, const uint8_t *page, size_t size)
{
	struct p2d_cpu *c = ctx;
	int ret = 0;

	c->wlen += size;
	if (c->wlen + size > wbuf_size(c->pb.page_size))
		ret = write_out(c);
	c->pb.page = c->wbuf + c->wlen;
	return ret;
}

static void free_cpu(struct p2d_cpu *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	c->pb.page = NULL;	/* it points into wbuf */
	p2d_pb_release(&c->pb);
	free(c->wbuf);
	free(c);
}

static struct p2d_cpu *new_cpu(struct p2d_conv *cv, int *err)
{
	struct p2d_cpuset *cs = &cv->cpus;
	struct p2d_cpu *c = calloc(1, sizeof(*c));

	*err = -ENOMEM;
	if (!c)
		return NULL;
	c->fd = -1;
	c->wbuf = malloc(wbuf_size(cs->page_size));
	if (!c->wbuf)
		goto fail;
	*err = p2d_pb_init(&c->pb, cs->page_size, cs->long_size, cs->big_endian, page_out, c);
	if (*err)
		goto fail;
	free(c->pb.page);
	c->pb.page = c->wbuf;
	c->fd = p2d_tmpfile(cv->data_dir);
	if (c->fd < 0) {
		*err = p2d_error(cv, P2D_NO_OFFSET, c->fd, "cannot create a temporary file in %s: %s",
				 cv->data_dir, strerror(-c->fd));
		goto fail;
	}
	*err = 0;
	return c;
fail:
	free_cpu(c);
	return NULL;
}

static struct p2d_cpu *get_cpu(struct p2d_conv *cv, uint32_t cpu, int *err)
{
	struct p2d_cpuset *cs = &cv->cpus;
	struct p2d_cpu **n;
	uint32_t nr;

	if (cpu < cs->nr && cs->cpu[cpu]) {
		*err = 0;
		return cs->cpu[cpu];
	}
	if (cpu >= cs->nr) {
		nr = cs->nr ? cs->nr : 4;
		while (nr <= cpu)
			nr *= 2;
		n = realloc(cs->cpu, nr * sizeof(*n));
		if (!n) {
			*err = -ENOMEM;
			return NULL;
		}
		memset(n + cs->nr, 0, (nr - cs->nr) * sizeof(*n));
		cs->cpu = n;
		cs->nr = nr;
	}
	cs->cpu[cpu] = new_cpu(cv, err);
	return cs->cpu[cpu];
}

/**
 * p2d_cpuset_event - put one event (or lost mark) into its CPU's pages
 * @cv: conversion
 * @cpu: CPU
 * @ts: timestamp (not before the previous one of this CPU)
 * @data: payload, or NULL for a lost-events mark
 * @len: payload bytes, or the lost count
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_cpuset_event(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, const uint8_t *data,
		     uint64_t len)
{
	struct p2d_cpu *c;
	int ret;

	c = get_cpu(cv, cpu, &ret);
	if (!c)
		return ret;
	if (!data) {
		c->lost += len;
		ret = p2d_pb_lost(&c->pb, len);
	} else {
		ret = p2d_pb_add(&c->pb, ts, data, (uint32_t)len);
		if (ret == -E2BIG) {
			cv->sum->dropped++;
			if (!cv->big_warned)
				p2d_warn(cv, P2D_NO_OFFSET, "an event of %llu bytes does not fit a %u-byte"
					 " ring-buffer page: skipped", (unsigned long long)len,
					 cv->cpus.page_size);
			cv->big_warned = true;
			return 0;
		}
		if (!ret) {
			if (!c->events++)
				c->first_ts = ts;
			c->last_ts = ts;
			cv->sum->events++;
		}
	}
	if (ret)
		return p2d_error(cv, P2D_NO_OFFSET, ret, "writing CPU %u pages: %s", cpu, strerror(-ret));
	return 0;
}

/**
 * p2d_cpuset_finish - flush every CPU's last page
 * @cv: conversion
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_cpuset_finish(struct p2d_conv *cv)
{
	struct p2d_cpuset *cs = &cv->cpus;
	struct p2d_cpu *c;
	uint32_t i;
	int ret;

	for (i = 0; i < cs->nr; i++) {
		c = cs->cpu[i];
		if (!c)
			continue;
		ret = p2d_pb_finish(&c->pb);
		if (!ret)
			ret = write_out(c);
		if (ret)
			return p2d_error(cv, P2D_NO_OFFSET, ret, "writing CPU %u pages: %s", i, strerror(-ret));
	}
	return 0;
}

/**
 * p2d_cpuset_release - close the temporary files and free the CPUs
 * @cs: CPU set
 */
void p2d_cpuset_release(struct p2d_cpuset *cs)
{
	uint32_t i;

	for (i = 0; i < cs->nr; i++)
		free_cpu(cs->cpu[i]);
	free(cs->cpu);
	cs->cpu = NULL;
	cs->nr = 0;
}
