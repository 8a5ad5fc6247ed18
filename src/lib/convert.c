// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The conversion: an import handler reads the recording and feeds the sink
 * below (tracing data, events, losses, task names); events go through the
 * reorder queue into per-CPU pages; at the end the writer turns metadata
 * and pages into the trace.dat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include <event-parse.h>

#include "p2d-local.h"
#include "write-output.h"

#define TASK_BYTES	24	/* a task's line in the output, about */
#define FIXED_BYTES	1024	/* the output's headers and options, about */

static const struct p2d_import *const importers[] = {
	&p2d_import_perf,
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
	return len >= 8 && (!memcmp(buf, "PERFILE2", 8) || !memcmp(buf, "2ELIFREP", 8));
}

/**
 * p2d_tod_offset - the wall-clock time of the recorded clock's zero
 * @m: recording metadata
 * @ns: set to the offset in ns, rounded to the microsecond (the unit of
 *	trace.dat's DATE option, so that what trace-cmd report prints and
 *	what --time takes agree)
 *
 * perf record -k CLOCK stores a pair of readings (wall clock, CLOCK) in its
 * CLOCK_DATA feature; their difference is the offset.
 *
 * Returns false when the recording has no such pair.
 */
bool p2d_tod_offset(const struct p2d_meta *m, uint64_t *ns)
{
	if (!m->has_clock_data || !m->has_clockid || m->clock_tod_ns <= m->clock_id_ns)
		return false;
	*ns = (m->clock_tod_ns - m->clock_id_ns + 500) / 1000 * 1000;
	return true;
}

/**
 * p2d_no_tod - report that --tod cannot be honoured
 * @cv: conversion
 *
 * Returns -ENODATA (message recorded).
 */
int p2d_no_tod(struct p2d_conv *cv)
{
	return p2d_error(cv, P2D_NO_OFFSET, -ENODATA, "--tod: the recording has no clock data"
			 " (record with perf record -k CLOCK, e.g. -k mono)");
}

/**
 * p2d_version - the library version string
 */
const char *p2d_version(void)
{
	return PACKAGE_VERSION;
}

/* ------------------------------------------------------------------------ */
/* The sink an import handler feeds                                         */

/* Which event ids have a format: one bit each, looked up for every sample */
static int known_events(struct p2d_conv *cv)
{
	struct tep_handle *tep = cv->tracing->tep;
	int i, n = tep_get_events_count(tep);
	struct tep_event *e;

	cv->known = calloc(65536 / 8, 1);
	if (!cv->known)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		e = tep_get_event(tep, i);
		if (e && e->id >= 0 && e->id < 65536)
			cv->known[e->id / 8] |= (uint8_t)(1u << (e->id % 8));
	}
	return 0;
}

static bool known_event(const struct p2d_conv *cv, uint16_t id)
{
	return cv->known[id / 8] & (1u << (id % 8));
}

/**
 * p2d_sink_tracing - the recording's tracing data was read
 * @cv: conversion
 * @blob: the data, malloc()ed; ownership passes to the sink
 * @len: its size
 * @off: its input offset
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_sink_tracing(struct p2d_conv *cv, uint8_t *blob, size_t len, uint64_t off)
{
	const struct p2d_tracing *t;
	int ret;

	if (cv->tracing) {
		free(blob);
		return 0;
	}
	ret = p2d_tracing_parse(cv, blob, len, off);
	if (ret)
		return ret;
	t = cv->tracing;
	/* the output is in this host's byte order: payloads are swapped if needed */
	cv->swap_payload = t->big_endian != p2d_host_big_endian();
	if (cv->swap_payload && !(cv->scratch = malloc(65536)))
		return -ENOMEM;
	cv->cpus.page_size = t->page_size;
	cv->cpus.long_size = t->long_size;
	cv->cpus.big_endian = p2d_host_big_endian();
	ret = known_events(cv);
	if (ret)
		return ret;
	return p2d_tasks_parse_cmdlines(cv->tasks, t->cmdlines.data, t->cmdlines.len);
}

