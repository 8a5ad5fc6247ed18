// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * KernelShark input plugin: open perf.data recordings.
 *
 * The recording is converted by the perf2dat program into a private
 * temporary trace.dat, which is then handed to libkshark's own trace.dat
 * reader, so the stream behaves exactly like a trace.dat opened directly
 * (task plots, the sched_events and missed_events plugins, filters,
 * buffers).
 *
 * The converter is a program of its own, started with posix_spawn() (on
 * glibc a clone(CLONE_VM | CLONE_VFORK) followed at once by execve()):
 * KernelShark's process, which runs Qt's threads, never forks, and a fault
 * in the parser costs the converter, not KernelShark. The temporary file
 * has no name (O_TMPFILE, or a name unlinked at once); the converter writes
 * it as its standard output (perf2dat -o -), so it disappears with the last
 * descriptor, when the stream is closed or KernelShark exits, however it
 * exits.
 *
 * This runs on KernelShark's loader thread: no Qt calls; errors are one
 * line on stderr and a negative return, which KernelShark reports as a file
 * that "contains no data".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"
#include "perf2dat.h"

#define KS_P2D_EXPORT	__attribute__((visibility("default")))

/* At most KS_DATA_FORMAT_SIZE - 1 characters, and not "tep data". */
#define KS_P2D_FORMAT	"perf.data"

/* The trace.dat format name libkshark gives its own streams. */
#define KS_P2D_TEP	"tep data"

/* The installed converter, BINDIR/perf2dat (Makefile.am) */
#ifndef P2D_CONVERTER
#define P2D_CONVERTER	"perf2dat"
#endif

/* The converter's arguments, at most: perf2dat -q -o - 3 x (OPTION VALUE) -i FILE */
#define KS_P2D_MAX_ARGS	14

extern char **environ;

/* The input plugin interface libkshark looks up by name (libkshark-plugin.h) */
KS_P2D_EXPORT bool KSHARK_INPUT_CHECK(const char *file);
KS_P2D_EXPORT const char *KSHARK_INPUT_FORMAT(void);
KS_P2D_EXPORT int KSHARK_INPUT_INITIALIZER(struct kshark_data_stream *stream);
KS_P2D_EXPORT int KSHARK_INPUT_DEINITIALIZER(struct kshark_data_stream *stream);

static void report(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void report(const char *file, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "kernelshark perf2dat: %s: %s\n", file, msg);
}

/**
 * kshark_input_check - is @file a perf recording this plugin can open?
 * @file: path given to KernelShark
 *
 * Recognises perf.data by content: a file starting with the "PERFILE2"
 * magic in either byte order, or a `perf record --threads` directory whose
 * "data" file does.
 *
 * Returns true when @file is a perf recording.
 */
KS_P2D_EXPORT bool KSHARK_INPUT_CHECK(const char *file)
{
	return file && p2d_is_perf_path(file);
}

/**
 * kshark_input_format - the data format name of this input
 *
 * Returns "perf.data". A stream only carries it while it is being opened:
 * once converted it is a trace.dat stream of libkshark's own reader.
 */
KS_P2D_EXPORT const char *KSHARK_INPUT_FORMAT(void)
{
	return KS_P2D_FORMAT;
}

/*
 * A private temporary file that never has a name: O_TMPFILE, reachable by
 * path only through /proc/self/fd. Where that is unavailable, a named file
 * unlinked right away (the /proc path still reopens it).
 */
static int tmp_open(char *path, size_t size)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (snprintf(path, size, "%s/kshark-perf2dat-XXXXXX", dir) >= (int)size)
			return -ENAMETOOLONG;
		fd = mkostemp(path, O_CLOEXEC);
		if (fd < 0)
			return -errno;
		unlink(path);
	}
	snprintf(path, size, "/proc/self/fd/%d", fd);
	if (access(path, R_OK) < 0) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

