// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The converter of the KernelShark input plugin: the perf2dat program, run
 * with posix_spawn() (on glibc a clone(CLONE_VM | CLONE_VFORK) followed at
 * once by execve()), so that KernelShark's process, which runs Qt's
 * threads, never forks, and a fault in the parser costs the converter, not
 * KernelShark.
 *
 * KernelShark waits for the plugin on its loader thread, and the window
 * does not respond meanwhile: a converter that hangs would hang it for
 * ever, and one that writes without end would fill $TMPDIR. So the
 * converter has a deadline and a bound on what it writes, both derived
 * from the size of the recording (all the files of a perf record --threads
 * directory), generous so that no real conversion meets them:
 *
 * - deadline: 60 s, plus 1 s per 4 MiB. The slowest conversion measured,
 *   of a --call-graph dwarf recording (unwinding 8 KiB of stack per
 *   sample), ran at 28 MB/s (430 MB in 15 s); -g recordings at 113 MB/s,
 *   tracepoint ones at 450-700 MB/s (bench/results/real.md). 4 MiB/s is 7
 *   times slower than the slowest, and the 60 s cover a small recording's
 *   fixed costs (kernel symbols, the ELF and DWARF of user stacks).
 *
 * - bound: 16 times the recording, plus 256 MiB. Of the recordings in
 *   tests/data the trace.dat is at most 1.5 times the perf.data (a small
 *   one, where the trace.dat's headers and formats count), -g ones 1.34,
 *   --call-graph dwarf ones 0.56; a perf record -z (zstd) recording of one
 *   repeated event measured 7.6. The 256 MiB are for what a small
 *   recording can add: event formats, symbol names, a page per CPU.
 *
 * PERF2DAT_TIMEOUT (seconds) and PERF2DAT_MAX_OUTPUT (bytes) replace them;
 * 0 means no limit.
 *
 * The converter runs in a process group of its own, with no file larger
 * than the bound (RLIMIT_FSIZE: its own temporary files in $TMPDIR too),
 * and while it runs the plugin looks at the size of its output every
 * 100 ms. When it overruns the deadline or its output reaches the bound,
 * the whole group is killed (SIGKILL: what the converter started goes
 * too) and the converter reaped. The wait is a poll(2) of a pidfd
 * (pidfd_open(2), Linux 5.3), or of nothing for 20 ms at a time where
 * that is missing, and of a pipe from the converter's standard error: what
 * it says goes on to KernelShark's, and its last line into the reason the
 * GUI shows.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perf2dat-input.h"

/* The installed converter, BINDIR/perf2dat (Makefile.am) */
#ifndef P2D_CONVERTER
#define P2D_CONVERTER	"perf2dat"
#endif

/* The converter's arguments, at most: perf2dat -q -o - 3 x (OPTION VALUE) -i FILE */
#define KS_P2D_MAX_ARGS	14

/* The limits (see above) */
#define KS_P2D_DEADLINE_S	60
#define KS_P2D_DEADLINE_RATE	(4ull << 20)	/* bytes of input per second more */
#define KS_P2D_OUTPUT_TIMES	16
#define KS_P2D_OUTPUT_EXTRA	(256ull << 20)

/* How often the output's size is looked at; the wait without a pidfd */
#define KS_P2D_POLL_MS		100
#define KS_P2D_SLEEP_MS		20

extern char **environ;

/* How long the converter may run and how much it may write; 0: no limit */
struct p2d_ks_limits {
	uint64_t	input;		/* bytes of the recording (all files of a directory) */
	uint64_t	deadline_ms;
	uint64_t	max_output;	/* bytes */
};

/* The converter: $PERF2DAT_CONVERTER (a build tree's, for tests), else the installed one */
static const char *converter(void)
{
	const char *prog = getenv("PERF2DAT_CONVERTER");

	return prog && *prog ? prog : P2D_CONVERTER;
}

/* The bytes of the regular files in @dir (a perf record --threads directory) */
static uint64_t dir_bytes(const char *dir)
{
	struct dirent *e;
	uint64_t sum = 0;
	struct stat st;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (!fstatat(dirfd(d), e->d_name, &st, 0) && S_ISREG(st.st_mode))
			sum += st.st_size;
	closedir(d);
	return sum;
}

static uint64_t input_bytes(const char *file)
{
	struct stat st;

	if (stat(file, &st) < 0)
		return 0;
	return S_ISDIR(st.st_mode) ? dir_bytes(file) : (uint64_t)st.st_size;
}

/*
 * The limit $@name gives, in units of 1 / @scale: a number >= 0 (0: none),
 * else @def with a line saying so
 */
static uint64_t env_limit(const char *name, uint64_t def, double scale)
{
	const char *s = getenv(name);
	char *end;
	double v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v * scale < 1e18)) {
		fprintf(stderr, "kernelshark perf2dat: %s=%s is not a number >= 0: ignored\n", name, s);
		return def;
	}
	v *= scale;
	/* rounded up: a limit above 0 is not none */
	return (uint64_t)v + ((double)(uint64_t)v < v);
}

