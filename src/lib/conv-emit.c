// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What leaves a conversion's reorder queue (conv-sink.c queued it): events
 * go to the per-CPU pages and the task table, counted by kind; their user
 * frames and sample ips are claimed for naming; side-band records update
 * the task names and the processes' mappings; the user stacks queued for
 * unwinding are unwound with the mappings of their time and written as
 * ftrace:user_stack events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "conv.h"

/* ------------------------------------------------------------------------ */
/* What leaves the reorder queue                                            */

static int emit_one(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, const uint8_t *data,
		    uint64_t len);
static int unwind_member(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, const uint8_t *data,
			 uint32_t len);

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
	uint32_t n, size, total;
	int ret;

	if (!cv->cpus)
		return 0;	/* a loss before any format: counted only */
	if (!data || !(len & P2D_GROUP_FLAG))
		return emit_one(cv, cpu, ts, data, len);
	/* a group (queue_group()): the events one after the other */
	total = (uint32_t)len & ~P2D_GROUP_FLAG;
	while (total >= 4) {
		memcpy(&n, data, 4);
		size = n & ~P2D_UNWIND_MEMBER;
		if (size > total - 4)
			return p2d_error(&cv->diag, P2D_NO_OFFSET, -EFAULT, "damaged event group");
		if (n & P2D_UNWIND_MEMBER)
			ret = unwind_member(cv, cpu, ts, data + 4, size);
		else
			ret = emit_one(cv, cpu, ts, data + 4, size);
		if (ret)
			return ret;
		data += 4 + size;
		total -= 4 + size;
	}
	return 0;
}

/* An event too large for a page: skipped, said once */
static void too_big(struct p2d_conv *cv, uint64_t len)
{
	cv->sum->dropped++;
	p2d_warn_once(&cv->diag, P2D_ONCE_TOO_BIG, P2D_NO_OFFSET, "an event of %llu bytes does"
		      " not fit a %u-byte ring-buffer page: skipped", (unsigned long long)len,
		      p2d_cpufiles_page_size(cv->cpus));
}

/**
 * p2d_conv_emit_run - consecutive events of one CPU leave the reorder queue
 * @ctx: the conversion
 * @cpu: CPU
 * @e: the events, none a group or a lost mark
 * @n: how many
 *
 * As p2d_conv_emit_event() for each, with one call into the pages.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_conv_emit_run(void *ctx, uint32_t cpu, const struct p2d_qentry *e, size_t n)
{
	struct p2d_conv *cv = ctx;
	size_t i, done;
	int ret;

	if (!cv->cpus)
		return 0;
	if (cv->own_events) {	/* counted by kind, one by one */
		for (i = 0; i < n; i++) {
			ret = emit_one(cv, cpu, e[i].ts, (const uint8_t *)(uintptr_t)e[i].off,
				       e[i].len);
			if (ret)
				return ret;
		}
		return 0;
	}
	/* common_pid, at offset 4 of every event; payloads are in our byte order */
	p2d_tasks_seen_run(cv->tasks, e, n);
	for (;;) {
		ret = p2d_cpufiles_run(cv->cpus, cpu, e, n, &done);
		cv->sum->events += done;
		if (ret != -E2BIG)
			return ret;
		too_big(cv, e[done].len);
		e += done + 1;
		n -= done + 1;
	}
}

static int claim_frame(void *ctx, uint32_t tgid, uint64_t frame)
{
	struct p2d_conv *cv = ctx;

	/* a word of the kernel half: its entries are the kernel symbols' */
	if (p2d_usyms_kernel_half(frame))
		return p2d_ksyms_add_user(cv->ksyms, frame);
	/* unwound stacks are named after the files' DWARF: read those ahead */
	if (cv->sum->unwound && !cv->usyms_ahead && !cv->opts->no_user_names) {
		const struct p2d_uw_arch *arch = p2d_uw_arch(cv->meta.arch, 2);

		p2d_usyms_ahead(cv->usyms, arch ? arch->machine : 0);
		cv->usyms_ahead = true;
	}
	return p2d_usyms_add(cv->usyms, cv->maps, tgid, frame);
}

