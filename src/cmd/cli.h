/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the perf2dat program and the trace-cmd front end share: the selection
 * options, the progress bar and the summary line (cli.c), the janitor of
 * their named temporaries (janitor.c).
 */
#ifndef P2D_CLI_H
#define P2D_CLI_H

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "perf2dat.h"

/* Option codes of the shared long options (short ones: e C o f q v) */
enum {
	P2D_OPT_TIME = 1000,
	P2D_OPT_PID,
	P2D_OPT_TID,
	P2D_OPT_FILE_VERSION,
	P2D_OPT_COMPRESSION,
	P2D_OPT_KALLSYMS,
	P2D_OPT_TOD,
	P2D_OPT_NO_CALLCHAIN,
	P2D_OPT_ALL,
	P2D_OPT_VMLINUX,
	P2D_OPT_SYMFS,
	P2D_OPT_NO_USER_NAMES,
	P2D_OPT_DEBUGINFOD,
	P2D_OPT_FIRST_FREE,	/* the programs number their own options from here */
};

/* getopt_long() entries of the options both programs give a conversion */
#define P2D_CLI_CONVERT_OPTIONS						\
	{ "output",	 required_argument,	NULL, 'o' },			\
	{ "force",	 no_argument,		NULL, 'f' },			\
	{ "file-version", required_argument,	NULL, P2D_OPT_FILE_VERSION },	\
	{ "compression", required_argument,	NULL, P2D_OPT_COMPRESSION },	\
	{ "kallsyms",	 required_argument,	NULL, P2D_OPT_KALLSYMS },	\
	{ "vmlinux",	 required_argument,	NULL, P2D_OPT_VMLINUX },	\
	{ "symfs",	 required_argument,	NULL, P2D_OPT_SYMFS },		\
	{ "debuginfod",	 no_argument,		NULL, P2D_OPT_DEBUGINFOD },	\
	{ "tod",	 no_argument,		NULL, P2D_OPT_TOD },		\
	{ "no-callchain", no_argument,		NULL, P2D_OPT_NO_CALLCHAIN },	\
	{ "no-user-names", no_argument,	NULL, P2D_OPT_NO_USER_NAMES },	\
	{ "all",	 no_argument,		NULL, P2D_OPT_ALL },		\
	{ "quiet",	 no_argument,		NULL, 'q' },			\
	{ "verbose",	 no_argument,		NULL, 'v' }

/* getopt_long() entries of the selection options */
#define P2D_CLI_SELECT_OPTIONS						\
	{ "event",	required_argument,	NULL, 'e' },		\
	{ "cpu",	required_argument,	NULL, 'C' },		\
	{ "time",	required_argument,	NULL, P2D_OPT_TIME },	\
	{ "pid",	required_argument,	NULL, P2D_OPT_PID },	\
	{ "tid",	required_argument,	NULL, P2D_OPT_TID }

/* Their --help lines, a paragraph with its heading */
#define P2D_CLI_SELECT_HELP						\
	"\n"								\
	"Selection (all given must hold):\n"				\
	"  -e, --event SYSTEM:EVENT keep only these events; wildcards, also EVENT or\n" \
	"                           SYSTEM alone; repeat or separate with commas\n" \
	"  -C, --cpu LIST           keep only these CPUs (0,2-3)\n"	\
	"      --time START,STOP    keep only this time window, as perf script --time:\n" \
	"                           seconds (1234.5,1235.2; either end may be left\n" \
	"                           out; several windows separated by blanks) or\n" \
	"                           percentages (10%, 0%-10%,30%-40%, 10%/2)\n" \
	"      --pid LIST           keep only these processes (thread group ids)\n" \
	"      --tid LIST           keep only these threads\n"

