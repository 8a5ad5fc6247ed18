/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perf2dat - convert perf.data tracepoint recordings to trace-cmd's trace.dat
 *
 * Public interface of libperf2dat.
 */
#ifndef PERF2DAT_H
#define PERF2DAT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __GNUC__
#define P2D_API __attribute__((visibility("default")))
#else
#define P2D_API
#endif

/** Severity of a message passed to a &p2d_log_fn. */
enum p2d_log_level {
	P2D_LOG_ERROR = 0,
	P2D_LOG_WARN,
	P2D_LOG_INFO,
	P2D_LOG_DEBUG,
};

/**
 * typedef p2d_log_fn - sink for warnings and informational messages
 * @ctx: the @log_ctx of &struct p2d_options
 * @level: severity
 * @msg: one line, without a trailing newline
 */
typedef void (*p2d_log_fn)(void *ctx, enum p2d_log_level level, const char *msg);

/**
 * typedef p2d_progress_fn - called now and then while the input is read
 * @ctx: the @progress_ctx of &struct p2d_options
 * @done: input bytes consumed so far
 * @total: input size in bytes, 0 when unknown (pipe)
 * @events: tracepoint events converted so far
 */
typedef void (*p2d_progress_fn)(void *ctx, uint64_t done, uint64_t total, uint64_t events);

/**
 * typedef p2d_name_fn - a named temporary file or directory is about to be
 *	created, or has been removed
 * @ctx: the @names_ctx of &struct p2d_options
 * @path: its name
 * @created: true before it is created, false once it is gone
 *
 * Everything else a conversion makes has no name (O_TMPFILE, unlinked
 * files) and vanishes with the process, whatever ends it. A program that
 * handles termination signals can hold them while a name exists, and have
 * a process that outlives it remove what SIGKILL leaves (the perf2dat
 * programs do both).
 */
typedef void (*p2d_name_fn)(void *ctx, const char *path, bool created);

