// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sink a conversion gives its import handler (sink.h): events pass the
 * selection and go, in the recording's byte order made ours, to the reorder
 * queue (a non-tracepoint sample as its perf:* event, a call chain as stack
 * events right after its event: synth.c); side-band records go there too.
 * What leaves the queue is conv-emit.c's.
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
	if (!cv->cpus || p2d_ksyms_formats(cv->ksyms, t->tep))
		return -ENOMEM;
	/* and those parsed when first needed */
	p2d_tracing_set_hook(cv->tracing, p2d_ksyms_format_hook, cv->ksyms);
	cv->ksyms_map = p2d_ksyms_fields_map(cv->ksyms);
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
	if (!ret && (ret = p2d_tracing_add_wakeup(cv->tracing)))
		return p2d_error(&cv->diag, off, ret, "cannot add the format of sched_wakeup");
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
static int skip_event(struct p2d_conv *cv, const struct p2d_event *ev, enum p2d_once what,
		      const char *msg, unsigned int id)
{
	cv->sum->dropped++;
	p2d_warn_once(&cv->diag, what, ev->off, "%s (event id %u)", msg, id);
	return 0;
}

/*
 * An event with a call chain and its stack events are queued as one group:
 * one entry of the reorder queue instead of three, released together (they
 * share CPU and timestamp, and the stacks must follow their event). Layout:
 * for each event, its payload size (u32, this host's order), then the
 * payload.
 */
static int group_reserve(struct p2d_conv *cv, uint32_t len, uint32_t flag, uint8_t **p)
{
	uint32_t need = cv->group_len + 4 + len, word = len | flag;

	if (need < len || need >= P2D_UNWIND_MEMBER)
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
	memcpy(cv->group + cv->group_len, &word, 4);
	*p = cv->group + cv->group_len + 4;
	cv->group_len = need;
	cv->group_nr += !flag;
	return 0;
}

static int group_add(struct p2d_conv *cv, const uint8_t *raw, uint32_t len)
{
	uint8_t *p;
	int ret = group_reserve(cv, len, 0, &p);

	if (!ret)
		memcpy(p, raw, len);
	return ret;
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

	if (cv->group_nr == 1 && !cv->group_unwind) /* no stack events: an event as any other */
		ret = p2d_reorder_add(cv->queue, ev->cpu, ev->ts, cv->group + 4,
				      cv->group_len - 4);
	else
		ret = p2d_reorder_add_group(cv->queue, ev->cpu, ev->ts, cv->group,
					    cv->group_len, cv->group_nr);
	if (ret)
		return p2d_error(&cv->diag, ev->off, ret, "queueing an event: %s", strerror(-ret));
	return 0;
}

/* The kernel addresses in the fields of a payload of event @id, for the symbol table */
static inline void payload_ksyms(struct p2d_conv *cv, uint16_t id, const uint8_t *raw, uint32_t len)
{
	if (p2d_ksyms_has_fields(cv->ksyms_map, id))
		p2d_ksyms_payload(cv->ksyms, raw, len);
}

/* A tracepoint sample: 1 when queued, 0 when left out, or a negative errno */
static int tracepoint_event(struct p2d_conv *cv, const struct p2d_event *ev)
{
	uint16_t id = ev->len >= 2 ? p2d_get16(ev->raw, cv->swap_payload) : 0;
	int ret;

	if (!p2d_select_keep(cv->select, ev, id)) {
		cv->sum->filtered++;
		return 0;
	}
	/* its format is parsed at its first event */
	ret = ev->len < 8 ? 0 : p2d_tracing_need(cv->tracing, id);
	if (ret < 0)
		return ret;
	if (!ret)
		return skip_event(cv, ev, P2D_ONCE_NO_FORMAT, "tracepoint sample of an event"
				  " missing from the formats skipped", id);
	if (!cv->swap_payload) {
		payload_ksyms(cv, id, ev->raw, ev->len);
		return queue_event(cv, ev, ev->raw, ev->len);
	}
	memcpy(cv->scratch, ev->raw, ev->len);
	if (p2d_swap_payload(cv->tracing->tep, cv->scratch, ev->len))
		return skip_event(cv, ev, P2D_ONCE_NO_SWAP, "an event without a usable format"
				  " to convert its byte order skipped", id);
	p2d_ksyms_payload(cv->ksyms, cv->scratch, ev->len);
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
	/* its ip is printed as a symbol (%pS) */
	if (ev->kernel_ip && p2d_ksyms_add(cv->ksyms, ev->val[P2D_VAL_IP]))
		return -ENOMEM;
	return queue_event(cv, ev, data, len);
}

