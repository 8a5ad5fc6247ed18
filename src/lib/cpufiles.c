// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-CPU page streams. Events leave the reorder queue in per-CPU time
 * order, are packed into pages, and the pages go to one unlinked temporary
 * file per CPU: nothing of the recording stays in memory, and nothing is
 * left on disk if the process dies. libtracecmd's writer later reads each
 * file by the name /proc/self/fd/N.
 *
 * Pages are built in place in a CPU's write buffer. A full buffer goes to
 * a writer thread (signals blocked, started with the first full buffer,
 * joined by p2d_cpufiles_finish()) while the CPU fills its other buffer,
 * allocated then: memory is two buffers per CPU. A CPU's first buffer
 * starts at 16 KiB and doubles as it fills; its last buffer, when no buffer
 * was full before, is written inline: a recording of less than a buffer
 * per CPU starts no thread. When the writer is a whole buffer behind,
 * the converting thread writes the full buffer itself instead of waiting:
 * on a 2-CPU machine the writer shares its CPU with the format probe and
 * the kallsyms pass, and the converting thread slept 3.5 ms of a 60 ms
 * conversion waiting for it (perf trace). Every write goes to its own
 * place in the file (pwrite), so the two may write in either order.
 * Without a second buffer or a thread, the converting thread writes itself.
 *
 * An earlier writer thread, with one hand-over per page, was slower than
 * writing inline (0.106-0.111 s against 0.094-0.097 s on the syscalls
 * recording). With 128 KiB hand-overs and the rest of the conversion made
 * cheaper, it is now faster: bench/real syscalls 0.0401 -> 0.0377 s, sched
 * 0.0417 -> 0.0396 s (medians of 21 interleaved rounds, same bytes).
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpufiles.h"
#include "pages.h"

#define WBUF_SIZE	(128u << 10)
#define FIRST_WBUF	(16u << 10)	/* a CPU's first buffer, to begin with */

/* A full buffer for the writer thread, and where it goes in its file */
struct wjob {
	struct wjob	*next;
	struct p2d_cpu	*c;
	unsigned int	idx;
	size_t		len;
	uint64_t	off;
};

/* One CPU: what it holds, its page builder and write buffers */
struct p2d_cpu {
	struct p2d_cpu_stats	st;
	struct p2d_page_builder	pb;
	uint8_t			*wbuf;		/* the one being filled: buf[cur] */
	size_t			wlen;
	size_t			wsize;
	uint8_t			*buf[2];
	unsigned int		cur;
	bool			busy[2];	/* queued for the writer (under wr.lock) */
	size_t			mapped[2];	/* bytes of buf[] mapped (p2d_prefault_to()) */
	struct wjob		job[2];
	struct p2d_cpufiles	*cf;
};

/* The writer thread and its queue */
struct writer {
	pthread_t	thread;
	pthread_mutex_t	lock;
	pthread_cond_t	more;		/* a job was queued, or stop */
	pthread_cond_t	done;		/* a job was written */
	struct wjob	*head;		/* the queue, oldest first */
	struct wjob	*tail;
	bool		running;
	bool		failed;		/* could not start: write inline */
	bool		stop;
	int		err;		/* first write error */
};

/**
 * struct p2d_cpufiles - every CPU's pages
 * @cpu: indexed by CPU number (NULL for CPUs without data yet)
 * @nr: size of @cpu
 * @used: one more than the highest CPU with a stream
 * @dir: directory for the temporary files
 * @page_size: ring-buffer page size
 * @long_size: kernel long size
 * @big_endian: output byte order
 * @d: diagnostics
 */
struct p2d_cpufiles {
	struct p2d_cpu	**cpu;
	uint32_t	nr;
	uint32_t	used;
	char		*dir;
	uint32_t	page_size;
	uint32_t	long_size;
	bool		big_endian;
	struct p2d_diag	*d;
	struct writer	wr;
};

/* The write buffer holds at least one page */
static size_t wbuf_size(uint32_t page_size)
{
	return page_size > WBUF_SIZE ? page_size : WBUF_SIZE;
}

