/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The import handler interface. A reader of one input format (perf.data,
 * read-perf.h) sees only its input, a sink and the diagnostics: everything
 * it finds goes through the sink's operations, which the conversion
 * (convert.c) implements.
 */
#ifndef P2D_SINK_H
#define P2D_SINK_H

#include "diag.h"
#include "input.h"
#include "meta.h"

#define P2D_NO_CPU	UINT32_MAX	/* a loss that cannot be placed on a CPU */
#define P2D_TRACEPOINT	UINT32_MAX	/* &p2d_event source of a tracepoint event */

/**
 * enum p2d_val - the scalars a sample of a non-tracepoint event may carry,
 * in the order a format lists them
 */
enum p2d_val {
	P2D_VAL_IP,		/* the sampled instruction pointer */
	P2D_VAL_ADDR,		/* the data address (perf record -d) */
	P2D_VAL_PERIOD,		/* the sample period */
	P2D_VAL_PHYS_ADDR,	/* the physical data address */
	P2D_VAL_WEIGHT,		/* a cost (latency) the PMU reports */
	P2D_VAL_DATA_SRC,	/* where the data came from (memory level, ...) */
	P2D_VAL_TRANSACTION,	/* transaction abort flags */
	P2D_VAL_STREAM_ID,	/* the id of the event's parent, for inherited events */
	P2D_VAL_CGROUP,		/* the cgroup id */
	P2D_VAL_DATA_PAGE_SIZE,	/* the page size of the data address */
	P2D_VAL_CODE_PAGE_SIZE,	/* the page size of the ip */
	P2D_NR_VALS
};

/**
 * struct p2d_event - one sample as an import handler delivers it
 * @cpu: CPU it was recorded on
 * @pid: process id (thread group), when @has_pid
 * @tid: thread id, when @has_pid
 * @has_pid: the recording carries pid and tid
 * @ts: timestamp in ns
 * @source: P2D_TRACEPOINT, or the index of the &p2d_source it belongs to
 * @raw: a tracepoint's ftrace payload (common fields first), in the
 *	recording's byte order; NULL for other events
 * @len: payload bytes
 * @val: the scalars of a non-tracepoint sample (&enum p2d_val), those its
 *	source's @vals names
 * @chain: the call chain, @nr_chain u64 values in the recording's byte
 *	order (@swap), with perf's PERF_CONTEXT_* markers; NULL when the
 *	sample carries none (PERF_SAMPLE_CALLCHAIN), not NULL for an empty one
 * @nr_chain: entries of @chain
 * @swap: @chain, @regs and @ustack are in the other byte order
 * @kernel_ip: the sample was taken in the kernel (its ip is a kernel address);
 *	not looked at for a tracepoint's (@source P2D_TRACEPOINT)
 * @off: input offset of the record, for messages
 * @regs_abi: PERF_SAMPLE_REGS_USER's ABI word (PERF_SAMPLE_REGS_ABI_32 or
 *	_64), 0 when the sample has no user registers
 * @regs_mask: which registers @regs holds (attr.sample_regs_user), in bit order
 * @regs: the user registers, a u64 each, in the recording's byte order
 * @ustack: PERF_SAMPLE_STACK_USER: a copy of the user stack from its stack
 *	pointer up, or NULL
 * @ustack_size: the bytes of @ustack the kernel filled in (its dyn_size)
 */
struct p2d_event {
	uint32_t	cpu;
	uint32_t	pid;
	uint32_t	tid;
	bool		has_pid;
	bool		swap;
	bool		kernel_ip;
	uint64_t	ts;
	uint32_t	source;
	const uint8_t	*raw;
	uint32_t	len;
	uint32_t	nr_chain;
	const uint8_t	*chain;
	uint64_t	off;
	uint64_t	val[P2D_NR_VALS];
	uint64_t	regs_abi;
	uint64_t	regs_mask;
	const uint8_t	*regs;
	const uint8_t	*ustack;
	uint64_t	ustack_size;
};

/**
 * struct p2d_sample_entry - a sample as the sink takes it, in batches
 *	(&p2d_sink_ops samples): one of three kinds
 * @ts: timestamp in ns
 * @raw: a tracepoint sample's ftrace payload, in the recording's byte order
 * @len: its payload bytes; P2D_ENTRY_EVENT for a decoded sample
 * @cpu: CPU it was recorded on
 * @ids: a tracepoint sample's u32 pid and tid, in the recording's byte order
 * @ev: a decoded sample (@len P2D_ENTRY_EVENT)
 * @off: input offset of the record, for messages
 *
 * What most samples of a tracepoint recording are, a tracepoint sample
 * with nothing but its place and payload, is taken where the reader found
 * it: the same sample as a &p2d_event with @source P2D_TRACEPOINT, no call
 * chain, no registers and no user stack (p2d_entry_to_event()); the reader
 * gives it so only when it carries its pid and tid. Any other sample comes
 * decoded, in @ev (@len P2D_ENTRY_EVENT, @cpu UINT32_MAX, @raw NULL; the
 * rest as @ev says). One with @raw NULL and @len 0 (and @cpu UINT32_MAX,
 * the rest 0 but @off) is no sample but the end of a round between the
 * others: what the sink's round callback is told.
 */
