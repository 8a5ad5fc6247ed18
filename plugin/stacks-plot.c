// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stack view's plot plugin interface (libkshark-plugin.h): one
 * p2d_ks_stream (samples with stacks) and one p2d_ks_blocked_set (blocked
 * intervals) per tep stream, fed by an event handler on every event of the
 * stream, and the draw handlers that mark the samples with stacks and draw
 * the intervals (StackView.cpp and BlockedPlot.cpp, when the plugin is
 * built with Qt). A stream with neither stacks nor sched_switch or
 * perf:offcpu_time events is left alone.
 *
 * KernelShark's list shows the Info of a stack event on one line, its top
 * frame first (stack_info()).
 *
 * p2d_ks_dump() prints what the panel and the call tree would show for
 * every sample of a stream, p2d_ks_dump_blocked() every blocked interval
 * and the off-CPU tree: the headless tests read that.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"
#include "blocked.h"
#include "stacks.h"
#include "stacks-plot.h"

#define KS_P2D_EXPORT	__attribute__((visibility("default")))

KS_P2D_EXPORT int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream);
KS_P2D_EXPORT int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream);
KS_P2D_EXPORT int p2d_ks_dump(int sd, FILE *out);
KS_P2D_EXPORT int p2d_ks_dump_blocked(int sd, FILE *out);

#define MAX_STREAMS	256

static struct p2d_ks_stream *streams[MAX_STREAMS];
static struct p2d_ks_blocked_set *blocked[MAX_STREAMS];

/**
 * p2d_ks_stream_of - the stack view's state of stream @sd
 * @sd: a libkshark stream id
 *
 * Returns it, or NULL when the plugin is not on that stream.
 */
struct p2d_ks_stream *p2d_ks_stream_of(int sd)
{
	return sd >= 0 && sd < MAX_STREAMS ? streams[sd] : NULL;
}

/**
 * p2d_ks_blocked_of_stream - the blocked intervals of stream @sd
 * @sd: a libkshark stream id
 *
 * Returns them, or NULL when the plugin is not on that stream.
 */
struct p2d_ks_blocked_set *p2d_ks_blocked_of_stream(int sd)
{
	return sd >= 0 && sd < MAX_STREAMS ? blocked[sd] : NULL;
}

static void on_entry(struct kshark_data_stream *stream, void *rec, struct kshark_entry *e)
{
	struct p2d_ks_stream *s = p2d_ks_stream_of(stream->stream_id);
	struct p2d_ks_blocked_set *b = p2d_ks_blocked_of_stream(stream->stream_id);

	if (s)
		p2d_ks_stream_add(s, rec, e);
	if (b)
		p2d_ks_blocked_add(b, rec, e);
}

/*
 * perf --off-cpu's end-of-run batch: the input plugin kept it when it
 * opened a perf.data; a trace.dat holds it after its end.
 */
static void load_batch(struct kshark_data_stream *stream, struct p2d_ks_blocked_set *b)
{
	struct p2d_ks_batch *batch;
	size_t nr;

	if (!p2d_ks_batch_take(stream->stream_id, &batch, &nr) && stream->file &&
	    kshark_tep_is_top_stream(stream) &&
	    p2d_ks_batch_read_file(stream->file, &batch, &nr) == -EINVAL)
		fprintf(stderr, "kernelshark perf2dat: %s: perf --off-cpu's end-of-run batch is"
			" damaged: left out\n", stream->file);
	if (batch)
		p2d_ks_blocked_set_batch(b, batch, nr);
}

/*
 * libkshark's Info of an entry of a tep stream (tepdata_get_info(), the same
 * function for every tep stream), which stack_info() wraps
 */
static stream_get_str_func tep_get_info;

/*
 * A stack event's text on one line, its top frame first: libtraceevent
 * prints a kernel_stack as "<stack trace >" and a "=> FRAME" line per frame
 * (plugin_function.c), a user_stack as a "\t=> FRAME" line per caller, and
 * KernelShark's list shows one line of a cell, a clipped middle one. The
 * heading and the zero padding go, the frames are joined by a blank.
 */
/* "=> 0x0": a user_stack's zero padding after its last caller */
static bool is_padding(const char *line, size_t len)
{
	return (len == 6 && !strncmp(line, "=> 0x0", 6)) || (len == 4 && !strncmp(line, "=> 0", 4));
}

static char *one_line(char *info)
{
	char *in = info, *out = info, *nl;
	size_t len;

	while (*in) {
		nl = strchr(in, '\n');
		if (nl)
			*nl = '\0';
		in += strspn(in, " \t");
		len = strlen(in);
		while (len && (in[len - 1] == ' ' || in[len - 1] == '\t'))
			len--;
		if (len && strncmp(in, "<stack trace", 12) && !is_padding(in, len)) {
			if (out != info)
				*out++ = ' ';
			memmove(out, in, len);
			out += len;
		}
		if (!nl)
			break;
		in = nl + 1;
	}
	*out = '\0';
	return info;
}

static char *stack_info(struct kshark_data_stream *stream, const struct kshark_entry *e)
{
	struct p2d_ks_stream *s = p2d_ks_stream_of(stream->stream_id);
	char *info = tep_get_info(stream, e);
	int kstack, ustack, sw;

	if (!info || !s)
		return info;
	p2d_ks_stream_event_ids(s, &kstack, &ustack, &sw);
	if (e->event_id == kstack || e->event_id == ustack)
		one_line(info);
	return info;
}

