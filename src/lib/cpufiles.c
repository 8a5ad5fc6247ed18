// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-CPU page streams. Events leave the reorder queue in per-CPU time
 * order, are packed into pages, and the pages go to one unlinked temporary
 * file per CPU: nothing of the recording stays in memory, and nothing is
 * left on disk if the process dies. libtracecmd's writer later reads each
 * file by the name /proc/self/fd/N.
 *
 * Pages are built in place in a CPU's write buffer. A full buffer goes to a
 * background thread that writes it out (copying into the page cache is, with
 * reading the input, the largest cost of a conversion) while the reader goes
 * on; the CPU continues in a free buffer. At most WQ_INFLIGHT buffers wait
 * for the thread, so memory is bounded by (CPUs + WQ_INFLIGHT) buffers.
 * Without the thread (it could not be started) buffers are written inline.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "p2d-local.h"

#define WBUF_SIZE	(256u << 10)
#define WQ_INFLIGHT	8

/* A write buffer; c->wbuf points at its data */
struct wjob {
	struct wjob	*next;		/* in the queue or the free list */
	struct wjob	*all;		/* every buffer, to free them */
	int		fd;
	size_t		len;
	uint8_t		data[];
};

/* The writer shared by all CPUs of a conversion */
struct writer {
	pthread_mutex_t	lock;
	pthread_cond_t	wake;		/* to the thread: work, or stop */
	pthread_cond_t	done;		/* from the thread: a buffer was written */
	pthread_t	thread;
	bool		threaded;
	bool		stop;
	struct wjob	*head, *tail;	/* queued for writing */
	struct wjob	*free;
	struct wjob	*all;
	unsigned int	inflight;	/* queued or being written */
	size_t		bufsize;
	int		err;		/* first write error */
};

/* What a CPU is allocated as: its public state and the shared writer */
struct cpu_stream {
	struct p2d_cpu	c;
	struct writer	*w;
};

static struct cpu_stream *stream_of(struct p2d_cpu *c)
{
	return (struct cpu_stream *)((char *)c - offsetof(struct cpu_stream, c));
}

static struct wjob *job_of(uint8_t *wbuf)
{
	return (struct wjob *)(wbuf - offsetof(struct wjob, data));
}

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

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct wjob *j;
	int ret;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->head && !w->stop)
			pthread_cond_wait(&w->wake, &w->lock);
		j = w->head;
		if (!j)
			break;
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		ret = w->err;
		pthread_mutex_unlock(&w->lock);
		if (!ret)
			ret = p2d_write_all(j->fd, j->data, j->len);
		pthread_mutex_lock(&w->lock);
		if (ret && !w->err)
			w->err = ret;
		j->next = w->free;
		w->free = j;
		w->inflight--;
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static struct writer *writer_new(size_t bufsize)
{
	struct writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->bufsize = bufsize;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->done, NULL);
	w->threaded = pthread_create(&w->thread, NULL, writer_main, w) == 0;
	return w;
}

/* Write what is queued, stop the thread; returns the first write error */
static int writer_stop(struct writer *w)
{
	if (!w->threaded)
		return w->err;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->threaded = false;
	return w->err;
}

