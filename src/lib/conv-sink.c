// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sink a conversion gives its import handler (sink.h): events pass the
 * selection and go, in the recording's byte order made ours, to the reorder
 * queue (a non-tracepoint sample as its perf:* event, a call chain as stack
 * events right after its event: synth.c); side-band records go there too;
 * what leaves the queue goes to the per-CPU pages and the task table.
 */
#include <stdio.h>
#include <stdlib.h>

#include "conv.h"

#define CANCEL_EVERY	256	/* events between looks at &p2d_options cancel */

/**
 * p2d_conv_cancelled - has the caller asked to stop (&p2d_options cancel)?
 * @cv: conversion
 *
 * Returns 0, or -ECANCELED (message recorded).
 */
int p2d_conv_cancelled(struct p2d_conv *cv)
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

/* The tracing data is known: the per-CPU pages can be set up */
static int tracing_ready(struct p2d_conv *cv)
{
	const struct p2d_tracing *t = cv->tracing;

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

static int sink_tracing(void *ctx, uint8_t *blob, size_t len, uint64_t off)
{
	struct p2d_conv *cv = ctx;
	int ret;

	if (cv->tracing) {
		p2d_warn(&cv->diag, off, "second tracing data ignored");
		free(blob);
		return 0;
	}
	ret = p2d_tracing_parse(&cv->diag, blob, len, off, cv->opts->isolate_formats,
				&cv->tracing);
	return ret ? ret : tracing_ready(cv);
}

/*
 * A recording without tracepoints has no tracing data: made up at its
 * first other event, with the standard page layout for its long size.
 */
static int ensure_tracing(struct p2d_conv *cv)
{
	int ret;

	if (cv->tracing)
		return 0;
	ret = p2d_tracing_new(p2d_meta_long_size(&cv->meta), 4096, &cv->tracing);
	return ret ? ret : tracing_ready(cv);
}

static int sink_source(void *ctx, const struct p2d_source *src)
{
	struct p2d_conv *cv = ctx;
	int ret = ensure_tracing(cv);

	cv->own_events = true;
	return ret ? ret : p2d_synth_source(cv->synth, cv->tracing, &cv->diag, src);
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

/*
 * An event with a call chain and its stack events are queued as one group:
 * one entry of the reorder queue instead of three, released together (they
 * share CPU and timestamp, and the stacks must follow their event). Layout:
 * for each event, its payload size (u32, this host's order), then the
 * payload.
 */
static int group_add(struct p2d_conv *cv, const uint8_t *raw, uint32_t len)
{
	uint32_t need = cv->group_len + 4 + len;

	if (need < len || need >= P2D_GROUP_FLAG)
		return -E2BIG;
	if (need > cv->group_cap) {
		uint32_t cap = cv->group_cap ? cv->group_cap : 4096;
		uint8_t *g;

		while (cap < need)
			cap *= 2;
		g = realloc(cv->group, cap);
		if (!g)
			return -ENOMEM;
		cv->group = g;
		cv->group_cap = cap;
	}
	memcpy(cv->group + cv->group_len, &len, 4);
	memcpy(cv->group + cv->group_len + 4, raw, len);
	cv->group_len = need;
	cv->group_nr++;
	return 0;
}

static int queue_event(struct p2d_conv *cv, const struct p2d_event *ev, const uint8_t *raw,
		       uint32_t len)
{
	int ret;

	if (cv->grouping)
		ret = group_add(cv, raw, len);
	else
		ret = p2d_reorder_add(cv->queue, ev->cpu, ev->ts, raw, len);
	if (ret)
		return p2d_error(&cv->diag, ev->off, ret, "queueing an event: %s", strerror(-ret));
	return 1;
}

/* The group gathered by sink_event(), to the queue */
static int queue_group(struct p2d_conv *cv, const struct p2d_event *ev)
{
	int ret;

	if (cv->group_nr == 1) /* no stack events: an event as any other */
		ret = p2d_reorder_add(cv->queue, ev->cpu, ev->ts, cv->group + 4,
				      cv->group_len - 4);
	else
		ret = p2d_reorder_add_group(cv->queue, ev->cpu, ev->ts, cv->group,
					    cv->group_len, cv->group_nr);
	if (ret)
		return p2d_error(&cv->diag, ev->off, ret, "queueing an event: %s", strerror(-ret));
	return 0;
}

/* A tracepoint sample: 1 when queued, 0 when left out, or a negative errno */
static int tracepoint_event(struct p2d_conv *cv, const struct p2d_event *ev)
{
	uint16_t id = ev->len >= 2 ? p2d_get16(ev->raw, cv->swap_payload) : 0;

	if (!p2d_select_keep(cv->select, ev, id)) {
		cv->sum->filtered++;
		return 0;
	}
	if (ev->len < 8 || !p2d_tracing_has_event(cv->tracing, id))
		return skip_event(cv, ev, &cv->unknown_warned, "tracepoint sample of an event"
				  " missing from the formats skipped", id);
	if (!cv->swap_payload)
		return queue_event(cv, ev, ev->raw, ev->len);
	memcpy(cv->scratch, ev->raw, ev->len);
	if (p2d_swap_payload(cv->tracing->tep, cv->scratch, ev->len))
		return skip_event(cv, ev, &cv->swap_warned, "an event without a usable format"
				  " to convert its byte order skipped", id);
	return queue_event(cv, ev, cv->scratch, ev->len);
}

/* A sample of another event, as its perf:* event: as tracepoint_event() */
static int sample_event(struct p2d_conv *cv, const struct p2d_event *ev)
{
	const uint8_t *data;
	uint32_t len;

	if (p2d_synth_sample(cv->synth, ev, &data, &len)) {
		cv->stats.other_samples++;
		return 0;
	}
	if (!p2d_select_keep(cv->select, ev, p2d_get16(data, false))) {
		cv->sum->filtered++;
		return 0;
	}
	return queue_event(cv, ev, data, len);
}

struct stack_ctx {
	struct p2d_conv		*cv;
	const struct p2d_event	*ev;
	uint32_t		pid;
};

static int queue_stack(void *ctx, const uint8_t *data, uint32_t len)
{
	const struct stack_ctx *sc = ctx;
	int ret = queue_event(sc->cv, sc->ev, data, len);

	return ret < 0 ? ret : 0;
}

/*
 * The call chain of an event just queued (@pid is its common_pid), as
 * stack events right after it
 */
static int stack_events(struct p2d_conv *cv, const struct p2d_event *ev, uint32_t pid)
{
	struct stack_ctx sc = { cv, ev, pid };
	int ret;

	if (cv->opts->no_callchain) {
		cv->sum->callchains++;
		return 0;
	}
	cv->own_events = true;
	ret = p2d_synth_stacks(cv->synth, cv->tracing, &cv->diag, ev, pid, queue_stack, &sc);
	/* a process with user stacks gets its maps written */
	if (ret > 0 && ev->has_pid)
		ret = p2d_procmaps_want(cv->procmaps, ev->pid);
	return ret < 0 ? ret : 0;
}

/* The selection needs the formats: resolved at the first event */
static int resolve(struct p2d_conv *cv, bool has_pid)
{
	if (cv->resolved)
		return 0;
	cv->resolved = true;
	return p2d_select_resolve(cv->select, &cv->diag, &cv->meta, cv->tracing->tep, has_pid);
}

static int sink_event(void *ctx, const struct p2d_event *ev)
{
	struct p2d_conv *cv = ctx;
	int ret;

	if (!(++cv->events_read % CANCEL_EVERY)) {
		ret = p2d_conv_cancelled(cv);
		if (ret)
			return ret;
	}
	if (!cv->tracing)
		return p2d_error(&cv->diag, ev->off, -EBADMSG,
				 "tracepoint sample before the tracing data (event formats)");
	ret = resolve(cv, ev->has_pid);
	if (ret)
		return ret;
	if (ev->cpu >= P2D_MAX_CPUS)
		return p2d_error(&cv->diag, ev->off, -ERANGE, "sample for CPU %u", ev->cpu);
	if (!ev->nr_chain || cv->opts->no_callchain)
		goto alone;
	cv->grouping = true;
	cv->group_len = cv->group_nr = 0;
	ret = ev->source == P2D_TRACEPOINT ? tracepoint_event(cv, ev) : sample_event(cv, ev);
	/* the stacks get the common_pid of their event (payloads hold at least 8 bytes) */
	if (ret > 0)
		ret = stack_events(cv, ev, p2d_get32(cv->group + 4 + 4, false));
	cv->grouping = false;
	if (ret < 0 || !cv->group_nr)
		return ret < 0 ? ret : 0;
	return queue_group(cv, ev);
alone:
	ret = ev->source == P2D_TRACEPOINT ? tracepoint_event(cv, ev) : sample_event(cv, ev);
	if (ret <= 0 || !ev->nr_chain)
		return ret < 0 ? ret : 0;
	return stack_events(cv, ev, 0);	/* counted only (no_callchain) */
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
	int ret = p2d_conv_cancelled(cv);

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

static int sink_mmap(void *ctx, const struct p2d_mmap *map)
{
	struct p2d_conv *cv = ctx;
	int ret = p2d_procmaps_add(cv->procmaps, map);

	if (ret != -ENOSPC)
		return ret;
	if (!cv->maps_warned)
		p2d_warn(&cv->diag, P2D_NO_OFFSET, "too many process mappings: the rest are not"
			 " written (PROCMAPS)");
	cv->maps_warned = true;
	return 0;
}

/*
 * With &p2d_options all_records, a side-band record as its perf:* event, at
 * its time on its CPU (CPU 0 if it has none); one without a time cannot be
 * placed and is counted
 */
static int sink_record(void *ctx, const struct p2d_record *rec)
{
	struct p2d_conv *cv = ctx;
	struct p2d_event ev = {
		.cpu = rec->has_cpu ? rec->cpu : 0, .pid = rec->pid, .tid = rec->tid,
		.has_pid = rec->has_pid, .ts = rec->ts, .off = rec->off,
	};
	const uint8_t *data;
	uint32_t len;
	int ret;

	if (!rec->has_time || ev.cpu >= P2D_MAX_CPUS) {
		cv->records_unplaced++;
		return 0;
	}
	cv->own_events = true;
	ret = ensure_tracing(cv);
	if (!ret)
		ret = p2d_synth_record(cv->synth, cv->tracing, &cv->diag, rec, &data, &len);
	if (!ret)
		ret = resolve(cv, rec->has_pid);
	if (ret)
		return ret;
	if (!p2d_select_keep(cv->select, &ev, p2d_get16(data, false))) {
		cv->sum->filtered++;
		return 0;
	}
	cv->records_converted += rec->kind != P2D_RECORD_LOST;
	ret = queue_event(cv, &ev, data, len);
	return ret < 0 ? ret : 0;
}

static void sink_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct p2d_conv *cv = ctx;

	cv->done = done;
	cv->total = total;
	report_progress(cv);
}

/*
 * The sink of a conversion, and of one that writes side-band records too
 * (--all): the reader hands records only to a sink that has .record
 */
#define CONV_SINK_OPS				\
	.meta		= sink_meta,		\
	.tracing	= sink_tracing,		\
	.source		= sink_source,		\
	.event		= sink_event,		\
	.lost		= sink_lost,		\
	.round		= sink_round,		\
	.side		= sink_side,		\
	.mmap		= sink_mmap,		\
	.progress	= sink_progress

const struct p2d_sink_ops p2d_conv_sink = {
	CONV_SINK_OPS,
};

const struct p2d_sink_ops p2d_conv_sink_all = {
	CONV_SINK_OPS,
	.record		= sink_record,
};

/* ------------------------------------------------------------------------ */
/* What leaves the reorder queue                                            */

static int emit_one(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, const uint8_t *data,
		    uint64_t len);

/**
 * p2d_conv_emit_event - an event (or lost mark) leaves the reorder queue
 * @ctx: the conversion
 * @cpu: CPU
 * @ts: timestamp
 * @data: payload, or NULL for a lost mark
 * @len: payload bytes, or the lost count; with P2D_GROUP_FLAG a group of
 *	events (queue_group())
 *
 * In per-CPU time order, with the side-band records in between.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_conv_emit_event(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data, uint64_t len)
{
	struct p2d_conv *cv = ctx;
	uint32_t n, total;
	int ret;

	if (!cv->cpus)
		return 0;	/* a loss before any format: counted only */
	if (!data || !(len & P2D_GROUP_FLAG))
		return emit_one(cv, cpu, ts, data, len);
	/* a group (queue_group()): the events one after the other */
	total = (uint32_t)len & ~P2D_GROUP_FLAG;
	while (total >= 4) {
		memcpy(&n, data, 4);
		if (n > total - 4)
			return p2d_error(&cv->diag, P2D_NO_OFFSET, -EFAULT, "damaged event group");
		ret = emit_one(cv, cpu, ts, data + 4, n);
		if (ret)
			return ret;
		data += 4 + n;
		total -= 4 + n;
	}
	return 0;
}

/* One event (or lost mark) of p2d_conv_emit_event() */
static int emit_one(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, const uint8_t *data,
		    uint64_t len)
{
	int ret;

	/* common_pid, at offset 4 of every event; payloads are in our byte order */
	if (data && len >= 8)
		p2d_tasks_seen(cv->tasks, p2d_get32(data + 4, false));
	ret = p2d_cpufiles_event(cv->cpus, cpu, ts, data, len);
	if (ret != -E2BIG) {
		if (data && !ret) {
			cv->sum->events++;
			if (!cv->own_events)
				return 0;
			switch (p2d_synth_kind(cv->synth, p2d_get16(data, false))) {
			case P2D_KIND_SAMPLE:
				cv->sum->samples++;
				break;
			case P2D_KIND_STACK:
				cv->sum->stacks++;
				break;
			case P2D_KIND_RECORD:
				cv->sum->records++;
				break;
			default:
				break;
			}
		}
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

/**
 * p2d_conv_emit_side - a side-band record leaves the reorder queue
 * @ctx: the conversion
 * @rec: the record; names go to the task table
 *
 * Returns 0 or a negative errno.
 */
int p2d_conv_emit_side(void *ctx, const struct p2d_side *rec)
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