/*
 * A user stack leaves the queue: its process's PROCMAPS gets the maps it has
 * now, and its frames are named with them
 */
static int user_stack_seen(struct p2d_conv *cv, const uint8_t *data, uint64_t len)
{
	uint32_t tgid;
	int ret;

	if (cv->usyms) {
		ret = p2d_synth_user_frames(cv->synth, data, (uint32_t)len, &tgid, claim_frame, cv);
		if (ret == 1)
			return 0;
		if (ret)
			return ret;
	} else if (!p2d_synth_user_tgid(cv->synth, data, (uint32_t)len, &tgid)) {
		return 0;
	}
	ret = p2d_maps_want(cv->maps, tgid);
	return ret == -ENOSPC ? 0 : ret;
}

/* A sample's ip taken in user mode (the lower half of a 64-bit space) is named too */
static int sample_seen(struct p2d_conv *cv, const uint8_t *data, uint64_t len)
{
	uint64_t ip;

	if (!cv->usyms || !p2d_synth_sample_ip(cv->synth, data, (uint32_t)len, &ip) ||
	    (int64_t)ip < 0)
		return 0;
	return p2d_usyms_add(cv->usyms, cv->maps,
			     p2d_usyms_pid(cv->usyms, p2d_get32(data + 4, false)), ip);
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
				return sample_seen(cv, data, len);
			case P2D_KIND_STACK:
				cv->sum->stacks++;
				return user_stack_seen(cv, data, len);
			case P2D_KIND_RECORD:
				cv->sum->records++;
				break;
			default:
				break;
			}
		}
		return ret;
	}
	too_big(cv, len);
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
	struct p2d_map map;
	int ret = 0;

	switch (rec->kind) {
	case P2D_SIDE_COMM:
		if (rec->exec)
			p2d_maps_exec(cv->maps, rec->pid);
		ret = cv->usyms ? p2d_usyms_thread(cv->usyms, rec->tid, rec->pid) : 0;
		if (!ret)
			ret = p2d_tasks_set(cv->tasks, rec->tid, rec->comm, sizeof(rec->comm),
					    false);
		break;
	case P2D_SIDE_FORK:
		ret = cv->usyms ? p2d_usyms_thread(cv->usyms, rec->tid, rec->pid) : 0;
		if (!ret)
			ret = p2d_tasks_fork(cv->tasks, rec->tid, rec->parent);
		if (!ret || ret == -ENOSPC)
			ret = p2d_maps_fork(cv->maps, rec->pid, rec->ppid);
		break;
	case P2D_SIDE_MMAP:
		map.start = rec->start;
		map.end = rec->start + rec->len < rec->start ? UINT64_MAX : rec->start + rec->len;
		map.pgoff = rec->pgoff;
		map.dso = rec->object;
		p2d_dsos_mapped(cv->dsos, rec->object, rec->pid);
		ret = p2d_maps_mmap(cv->maps, rec->pid, &map);
		if (ret == -ENOSPC)
			p2d_warn_once(&cv->diag, P2D_ONCE_MAPS, P2D_NO_OFFSET, "too many process"
				      " mappings: the rest are left out (user stacks, PROCMAPS)");
		break;
	default:
		break;
	}
	return ret == -ENOSPC ? 0 : ret;
}

/* ------------------------------------------------------------------------ */
/* User stacks unwound when their sample leaves the queue                   */

struct emit_ctx {
	struct p2d_conv	*cv;
	uint32_t	cpu;
	uint64_t	ts;
};

static int emit_payload(void *ctx, const uint8_t *data, uint32_t len)
{
	const struct emit_ctx *ec = ctx;

	return emit_one(ec->cv, ec->cpu, ec->ts, data, len);
}

/**
 * p2d_conv_foreign - is the recording of another machine, whose files are not given?
 * @cv: the conversion
 *
 * A recording of another machine than this one is unwound and named with
 * that machine's files, under --symfs; without it, this machine's would be
 * used.
 */
