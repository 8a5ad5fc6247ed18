/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One conversion: its state (convert.c runs it, conv-sink.c is its sink,
 * conv-emit.c takes what leaves its reorder queue)
 */
#ifndef P2D_CONV_H
#define P2D_CONV_H

#include "ksyms.h"
#include "maps.h"
#include "offcpu.h"
#include "reorder.h"
#include "select.h"
#include "synth.h"
#include "unwind.h"
#include "usyms.h"
#include "write.h"

/**
 * struct p2d_conv - state of one conversion
 * @opts: the caller's options
 * @sum: the caller's summary
 * @diag: diagnostics (the first error goes to @sum->error)
 * @names: the caller's &p2d_name_fn
 * @meta: recording metadata, as the reader gave it
 * @tracing: parsed tracing data, NULL until seen (made up for a recording
 *	without tracepoints at its first other event)
 * @synth: the events perf2dat writes (non-tracepoint samples, stacks)
 * @dsos: the files the processes map
 * @maps: the processes' executable mappings, in time order
 * @ksyms: the kernel addresses written, and their symbols at the end
 * @ksyms_out: the kallsyms section chosen
 * @usyms: the user addresses written, named at the end (NULL: not named)
 * @usyms_out: their kallsyms lines
 * @unwinder: DWARF unwinding of user stacks, NULL until the first
 * @uw_frames: frames being unwound
 * @uw_foreign: the recording is of another machine, whose files are not given
 * @select: the selection
 * @tasks: pid -> comm
 * @queue: reorder queue
 * @cpus: per-CPU page streams, NULL until the tracing data is known
 * @stats: what the reader counted
 * @data_dir: where the large temporary files go: next to the output, or
 *	@tmp_dir
 * @tmp_dir: p2d_tmp_dir(), when the output is a descriptor
 * @importer: the format that claimed a directory input (NULL: probed by content)
 * @swap_payload: payloads are in the other byte order (converted to ours)
 * @scratch: a payload being swapped
 * @group: an event and its stack events, being gathered (conv-sink.c)
 * @group_len: bytes in @group
 * @group_cap: size of @group
 * @group_nr: events in @group
 * @grouping: queue_event() adds to @group
 * @group_unwind: @group holds a user stack to unwind
 * @resolved: the selection was resolved, at the first event
 * @events_read: samples the reader delivered
 * @own_events: perf2dat made events of its own (synth.c): emitted events are sorted by kind
 * @records_converted: side-band records (not LOST) queued as events (all_records)
 * @records_unplaced: side-band records without a time (all_records)
 * @done: input bytes read, as last reported
 * @total: input size, as last reported
 * @buildid_dir: perf's build-id cache: the option, $PERF_BUILDID_DIR or ~/.debug
 * @fetch: the symbol servers (&p2d_options debuginfod), or NULL
 * @offcpu: perf record --off-cpu's end-of-run batch, NULL until its first
 *	sample (offcpu.h)
 * @spent: the reorder queue and the unwinder, no longer used once every
 *	event is out, being freed by a thread of their own (convert.c)
 */
struct p2d_conv {
	const struct p2d_options	*opts;
	struct p2d_summary		*sum;
	struct p2d_diag			diag;
	struct p2d_names		names;
	struct p2d_meta			meta;
	struct p2d_tracing		*tracing;
	struct p2d_synth		*synth;
	struct p2d_dsos			*dsos;
	struct p2d_maps			*maps;
	struct p2d_ksyms		*ksyms;
	const uint8_t			*ksyms_map;	/* p2d_ksyms_fields_map() */
	struct p2d_ksyms_out		ksyms_out;
	struct p2d_usyms		*usyms;
	bool				usyms_ahead;	/* p2d_usyms_ahead() called */
	struct p2d_usyms_out		usyms_out;
	struct p2d_unwinder		*unwinder;
	uint64_t			*uw_frames;
	bool				uw_foreign;
	struct p2d_select		*select;
	struct p2d_tasks		*tasks;
	struct p2d_reorder		*queue;
	struct p2d_cpufiles		*cpus;
	struct p2d_read_stats		stats;
	const char			*data_dir;
	char				*tmp_dir;
	const struct p2d_import		*importer;
	bool				swap_payload;
	uint8_t				*scratch;
	uint8_t				*group;
	uint32_t			group_len;
	uint32_t			group_cap;
	uint32_t			group_nr;
	bool				grouping;
	bool				group_unwind;
	bool				resolved;
	uint64_t			events_read;
	bool				own_events;
	uint64_t			records_converted;
	uint64_t			records_unplaced;
	uint64_t			done;
	uint64_t			total;
	char				*buildid_dir;
	struct p2d_fetch		*fetch;
	struct p2d_offcpu		*offcpu;
	struct p2d_spent		*spent;
};

/* In an event group: the member is a user stack to unwind (conv-sink.c) */
#define P2D_UNWIND_MEMBER	(1u << 30)

/**
 * struct p2d_uw_req - a user stack to unwind when its sample leaves the
 *	reorder queue, with the maps of its time: a group member
 *	(P2D_UNWIND_MEMBER) holding this, then the registers (the recording's
 *	byte order), the user frames the chain already has (perf puts the
 *	unwound ones after them) and the stack copy
 * @pid: the sample's process
 * @tid: its thread
 * @of: the event the stack belongs to
 * @nr_regs: registers that follow
 * @nr_user: user frames of the chain that follow
 * @abi: PERF_SAMPLE_REGS_USER's ABI word
 * @mask: which registers (attr.sample_regs_user)
 * @stack_size: bytes of the stack copy, last
 * @swap: the registers and the copy are in the other byte order
 */
struct p2d_uw_req {
	uint32_t		pid;
	uint32_t		tid;
	struct p2d_stack_of	of;
	uint32_t		nr_regs;
	uint32_t		nr_user;
	uint64_t		abi;
	uint64_t		mask;
	uint64_t		stack_size;
	bool			swap;
};

extern const struct p2d_sink_ops p2d_conv_sink __hidden;
bool p2d_conv_foreign(struct p2d_conv *cv) __hidden;
int p2d_conv_emit_run(void *ctx, uint32_t cpu, const struct p2d_qentry *e, size_t n) __hidden;
int p2d_conv_emit_event(void *ctx, uint32_t cpu, uint64_t ts, const uint8_t *data,
			uint64_t len) __hidden;
int p2d_conv_emit_side(void *ctx, const struct p2d_side *rec) __hidden;
int p2d_conv_cancelled(struct p2d_conv *cv) __hidden;
int p2d_conv_run(const struct p2d_options *opts, struct p2d_summary *sum) __hidden;

#endif /* P2D_CONV_H */
