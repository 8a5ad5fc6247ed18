// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the event attributes say of the recording as a whole: the events
 * that are not tracepoints, told to the sink before their first sample (or
 * when the recording ends without one: its trace.dat still describes
 * them), and the clock of its timestamps.
 */
#include <stdio.h>

#include "read-perf-local.h"

/* perf's dummy event carries side-band records, never samples */
static bool is_dummy(const struct p2d_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/* The name perf gives an event it has no EVENT_DESC name for */
static void default_name(const struct p2d_attr *a, char *buf, size_t size)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branch-instructions", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
	};

	if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw) / sizeof(hw[0]))
		snprintf(buf, size, "%s", hw[a->config]);
	else if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof(sw) / sizeof(sw[0]))
		snprintf(buf, size, "%s", sw[a->config]);
	else if (a->type == PERF_TYPE_BREAKPOINT)
		snprintf(buf, size, "mem:0x%llx", (unsigned long long)a->config);
	else
		snprintf(buf, size, "type%u_0x%llx", a->type, (unsigned long long)a->config);
}

/**
 * p2d_rd_announce - tell the sink of the events that are not tracepoints
 * @r: reader
 *
 * Each event once: those described so far, before the first sample of any
 * (and those described later before the next sample, in pipe mode).
 *
 * Returns 0 or the sink's negative errno.
 */
int p2d_rd_announce(struct p2d_reader *r)
{
	struct p2d_source src;
	char name[64];
	uint32_t i;
	int ret;

	for (i = 0; i < r->nr_attrs; i++) {
		struct p2d_attr *a = &r->attrs[i];

		if (a->announced || a->type == PERF_TYPE_TRACEPOINT || is_dummy(a))
			continue;
		a->announced = true;
		if (!a->name)
			default_name(a, name, sizeof(name));
		src.index = i;
		src.name = a->name ? a->name : name;
		src.vals = a->vals;
		ret = r->sink->ops->source(r->sink->ctx, &src);
		if (ret)
			return ret;
	}
	r->announced = r->nr_attrs;
	return 0;
}

/**
 * p2d_rd_need_maps - can a process's mappings matter to the events?
 * @r: reader
 *
 * They name and unwind user addresses: those of samples that are not of a
 * tracepoint, and of call chains and user stacks. A file whose events are
 * all tracepoints without these needs none of its MMAP records' mappings
 * (its events are all described before its data). A pipe may describe more
 * at any point: its maps are all kept. So may, against perf's custom, a
 * file's data section (HEADER_ATTR records): the maps are kept from there
 * on, those before it are gone.
 */
bool p2d_rd_need_maps(struct p2d_reader *r)
{
	const uint64_t user = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER |
			      PERF_SAMPLE_REGS_USER | PERF_SAMPLE_BRANCH_STACK;
	uint32_t i;

	if (r->pipe || r->late_attrs)
		return true;
	if (r->maps_attrs == r->nr_attrs + 1)
		return r->need_maps;
	r->maps_attrs = r->nr_attrs + 1;
	r->need_maps = false;
	for (i = 0; i < r->nr_attrs && !r->need_maps; i++) {
		const struct p2d_attr *a = &r->attrs[i];

		r->need_maps = (a->type != PERF_TYPE_TRACEPOINT && !is_dummy(a)) ||
			       (a->sample_type & user);
	}
	return r->need_maps;
}

/* ------------------------------------------------------------------------ */
/* The clock                                                                */

/**
 * p2d_rd_clock_vote - count a clock the recording gives
 * @r: reader (its meta gets has_clockid and clockid: the clock so far)
 * @clock: the clock (-1: perf's own)
 * @sampling: given by an event that samples (not perf's dummy event, which
 *	carries side-band records only, nor the CLOCK_DATA feature)
 * @off: where, for messages
 *
 * perf record gives all its events one clock (-k CLOCK, else perf's own),
 * and with -k says which in CLOCK_DATA. Where they disagree (one damaged
 * bit), the timestamps are taken as the clock of the most sampling events,
 * then of the most others, then of the first; p2d_rd_attrs_finish() says
 * so. At most P2D_RD_CLOCKS clocks are told apart.
 */
void p2d_rd_clock_vote(struct p2d_reader *r, int32_t clock, bool sampling, uint64_t off)
{
	const struct p2d_clock_vote *best = NULL;
	struct p2d_clock_vote *v;
	uint32_t i;

	for (i = 0; i < r->nr_clocks && r->clocks[i].clock != clock; i++)
		;
	if (i == r->nr_clocks) {
		if (i == P2D_RD_CLOCKS)
			return;
		r->nr_clocks++;
		r->clocks[i].clock = clock;
		r->clocks[i].off = off;
	}
	v = &r->clocks[i];
	if (sampling)
		v->sampling++;
	else
		v->others++;
	for (i = 0; i < r->nr_clocks; i++) {
		v = &r->clocks[i];
		if (!best || v->sampling > best->sampling ||
		    (v->sampling == best->sampling && v->others > best->others))
			best = v;
	}
	r->meta.has_clockid = best->clock != -1;
	r->meta.clockid = best->clock == -1 ? 0 : best->clock;
}

/**
 * p2d_rd_attr_clock - count the clock of an event attribute
 * @r: reader
 * @a: the attribute
 */
void p2d_rd_attr_clock(struct p2d_reader *r, const struct p2d_attr *a)
{
	p2d_rd_clock_vote(r, a->use_clockid ? a->clockid : -1, !is_dummy(a), a->off);
}

/* Attributes of another clock than the one the timestamps are taken as: said once */
static void clock_warning(struct p2d_reader *r)
{
	int32_t clock = r->meta.has_clockid ? r->meta.clockid : -1;
	const struct p2d_clock_vote *v;
	uint64_t off = UINT64_MAX;
	uint32_t i, n = 0, all = 0;

	for (i = 0; i < r->nr_clocks; i++) {
		v = &r->clocks[i];
		all += v->sampling + v->others;
		if (v->clock == clock)
			continue;
		n += v->sampling + v->others;
		if (v->off < off)
			off = v->off;
	}
	if (n)
		p2d_warn(r->d, off, "the event attributes%s disagree on the clock: %u of %u give"
			 " another than %s; the timestamps are taken as %s, the clock of the"
			 " sampling events", r->meta.has_clock_data ? " and the clock data" : "",
			 n, all, p2d_clock_name(clock), p2d_clock_name(clock));
}

/**
 * p2d_rd_attrs_finish - what the attributes say once the recording is read
 * @r: reader
 *
 * Warns when they disagree on the clock, and tells the sink of the events
 * that are not tracepoints when no sample did (a recording without
 * samples, as the last piece of a perf record --switch-output run can be,
 * still has their formats; a perf stat record file has no sampling events).
 *
 * Returns 0 or the sink's negative errno.
 */
int p2d_rd_attrs_finish(struct p2d_reader *r)
{
	clock_warning(r);
	if (r->announced || r->stats->stat_records)
		return 0;
	return p2d_rd_announce(r);
}
