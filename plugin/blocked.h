/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Blocked intervals, local to the KernelShark plugin: where a task was off
 * its CPU because it slept, and who woke it. No Qt here: the headless test
 * uses exactly this.
 *
 * A blocked interval goes from a sched_switch that takes the task off its
 * CPU with a sleeping prev_state (S, D, T, t, P, I: not R or R+, which are
 * preemption, nor X and Z, which end it) to the next sched_switch that runs
 * it again. Its wake-up is the last sched_waking of the task (sched_wakeup
 * in a recording without sched_waking) since the task last ran: the waker
 * is the task that event belongs to, on its CPU, at its time; the run delay
 * goes from the wake-up to the switch-in. A perf record --off-cpu sample
 * written at its time (perf:offcpu_time) is an interval too, ending at the
 * sample, as long as its period, of state 'O' (S or D: perf does not say).
 */
#ifndef P2D_KS_BLOCKED_H
#define P2D_KS_BLOCKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kshark_data_stream;
struct kshark_entry;
struct p2d_ks_node;
struct p2d_ks_stream;

/* the state of an interval of a perf record --off-cpu sample */
#define P2D_KS_OFFCPU_STATE	'O'

/* one blocked interval */
struct p2d_ks_blocked {
	int		pid;		/* the task that was off its CPU */
	char		state;		/* S, D, T, t, P, I, or P2D_KS_OFFCPU_STATE */
	int64_t		start;		/* switch-out (ns) */
	int64_t		end;		/* switch-in */
	const struct kshark_entry *out;	/* the sched_switch (or perf:offcpu_time sample) */
	const struct kshark_entry *in;	/* the sched_switch that ran it again, or NULL */
	const struct kshark_entry *wake; /* its wake-up, or NULL */
	int		waker;		/* the task of @wake, -1 without one */
};

/* one sample of perf record --off-cpu's end-of-run batch (no time) */
struct p2d_ks_batch {
	int		pid;
	int		tid;
	uint64_t	ns;		/* time off CPU, summed by perf */
	size_t		nr;
	uint64_t	*ips;		/* user frames, innermost first */
};

/* the blocked intervals of one stream */
struct p2d_ks_blocked_set;

struct p2d_ks_blocked_set *p2d_ks_blocked_new(struct kshark_data_stream *stream);
void p2d_ks_blocked_free(struct p2d_ks_blocked_set *b);
bool p2d_ks_blocked_wanted(const struct p2d_ks_blocked_set *b);
struct kshark_data_stream *p2d_ks_blocked_stream(const struct p2d_ks_blocked_set *b);
void p2d_ks_blocked_add(struct p2d_ks_blocked_set *b, void *rec, struct kshark_entry *e);

size_t p2d_ks_blocked_all(struct p2d_ks_blocked_set *b, const struct p2d_ks_blocked **out);
size_t p2d_ks_blocked_task(struct p2d_ks_blocked_set *b, int pid, int64_t lo,
			   const struct p2d_ks_blocked **first);
const struct p2d_ks_blocked *p2d_ks_blocked_of(struct p2d_ks_blocked_set *b,
					       const struct kshark_entry *e);
const char *p2d_ks_state_name(char state);

/* perf record --off-cpu's end-of-run batch, read from the trace.dat */
void p2d_ks_blocked_set_batch(struct p2d_ks_blocked_set *b, struct p2d_ks_batch *batch,
			      size_t nr);
size_t p2d_ks_blocked_batch(const struct p2d_ks_blocked_set *b, const struct p2d_ks_batch **out);
int p2d_ks_batch_read(int fd, struct p2d_ks_batch **out, size_t *nr);
int p2d_ks_batch_read_file(const char *path, struct p2d_ks_batch **out, size_t *nr);
void p2d_ks_batch_free(struct p2d_ks_batch *batch, size_t nr);
void p2d_ks_batch_stash(int sd, struct p2d_ks_batch *batch, size_t nr);
bool p2d_ks_batch_take(int sd, struct p2d_ks_batch **batch, size_t *nr);

/* "Off-CPU in view": blocked time by state, stack and waker */
int p2d_ks_offcpu_tree(struct p2d_ks_stream *s, struct p2d_ks_blocked_set *b, int64_t lo,
		       int64_t hi, bool batch, struct p2d_ks_node *root);
int p2d_ks_blocked_dump(struct p2d_ks_stream *s, struct p2d_ks_blocked_set *b, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