/* The first buffer of a CPU, before it grows: two pages, 16 KiB or more */
static size_t first_wbuf_size(uint32_t page_size)
{
	size_t first = 2 * (size_t)page_size > FIRST_WBUF ? 2 * (size_t)page_size : FIRST_WBUF;

	return first < wbuf_size(page_size) ? first : wbuf_size(page_size);
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct wjob *j;
	bool skip;
	int ret;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->head && !w->stop)
			pthread_cond_wait(&w->more, &w->lock);
		j = w->head;
		if (!j)
			break;
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		skip = w->err != 0;
		pthread_mutex_unlock(&w->lock);
		ret = skip ? 0 : p2d_pwrite_all(j->c->st.fd, j->c->buf[j->idx], j->len,
						(off_t)j->off);
		pthread_mutex_lock(&w->lock);
		if (ret && !w->err)
			w->err = ret;
		j->c->busy[j->idx] = false;
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Start the writer thread, signals blocked in it; false: write inline */
static bool writer_start(struct p2d_cpufiles *cf)
{
	struct writer *w = &cf->wr;
	int ret;

	if (w->running || w->failed)
		return w->running;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->more, NULL);
	pthread_cond_init(&w->done, NULL);
	ret = p2d_thread_create(&w->thread, writer_main, w);
	if (ret) {
		pthread_cond_destroy(&w->done);
		pthread_cond_destroy(&w->more);
		pthread_mutex_destroy(&w->lock);
		w->failed = true;
		return false;
	}
	w->running = true;
	return true;
}

/* Wait for every job, end the thread; returns its first error */
static int writer_stop(struct writer *w)
{
	if (!w->running)
		return 0;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->more);
	pthread_mutex_destroy(&w->lock);
	w->running = false;
	return w->err;
}

/*
 * Write the CPU's buffer to its file (through the writer thread when it
 * runs: the CPU goes on filling its other buffer, once that is written;
 * for the @last buffer nothing waits); returns 0 or a negative errno (a
 * write error of the thread comes back at a later call).
 */
static int write_out(struct p2d_cpufiles *cf, struct p2d_cpu *c, bool last)
{
	struct writer *w = &cf->wr;
	uint64_t off = c->st.bytes;
	unsigned int next;
	struct wjob *j;
	int ret;

	if (!c->wlen)
		return 0;
	c->st.bytes += c->wlen;
	if (!c->buf[1] && !last)
		c->buf[1] = malloc(c->wsize);	/* without it, writes are inline */
	if ((last && !w->running) || !c->buf[1] || !writer_start(cf)) {
		ret = p2d_pwrite_all(c->st.fd, c->wbuf, c->wlen, (off_t)off);
		c->wlen = 0;
		return ret;
	}
	next = c->cur ^ 1;
	pthread_mutex_lock(&w->lock);
	if (c->busy[next] && !last) {
		/*
		 * The writer is a whole buffer behind (it shares a CPU with other
		 * threads): write this one here, at its place in the file, rather
		 * than sleep until the writer gets to run
		 */
		ret = w->err;
		pthread_mutex_unlock(&w->lock);
		if (!ret)
			ret = p2d_pwrite_all(c->st.fd, c->wbuf, c->wlen, (off_t)off);
		c->wlen = 0;
		return ret;
	}
	j = &c->job[c->cur];
	*j = (struct wjob){ NULL, c, c->cur, c->wlen, off };
	if (w->tail)
		w->tail->next = j;
	else
		w->head = j;
	w->tail = j;
	c->busy[c->cur] = true;
	pthread_cond_signal(&w->more);
	while (c->busy[next] && !last)
		pthread_cond_wait(&w->done, &w->lock);
	ret = w->err;
	pthread_mutex_unlock(&w->lock);
	c->cur = next;
	c->wbuf = c->buf[next];
	c->wlen = 0;
	return ret;
}

/*
 * A CPU's first buffer doubles as it fills, up to the full size, before
 * anything is written: a CPU with few events keeps a small one. Returns
 * false when it is full size already, or written to (or out of memory).
 */
static bool grow_first(struct p2d_cpu *c, size_t need)
{
	size_t full = wbuf_size(c->cf->page_size), n = c->wsize;
	uint8_t *nb;

	if (c->buf[1] || c->cur || c->st.bytes || n >= full)
		return false;
	while (n < need && n < full)
		n *= 2;
	n = n < full ? n : full;
	if (n < need || !(nb = realloc(c->buf[0], n)))
		return false;
	if (nb != c->buf[0])
		c->mapped[0] = c->wsize;	/* the copy wrote those */
	c->buf[0] = c->wbuf = nb;
	c->wsize = n;
	return true;
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
	if (c->wlen + size > c->wsize && !grow_first(c, c->wlen + size))
		ret = write_out(c->cf, c, false);
	c->pb.page = c->wbuf + c->wlen;
	if (c->wlen + size > c->mapped[c->cur])
		p2d_prefault_to(c->wbuf, &c->mapped[c->cur], c->wlen + size, c->wsize);
	return ret;
}