/* The converter: $PERF2DAT_CONVERTER (a build tree's, for tests), else the installed one */
static const char *converter(void)
{
	const char *prog = getenv("PERF2DAT_CONVERTER");

	return prog && *prog ? prog : P2D_CONVERTER;
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
 * input, @fd as standard output, KernelShark's standard error, no other
 * descriptor; no blocked signal and every signal's default disposition,
 * whatever KernelShark's threads block or handle.
 */
static int spawn_setup(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr, int fd)
{
	sigset_t none, all;
	int ret;

	sigemptyset(&none);
	sigfillset(&all);
	/* @fd first: it may be 0 or 1 itself, in a host that closed its own */
	ret = posix_spawn_file_actions_adddup2(fa, fd, STDOUT_FILENO);
	if (!ret)
		ret = posix_spawn_file_actions_addopen(fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
#ifdef HAVE_POSIX_SPAWN_FILE_ACTIONS_ADDCLOSEFROM_NP
	if (!ret)
		ret = posix_spawn_file_actions_addclosefrom_np(fa, STDERR_FILENO + 1);
#endif
	if (!ret)
		ret = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (!ret)
		ret = posix_spawnattr_setsigmask(attr, &none);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(attr, &all);
	return ret;
}

/* Start @prog on @file, writing into @fd; returns its pid or a negative errno */
static pid_t spawn_converter(const char *prog, const char *file, int fd)
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
	ret = spawn_setup(&fa, &attr, fd);
	if (!ret)
		ret = posix_spawnp(&pid, prog, &fa, &attr, (char *const *)argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (ret) {
		report(file, "cannot run the converter %s: %s", prog, strerror(ret));
		return -ret;
	}
	return pid;
}

/*
 * Convert @file into @fd with the converter program, so that a crash of the
 * parser cannot take KernelShark down.
 */
static int convert(const char *file, int fd)
{
	const char *prog = converter();
	int status;
	pid_t pid;

	pid = spawn_converter(prog, file, fd);
	if (pid < 0)
		return pid;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			report(file, "waitpid: %s", strerror(errno));
			return -ECHILD;
		}
	}
	if (WIFSIGNALED(status)) {
		report(file, "conversion failed: %s killed by signal %d (%s)", prog,
		       WTERMSIG(status), strsignal(WTERMSIG(status)));
		return -EIO;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		report(file, "conversion failed: %s exited with status %d", prog,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -EIO;
	}
	return 0;
}

/*
 * Open the converted trace.dat at @path with libkshark's own reader, while
 * the stream keeps the user's file name.
 */
static int open_as_tep(struct kshark_data_stream *stream, char *path)
{
	char *user_file = stream->file;
	char *user_name = stream->name;
	int ret;

	stream->file = path;
	ret = kshark_tep_init_input(stream);
	stream->file = user_file;
	if (ret < 0) {
		report(user_file, "the converted trace.dat does not load (%s)", strerror(-ret));
		return ret;
	}
	/* libkshark named the stream; from now on it is a trace.dat stream. */
	if (stream->name != user_name)
		free(user_name);
	kshark_set_data_format(stream->data_format, KS_P2D_TEP);
	return 0;
}

/**
 * kshark_input_initializer - open a perf recording as a data stream
 * @stream: the stream libkshark is opening; @stream->file is the user's path
 *
 * Converts the recording into a private temporary trace.dat with the
 * perf2dat program (posix_spawn(), no fork of this process), then
 * initializes @stream with libkshark's trace.dat reader. On
 * success the stream is relabelled "tep data": libkshark then treats and
 * closes it as any trace.dat stream, and kshark_input_deinitializer() is
 * never called for it. The temporary file has no name and goes away when
 * the stream is closed.
 *
 * Returns 0 on success, or a negative errno (a one-line reason is printed
 * on stderr).
 */
KS_P2D_EXPORT int KSHARK_INPUT_INITIALIZER(struct kshark_data_stream *stream)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!stream || !stream->file)
		return -EFAULT;

	fd = tmp_open(path, sizeof(path));
	if (fd < 0) {
		report(stream->file, "temporary file: %s", strerror(-fd));
		return fd;
	}
	ret = convert(stream->file, fd);
	if (ret == 0)
		ret = open_as_tep(stream, path);
	close(fd);
	return ret;
}

/**
 * kshark_input_deinitializer - close a stream of this input
 * @stream: the stream
 *
 * Nothing to do: a stream that opened is a trace.dat stream closed by
 * libkshark itself, and one that failed holds nothing of ours.
 *
 * Returns 0.
 */
KS_P2D_EXPORT int KSHARK_INPUT_DEINITIALIZER(struct kshark_data_stream *stream)
{
	return 0;
}
