// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Blocked intervals of a KernelShark stream (blocked.h).
 *
 * The event handler sees every entry as libkshark loads it, one CPU after
 * the other. Of a sched_switch it keeps two moves, the previous task's
 * switch-out (with its prev_state) and the next task's switch-in; of a
 * wake-up, the woken task's (the "pid" field) with the waker's pid; of a
 * perf:offcpu_time sample, its task and period. Everything is read from the
 * record while it is at hand, never from the entry's pid, which
 * KernelShark's sched_events plugin rewrites (a sched_switch entry becomes
 * the next task's).
 *
 * The intervals are made when first asked for: the moves are sorted by
 * task and time (at one nanosecond, a switch-out before a wake-up before a
 * switch-in) and walked task by task: a switch-out with a sleeping state
 * opens an interval, a wake-up is remembered (the last one since the task
 * last ran), a switch-in closes the open interval with it. A task that is
 * still blocked when the recording ends, or whose switch-out came before
 * it began, has no interval.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event-parse.h"
#include "libkshark.h"
#include "libkshark-tepdata.h"
#include "trace-cmd.h"
#include "ks-util.h"
#include "blocked.h"
#include "stacks.h"

enum move_kind { MV_OUT, MV_WAKE, MV_IN };

struct move {
	const struct kshark_entry *e;
	int		pid;		/* the task that moves */
	int		waker;		/* MV_WAKE: the task that woke it */
	uint8_t		kind;
	char		state;		/* MV_OUT: its prev_state letter */
};

/* an entry's part in an interval, for the way from a selected entry to it */
struct link {
	const struct kshark_entry	*e;
	const struct p2d_ks_blocked	*iv;
};

struct p2d_ks_blocked_set {
	struct kshark_data_stream *stream;
	int		switch_id, waking_id, wakeup_id, offcpu_id;
	struct tep_format_field *f_prev_pid, *f_next_pid, *f_prev_state;
	struct tep_format_field *f_waking_pid, *f_wakeup_pid, *f_period;
	struct move	*mv;
	size_t		nr_mv, cap_mv;
	size_t		nr_waking;	/* sched_waking moves: then sched_wakeup ones are not used */
	struct p2d_ks_blocked *direct;	/* of perf:offcpu_time samples */
	size_t		nr_direct, cap_direct;
	struct p2d_ks_blocked *iv;	/* all, by task, then start */
	size_t		nr_iv, cap_iv;
	struct link	*by[3];		/* by switch-out, wake-up, switch-in entry */
	size_t		nr_by[3];
	bool		done;
	struct p2d_ks_batch *batch;
	size_t		nr_batch;
};

static int event_id(struct kshark_data_stream *stream, const char *name)
{
	int id = kshark_find_event_id(stream, name);

	return id >= 0 ? id : -1000;
}

static struct tep_format_field *field(struct tep_handle *tep, const char *sys, const char *name,
				      const char *fname)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	return ev ? tep_find_field(ev, fname) : NULL;
}

/**
 * p2d_ks_blocked_new - the blocked intervals of a tep stream, to be filled
 * @stream: the stream
 *
 * Returns the state, or NULL without memory or for another kind of stream.
 */
struct p2d_ks_blocked_set *p2d_ks_blocked_new(struct kshark_data_stream *stream)
{
	struct tep_handle *tep = kshark_get_tep(stream);
	struct p2d_ks_blocked_set *b;

	if (!tep)
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->stream = stream;
	b->switch_id = event_id(stream, "sched/sched_switch");
	b->waking_id = event_id(stream, "sched/sched_waking");
	b->wakeup_id = event_id(stream, "sched/sched_wakeup");
	b->offcpu_id = event_id(stream, "perf/offcpu_time");
	b->f_prev_pid = field(tep, "sched", "sched_switch", "prev_pid");
	b->f_next_pid = field(tep, "sched", "sched_switch", "next_pid");
	b->f_prev_state = field(tep, "sched", "sched_switch", "prev_state");
	b->f_waking_pid = field(tep, "sched", "sched_waking", "pid");
	b->f_wakeup_pid = field(tep, "sched", "sched_wakeup", "pid");
	b->f_period = field(tep, "perf", "offcpu_time", "period");
	if (!b->f_prev_pid || !b->f_next_pid || !b->f_prev_state)
		b->switch_id = -1000;
	if (!b->f_period)
		b->offcpu_id = -1000;
	return b;
}