static void free_cpu(struct p2d_cpu *c)
{
	if (!c)
		return;
	if (c->st.fd >= 0)
		close(c->st.fd);
	c->pb.page = NULL;	/* it points into wbuf */
	p2d_pb_release(&c->pb);
	free(c->buf[0]);
	free(c->buf[1]);
	free(c);
}

static struct p2d_cpu *new_cpu(struct p2d_cpufiles *cf, int *err)
{
	struct p2d_cpu *c = calloc(1, sizeof(*c));

	*err = -ENOMEM;
	if (!c)
		return NULL;
	c->st.fd = -1;
	c->cf = cf;
	c->wsize = first_wbuf_size(cf->page_size);
	c->wbuf = c->buf[0] = malloc(c->wsize);
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
	if (cf->cpu[cpu] && cpu >= cf->used)
		cf->used = cpu + 1;
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
 * p2d_cpufiles_run - add events of one CPU, in time order
 * @cf: streams
 * @cpu: their CPU
 * @e: the events (payloads, no lost marks)
 * @n: how many
 * @done: set to how many were added
 *
 * As p2d_cpufiles_event() for each, stopping at the first that fails.
 *
 * Returns 0, -E2BIG for event *@done (too large for a page; no message), or
 * another negative errno (message recorded).
 */
int p2d_cpufiles_run(struct p2d_cpufiles *cf, uint32_t cpu, const struct p2d_qentry *e,
		     size_t n, size_t *done)
{
	struct p2d_cpu *c = cpu < cf->nr ? cf->cpu[cpu] : NULL;
	size_t i;
	int ret = 0;

	*done = 0;
	if (!c) {
		c = get_cpu(cf, cpu, &ret);
		if (!c)
			return ret == -ERANGE ? p2d_error(cf->d, P2D_NO_OFFSET, ret, "CPU %u", cpu) : ret;
	}
	ret = p2d_pb_add_run(&c->pb, e, n, &i);
	if (i) {
		if (!c->st.events)
			c->st.first_ts = e[0].ts;
		c->st.events += i;
		c->st.last_ts = e[i - 1].ts;
	}
	*done = i;
	if (ret && ret != -E2BIG)
		return p2d_error(cf->d, P2D_NO_OFFSET, ret, "writing CPU %u pages: %s", cpu,
				 strerror(-ret));
	return ret;
}

/**
 * p2d_cpufiles_finish - flush every CPU's last page into its file
 * @cf: streams
 *
 * The counts of p2d_cpufiles_cpu() are final when it returns; the files
 * may still be being written, until p2d_cpufiles_sync().
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
			ret = write_out(cf, c, true);
		if (ret) {
			writer_stop(&cf->wr);
			return p2d_error(cf->d, P2D_NO_OFFSET, ret, "writing CPU %u pages: %s", i,
					 strerror(-ret));
		}
	}
	return 0;
}

/**
 * p2d_cpufiles_sync - wait until every page is in its file
 * @cf: streams, finished (may be NULL)
 *
 * Returns 0 or a negative errno (message recorded): the first error of the
 * writes that were still going on.
 */
int p2d_cpufiles_sync(struct p2d_cpufiles *cf)
{
	int ret = cf ? writer_stop(&cf->wr) : 0;

	if (ret)
		return p2d_error(cf->d, P2D_NO_OFFSET, ret, "writing pages: %s", strerror(-ret));
	return 0;
}

/**
 * p2d_cpufiles_nr - one more than the highest CPU with a stream (0: none)
 * @cf: streams, may be NULL
 *
 * Kept as streams are made: loops over the CPUs call it at each step.
 */
uint32_t p2d_cpufiles_nr(const struct p2d_cpufiles *cf)
{
	return cf ? cf->used : 0;
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
	uint32_t i;

	if (!cf)
		return;
	writer_stop(&cf->wr);
	for (i = 0; i < cf->nr; i++)
		free_cpu(cf->cpu[i]);
	free(cf->cpu);
	free(cf->dir);
	free(cf);
}
