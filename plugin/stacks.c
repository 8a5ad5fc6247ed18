// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Samples with stacks in a KernelShark stream, and their frames.
 *
 * The event handler sees every entry as libkshark loads it, one CPU after
 * the other in file order; each CPU's entries are kept (pointers only, 8
 * bytes an entry) so that "the records right after this one on its CPU" and
 * "the N-th entry of this CPU in this microsecond" are exact. sched_switch
 * entries also keep prev_pid, next_pid and prev_state, read from the record
 * while it is at hand, for the time a task is off its CPU.
 *
 * Frames are read from the records (tracecmd_read_at under the stream's
 * input lock, as libkshark itself reads them) and named: kernel addresses
 * with the trace.dat's kernel symbols (libtraceevent), user addresses with
 * the process's PROCMAPS and the mapped file's ELF symbols (stacks-syms.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark.h"
#include "libkshark-tepdata.h"
#include "ks-util.h"
#include "stacks.h"
#include "stacks-local.h"

struct cpu_vec {
	const struct kshark_entry **e;
	size_t		nr, cap;
	bool		sorted;
};

struct sw {
	const struct kshark_entry *e;
	int		prev_pid, next_pid;
	char		state;
	int64_t		offcpu;		/* -1: not run again in the trace */
};

struct p2d_ks_stream {
	struct kshark_data_stream *stream;
	int		kstack_id, ustack_id, switch_id;
	struct cpu_vec	*cpus;
	int		nr_cpus;
	struct sw	*sw;
	size_t		nr_sw, cap_sw;
	bool		sw_done;
	const struct kshark_entry **samples;
	size_t		nr_samples;
	bool		samples_done;
	struct tep_format_field *f_prev_pid, *f_next_pid, *f_prev_state;
	struct p2d_ks_syms *syms;
};

static int event_id(struct kshark_data_stream *stream, const char *name)
{
	int id = kshark_find_event_id(stream, name);

	return id >= 0 ? id : -1000;
}

/**
 * p2d_ks_stream_new - the stack view's state of one tep stream
 * @stream: a stream libkshark reads as trace.dat ("tep data")
 *
 * Returns the state, or NULL without memory or for another kind of stream.
 */
struct p2d_ks_stream *p2d_ks_stream_new(struct kshark_data_stream *stream)
{
	struct tep_handle *tep = kshark_get_tep(stream);
	struct p2d_ks_stream *s;
	struct tep_event *ev;

	if (!tep)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->stream = stream;
	s->kstack_id = event_id(stream, "ftrace/kernel_stack");
	s->ustack_id = event_id(stream, "ftrace/user_stack");
	s->switch_id = event_id(stream, "sched/sched_switch");
	ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	if (ev) {
		s->f_prev_pid = tep_find_field(ev, "prev_pid");
		s->f_next_pid = tep_find_field(ev, "next_pid");
		s->f_prev_state = tep_find_field(ev, "prev_state");
	}
	s->syms = p2d_ks_syms_new(kshark_get_tep_input(stream));
	if (!s->syms) {
		free(s);
		return NULL;
	}
	return s;
}

/**
 * p2d_ks_stream_reset - forget the entries (the stream is loaded again)
 * @s: the stream's state
 */
void p2d_ks_stream_reset(struct p2d_ks_stream *s)
{
	for (int i = 0; i < s->nr_cpus; i++)
		free(s->cpus[i].e);
	free(s->cpus);
	s->cpus = NULL;
	s->nr_cpus = 0;
	free(s->sw);
	s->sw = NULL;
	s->nr_sw = s->cap_sw = 0;
	s->sw_done = false;
	free(s->samples);
	s->samples = NULL;
	s->nr_samples = 0;
	s->samples_done = false;
}

/**
 * p2d_ks_stream_free - free the stream's state
 * @s: the state, or NULL
 */
void p2d_ks_stream_free(struct p2d_ks_stream *s)
{
	if (!s)
		return;
	p2d_ks_stream_reset(s);
	p2d_ks_syms_free(s->syms);
	free(s);
}

/**
 * p2d_ks_stream_id - the libkshark stream id of @s
 * @s: the stream's state
 */
int p2d_ks_stream_id(const struct p2d_ks_stream *s)
{
	return s->stream->stream_id;
}

/**
 * p2d_ks_stream_event_ids - the ids of the events the stack view reads
 * @s: the stream's state
 * @kstack: ftrace/kernel_stack's (negative: none)
 * @ustack: ftrace/user_stack's
 * @sw: sched/sched_switch's
 */
void p2d_ks_stream_event_ids(struct p2d_ks_stream *s, int *kstack, int *ustack, int *sw)
{
	*kstack = s->kstack_id;
	*ustack = s->ustack_id;
	*sw = s->switch_id;
}

/**
 * p2d_ks_stream_has_stacks - does the stream have stack events at all?
 * @s: the stream's state
 */
bool p2d_ks_stream_has_stacks(const struct p2d_ks_stream *s)
{
	return s->kstack_id >= 0 || s->ustack_id >= 0;
}

static bool is_stack(const struct p2d_ks_stream *s, const struct kshark_entry *e)
{
	return e->event_id == s->kstack_id || e->event_id == s->ustack_id;
}

/**
 * p2d_ks_stream_add - keep an entry libkshark has just read
 * @s: the stream's state
 * @rec: its record (struct tep_record)
 * @e: the entry
 *
 * Runs on the loader thread, for every entry of the stream. Out of memory,
 * the entry is not kept (the stack view then misses it, nothing else).
 */
void p2d_ks_stream_add(struct p2d_ks_stream *s, void *rec, struct kshark_entry *e)
{
	struct cpu_vec *v;

	if (e->cpu < 0)
		return;
	if (e->cpu >= s->nr_cpus) {
		struct cpu_vec *c = realloc(s->cpus, (e->cpu + 1) * sizeof(*c));

		if (!c)
			return;
		memset(c + s->nr_cpus, 0, (e->cpu + 1 - s->nr_cpus) * sizeof(*c));
		s->cpus = c;
		s->nr_cpus = e->cpu + 1;
	}
	v = &s->cpus[e->cpu];
	if (p2d_ks_grow((void **)&v->e, &v->cap, v->nr + 1, sizeof(*v->e)))
		return;
	if (v->nr && v->e[v->nr - 1]->offset > e->offset)
		v->sorted = false;
	else if (!v->nr)
		v->sorted = true;
	v->e[v->nr++] = e;
	s->samples_done = false;
	if (e->event_id == s->switch_id && rec &&
	    !p2d_ks_grow((void **)&s->sw, &s->cap_sw, s->nr_sw + 1, sizeof(*s->sw))) {
		struct tep_record *r = rec;
		long long st = p2d_ks_number(s->f_prev_state, r);
		struct sw *w = &s->sw[s->nr_sw++];

		w->e = e;
		w->prev_pid = (int)p2d_ks_number(s->f_prev_pid, r);
		w->next_pid = (int)p2d_ks_number(s->f_next_pid, r);
		/* as trace-cmd shows it: R (0, preempted), else the lowest state bit */
		w->state = st <= 0 ? 'R' : (st & 1) ? 'S' : (st & 2) ? 'D' : 'X';
		w->offcpu = -1;
		s->sw_done = false;
	}
}

static int by_offset(const void *a, const void *b)
{
	const struct kshark_entry *x = *(const struct kshark_entry *const *)a;
	const struct kshark_entry *y = *(const struct kshark_entry *const *)b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void sort_cpus(struct p2d_ks_stream *s)
{
	for (int i = 0; i < s->nr_cpus; i++) {
		struct cpu_vec *v = &s->cpus[i];

		if (!v->sorted && v->nr) {
			qsort(v->e, v->nr, sizeof(*v->e), by_offset);
			v->sorted = true;
		}
	}
}

static int by_time(const void *a, const void *b)
{
	const struct kshark_entry *x = *(const struct kshark_entry *const *)a;
	const struct kshark_entry *y = *(const struct kshark_entry *const *)b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/**
 * p2d_ks_samples - the entries that have stacks, in time order
 * @s: the stream's state
 * @out: set to the array (owned by @s, valid until the next load)
 *
 * Returns how many.
 */
size_t p2d_ks_samples(struct p2d_ks_stream *s, const struct kshark_entry ***out)
{
	size_t n = 0, cap = 0;

	if (!s->samples_done) {
		sort_cpus(s);
		free(s->samples);
		s->samples = NULL;
		for (int c = 0; c < s->nr_cpus; c++) {
			struct cpu_vec *v = &s->cpus[c];

			for (size_t i = 0; i + 1 < v->nr; i++) {
				if (is_stack(s, v->e[i]) || !is_stack(s, v->e[i + 1]))
					continue;
				if (p2d_ks_grow((void **)&s->samples, &cap, n + 1, sizeof(*s->samples)))
					break;
				s->samples[n++] = v->e[i];
			}
		}
		if (n)
			qsort(s->samples, n, sizeof(*s->samples), by_time);
		s->nr_samples = n;
		s->samples_done = true;
	}
	*out = s->samples;
	return s->nr_samples;
}

static ssize_t index_on_cpu(struct p2d_ks_stream *s, const struct kshark_entry *e)
{
	struct cpu_vec *v;
	size_t lo = 0, hi;

	if (e->cpu < 0 || e->cpu >= s->nr_cpus)
		return -1;
	sort_cpus(s);
	v = &s->cpus[e->cpu];
	hi = v->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->e[mid]->offset < e->offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->nr && v->e[lo] == e ? (ssize_t)lo : -1;
}

/**
 * p2d_ks_sample_of - the sample an entry is, or whose stack it is
 * @s: the stream's state
 * @e: an entry of the stream
 *
 * Returns the sample, or NULL when @e neither has a stack nor is one.
 */
const struct kshark_entry *p2d_ks_sample_of(struct p2d_ks_stream *s,
					    const struct kshark_entry *e)
{
	ssize_t i = index_on_cpu(s, e);
	struct cpu_vec *v;

	if (i < 0)
		return NULL;
	v = &s->cpus[e->cpu];
	while (i >= 0 && is_stack(s, v->e[i]))
		i--;
	if (i < 0 || (size_t)i + 1 >= v->nr || !is_stack(s, v->e[i + 1]))
		return NULL;
	return v->e[i];
}

/**
 * p2d_ks_cpu_entries - the entries of one CPU, in file (and time) order
 * @s: the stream's state
 * @cpu: the CPU
 * @out: set to the array (owned by @s, valid until the next load)
 *
 * A KernelShark list row gives its CPU, its time to the microsecond and,
 * counted among the rows above it, which of that CPU's entries in that
 * microsecond it is: the row's entry is found here. Returns the count.
 */
size_t p2d_ks_cpu_entries(struct p2d_ks_stream *s, int cpu, const struct kshark_entry ***out)
{
	*out = NULL;
	if (cpu < 0 || cpu >= s->nr_cpus)
		return 0;
	sort_cpus(s);
	*out = s->cpus[cpu].e;
	return s->cpus[cpu].nr;
}

/**
 * p2d_ks_stream_span - the times of the stream's first and last entries
 * @s: the stream's state
 * @first: set to the first
 * @last: set to the last
 *
 * Returns false when the stream has no entries.
 */
bool p2d_ks_stream_span(struct p2d_ks_stream *s, int64_t *first, int64_t *last)
{
	bool any = false;

	sort_cpus(s);
	for (int c = 0; c < s->nr_cpus; c++) {
		const struct cpu_vec *v = &s->cpus[c];

		if (!v->nr)
			continue;
		if (!any || v->e[0]->ts < *first)
			*first = v->e[0]->ts;
		if (!any || v->e[v->nr - 1]->ts > *last)
			*last = v->e[v->nr - 1]->ts;
		any = true;
	}
	return any;
}

/* ------------------------------------------------------------ frames */

static const char *keep(struct p2d_ks_stack *st, const char *str)
{
	size_t len;

	if (!str)
		return NULL;
	len = strlen(str) + 1;
	if (p2d_ks_grow((void **)&st->names, &st->names_cap, st->names_len + len, 1))
		return NULL;
	memcpy(st->names + st->names_len, str, len);
	st->names_len += len;
	/* an offset, made a pointer once the storage no longer moves */
	return (const char *)(uintptr_t)(st->names_len - len + 1);
}

static int add_frame(struct p2d_ks_stack *st, size_t *cap, const struct p2d_ks_frame *f)
{
	if (p2d_ks_grow((void **)&st->frames, cap, st->nr + 1, sizeof(*st->frames)))
		return -ENOMEM;
	st->frames[st->nr++] = *f;
	return 0;
}

static void kernel_frame(struct tep_handle *tep, uint64_t addr, struct p2d_ks_frame *f,
			 struct p2d_ks_stack *st)
{
	const char *name = tep_find_function(tep, addr);

	memset(f, 0, sizeof(*f));
	f->addr = addr;
	if (name) {
		f->name = keep(st, name);
		f->off = addr - tep_find_function_address(tep, addr);
	}
	/* libtraceevent gives no module name (perf shows [MODULE] for those) */
	f->file = keep(st, "[kernel.kallsyms]");
}

/* Where p2d_ks_user_inlines() adds a stack's inlined frames */
struct inline_ctx {
	struct p2d_ks_stack	*st;
	size_t			*cap;
	int			err;
};

static void add_inline(void *arg, const struct p2d_ks_frame *f)
{
	struct inline_ctx *ic = arg;

	if (!ic->err && add_frame(ic->st, ic->cap, f))
		ic->err = -ENOMEM;
}

static int read_frames(struct p2d_ks_stream *s, struct tep_handle *tep, struct tep_record *r,
		       bool user, struct p2d_ks_stack *st, size_t *cap)
{
	struct tep_event *ev = tep_find_event_by_record(tep, r);
	struct tep_format_field *caller, *size;
	int lsize = tep_get_long_size(tep);
	size_t n;
	long long pid;

	if (!ev || (lsize != 4 && lsize != 8))
		return 0;
	caller = tep_find_field(ev, "caller");
	if (!caller || caller->offset < 0 || caller->offset >= r->size)
		return 0;
	n = (size_t)(r->size - caller->offset) / lsize;
	size = user ? NULL : tep_find_field(ev, "size");
	if (size) {
		long long k = p2d_ks_number(size, r);

		if (k > 0 && (size_t)k < n)
			n = k;
	}
	pid = user ? p2d_ks_number(tep_find_field(ev, "tgid"), r) : -1;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)r->data + caller->offset + i * lsize;
		uint64_t a = lsize == 8 ? tep_read_number(tep, p, 8) : tep_read_number(tep, p, 4);
		struct p2d_ks_frame f;

		/* a kernel chain ends at 0 or -1; user_stack events are zero-padded */
		if (!user && (!a || a == (lsize == 8 ? UINT64_MAX : UINT32_MAX)))
			break;
		if (user) {
			struct inline_ctx ic = { st, cap, 0 };

			/* the functions inlined at it first, as perf script lists them */
			p2d_ks_user_frame(s->syms, kshark_get_tep_input(s->stream), tep, (int)pid,
					  a, &f, st, keep, add_inline, &ic);
			if (ic.err)
				return ic.err;
		} else {
			kernel_frame(tep, a, &f, st);
		}
		if (add_frame(st, cap, &f))
			return -ENOMEM;
	}
	return 0;
}

static void fix_names(struct p2d_ks_stack *st)
{
	for (size_t i = 0; i < st->nr; i++) {
		struct p2d_ks_frame *f = &st->frames[i];

		if (f->name)
			f->name = st->names + ((uintptr_t)f->name - 1);
		if (f->file)
			f->file = st->names + ((uintptr_t)f->file - 1);
	}
}

/**
 * p2d_ks_stack_read - a sample's call chain with names
 * @s: the stream's state
 * @sample: an entry of the stream that has stacks (p2d_ks_sample_of())
 * @st: filled; release with p2d_ks_stack_release()
 *
 * Returns 0, -ENOENT when @sample has no stack, or another negative errno.
 */
int p2d_ks_stack_read(struct p2d_ks_stream *s, const struct kshark_entry *sample,
		      struct p2d_ks_stack *st)
{
	struct tracecmd_input *in = kshark_get_tep_input(s->stream);
	struct tep_handle *tep = kshark_get_tep(s->stream);
	ssize_t i = index_on_cpu(s, sample);
	struct cpu_vec *v;
	struct tep_record *r;
	size_t cap = 0;
	int pid, cpu, ret = 0;
	char *str;

	memset(st, 0, sizeof(*st));
	if (i < 0 || !in || !tep || is_stack(s, sample))
		return -ENOENT;
	v = &s->cpus[sample->cpu];
	pthread_mutex_lock(&s->stream->input_mutex);
	r = tracecmd_read_at(in, sample->offset, &cpu);
	if (!r) {
		pthread_mutex_unlock(&s->stream->input_mutex);
		return -EIO;
	}
	pid = tep_data_pid(tep, r);
	tracecmd_free_record(r);
	for (size_t j = i + 1; j < v->nr && is_stack(s, v->e[j]) && !ret; j++) {
		r = tracecmd_read_at(in, v->e[j]->offset, &cpu);
		if (!r) {
			ret = -EIO;
			break;
		}
		if (tep_data_pid(tep, r) == pid) {
			bool user = v->e[j]->event_id == s->ustack_id;

			ret = read_frames(s, tep, r, user, st, &cap);
			if (!user)
				st->nr_kernel = st->nr;
		}
		tracecmd_free_record(r);
	}
	pthread_mutex_unlock(&s->stream->input_mutex);
	/* the padding: a trailing 0 caller cannot be told from it */
	while (st->nr > st->nr_kernel && !st->frames[st->nr - 1].addr)
		st->nr--;
	fix_names(st);
	if (ret || !st->nr) {
		p2d_ks_stack_release(st);
		return ret ? ret : -ENOENT;
	}
	st->sample = sample;
	st->cpu = sample->cpu;
	st->pid = pid;
	st->ts = sample->ts;
	str = kshark_get_event_name(sample);
	snprintf(st->event, sizeof(st->event), "%s", str ? str : "?");
	free(str);
	str = kshark_get_task(sample);
	snprintf(st->task, sizeof(st->task), "%s", str ? str : "<...>");
	free(str);
	return 0;
}

/**
 * p2d_ks_stack_user - user frames that no record holds, with names
 * @s: the stream's state
 * @pid: the process they are of
 * @ips: the addresses, innermost first
 * @nr: how many
 * @st: filled (no sample, no task); release with p2d_ks_stack_release()
 *
 * For perf record --off-cpu's end-of-run batch, which the trace.dat keeps
 * apart from its events. Returns 0, -ENOENT without frames, or another
 * negative errno.
 */
int p2d_ks_stack_user(struct p2d_ks_stream *s, int pid, const uint64_t *ips, size_t nr,
		      struct p2d_ks_stack *st)
{
	struct tep_handle *tep = kshark_get_tep(s->stream);
	struct inline_ctx ic = { st, NULL, 0 };
	size_t cap = 0;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	if (!tep)
		return -ENOENT;
	ic.cap = &cap;
	pthread_mutex_lock(&s->stream->input_mutex);
	for (size_t i = 0; i < nr && !ret; i++) {
		struct p2d_ks_frame f;

		p2d_ks_user_frame(s->syms, kshark_get_tep_input(s->stream), tep, pid, ips[i], &f,
				  st, keep, add_inline, &ic);
		ret = ic.err ? ic.err : add_frame(st, &cap, &f);
	}
	pthread_mutex_unlock(&s->stream->input_mutex);
	fix_names(st);
	if (ret || !st->nr) {
		p2d_ks_stack_release(st);
		return ret ? ret : -ENOENT;
	}
	st->cpu = -1;
	st->pid = pid;
	return 0;
}

/**
 * p2d_ks_stack_release - free what p2d_ks_stack_read() filled in
 * @st: the stack
 */
void p2d_ks_stack_release(struct p2d_ks_stack *st)
{
	free(st->frames);
	free(st->names);
	memset(st, 0, sizeof(*st));
}

/**
 * p2d_ks_frame_text - one frame as perf script prints it
 * @f: the frame
 * @buf: where
 * @len: its size
 *
 * "ADDR NAME+0xOFF (FILE)", "ADDR [unknown] (FILE+0xOFF)" where no symbol
 * covers it, "ADDR NAME (inlined)" for a function inlined at ADDR. Returns
 * snprintf()'s count.
 */
int p2d_ks_frame_text(const struct p2d_ks_frame *f, char *buf, size_t len)
{
	if (f->inlined)
		return snprintf(buf, len, "%16llx %s (inlined)", (unsigned long long)f->addr,
				f->name ? f->name : "[unknown]");
	if (f->name)
		return snprintf(buf, len, "%16llx %s+0x%llx (%s)", (unsigned long long)f->addr,
				f->name, (unsigned long long)f->off, f->file ? f->file : "[unknown]");
	if (f->file && f->has_file_off)
		return snprintf(buf, len, "%16llx [unknown] (%s+0x%llx)",
				(unsigned long long)f->addr, f->file,
				(unsigned long long)f->file_off);
	return snprintf(buf, len, "%16llx [unknown] (%s)", (unsigned long long)f->addr,
			f->file ? f->file : "[unknown]");
}

/**
 * p2d_ks_frame_label - a frame's node in the call tree: its function
 * @f: the frame
 * @buf: where
 * @len: its size
 *
 * "NAME", or "[unknown] (FILE)". Returns snprintf()'s count.
 */
int p2d_ks_frame_label(const struct p2d_ks_frame *f, char *buf, size_t len)
{
	if (f->name)
		return snprintf(buf, len, "%s", f->name);
	return snprintf(buf, len, "[unknown] (%s)", f->file ? f->file : "[unknown]");
}

/* ------------------------------------------------------------ off-CPU time */

static int sw_by_time(const void *a, const void *b)
{
	const struct sw *x = a, *y = b;

	return by_time(&x->e, &y->e);
}

/* a task leaving (prev_pid) or entering (next_pid) a CPU at switch @i */
struct move {
	int		pid;
	size_t		i;
	bool		in;
};

static int by_pid(const void *a, const void *b)
{
	const struct move *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->in - y->in;
}

static void offcpu_pass(struct p2d_ks_stream *s)
{
	size_t n = s->nr_sw, m = 0;
	struct move *mv;
	ssize_t out = -1;

	if (s->sw_done)
		return;
	if (n)
		qsort(s->sw, n, sizeof(*s->sw), sw_by_time);
	mv = malloc((2 * n + 1) * sizeof(*mv));
	if (!mv)
		return;
	for (size_t i = 0; i < n; i++) {
		s->sw[i].offcpu = -1;
		if (s->sw[i].prev_pid > 0)
			mv[m++] = (struct move){ s->sw[i].prev_pid, i, false };
		if (s->sw[i].next_pid > 0)
			mv[m++] = (struct move){ s->sw[i].next_pid, i, true };
	}
	/* per task in time order: a switch-out waits for the next switch-in */
	qsort(mv, m, sizeof(*mv), by_pid);
	for (size_t k = 0; k < m; k++) {
		if (k && mv[k].pid != mv[k - 1].pid)
			out = -1;
		if (!mv[k].in) {
			out = (ssize_t)mv[k].i;
		} else if (out >= 0) {
			s->sw[out].offcpu = s->sw[mv[k].i].e->ts - s->sw[out].e->ts;
			out = -1;
		}
	}
	free(mv);
	s->sw_done = true;
}

/**
 * p2d_ks_offcpu - how long a sched_switch sample's task was off its CPU
 * @s: the stream's state
 * @sample: an entry
 * @state: set to its prev_state letter (R preempted, S, D, ...), or 0
 *
 * The time from the switch that took the task off its CPU to the next that
 * ran it again, as trace-cmd report --profile counts a sched_switch's time.
 * Returns it in nanoseconds, or -1 (not a sched_switch, or never run again).
 */
int64_t p2d_ks_offcpu(struct p2d_ks_stream *s, const struct kshark_entry *sample, char *state)
{
	size_t lo = 0, hi;

	*state = 0;
	if (sample->event_id != s->switch_id)
		return -1;
	offcpu_pass(s);
	hi = s->nr_sw;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (by_time(&s->sw[mid].e, &sample) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= s->nr_sw || s->sw[lo].e != sample)
		return -1;
	*state = s->sw[lo].state;
	return s->sw[lo].offcpu;
}
