// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The conversion (p2d_convert() of perf2dat.h): an import handler reads the
 * recording and feeds the sink below (metadata, tracing data, events,
 * losses, side-band records); events pass the selection, then the reorder
 * queue into per-CPU pages, side-band records name the tasks; at the end
 * the writer turns metadata and pages into the trace.dat.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include <event-parse.h>

#include "read-perf.h"
#include "reorder.h"
#include "select.h"
#include "write.h"

#define TASK_BYTES	24	/* a task's line in the output, about */
#define FIXED_BYTES	1024	/* the output's headers and options, about */
#define CANCEL_EVERY	256	/* events between looks at &p2d_options cancel */

static const struct p2d_import *const importers[] = {
	&p2d_import_perf,
};

/**
 * struct p2d_conv - state of one conversion
 * @opts: the caller's options
 * @sum: the caller's summary
 * @diag: diagnostics (the first error goes to @sum->error)
 * @names: the caller's &p2d_name_fn
 * @meta: recording metadata, as the reader gave it
 * @tracing: parsed tracing data, NULL until seen
 * @select: the selection
 * @tasks: pid -> comm
 * @queue: reorder queue
 * @cpus: per-CPU page streams, NULL until the tracing data is known
 * @stats: what the reader counted
 * @data_dir: where the large temporary files go
 * @dir_data: for a directory input, the path of its "data" file
 * @swap_payload: payloads are in the other byte order (converted to ours)
 * @scratch: a payload being swapped
 * @resolved: the selection was resolved, at the first event
 * @events_read: tracepoint events the reader delivered
 * @done: input bytes read, as last reported
 * @total: input size, as last reported
 * @kallsyms_bytes: size of the --kallsyms file
 * @unknown_warned: warned about an event id missing from the formats
 * @swap_warned: warned about an event that cannot be swapped
 * @big_warned: warned about an event too large for a page
 */
struct p2d_conv {
	const struct p2d_options	*opts;
	struct p2d_summary		*sum;
	struct p2d_diag			diag;
	struct p2d_names		names;
	struct p2d_meta			meta;
	struct p2d_tracing		*tracing;
	struct p2d_select		*select;
	struct p2d_tasks		*tasks;
	struct p2d_reorder		*queue;
	struct p2d_cpufiles		*cpus;
	struct p2d_read_stats		stats;
	const char			*data_dir;
	char				*dir_data;
	bool				swap_payload;
	uint8_t				*scratch;
	bool				resolved;
	uint64_t			events_read;
	uint64_t			done;
	uint64_t			total;
	uint64_t			kallsyms_bytes;
	bool				unknown_warned;
	bool				swap_warned;
	bool				big_warned;
};

/**
 * p2d_options_init - fill @opts with the defaults
 * @opts: options to initialize
 */
void p2d_options_init(struct p2d_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->output = "trace.dat";
	opts->output_fd = -1;
	opts->file_version = 7;
	opts->log_level = P2D_LOG_WARN;
}

/**
 * p2d_is_perf_data - does @buf start like a perf.data file?
 * @buf: the first bytes of a file
 * @len: bytes available in @buf
 */
bool p2d_is_perf_data(const void *buf, size_t len)
{
	return p2d_perf_magic(buf, len);
}

static bool file_is_perf(const char *path)
{
	unsigned char magic[8];
	bool perf = false;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	/* pread: nothing is consumed, and a pipe or terminal fails here */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic))
		perf = p2d_perf_magic(magic, sizeof(magic));
	close(fd);
	return perf;
}

/**
 * p2d_is_perf_path - is @path a perf.data recording?
 * @path: a file, or a perf record --threads directory
 */
bool p2d_is_perf_path(const char *path)
{
	struct stat st;
	char *data;
	bool perf;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return file_is_perf(path);
	if (asprintf(&data, "%s/data", path) < 0)
		return false;
	perf = file_is_perf(data);
	free(data);
	return perf;
}

/**
 * p2d_version - the library version string
 */
const char *p2d_version(void)
{
	return PACKAGE_VERSION;
}

/* ------------------------------------------------------------------------ */
/* The sink the import handler feeds                                        */