/* Help lines of the output options both programs take after -o. */
#define P2D_CLI_OUTPUT_HELP						\
	"  -f, --force              replace the output if it exists\n"	\
	"      --file-version N     trace.dat version: 6 or 7 (default: 7)\n" \
	"      --compression ALGO   none, zstd or any (version 7; default: none)\n" \
	"      --kallsyms FILE|none kernel symbols from this /proc/kallsyms copy, or\n" \
	"                           none; default: found as perf finds them, by the\n" \
	"                           recording's kernel build id (a vmlinux, perf's\n" \
	"                           build-id cache, the running kernel); only those\n" \
	"                           the stacks and samples need are embedded\n" \
	"      --vmlinux FILE       kernel symbols from this vmlinux (ELF)\n" \
	"      --symfs DIR          look for files under DIR: the ELF files of user\n" \
	"                           stacks (--call-graph dwarf), vmlinux, kallsyms\n" \
	"      --debuginfod         fetch the ELF files of user stacks missing here,\n" \
	"                           and their debug files, by build id from the\n" \
	"                           servers of $DEBUGINFOD_URLS (elfutils' debuginfod)\n" \
	"      --tod                show times of day (recordings made with perf\n" \
	"                           record -k CLOCK), to the microsecond; default:\n" \
	"                           the recorded clock, as perf script shows it\n" \
	"      --no-callchain       leave call chains out (default: each becomes\n" \
	"                           ftrace:kernel_stack and ftrace:user_stack events\n" \
	"                           after its event)\n" \
	"      --no-user-names      leave user addresses as numbers (default: named\n" \
	"                           after their files' functions, as perf names them)\n" \
	"      --all                also the side-band records (COMM, FORK, EXIT,\n" \
	"                           MMAP, SWITCH, LOST, THROTTLE) as perf:* events\n"

/* Help lines of the message options both programs take, a paragraph */
#define P2D_CLI_MESSAGE_HELP						\
	"\n"								\
	"  -q, --quiet              print nothing but errors (no summary, no progress)\n" \
	"  -v, --verbose            print more details\n"			\
	"  -h, --help               show this help\n"

/**
 * struct p2d_cli - state of a program's conversion
 * @prog: program name for messages
 * @events: the -e patterns (@opts->events points here)
 * @nr_events: count of @events
 * @quiet: no summary, no progress
 * @to_stdout: the trace.dat goes to standard output (-o -), the summary to
 *	standard error
 * @out_fd: the descriptor written then (1, or 1 opened again read-write)
 * @bar: the progress bar may be drawn (standard error is a terminal)
 * @bar_shown: a bar is on the screen
 * @start: when the conversion started
 * @last_draw: seconds after @start of the last drawing
 * @delay: seconds before a bar appears (PERF2DAT_PROGRESS_DELAY, default 1)
 * @events_seen: the highest event count reported
 * @bar_room: width of the bar, fixed when first drawn; -1: no room for one
 * @holding: the termination signals are held (hold_signals())
 * @sig_set: the termination signals the program handles while converting
 * @sig_old: the signal mask before
 * @sig_thread: the thread that waits for them
 * @sig_lock: guards @named and @pending
 * @named: named temporary files that exist (&p2d_name_fn)
 * @pending: a signal that came while @named was not 0
 * @cancel: what the conversion polls (&p2d_options cancel)
 */
struct p2d_cli {
	const char	*prog;
	const char	**events;
	unsigned int	nr_events;
	bool		quiet;
	bool		to_stdout;
	int		out_fd;
	bool		bar;
	bool		bar_shown;
	struct timespec	start;
	double		last_draw;
	double		delay;
	uint64_t	events_seen;
	int		bar_room;
	bool		holding;
	sigset_t	sig_set;
	sigset_t	sig_old;
	pthread_t	sig_thread;
	pthread_mutex_t	sig_lock;
	int		named;
	int		pending;
	volatile sig_atomic_t cancel;
};

void p2d_cli_init(struct p2d_cli *cli, const char *prog, struct p2d_options *o);
int p2d_cli_select_option(struct p2d_cli *cli, struct p2d_options *o, int c, char *arg);
int p2d_cli_convert_option(struct p2d_cli *cli, struct p2d_options *o, int c, char *arg,
			   const char **bad);
void p2d_cli_log(void *ctx, enum p2d_log_level level, const char *msg);
const char *p2d_cli_flags(const char *msg, char *buf, size_t size);
void p2d_cli_progress(void *ctx, uint64_t done, uint64_t total, uint64_t events);
void p2d_cli_bar_clear(struct p2d_cli *cli);
int p2d_cli_convert(struct p2d_cli *cli, struct p2d_options *o, struct p2d_summary *sum);
void p2d_cli_summary(const struct p2d_cli *cli, const struct p2d_options *o,
		     const struct p2d_summary *sum);
void p2d_cli_release(struct p2d_cli *cli);

int janitor_start(void);
void janitor_tell(const char *path, bool created);

#endif /* P2D_CLI_H */