static int sorter_add(struct p2d_conv *cv, const struct p2d_event *ev, const uint8_t *raw);

/**
 * p2d_sink_event - one tracepoint event
 * @cv: conversion
 * @ev: the event
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_sink_event(struct p2d_conv *cv, const struct p2d_event *ev)
{
	int ret = p2d_select_event(cv, ev);

	if (ret <= 0)
		return ret;
	if (!cv->tracing)
		return p2d_error(cv, ev->off, -EBADMSG,
				 "tracepoint sample before the tracing data (event formats)");
	if (ev->cpu >= P2D_MAX_CPUS)
		return p2d_error(cv, ev->off, -ERANGE, "sample for CPU %u", ev->cpu);
	if (ev->len < 8 || !known_event(cv, p2d_get16(ev->raw, cv->swap_payload))) {
		cv->sum->dropped++;
		if (!cv->unknown_warned)
			p2d_warn(cv, ev->off, "tracepoint sample of an event missing from the"
				 " formats skipped");
		cv->unknown_warned = true;
		return 0;
	}
	if (cv->swap_payload) {
		memcpy(cv->scratch, ev->raw, ev->len);
		if (p2d_swap_payload(cv->tracing->tep, cv->scratch, ev->len)) {
			cv->sum->dropped++;
			if (!cv->swap_warned)
				p2d_warn(cv, ev->off, "event %u has no usable format to convert"
					 " its byte order: skipped", p2d_get16(ev->raw, true));
			cv->swap_warned = true;
			return 0;
		}
		return sorter_add(cv, ev, cv->scratch);
	}
	return sorter_add(cv, ev, ev->raw);
}

static int sorter_add(struct p2d_conv *cv, const struct p2d_event *ev, const uint8_t *raw)
{
	int ret = p2d_sorter_add(cv->sorter, ev->cpu, ev->ts, raw, ev->len);

	if (ret)
		return p2d_error(cv, ev->off, ret, "queueing an event: %s", strerror(-ret));
	return 0;
}

/**
 * p2d_sink_lost - events were lost
 * @cv: conversion
 * @cpu: CPU they were lost on
 * @ts: when
 * @count: how many
 *
 * Returns 0 or a negative errno.
 */
int p2d_sink_lost(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, uint64_t count)
{
	cv->sum->lost += count;
	if (cpu >= P2D_MAX_CPUS || !count || !p2d_select_lost(cv, cpu, ts))
		return 0;
	return p2d_sorter_add_lost(cv->sorter, cpu, ts, count);
}

/**
 * p2d_sink_round - the end of a round: older events may be written out
 * @cv: conversion
 *
 * Returns 0 or a negative errno.
 */
int p2d_sink_round(struct p2d_conv *cv)
{
	return p2d_sorter_round(cv->sorter);
}

/**
 * p2d_sink_side - a side-band record: a task was named, forked or ended
 * @cv: conversion
 * @rec: the record (ts 0 when it has no timestamp)
 * @off: input offset of the record, for messages
 *
 * The record takes effect in timestamp order with the others, as in perf's
 * ordered-events queue.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_sink_side(struct p2d_conv *cv, const struct p2d_side *rec, uint64_t off)
{
	int ret = p2d_sorter_add_side(cv->sorter, rec);

	if (ret)
		return p2d_error(cv, off, ret, "queueing a side-band record: %s", strerror(-ret));
	return 0;
}

/* A side-band record, in time order: names go to the task table */
static int apply_side(void *ctx, const struct p2d_side *rec)
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

/**
 * p2d_sink_progress - report progress to the caller
 * @cv: conversion
 */
void p2d_sink_progress(struct p2d_conv *cv)
{
	if (cv->opts->progress)
		cv->opts->progress(cv->opts->progress_ctx, p2d_in_pos(cv->in), cv->in->size,
				   cv->sum->events);
}

/* Events leave the reorder queue, in time order with the side-band records */
static int emit(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data, uint64_t len)
{
	struct p2d_conv *cv = ctx;

	/* common_pid, at offset 4 of every event; payloads are in our byte order */
	if (data && len >= 8)
		p2d_tasks_seen(cv->tasks, p2d_get32(data + 4, false));
	return p2d_cpuset_event(cv, cpu, ts, data, len);
}