static int cancelled(struct p2d_conv *cv)
{
	if (!cv->opts->cancel || !*cv->opts->cancel)
		return 0;
	return p2d_error(&cv->diag, P2D_NO_OFFSET, -ECANCELED, "cancelled");
}

static int sink_meta(void *ctx, const struct p2d_meta *m)
{
	struct p2d_conv *cv = ctx;

	return p2d_meta_copy(&cv->meta, m);
}

static int sink_tracing(void *ctx, uint8_t *blob, size_t len, uint64_t off)
{
	struct p2d_conv *cv = ctx;
	const struct p2d_tracing *t;
	int ret;

	if (cv->tracing) {
		p2d_warn(&cv->diag, off, "second tracing data ignored");
		free(blob);
		return 0;
	}
	ret = p2d_tracing_parse(&cv->diag, blob, len, off, cv->opts->isolate_formats,
				&cv->tracing);
	if (ret)
		return ret;
	t = cv->tracing;
	/* the output is in this host's byte order: payloads are swapped if needed */
	cv->swap_payload = t->big_endian != p2d_host_big_endian();
	if (cv->swap_payload && !(cv->scratch = malloc(65536)))
		return -ENOMEM;
	cv->cpus = p2d_cpufiles_new(cv->data_dir, t->page_size, t->long_size,
				    p2d_host_big_endian(), &cv->diag);
	if (!cv->cpus)
		return -ENOMEM;
	return p2d_tasks_parse_cmdlines(cv->tasks, t->cmdlines.data, t->cmdlines.len);
}

static void report_progress(struct p2d_conv *cv)
{
	if (cv->opts->progress)
		cv->opts->progress(cv->opts->progress_ctx, cv->done, cv->total, cv->events_read);
}

/* An event the formats cannot describe: counted, and said once */
static int skip_event(struct p2d_conv *cv, const struct p2d_event *ev, bool *warned,
		      const char *msg, unsigned int id)
{
	cv->sum->dropped++;
	if (!*warned)
		p2d_warn(&cv->diag, ev->off, "%s (event id %u)", msg, id);
	*warned = true;
	return 0;
}

static int queue_event(struct p2d_conv *cv, const struct p2d_event *ev, const uint8_t *raw)
{
	int ret = p2d_reorder_add(cv->queue, ev->cpu, ev->ts, raw, ev->len);

	if (ret)
		return p2d_error(&cv->diag, ev->off, ret, "queueing an event: %s", strerror(-ret));
	return 0;
}

static int sink_event(void *ctx, const struct p2d_event *ev)
{
	struct p2d_conv *cv = ctx;
	uint16_t id;
	int ret;

	if (!(++cv->events_read % CANCEL_EVERY)) {
		ret = cancelled(cv);
		if (ret)
			return ret;
	}
	if (!cv->tracing)
		return p2d_error(&cv->diag, ev->off, -EBADMSG,
				 "tracepoint sample before the tracing data (event formats)");
	if (!cv->resolved) {
		cv->resolved = true;
		ret = p2d_select_resolve(cv->select, &cv->diag, &cv->meta, cv->tracing->tep,
					 ev->has_pid);
		if (ret)
			return ret;
	}
	if (ev->cpu >= P2D_MAX_CPUS)
		return p2d_error(&cv->diag, ev->off, -ERANGE, "sample for CPU %u", ev->cpu);
	id = ev->len >= 2 ? p2d_get16(ev->raw, cv->swap_payload) : 0;
	if (!p2d_select_keep(cv->select, ev, id)) {
		cv->sum->filtered++;
		return 0;
	}
	if (ev->len < 8 || !p2d_tracing_has_event(cv->tracing, id))
		return skip_event(cv, ev, &cv->unknown_warned, "tracepoint sample of an event"
				  " missing from the formats skipped", id);
	if (!cv->swap_payload)
		return queue_event(cv, ev, ev->raw);
	memcpy(cv->scratch, ev->raw, ev->len);
	if (p2d_swap_payload(cv->tracing->tep, cv->scratch, ev->len))
		return skip_event(cv, ev, &cv->swap_warned, "an event without a usable format"
				  " to convert its byte order skipped", id);
	return queue_event(cv, ev, cv->scratch);
}