/*
 * The converter's deadline and output bound for @file: they grow with the
 * recording's size (see the top of this file); PERF2DAT_TIMEOUT (seconds)
 * and PERF2DAT_MAX_OUTPUT (bytes) replace them. A limit of 0 is none.
 */
static void limits(const char *file, struct p2d_ks_limits *lim)
{
	uint64_t in = input_bytes(file);
	uint64_t out = UINT64_MAX;

	lim->input = in;
	lim->deadline_ms = (KS_P2D_DEADLINE_S + in / KS_P2D_DEADLINE_RATE) * 1000;
	if (in <= (UINT64_MAX - KS_P2D_OUTPUT_EXTRA) / KS_P2D_OUTPUT_TIMES)
		out = in * KS_P2D_OUTPUT_TIMES + KS_P2D_OUTPUT_EXTRA;
	lim->max_output = out;
	lim->deadline_ms = env_limit("PERF2DAT_TIMEOUT", lim->deadline_ms, 1000);
	lim->max_output = env_limit("PERF2DAT_MAX_OUTPUT", lim->max_output, 1);
}

/*
 * The converter's command line: the recording into standard output, no
 * summary, the kernel symbols' and the files' sources as kernelshark-perf
 * passes them. perf2dat isolates the event formats itself: a damaged one
 * libtraceevent dies on is dropped, not fatal.
 */
static void converter_args(const char *prog, const char *file, const char **argv)
{
	static const char *const sources[][2] = {
		{ "PERF2DAT_KALLSYMS", "--kallsyms" },
		{ "PERF2DAT_VMLINUX", "--vmlinux" },
		{ "PERF2DAT_SYMFS", "--symfs" },
	};
	const char *value;
	size_t i, n = 0;

	argv[n++] = prog;
	argv[n++] = "-q";
	argv[n++] = "-o";
	argv[n++] = "-";
	for (i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		value = getenv(sources[i][0]);
		if (!value)
			continue;
		argv[n++] = sources[i][1];
		argv[n++] = value;
	}
	argv[n++] = "-i";
	/* a recording named "-" is not standard input */
	argv[n++] = strcmp(file, "-") ? file : "./-";
	argv[n] = NULL;
}

/*
 * What the converter gets besides its arguments: /dev/null as standard
 * input, @fd as standard output, @err (a pipe to the plugin) as standard
 * error, no other descriptor; a process group of its own; every signal's
 * default disposition, whatever KernelShark's threads block or handle.
 */
