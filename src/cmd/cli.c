// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the perf2dat program and the trace-cmd front end share: the selection
 * options, the progress bar on a terminal and the summary line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "cli.h"

#define BAR_DELAY	1.0	/* seconds before a bar appears, by default */
#define BAR_PERIOD	0.2	/* seconds between redraws */
#define BAR_WIDTH	30	/* characters of the bar itself, at most */

/**
 * p2d_cli_init - prepare a program's conversion
 * @cli: state to initialize
 * @prog: program name for messages
 * @o: options, already set to their defaults; gets the log sink
 */
void p2d_cli_init(struct p2d_cli *cli, const char *prog, struct p2d_options *o)
{
	memset(cli, 0, sizeof(*cli));
	cli->prog = prog;
	o->log = p2d_cli_log;
	o->log_ctx = cli;
}

static int add_event(struct p2d_cli *cli, char *arg)
{
	const char **ev;
	char *tok, *save = NULL;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		ev = realloc(cli->events, (cli->nr_events + 1) * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		ev[cli->nr_events++] = tok;
		cli->events = ev;
	}
	return 0;
}

/*
 * elfutils' client bounds its own waits with DEBUGINFOD_TIMEOUT (90 s by
 * default, then two more tries: DEBUGINFOD_RETRY_LIMIT). The library gives
 * a fetch up sooner through the client's progress callback, but elfutils
 * 0.192 (Debian 13) does not call it while no server has answered: a
 * server that takes connections and never answers held a conversion for
 * minutes. A program may set its own environment (the library does not):
 * the same 10 s and one try, where the user has not set them.
 */
static void debuginfod_bounds(void)
{
	setenv("DEBUGINFOD_TIMEOUT", "10", 0);
	setenv("DEBUGINFOD_RETRY_LIMIT", "0", 0);
}

/**
 * p2d_cli_convert_option - handle an option of P2D_CLI_CONVERT_OPTIONS
 * @cli: state
 * @o: options to fill
 * @c: what getopt_long() returned
 * @arg: its argument
 * @bad: set to what is wrong when the value is refused
 *
 * Returns 1 when @c was such an option, 0 when it is not one, or -EINVAL
 * for a bad value (then *@bad says why, followed by @arg).
 */
int p2d_cli_convert_option(struct p2d_cli *cli, struct p2d_options *o, int c, char *arg,
			   const char **bad)
{
	char *end;

	switch (c) {
	case 'o':
		o->output = arg;
		return 1;
	case 'f':
		o->force = true;
		return 1;
	case P2D_OPT_FILE_VERSION:
		o->file_version = (int)strtol(arg, &end, 10);
		if (*end || (o->file_version != 6 && o->file_version != 7)) {
			*bad = "--file-version must be 6 or 7, not ";
			return -EINVAL;
		}
		return 1;
	case P2D_OPT_COMPRESSION:
		o->compression = arg;
		return 1;
	case P2D_OPT_KALLSYMS:
		o->kallsyms = arg;
		return 1;
	case P2D_OPT_VMLINUX:
		o->vmlinux = arg;
		return 1;
	case P2D_OPT_SYMFS:
		o->symfs = arg;
		return 1;
	case P2D_OPT_TOD:
		o->tod = true;
		return 1;
	case P2D_OPT_NO_CALLCHAIN:
		o->no_callchain = true;
		return 1;
	case P2D_OPT_NO_USER_NAMES:
		o->no_user_names = true;
		return 1;
	case P2D_OPT_DEBUGINFOD:
		o->debuginfod = true;
		debuginfod_bounds();
		return 1;
	case P2D_OPT_ALL:
		o->all_records = true;
		return 1;
	case 'q':
		cli->quiet = true;
		o->log_level = P2D_LOG_ERROR;
		return 1;
	case 'v':
		o->log_level = o->log_level < P2D_LOG_INFO ? P2D_LOG_INFO : P2D_LOG_DEBUG;
		return 1;
	default:
		return 0;
	}
}

/**
 * p2d_cli_select_option - handle a selection option
 * @cli: state
 * @o: options to fill
 * @c: what getopt_long() returned
 * @arg: its argument (an -e argument is split at commas, in place)
 *
 * Returns 1 when @c was a selection option, 0 when it is not one, or a
 * negative errno.
 */
