// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One error convention: functions return 0 or a negative errno, and the
 * first failure also leaves a one-line message naming the input offset.
 * Warnings and informational messages go to the caller's log sink.
 */
#include <stdio.h>

#include "diag.h"

static void default_log(enum p2d_log_level level, const char *msg)
{
	static const char *const prefix[] = {
		[P2D_LOG_ERROR] = "error",
		[P2D_LOG_WARN] = "warning",
		[P2D_LOG_INFO] = "info",
		[P2D_LOG_DEBUG] = "debug",
	};

	fprintf(stderr, "perf2dat: %s: %s\n", prefix[level], msg);
}

/*
 * Messages quote names and strings of the input (a version string, a
 * system's name): a control character there (a newline) would break the
 * one-line rule of every message, so each becomes '?' (found by the fuzzer).
 */
static void one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}

static void vlog(const struct p2d_diag *d, enum p2d_log_level level, const char *fmt,
		 va_list ap) P2D_PRINTF(3, 0);

static void vlog(const struct p2d_diag *d, enum p2d_log_level level, const char *fmt,
		 va_list ap)
{
	char msg[1024];

	if (level > d->level)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	one_line(msg);
	if (d->log)
		d->log(d->log_ctx, level, msg);
	else
		default_log(level, msg);
}

static void say(const struct p2d_diag *d, enum p2d_log_level level, const char *fmt, ...)
	P2D_PRINTF(3, 4);

static void say(const struct p2d_diag *d, enum p2d_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(d, level, fmt, ap);
	va_end(ap);
}

/**
 * p2d_diag_init - diagnostics for a conversion
 * @d: to initialize
 * @o: the caller's options: the log sink and its level
 * @error: where the first error goes
 * @size: its size
 */
void p2d_diag_init(struct p2d_diag *d, const struct p2d_options *o, char *error, size_t size)
{
	memset(d, 0, sizeof(*d));
	d->log = o->log;
	d->log_ctx = o->log_ctx;
	d->level = o->log_level;
	d->error = error;
	d->error_size = size;
	if (size)
		error[0] = '\0';
}

/**
 * p2d_error - record the reason of a failure
 * @d: diagnostics
 * @off: input offset the problem was found at, or P2D_NO_OFFSET
 * @err: negative errno to return
 * @fmt: printf format of the message
 *
 * Only the first error is kept: later ones are consequences.
 *
 * Returns @err.
 */
int p2d_error(struct p2d_diag *d, uint64_t off, int err, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (d->err_set || !d->error_size)
		return err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (off == P2D_NO_OFFSET)
		snprintf(d->error, d->error_size, "%s", msg);
	else
		snprintf(d->error, d->error_size, "%s%soffset 0x%llx: %s",
			 d->label ? d->label : "", d->label ? ": " : "",
			 (unsigned long long)off, msg);
	one_line(d->error);
	d->err_set = true;
	return err;
}

_Static_assert(P2D_ONCE_NR <= 32, "p2d_diag.once has a bit for each");

static void vwarn(struct p2d_diag *d, uint64_t off, const char *fmt, va_list ap)
	P2D_PRINTF(3, 0);

static void vwarn(struct p2d_diag *d, uint64_t off, const char *fmt, va_list ap)
{
	char msg[900];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (off == P2D_NO_OFFSET)
		say(d, P2D_LOG_WARN, "%s", msg);
	else
		say(d, P2D_LOG_WARN, "%s: offset 0x%llx: %s", d->name ? d->name : "input",
		    (unsigned long long)off, msg);
}

/**
 * p2d_warn - report a problem that does not stop the conversion
 * @d: diagnostics
 * @off: input offset, or P2D_NO_OFFSET
 * @fmt: printf format
 */
void p2d_warn(struct p2d_diag *d, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(d, off, fmt, ap);
	va_end(ap);
}

/**
 * p2d_warn_once - a warning said at its first case only, as perf's WARN_ONCE
 * @d: diagnostics
 * @what: which warning
 * @off: input offset of the first case, or P2D_NO_OFFSET
 * @fmt: printf format
 *
 * Once a conversion (a diagnostics structure), not once a process: a
 * library's callers convert many times.
 *
 * Returns true when it was said now.
 */
bool p2d_warn_once(struct p2d_diag *d, enum p2d_once what, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (d->once & (1u << what))
		return false;
	d->once |= 1u << what;
	va_start(ap, fmt);
	vwarn(d, off, fmt, ap);
	va_end(ap);
	return true;
}

/**
 * p2d_warn_refused - a file the recording names was not opened: say so once
 * @d: diagnostics
 * @path: the file
 * @why: what p2d_open_named() said of it
 *
 * One warning for each file (the first 32 files; a file is looked for
 * again by each process that maps it, and by each source of symbols).
 */
void p2d_warn_refused(struct p2d_diag *d, const char *path, const char *why)
{
	uint32_t h = 2166136261u;
	const char *s;
	uint8_t i;

	for (s = path; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	for (i = 0; i < d->nr_refused; i++)
		if (d->refused[i] == h)
			return;
	if (d->nr_refused < sizeof(d->refused) / sizeof(d->refused[0]))
		d->refused[d->nr_refused++] = h;
	say(d, P2D_LOG_WARN, "%s (named by the recording): %s", path, why);
}

/**
 * p2d_info - an informational message (shown with -v)
 * @d: diagnostics
 * @fmt: printf format
 */
void p2d_info(struct p2d_diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(d, P2D_LOG_INFO, fmt, ap);
	va_end(ap);
}