/* ------------------------------------------------------------------------ */

static int check_options(struct p2d_conv *cv)
{
	const struct p2d_options *o = cv->opts;
	bool comp = o->compression && strcmp(o->compression, "none");

	if (o->file_version && o->file_version != 6 && o->file_version != 7)
		return p2d_error(cv, P2D_NO_OFFSET, -EINVAL, "file version %d (6 or 7)",
				 o->file_version);
	if (comp && o->file_version == 6)
		return p2d_error(cv, P2D_NO_OFFSET, -EINVAL, "compression needs file version 7");
	if (!o->input)
		return p2d_error(cv, P2D_NO_OFFSET, -EINVAL, "no input");
	if (!o->output && o->output_fd < 0)
		return p2d_error(cv, P2D_NO_OFFSET, -EINVAL, "no output");
	if (o->kallsyms)
		return p2d_kallsyms_check(cv, o->kallsyms, &cv->kallsyms_bytes);
	return 0;
}

static int read_input(struct p2d_conv *cv, struct p2d_input *in)
{
	const uint8_t *head;
	size_t i;
	int ret;

	ret = p2d_in_peek(in, 8, &head);
	if (ret == -ENODATA)
		return p2d_error(cv, 0, -EBADMSG, "empty or too short for a perf.data file");
	if (ret)
		return p2d_error(cv, 0, ret, "read error: %s", strerror(-ret));
	for (i = 0; i < sizeof(importers) / sizeof(importers[0]); i++) {
		if (importers[i]->probe(head, in->end - in->start))
			return importers[i]->read(cv, in);
	}
	return p2d_error(cv, 0, -EBADMSG, "not a perf.data file (bad magic)");
}

/* -v: what each CPU got */
static void report_cpus(struct p2d_conv *cv)
{
	const struct p2d_cpu *c;
	char line[900];
	size_t len = 0;
	uint32_t i;
	int n;

	if (cv->opts->log_level < P2D_LOG_INFO)
		return;
	line[0] = '\0';
	for (i = 0; i < cv->cpus.nr && len < sizeof(line) - 1; i++) {
		c = cv->cpus.cpu[i];
		if (!c)
			continue;
		n = snprintf(line + len, sizeof(line) - len, "%sCPU %u %llu events, %llu lost,"
			     " %llu KiB", len ? "; " : "", i, (unsigned long long)c->events,
			     (unsigned long long)c->lost, (unsigned long long)(c->bytes >> 10));
		len += n > 0 ? (size_t)n : 0;
	}
	p2d_info(cv, "pages: %s", len ? line : "no events");
}

static int finish_events(struct p2d_conv *cv)
{
	uint64_t late, off;
	int ret;

	ret = p2d_sorter_flush(cv->sorter);
	if (!ret)
		ret = p2d_cpuset_finish(cv);
	if (ret)
		return ret;
	report_cpus(cv);
	late = p2d_sorter_late(cv->sorter);
	if (late) {
		cv->sum->dropped += late;
		p2d_warn(cv, P2D_NO_OFFSET, "%llu events arrived too late to be put in order"
			 " and were skipped", (unsigned long long)late);
	}
	if (!cv->tracing)
		return p2d_error(cv, P2D_NO_OFFSET, -ENODATA,
				 "no tracepoint samples to convert (%llu other samples; record"
				 " tracepoints with perf record -e SYSTEM:EVENT)",
				 (unsigned long long)cv->sum->other_samples);
	if (!cv->sum->events && cv->sum->filtered)
		p2d_warn(cv, P2D_NO_OFFSET, "no events left after the selection (%llu tracepoint"
			 " samples left out): the trace.dat has none",
			 (unsigned long long)cv->sum->filtered);
	else if (!cv->sum->events)
		p2d_warn(cv, P2D_NO_OFFSET, "the recording has no tracepoint samples: the"
			 " trace.dat has no events");
	if (cv->opts->tod && !p2d_tod_offset(&cv->meta, &off))
		return p2d_no_tod(cv);
	return 0;
}