static int spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr, int fd, int err)
{
	short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP;
	sigset_t none, all;
	int ret;

	sigemptyset(&none);
	sigfillset(&all);
	/* @fd first: it may be 0 or 1 itself, in a host that closed its own (@err is not) */
	ret = posix_spawn_file_actions_adddup2(fa, fd, STDOUT_FILENO);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(fa, err, STDERR_FILENO);
	if (!ret)
		ret = posix_spawn_file_actions_addopen(fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
#ifdef HAVE_POSIX_SPAWN_FILE_ACTIONS_ADDCLOSEFROM_NP
	if (!ret)
		ret = posix_spawn_file_actions_addclosefrom_np(fa, STDERR_FILENO + 1);
#endif
	if (!ret)
		ret = posix_spawnattr_setflags(attr, flags);
	if (!ret)
		ret = posix_spawnattr_setpgroup(attr, 0);
	if (!ret)
		ret = posix_spawnattr_setsigmask(attr, &none);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(attr, &all);
	return ret;
}

/* Start @prog on @file, writing into @fd, saying into @err; its pid or a negative errno */
static pid_t spawn_converter(const char *prog, const char *file, int fd, int err)
{
	const char *argv[KS_P2D_MAX_ARGS + 1];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	pid_t pid = -1;
	int ret;

	converter_args(prog, file, argv);
	ret = posix_spawn_file_actions_init(&fa);
	if (ret)
		return -ret;
	ret = posix_spawnattr_init(&attr);
	if (ret) {
		posix_spawn_file_actions_destroy(&fa);
		return -ret;
	}
	ret = spawn_setup(&fa, &attr, fd, err);
	if (!ret)
		ret = posix_spawnp(&pid, prog, &fa, &attr, (char *const *)argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (ret) {
		p2d_ks_report(file, "cannot run the converter %s: %s", prog, strerror(ret));
		return -ret;
	}
	return pid;
}

/* A converter being waited for */
struct p2d_ks_watch {
	const char		*file;
	const char		*prog;
	pid_t			pid;
	int			pidfd;		/* -1 without pidfd_open() */
	int			out;		/* the converter's output */
	int			err;		/* its standard error; -1 at its end */
	struct p2d_ks_limits	lim;
	bool			limited;	/* its files can grow no larger than the bound */
	uint64_t		start_ms;
	uint64_t		written;
	int			status;
	char			line[256];	/* what it is saying */
	size_t			line_len;
	char			said[256];	/* the last line it said */
};

/* How the wait ended */
enum p2d_ks_end {
	KS_P2D_EXITED,
	KS_P2D_OVER_TIME,
	KS_P2D_OVER_SIZE,
	KS_P2D_WAIT_FAILED,
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/*
 * A pipe for the converter's standard error: the plugin's end does not
 * block, the converter's is not 0, 1 or 2 here (it becomes its 2)
 */
static int err_pipe(int p[2])
{
	int fd;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (p[1] <= STDERR_FILENO) {
		fd = fcntl(p[1], F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		close(p[1]);
		p[1] = fd;
	}
	if (p[1] < 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) < 0) {
		close(p[0]);
		if (p[1] >= 0)
			close(p[1]);
		return -EMFILE;
	}
	return 0;
}

/*
 * No file the converter writes may grow past the bound: its soft
 * RLIMIT_FSIZE, lowered only (best effort: the output is watched anyway)
 */
static void limit_files(struct p2d_ks_watch *w)
{
	struct rlimit rl;

	if (!w->lim.max_output || prlimit(w->pid, RLIMIT_FSIZE, NULL, &rl) < 0)
		return;
	/* KernelShark's own limit is lower: a file that meets it is not the bound's */
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur <= w->lim.max_output)
		return;
	rl.rlim_cur = w->lim.max_output;
	w->limited = prlimit(w->pid, RLIMIT_FSIZE, &rl, NULL) == 0;
}

/* Keep the last line of @n bytes of what the converter says */
static void keep_line(struct p2d_ks_watch *w, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (w->line_len < sizeof(w->line) - 1)
				w->line[w->line_len++] = buf[i];
			continue;
		}
		if (!w->line_len)
			continue;
		w->line[w->line_len] = '\0';
		memcpy(w->said, w->line, w->line_len + 1);
		w->line_len = 0;
	}
}