struct stack_ctx {
	struct p2d_conv		*cv;
	const struct p2d_event	*ev;
};

static int queue_stack(void *ctx, const uint8_t *data, uint32_t len)
{
	const struct stack_ctx *sc = ctx;
	int ret = queue_event(sc->cv, sc->ev, data, len);

	return ret < 0 ? ret : 0;
}

/* A sample perf would unwind: user registers and a copy of its user stack */
static bool to_unwind(const struct p2d_event *ev)
{
	return ev->regs_abi && ev->ustack && ev->ustack_size && ev->has_pid &&
	       ev->pid != UINT32_MAX && ev->tid != UINT32_MAX;
}

/* A user stack to unwind when the sample leaves the queue (&struct p2d_uw_req) */
static int queue_unwind(struct p2d_conv *cv, const struct p2d_event *ev,
			const struct p2d_stack_of *of, const uint64_t *user, uint32_t nr_user)
{
	struct p2d_uw_req req = {
		.pid = ev->pid, .tid = ev->tid, .of = *of, .abi = ev->regs_abi,
		.mask = ev->regs_mask, .swap = ev->swap, .nr_user = nr_user,
		.nr_regs = (uint32_t)__builtin_popcountll(ev->regs_mask),
		.stack_size = ev->ustack_size,
	};
	size_t len = sizeof(req) + 8 * ((size_t)req.nr_regs + nr_user) + req.stack_size;
	uint8_t *p;
	int ret;

	if (len >= P2D_UNWIND_MEMBER)
		return 0;
	ret = group_reserve(cv, (uint32_t)len, P2D_UNWIND_MEMBER, &p);
	if (ret)
		return p2d_error(&cv->diag, ev->off, ret, "queueing a user stack: %s",
				 strerror(-ret));
	memcpy(p, &req, sizeof(req));
	p += sizeof(req);
	if (req.nr_regs)
		memcpy(p, ev->regs, 8 * (size_t)req.nr_regs);
	p += 8 * (size_t)req.nr_regs;
	if (nr_user)	/* (a chain may have no user part: then @user is NULL) */
		memcpy(p, user, 8 * (size_t)nr_user);
	memcpy(p + 8 * (size_t)nr_user, ev->ustack, req.stack_size);
	cv->group_unwind = true;
	return 0;
}

/*
 * The call chain of an event just queued (@payload, in our byte order), as
 * stack events right after it: its kernel frames now, in one kernel_stack
 * event even when there are none (trace-cmd hist gives an event without a
 * kernel_stack the stack it keeps for the task: an empty one makes it the
 * event's alone), its user frames now or, for a sample perf would unwind,
 * when it leaves the queue
 */
static int stack_events(struct p2d_conv *cv, const struct p2d_event *ev, const uint8_t *payload)
{
	struct stack_ctx sc = { cv, ev };
	struct p2d_chain ch = { 0 };
	struct p2d_stack_of of;
	uint32_t i;
	int ret = 0;

	if (cv->opts->no_callchain) {
		cv->sum->callchains++;
		return 0;
	}
	cv->own_events = true;
	of.pid = p2d_get32(payload + 4, false);
	of.tgid = ev->has_pid && ev->pid != UINT32_MAX ? ev->pid : 0;
	memcpy(&of.flags, payload + 2, 2);
	if (ev->nr_chain && (ret = p2d_synth_chain(cv->synth, ev, &ch)))
		return ret;
	if (ch.bad && !cv->sum->bad_chains++)
		p2d_warn(&cv->diag, ev->off, "a call chain with a value of perf's context marker"
			 " range that is no marker: its frames left out, as perf leaves them out");
	for (i = 0; i < ch.nr_kernel; i++)
		if (p2d_ksyms_add(cv->ksyms, ch.kernel[i]))
			return -ENOMEM;
	ret = p2d_synth_kernel_stack(cv->synth, cv->tracing, &cv->diag, &of, ch.kernel,
				     ch.nr_kernel, queue_stack, &sc);
	if (!ret && to_unwind(ev))
		return queue_unwind(cv, ev, &of, ch.user, ch.nr_user);
	if (!ret && ch.nr_user)
		ret = p2d_synth_user_stacks(cv->synth, cv->tracing, &cv->diag, &of, ch.user,
					    ch.nr_user, queue_stack, &sc);
	return ret;
}

