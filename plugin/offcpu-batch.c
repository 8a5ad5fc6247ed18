// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf record --off-cpu's end-of-run batch, as perf2dat keeps it.
 *
 * perf writes the off-CPU time of tasks blocked shorter than its threshold
 * at the end of the run, summed by task and stack, with a made-up time
 * (OFF_CPU_TIMESTAMP, ~0 << 32 ns: about 584 years on). perf2dat puts no
 * such sample among the trace.dat's events; it appends the batch to the
 * trace.dat, after everything libtracecmd reads (which ignores it), as
 * text (src/lib/offcpu-batch.c writes it):
 *
 *	P2D-OFFCPU-BATCH 1 COUNT\n
 *	PID TID NS NR IP1 ... IPNR\n		(COUNT lines; IPs in hex, innermost first)
 *	P2D-OFFCPU-BATCH-END OFFSET\n		(OFFSET: of the first line, 20 digits)
 *
 * The file is untrusted: sizes are capped, and anything that does not
 * parse means no batch.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blocked.h"
#include "named-file.h"

#define HEAD		"P2D-OFFCPU-BATCH 1 "
#define FOOT		"P2D-OFFCPU-BATCH-END "
#define FOOT_LEN	(sizeof(FOOT) - 1 + 20 + 1)
#define MAX_BLOCK	(256u << 20)
#define MAX_FRAMES	1024

static bool read_all(int fd, char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pread(fd, buf, len, off);

		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return true;
}

/* the block's offset and size from the footer at the end of a file of @size bytes */
static bool footer(int fd, off_t size, off_t *off, size_t *len)
{
	char foot[FOOT_LEN + 1];
	unsigned long long at = 0;

	if (size < (off_t)FOOT_LEN || !read_all(fd, foot, FOOT_LEN, size - (off_t)FOOT_LEN))
		return false;
	foot[FOOT_LEN] = '\0';
	if (memcmp(foot, FOOT, sizeof(FOOT) - 1) || foot[FOOT_LEN - 1] != '\n')
		return false;
	for (size_t i = sizeof(FOOT) - 1; i < FOOT_LEN - 1; i++) {
		if (foot[i] < '0' || foot[i] > '9')
			return false;
		at = at * 10 + (unsigned long long)(foot[i] - '0');
	}
	if (at >= (unsigned long long)(size - (off_t)FOOT_LEN) ||
	    (unsigned long long)(size - (off_t)FOOT_LEN) - at > MAX_BLOCK)
		return false;
	*off = (off_t)at;
	*len = (size_t)((unsigned long long)(size - (off_t)FOOT_LEN) - at);
	return true;
}

static bool number(char **p, int base, unsigned long long *v)
{
	char *end;

	while (**p == ' ')
		(*p)++;
	if (**p < '0' || (**p > '9' && base == 10))
		return false;
	*v = strtoull(*p, &end, base);
	if (end == *p)
		return false;
	*p = end;
	return true;
}

/* one line of the block into @b; @p moves past it */
static bool parse_line(char **p, struct p2d_ks_batch *b)
{
	unsigned long long pid, tid, ns, nr;

	memset(b, 0, sizeof(*b));
	if (!number(p, 10, &pid) || !number(p, 10, &tid) || !number(p, 10, &ns) ||
	    !number(p, 10, &nr) || pid > INT32_MAX || tid > INT32_MAX || nr > MAX_FRAMES)
		return false;
	b->pid = (int)pid;
	b->tid = (int)tid;
	b->ns = ns;
	b->ips = calloc(nr ? nr : 1, sizeof(*b->ips));
	if (!b->ips)
		return false;
	for (b->nr = 0; b->nr < nr; b->nr++) {
		unsigned long long ip;

		if (!number(p, 16, &ip))
			return false;
		b->ips[b->nr] = ip;
	}
	if (**p != '\n')
		return false;
	(*p)++;
	return true;
}