/*
 * Pass what the converter says on to KernelShark's standard error, as it
 * comes, keeping its last line; at its end (or with @last), a line it did
 * not end counts too. At most 64 KiB at a time (1 MiB with @last): one
 * that never stops talking still meets its deadline.
 */
static void relay(struct p2d_ks_watch *w, bool last)
{
	int chunks = last ? 256 : 16;
	char buf[4096];
	ssize_t n;

	while (w->err >= 0 && chunks--) {
		n = read(w->err, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !last)
			return;
		if (n <= 0) {
			close(w->err);
			w->err = -1;
			break;
		}
		if (write(STDERR_FILENO, buf, n) < 0) {
			/* nowhere to say it: the last line is kept all the same */
		}
		keep_line(w, buf, n);
	}
	if (last || w->err < 0)
		keep_line(w, "\n", 1);
}

/* Has the converter ended? 1 yes (not reaped yet), 0 no, a negative errno */
static int ended(struct p2d_ks_watch *w)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, w->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		if (errno != EINTR)
			return -errno;
	return si.si_pid == w->pid;
}

/* Has the output reached the bound? */
static bool over_size(struct p2d_ks_watch *w)
{
	struct stat st;

	if (fstat(w->out, &st) == 0)
		w->written = st.st_size;
	return w->lim.max_output && w->written >= w->lim.max_output;
}

/*
 * Wait at most @ms for the converter to end or say something: up to
 * KS_P2D_POLL_MS at a time with a pidfd (its end wakes the poll), else up
 * to KS_P2D_SLEEP_MS
 */
static void pause_ms(struct p2d_ks_watch *w, uint64_t ms)
{
	struct pollfd p[2] = {
		{ .fd = w->pidfd, .events = POLLIN },
		{ .fd = w->err, .events = POLLIN },
	};
	uint64_t most = w->pidfd >= 0 ? KS_P2D_POLL_MS : KS_P2D_SLEEP_MS;

	poll(p, 2, ms < most ? (int)ms : (int)most);
	if (p[1].revents)
		relay(w, false);
}

/* Until the converter ends, overruns its deadline or reaches the bound */
static enum p2d_ks_end watch(struct p2d_ks_watch *w)
{
	uint64_t spent;
	int ret;

	for (;;) {
		ret = ended(w);
		if (ret < 0)
			return KS_P2D_WAIT_FAILED;
		if (over_size(w))
			return KS_P2D_OVER_SIZE;
		if (ret)
			return KS_P2D_EXITED;
		spent = now_ms() - w->start_ms;
		if (w->lim.deadline_ms && spent >= w->lim.deadline_ms)
			return KS_P2D_OVER_TIME;
		pause_ms(w, w->lim.deadline_ms ? w->lim.deadline_ms - spent : KS_P2D_POLL_MS);
	}
}

/*
 * End what is left of the converter's process group (all of it when the
 * converter overran), then reap the converter; until then its zombie keeps
 * the group's id from being reused. What it said last is read then.
 */
static int finish(struct p2d_ks_watch *w, enum p2d_ks_end end)
{
	pid_t r;

	if (end != KS_P2D_WAIT_FAILED) {
		kill(-w->pid, SIGKILL);
		kill(w->pid, SIGKILL);
	}
	do
		r = waitpid(w->pid, &w->status, 0);
	while (r < 0 && errno == EINTR);
	relay(w, true);
	if (w->pidfd >= 0)
		close(w->pidfd);
	return r == w->pid ? 0 : -errno;
}

/* @bytes for people: "12.3 MiB" */
static const char *size_text(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1 << 20)
		snprintf(buf, len, "%.1f MiB", bytes / 1048576.0);
	else if (bytes >= 1 << 10)
		snprintf(buf, len, "%.1f KiB", bytes / 1024.0);
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
	return buf;
}