static void forget(struct p2d_ks_blocked_set *b)
{
	free(b->iv);
	b->iv = NULL;
	b->nr_iv = b->cap_iv = 0;
	for (int k = 0; k < 3; k++) {
		free(b->by[k]);
		b->by[k] = NULL;
		b->nr_by[k] = 0;
	}
	b->done = false;
}

/**
 * p2d_ks_batch_free - free what p2d_ks_batch_read() gave
 * @batch: the samples, or NULL
 * @nr: how many
 */
void p2d_ks_batch_free(struct p2d_ks_batch *batch, size_t nr)
{
	for (size_t i = 0; batch && i < nr; i++)
		free(batch[i].ips);
	free(batch);
}

/**
 * p2d_ks_blocked_free - free the state
 * @b: the state, or NULL
 */
void p2d_ks_blocked_free(struct p2d_ks_blocked_set *b)
{
	if (!b)
		return;
	forget(b);
	free(b->mv);
	free(b->direct);
	p2d_ks_batch_free(b->batch, b->nr_batch);
	free(b);
}

/**
 * p2d_ks_blocked_wanted - can the stream have blocked intervals at all?
 * @b: the state
 *
 * True when it has sched_switch events with the fields needed, or
 * perf:offcpu_time events.
 */
bool p2d_ks_blocked_wanted(const struct p2d_ks_blocked_set *b)
{
	return b->switch_id >= 0 || b->offcpu_id >= 0;
}

/**
 * p2d_ks_blocked_stream - the stream the intervals are of
 * @b: the state
 */
struct kshark_data_stream *p2d_ks_blocked_stream(const struct p2d_ks_blocked_set *b)
{
	return b->stream;
}

/*
 * The letter trace-cmd and perf show for a prev_state: R (0) and R+ (the
 * bit above the reported states: preempted) are runnable; S D T t X Z P I
 * are the reported states' bits, lowest first.
 */
static char state_letter(long long st)
{
	static const char letters[] = "SDTtXZPI";

	if (st < 0)
		return '?';
	for (int i = 0; i < 8; i++)
		if (st & (1ll << i))
			return letters[i];
	return 'R';
}

static bool sleeping(char state)
{
	return state && strchr("SDTtPI", state);
}

static void add_move(struct p2d_ks_blocked_set *b, const struct kshark_entry *e, int pid,
		     enum move_kind kind, char state, int waker)
{
	struct move *m;

	if (pid <= 0 || p2d_ks_grow((void **)&b->mv, &b->cap_mv, b->nr_mv + 1, sizeof(*b->mv)))
		return;
	m = &b->mv[b->nr_mv++];
	m->e = e;
	m->pid = pid;
	m->kind = (uint8_t)kind;
	m->state = state;
	m->waker = waker;
	b->done = false;
}

static void add_offcpu(struct p2d_ks_blocked_set *b, struct tep_record *r,
		       const struct kshark_entry *e)
{
	long long period = p2d_ks_number(b->f_period, r);
	struct p2d_ks_blocked *iv;
	int pid = tep_data_pid(kshark_get_tep(b->stream), r);

	if (pid <= 0 || period <= 0 || period > e->ts ||
	    p2d_ks_grow((void **)&b->direct, &b->cap_direct, b->nr_direct + 1, sizeof(*b->direct)))
		return;
	iv = &b->direct[b->nr_direct++];
	memset(iv, 0, sizeof(*iv));
	iv->pid = pid;
	iv->state = P2D_KS_OFFCPU_STATE;
	iv->start = e->ts - period;
	iv->end = e->ts;
	iv->out = e;
	iv->waker = -1;
	b->done = false;
}

/**
 * p2d_ks_blocked_add - keep what an entry says of tasks leaving and entering CPUs
 * @b: the state
 * @rec: its record (struct tep_record)
 * @e: the entry
 *
 * Runs on the loader thread, for every entry of the stream. Out of memory,
 * the entry is not kept (an interval may be missing, nothing else).
 */