static int parse(char *text, struct p2d_ks_batch **out, size_t *nr)
{
	unsigned long long count;
	struct p2d_ks_batch *b;
	char *p = text;
	size_t n = 0;

	if (strncmp(p, HEAD, sizeof(HEAD) - 1))
		return -EINVAL;
	p += sizeof(HEAD) - 1;
	if (!number(&p, 10, &count) || *p++ != '\n' || count > MAX_BLOCK / 8)
		return -EINVAL;
	b = calloc(count ? count : 1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (; n < count; n++) {
		if (!parse_line(&p, &b[n])) {
			p2d_ks_batch_free(b, n + 1);
			return -EINVAL;
		}
	}
	if (*p) {
		p2d_ks_batch_free(b, n);
		return -EINVAL;
	}
	*out = b;
	*nr = n;
	return 0;
}

/**
 * p2d_ks_batch_read - the end-of-run batch perf2dat appended to a trace.dat
 * @fd: the trace.dat (its offset is not moved)
 * @out: set to the samples (free with p2d_ks_batch_free()), NULL when none
 * @nr: set to how many
 *
 * Returns 0 (also when the file has no batch), or a negative errno when the
 * batch is damaged or memory is short.
 */
int p2d_ks_batch_read(int fd, struct p2d_ks_batch **out, size_t *nr)
{
	struct stat st;
	char *text;
	size_t len;
	off_t off;
	int ret;

	*out = NULL;
	*nr = 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !footer(fd, st.st_size, &off, &len))
		return 0;
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	if (!read_all(fd, text, len, off)) {
		free(text);
		return -EIO;
	}
	text[len] = '\0';
	ret = parse(text, out, nr);
	free(text);
	return ret;
}

/**
 * p2d_ks_batch_read_file - p2d_ks_batch_read() of a trace.dat by name
 * @path: the file (opened only when it is a regular file)
 * @out: set to the samples, NULL when none
 * @nr: set to how many
 *
 * Returns 0 or a negative errno.
 */
int p2d_ks_batch_read_file(const char *path, struct p2d_ks_batch **out, size_t *nr)
{
	char why[128];
	int fd = p2d_open_named(path, why, sizeof(why));
	int ret;

	*out = NULL;
	*nr = 0;
	if (fd < 0)
		return fd;
	ret = p2d_ks_batch_read(fd, out, nr);
	close(fd);
	return ret;
}

/* the batch of a perf.data the input plugin converted, until the plot plugin takes it */
#define MAX_STASH	256

static struct {
	struct p2d_ks_batch	*batch;
	size_t			nr;
} stash[MAX_STASH];
static pthread_mutex_t stash_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * p2d_ks_batch_stash - keep the batch of stream @sd for the plot plugin
 * @sd: the stream
 * @batch: its samples (ownership passes), or NULL
 * @nr: how many
 *
 * The input plugin reads the batch from the temporary trace.dat it made,
 * which has no name the plot plugin could open it by.
 */
void p2d_ks_batch_stash(int sd, struct p2d_ks_batch *batch, size_t nr)
{
	if (sd < 0 || sd >= MAX_STASH) {
		p2d_ks_batch_free(batch, nr);
		return;
	}
	pthread_mutex_lock(&stash_lock);
	p2d_ks_batch_free(stash[sd].batch, stash[sd].nr);
	stash[sd].batch = batch;
	stash[sd].nr = nr;
	pthread_mutex_unlock(&stash_lock);
}

/**
 * p2d_ks_batch_take - the batch the input plugin kept for stream @sd
 * @sd: the stream
 * @batch: set to its samples (ownership passes), NULL when none
 * @nr: set to how many
 *
 * Returns true when the input plugin opened the stream (and kept its
 * batch, which may be empty).
 */
bool p2d_ks_batch_take(int sd, struct p2d_ks_batch **batch, size_t *nr)
{
	bool kept;

	*batch = NULL;
	*nr = 0;
	if (sd < 0 || sd >= MAX_STASH)
		return false;
	pthread_mutex_lock(&stash_lock);
	kept = stash[sd].batch != NULL;
	*batch = stash[sd].batch;
	*nr = stash[sd].nr;
	stash[sd].batch = NULL;
	stash[sd].nr = 0;
	pthread_mutex_unlock(&stash_lock);
	return kept;
}
