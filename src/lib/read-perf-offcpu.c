// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * perf record --off-cpu's "offcpu-time" event (tools/perf/util/off_cpu.h,
 * bpf_off_cpu.c and bpf_skel/off_cpu.bpf.c define its layout): a
 * PERF_TYPE_SOFTWARE / PERF_COUNT_SW_BPF_OUTPUT event of that name whose
 * samples say how long a task was off its CPU (the period) and with which
 * user call chain. Two layouts:
 *
 * - perf before the --off-cpu-thresh series (5.19 to 6.15): the samples
 *   carry their task, period and call chain in the ordinary sample fields
 *   (PERF_SAMPLE_TID, _PERIOD, _CALLCHAIN); all of them are the end-of-run
 *   batch below.
 * - since then (6.16): PERF_SAMPLE_RAW, no _CALLCHAIN; the raw data holds
 *   u64 ids, u64 off-CPU ns, u64 nr, nr chain entries (PERF_CONTEXT_USER
 *   first), u64 cgroup id. A task off its CPU for longer than the threshold
 *   is written at once by the BPF program (a direct sample: its time is
 *   the switch-in, its TID field the task switching out, ids = tgid << 32
 *   | tid); the others are summed per task and stack, and written at the
 *   end of the run (ids = tid << 32 | tgid: the other way round; perf's
 *   evsel.c reads both as pid = the low half, so perf script shows a
 *   direct sample of a thread with pid and tid exchanged).
 *
 * The end-of-run batch has no times: perf stamps it OFF_CPU_TIMESTAMP (~0 <<
 * 32 ns, about 584 years), plus one per sample to keep its order. Rule: a
 * sample of the event is of the batch when its time is OFF_CPU_TIMESTAMP or
 * later; no recording reaches that time.
 */
#include <errno.h>
#include <string.h>

#include "read-perf-local.h"

#define OFFCPU_EVENT		"offcpu-time"
#define OFF_CPU_TIMESTAMP	(~0ULL << 32)
#define OFFCPU_MAX_CHAIN	1024	/* perf's BPF program keeps 32 frames */

/**
 * p2d_rd_is_offcpu - is @a perf record --off-cpu's event?
 * @a: an attr, with its EVENT_DESC name when the recording gives one
 */
bool p2d_rd_is_offcpu(const struct p2d_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT &&
	       a->name && !strcmp(a->name, OFFCPU_EVENT);
}

/* The raw data of a sample of 6.16's layout into the sample's fields */
static int from_raw(struct p2d_rd_sample *s, bool batch)
{
	struct p2d_cursor c;
	uint64_t ids, period, nr;
	const uint8_t *chain;

	p2d_cur_init(&c, s->ev.raw, s->ev.len, s->ev.off, s->ev.swap);
	if (p2d_cur_u64(&c, &ids) || p2d_cur_u64(&c, &period) || p2d_cur_u64(&c, &nr) ||
	    nr > OFFCPU_MAX_CHAIN || p2d_cur_bytes(&c, 8 * nr, &chain))
		return -EBADMSG;
	s->ev.pid = (uint32_t)(batch ? ids : ids >> 32);
	s->ev.tid = (uint32_t)(batch ? ids >> 32 : ids);
	s->ev.has_pid = true;
	s->ev.val[P2D_VAL_PERIOD] = period;
	s->ev.chain = chain;
	s->ev.nr_chain = (uint32_t)nr;
	return 0;
}

/**
 * p2d_rd_offcpu - a sample of perf record --off-cpu's event, as perf reads it
 * @s: the sample as p2d_rd_parse_sample() decoded it (@s->ev.swap and
 *	@s->ev.off set); its task, period, call chain and ip are rewritten from
 *	the raw data when it has some
 * @batch: set when it is of the end-of-run batch (no time)
 *
 * The ip becomes the first user frame, as perf makes it, and the sample one
 * taken in user mode.
 *
 * Returns 0, or -EBADMSG when its raw data is not the layout perf writes.
 */
int p2d_rd_offcpu(struct p2d_rd_sample *s, bool *batch)
{
	const uint8_t *chain;
	int ret;

	*batch = s->has_time && s->ev.ts >= OFF_CPU_TIMESTAMP;
	if (s->ev.raw) {
		ret = from_raw(s, *batch);
		if (ret)
			return ret;
	}
	s->ev.raw = NULL;
	s->ev.len = 0;
	s->ev.kernel_ip = false;
	chain = s->ev.chain;
	if (chain && s->ev.nr_chain >= 2 &&
	    p2d_get64(chain, s->ev.swap) == (uint64_t)PERF_CONTEXT_USER)
		s->ev.val[P2D_VAL_IP] = p2d_get64(chain + 8, s->ev.swap);
	return 0;
}