void p2d_ks_blocked_add(struct p2d_ks_blocked_set *b, void *rec, struct kshark_entry *e)
{
	struct tep_record *r = rec;

	if (!r)
		return;
	if (e->event_id == b->switch_id) {
		add_move(b, e, (int)p2d_ks_number(b->f_prev_pid, r), MV_OUT,
			 state_letter(p2d_ks_number(b->f_prev_state, r)), -1);
		add_move(b, e, (int)p2d_ks_number(b->f_next_pid, r), MV_IN, 0, -1);
	} else if (e->event_id == b->waking_id || e->event_id == b->wakeup_id) {
		bool waking = e->event_id == b->waking_id;

		add_move(b, e, (int)p2d_ks_number(waking ? b->f_waking_pid : b->f_wakeup_pid, r), MV_WAKE,
			 waking ? 'w' : 'u', tep_data_pid(kshark_get_tep(b->stream), r));
		if (waking)
			b->nr_waking++;
	} else if (e->event_id == b->offcpu_id) {
		/* the moves array holds sched events; these are intervals already */
		add_offcpu(b, r, e);
	}
}

static int cmp_entries(const struct kshark_entry *x, const struct kshark_entry *y)
{
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int by_task(const void *a, const void *b)
{
	const struct move *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->e->ts != y->e->ts)
		return x->e->ts < y->e->ts ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return cmp_entries(x->e, y->e);
}

static int iv_by_task(const void *a, const void *b)
{
	const struct p2d_ks_blocked *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int close_interval(struct p2d_ks_blocked_set *b, const struct move *out,
			  const struct move *in, const struct move *wake)
{
	struct p2d_ks_blocked *iv;

	if (p2d_ks_grow((void **)&b->iv, &b->cap_iv, b->nr_iv + 1, sizeof(*b->iv)))
		return -ENOMEM;
	iv = &b->iv[b->nr_iv++];
	iv->pid = out->pid;
	iv->state = out->state;
	iv->start = out->e->ts;
	iv->end = in->e->ts;
	iv->out = out->e;
	iv->in = in->e;
	iv->wake = wake ? wake->e : NULL;
	iv->waker = wake ? wake->waker : -1;
	return 0;
}

/* walk the moves of each task in time order */
static int walk(struct p2d_ks_blocked_set *b)
{
	const struct move *open = NULL, *wake = NULL;
	int ret = 0;

	if (b->nr_mv)
		qsort(b->mv, b->nr_mv, sizeof(*b->mv), by_task);
	for (size_t i = 0; i < b->nr_mv && !ret; i++) {
		const struct move *m = &b->mv[i];

		if (i && m->pid != b->mv[i - 1].pid)
			open = wake = NULL;
		switch (m->kind) {
		case MV_OUT:
			open = sleeping(m->state) ? m : NULL;
			break;
		case MV_WAKE:
			/* sched_waking runs in the waker; sched_wakeup only without it */
			if (m->state == 'w' || !b->nr_waking)
				wake = m;
			break;
		case MV_IN:
			if (open)
				ret = close_interval(b, open, m, wake);
			open = wake = NULL;
			break;
		}
	}
	return ret;
}

static int by_entry(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct link *)a)->e;
	uintptr_t y = (uintptr_t)((const struct link *)b)->e;

	return x < y ? -1 : x > y;
}

/* the intervals by one of their entries: @which 0 out, 1 wake, 2 in */
static struct link *index_by(const struct p2d_ks_blocked_set *b, int which, size_t *nr)
{
	struct link *idx = malloc((b->nr_iv + 1) * sizeof(*idx));
	size_t n = 0;

	*nr = 0;
	if (!idx)
		return NULL;
	for (size_t i = 0; i < b->nr_iv; i++) {
		const struct p2d_ks_blocked *iv = &b->iv[i];
		const struct kshark_entry *e = which == 0 ? iv->out : which == 1 ? iv->wake : iv->in;

		if (e)
			idx[n++] = (struct link){ e, iv };
	}
	qsort(idx, n, sizeof(*idx), by_entry);
	*nr = n;
	return idx;
}

static void make(struct p2d_ks_blocked_set *b)
{
	if (b->done)
		return;
	forget(b);
	/* the perf:offcpu_time intervals first, then those of the moves */
	if (b->nr_direct &&
	    !p2d_ks_grow((void **)&b->iv, &b->cap_iv, b->nr_direct, sizeof(*b->iv))) {
		memcpy(b->iv, b->direct, b->nr_direct * sizeof(*b->iv));
		b->nr_iv = b->nr_direct;
	}
	walk(b);
	if (b->nr_iv)
		qsort(b->iv, b->nr_iv, sizeof(*b->iv), iv_by_task);
	for (int k = 0; k < 3; k++)
		b->by[k] = index_by(b, k, &b->nr_by[k]);
	b->done = true;
}