static int report_over_time(struct p2d_ks_watch *w)
{
	char in[32];

	p2d_ks_report(w->file, "conversion stopped: %s did not finish within its deadline of"
		      " %.1f s (for a recording of %s; PERF2DAT_TIMEOUT sets another)"
		      " and was killed", w->prog, w->lim.deadline_ms / 1000.0,
		      size_text(w->lim.input, in, sizeof(in)));
	return -ETIMEDOUT;
}

static int report_over_size(struct p2d_ks_watch *w)
{
	char bound[32], in[32];

	p2d_ks_report(w->file, "conversion stopped: %s reached its bound of %s on what it"
		      " writes (for a recording of %s; PERF2DAT_MAX_OUTPUT sets another)",
		      w->prog, size_text(w->lim.max_output, bound, sizeof(bound)),
		      size_text(w->lim.input, in, sizeof(in)));
	return -EFBIG;
}

/*
 * How the converter ended, when it ended by itself. A file of its own
 * that reached the bound makes it fail with EFBIG (perf2dat ignores
 * SIGXFSZ), which it says last.
 */
static int report_status(struct p2d_ks_watch *w)
{
	int st = w->status;

	if (w->limited && WIFSIGNALED(st) && WTERMSIG(st) == SIGXFSZ)
		return report_over_size(w);
	if (WIFSIGNALED(st)) {
		p2d_ks_report_said(w->file, w->said, "conversion failed: %s killed by signal %d (%s)",
				   w->prog, WTERMSIG(st), strsignal(WTERMSIG(st)));
		return -EIO;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (w->limited && strstr(w->said, strerror(EFBIG)))
		return report_over_size(w);
	p2d_ks_report_said(w->file, w->said, "conversion failed: %s exited with status %d",
			   w->prog, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return -EIO;
}

/* Run the converter, and wait */
static int run(struct p2d_ks_watch *w)
{
	enum p2d_ks_end end;
	int p[2], ret;

	ret = err_pipe(p);
	if (ret < 0) {
		p2d_ks_report(w->file, "a pipe for the converter: %s", strerror(-ret));
		return ret;
	}
	w->start_ms = now_ms();
	w->pid = spawn_converter(w->prog, w->file, w->out, p[1]);
	close(p[1]);
	w->err = p[0];
	if (w->pid < 0) {
		close(p[0]);
		return w->pid;
	}
	limit_files(w);
	w->pidfd = pidfd_of(w->pid);
	end = watch(w);
	ret = finish(w, end);
	if (end == KS_P2D_OVER_TIME)
		return report_over_time(w);
	if (end == KS_P2D_OVER_SIZE)
		return report_over_size(w);
	if (end == KS_P2D_WAIT_FAILED || ret < 0) {
		p2d_ks_report(w->file, "waiting for %s: %s", w->prog, strerror(ret < 0 ? -ret : ECHILD));
		return -ECHILD;
	}
	return report_status(w);
}

/**
 * p2d_ks_convert - convert a recording with the converter program
 * @file: the recording
 * @fd: where the trace.dat goes (the converter's standard output)
 *
 * Runs the converter (PERF2DAT_CONVERTER, else the installed perf2dat) on
 * @file and waits for it, at most until its deadline and while its output
 * stays below the bound (see the top of this file); past either it is killed. A
 * crash of the parser cannot take KernelShark down. What the converter
 * says goes on to KernelShark's standard error; its last line is part of
 * the reason the GUI shows when it fails.
 *
 * Returns 0 when the converter succeeded, else a negative errno (-ETIMEDOUT
 * past the deadline, -EFBIG past the bound) after a one-line reason
 * (p2d_ks_report()).
 */
int p2d_ks_convert(const char *file, int fd)
{
	struct p2d_ks_watch w = { .file = file, .prog = converter(), .out = fd, .err = -1 };

	limits(file, &w.lim);
	return run(&w);
}