int p2d_cli_select_option(struct p2d_cli *cli, struct p2d_options *o, int c, char *arg)
{
	int ret;

	switch (c) {
	case 'e':
		ret = add_event(cli, arg);
		o->events = cli->events;
		o->nr_events = cli->nr_events;
		return ret ? ret : 1;
	case 'C':
		o->cpus = arg;
		return 1;
	case P2D_OPT_TIME:
		o->time = arg;
		return 1;
	case P2D_OPT_PID:
		o->pids = arg;
		return 1;
	case P2D_OPT_TID:
		o->tids = arg;
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Progress bar                                                             */

static double elapsed(const struct p2d_cli *cli)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - cli->start.tv_sec) +
	       (double)(now.tv_nsec - cli->start.tv_nsec) / 1e9;
}

static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };

static unsigned int size_unit(double bytes)
{
	unsigned int u = 0;

	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	return u;
}

static double in_unit(double bytes, unsigned int u)
{
	while (u--)
		bytes /= 1024;
	return bytes;
}

static const char *size_str(char *buf, size_t len, double bytes)
{
	unsigned int u = size_unit(bytes);

	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", in_unit(bytes, u), units[u]);
	return buf;
}

/* "70.8/149.1 KiB": @done in the unit of @total */
static const char *sizes_str(char *buf, size_t len, double done, double total)
{
	unsigned int u = size_unit(total);

	snprintf(buf, len, u ? "%.1f/%.1f %s" : "%.0f/%.0f %s", in_unit(done, u),
		 in_unit(total, u), units[u]);
	return buf;
}

static const char *rate_str(char *buf, size_t len, double rate)
{
	unsigned int u = size_unit(rate);
	double v = in_unit(rate, u);

	snprintf(buf, len, v < 10 && u ? "%.1f %s/s" : "%.0f %s/s", v, units[u]);
	return buf;
}

static const char *count_str(char *buf, size_t len, uint64_t n)
{
	if (n < 100000)
		snprintf(buf, len, "%llu", (unsigned long long)n);
	else if (n < 1000000)
		snprintf(buf, len, "%.1fk", (double)n / 1e3);
	else
		snprintf(buf, len, "%.1fM", (double)n / 1e6);
	return buf;
}

static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

static void draw(struct p2d_cli *cli, uint64_t done, uint64_t total, uint64_t events,
		 double secs)
{
	char line[512], tail[256], bar[BAR_WIDTH + 1] = "", a[48], r[32], e[32];
	double rate = secs > 0 ? (double)done / secs : 0;
	int n, fill, room, width = term_width();

	rate_str(r, sizeof(r), rate);
	count_str(e, sizeof(e), events);
	if (total && done <= total) {
		double eta = rate > 0 ? (double)(total - done) / rate : 0;

		snprintf(tail, sizeof(tail), "%3d%% %s, %s events, %s, ETA %d:%02d",
			 (int)(100 * done / total), sizes_str(a, sizeof(a), (double)done,
							  (double)total),
			 e, r, (int)eta / 60, (int)eta % 60);
		/* the bar takes the room left on the first line drawn, up to BAR_WIDTH */
		if (!cli->bar_room) {
			room = width - 1 - (int)strlen(cli->prog) - 2 - 3 - (int)strlen(tail) - 4;
			cli->bar_room = room > BAR_WIDTH ? BAR_WIDTH : room < 8 ? -1 : room;
		}
		room = cli->bar_room;
		if (room > 0) {
			fill = (int)((double)room * (double)done / (double)total);
			memset(bar, '#', (size_t)fill);
			memset(bar + fill, '.', (size_t)(room - fill));
			bar[room] = '\0';
		}
		n = snprintf(line, sizeof(line), "%s: %s%s%s%s", cli->prog, *bar ? "[" : "", bar,
			     *bar ? "] " : "", tail);
	} else {
		n = snprintf(line, sizeof(line), "%s: %s read, %s events, %s", cli->prog,
			     size_str(a, sizeof(a), (double)done), e, r);
	}
	if (n >= width)
		line[width - 1] = '\0';
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	cli->bar_shown = true;
	cli->last_draw = secs;
}