struct p2d_sample_entry {
	uint64_t	ts;
	const uint8_t	*raw;
	uint32_t	len;
	uint32_t	cpu;
	union {
		const uint8_t		*ids;
		const struct p2d_event	*ev;
	};
	uint64_t	off;
};

/* &p2d_sample_entry len of a decoded sample: no payload is that long */
#define P2D_ENTRY_EVENT	UINT32_MAX

/**
 * p2d_entry_to_event - the &p2d_event of a tracepoint sample's entry
 * @t: the entry (neither an end of round nor a decoded sample)
 * @swap: the recording's byte order is not ours
 * @ev: filled in (zeroed first)
 */
static inline void p2d_entry_to_event(const struct p2d_sample_entry *t, bool swap,
				      struct p2d_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->cpu = t->cpu;
	ev->pid = p2d_get32(t->ids, swap);
	ev->tid = p2d_get32(t->ids + 4, swap);
	ev->has_pid = true;
	ev->swap = swap;
	ev->ts = t->ts;
	ev->source = P2D_TRACEPOINT;
	ev->raw = t->raw;
	ev->len = t->len;
	ev->off = t->off;
}

/**
 * struct p2d_source - an event that is not a tracepoint (cpu-clock, cycles,
 * page-faults, ...), told to the sink before its first sample
 * @index: what its samples carry as &p2d_event source
 * @name: its name as the recording's tool shows it ("cpu-clock", "cycles:P")
 * @vals: bitmask of the &enum p2d_val its samples carry
 */
struct p2d_source {
	uint32_t	index;
	const char	*name;
	uint32_t	vals;
};

#define P2D_BUILD_ID_MAX	20	/* bytes of a build id (SHA-1), at most */

/**
 * struct p2d_build_id - the build id of a file the recording used
 *	(HEADER_BUILD_ID: perf record lists those its samples hit)
 * @kernel: the running kernel ("[kernel.kallsyms]") or one of its modules
 * @id: the build id
 * @size: its bytes
 * @file: the file, NUL-terminated ("[kernel.kallsyms]", "/usr/lib/...")
 */
struct p2d_build_id {
	bool		kernel;
	uint8_t		id[P2D_BUILD_ID_MAX];
	uint8_t		size;
	const char	*file;
};

/**
 * struct p2d_ksymbol - code the kernel added (PERF_RECORD_KSYMBOL): a BPF
 *	program's JIT code, a trampoline
 * @addr: its first address
 * @len: its bytes
 * @type: PERF_RECORD_KSYMBOL_TYPE_BPF (1), _OOL (2), ...
 * @unregister: it was removed
 * @name: its name, NUL-terminated ("bpf_prog_<tag>_<name>")
 */
struct p2d_ksymbol {
	uint64_t	addr;
	uint32_t	len;
	uint16_t	type;
	bool		unregister;
	const char	*name;
};

/** enum p2d_record_kind - a side-band record, as an event (&p2d_record) */
enum p2d_record_kind {
	P2D_RECORD_COMM,	/* pid, tid, exec; @str the name */
	P2D_RECORD_FORK,	/* pid, ppid, tid, ptid, time */
	P2D_RECORD_EXIT,	/* pid, ppid, tid, ptid, time */
	P2D_RECORD_MMAP,	/* pid, tid, start, len, pgoff, prot, flags; @str the file */
	P2D_RECORD_SWITCH,	/* out, preempt, next_prev_pid, next_prev_tid */
	P2D_RECORD_LOST,	/* id, lost */
	P2D_RECORD_THROTTLE,	/* time, id, stream_id */
	P2D_RECORD_UNTHROTTLE,	/* time, id, stream_id */
	P2D_NR_RECORD_KINDS
};

#define P2D_RECORD_VALS	7