/**
 * struct p2d_options - what to convert and how
 * @size: the size of the structure the caller was compiled with;
 *	p2d_options_init() sets it (see "ABI" in libperf2dat(3))
 * @input: path of the perf.data file or directory, or "-" for @input_fd
 * @input_fd: descriptor read when @input is "-" (may be a pipe)
 * @output: path of the trace.dat to write (NULL when @output_fd is used)
 * @output_fd: when @output is NULL, a seekable descriptor to write into;
 *	it is not closed and no atomic rename is done
 * @file_version: trace.dat version, 6 or 7 (0 means 7)
 * @compression: NULL or "none", "zstd", "any" (version 7 only)
 * @kallsyms: where the kernel symbols come from: a file in the format of
 *	/proc/kallsyms (refused when its place tells another build id than
 *	the recording's kernel: perf's build-id cache, /proc/kallsyms), or
 *	"none" for no symbols; NULL (the default): found as perf finds them,
 *	by the recording's kernel build id: a vmlinux of that build id where
 *	perf looks for one, perf's build-id cache (@buildid_dir), or the
 *	running kernel's /proc/kallsyms when it is the same kernel and its
 *	addresses are not hidden. Only the symbols the trace.dat's kernel
 *	addresses need are embedded.
 * @force: replace an existing @output
 * @log: message sink (NULL: stderr)
 * @log_ctx: passed to @log
 * @log_level: most verbose level passed to @log
 * @progress: optional progress callback
 * @progress_ctx: passed to @progress
 * @events: keep only these events: "SYSTEM:EVENT", "EVENT" or "SYSTEM", with
 *	shell wildcards (sched:sched_switch, sched:*, 'irq*'); NULL: all. A
 *	pattern that matches no event format of the recording is an error.
 * @nr_events: count of @events
 * @cpus: keep only the events of these CPUs, perf's list syntax ("0,2-3")
 * @time: keep only the events in these time windows, perf script's --time
 *	syntax: "START,STOP" in seconds with either end open ("1234.5," or
 *	",1235"), several windows separated by blanks, or percentages of the
 *	recording ("10%", "0%-10%,30%-40%", "10%/2": the second tenth), which
 *	need the first and last sample times a file-mode perf.data stores
 * @pids: keep only the events of these processes (thread group ids), "1,5-9"
 * @tids: keep only the events of these threads, "1,5-9"
 * @tod: write the wall-clock offset of the recording (perf record -k CLOCK
 *	stores one) as the trace.dat's DATE option, so trace-cmd report and
 *	KernelShark show the time of day, to the microsecond (the DATE option's
 *	unit); @time then takes such times too. Without it, timestamps are the
 *	recorded clock, as perf script shows them. A recording without clock
 *	data is an error.
 * @names: told when a named temporary file exists (&p2d_name_fn), or NULL
 * @names_ctx: passed to @names
 * @cancel: when not NULL, polled while converting: once *@cancel is not 0
 *	the conversion stops soon, fails with -ECANCELED and leaves nothing
 *	behind (set it from a signal handler, say)
 * @isolate_formats: parse each of the recording's event formats the
 *	conversion needs (those of ftrace, and of each event when it is first
 *	converted: only those go into the trace.dat) first in a child process
 *	(a fork, kept until the conversion ends), so that a damaged format on
 *	which libtraceevent crashes or loops (libtraceevent 1.7 and 1.8 die on
 *	some) is dropped with a warning instead of taking the caller down.
 *	Off by default: no process is created unless asked.
 * @no_callchain: leave call chains out; by default each sample's chain
 *	becomes, right after its event, an ftrace:kernel_stack event with its
 *	kernel part and ftrace:user_stack events with its user part
 * @all_records: also write the side-band records (COMM, FORK, EXIT, MMAP,
 *	MMAP2, SWITCH, SWITCH_CPU_WIDE, LOST, THROTTLE, UNTHROTTLE) as events
 *	of the perf system (perf:comm, perf:fork, perf:exit, perf:mmap,
 *	perf:switch, perf:lost, perf:throttle, perf:unthrottle) at their time
 *	on their CPU, with their fields; those without a time are counted in
 *	&p2d_summary sideband (perf data convert --all)
 * @vmlinux: a vmlinux (ELF with a symbol table) for the kernel symbols,
 *	used unless its build id is another than the recording's kernel
 * @symfs: perf's --symfs: look for every file (the ELF files of user
 *	stacks, vmlinux, and the running kernel's /proc/kallsyms and
 *	/sys/kernel/notes) under this directory; NULL for /
 * @buildid_dir: perf's build-id cache; NULL for @symfs/.debug with @symfs
 *	(as perf), else $PERF_BUILDID_DIR, else ~/.debug
 * @no_user_names: leave the user addresses as numbers; by default each one
 *	the trace.dat holds (user stack frames, sample ips taken in user mode)
 *	is named after the function of its mapped file that holds it, as perf
 *	names it (the file found as for @symfs, build id checked), in the
 *	kallsyms section, where trace-cmd finds it
 * @debuginfod: fetch the files of user stacks that are not here (found
 *	neither under @symfs nor in @buildid_dir), and their separate debug
 *	files, by build id from the symbol servers of $DEBUGINFOD_URLS, with
 *	elfutils' debuginfod client; off by default (a server can be slow).
 *	A fetch is given up after $DEBUGINFOD_TIMEOUT (else 10) seconds
 *	without data, and then nothing more is asked. The client keeps what
 *	it fetched in its cache ($DEBUGINFOD_CACHE_PATH, else
 *	$HOME/.cache/debuginfod_client), the only place a conversion writes
 *	outside its output and its temporary files. libdebuginfod is loaded
 *	(dlopen) only then; p2d_convert() fails with -EOPNOTSUPP when it
 *	cannot be, or the library was built without it
 */
struct p2d_options {
	size_t			size;
	const char		*input;
	int			input_fd;
	const char		*output;
	int			output_fd;
	int			file_version;
	const char		*compression;
	const char		*kallsyms;
	bool			force;
	p2d_log_fn		log;
	void			*log_ctx;
	enum p2d_log_level	log_level;
	p2d_progress_fn		progress;
	void			*progress_ctx;
	const char *const	*events;
	unsigned int		nr_events;
	const char		*cpus;
	const char		*time;
	const char		*pids;
	const char		*tids;
	bool			tod;
	p2d_name_fn		names;
	void			*names_ctx;
	const volatile sig_atomic_t *cancel;
	bool			isolate_formats;
	bool			no_callchain;
	bool			all_records;
	const char		*vmlinux;
	const char		*symfs;
	const char		*buildid_dir;
	bool			no_user_names;
	bool			debuginfod;
};