/* The selection needs the formats: resolved at the first event */
static int resolve(struct p2d_conv *cv, bool has_pid)
{
	if (cv->resolved)
		return 0;
	cv->resolved = true;
	return p2d_select_resolve(cv->select, &cv->diag, &cv->meta, cv->tracing, has_pid);
}

/* A decoded sample, or a tracepoint sample the short path leaves (sink_samples()) */
static int sink_event(struct p2d_conv *cv, const struct p2d_event *ev)
{
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
	if ((!ev->chain && !to_unwind(ev)) || cv->opts->no_callchain)
		goto alone;
	cv->grouping = true;
	cv->group_unwind = false;
	cv->group_len = cv->group_nr = 0;
	ret = ev->source == P2D_TRACEPOINT ? tracepoint_event(cv, ev) : sample_event(cv, ev);
	/* the stacks get the common_pid of their event (payloads hold at least 8 bytes) */
	if (ret > 0)
		ret = stack_events(cv, ev, cv->group + 4);
	cv->grouping = false;
	if (ret < 0 || !cv->group_nr)
		return ret < 0 ? ret : 0;
	return queue_group(cv, ev);
alone:
	ret = ev->source == P2D_TRACEPOINT ? tracepoint_event(cv, ev) : sample_event(cv, ev);
	if (ret <= 0 || (!ev->chain && !to_unwind(ev)))
		return ret < 0 ? ret : 0;
	cv->sum->callchains++;	/* no_callchain */
	return 0;
}

/* sink_samples() may take its short path */
static bool short_path(const struct p2d_conv *cv)
{
	return cv->tracing && cv->resolved && !cv->swap_payload && !p2d_select_active(cv->select);
}

/* Events sink_samples() let through, @t[0 .. @n - 1], to the queue */
static int queue_tps(struct p2d_conv *cv, const struct p2d_sample_entry *t, size_t n)
{
	size_t done;
	int ret = p2d_reorder_add_tps(cv->queue, t, n, &done);

	if (ret && t[done].raw)
		return p2d_error(&cv->diag, t[done].off, ret, "queueing an event: %s",
				 strerror(-ret));
	return ret;	/* an end of round's: as sink_round()'s */
}

static int sink_round(void *ctx);

/*
 * May the end of a round go to the queue among the samples, as sink_round()
 * would give it (lazy, and nothing cancelled)?
 */
static bool round_in_run(const struct p2d_conv *cv)
{
	return cv->cpus && !cv->own_events && !(cv->opts->cancel && *cv->opts->cancel);
}

/*
 * Samples in a row (&p2d_sample_entry), the one road every sample takes:
 * the tracepoint samples of p2d_rd_fast_samples() as sink_event() would
 * take each, with what is the same for all of them looked at once, and
 * queued straight from @t. A sample the short path does not cover (a
 * decoded one, one before the formats or the selection are settled, with
 * a selection, in another byte order, on a CPU out of range, of an id
 * without a format, or the one that looks at cancel) goes through
 * sink_event(). The ends of rounds between them go to the queue with them
 * when sink_round() would make the queue's release lazy and nothing is
 * cancelled; else through sink_round().
 */
