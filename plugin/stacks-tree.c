// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * "Stacks in view": the call chains of many samples merged top-down, as
 * perf report --children -G shows them: the root's children are the
 * outermost callers (the last user frame, or the last kernel frame of a
 * kernel-only chain), each node a function, with the number of samples
 * whose chain passes through it and, for sched_switch samples, the time
 * their tasks were off the CPU (p2d_ks_offcpu()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark.h"
#include "stacks.h"

/**
 * p2d_ks_tree_new - an empty tree (its root has no label)
 */
struct p2d_ks_node *p2d_ks_tree_new(void)
{
	return calloc(1, sizeof(struct p2d_ks_node));
}

/**
 * p2d_ks_tree_free - free a tree
 * @root: its root, or NULL
 */
void p2d_ks_tree_free(struct p2d_ks_node *root)
{
	while (root) {
		struct p2d_ks_node *next = root->next;

		p2d_ks_tree_free(root->child);
		free(root->label);
		free(root);
		root = next;
	}
}

/**
 * p2d_ks_tree_child - the child of @parent labelled @label, added if missing
 * @parent: a node
 * @label: the child's label
 *
 * Returns it, or NULL without memory.
 */
struct p2d_ks_node *p2d_ks_tree_child(struct p2d_ks_node *parent, const char *label)
{
	struct p2d_ks_node **p = &parent->child, *n;

	for (; *p; p = &(*p)->next)
		if (!strcmp((*p)->label, label))
			return *p;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->label = strdup(label);
	if (!n->label) {
		free(n);
		return NULL;
	}
	*p = n;
	return n;
}

/**
 * p2d_ks_tree_add - merge one sample's chain into a tree
 * @root: the tree
 * @st: the sample's stack
 * @offcpu: its off-CPU time, or -1
 *
 * A function that recurses counts once per level it appears on. Returns 0
 * or -ENOMEM.
 */
int p2d_ks_tree_add(struct p2d_ks_node *root, const struct p2d_ks_stack *st, int64_t offcpu)
{
	struct p2d_ks_node *n = root;
	char label[1024];

	root->samples++;
	if (offcpu > 0)
		root->offcpu_ns += offcpu;
	for (size_t i = st->nr; i-- > 0;) {
		if (st->frames[i].inlined)
			continue;	/* the tree of calls: a frame is where code was called */
		p2d_ks_frame_label(&st->frames[i], label, sizeof(label));
		n = p2d_ks_tree_child(n, label);
		if (!n)
			return -ENOMEM;
		n->samples++;
		if (offcpu > 0)
			n->offcpu_ns += offcpu;
	}
	return 0;
}

static size_t first_at(const struct kshark_entry **e, size_t n, int64_t ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid]->ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * p2d_ks_tree_range - the tree of the samples from @lo to @hi
 * @s: the stream's state
 * @lo: the first nanosecond
 * @hi: the last
 * @root: an empty tree, filled
 *
 * Samples a graph filter hides are left out, as the graphs leave them out.
 * Returns the number of samples merged, or -ENOMEM.
 */
int p2d_ks_tree_range(struct p2d_ks_stream *s, int64_t lo, int64_t hi, struct p2d_ks_node *root)
{
	const struct kshark_entry **e;
	size_t n = p2d_ks_samples(s, &e);
	int count = 0;

	for (size_t i = first_at(e, n, lo); i < n && e[i]->ts <= hi; i++) {
		struct p2d_ks_stack st;
		char state;
		int ret;

		if (!(e[i]->visible & KS_GRAPH_VIEW_FILTER_MASK))
			continue;
		if (p2d_ks_stack_read(s, e[i], &st))
			continue;
		ret = p2d_ks_tree_add(root, &st, p2d_ks_offcpu(s, e[i], &state));
		p2d_ks_stack_release(&st);
		if (ret)
			return ret;
		count++;
	}
	return count;
}