static void writer_free(struct writer *w)
{
	struct wjob *j;

	if (!w)
		return;
	writer_stop(w);
	while ((j = w->all)) {
		w->all = j->all;
		free(j);
	}
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* A free buffer: reused, or allocated (called with the lock held) */
static uint8_t *get_buffer(struct writer *w)
{
	struct wjob *j = w->free;

	if (j) {
		w->free = j->next;
		return j->data;
	}
	j = malloc(sizeof(*j) + w->bufsize);
	if (!j)
		return NULL;
	j->all = w->all;
	w->all = j;
	return j->data;
}

/*
 * Hand the CPU's full buffer to the thread and continue in a free one
 * (inline write without the thread). Returns 0 or a negative errno.
 */
static int write_out(struct p2d_cpu *c)
{
	struct writer *w = stream_of(c)->w;
	struct wjob *j;
	uint8_t *nb;
	int ret;

	if (!c->wlen)
		return 0;
	if (!w->threaded) {
		ret = p2d_write_all(c->fd, c->wbuf, c->wlen);
		c->bytes += c->wlen;
		c->wlen = 0;
		return ret;
	}
	pthread_mutex_lock(&w->lock);
	while (w->inflight >= WQ_INFLIGHT && !w->err)
		pthread_cond_wait(&w->done, &w->lock);
	ret = w->err;
	nb = ret ? NULL : get_buffer(w);
	if (!ret && !nb)
		ret = -ENOMEM;
	if (!ret) {
		j = job_of(c->wbuf);
		j->fd = c->fd;
		j->len = c->wlen;
		j->next = NULL;
		if (w->tail)
			w->tail->next = j;
		else
			w->head = j;
		w->tail = j;
		w->inflight++;
		pthread_cond_signal(&w->wake);
	}
	pthread_mutex_unlock(&w->lock);
	if (ret)
		return ret;
	c->bytes += c->wlen;
	c->wbuf = nb;
	c->wlen = 0;
	return 0;
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
	if (c->wlen + size > stream_of(c)->w->bufsize)
		ret = write_out(c);
	c->pb.page = c->wbuf + c->wlen;
	return ret;
}

/* The CPU's buffer belongs to the writer, which frees it */
static void free_cpu(struct p2d_cpu *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	c->pb.page = NULL;	/* it points into wbuf */
	p2d_pb_release(&c->pb);
	free(stream_of(c));
}

/* The writer of the CPUs created so far, or a new one */
static struct writer *cpuset_writer(const struct p2d_cpuset *cs)
{
	uint32_t i;

	for (i = 0; i < cs->nr; i++)
		if (cs->cpu[i])
			return stream_of(cs->cpu[i])->w;
	return NULL;
}

static struct p2d_cpu *new_cpu(struct p2d_conv *cv, int *err)
{
	struct p2d_cpuset *cs = &cv->cpus;
	struct cpu_stream *st = calloc(1, sizeof(*st));
	struct p2d_cpu *c;

	*err = -ENOMEM;
	if (!st)
		return NULL;
	c = &st->c;
	c->fd = -1;
	st->w = cpuset_writer(cs);
	if (!st->w)
		st->w = writer_new(wbuf_size(cs->page_size));
	if (!st->w)
		goto fail;
	pthread_mutex_lock(&st->w->lock);
	c->wbuf = get_buffer(st->w);
	pthread_mutex_unlock(&st->w->lock);
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
	/* a writer of its own is freed with it; a shared one stays */
	if (st->w && !cpuset_writer(cs))
		writer_free(st->w);
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
	struct p2d_cpu *c = cpu < cv->cpus.nr ? cv->cpus.cpu[cpu] : NULL;
	int ret;

	if (!c) {
		c = get_cpu(cv, cpu, &ret);
		if (!c)
			return ret;
	}
	if (!data) {
		c->lost += len;
		/* UINT64_MAX: a loss perf reported only when it stopped, time unknown */
		ret = ts == UINT64_MAX ? p2d_pb_lost_before(&c->pb, len) : p2d_pb_lost(&c->pb, len);
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
 * p2d_cpuset_finish - flush every CPU's last page and wait until all pages
 * are in the temporary files
 * @cv: conversion
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_cpuset_finish(struct p2d_conv *cv)
{
	struct p2d_cpuset *cs = &cv->cpus;
	struct writer *w = cpuset_writer(cs);
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
	ret = w ? writer_stop(w) : 0;
	if (ret)
		return p2d_error(cv, P2D_NO_OFFSET, ret, "writing CPU pages: %s", strerror(-ret));
	return 0;
}

/**
 * p2d_cpuset_release - close the temporary files and free the CPUs
 * @cs: CPU set
 */
void p2d_cpuset_release(struct p2d_cpuset *cs)
{
	struct writer *w = cpuset_writer(cs);
	uint32_t i;

	if (w) {
		/* after a failure: drop what is still queued */
		pthread_mutex_lock(&w->lock);
		if (!w->err)
			w->err = -ECANCELED;
		pthread_mutex_unlock(&w->lock);
		writer_stop(w);
	}
	for (i = 0; i < cs->nr; i++)
		free_cpu(cs->cpu[i]);
	writer_free(w);
	free(cs->cpu);
	cs->cpu = NULL;
	cs->nr = 0;
}
