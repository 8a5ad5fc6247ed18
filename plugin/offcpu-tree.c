// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * "Off-CPU in view": the blocked intervals of a range merged into a tree
 * of blocked time. Under the root, one node per state (S, D, ...); under a
 * state, the stack at the switch-out top-down, as "Stacks in view" shows
 * call chains (the outermost caller first, a function once per level, its
 * inlined callees left out), or "[no stack]"; under the innermost frame,
 * the wakers ("woken by COMM-PID", or "no wake-up seen"). Each node counts
 * the intervals through it and their blocked time within the range: an
 * interval that begins before the range or ends after it counts only its
 * part inside.
 *
 * The intervals of tasks a task filter hides are left out, as the graphs
 * leave them out. perf record --off-cpu's end-of-run batch, which has no
 * times, is a state of its own ("off-CPU, end of run"), with its user
 * stacks, when asked for (the whole recording is in view).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark.h"
#include "blocked.h"
#include "stacks.h"

/* the label of the end-of-run batch's state */
#define BATCH_LABEL	"off-CPU, end of run (perf --off-cpu, no time)"

static bool task_shown(struct kshark_data_stream *stream, int pid)
{
	if (stream->show_task_filter && stream->show_task_filter->count &&
	    !kshark_hash_id_find(stream->show_task_filter, pid))
		return false;
	return !(stream->hide_task_filter && stream->hide_task_filter->count &&
		 kshark_hash_id_find(stream->hide_task_filter, pid));
}

static struct p2d_ks_node *count(struct p2d_ks_node *n, int64_t ns)
{
	if (n) {
		n->samples++;
		n->offcpu_ns += ns;
	}
	return n;
}

/* @ns under @root: @state, the frames of @st (NULL: none) outermost first, @leaf */
static int add_path(struct p2d_ks_node *root, const char *state, const struct p2d_ks_stack *st,
		    const char *leaf, int64_t ns)
{
	struct p2d_ks_node *n = count(p2d_ks_tree_child(root, state), ns);
	char label[1024];

	count(root, ns);
	if (n && !st)
		n = count(p2d_ks_tree_child(n, "[no stack]"), ns);
	for (size_t i = st ? st->nr : 0; n && i-- > 0;) {
		if (st->frames[i].inlined)
			continue;
		p2d_ks_frame_label(&st->frames[i], label, sizeof(label));
		n = count(p2d_ks_tree_child(n, label), ns);
	}
	if (n && leaf)
		n = count(p2d_ks_tree_child(n, leaf), ns);
	return n ? 0 : -ENOMEM;
}

static void waker_label(struct kshark_data_stream *stream, const struct p2d_ks_blocked *iv,
			char *buf, size_t len)
{
	char *comm;

	if (!iv->wake) {
		snprintf(buf, len, "%s", iv->state == P2D_KS_OFFCPU_STATE ? "waker not recorded" :
			 "no wake-up seen");
		return;
	}
	comm = kshark_comm_from_pid(stream->stream_id, iv->waker);
	snprintf(buf, len, "woken by %s-%d", comm ? comm : "<...>", iv->waker);
	free(comm);
}

static int add_interval(struct p2d_ks_stream *s, struct kshark_data_stream *stream,
			const struct p2d_ks_blocked *iv, int64_t ns, struct p2d_ks_node *root)
{
	char state[64], leaf[96];
	struct p2d_ks_stack st;
	bool stack;
	int ret;

	snprintf(state, sizeof(state), "%s", p2d_ks_state_name(iv->state));
	waker_label(stream, iv, leaf, sizeof(leaf));
	stack = !p2d_ks_stack_read(s, iv->out, &st);
	ret = add_path(root, state, stack ? &st : NULL, leaf, ns);
	if (stack)
		p2d_ks_stack_release(&st);
	return ret;
}

static int add_batch(struct p2d_ks_stream *s, const struct p2d_ks_blocked_set *b,
		     struct p2d_ks_node *root)
{
	const struct p2d_ks_batch *batch;
	size_t n = p2d_ks_blocked_batch(b, &batch);
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		struct p2d_ks_stack st;
		bool stack = !p2d_ks_stack_user(s, batch[i].pid, batch[i].ips, batch[i].nr, &st);

		ret = add_path(root, BATCH_LABEL, stack ? &st : NULL, NULL, (int64_t)batch[i].ns);
		if (stack)
			p2d_ks_stack_release(&st);
	}
	return ret;
}

/**
 * p2d_ks_offcpu_tree - the blocked time of the range from @lo to @hi
 * @s: the stream's stacks
 * @b: its blocked intervals
 * @lo: the first nanosecond
 * @hi: the last
 * @batch: also perf record --off-cpu's end-of-run batch (no times)
 * @root: an empty tree, filled: node "samples" are intervals, "offcpu_ns"
 *	  their blocked time within the range
 *
 * Returns the number of intervals merged, or -ENOMEM.
 */
int p2d_ks_offcpu_tree(struct p2d_ks_stream *s, struct p2d_ks_blocked_set *b, int64_t lo,
		       int64_t hi, bool batch, struct p2d_ks_node *root)
{
	const struct p2d_ks_blocked *iv;
	struct kshark_data_stream *stream;
	size_t n = p2d_ks_blocked_all(b, &iv);
	int count = 0, ret = 0;

	stream = p2d_ks_blocked_stream(b);
	for (size_t i = 0; i < n && !ret; i++) {
		int64_t from = iv[i].start > lo ? iv[i].start : lo;
		int64_t to = iv[i].end < hi ? iv[i].end : hi;

		if (to < from || (to == from && (iv[i].start < lo || iv[i].end > hi)))
			continue;
		if (!task_shown(stream, iv[i].pid))
			continue;
		ret = add_interval(s, stream, &iv[i], to - from, root);
		count++;
	}
	if (!ret && batch)
		ret = add_batch(s, b, root);
	return ret ? ret : count;
}
