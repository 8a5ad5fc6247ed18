/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stack view's C part, local to the KernelShark plugin: which entries
 * are samples with stacks, their frames with names, and the call tree of
 * many samples. No Qt here: the headless test uses exactly this.
 *
 * A sample's stacks are the ftrace:kernel_stack and ftrace:user_stack
 * records right after it on its CPU, of the same task: what perf2dat
 * writes, and what trace-cmd record -T gives (its stack event follows the
 * event it belongs to).
 */
#ifndef P2D_KS_STACKS_H
#define P2D_KS_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kshark_data_stream;
struct kshark_entry;

/* one frame, as perf script prints it: ADDR NAME+OFF (FILE) */
struct p2d_ks_frame {
	uint64_t	addr;
	bool		user;
	const char	*name;		/* NULL: no symbol covers it ([unknown]) */
	uint64_t	off;		/* from the symbol's start */
	const char	*file;		/* [kernel.kallsyms], [MODULE], a path, or NULL */
	bool		has_file_off;
	uint64_t	file_off;	/* the address's offset in @file */
	bool		inlined;	/* inlined into the frame after it, at @addr */
	uint64_t	map_start;	/* where @file's mapping starts (user frames) */
};

/* a sample and its call chain: kernel frames (innermost first), then user */
struct p2d_ks_stack {
	const struct kshark_entry *sample;
	int		cpu;
	int		pid;		/* the sample's task */
	int64_t		ts;
	char		event[64];
	char		task[32];
	size_t		nr;
	size_t		nr_kernel;
	struct p2d_ks_frame *frames;
	char		*names;		/* storage of the frames' strings */
	size_t		names_len, names_cap;
};

/* per-stream state (the plot plugin's context) */
struct p2d_ks_stream;

struct p2d_ks_stream *p2d_ks_stream_new(struct kshark_data_stream *stream);
void p2d_ks_stream_free(struct p2d_ks_stream *s);
void p2d_ks_stream_reset(struct p2d_ks_stream *s);
bool p2d_ks_stream_has_stacks(const struct p2d_ks_stream *s);
int p2d_ks_stream_id(const struct p2d_ks_stream *s);

/* the event handler: every entry of the stream, as libkshark loads it */
void p2d_ks_stream_add(struct p2d_ks_stream *s, void *rec, struct kshark_entry *e);
void p2d_ks_stream_event_ids(struct p2d_ks_stream *s, int *kstack, int *ustack, int *sw);

size_t p2d_ks_samples(struct p2d_ks_stream *s, const struct kshark_entry ***out);
const struct kshark_entry *p2d_ks_sample_of(struct p2d_ks_stream *s,
					    const struct kshark_entry *e);
size_t p2d_ks_cpu_entries(struct p2d_ks_stream *s, int cpu, const struct kshark_entry ***out);
bool p2d_ks_stream_span(struct p2d_ks_stream *s, int64_t *first, int64_t *last);

/* a row of KernelShark's list (its CPU, its time as printed, its place), as its entry */
void p2d_ks_time_string(int64_t ts, char *buf, size_t size);
const struct kshark_entry *p2d_ks_row_entry(struct p2d_ks_stream *s, int cpu, const char *when,
					    size_t nth);

int p2d_ks_stack_read(struct p2d_ks_stream *s, const struct kshark_entry *sample,
		      struct p2d_ks_stack *st);
int p2d_ks_stack_user(struct p2d_ks_stream *s, int pid, const uint64_t *ips, size_t nr,
		      struct p2d_ks_stack *st);
void p2d_ks_stack_release(struct p2d_ks_stack *st);
int p2d_ks_frame_text(const struct p2d_ks_frame *f, char *buf, size_t len);
int p2d_ks_frame_label(const struct p2d_ks_frame *f, char *buf, size_t len);
int64_t p2d_ks_offcpu(struct p2d_ks_stream *s, const struct kshark_entry *sample, char *state);

/* a top-down call tree: outermost caller at the root's children */
struct p2d_ks_node {
	char		*label;
	uint64_t	samples;
	int64_t		offcpu_ns;	/* sched_switch samples: time until run again */
	struct p2d_ks_node *child;
	struct p2d_ks_node *next;
};

struct p2d_ks_node *p2d_ks_tree_new(void);
struct p2d_ks_node *p2d_ks_tree_child(struct p2d_ks_node *parent, const char *label);
int p2d_ks_tree_add(struct p2d_ks_node *root, const struct p2d_ks_stack *st, int64_t offcpu);
void p2d_ks_tree_free(struct p2d_ks_node *root);
int p2d_ks_tree_range(struct p2d_ks_stream *s, int64_t lo, int64_t hi, struct p2d_ks_node *root);

#ifdef __cplusplus
}
#endif

#endif