/**
 * p2d_ks_blocked_all - every blocked interval of the stream
 * @b: the state
 * @out: set to the array (owned by @b, valid until the next load), by task
 *	 then start
 *
 * Returns how many.
 */
size_t p2d_ks_blocked_all(struct p2d_ks_blocked_set *b, const struct p2d_ks_blocked **out)
{
	make(b);
	*out = b->iv;
	return b->nr_iv;
}

/**
 * p2d_ks_blocked_task - the intervals of one task from a time on
 * @b: the state
 * @pid: the task
 * @lo: the first nanosecond of interest
 * @first: set to its first interval that ends at @lo or later
 *
 * Returns how many intervals of @pid follow from @first on (in start order).
 */
size_t p2d_ks_blocked_task(struct p2d_ks_blocked_set *b, int pid, int64_t lo,
			   const struct p2d_ks_blocked **first)
{
	size_t a = 0, z, n;

	make(b);
	z = b->nr_iv;
	while (a < z) {
		size_t mid = a + (z - a) / 2;
		const struct p2d_ks_blocked *m = &b->iv[mid];

		if (m->pid < pid || (m->pid == pid && m->end < lo))
			a = mid + 1;
		else
			z = mid;
	}
	*first = b->iv + a;
	for (n = 0; a + n < b->nr_iv && b->iv[a + n].pid == pid; n++)
		;
	return n;
}

static const struct p2d_ks_blocked *find(const struct link *idx, size_t n,
					 const struct kshark_entry *e)
{
	size_t a = 0, z = n;

	while (a < z) {
		size_t mid = a + (z - a) / 2;

		if ((uintptr_t)idx[mid].e < (uintptr_t)e)
			a = mid + 1;
		else
			z = mid;
	}
	return a < n && idx[a].e == e ? idx[a].iv : NULL;
}

/**
 * p2d_ks_blocked_of - the interval an entry starts, wakes or ends
 * @b: the state
 * @e: a sched_switch, a wake-up or a perf:offcpu_time sample of the stream
 *
 * A sched_switch is the switch-out of its previous task and the switch-in
 * of its next: the interval it starts comes first. Returns NULL when @e
 * has no part in an interval.
 */
const struct p2d_ks_blocked *p2d_ks_blocked_of(struct p2d_ks_blocked_set *b,
					       const struct kshark_entry *e)
{
	const struct p2d_ks_blocked *iv = NULL;

	make(b);
	for (int k = 0; k < 3 && !iv; k++)
		iv = find(b->by[k], b->nr_by[k], e);
	return iv;
}

/**
 * p2d_ks_state_name - what a state letter means
 * @state: S, D, ... or P2D_KS_OFFCPU_STATE
 */
const char *p2d_ks_state_name(char state)
{
	switch (state) {
	case 'S':
		return "S (sleeping)";
	case 'D':
		return "D (uninterruptible)";
	case 'T':
		return "T (stopped)";
	case 't':
		return "t (traced)";
	case 'P':
		return "P (parked)";
	case 'I':
		return "I (idle)";
	case P2D_KS_OFFCPU_STATE:
		return "off-CPU (perf --off-cpu, S or D)";
	}
	return "? (unknown)";
}

/**
 * p2d_ks_blocked_set_batch - keep perf record --off-cpu's end-of-run batch
 * @b: the state
 * @batch: its samples (p2d_ks_batch_read()); ownership passes to @b
 * @nr: how many
 */
void p2d_ks_blocked_set_batch(struct p2d_ks_blocked_set *b, struct p2d_ks_batch *batch,
			      size_t nr)
{
	p2d_ks_batch_free(b->batch, b->nr_batch);
	b->batch = batch;
	b->nr_batch = nr;
}

/**
 * p2d_ks_blocked_batch - perf record --off-cpu's end-of-run batch of the stream
 * @b: the state
 * @out: set to its samples (owned by @b)
 *
 * Returns how many.
 */
size_t p2d_ks_blocked_batch(const struct p2d_ks_blocked_set *b, const struct p2d_ks_batch **out)
{
	*out = b->batch;
	return b->nr_batch;
}
