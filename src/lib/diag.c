// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One error convention: functions return 0 or a negative errno, and the
 * first failure also leaves a one-line message naming the input offset.
 */
#include <stdio.h>

#include "p2d-local.h"

static void default_log(void *ctx, enum p2d_log_level level, const char *msg)
{
	static const char *const prefix[] = {
		[P2D_LOG_ERROR] = "error",
		[P2D_LOG_WARN] = "warning",
		[P2D_LOG_INFO] = "info",
		[P2D_LOG_DEBUG] = "debug",
	};

	fprintf(stderr, "perf2dat: %s: %s\n", prefix[level], msg);
}

static void vlog(const struct p2d_options *opts, enum p2d_log_level level,
		 const char *fmt, va_list ap)
{
	char msg[1024];

	if (level > opts->log_level)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (opts->log)
		opts->log(opts->log_ctx, level, msg);
	else
		default_log(NULL, level, msg);
}

/**
 * p2d_log - pass a message to the caller's log sink
 * @opts: options holding the sink and the level
 * @level: severity
 * @fmt: printf format
 */
void p2d_log(const struct p2d_options *opts, enum p2d_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(opts, level, fmt, ap);
	va_end(ap);
}

/**
 * p2d_error - record the reason of a failure
 * @cv: conversion
 * @off: input offset the problem was found at
 * @err: negative errno to return
 * @fmt: printf format of the message
 *
 * Only the first error is kept: later ones are consequences.
 *
 * Returns @err.
 */
int p2d_error(struct p2d_conv *cv, uint64_t off, int err, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (cv->err_set)
		return err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (off == P2D_NO_OFFSET)
		snprintf(cv->sum->error, sizeof(cv->sum->error), "%s", msg);
	else
		snprintf(cv->sum->error, sizeof(cv->sum->error), "%s%soffset 0x%llx: %s",
			 cv->in && cv->in->label ? cv->in->label : "",
			 cv->in && cv->in->label ? ": " : "", (unsigned long long)off, msg);
	cv->err_set = true;
	return err;
}

/**
 * p2d_warn - report a problem that does not stop the conversion
 * @cv: conversion
 * @off: input offset
 * @fmt: printf format
 */
void p2d_warn(struct p2d_conv *cv, uint64_t off, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (off == P2D_NO_OFFSET)
		p2d_log(cv->opts, P2D_LOG_WARN, "%s", msg);
	else
		p2d_log(cv->opts, P2D_LOG_WARN, "%s: offset 0x%llx: %s",
			cv->in && cv->in->name ? cv->in->name : "input",
			(unsigned long long)off, msg);
}

/**
 * p2d_info - an informational message (shown with -v)
 * @cv: conversion
 * @fmt: printf format
 */
void p2d_info(struct p2d_conv *cv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(cv->opts, P2D_LOG_INFO, fmt, ap);
	va_end(ap);
}
