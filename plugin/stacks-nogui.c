// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stack view without its GUI (the plugin built without Qt): the C part
 * still keeps the samples, for p2d_ks_dump(), and nothing is drawn. Why a
 * recording did not open is only said on stderr.
 */
#include "perf2dat-input.h"
#include "stacks-plot.h"

void p2d_ks_register_draw(struct kshark_data_stream *stream)
{
	(void)stream;
}

void p2d_ks_unregister_draw(struct kshark_data_stream *stream)
{
	(void)stream;
}

void p2d_ks_register_blocked_draw(struct kshark_data_stream *stream)
{
	(void)stream;
}

void p2d_ks_unregister_blocked_draw(struct kshark_data_stream *stream)
{
	(void)stream;
}

void p2d_ks_forget(struct p2d_ks_stream *s)
{
	(void)s;
}

/**
 * p2d_ks_show_error - nothing to show a failure with, without Qt
 * @file: the recording
 * @msg: why it did not open (already on stderr)
 */
void p2d_ks_show_error(const char *file, const char *msg)
{
	(void)file;
	(void)msg;
}