bool p2d_conv_foreign(struct p2d_conv *cv)
{
	const struct p2d_uw_arch *rec = p2d_uw_arch(cv->meta.arch, 2);
	const struct p2d_uw_arch *here;
	struct utsname u;

	if (cv->opts->symfs && *cv->opts->symfs)
		return false;
	if (uname(&u))
		return false;
	here = p2d_uw_arch(u.machine, 2);
	return rec && here && rec->machine != here->machine;
}

static int unwinder(struct p2d_conv *cv)
{
	struct p2d_unwind_conf conf = {
		.symfs = cv->opts->symfs && *cv->opts->symfs ? cv->opts->symfs : NULL,
		.buildid_dir = cv->buildid_dir, .arch = cv->meta.arch, .diag = &cv->diag,
		.fetch = cv->fetch,
	};

	if (cv->unwinder)
		return 0;
	cv->unwinder = p2d_unwinder_new(&conf);
	if (!cv->unwinder)
		return -ENOMEM;
	cv->uw_foreign = p2d_conv_foreign(cv);
	return 0;
}

/* A user stack the sample's maps could not all be found for, or of another machine */
static void unwound(struct p2d_conv *cv, enum p2d_uw_result res)
{
	switch (res) {
	case P2D_UW_DONE:
		cv->sum->unwound++;
		break;
	case P2D_UW_SHORT:
		cv->sum->unwound++;
		cv->sum->unwind_short++;
		break;
	case P2D_UW_SKIPPED:
		cv->sum->unwind_skipped++;
		if (cv->uw_foreign)
			p2d_warn_once(&cv->diag, P2D_ONCE_USTACKS, P2D_NO_OFFSET, "user stacks of"
				      " an %s recording are unwound with that machine's files"
				      " (the symfs option DIR): left out", cv->meta.arch);
		else
			p2d_warn_once(&cv->diag, P2D_ONCE_USTACKS, P2D_NO_OFFSET, "user stacks of"
				      " a %s recording cannot be unwound here: left out",
				      cv->meta.arch ? cv->meta.arch : "machine unknown");
		break;
	}
}

/* An unwinding request (queue_unwind()) leaves the queue */
static int unwind_member(struct p2d_conv *cv, uint32_t cpu, uint64_t ts, const uint8_t *data,
			 uint32_t len)
{
	struct emit_ctx ec = { cv, cpu, ts };
	enum p2d_uw_result res;
	struct p2d_uw_sample s;
	struct p2d_uw_req req;
	uint32_t n = 0;
	size_t fixed;
	int ret;

	if (len < sizeof(req))
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EFAULT, "damaged unwinding request");
	memcpy(&req, data, sizeof(req));
	fixed = sizeof(req) + 8 * ((size_t)req.nr_regs + req.nr_user);
	if (fixed > len || len - fixed != req.stack_size)
		return p2d_error(&cv->diag, P2D_NO_OFFSET, -EFAULT, "damaged unwinding request");
	ret = unwinder(cv);
	if (ret)
		return ret;
	if (!cv->uw_frames) {
		cv->uw_frames = malloc(sizeof(*cv->uw_frames) * (P2D_UNWIND_MAX + 2048));
		if (!cv->uw_frames)
			return -ENOMEM;
	}
	if (req.nr_user > 2048)
		req.nr_user = 2048;
	if (req.nr_user)
		memcpy(cv->uw_frames, data + sizeof(req) + 8 * (size_t)req.nr_regs,
		       8 * (size_t)req.nr_user);
	s = (struct p2d_uw_sample){
		.pid = req.pid, .tid = req.tid, .abi = req.abi, .mask = req.mask,
		.regs = data + sizeof(req), .nr_regs = req.nr_regs, .swap = req.swap,
		.stack = data + fixed, .stack_size = req.stack_size,
	};
	if (cv->uw_foreign) {
		res = P2D_UW_SKIPPED;
	} else {
		ret = p2d_unwind(cv->unwinder, cv->maps, cv->dsos, &s, cv->uw_frames + req.nr_user,
				 &n, &res);
		if (ret)
			return ret;
	}
	unwound(cv, res);
	if (!req.nr_user && !n)
		return 0;
	return p2d_synth_user_stacks(cv->synth, cv->tracing, &cv->diag, &req.of, cv->uw_frames,
				     req.nr_user + n, emit_payload, &ec);
}