/**
 * p2d_cli_progress - the &p2d_progress_fn of the programs: a progress bar
 * @ctx: the &struct p2d_cli
 * @done: input bytes read
 * @total: input size, 0 when unknown
 * @events: events converted so far
 *
 * Draws on standard error, which must be a terminal, once the conversion
 * has run for a second (or $PERF2DAT_PROGRESS_DELAY seconds), and redraws a
 * few times a second.
 */
void p2d_cli_progress(void *ctx, uint64_t done, uint64_t total, uint64_t events)
{
	struct p2d_cli *cli = ctx;
	double secs = elapsed(cli);

	if (!cli->bar || secs < cli->delay)
		return;
	/* the reader reports events written, the selection events read: show the most */
	if (events > cli->events_seen)
		cli->events_seen = events;
	if (cli->bar_shown && secs - cli->last_draw < BAR_PERIOD)
		return;
	draw(cli, done, total, cli->events_seen, secs);
}

/**
 * p2d_cli_bar_clear - remove the progress bar from the screen
 * @cli: state
 */
void p2d_cli_bar_clear(struct p2d_cli *cli)
{
	if (!cli->bar_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	cli->bar_shown = false;
}

/**
 * p2d_cli_log - the &p2d_log_fn of the programs
 * @ctx: the &struct p2d_cli
 * @level: severity
 * @msg: the message
 */
void p2d_cli_log(void *ctx, enum p2d_log_level level, const char *msg)
{
	static const char *const prefix[] = { "error", "warning", "info", "debug" };
	struct p2d_cli *cli = ctx;
	char buf[1024];

	p2d_cli_bar_clear(cli);
	fprintf(stderr, "%s: %s: %s\n", cli->prog, prefix[level],
		p2d_cli_flags(msg, buf, sizeof(buf)));
}

/* ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------ */
/* Termination signals                                                      */

/*
 * While converting, SIGINT, SIGTERM, SIGHUP and SIGQUIT (those not ignored)
 * are blocked in every thread and waited for by one: the process dies of
 * the signal at once, unless a named temporary file exists (the library
 * says when); then the conversion is cancelled, and the process dies of the
 * signal as soon as the name is gone. So a signal leaves nothing behind.
 * SIGKILL cannot wait: the janitor (janitor.c), told of every name, removes
 * what it leaves.
 */
static const int term_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void __attribute__((noreturn)) die_of(int sig)
{
	sigset_t one;

	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void *signal_waiter(void *arg)
{
	struct p2d_cli *cli = arg;
	int sig;

	for (;;) {
		if (sigwait(&cli->sig_set, &sig))
			continue;
		pthread_mutex_lock(&cli->sig_lock);
		if (!cli->named)
			die_of(sig);
		cli->pending = sig;
		cli->cancel = sig;
		pthread_mutex_unlock(&cli->sig_lock);
	}
	return NULL;
}

/* The &p2d_name_fn of the programs */
static void names_changed(void *ctx, const char *path, bool created)
{
	struct p2d_cli *cli = ctx;

	janitor_tell(path, created);
	if (!cli->holding)
		return;
	pthread_mutex_lock(&cli->sig_lock);
	cli->named += created ? 1 : -1;
	if (!cli->named && cli->pending)
		die_of(cli->pending);
	pthread_mutex_unlock(&cli->sig_lock);
}

static bool hold_signals(struct p2d_cli *cli)
{
	struct sigaction sa;
	size_t i;

	sigemptyset(&cli->sig_set);
	for (i = 0; i < sizeof(term_signals) / sizeof(term_signals[0]); i++) {
		/* an ignored signal (nohup) stays ignored */
		if (sigaction(term_signals[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			sigaddset(&cli->sig_set, term_signals[i]);
	}
	pthread_mutex_init(&cli->sig_lock, NULL);
	cli->named = cli->pending = 0;
	cli->cancel = 0;
	pthread_sigmask(SIG_BLOCK, &cli->sig_set, &cli->sig_old);
	if (pthread_create(&cli->sig_thread, NULL, signal_waiter, cli) == 0)
		return true;
	pthread_sigmask(SIG_SETMASK, &cli->sig_old, NULL);
	return false;
}

static void release_signals(struct p2d_cli *cli)
{
	pthread_cancel(cli->sig_thread);
	pthread_join(cli->sig_thread, NULL);
	if (cli->pending)
		die_of(cli->pending);
	pthread_sigmask(SIG_SETMASK, &cli->sig_old, NULL);
	pthread_mutex_destroy(&cli->sig_lock);
}

/*
 * -o -: standard output, when it is an empty regular file written from its
 * start ("perf2dat perf.data -o - > trace.dat", or the temporary file a
 * program gives the converter as its descriptor 1): the trace.dat is
 * written into it, unnamed, with no rename. The conversion reads back what
 * it wrote: a descriptor open for writing only is opened again, read-write,
 * through /proc/self/fd. Anything else there (a pipe, a terminal) is left
 * to the library, which refuses it: libtracecmd seeks.
 */
static int stdout_output(struct p2d_cli *cli, struct p2d_options *o)
{
	const char *in = strcmp(o->input, "-") ? o->input : "<stdin>";
	struct stat st;
	int flags, fd;

	cli->out_fd = -1;
	if (!o->output || strcmp(o->output, "-") || fstat(STDOUT_FILENO, &st) ||
	    !S_ISREG(st.st_mode))
		return 0;
	flags = fcntl(STDOUT_FILENO, F_GETFL);
	if (flags < 0 || (flags & O_APPEND) || (flags & O_ACCMODE) == O_RDONLY ||
	    st.st_size || lseek(STDOUT_FILENO, 0, SEEK_CUR) != 0) {
		fprintf(stderr, "%s: %s: standard output is a file, but not an empty one open"
			" for writing from its start (> FILE, not >>)\n", cli->prog, in);
		return -EINVAL;
	}
	fd = (flags & O_ACCMODE) == O_RDWR ? STDOUT_FILENO :
	     open("/proc/self/fd/1", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: standard output cannot be read back: %s\n", cli->prog,
			in, strerror(errno));
		return -errno;
	}
	o->output = NULL;
	o->output_fd = fd;
	cli->out_fd = fd;
	cli->to_stdout = true;
	return 0;
}

/* After the conversion into standard output: empty after a failure */
static void stdout_done(struct p2d_cli *cli, int ret)
{
	if (!cli->to_stdout)
		return;
	if (ret && ftruncate(cli->out_fd, 0))
		fprintf(stderr, "%s: standard output: %s\n", cli->prog, strerror(errno));
	if (cli->out_fd != STDOUT_FILENO)
		close(cli->out_fd);
	cli->out_fd = -1;
}

/**
 * p2d_cli_convert - run a conversion, with a progress bar on a terminal
 * @cli: state
 * @o: what to convert
 * @sum: filled by p2d_convert()
 *
 * An output of "-" is standard output when that is an empty regular file
 * (stdout_output()); a failure leaves it empty. On failure prints "PROG:
 * INPUT: what is wrong" on standard error. A termination signal ends the
 * process (of that signal) without leaving a file behind: see
 * hold_signals().
 *
 * Returns 0 or a negative errno.
 */
int p2d_cli_convert(struct p2d_cli *cli, struct p2d_options *o, struct p2d_summary *sum)
{
	const char *delay = getenv("PERF2DAT_PROGRESS_DELAY");
	char *end, buf[1024];
	int ret;

	ret = stdout_output(cli, o);
	if (ret)
		return ret;
	cli->delay = delay && *delay ? strtod(delay, &end) : BAR_DELAY;
	if (delay && *delay && (*end || cli->delay < 0))
		cli->delay = BAR_DELAY;
	cli->bar = !cli->quiet && isatty(STDERR_FILENO);
	if (cli->bar) {
		o->progress = p2d_cli_progress;
		o->progress_ctx = cli;
	}
	/* a program may fork: damaged formats are dropped rather than fatal */
	o->isolate_formats = true;
	clock_gettime(CLOCK_MONOTONIC, &cli->start);
	/* (while this process has one thread) */
	janitor_start();
	o->names = names_changed;
	o->names_ctx = cli;
	cli->holding = hold_signals(cli);
	if (cli->holding) {
		o->cancel = &cli->cancel;
		ret = p2d_convert(o, sum);
		release_signals(cli);
		cli->holding = false;
	} else {
		ret = p2d_convert(o, sum);
	}
	p2d_cli_bar_clear(cli);
	stdout_done(cli, ret);
	if (ret)
		fprintf(stderr, "%s: %s: %s\n", cli->prog,
			strcmp(o->input, "-") ? o->input : "<stdin>",
			sum->error[0] ? p2d_cli_flags(sum->error, buf, sizeof(buf)) :
			strerror(-ret));
	return ret;
}

/* Where the summary goes: standard error when the trace.dat is on standard output */
static FILE *summary_stream(const struct p2d_cli *cli)
{
	return cli->to_stdout ? stderr : stdout;
}

/* "N what" appended to a list being built in @line: @one when N is 1 */
static void count_item(char *line, size_t size, size_t *len, uint64_t n, const char *one,
		       const char *many)
{
	int r;

	if (!n || *len >= size)
		return;
	r = snprintf(line + *len, size - *len, "%s%llu %s", *len ? ", " : "",
		     (unsigned long long)n, n == 1 ? one : many);
	if (r > 0)
		*len += (size_t)r;
}

/* "s" unless @n is 1 */
static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* What the recording holds that the trace.dat does not */
static void left_out(const struct p2d_cli *cli, const struct p2d_summary *s)
{
	uint64_t untimed = s->size >= offsetof(struct p2d_summary, untimed) + sizeof(s->untimed) ?
			   s->untimed : 0;
	char line[384];
	size_t len = 0;

	count_item(line, sizeof(line), &len, s->other_samples - untimed,
		   "sample of an event the recording does not describe",
		   "samples of events the recording does not describe");
	count_item(line, sizeof(line), &len, untimed,
		   "sample without a timestamp (perf record --per-thread)",
		   "samples without timestamps (perf record --per-thread)");
	count_item(line, sizeof(line), &len, s->callchains, "call chain (--no-callchain)",
		   "call chains (--no-callchain)");
	count_item(line, sizeof(line), &len, s->bad_chains,
		   "call chain perf drops (a stray context-marker value)",
		   "call chains perf drops (a stray context-marker value)");
	count_item(line, sizeof(line), &len, s->sideband,
		   "side-band record (it names the tasks)", "side-band records (they name the tasks)");
	if (len)
		fprintf(summary_stream(cli), "%s: not converted: %s\n", cli->prog, line);
}

/*
 * perf --off-cpu's end-of-run batch: its samples have no time, so they are
 * not events; the trace.dat keeps them after its end unless a selection
 */
static void offcpu_line(const struct p2d_cli *cli, const struct p2d_options *o,
			const struct p2d_summary *s)
{
	bool sel = o->nr_events || o->cpus || o->pids || o->tids || o->time;

	if (s->size < offsetof(struct p2d_summary, offcpu_batch_ns) +
		      sizeof(s->offcpu_batch_ns) || !s->offcpu_batch)
		return;
	fprintf(summary_stream(cli), "%s: perf --off-cpu end-of-run batch: %llu sample%s, %.6f s"
		" off CPU, without times: %s\n", cli->prog, (unsigned long long)s->offcpu_batch,
		plural(s->offcpu_batch), (double)s->offcpu_batch_ns / 1e9,
		sel ? "left out by the selection" :
		"not events, kept after the trace.dat's end for KernelShark's off-CPU tree");
}

/* How the user addresses were named */
static void user_names_line(const struct p2d_cli *cli, const struct p2d_summary *s)
{
	FILE *f = summary_stream(cli);

	if (!s->user_named) {
		fprintf(f, "%s: user symbols: none for %llu addresses (their files are not here,"
			" or not the recording's)\n", cli->prog, (unsigned long long)s->user_addrs);
		return;
	}
	fprintf(f, "%s: user symbols: naming %llu of %llu addresses", cli->prog,
		(unsigned long long)s->user_named, (unsigned long long)s->user_addrs);
	if (s->user_ambiguous)
		fprintf(f, "; %llu left as numbers (another process has other code there)",
			(unsigned long long)s->user_ambiguous);
	fputc('\n', f);
}

/* Where the names of the stacks came from, when there are stacks */
static void stacks_line(const struct p2d_cli *cli, const struct p2d_summary *s)
{
	char buf[1024];
	const char *source = p2d_cli_flags(s->symbol_source, buf, sizeof(buf));

	if (s->kernel_addrs && s->symbols)
		fprintf(summary_stream(cli), "%s: kernel symbols: %u from %s, naming %llu of %llu addresses\n",
		       cli->prog, s->symbols, source, (unsigned long long)s->named_addrs,
		       (unsigned long long)s->kernel_addrs);
	else if (s->kernel_addrs)
		fprintf(summary_stream(cli), "%s: kernel symbols: %s\n", cli->prog, source);
	if (s->size >= offsetof(struct p2d_summary, user_ambiguous) + sizeof(s->user_ambiguous) &&
	    s->user_addrs)
		user_names_line(cli, s);
	if (s->unwound)
		fprintf(summary_stream(cli), "%s: user stacks unwound: %llu, %llu of them stop early at a file missing"
		       " here or changed since the recording\n", cli->prog,
		       (unsigned long long)s->unwound, (unsigned long long)s->unwind_short);
	if (s->unwind_skipped)
		fprintf(summary_stream(cli), "%s: user stacks not unwound: %llu (a machine this build cannot unwind)\n",
		       cli->prog, (unsigned long long)s->unwind_skipped);
}

/**
 * p2d_cli_summary - print the one-line summary of a conversion
 * @cli: state
 * @o: what was converted
 * @s: what the conversion did
 *
 * "PROG: N events (N tracepoint samples, N other samples, N stacks), N CPUs,
 * N lost, N tasks -> OUTPUT (SIZE, N% of the input)", with the events left
 * out by the selection and the compression ratio when there are some; then
 * what the recording has that the output does not (samples of events it does
 * not describe, call chains left out, side-band records), by count.
 */
void p2d_cli_summary(const struct p2d_cli *cli, const struct p2d_options *o,
		     const struct p2d_summary *s)
{
	bool comp = o->compression && strcmp(o->compression, "none");
	char size[32], ratio[64] = "", cratio[64] = "", kinds[256] = "";
	size_t len = 0;

	if (s->samples || s->stacks || s->records) {
		count_item(kinds, sizeof(kinds), &len, s->events - s->samples - s->stacks -
			   s->records, "tracepoint sample", "tracepoint samples");
		count_item(kinds, sizeof(kinds), &len, s->samples, "other sample", "other samples");
		count_item(kinds, sizeof(kinds), &len, s->stacks, "stack", "stacks");
		count_item(kinds, sizeof(kinds), &len, s->records, "side-band record", "side-band records");
	}
	count_item(kinds, sizeof(kinds), &len, s->filtered, "left out by the selection",
		   "left out by the selection");
	if (s->input_bytes) {
		double pct = 100.0 * (double)s->output_bytes / (double)s->input_bytes;

		/* a share under 1% keeps a digit: "0%" of a non-empty output says nothing */
		snprintf(ratio, sizeof(ratio), pct < 1.0 ? ", %.1f%% of the input" :
			 ", %.0f%% of the input", pct);
	}
	if (comp && s->output_bytes && s->uncompressed_bytes)
		snprintf(cratio, sizeof(cratio), ", compressed %.1f:1",
			 (double)s->uncompressed_bytes / (double)s->output_bytes);
	fprintf(summary_stream(cli), "%s: %llu event%s%s%s%s, %d CPU%s, %llu lost, %u task%s -> %s (%s%s%s)\n",
	       cli->prog, (unsigned long long)s->events, plural(s->events), len ? " (" : "", kinds,
	       len ? ")" : "", s->cpus, plural((uint64_t)s->cpus), (unsigned long long)s->lost,
	       s->tasks, plural(s->tasks), o->output ? o->output : "standard output", size_str(size, sizeof(size), (double)s->output_bytes),
	       ratio, cratio);
	left_out(cli, s);
	offcpu_line(cli, o, s);
	stacks_line(cli, s);
	if (s->dropped)
		fprintf(summary_stream(cli), "%s: %llu sample%s could not be converted (see warnings)\n",
		       cli->prog, (unsigned long long)s->dropped, plural(s->dropped));
}

/**
 * p2d_cli_release - free what the state holds
 * @cli: state
 */
void p2d_cli_release(struct p2d_cli *cli)
{
	free(cli->events);
	cli->events = NULL;
	cli->nr_events = 0;
}
