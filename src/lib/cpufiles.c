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

#include "cpufiles.h"
#include "pages.h"

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

/* One CPU: what it holds, its page builder and write buffer */
struct p2d_cpu {
	struct p2d_cpu_stats	st;
	struct p2d_page_builder	pb;
	uint8_t			*wbuf;
	size_t			wlen;
	struct writer		*w;
};

/**
 * struct p2d_cpufiles - every CPU's pages
 * @cpu: indexed by CPU number (NULL for CPUs without data yet)
 * @nr: size of @cpu
 * @dir: directory for the temporary files
 * @page_size: ring-buffer page size
 * @long_size: kernel long size
 * @big_endian: output byte order
 * @w: the writer thread, shared by all CPUs (NULL until the first)
 * @d: diagnostics
 */
struct p2d_cpufiles {
	struct p2d_cpu	**cpu;
	uint32_t	nr;
	char		*dir;
	uint32_t	page_size;
	uint32_t	long_size;
	bool		big_endian;
	struct writer	*w;
	struct p2d_diag	*d;
};

static struct wjob *job_of(uint8_t *wbuf)
{
	return (struct wjob *)(wbuf - offsetof(struct wjob, data));
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
	struct writer *w = c->w;
	struct wjob *j;
	uint8_t *nb;
	int ret;

	if (!c->wlen)
		return 0;
	if (!w->threaded) {
		ret = p2d_write_all(c->st.fd, c->wbuf, c->wlen);
		c->st.bytes += c->wlen;
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
		j->fd = c->st.fd;
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
	c->st.bytes += c->wlen;
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
	if (c->wlen + size > c->w->bufsize)
		ret = write_out(c);
	c->pb.page = c->wbuf + c->wlen;
	return ret;
}

/* The CPU's buffer belongs to the writer, which frees it */
static void free_cpu(struct p2d_cpu *c)
{
	if (!c)
		return;
	if (c->st.fd >= 0)
		close(c->st.fd);
	c->pb.page = NULL;	/* it points into wbuf */
	p2d_pb_release(&c->pb);
	free(c);
}

static struct p2d_cpu *new_cpu(struct p2d_cpufiles *cf, int *err)
{
	struct p2d_cpu *c = calloc(1, sizeof(*c));

	*err = -ENOMEM;
	if (!c)
		return NULL;
	c->st.fd = -1;
	if (!cf->w)
		cf->w = writer_new(wbuf_size(cf->page_size));
	if (!cf->w)
		goto fail;
	c->w = cf->w;
	pthread_mutex_lock(&c->w->lock);
	c->wbuf = get_buffer(c->w);
	pthread_mutex_unlock(&c->w->lock);
	if (!c->wbuf)
		goto fail;
	*err = p2d_pb_init(&c->pb, cf->page_size, cf->long_size, cf->big_endian, page_out, c);
	if (*err)
		goto fail;
	free(c->pb.page);
	c->pb.page = c->wbuf;
	c->st.fd = p2d_tmpfile(cf->dir);
	if (c->st.fd < 0) {
		*err = p2d_error(cf->d, P2D_NO_OFFSET, c->st.fd, "cannot create a temporary file"
				 " in %s: %s", cf->dir, strerror(-c->st.fd));
		goto fail;
	}
	*err = 0;
	return c;
fail:
	free_cpu(c);
	return NULL;
}

static struct p2d_cpu *get_cpu(struct p2d_cpufiles *cf, uint32_t cpu, int *err)
{
	struct p2d_cpu **n;
	uint32_t nr;

