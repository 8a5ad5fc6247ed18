// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The blocked intervals of a stream as text, for the headless test: what
 * the task plots draw, what the stack view shows of each interval, and the
 * "Off-CPU in view" tree of the whole recording.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "libkshark.h"
#include "blocked.h"
#include "stacks.h"

static void frames(FILE *out, const char *tag, struct p2d_ks_stream *s,
		   const struct kshark_entry *e)
{
	struct p2d_ks_stack st;
	char buf[8192];

	if (!e || p2d_ks_stack_read(s, e, &st))
		return;
	for (size_t k = 0; k < st.nr; k++) {
		p2d_ks_frame_text(&st.frames[k], buf, sizeof(buf));
		fprintf(out, "%s %c %s\n", tag, st.frames[k].user ? 'u' : 'k', buf);
	}
	p2d_ks_stack_release(&st);
}

static void interval(FILE *out, struct p2d_ks_stream *s, const struct p2d_ks_blocked *iv)
{
	fprintf(out, "interval %d %c %" PRId64 " %" PRId64 " %d ", iv->pid, iv->state, iv->start,
		iv->end, iv->out->cpu);
	if (iv->in)
		fprintf(out, "%d ", iv->in->cpu);
	else
		fputs("- ", out);
	if (iv->wake)
		fprintf(out, "%d %d %" PRId64 "\n", iv->waker, iv->wake->cpu, iv->wake->ts);
	else
		fputs("-1 - -\n", out);
	frames(out, "ostack", s, iv->out);
	frames(out, "wstack", s, iv->wake);
}

static void batch(FILE *out, struct p2d_ks_stream *s, const struct p2d_ks_blocked_set *b)
{
	const struct p2d_ks_batch *bt;
	size_t n = p2d_ks_blocked_batch(b, &bt);
	char buf[8192];

	for (size_t i = 0; i < n; i++) {
		struct p2d_ks_stack st;

		fprintf(out, "batch %d %d %" PRIu64 "\n", bt[i].pid, bt[i].tid, bt[i].ns);
		if (p2d_ks_stack_user(s, bt[i].pid, bt[i].ips, bt[i].nr, &st))
			continue;
		for (size_t k = 0; k < st.nr; k++) {
			p2d_ks_frame_text(&st.frames[k], buf, sizeof(buf));
			fprintf(out, "bstack u %s\n", buf);
		}
		p2d_ks_stack_release(&st);
	}
}

static void tree(FILE *out, const struct p2d_ks_node *n, int depth)
{
	for (; n; n = n->next) {
		fprintf(out, "otree %d %" PRIu64 " %" PRId64 " %s\n", depth, n->samples,
			n->offcpu_ns, n->label);
		tree(out, n->child, depth + 1);
	}
}

/**
 * p2d_ks_blocked_dump - print every blocked interval of a stream, and its tree
 * @s: the stream's stacks
 * @b: its blocked intervals
 * @out: where
 *
 * By task then start: "interval PID STATE START END OUT_CPU IN_CPU WAKER
 * WAKE_CPU WAKE_TS" (IN_CPU "-" for a perf:offcpu_time sample; WAKER -1 and
 * "-" without a wake-up), then "ostack k|u FRAME" per frame of the stack at
 * the switch-out and "wstack k|u FRAME" per frame of the waker's
 * (p2d_ks_frame_text()). Then perf --off-cpu's end-of-run batch, "batch PID
 * TID NS" and "bstack u FRAME"; then the "Off-CPU in view" tree of the
 * whole recording, batch included, "otree DEPTH INTERVALS NS LABEL" per
 * node, depth first. Returns the number of intervals, or a negative errno.
 */
int p2d_ks_blocked_dump(struct p2d_ks_stream *s, struct p2d_ks_blocked_set *b, FILE *out)
{
	const struct p2d_ks_blocked *iv;
	size_t n = p2d_ks_blocked_all(b, &iv);
	struct p2d_ks_node *root;
	int ret;

	for (size_t i = 0; i < n; i++)
		interval(out, s, &iv[i]);
	batch(out, s, b);
	root = p2d_ks_tree_new();
	if (!root)
		return -ENOMEM;
	ret = p2d_ks_offcpu_tree(s, b, INT64_MIN, INT64_MAX, true, root);
	if (ret >= 0)
		tree(out, root->child, 0);
	p2d_ks_tree_free(root);
	return ret < 0 ? ret : (int)n;
}