static int sink_lost(void *ctx, uint32_t cpu, uint64_t ts, uint64_t count)
{
	struct p2d_conv *cv = ctx;

	cv->sum->lost += count;
	if (cpu >= P2D_MAX_CPUS || !count || !p2d_select_lost(cv->select, &cv->meta, cpu, ts))
		return 0;
	return p2d_reorder_add_lost(cv->queue, cpu, ts, count);
}

static int sink_round(void *ctx)
{
	struct p2d_conv *cv = ctx;
	int ret = cancelled(cv);

	return ret ? ret : p2d_reorder_round(cv->queue);
}

static int sink_side(void *ctx, const struct p2d_side *rec, uint64_t off)
{
	struct p2d_conv *cv = ctx;
	int ret = p2d_reorder_add_side(cv->queue, rec);

	if (ret)
		return p2d_error(&cv->diag, off, ret, "queueing a side-band record: %s",
				 strerror(-ret));
	return 0;
}

static void sink_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct p2d_conv *cv = ctx;

	cv->done = done;
	cv->total = total;
	report_progress(cv);
}

static const struct p2d_sink_ops sink_ops = {
	.meta		= sink_meta,
	.tracing	= sink_tracing,
	.event		= sink_event,
	.lost		= sink_lost,
	.round		= sink_round,
	.side		= sink_side,
	.progress	= sink_progress,
};

/* ------------------------------------------------------------------------ */
/* What leaves the reorder queue                                            */

/* Events in per-CPU time order, with the side-band records in between */
static int emit_event(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data, uint64_t len)
{
	struct p2d_conv *cv = ctx;
	int ret;

	if (!cv->cpus)
		return 0;	/* a loss before any format: counted only */
	/* common_pid, at offset 4 of every event; payloads are in our byte order */
	if (data && len >= 8)
		p2d_tasks_seen(cv->tasks, p2d_get32(data + 4, false));
	ret = p2d_cpufiles_event(cv->cpus, cpu, ts, data, len);
	if (ret != -E2BIG) {
		cv->sum->events += data && !ret;
		return ret;
	}
	cv->sum->dropped++;
	if (!cv->big_warned)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "an event of %llu bytes does not fit a %u-byte"
			 " ring-buffer page: skipped", (unsigned long long)len,
			 p2d_cpufiles_page_size(cv->cpus));
	cv->big_warned = true;
	return 0;
}

/* A side-band record, in time order: names go to the task table */
static int emit_side(void *ctx, const struct p2d_side *rec)
{
	struct p2d_conv *cv = ctx;
	int ret = 0;

	switch (rec->kind) {
	case P2D_SIDE_COMM:
		ret = p2d_tasks_set(cv->tasks, rec->tid, rec->comm, sizeof(rec->comm), false);
		break;
	case P2D_SIDE_FORK:
		ret = p2d_tasks_fork(cv->tasks, rec->tid, rec->parent);
		break;
	default:
		break;
	}
	return ret == -ENOSPC ? 0 : ret;
}

/* ------------------------------------------------------------------------ */

static int check_options(struct p2d_conv *cv)
{
	const struct p2d_options *o = cv->opts;
	bool comp = o->compression && strcmp(o->compression, "none");

	if (o->file_version && o->file_version != 6 && o->file_version != 7)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "file version %d (6 or 7)",
				 o->file_version);
	if (comp && o->file_version == 6)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL,
				 "compression needs file version 7");
	if (!o->input)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "no input");
	if (!o->output && o->output_fd < 0)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EINVAL, "no output");
	if (o->kallsyms)
		return p2d_kallsyms_check(&cv->diag, o->kallsyms, &cv->kallsyms_bytes);
	return 0;
}

static int read_input(struct p2d_conv *cv, struct p2d_input *in)
{
	const struct p2d_sink sink = { &sink_ops, cv };
	const uint8_t *head;
	size_t i;
	int ret;

	ret = p2d_in_peek(in, 8, &head);
	if (ret == -ENODATA)
		return p2d_error(&cv->diag, 0, -EBADMSG, "empty or too short for a perf.data file");
	if (ret)
		return p2d_error(&cv->diag, 0, ret, "read error: %s", strerror(-ret));
	for (i = 0; i < sizeof(importers) / sizeof(importers[0]); i++) {
		if (importers[i]->probe(head, in->end - in->start))
			return importers[i]->read(in, &sink, &cv->diag, &cv->stats);
	}
	return p2d_error(&cv->diag, 0, -EBADMSG, "not a perf.data file (bad magic)");
}

