// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target of the perf.data reader alone: each input is a
 * recording, read from a memfd through the import handler into a sink that
 * checks what it gets (an event's payload lies inside the input, a
 * side-band name is terminated, a loss is counted) and keeps nothing. No
 * tracing data is parsed and nothing is written: thousands of inputs a
 * second. A failure must leave a one-line message.
 */
#include <errno.h>

#include "read-perf.h"
#include "fuzz.h"

static int in_fd = -1;

struct fuzz_sink {
	const uint8_t	*data;
	size_t		size;
	uint64_t	events;
	uint8_t		sum;
};

static size_t length(const char *s)
{
	return s ? strlen(s) : 0;
}

static int on_meta(void *ctx, const struct p2d_meta *m)
{
	/* every string is terminated: ASan sees a read past the end */
	volatile size_t n = length(m->hostname) + length(m->osrelease) + length(m->arch) +
			    length(m->perf_version) + length(m->cmdline);

	(void)n;
	return 0;
}

static int on_tracing(void *ctx, uint8_t *blob, size_t len, uint64_t off)
{
	if (len && !blob)
		abort();
	free(blob);
	return 0;
}

static int on_event(void *ctx, const struct p2d_event *ev)
{
	struct fuzz_sink *s = ctx;
	uint32_t i;

	/* the payload and call chain are readable: ASan sees any byte beyond the record */
	if ((ev->source == P2D_TRACEPOINT) != (ev->raw != NULL) || (ev->len && !ev->raw) ||
	    (ev->nr_chain && !ev->chain))
		abort();
	for (i = 0; i < ev->len; i++)
		s->sum += ev->raw[i];
	for (i = 0; i < ev->nr_chain * 8u; i++)
		s->sum += ev->chain[i];
	s->events++;
	return 0;
}

static int on_samples(void *ctx, const struct p2d_sample_entry *t, size_t n, bool swap)
{
	struct p2d_event ev;
	size_t i;

	for (i = 0; i < n; i++) {
		if (t[i].len == P2D_ENTRY_EVENT) {
			on_event(ctx, t[i].ev);
		} else if (t[i].raw) {
			p2d_entry_to_event(&t[i], swap, &ev);
			on_event(ctx, &ev);
		} else if (t[i].len || t[i].cpu != UINT32_MAX) {
			abort();	/* an end of round is nothing else */
		}
	}
	return 0;
}

static int on_sideband(void *ctx, const struct p2d_record *rec)
{
	/* names are terminated, a task's name at most 15 characters */
	volatile size_t n = rec->str ? strlen(rec->str) : 0;

	if (rec->kind >= P2D_NR_RECORD_KINDS)
		abort();
	if ((rec->kind == P2D_RECORD_COMM && (!rec->str || n > 15)) ||
	    (rec->kind == P2D_RECORD_MMAP && !rec->str) ||
	    rec->build_id_size > P2D_BUILD_ID_MAX || ((rec->map || rec->kernel) &&
						       rec->kind != P2D_RECORD_MMAP))
		abort();
	(void)n;
	return 0;
}

static int on_source(void *ctx, const struct p2d_source *src)
{
	/* the name is terminated */
	volatile size_t n = strlen(src->name);

	(void)n;
	return 0;
}

static int on_lost(void *ctx, uint32_t cpu, uint64_t ts, uint64_t count)
{
	return 0;
}

static int on_round(void *ctx)
{
	return 0;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
}

static const struct p2d_sink_ops ops = {
	.meta = on_meta, .tracing = on_tracing, .source = on_source, .samples = on_samples,
	.lost = on_lost, .sideband = on_sideband, .round = on_round,
	.progress = on_progress,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_sink fs = { data, size, 0, 0 };
	const struct p2d_sink sink = { &ops, &fs };
	struct p2d_options o;
	struct p2d_read_stats st;
	struct p2d_input in;
	struct p2d_diag d;
	char error[512];
	int ret;

	in_fd = fuzz_file(in_fd, data, size);
	p2d_options_init(&o);
	o.log = fuzz_log;
	o.log_level = P2D_LOG_INFO;
	p2d_diag_init(&d, &o, error, sizeof(error));
	if (p2d_in_open(&in, NULL, in_fd))
		abort();
	ret = p2d_import_perf.read(&in, &sink, &d, &st);
	p2d_in_close(&in);
	if (ret > 0 || (ret && (!d.err_set || !error[0] || strchr(error, '\n'))))
		abort();
	return 0;
}
