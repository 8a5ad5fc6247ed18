// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Losses: PERF_RECORD_LOST (a ring buffer overflowed), PERF_RECORD_LOST_SAMPLES
 * (the per-event counts perf record writes when it stops), and what the
 * latter report beyond the former, so that the total is perf report's.
 */
#include <stdlib.h>
#include <string.h>

#include "read-perf-local.h"

static int place_lost(struct p2d_reader *r, struct p2d_cursor *c, const struct p2d_rd_sample *s,
		      uint64_t count)
{
	if (!s->has_cpu)
		p2d_warn_once(r->d, P2D_ONCE_LOST_NO_CPU, c->base,
			      "lost-events record without CPU: counted, not placed");
	/* time 0: perf's end-of-recording totals; the loss goes after the CPU's data */
	return r->sink->ops->lost(r->sink->ctx, s->has_cpu ? s->ev.cpu : P2D_NO_CPU,
				  s->has_time && s->ev.ts ? s->ev.ts : UINT64_MAX, count);
}

/* The loss counters of @cpu, NULL if out of memory or range */
static struct lost_cpu *lost_of(struct p2d_reader *r, uint32_t cpu)
{
	struct lost_cpu *n;
	uint32_t nr;

	if (cpu < r->nr_lost)
		return &r->lost[cpu];
	if (cpu >= P2D_MAX_CPUS)
		return NULL;
	nr = r->nr_lost ? r->nr_lost : 4;
	while (nr <= cpu)
		nr *= 2;
	n = realloc(r->lost, nr * sizeof(*n));
	if (!n)
		return NULL;
	memset(n + r->nr_lost, 0, (nr - r->nr_lost) * sizeof(*n));
	r->lost = n;
	r->nr_lost = nr;
	return &r->lost[cpu];
}

/**
 * p2d_rd_rec_lost - PERF_RECORD_LOST
 * @r: the reader
 * @c: the record
 * @misc: its header's misc
 *
 * { header; u64 id; u64 lost; sample_id }: a ring buffer overflowed, and
 * this many records of every event it carries were lost. The mark goes on
 * the CPU of the buffer, where the loss happened.
 *
 * Returns 0 or a negative errno.
 */
int p2d_rd_rec_lost(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct p2d_record ev = { .kind = P2D_RECORD_LOST };
	struct p2d_rd_sample s;
	struct lost_cpu *l;
	uint64_t count;
	int ret;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &ev.v[0]) || p2d_cur_u64(c, &count))
		return 0;
	ev.v[1] = count;

	p2d_rd_trailer(r, c, &s);
	if (s.has_cpu && (l = lost_of(r, s.ev.cpu)))
		l->records += count;
	ret = place_lost(r, c, &s, count);
	return ret ? ret : p2d_rd_sideband(r, c, &ev);
}

/*
 * The CPU of a LOST_SAMPLES record: that of its event id in ID_INDEX. perf
 * record writes the rest of its sample_id as zeros (CPU 0, time 0), so
 * only a record with a time, one the kernel wrote, is on the CPU its
 * sample_id says. False when neither tells.
 */
static bool id_cpu(const struct p2d_reader *r, const struct p2d_cursor *c,
		   const struct p2d_rd_sample *s, uint32_t *cpu)
{
	const struct id_slot *slot = NULL;

	if (r->is_pos >= 0 && c->len >= 8 + (size_t)r->is_pos)
		slot = p2d_rd_id_slot(r, p2d_get64(c->buf + c->len - r->is_pos, c->swap));
	if (slot && slot->cpu >= 0) {
		*cpu = (uint32_t)slot->cpu;
		return true;
	}
	*cpu = s->ev.cpu;
	return s->has_cpu && s->has_time && s->ev.ts;
}

/**
 * p2d_rd_rec_lost_samples - PERF_RECORD_LOST_SAMPLES
 * @r: the reader
 * @c: the record
 * @misc: its header's misc
 *
 * { header; u64 lost; sample_id }: samples one event lost on one CPU (its
 * PERF_FORMAT_LOST count), written by perf record when it stops; perf
 * report's "Total Lost Samples" is their sum. The same losses were already
 * reported, per ring buffer, by PERF_RECORD_LOST: only what those did not
 * cover on a CPU is new (p2d_rd_lost_excess()). The sample_id of these records
 * says CPU 0: the CPU of the event id, from ID_INDEX, is the right one; a
 * record without an id (a recording of one event has none in its samples)
 * is of no known CPU. Samples a BPF filter dropped on purpose
 * (PERF_RECORD_MISC_LOST_SAMPLES_BPF) are not losses.
 *
 * Returns 0.
 */
int p2d_rd_rec_lost_samples(struct p2d_reader *r, struct p2d_cursor *c, uint16_t misc)
{
	struct lost_cpu *l;
	uint64_t count;
	struct p2d_rd_sample s;
	uint32_t cpu;

	p2d_cur_skip(c, 8);
	if (p2d_cur_u64(c, &count) || (misc & P2D_MISC_LOST_SAMPLES_BPF))
		return 0;
	p2d_rd_trailer(r, c, &s);
	if (!id_cpu(r, c, &s, &cpu))
		r->lost_unplaced += count;
	else if ((l = lost_of(r, cpu)))
		l->samples += count;
	return 0;
}

/**
 * p2d_rd_lost_excess - losses the LOST_SAMPLES records of a CPU report beyond
 * its PERF_RECORD_LOST ones, marked at the end of that CPU's data
 * @r: reader, at the end of the input
 *
 * The total is then perf report's "Total Lost Samples" whenever perf wrote
 * LOST_SAMPLES records, and the sum of the LOST records otherwise. Those of
 * no known CPU cover first the LOST records no LOST_SAMPLES record of their
 * CPU covers; what they count beyond is marked on the CPU whose buffer lost
 * the most (0 if none did): where it was lost is not recorded. Except in
 * the last piece of a perf record --switch-output run: its LOST_SAMPLES count
 * the losses of the whole run (the kernel's counters are never reset), most
 * of them in the earlier pieces, which their own LOST records marked: there
 * only this piece's LOST records count, and the rest is said in a warning.
 *
 * Returns 0 or a negative errno.
 */
int p2d_rd_lost_excess(struct p2d_reader *r)
{
	struct p2d_rd_sample s = { .has_cpu = true };
	struct p2d_cursor c = { .base = p2d_in_pos(r->in) };
	uint64_t run = r->lost_unplaced, own = 0, uncovered = 0, most = 0;
	uint32_t cpu, where = 0;
	int ret = 0;

	for (cpu = 0; cpu < r->nr_lost && !ret; cpu++) {
		const struct lost_cpu *l = &r->lost[cpu];

		s.ev.cpu = cpu;
		run += l->samples;
		own += l->records;
		if (l->records > most) {
			most = l->records;
			where = cpu;
		}
		if (l->records > l->samples)
			uncovered += l->records - l->samples;
		else if (l->samples > l->records && !r->switch_output)
			ret = place_lost(r, &c, &s, l->samples - l->records);
	}
	if (!ret && r->lost_unplaced > uncovered && !r->switch_output) {
		s.ev.cpu = where;
		ret = place_lost(r, &c, &s, r->lost_unplaced - uncovered);
	}
	if (!ret && r->switch_output && run > own)
		p2d_warn(r->d, P2D_NO_OFFSET, "a piece of a perf record --switch-output run: its"
			 " LOST_SAMPLES records count %llu losses of the whole run (perf report's"
			 " Total Lost Samples); only the %llu of this piece's LOST records are"
			 " marked", (unsigned long long)run, (unsigned long long)own);
	return ret;
}