/* -v: what each CPU got */
static void report_cpus(struct p2d_conv *cv)
{
	const struct p2d_cpu_stats *c;
	char line[900];
	size_t len = 0;
	uint32_t i;
	int n;

	if (!p2d_verbose(&cv->diag))
		return;
	line[0] = '\0';
	for (i = 0; i < p2d_cpufiles_nr(cv->cpus) && len < sizeof(line) - 1; i++) {
		c = p2d_cpufiles_cpu(cv->cpus, i);
		if (!c)
			continue;
		n = snprintf(line + len, sizeof(line) - len, "%sCPU %u %llu events, %llu lost,"
			     " %llu KiB", len ? "; " : "", i, (unsigned long long)c->events,
			     (unsigned long long)c->lost, (unsigned long long)(c->bytes >> 10));
		len += n > 0 ? (size_t)n : 0;
	}
	p2d_info(&cv->diag, "pages: %s", len ? line : "no events");
}

static int finish_events(struct p2d_conv *cv)
{
	uint64_t late, off;
	int ret;

	ret = p2d_reorder_flush(cv->queue);
	if (!ret && cv->cpus)
		ret = p2d_cpufiles_finish(cv->cpus);
	if (ret)
		return ret;
	report_cpus(cv);
	late = p2d_reorder_late(cv->queue);
	if (late) {
		cv->sum->dropped += late;
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "%llu events arrived too late to be put in"
			 " order and were skipped", (unsigned long long)late);
	}
	if (!cv->tracing)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -ENODATA,
				 "no tracepoint samples to convert (%llu other samples; record"
				 " tracepoints with perf record -e SYSTEM:EVENT)",
				 (unsigned long long)cv->stats.other_samples);
	if (!cv->sum->events && cv->sum->filtered)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "no events left after the selection (%llu"
			 " tracepoint samples left out): the trace.dat has none",
			 (unsigned long long)cv->sum->filtered);
	else if (!cv->sum->events)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "the recording has no tracepoint samples: the"
			 " trace.dat has no events");
	if (cv->opts->tod && !p2d_tod_offset(&cv->meta, &off))
		return p2d_no_tod(&cv->diag);
	return cancelled(cv);
}

static void fill_summary(struct p2d_conv *cv, int out_fd)
{
	struct p2d_summary *sum = cv->sum;
	const struct p2d_cpu_stats *c;
	bool first = true;
	struct stat st;
	uint32_t i;

	for (i = 0; i < p2d_cpufiles_nr(cv->cpus); i++) {
		c = p2d_cpufiles_cpu(cv->cpus, i);
		if (!c)
			continue;
		/* what the output takes uncompressed, to tell what compression saved */
		sum->uncompressed_bytes += c->bytes;
		if (!c->events)
			continue;
		sum->cpus = (int)i + 1;
		if (first || c->first_ts < sum->first_ts)
			sum->first_ts = c->first_ts;
		if (first || c->last_ts > sum->last_ts)
			sum->last_ts = c->last_ts;
		first = false;
	}
	if ((uint32_t)sum->cpus < cv->meta.nr_cpus_avail)
		sum->cpus = (int)cv->meta.nr_cpus_avail;
	sum->tasks = p2d_tasks_count(cv->tasks);
	sum->uncompressed_bytes += cv->tracing->blob_len + cv->kallsyms_bytes + FIXED_BYTES +
				   (uint64_t)sum->tasks * TASK_BYTES;
	sum->input_bytes = cv->stats.input_bytes;
	sum->dropped += cv->stats.dropped;
	sum->other_samples = cv->stats.other_samples;
	sum->callchains = cv->stats.callchains;
	sum->sideband = cv->stats.sideband;
	if (fstat(out_fd, &st) == 0)
		sum->output_bytes = (uint64_t)st.st_size;
}