/**
 * struct p2d_record - a side-band record, as the reader decodes it: one
 *	form for every use (task names, mappings, perf:* events)
 * @kind: &enum p2d_record_kind
 * @cpu: CPU (from its sample_id), when @has_cpu
 * @ts: time (from its sample_id), when @has_time; what it says of a task
 *	or a mapping takes effect then (perf's synthesized records, without
 *	one, at once)
 * @has_cpu: the record says its CPU
 * @has_time: the record says its time
 * @has_pid: the record says its task
 * @pid: the task it happened in (from its sample_id), when @has_pid
 * @tid: likewise
 * @v: its numbers, in the order &enum p2d_record_kind lists them
 * @str: its name (COMM: at most 15 characters) or file, NUL-terminated, or
 *	NULL
 * @off: input offset of the record, for messages
 * @map: MMAP: a mapping of code (executable, or the kernel's), which the
 *	conversion keeps
 * @kernel: MMAP: a mapping of the kernel ("[kernel.kallsyms]_text", v[4]
 *	that symbol's address) or of a module
 * @unused: MMAP: no event of the recording can look a process's mapping up
 *	(all are tracepoints without call chains or user stacks): only its
 *	file matters
 * @build_id: MMAP2: the file's build id, when the record carries one
 *	(PERF_RECORD_MISC_MMAP_BUILD_ID)
 * @build_id_size: its bytes, 0 when none
 */
struct p2d_record {
	uint32_t	kind;
	uint32_t	cpu;
	uint64_t	ts;
	bool		has_cpu;
	bool		has_time;
	bool		has_pid;
	uint32_t	pid;
	uint32_t	tid;
	uint64_t	v[P2D_RECORD_VALS];
	const char	*str;
	uint64_t	off;
	bool		map;
	bool		kernel;
	bool		unused;
	uint8_t		build_id_size;
	uint8_t		build_id[P2D_BUILD_ID_MAX];
};

/** enum p2d_side_kind - what a side-band record says */
enum p2d_side_kind {
	P2D_SIDE_COMM,		/* @tid is named @comm (exec, prctl) */
	P2D_SIDE_FORK,		/* @tid was created by @parent */
	P2D_SIDE_EXIT,		/* @tid ended */
	P2D_SIDE_MMAP,		/* @pid mapped @object at @start (queued by the conversion) */
};

/**
 * struct p2d_side - what a side-band record says of a task or a mapping, as
 *	the conversion queues it, ordered with the events (reorder.h)
 * @ts: timestamp, 0 when the record has none
 * @kind: &enum p2d_side_kind
 * @tid: the task
 * @pid: its process (thread group)
 * @parent: for a fork, the task it came from
 * @ppid: for a fork, the process it came from (@pid for a new thread)
 * @exec: for a name, it came with an exec (the process's image was replaced)
 * @comm: for a name, NUL-terminated (truncated to 15 characters)
 * @start: for a mapping, its first address
 * @len: its size
 * @pgoff: the file offset mapped at @start
 * @object: the mapped file and its build id, as the conversion keeps them
 */
struct p2d_side {
	uint64_t	ts;
	uint32_t	kind;
	uint32_t	tid;
	uint32_t	pid;
	uint32_t	parent;
	uint32_t	ppid;
	bool		exec;
	char		comm[16];
	uint64_t	start;
	uint64_t	len;
	uint64_t	pgoff;
	uint32_t	object;
};

/**
 * struct p2d_read_stats - what a reader counted but did not deliver
 * @input_bytes: size of the input (every file of a directory)
 * @dropped: samples it could not decode
 * @other_samples: samples it did not deliver (of events it cannot describe)
 * @sideband: side-band records read (COMM, FORK, MMAP, ...)
 * @stat_records: records of perf stat record (STAT_CONFIG, STAT, STAT_ROUND)
 * @truncated_at: 1 + the offset where the input ends inside a record (0: it
 *	does not)
 * @no_cpu: samples delivered on CPU 0 because they carry no CPU (a per-task
 *	recording without PERF_SAMPLE_CPU)
 * @untimed: of @other_samples, those without a timestamp (perf record
 *	--per-thread and other recordings without PERF_SAMPLE_TIME)
 */
struct p2d_read_stats {
	uint64_t	input_bytes;
	uint64_t	dropped;
	uint64_t	other_samples;
	uint64_t	sideband;
	uint64_t	stat_records;
	uint64_t	truncated_at;
	uint64_t	no_cpu;
	uint64_t	untimed;
};

