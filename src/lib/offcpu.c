// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf record --off-cpu's end-of-run batch, kept by the conversion and
 * appended to the trace.dat (offcpu.h).
 *
 * The block goes after everything trace-cmd reads (which ignores what
 * follows the last section it is pointed to), as text:
 *
 *	P2D-OFFCPU-BATCH 1 COUNT\n
 *	PID TID NS NR IP1 ... IPNR\n		COUNT lines; IPs in hex, innermost first
 *	P2D-OFFCPU-BATCH-END LENGTH\n		LENGTH: bytes of the lines above, 20 digits
 *
 * so that a reader finds it from the end of the file (plugin/offcpu-batch.c)
 * with no offset to compute while writing. The IPs are the user frames of
 * the sample's call chain (perf's BPF program records no kernel frames).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "offcpu.h"
#include "p2d-local.h"

#define BATCH_HEAD	"P2D-OFFCPU-BATCH 1 "
#define BATCH_FOOT	"P2D-OFFCPU-BATCH-END "
#define MAX_SAMPLES	(1u << 24)	/* perf's BPF map holds 102400 */
#define MAX_FRAMES	1024		/* the reader's limit; perf keeps 32 */

struct sample {
	uint32_t	pid;
	uint32_t	tid;
	uint64_t	ns;
	uint32_t	nr;
	size_t		first;		/* index of its first frame in ips */
};

/**
 * struct p2d_offcpu - the batch samples read so far
 * @s: the samples, in the recording's order
 * @nr: how many
 * @cap: room in @s
 * @ips: the frames of all of them
 * @nr_ips: how many
 * @cap_ips: room in @ips
 */
struct p2d_offcpu {
	struct sample	*s;
	size_t		nr;
	size_t		cap;
	uint64_t	*ips;
	size_t		nr_ips;
	size_t		cap_ips;
};

/**
 * p2d_offcpu_new - an empty batch
 *
 * Returns it (free with p2d_offcpu_free()), or NULL when memory is short.
 */
struct p2d_offcpu *p2d_offcpu_new(void)
{
	return calloc(1, sizeof(struct p2d_offcpu));
}

/**
 * p2d_offcpu_free - free a batch
 * @o: the batch, or NULL
 */
void p2d_offcpu_free(struct p2d_offcpu *o)
{
	if (!o)
		return;
	free(o->s);
	free(o->ips);
	free(o);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	while (n < need)
		n *= 2;
	if (n == *cap)
		return 0;
	q = reallocarray(*p, n, size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/**
 * p2d_offcpu_add - keep one sample of the batch
 * @o: the batch
 * @pid: its process
 * @tid: its thread
 * @ns: the time it was off its CPU, summed by perf
 * @user: its user frames, innermost first (our byte order)
 * @nr_user: how many (those past the reader's limit are left out)
 *
 * Returns 0, -ENOMEM, or -E2BIG past MAX_SAMPLES samples.
 */
int p2d_offcpu_add(struct p2d_offcpu *o, uint32_t pid, uint32_t tid, uint64_t ns,
		   const uint64_t *user, uint32_t nr_user)
{
	struct sample *s;

	if (o->nr >= MAX_SAMPLES)
		return -E2BIG;
	if (nr_user > MAX_FRAMES)
		nr_user = MAX_FRAMES;
	if (grow((void **)&o->s, &o->cap, o->nr + 1, sizeof(*o->s)) ||
	    grow((void **)&o->ips, &o->cap_ips, o->nr_ips + nr_user + 1, sizeof(*o->ips)))
		return -ENOMEM;
	s = &o->s[o->nr++];
	s->pid = pid;
	s->tid = tid;
	s->ns = ns;
	s->nr = nr_user;
	s->first = o->nr_ips;
	if (nr_user)
		memcpy(o->ips + o->nr_ips, user, nr_user * sizeof(*user));
	o->nr_ips += nr_user;
	return 0;
}

/**
 * p2d_offcpu_count - how many samples a batch holds
 * @o: the batch, or NULL
 */
uint64_t p2d_offcpu_count(const struct p2d_offcpu *o)
{
	return o ? o->nr : 0;
}

/**
 * p2d_offcpu_frames - call @fn on every frame of the batch, with its process
 * @o: the batch, or NULL
 * @fn: called with @ctx, the process and the frame; a non-zero return stops
 * @ctx: its context
 *
 * Returns 0 or what @fn returned.
 */
int p2d_offcpu_frames(const struct p2d_offcpu *o, int (*fn)(void *ctx, uint32_t pid, uint64_t ip),
		      void *ctx)
{
	size_t i, k;
	int ret;

	for (i = 0; o && i < o->nr; i++)
		for (k = 0; k < o->s[i].nr; k++) {
			ret = fn(ctx, o->s[i].pid, o->ips[o->s[i].first + k]);
			if (ret)
				return ret;
		}
	return 0;
}

/* The block's lines into a malloc()ed text; its length in @len */
static char *block_text(const struct p2d_offcpu *o, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	size_t i, k;

	if (!f)
		return NULL;
	fprintf(f, BATCH_HEAD "%zu\n", o->nr);
	for (i = 0; i < o->nr; i++) {
		const struct sample *s = &o->s[i];

		fprintf(f, "%u %u %llu %u", s->pid, s->tid, (unsigned long long)s->ns, s->nr);
		for (k = 0; k < s->nr; k++)
			fprintf(f, " %llx", (unsigned long long)o->ips[s->first + k]);
		fputc('\n', f);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/**
 * p2d_offcpu_append - write the batch after the end of a trace.dat
 * @o: the batch (nothing is written when it is NULL or empty)
 * @fd: the trace.dat, written (the block goes at its end)
 * @d: diagnostics
 *
 * Returns 0, or a negative errno (message recorded).
 */
int p2d_offcpu_append(const struct p2d_offcpu *o, int fd, struct p2d_diag *d)
{
	char foot[sizeof(BATCH_FOOT) + 24];
	size_t len;
	char *text;
	int ret;

	if (!o || !o->nr)
		return 0;
	text = block_text(o, &len);
	if (!text)
		return p2d_error(d, P2D_NO_OFFSET, -ENOMEM, "perf --off-cpu's end-of-run batch:"
				 " out of memory");
	snprintf(foot, sizeof(foot), BATCH_FOOT "%020zu\n", len);
	if (lseek(fd, 0, SEEK_END) < 0 && errno != ESPIPE)
		ret = -errno;
	else
		ret = p2d_write_all(fd, text, len);
	if (!ret)
		ret = p2d_write_all(fd, foot, strlen(foot));
	free(text);
	if (ret)
		return p2d_error(d, P2D_NO_OFFSET, ret, "writing perf --off-cpu's end-of-run"
				 " batch: %s", strerror(-ret));
	return 0;
}