/**
 * struct p2d_summary - what a conversion did
 * @size: the bytes of it the library filled in: the smaller of the
 *	caller's sizeof (p2d_convert() passes it) and the library's
 * @events: events written: tracepoint samples, the perf:* events of other
 *	samples and the stack events of call chains
 * @lost: events perf reported lost (PERF_RECORD_LOST and LOST_SAMPLES)
 * @other_samples: samples that could not be converted: of events the
 *	recording does not describe, or without a timestamp
 * @dropped: samples that could not be converted (see warnings)
 * @cpus: CPUs in the output
 * @tasks: task names in the output
 * @first_ts: first event timestamp (ns)
 * @last_ts: last event timestamp (ns)
 * @input_bytes: size of the perf.data (every file of a directory; what was
 *	read of a pipe)
 * @output_bytes: size of the trace.dat written
 * @error: on failure, one line "offset 0x...: what is wrong" (may be empty)
 * @filtered: tracepoint samples left out by the selection (&p2d_options
 *	events, cpus, time, pids, tids)
 * @uncompressed_bytes: about what the output takes without compression
 *	(ring-buffer pages, the recording's tracing metadata, task names), to
 *	tell how much --compression saved
 * @callchains: call chains left out (&p2d_options no_callchain)
 * @sideband: side-band records (COMM, FORK, MMAP, SWITCH, ...) read; they
 *	name the tasks but are not converted to events
 * @samples: of @events, the perf:* events of non-tracepoint samples
 * @stacks: of @events, the ftrace:kernel_stack and ftrace:user_stack events
 * @records: of @events, the perf:* events of side-band records (all_records)
 * @symbols: kernel symbols embedded (the kallsyms section)
 * @kernel_addrs: distinct kernel addresses the trace.dat holds (stack frames,
 *	sample ips, symbol fields of tracepoints)
 * @named_addrs: of those, the ones the symbols name
 * @symbol_source: where the kernel symbols came from (a file), or why there
 *	are none
 * @unwound: user stacks unwound from a stack copy (perf record --call-graph
 *	dwarf)
 * @unwind_short: of those, the ones that stopped early at a file missing
 *	here, or of another build id than the recording's
 * @unwind_skipped: user stacks not unwound: of a machine this build cannot
 *	unwind
 * @bad_chains: call chains whose frames are left out, as perf leaves them
 *	out: a value in them is in the range of perf's context markers but
 *	none of them (a return address of -1 from a frame-pointer walk through
 *	code without frame pointers, say). Their samples are converted.
 * @user_addrs: distinct user addresses the trace.dat holds (user stack
 *	frames, sample ips taken in user mode)
 * @user_named: of those, the ones a symbol of their mapped file names (in
 *	the kallsyms section, so that trace-cmd prints the names)
 * @user_ambiguous: of those, the ones left as numbers because another
 *	process has other code (or none) at the same address
 * @offcpu_batch: samples of perf record --off-cpu's end-of-run batch (their
 *	time is a dummy, OFF_CPU_TIMESTAMP): never events; appended to the
 *	trace.dat after what trace-cmd reads (perf2dat(1) OFF-CPU), unless a
 *	selection is given (then counted in @filtered too)
 * @offcpu_batch_ns: their off-CPU time, summed
 * @untimed: of @other_samples, those without a timestamp (perf record
 *	--per-thread, or -e EVENT/time=0/): a trace.dat cannot place them
 */
struct p2d_summary {
	size_t		size;
	uint64_t	events;
	uint64_t	lost;
	uint64_t	other_samples;
	uint64_t	dropped;
	int		cpus;
	unsigned int	tasks;
	uint64_t	first_ts;
	uint64_t	last_ts;
	uint64_t	input_bytes;
	uint64_t	output_bytes;
	char		error[512];
	uint64_t	filtered;
	uint64_t	uncompressed_bytes;
	uint64_t	callchains;
	uint64_t	sideband;
	uint64_t	samples;
	uint64_t	stacks;
	uint64_t	records;
	uint32_t	symbols;
	uint64_t	kernel_addrs;
	uint64_t	named_addrs;
	char		symbol_source[512];
	uint64_t	unwound;
	uint64_t	unwind_short;
	uint64_t	unwind_skipped;
	uint64_t	bad_chains;
	uint64_t	user_addrs;
	uint64_t	user_named;
	uint64_t	user_ambiguous;
	uint64_t	offcpu_batch;
	uint64_t	offcpu_batch_ns;
	uint64_t	untimed;
};