/**
 * struct p2d_sink_ops - what an import handler calls while it reads
 * @meta: the recording's metadata is known (again: it may grow); copy it
 * @tracing: the tracing data (event formats), malloc()ed, ownership passes
 * @source: an event that is not a tracepoint; before its first sample
 * @samples: @n samples in a row, in their order (@swap: in the other byte
 *	order), with the ends of rounds between them as calls of @round would
 *	give them (&p2d_sample_entry): every sample comes this way, one or many
 *	at a time (p2d_sink_sample() for one decoded sample)
 * @lost: @count events lost on @cpu (P2D_NO_CPU: unknown) at @ts (UINT64_MAX:
 *	reported only at the end, time unknown)
 * @round: the end of one of perf's rounds: older events may be released
 * @sideband: a side-band record (COMM, FORK, EXIT, MMAP, SWITCH, LOST,
 *	THROTTLE, UNTHROTTLE), once, in the one form the reader decodes it to
 * @build_id: a file's build id (HEADER_BUILD_ID)
 * @progress: @done of @total input bytes (total 0 when unknown) are read
 * @ksymbol: kernel code named by a KSYMBOL record (may be NULL)
 * @offcpu_batch: a sample of perf record --off-cpu's end-of-run batch,
 *	which has no time (@ev->ts is perf's made-up one): its task, the
 *	time off CPU in @ev->val[P2D_VAL_PERIOD], its call chain (may be NULL:
 *	then the reader counts such samples in other_samples)
 *
 * Each returns 0 or a negative errno (with a message in the diagnostics),
 * which ends the reading; @progress returns nothing.
 */
struct p2d_sink_ops {
	int	(*meta)(void *ctx, const struct p2d_meta *m);
	int	(*tracing)(void *ctx, uint8_t *blob, size_t len, uint64_t off);
	int	(*source)(void *ctx, const struct p2d_source *src);
	int	(*samples)(void *ctx, const struct p2d_sample_entry *s, size_t n, bool swap);
	int	(*lost)(void *ctx, uint32_t cpu, uint64_t ts, uint64_t count);
	int	(*round)(void *ctx);
	int	(*sideband)(void *ctx, const struct p2d_record *rec);
	int	(*build_id)(void *ctx, const struct p2d_build_id *bid, uint64_t off);
	void	(*progress)(void *ctx, uint64_t done, uint64_t total);
	int	(*ksymbol)(void *ctx, const struct p2d_ksymbol *k, uint64_t off);
	int	(*offcpu_batch)(void *ctx, const struct p2d_event *ev);
};

/** struct p2d_sink - a sink: its operations and their context */
struct p2d_sink {
	const struct p2d_sink_ops	*ops;
	void				*ctx;
};

/**
 * p2d_sink_sample - one decoded sample to a sink
 * @sink: the sink
 * @ev: the sample
 *
 * Returns the sink's samples callback's 0 or negative errno.
 */
static inline int p2d_sink_sample(const struct p2d_sink *sink, const struct p2d_event *ev)
{
	struct p2d_sample_entry e = {
		.ts = ev->ts, .len = P2D_ENTRY_EVENT, .cpu = UINT32_MAX, .ev = ev, .off = ev->off
	};

	return sink->ops->samples(sink->ctx, &e, 1, ev->swap);
}

/**
 * struct p2d_import - an input format: how to recognise it, open it, read it
 * @name: the format's name, in messages ("perf.data")
 * @probe_len: bytes of the input's start @probe needs to decide
 * @probe: do @len bytes (fewer than @probe_len at the end of a short input)
 *	at the start of a file or stream begin a recording of this format?
 * @probe_dir: is the directory @path a recording of this format? NULL for a
 *	format without directories
 * @open_dir: open the file of the directory @path that reading starts with,
 *	as p2d_in_open() opens a file (a message in @d on failure); called
 *	after @probe_dir claimed @path
 * @read: read the whole input, feeding @sink; fills @stats
 *
 * The conversion (convert.c) and p2d_is_perf_path() know the formats only
 * through the table of them, p2d_importers (importers.c).
 */
struct p2d_import {
	const char	*name;
	size_t		probe_len;
	bool		(*probe)(const uint8_t *buf, size_t len);
	bool		(*probe_dir)(const char *path);
	int		(*open_dir)(struct p2d_input *in, const char *path, struct p2d_diag *d);
	int		(*read)(struct p2d_input *in, const struct p2d_sink *sink,
				struct p2d_diag *d, struct p2d_read_stats *stats);
};

/* The formats the library reads, NULL-terminated (importers.c) */
extern const struct p2d_import *const p2d_importers[] __hidden;

const struct p2d_import *p2d_import_probe(const uint8_t *buf, size_t len) __hidden;
const struct p2d_import *p2d_import_probe_path(const char *path, bool *dir) __hidden;
size_t p2d_import_probe_len(void) __hidden;
void p2d_import_names(char *buf, size_t size) __hidden;

#endif /* P2D_SINK_H */