/* The Info of the stream's stack events on one line (stack_info()) */
static void wrap_info(struct kshark_data_stream *stream, bool on)
{
	struct kshark_generic_stream_interface *i = stream->interface;

	if (!i)
		return;
	if (on && i->get_info != stack_info) {
		tep_get_info = i->get_info;
		i->get_info = stack_info;
	} else if (!on && i->get_info == stack_info) {
		i->get_info = tep_get_info;
	}
}

static int *event_ids(struct kshark_data_stream *stream, int *n)
{
	int *ids = kshark_get_all_event_ids(stream);

	*n = ids ? stream->n_events : 0;
	return ids;
}

int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct p2d_ks_blocked_set *b;
	struct p2d_ks_stream *s;
	int n, *ids;

	if (stream->stream_id < 0 || stream->stream_id >= MAX_STREAMS ||
	    streams[stream->stream_id] || !kshark_is_tep(stream))
		return 0;
	s = p2d_ks_stream_new(stream);
	b = s ? p2d_ks_blocked_new(stream) : NULL;
	if (!b || (!p2d_ks_stream_has_stacks(s) && !p2d_ks_blocked_wanted(b))) {
		/* nothing to show: the plugin stays off this stream */
		p2d_ks_blocked_free(b);
		p2d_ks_stream_free(s);
		return 0;
	}
	load_batch(stream, b);
	streams[stream->stream_id] = s;
	blocked[stream->stream_id] = b;
	ids = event_ids(stream, &n);
	for (int i = 0; i < n; i++)
		kshark_register_event_handler(stream, ids[i], on_entry);
	free(ids);
	wrap_info(stream, true);
	p2d_ks_register_draw(stream);
	p2d_ks_register_blocked_draw(stream);
	return 1;
}

int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct p2d_ks_stream *s = p2d_ks_stream_of(stream->stream_id);
	int n, *ids;

	if (!s)
		return 0;
	p2d_ks_unregister_draw(stream);
	p2d_ks_unregister_blocked_draw(stream);
	wrap_info(stream, false);
	ids = event_ids(stream, &n);
	for (int i = 0; i < n; i++)
		kshark_unregister_event_handler(stream, ids[i], on_entry);
	free(ids);
	p2d_ks_forget(s);
	streams[stream->stream_id] = NULL;
	p2d_ks_blocked_free(blocked[stream->stream_id]);
	blocked[stream->stream_id] = NULL;
	p2d_ks_stream_free(s);
	return 1;
}

static void dump_node(FILE *out, const struct p2d_ks_node *n, int depth)
{
	for (; n; n = n->next) {
		fprintf(out, "tree %d %llu %lld %s\n", depth, (unsigned long long)n->samples,
			(long long)n->offcpu_ns, n->label);
		dump_node(out, n->child, depth + 1);
	}
}

/**
 * p2d_ks_dump - print the stack view of every sample of stream @sd
 * @sd: the stream
 * @out: where
 *
 * For each sample with stacks, in time order: "sample CPU TS PID EVENT",
 * then a line "frame k|u TEXT" per frame (p2d_ks_frame_text()); then the
 * call tree of all of them: "tree DEPTH SAMPLES OFFCPU_NS LABEL" per node,
 * depth first. Returns the number of samples, or a negative errno.
 */
int p2d_ks_dump(int sd, FILE *out)
{
	struct p2d_ks_stream *s = p2d_ks_stream_of(sd);
	const struct kshark_entry **e;
	struct p2d_ks_node *root;
	size_t n;
	int ret;

	if (!s)
		return -ENOENT;
	n = p2d_ks_samples(s, &e);
	for (size_t i = 0; i < n; i++) {
		struct p2d_ks_stack st;
		char buf[8192];

		if (p2d_ks_stack_read(s, e[i], &st))
			continue;
		fprintf(out, "sample %d %lld %d %s\n", st.cpu, (long long)st.ts, st.pid, st.event);
		for (size_t k = 0; k < st.nr; k++) {
			p2d_ks_frame_text(&st.frames[k], buf, sizeof(buf));
			fprintf(out, "frame %c %s\n", st.frames[k].user ? 'u' : 'k', buf);
		}
		p2d_ks_stack_release(&st);
	}
	root = p2d_ks_tree_new();
	if (!root)
		return -ENOMEM;
	ret = p2d_ks_tree_range(s, INT64_MIN, INT64_MAX, root);
	if (ret >= 0)
		dump_node(out, root->child, 0);
	p2d_ks_tree_free(root);
	return ret < 0 ? ret : (int)n;
}

/**
 * p2d_ks_dump_blocked - print the blocked intervals of stream @sd, and its off-CPU tree
 * @sd: the stream
 * @out: where
 *
 * p2d_ks_blocked_dump(). Returns the number of intervals, or a negative
 * errno (-ENOENT when the plugin is not on the stream).
 */
int p2d_ks_dump_blocked(int sd, FILE *out)
{
	struct p2d_ks_stream *s = p2d_ks_stream_of(sd);
	struct p2d_ks_blocked_set *b = p2d_ks_blocked_of_stream(sd);

	if (!s || !b)
		return -ENOENT;
	return p2d_ks_blocked_dump(s, b, out);
}