static int sink_samples(void *ctx, const struct p2d_sample_entry *t, size_t n, bool swap)
{
	static const uint8_t no_fields[(UINT16_MAX + 1) / 8];	/* no ksyms map: none has */
	struct p2d_conv *cv = ctx;
	const uint8_t *known, *fields;
	uint32_t id;
	struct p2d_event ev;
	size_t i = 0, start = 0, end, rounds;
	int ret;

	/* p2d_sink_sample()'s (the loop would leave it at once) */
	if (n == 1 && t->len == P2D_ENTRY_EVENT)
		return sink_event(cv, t->ev);
	for (;;) {
		/* t[start .. i - 1] take the short path; the event at @end looks at cancel */
		end = short_path(cv) ? i + CANCEL_EVERY - 1 - cv->events_read % CANCEL_EVERY : i;
		if (end > n)
			end = n;
		/* in locals: p2d_ksyms_payload() changes none */
		known = cv->tracing ? cv->tracing->known : NULL;
		fields = cv->ksyms_map ? cv->ksyms_map : no_fields;
		for (rounds = 0; i < end; i++) {
			const struct p2d_sample_entry *e = &t[i];

			if (e->cpu >= P2D_MAX_CPUS || e->len < 8) {
				/* an end of round (@raw NULL, @len 0) stays in the run when lazy */
				if (e->raw || e->len || !round_in_run(cv))
					break;
				rounds++;
				if (end < n)
					end++;
				continue;
			}
			id = p2d_get16(e->raw, false);
			/* p2d_tracing_has_event() and not p2d_ksyms_has_fields(): the most */
			if (known[id / 8] & ~fields[id / 8] & (1u << (id % 8)))
				continue;
			if (!(known[id / 8] & (1u << (id % 8))))
				break;
			p2d_ksyms_payload(cv->ksyms, e->raw, e->len);
		}
		cv->events_read += i - start - rounds;
		if (i == n)
			break;
		/* the ones before it are queued first */
		if (i > start && (ret = queue_tps(cv, t + start, i - start)))
			return ret;
		if (t[i].len == P2D_ENTRY_EVENT) {
			ret = sink_event(cv, t[i].ev);
		} else if (t[i].raw) {
			p2d_entry_to_event(&t[i], swap, &ev);
			ret = sink_event(cv, &ev);
		} else {
			ret = sink_round(cv);
		}
		if (ret)
			return ret;
		start = ++i;
	}
	return n > start ? queue_tps(cv, t + start, n - start) : 0;
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

	if (ret)
		return ret;
	/*
	 * The pages keep each CPU apart: their events may be released later,
	 * in bigger runs. Not those of perf2dat's own events (user frames,
	 * unwinding: named in the order they leave), nor before the pages
	 * exist (a loss then is only counted)
	 */
	if (cv->cpus && !cv->own_events)
		return p2d_reorder_round_lazy(cv->queue);
	return p2d_reorder_round(cv->queue);
}

/* A task's name, fork or exit, applied in time order through the side-band queue */
static int side_task(struct p2d_conv *cv, const struct p2d_record *rec)
{
	struct p2d_side side = { .ts = rec->has_time ? rec->ts : 0 };
	int ret;

	if (rec->kind == P2D_RECORD_COMM) {
		side.kind = P2D_SIDE_COMM;
		side.pid = (uint32_t)rec->v[0];
		side.tid = (uint32_t)rec->v[1];
		side.exec = rec->v[2];
		strncpy(side.comm, rec->str, sizeof(side.comm) - 1);
	} else {
		side.kind = rec->kind == P2D_RECORD_FORK ? P2D_SIDE_FORK : P2D_SIDE_EXIT;
		side.pid = (uint32_t)rec->v[0];
		side.ppid = (uint32_t)rec->v[1];
		side.tid = (uint32_t)rec->v[2];
		side.parent = (uint32_t)rec->v[3];
	}
	ret = p2d_reorder_add_side(cv->queue, &side);
	if (ret)
		return p2d_error(&cv->diag, rec->off, ret, "queueing a side-band record: %s",
				 strerror(-ret));
	return 0;
}

/*
 * A mapping: the kernel's says where its symbols are; a process's is
 * applied to its maps in time order, through the side-band queue
 */
static int side_map(struct p2d_conv *cv, const struct p2d_record *map)
{
	uint32_t pid = (uint32_t)map->v[0];
	struct p2d_side rec = {
		.ts = map->has_time ? map->ts : 0, .kind = P2D_SIDE_MMAP, .pid = pid, .tid = pid,
		.start = map->v[2], .len = map->v[3], .pgoff = map->v[4],
	};
	int ret;

	if (map->kernel || pid == UINT32_MAX) {
		if (map->kernel)
			p2d_ksyms_kernel_map(cv->ksyms, map->str, map->v[4]);
		/* perf >= 6.16 records build ids in MMAP2 (--buildid-mmap), not in BUILD_ID */
		if (map->kernel && map->build_id_size && !strncmp(map->str, "[kernel.kallsyms]", 17))
			p2d_ksyms_kernel_id(cv->ksyms, map->build_id, map->build_id_size);
		return 0;
	}
	/* the maps of every process ever run, else: memory that grew with the input */
	if (map->unused)
		return 0;	/* their files are only named through them */
	ret = p2d_dsos_get(cv->dsos, map->str, map->build_id, map->build_id_size, &rec.object);
	if (!ret)
		ret = p2d_reorder_add_side(cv->queue, &rec);
	if (ret == -ENOSPC) {
		p2d_warn_once(&cv->diag, P2D_ONCE_MAPS, map->off, "too many process mappings:"
			      " the rest are left out (user stacks, PROCMAPS)");
		return 0;
	}
	if (ret)
		return p2d_error(&cv->diag, map->off, ret, "queueing a mapping: %s", strerror(-ret));
	return 0;
}