static void fill_summary(struct p2d_conv *cv, int out_fd)
{
	struct p2d_summary *sum = cv->sum;
	struct stat st;
	uint32_t i;
	bool first = true;

	for (i = 0; i < cv->cpus.nr; i++) {
		const struct p2d_cpu *c = cv->cpus.cpu[i];

		if (!c || !c->events)
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
	/* what the output takes uncompressed, to tell what compression saved */
	for (i = 0; i < cv->cpus.nr; i++) {
		if (cv->cpus.cpu[i])
			sum->uncompressed_bytes += cv->cpus.cpu[i]->bytes;
	}
	sum->uncompressed_bytes += cv->tracing->blob_len + cv->kallsyms_bytes + FIXED_BYTES +
				   (uint64_t)sum->tasks * TASK_BYTES;
	sum->input_bytes = p2d_in_total(cv->in) + cv->other_input_bytes;
	if (fstat(out_fd, &st) == 0)
		sum->output_bytes = (uint64_t)st.st_size;
}

static void free_meta(struct p2d_meta *m)
{
	free(m->hostname);
	free(m->osrelease);
	free(m->arch);
	free(m->perf_version);
	free(m->cmdline);
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
		ret = p2d_write_trace(cv, out_fd);
	if (!ret && o->output)
		ret = p2d_out_commit(cv, out, o->force);
	if (!ret)
		fill_summary(cv, out_fd);
	return ret;
}

static int open_input(struct p2d_conv *cv, struct p2d_input *in)
{
	int ret = p2d_in_open(in, cv->opts->input, cv->opts->input_fd);

	if (ret == -EISDIR && cv->opts->input && strcmp(cv->opts->input, "-")) {
		/* perf record --threads: a directory with "data" and "data.N" */
		p2d_in_close(in);
		if (asprintf(&cv->dir_data, "%s/data", cv->opts->input) < 0) {
			cv->dir_data = NULL;
			return -ENOMEM;
		}
		ret = p2d_in_open(in, cv->dir_data, -1);
		if (ret == -ENOENT)
			return p2d_error(cv, P2D_NO_OFFSET, ret, "directory without a perf.data"
					 " \"data\" file");
	}
	if (ret)
		return p2d_error(cv, P2D_NO_OFFSET, ret, "cannot read: %s", strerror(-ret));
	return 0;
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
	char *dir = NULL;
	int ret;

	memset(sum, 0, sizeof(*sum));
	memset(&cv, 0, sizeof(cv));
	cv.opts = opts;
	cv.sum = sum;
	cv.in = &in;
	ret = check_options(&cv);
	if (!ret)
		ret = p2d_select_init(&cv);
	if (!ret)
		ret = open_input(&cv, &in);
	if (!ret && opts->output)
		ret = p2d_out_open(&cv, &out, opts->output, opts->force);
	if (ret)
		goto out;
	cv.data_dir = opts->output ? out.dir : (dir = strdup(getenv("TMPDIR") ?
							  getenv("TMPDIR") : "/tmp"));
	cv.tasks = p2d_tasks_alloc();
	cv.sorter = p2d_sorter_alloc(emit, apply_side, &cv);
	if (!cv.data_dir || !cv.tasks || !cv.sorter)
		ret = -ENOMEM;
	else
		ret = convert(&cv, &in, &out);
out:
	if (ret && !cv.err_set)
		p2d_error(&cv, P2D_NO_OFFSET, ret, "%s", strerror(-ret));
	p2d_tracedir_remove(&cv);
	p2d_select_release(&cv);
	p2d_cpuset_release(&cv.cpus);
	p2d_sorter_free(cv.sorter);
	p2d_tasks_free(cv.tasks);
	p2d_tracing_free(cv.tracing);
	free_meta(&cv.meta);
	p2d_out_close(&out);
	p2d_in_close(&in);
	free(cv.dir_data);
	free(cv.scratch);
	free(cv.known);
	free(dir);
	return ret;
}
