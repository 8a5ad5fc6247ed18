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
 * The converter is a program of its own (perf2dat-spawn.c), with a
 * deadline and a bound on what it writes. The temporary file has no name
 * (O_TMPFILE, or a name unlinked at once); the converter writes it as its
 * standard output (perf2dat -o -), so it disappears with the last
 * descriptor, when the stream is closed or KernelShark exits, however it
 * exits.
 *
 * This runs on KernelShark's loader thread: no Qt calls. An error is a
 * line on stderr and a negative return, which KernelShark reports as a
 * file that "contains no data"; the GUI's part of the plugin shows the
 * line too, in a message box, once KernelShark's main thread runs
 * (p2d_ks_show_error()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"
#include "perf2dat.h"
#include "perf2dat-input.h"
#include "blocked.h"

#define KS_P2D_EXPORT	__attribute__((visibility("default")))

/* At most KS_DATA_FORMAT_SIZE - 1 characters, and not "tep data". */
#define KS_P2D_FORMAT	"perf.data"

/* The trace.dat format name libkshark gives its own streams. */
#define KS_P2D_TEP	"tep data"

/* The input plugin interface libkshark looks up by name (libkshark-plugin.h) */
KS_P2D_EXPORT bool KSHARK_INPUT_CHECK(const char *file);
KS_P2D_EXPORT const char *KSHARK_INPUT_FORMAT(void);
KS_P2D_EXPORT int KSHARK_INPUT_INITIALIZER(struct kshark_data_stream *stream);
KS_P2D_EXPORT int KSHARK_INPUT_DEINITIALIZER(struct kshark_data_stream *stream);

static void vreport(const char *file, const char *said, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* "kernelshark perf2dat: FILE: REASON" on stderr; REASON and @said in the GUI */
static void vreport(const char *file, const char *said, const char *fmt, va_list ap)
{
	char msg[512], shown[800];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "kernelshark perf2dat: %s: %s\n", file, msg);
	if (said && *said) {
		snprintf(shown, sizeof(shown), "%s:\n%s", msg, said);
		p2d_ks_show_error(file, shown);
	} else {
		p2d_ks_show_error(file, msg);
	}
}

/**
 * p2d_ks_report - say why a recording does not open
 * @file: the recording
 * @fmt: printf format of the reason, and its arguments
 *
 * One line on stderr, "kernelshark perf2dat: FILE: REASON", and the same
 * reason in the GUI, when there is one (p2d_ks_show_error()).
 */
void p2d_ks_report(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(file, NULL, fmt, ap);
	va_end(ap);
}

/**
 * p2d_ks_report_said - say why a recording does not open, and what the converter said
 * @file: the recording
 * @said: the converter's last line on its standard error (already on
 *	  KernelShark's), or ""
 * @fmt: printf format of the reason, and its arguments
 *
 * As p2d_ks_report(); the GUI shows @said below the reason.
 */
void p2d_ks_report_said(const char *file, const char *said, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(file, said, fmt, ap);
	va_end(ap);
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
		p2d_ks_report(user_file, "the converted trace.dat does not load (%s)", strerror(-ret));
		return ret;
	}
	/* libkshark named the stream; from now on it is a trace.dat stream. */
	if (stream->name != user_name)
		free(user_name);
	kshark_set_data_format(stream->data_format, KS_P2D_TEP);
	return 0;
}

/*
 * perf record --off-cpu's end-of-run batch, which the converter appends to
 * the trace.dat: kept for the stack view (blocked.h), which cannot open
 * the nameless file.
 */
static void stash_batch(struct kshark_data_stream *stream, int fd)
{
	struct p2d_ks_batch *batch;
	size_t nr;

	if (p2d_ks_batch_read(fd, &batch, &nr))
		fprintf(stderr, "kernelshark perf2dat: %s: perf --off-cpu's end-of-run batch is"
			" damaged: left out\n", stream->file);
	else if (batch)
		p2d_ks_batch_stash(stream->stream_id, batch, nr);
}

/**
 * kshark_input_initializer - open a perf recording as a data stream
 * @stream: the stream libkshark is opening; @stream->file is the user's path
 *
 * Converts the recording into a private temporary trace.dat with the
 * perf2dat program (posix_spawn(), no fork of this process; killed past
 * its deadline or its output's bound: p2d_ks_convert()), then
 * initializes @stream with libkshark's trace.dat reader. On
 * success the stream is relabelled "tep data": libkshark then treats and
 * closes it as any trace.dat stream, and kshark_input_deinitializer() is
 * never called for it. The temporary file has no name and goes away when
 * the stream is closed.
 *
 * Returns 0 on success, or a negative errno (-ETIMEDOUT past the deadline,
 * -EFBIG past the bound), with a one-line reason on stderr and in the GUI
 * (p2d_ks_report()).
 */
KS_P2D_EXPORT int KSHARK_INPUT_INITIALIZER(struct kshark_data_stream *stream)
{
	char path[PATH_MAX];
	int fd, ret;

	if (!stream || !stream->file)
		return -EFAULT;

	fd = tmp_open(path, sizeof(path));
	if (fd < 0) {
		p2d_ks_report(stream->file, "temporary file: %s", strerror(-fd));
		return fd;
	}
	ret = p2d_ks_convert(stream->file, fd);
	if (ret == 0)
		ret = open_as_tep(stream, path);
	if (ret == 0)
		stash_batch(stream, fd);
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