/* HEADER_BUILD_ID: which kernel the recording ran, which files it used */
static int sink_build_id(void *ctx, const struct p2d_build_id *bid, uint64_t off)
{
	struct p2d_conv *cv = ctx;
	int ret;

	if (bid->kernel) {
		if (!strcmp(bid->file, "[kernel.kallsyms]"))
			p2d_ksyms_kernel_id(cv->ksyms, bid->id, bid->size);
		return 0;
	}
	ret = p2d_dsos_build_id(cv->dsos, bid->file, bid->id, bid->size);
	if (ret && ret != -ENOSPC)
		return p2d_error(&cv->diag, off, ret, "keeping a build id: %s", strerror(-ret));
	return 0;
}

/*
 * With &p2d_options all_records, a side-band record as its perf:* event, at
 * its time on its CPU (CPU 0 if it has none); one without a time cannot be
 * placed and is counted. Those perf synthesizes at the start have time 0:
 * they get the earliest time of the recording (p2d_reorder_add_untimed()).
 */
static int side_event(struct p2d_conv *cv, const struct p2d_record *rec)
{
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
	if (ev.ts)
		ret = queue_event(cv, &ev, data, len);
	else if ((ret = p2d_reorder_add_untimed(cv->queue, ev.cpu, data, len)))
		ret = p2d_error(&cv->diag, ev.off, ret, "queueing an event: %s", strerror(-ret));
	return ret < 0 ? ret : 0;
}

/*
 * A side-band record: what it says of a task or a mapping, and with
 * &p2d_options all_records (perf2dat --all) its perf:* event
 */
static int sink_sideband(void *ctx, const struct p2d_record *rec)
{
	struct p2d_conv *cv = ctx;
	int ret = 0;

	if (rec->kind == P2D_RECORD_COMM || rec->kind == P2D_RECORD_FORK ||
	    rec->kind == P2D_RECORD_EXIT)
		ret = side_task(cv, rec);
	else if (rec->kind == P2D_RECORD_MMAP && rec->map)
		ret = side_map(cv, rec);
	if (!ret && cv->opts->all_records)
		ret = side_event(cv, rec);
	return ret;
}

static void sink_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct p2d_conv *cv = ctx;

	cv->done = done;
	cv->total = total;
	report_progress(cv);
}

/* The sink of a conversion */
/* KSYMBOL: a BPF program's code, named in the kallsyms section */
static int sink_ksymbol(void *ctx, const struct p2d_ksymbol *k, uint64_t off)
{
	struct p2d_conv *cv = ctx;

	(void)off;
	if (k->unregister)
		return 0;
	return p2d_ksyms_code(cv->ksyms, k->addr, k->len, k->name);
}

/*
 * A sample of perf --off-cpu's end-of-run batch: never an event (it has no
 * time); counted, and kept for the trace.dat's end (offcpu.h) unless a
 * selection is given, which it cannot be placed in
 */
static int sink_offcpu_batch(void *ctx, const struct p2d_event *ev)
{
	struct p2d_conv *cv = ctx;
	struct p2d_chain ch = { 0 };
	int ret;

	cv->sum->offcpu_batch++;
	cv->sum->offcpu_batch_ns += ev->val[P2D_VAL_PERIOD];
	if (p2d_select_active(cv->select)) {
		cv->sum->filtered++;
		return 0;
	}
	if (!cv->offcpu && !(cv->offcpu = p2d_offcpu_new()))
		return p2d_error(&cv->diag, ev->off, -ENOMEM, "out of memory");
	if (ev->nr_chain && (ret = p2d_synth_chain(cv->synth, ev, &ch)))
		return ret;
	ret = p2d_offcpu_add(cv->offcpu, ev->pid, ev->tid, ev->val[P2D_VAL_PERIOD], ch.user,
			     ch.nr_user);
	if (ret)
		return p2d_error(&cv->diag, ev->off, ret, "perf --off-cpu's end-of-run batch: %s",
				 strerror(-ret));
	return 0;
}

const struct p2d_sink_ops p2d_conv_sink = {
	.meta		= sink_meta,
	.tracing	= sink_tracing,
	.source		= sink_source,
	.samples	= sink_samples,
	.lost		= sink_lost,
	.round		= sink_round,
	.sideband	= sink_sideband,
	.build_id	= sink_build_id,
	.progress	= sink_progress,
	.ksymbol	= sink_ksymbol,
	.offcpu_batch	= sink_offcpu_batch,
};