static int write_output(struct p2d_conv *cv, int out_fd)
{
	const struct p2d_options *o = cv->opts;
	const struct p2d_write_job job = {
		.file_version	= o->file_version,
		.compression	= o->compression && strcmp(o->compression, "none") ?
				  o->compression : NULL,
		.kallsyms	= o->kallsyms,
		.tod		= o->tod,
		.meta		= &cv->meta,
		.tracing	= cv->tracing,
		.tasks		= cv->tasks,
		.cpus		= cv->cpus,
		.data_dir	= cv->data_dir,
		.names		= cv->names,
		.debug		= o->log_level >= P2D_LOG_DEBUG,
	};

	return p2d_write_trace(&job, &cv->diag, out_fd);
}

static int convert(struct p2d_conv *cv, struct p2d_input *in, struct p2d_out *out)
{
	const struct p2d_options *o = cv->opts;
	int out_fd = o->output ? out->fd : o->output_fd;
	int ret;

	ret = read_input(cv, in);
	if (!ret)
		ret = finish_events(cv);
	if (!ret)
		ret = write_output(cv, out_fd);
	if (!ret)
		ret = cancelled(cv);
	if (!ret && o->output)
		ret = p2d_out_commit(&cv->diag, out, o->force);
	if (!ret)
		fill_summary(cv, out_fd);
	return ret;
}

static int open_input(struct p2d_conv *cv, struct p2d_input *in)
{
	const struct p2d_options *o = cv->opts;
	int ret = p2d_in_open(in, o->input, o->input_fd);

	if (ret == -EISDIR && o->input && strcmp(o->input, "-")) {
		/* perf record --threads: a directory with "data" and "data.N" */
		p2d_in_close(in);
		if (asprintf(&cv->dir_data, "%s/data", o->input) < 0) {
			cv->dir_data = NULL;
			return -ENOMEM;
		}
		ret = p2d_in_open(in, cv->dir_data, -1);
		if (ret == -ENOENT)
			return p2d_error(&cv->diag, P2D_NO_OFFSET, ret, "directory without a"
					 " perf.data \"data\" file");
	}
	if (ret)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, ret, "cannot read: %s", strerror(-ret));
	return 0;
}

static void release(struct p2d_conv *cv)
{
	p2d_select_free(cv->select);
	p2d_cpufiles_free(cv->cpus);
	p2d_reorder_free(cv->queue);
	p2d_tasks_free(cv->tasks);
	p2d_tracing_free(cv->tracing);
	p2d_meta_free(&cv->meta);
	free(cv->dir_data);
	free(cv->scratch);
}

/**
 * p2d_convert - convert a perf.data recording to trace.dat
 * @opts: what to convert
 * @sum: filled with counts; on failure @sum->error holds the reason
 *
 * Returns 0 on success, or a negative errno.
 */
int p2d_convert(const struct p2d_options *opts, struct p2d_summary *sum)
{
	struct p2d_out out = { .fd = -1 };
	struct p2d_input in = { .fd = -1 };
	struct p2d_conv cv;
	int ret;

	memset(sum, 0, sizeof(*sum));
	memset(&cv, 0, sizeof(cv));
	cv.opts = opts;
	cv.sum = sum;
	cv.names.fn = opts->names;
	cv.names.ctx = opts->names_ctx;
	p2d_diag_init(&cv.diag, opts, sum->error, sizeof(sum->error));
	ret = check_options(&cv);
	if (!ret)
		ret = p2d_select_new(&cv.diag, opts, &cv.select);
	if (!ret)
		ret = open_input(&cv, &in);
	if (!ret && opts->output)
		ret = p2d_out_open(&cv.diag, &out, opts->output, opts->force, &cv.names);
	if (ret)
		goto out;
	cv.data_dir = opts->output ? out.dir : p2d_tmp_dir();
	cv.tasks = p2d_tasks_alloc();
	cv.queue = p2d_reorder_new(emit_event, emit_side, &cv);
	if (!cv.tasks || !cv.queue)
		ret = -ENOMEM;
	else
		ret = convert(&cv, &in, &out);
out:
	if (ret && !cv.diag.err_set)
		p2d_error(&cv.diag, P2D_NO_OFFSET, ret, "%s", strerror(-ret));
	release(&cv);
	p2d_out_close(&out);
	p2d_in_close(&in);
	return ret;
}