	if (cpu >= P2D_MAX_CPUS) {
		*err = -ERANGE;
		return NULL;
	}
	if (cpu >= cf->nr) {
		nr = cf->nr ? cf->nr : 4;
		while (nr <= cpu)
			nr *= 2;
		n = realloc(cf->cpu, nr * sizeof(*n));
		if (!n) {
			*err = -ENOMEM;
			return NULL;
		}
		memset(n + cf->nr, 0, (nr - cf->nr) * sizeof(*n));
		cf->cpu = n;
		cf->nr = nr;
	}
	cf->cpu[cpu] = new_cpu(cf, err);
	return cf->cpu[cpu];
}

/**
 * p2d_cpufiles_new - per-CPU page streams
 * @dir: directory for their unlinked files (copied)
 * @page_size: ring-buffer page size
 * @long_size: the kernel's long size (4 or 8)
 * @big_endian: the byte order of the pages
 * @d: diagnostics (kept)
 *
 * Returns the streams, or NULL when out of memory.
 */
struct p2d_cpufiles *p2d_cpufiles_new(const char *dir, uint32_t page_size, uint32_t long_size,
				      bool big_endian, struct p2d_diag *d)
{
	struct p2d_cpufiles *cf = calloc(1, sizeof(*cf));

	if (!cf)
		return NULL;
	cf->dir = strdup(dir);
	if (!cf->dir) {
		free(cf);
		return NULL;
	}
	cf->page_size = page_size;
	cf->long_size = long_size;
	cf->big_endian = big_endian;
	cf->d = d;
	return cf;
}

/**
 * p2d_cpufiles_event - put one event (or lost mark) into its CPU's pages
 * @cf: streams
 * @cpu: CPU
 * @ts: timestamp (not before the previous one of this CPU); for a lost mark,
 *	UINT64_MAX means a loss whose time is unknown
 * @data: payload, or NULL for a lost-events mark
 * @len: payload bytes, or the lost count
 *
 * Returns 0, -E2BIG for an event too large for a page (no message: the
 * caller counts it), or a negative errno (message recorded).
 */
int p2d_cpufiles_event(struct p2d_cpufiles *cf, uint32_t cpu, uint64_t ts, const uint8_t *data,
		       uint64_t len)
{
	struct p2d_cpu *c = cpu < cf->nr ? cf->cpu[cpu] : NULL;
	int ret;

	if (!c) {
		c = get_cpu(cf, cpu, &ret);
		if (!c)
			return ret == -ERANGE ? p2d_error(cf->d, P2D_NO_OFFSET, ret, "CPU %u", cpu) : ret;
	}
	if (!data) {
		c->st.lost += len;
		/* UINT64_MAX: a loss perf reported only when it stopped, time unknown */
		ret = ts == UINT64_MAX ? p2d_pb_lost_before(&c->pb, len) : p2d_pb_lost(&c->pb, len);
	} else {
		ret = p2d_pb_add(&c->pb, ts, data, (uint32_t)len);
		if (ret == -E2BIG)
			return ret;
		if (!ret) {
			if (!c->st.events++)
				c->st.first_ts = ts;
			c->st.last_ts = ts;
		}
	}
	if (ret)
		return p2d_error(cf->d, P2D_NO_OFFSET, ret, "writing CPU %u pages: %s", cpu,
				 strerror(-ret));
	return 0;
}

/**
 * p2d_cpufiles_finish - flush every CPU's last page and wait until all pages
 * are in the files
 * @cf: streams
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_cpufiles_finish(struct p2d_cpufiles *cf)
{
	struct p2d_cpu *c;
	uint32_t i;
	int ret;

	for (i = 0; i < cf->nr; i++) {
		c = cf->cpu[i];
		if (!c)
			continue;
		ret = p2d_pb_finish(&c->pb);
		if (!ret)
			ret = write_out(c);
		if (ret)
			return p2d_error(cf->d, P2D_NO_OFFSET, ret, "writing CPU %u pages: %s", i,
					 strerror(-ret));
	}
	ret = cf->w ? writer_stop(cf->w) : 0;
	if (ret)
		return p2d_error(cf->d, P2D_NO_OFFSET, ret, "writing CPU pages: %s", strerror(-ret));
	return 0;
}

/**
 * p2d_cpufiles_nr - one more than the highest CPU with a stream (0: none)
 * @cf: streams, may be NULL
 */
uint32_t p2d_cpufiles_nr(const struct p2d_cpufiles *cf)
{
	uint32_t i;

	for (i = cf ? cf->nr : 0; i > 0; i--)
		if (cf->cpu[i - 1])
			return i;
	return 0;
}

/**
 * p2d_cpufiles_cpu - what the stream of @cpu holds
 * @cf: streams, may be NULL
 * @cpu: CPU
 *
 * Returns its counts and file, or NULL when the CPU has no stream.
 */
const struct p2d_cpu_stats *p2d_cpufiles_cpu(const struct p2d_cpufiles *cf, uint32_t cpu)
{
	return cf && cpu < cf->nr && cf->cpu[cpu] ? &cf->cpu[cpu]->st : NULL;
}

/**
 * p2d_cpufiles_page_size - the page size of the streams
 * @cf: streams
 */
uint32_t p2d_cpufiles_page_size(const struct p2d_cpufiles *cf)
{
	return cf->page_size;
}

/**
 * p2d_cpufiles_free - close the files and free the streams
 * @cf: streams, may be NULL
 */
void p2d_cpufiles_free(struct p2d_cpufiles *cf)
{
	struct writer *w;
	uint32_t i;

	if (!cf)
		return;
	w = cf->w;
	if (w) {
		/* after a failure: drop what is still queued */
		pthread_mutex_lock(&w->lock);
		if (!w->err)
			w->err = -ECANCELED;
		pthread_mutex_unlock(&w->lock);
		writer_stop(w);
	}
	for (i = 0; i < cf->nr; i++)
		free_cpu(cf->cpu[i]);
	writer_free(w);
	free(cf->cpu);
	free(cf->dir);
	free(cf);
}
