/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The events perf2dat writes where the recording has no tracepoint
 * (synth.c): a "perf" system with an event per non-tracepoint event of the
 * recording (perf:cpu_clock, perf:cycles, ...) and per kind of side-band
 * record (perf:comm, perf:mmap, ...), the stacks of call chains as
 * ftrace:kernel_stack and ftrace:user_stack events, and their formats and
 * payloads.
 */
#ifndef P2D_SYNTH_H
#define P2D_SYNTH_H

#include "sink.h"
#include "tracing.h"

#define P2D_SYNTH_SYSTEM	"perf"

/** enum p2d_synth_kind - what an event id of the output is */
enum p2d_synth_kind {
	P2D_KIND_TRACEPOINT = 0,	/* the recording's own */
	P2D_KIND_SAMPLE,		/* a perf:* event of a non-tracepoint sample */
	P2D_KIND_STACK,			/* ftrace:kernel_stack or ftrace:user_stack */
	P2D_KIND_RECORD,		/* a perf:* event of a side-band record */
};

/**
 * typedef p2d_payload_fn - receives the payloads p2d_synth_stacks() builds
 * @ctx: its context
 * @data: an event payload, in this host's byte order
 * @len: its size
 */
typedef int (*p2d_payload_fn)(void *ctx, const uint8_t *data, uint32_t len);

/**
 * struct p2d_chain - a call chain's parts
 * @kernel: the kernel frames, innermost first
 * @nr_kernel: how many
 * @user: the user frames, innermost first
 * @nr_user: how many
 * @bad: the chain holds a value of perf's context range (-4095..-1) that is
 *	no context marker: a stack walked by frame pointers it does not have
 *	gives such return addresses. perf discards the whole chain then (it
 *	prints the sample without frames), so both parts are empty.
 */
struct p2d_chain {
	const uint64_t	*kernel;
	uint32_t	nr_kernel;
	const uint64_t	*user;
	uint32_t	nr_user;
	bool		bad;
};

/**
 * struct p2d_stack_of - the event a stack belongs to
 * @pid: its common_pid
 * @tgid: its process
 * @flags: its common_flags and common_preempt_count (the latency columns),
 *	as two bytes in memory order
 */
struct p2d_stack_of {
	uint32_t	pid;
	uint32_t	tgid;
	uint16_t	flags;
};

struct p2d_synth;

struct p2d_synth *p2d_synth_new(void) __hidden;
void p2d_synth_free(struct p2d_synth *s) __hidden;
int p2d_synth_source(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
		     const struct p2d_source *src) __hidden;
int p2d_synth_sample(struct p2d_synth *s, const struct p2d_event *ev, const uint8_t **data,
		     uint32_t *len) __hidden;
int p2d_synth_chain(struct p2d_synth *s, const struct p2d_event *ev,
		    struct p2d_chain *chain) __hidden;
int p2d_synth_kernel_stack(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
			   const struct p2d_stack_of *of, const uint64_t *frames, uint32_t n,
			   p2d_payload_fn fn, void *ctx) __hidden;
int p2d_synth_user_stacks(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
			  const struct p2d_stack_of *of, const uint64_t *frames, uint32_t n,
			  p2d_payload_fn fn, void *ctx) __hidden;
bool p2d_synth_user_tgid(const struct p2d_synth *s, const uint8_t *data, uint32_t len,
			 uint32_t *tgid) __hidden;
int p2d_synth_record(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
		     const struct p2d_record *rec, const uint8_t **data, uint32_t *len) __hidden;
enum p2d_synth_kind p2d_synth_kind(const struct p2d_synth *s, uint16_t id) __hidden;
bool p2d_synth_sample_ip(const struct p2d_synth *s, const uint8_t *data, uint32_t len,
			 uint64_t *ip) __hidden;
int p2d_synth_user_frames(const struct p2d_synth *s, const uint8_t *data, uint32_t len,
			  uint32_t *tgid, int (*fn)(void *ctx, uint32_t tgid, uint64_t frame),
			  void *ctx) __hidden;

#endif /* P2D_SYNTH_H */