/**
 * p2d_options_init_size - fill @opts with the defaults
 * @opts: options to initialize
 * @size: sizeof(*@opts) as the caller was compiled: p2d_options_init()
 *	passes it
 *
 * Defaults: output "trace.dat", file version 7, no compression, messages
 * of level warning and above to stderr. @opts->size is set to @size; only
 * @size bytes are written.
 */
P2D_API void p2d_options_init_size(struct p2d_options *opts, size_t size);

/**
 * p2d_options_init - fill @opts with the defaults
 * @opts: options to initialize
 *
 * p2d_options_init_size() with the size of the structure this header
 * declares.
 */
#define p2d_options_init(opts)	p2d_options_init_size((opts), sizeof(*(opts)))

/**
 * p2d_convert_size - convert a recording to trace.dat
 * @opts: what to convert; @opts->size tells its layout
 * @sum: filled with counts; on failure @sum->error holds the reason
 * @sum_size: sizeof(*@sum) as the caller was compiled: p2d_convert()
 *	passes it
 *
 * The structures are extensible the way openat2(2)'s struct open_how is:
 * the library reads @opts->size bytes of @opts (a later field the caller's
 * header does not have takes its default, zero), and writes @sum_size
 * bytes of @sum. Options larger than the library knows are accepted when
 * the bytes it does not know are zero, and refused with -E2BIG otherwise;
 * either structure smaller than the first stable layout (PERF2DAT_0.1) is
 * refused with -EINVAL.
 *
 * The input is recognised by content (perf.data of either byte order, a
 * perf record --threads directory, a pipe). The output is written to an
 * unnamed file next to @opts->output and given its name only when
 * everything succeeded, so a failure leaves nothing behind. The host is not touched: no tracefs access, no mounts, no sysctl
 * writes.
 *
 * What a caller can see of it: it leaves no thread running (its helper
 * threads, for page writes, the kallsyms read ahead, libtracecmd's reading
 * of the metadata (in a thread rooted in the private directory, so that the
 * writer finds no /proc/sys/kernel/kptr_restrict to set) and the removal of
 * its private directory, have every signal blocked and are joined before it
 * returns; without a thread the calling thread does the work); it forks only
 * with @opts->isolate_formats; it changes no signal mask or disposition. For a
 * few milliseconds while libtracecmd reads the metadata it names a private
 * directory in $TMPDIR or, when TMPDIR is not set, in a memory file system
 * ($XDG_RUNTIME_DIR, /dev/shm; else /tmp) (&p2d_options names tells when);
 * one left by a process that died meanwhile is removed by the next
 * conversion in the same place. A directory from the environment is used
 * only when nobody else could rename what is made in it (every directory of
 * its path is the effective user's or root's, writable by no one else
 * unless sticky); else /dev/shm or /tmp, with a warning for TMPDIR.
 * libtracecmd's writer keeps process-wide settings (libtracefs' tracing
 * directory, the log level of libtracecmd, libtracefs and libtraceevent):
 * conversions hold a lock while they write, point the tracing directory
 * back at the default and set the log level back to libtracecmd's default
 * (TEP_LOG_CRITICAL) before they return. Conversions in several threads at
 * once are safe.
 *
 * Returns 0 on success, or a negative errno.
 */
P2D_API int p2d_convert_size(const struct p2d_options *opts, struct p2d_summary *sum,
			     size_t sum_size);

/**
 * p2d_convert - convert a perf.data recording to trace.dat
 * @opts: what to convert (from p2d_options_init())
 * @sum: filled with counts; on failure @sum->error holds the reason
 *
 * p2d_convert_size() with the size of the summary this header declares.
 */
#define p2d_convert(opts, sum)	p2d_convert_size((opts), (sum), sizeof(*(sum)))

/**
 * p2d_is_perf_data - does @buf start like a perf.data file?
 * @buf: the first bytes of a file
 * @len: bytes available in @buf (8 are needed)
 *
 * Returns true for both byte orders of the "PERFILE2" magic.
 */
P2D_API bool p2d_is_perf_data(const void *buf, size_t len);

/**
 * p2d_is_perf_path - is @path a perf.data recording?
 * @path: a file, or a perf record --threads directory
 *
 * By content, not by name: a file (or a directory's "data" file) that
 * starts with a perf.data magic of either byte order.
 *
 * Returns true for a recording.
 */
P2D_API bool p2d_is_perf_path(const char *path);

/**
 * p2d_version - the library version string
 */
P2D_API const char *p2d_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PERF2DAT_H */
