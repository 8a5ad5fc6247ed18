// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events perf2dat writes where the recording has no tracepoint.
 *
 * A sample of an event that is not a tracepoint (cpu-clock, cycles,
 * page-faults, a breakpoint, ...) becomes an event of the "perf" system
 * named after it, made a valid event name (perf:cpu_clock, perf:cycles_P),
 * whose format perf2dat writes: the common fields, then each scalar the
 * samples carry (ip, addr, period, ...: &enum p2d_val) as a u64.
 *
 * A call chain becomes, right after its event, what trace-cmd record -T and
 * --user-stack write: an ftrace:kernel_stack event with the kernel part
 * (as many callers as it has: readers walk to the end of the record; a
 * chain without one has a kernel_stack of no caller, ended by -1) and
 * ftrace:user_stack events with the user part, 8 callers each as the
 * format declares them (zero-padded; a deeper stack continues in the next
 * one). perf's PERF_CONTEXT_* markers split the chain and are dropped;
 * guest and hypervisor parts are dropped too. The recording's own formats
 * of these events are used when it has usable ones, else the kernel's
 * standard ones for its long size, with ids no format of the recording has.
 */
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>

#include "synth.h"

#define COMMON_FIELDS_ALL \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define COMMON_SIZE	8

#define STACK_ENTRIES	8	/* the kernel's FTRACE_STACK_ENTRIES */
#define STACK_PRINT \
	"print fmt: \"\\t=> %%ps\\n\\t=> %%ps\\n\\t=> %%ps\\n\\t=> %%ps\\n\\t=> %%ps\\n" \
	"\\t=> %%ps\\n\\t=> %%ps\\n\\t=> %%ps\\n\", (void *)REC->caller[0]," \
	" (void *)REC->caller[1], (void *)REC->caller[2], (void *)REC->caller[3]," \
	" (void *)REC->caller[4], (void *)REC->caller[5], (void *)REC->caller[6]," \
	" (void *)REC->caller[7]\n"

/* perf's call chain context markers (linux/perf_event.h PERF_CONTEXT_*) */
#define CONTEXT_HV		((uint64_t)-32)
#define CONTEXT_KERNEL		((uint64_t)-128)
#define CONTEXT_USER		((uint64_t)-512)
#define CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define CONTEXT_GUEST_KERNEL	((uint64_t)-2176)
#define CONTEXT_GUEST_USER	((uint64_t)-2560)
#define CONTEXT_MAX		((uint64_t)-4095)

/* The name and printf format of each &enum p2d_val in a format */
static const struct {
	const char	*name;
	const char	*fmt;
} values[P2D_NR_VALS] = {
	[P2D_VAL_IP]		 = { "ip",		"%pS" },
	[P2D_VAL_ADDR]		 = { "addr",		"0x%llx" },
	[P2D_VAL_PERIOD]	 = { "period",		"%llu" },
	[P2D_VAL_PHYS_ADDR]	 = { "phys_addr",	"0x%llx" },
	[P2D_VAL_WEIGHT]	 = { "weight",		"%llu" },
	[P2D_VAL_DATA_SRC]	 = { "data_src",	"0x%llx" },
	[P2D_VAL_TRANSACTION]	 = { "transaction",	"0x%llx" },
	[P2D_VAL_STREAM_ID]	 = { "stream_id",	"%llu" },
	[P2D_VAL_CGROUP]	 = { "cgroup",		"%llu" },
	[P2D_VAL_DATA_PAGE_SIZE] = { "data_page_size",	"%llu" },
	[P2D_VAL_CODE_PAGE_SIZE] = { "code_page_size",	"%llu" },
};

/*
 * Where a stack event keeps what: @entries 0 means as many callers as the
 * chain has (kernel_stack), else that many, zero-padded (user_stack).
 */
struct stack_fmt {
	int		id;
	uint32_t	caller_off;
	int32_t		count_off;	/* kernel_stack's "size", user_stack's "tgid" */
	uint32_t	entries;
	uint32_t	lsize;
};

/* One non-tracepoint event of the recording, by its &p2d_source index */
struct source {
	int		id;		/* 0: not told */
	uint32_t	vals;
	char		name[64];
};

/* The perf:* events of side-band records: name, fields after the common ones, print fmt */
static const struct {
	const char	*name;
	const char	*fields;
	const char	*print;
} records[P2D_NR_RECORD_KINDS] = {
/* pids and tids as perf prints them: -1 is "no task" (the kernel's maps) */
#define U32(n, o)	"\tfield:unsigned int " n ";\toffset:" #o ";\tsize:4;\tsigned:0;\n"
#define S32(n, o)	"\tfield:int " n ";\toffset:" #o ";\tsize:4;\tsigned:1;\n"
#define U64(n, o)	"\tfield:u64 " n ";\toffset:" #o ";\tsize:8;\tsigned:0;\n"
	[P2D_RECORD_COMM] = { "comm",
		S32("pid", 8) S32("tid", 12) U32("exec", 16)
		"\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n",
		"\"comm=%s pid=%d tid=%d exec=%u\", REC->comm, REC->pid, REC->tid, REC->exec" },
	[P2D_RECORD_FORK] = { "fork",
		S32("pid", 8) S32("ppid", 12) S32("tid", 16) S32("ptid", 20) U64("time", 24),
		"\"pid=%d ppid=%d tid=%d ptid=%d time=%llu\", REC->pid, REC->ppid, REC->tid,"
		" REC->ptid, REC->time" },
	[P2D_RECORD_EXIT] = { "exit",
		S32("pid", 8) S32("ppid", 12) S32("tid", 16) S32("ptid", 20) U64("time", 24),
		"\"pid=%d ppid=%d tid=%d ptid=%d time=%llu\", REC->pid, REC->ppid, REC->tid,"
		" REC->ptid, REC->time" },
	[P2D_RECORD_MMAP] = { "mmap",
		S32("pid", 8) S32("tid", 12) U64("start", 16) U64("len", 24) U64("pgoff", 32)
		U32("prot", 40) U32("flags", 44)
		"\tfield:__data_loc char[] filename;\toffset:48;\tsize:4;\tsigned:0;\n",
		"\"pid=%d tid=%d start=0x%llx len=0x%llx pgoff=0x%llx prot=%u flags=%u"
		" filename=%s\", REC->pid, REC->tid, REC->start, REC->len, REC->pgoff, REC->prot,"
		" REC->flags, __get_str(filename)" },
	[P2D_RECORD_SWITCH] = { "switch",
		U32("out", 8) U32("preempt", 12) S32("next_prev_pid", 16) S32("next_prev_tid", 20),
		"\"out=%u preempt=%u next_prev_pid=%d next_prev_tid=%d\", REC->out, REC->preempt,"
		" REC->next_prev_pid, REC->next_prev_tid" },
	[P2D_RECORD_LOST] = { "lost",
		U64("id", 8) U64("lost", 16),
		"\"id=%llu lost=%llu\", REC->id, REC->lost" },
	[P2D_RECORD_THROTTLE] = { "throttle",
		U64("time", 8) U64("id", 16) U64("stream_id", 24),
		"\"time=%llu id=%llu stream_id=%llu\", REC->time, REC->id, REC->stream_id" },
	[P2D_RECORD_UNTHROTTLE] = { "unthrottle",
		U64("time", 8) U64("id", 16) U64("stream_id", 24),
		"\"time=%llu id=%llu stream_id=%llu\", REC->time, REC->id, REC->stream_id" },
#undef U32
#undef S32
#undef U64
};

/* Where each number of a &p2d_record goes: offset, size (0: not written) */
static const uint8_t record_layout[P2D_NR_RECORD_KINDS][P2D_RECORD_VALS][2] = {
	[P2D_RECORD_COMM]	= { { 8, 4 }, { 12, 4 }, { 16, 4 } },
	[P2D_RECORD_FORK]	= { { 8, 4 }, { 12, 4 }, { 16, 4 }, { 20, 4 }, { 24, 8 } },
	[P2D_RECORD_EXIT]	= { { 8, 4 }, { 12, 4 }, { 16, 4 }, { 20, 4 }, { 24, 8 } },
	[P2D_RECORD_MMAP]	= { { 8, 4 }, { 12, 4 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 40, 4 },
				    { 44, 4 } },
	[P2D_RECORD_SWITCH]	= { { 8, 4 }, { 12, 4 }, { 16, 4 }, { 20, 4 } },
	[P2D_RECORD_LOST]	= { { 8, 8 }, { 16, 8 } },
	[P2D_RECORD_THROTTLE]	= { { 8, 8 }, { 16, 8 }, { 24, 8 } },
	[P2D_RECORD_UNTHROTTLE]	= { { 8, 8 }, { 16, 8 }, { 24, 8 } },
};

static const uint8_t record_size[P2D_NR_RECORD_KINDS] = {
	[P2D_RECORD_COMM] = 36, [P2D_RECORD_FORK] = 32, [P2D_RECORD_EXIT] = 32,
	[P2D_RECORD_MMAP] = 52, [P2D_RECORD_SWITCH] = 24, [P2D_RECORD_LOST] = 24,
	[P2D_RECORD_THROTTLE] = 32, [P2D_RECORD_UNTHROTTLE] = 32,
};

#define MAX_FILE	4096	/* a mapping's file name, at most (PATH_MAX) */
#define KIND_HAS_IP	0x80	/* in &p2d_synth kind[]: a sample event with an ip */

struct p2d_synth {
	int		record_id[P2D_NR_RECORD_KINDS];
	uint8_t		rbuf[64 + MAX_FILE + 4];
	bool		stacks_ready;
	struct stack_fmt kstack;
	struct stack_fmt ustack;
	struct source	*src;
	uint32_t	nr_src;
	uint8_t		*kind;		/* &enum p2d_synth_kind by event id */
	uint32_t	nr_kind;	/* ids @kind covers (0 beyond) */
	uint64_t	*frames;	/* a chain's kernel then user frames */
	uint32_t	frames_cap;
	uint8_t		buf[COMMON_SIZE + 8 * P2D_NR_VALS];
	uint8_t		*stack;		/* a stack event being built */
	size_t		stack_cap;
};

/**
 * p2d_synth_new - the state of the events perf2dat writes
 *
 * Returns it, or NULL when out of memory.
 */
struct p2d_synth *p2d_synth_new(void)
{
	return calloc(1, sizeof(struct p2d_synth));
}

/**
 * p2d_synth_free - free it
 * @s: the state, may be NULL
 */
void p2d_synth_free(struct p2d_synth *s)
{
	if (!s)
		return;
	free(s->src);
	free(s->kind);
	free(s->frames);
	free(s->stack);
	free(s);
}

/**
 * p2d_synth_kind - what an event id of the output is
 * @s: the state
 * @id: the event id (common_type)
 */
enum p2d_synth_kind p2d_synth_kind(const struct p2d_synth *s, uint16_t id)
{
	if (id >= s->nr_kind)
		return P2D_KIND_TRACEPOINT;
	return (enum p2d_synth_kind)(s->kind[id] & ~KIND_HAS_IP);
}

/* Event @id is of @kind; returns 0 or -ENOMEM */
static int set_kind(struct p2d_synth *s, uint16_t id, enum p2d_synth_kind kind)
{
	uint32_t nr = s->nr_kind ? s->nr_kind : 256;
	uint8_t *n;

	while (nr <= id)
		nr *= 2;
	if (nr > s->nr_kind) {
		n = realloc(s->kind, nr);
		if (!n)
			return -ENOMEM;
		memset(n + s->nr_kind, 0, nr - s->nr_kind);
		s->kind = n;
		s->nr_kind = nr;
	}
	s->kind[id] = (uint8_t)kind;
	return 0;
}

/* A format in a malloc()ed string, or NULL */
static char *format(const char *fmt, ...) P2D_PRINTF(1, 2);
static char *format(const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : text;
}

/* Add the format @text (freed here) of event @id in @system */
static int add(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
	       const char *system, char *text, int id, enum p2d_synth_kind kind)
{
	int ret;

	if (!text)
		return -ENOMEM;
	ret = p2d_tracing_add_format(t, system, text);
	if (ret)
		return p2d_error(d, P2D_NO_OFFSET, ret, "cannot add a format of %s events: %s",
				 system, strerror(-ret));
	return set_kind(s, (uint16_t)id, kind);
}

/* ------------------------------------------------------------------------ */
/* Samples of non-tracepoint events                                          */

/* perf's name of an event made a valid event name: cpu-clock -> cpu_clock */
static void event_name(const char *name, char *out, size_t size)
{
	size_t i, n = 0;

	if (name[0] >= '0' && name[0] <= '9')
		out[n++] = '_';
	for (i = 0; name[i] && n < size - 1; i++) {
		char c = name[i];

		out[n++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '_' ? c : '_';
	}
	out[n] = '\0';
	if (!n)
		snprintf(out, size, "event");
}

static char *sample_format(const char *name, int id, uint32_t vals)
{
	char fields[1200], fmt[400], args[800];
	size_t fl = 0, pl = 0, al = 0;
	unsigned int v, off = COMMON_SIZE;

	fields[0] = fmt[0] = args[0] = '\0';
	for (v = 0; v < P2D_NR_VALS; v++) {
		if (!(vals & (1u << v)))
			continue;
		fl += (size_t)snprintf(fields + fl, sizeof(fields) - fl,
				       "\tfield:u64 %s;\toffset:%u;\tsize:8;\tsigned:0;\n",
				       values[v].name, off);
		pl += (size_t)snprintf(fmt + pl, sizeof(fmt) - pl, "%s%s=%s", pl ? " " : "",
				       values[v].name, values[v].fmt);
		al += (size_t)snprintf(args + al, sizeof(args) - al, ", %sREC->%s",
				       v == P2D_VAL_IP ? "(void *)" : "", values[v].name);
		off += 8;
	}
	return format("name: %s\nID: %d\nformat:\n" COMMON_FIELDS_ALL "%s\nprint fmt: \"%s\"%s\n",
		      name, id, fields, fmt, args);
}

/**
 * p2d_synth_source - an event that is not a tracepoint: its perf:* format
 * @s: the state
 * @t: the tracing data, which gets the format
 * @d: diagnostics
 * @src: the event
 *
 * Events of the same name whose samples carry the same scalars share one
 * (perf record -e cpu-clock -e cpu-clock); a name taken by an event with
 * other scalars gets a suffix.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_synth_source(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
		     const struct p2d_source *src)
{
	char name[64], base[48];
	struct source *n;
	uint32_t i, nr;
	int id, k = 1;

	if (src->index >= P2D_MAX_ATTRS)
		return 0;
	if (src->index >= s->nr_src) {
		nr = src->index + 8;
		n = realloc(s->src, nr * sizeof(*n));
		if (!n)
			return -ENOMEM;
		memset(n + s->nr_src, 0, (nr - s->nr_src) * sizeof(*n));
		s->src = n;
		s->nr_src = nr;
	}
	event_name(src->name, base, sizeof(base));
	snprintf(name, sizeof(name), "%s", base);
again:
	for (i = 0; i < s->nr_src; i++) {
		if (!s->src[i].id || strcmp(s->src[i].name, name))
			continue;
		if (s->src[i].vals != src->vals) {
			snprintf(name, sizeof(name), "%s_%d", base, ++k);
			goto again;
		}
		s->src[src->index] = s->src[i];
		return 0;
	}
	id = p2d_tracing_new_id(t, false);
	if (id < 0)
		return p2d_error(d, P2D_NO_OFFSET, id, "no event id left for perf:%s", name);
	n = &s->src[src->index];
	n->vals = src->vals;
	snprintf(n->name, sizeof(n->name), "%s", name);
	if (add(s, t, d, P2D_SYNTH_SYSTEM, sample_format(name, id, src->vals), id,
		P2D_KIND_SAMPLE))
		return -EINVAL;
	if (src->vals & (1u << P2D_VAL_IP))
		s->kind[id] |= KIND_HAS_IP;
	n->id = id;
	return 0;
}

/**
 * p2d_synth_sample_ip - the ip of a perf:* sample event, if it has one
 * @s: the state
 * @data: an event payload, in this host's byte order
 * @len: its bytes
 * @ip: set to the ip
 */
bool p2d_synth_sample_ip(const struct p2d_synth *s, const uint8_t *data, uint32_t len,
			 uint64_t *ip)
{
	uint16_t id;

	if (len < COMMON_SIZE + 8)
		return false;
	id = p2d_get16(data, false);
	if (id >= s->nr_kind || !(s->kind[id] & KIND_HAS_IP))
		return false;
	*ip = p2d_get64(data + COMMON_SIZE, false);
	return true;
}

static void put_common(uint8_t *p, int id, uint32_t pid, uint16_t flags)
{
	uint16_t type = (uint16_t)id;

	memcpy(p, &type, 2);
	memcpy(p + 2, &flags, 2);	/* common_flags, common_preempt_count */
	memcpy(p + 4, &pid, 4);
}

/**
 * p2d_synth_sample - the payload of a non-tracepoint sample
 * @s: the state
 * @ev: the sample
 * @data: set to the payload, in this host's byte order (valid until the next call)
 * @len: set to its size
 *
 * Returns 0, or -ENOENT when its event was not told (p2d_synth_source()).
 */
int p2d_synth_sample(struct p2d_synth *s, const struct p2d_event *ev, const uint8_t **data,
		     uint32_t *len)
{
	const struct source *src;
	uint32_t off = COMMON_SIZE;
	unsigned int v;

	if (ev->source >= s->nr_src || !s->src[ev->source].id)
		return -ENOENT;
	src = &s->src[ev->source];
	/* perf's tid -1 (a task past its exit): trace-cmd has no use for a negative pid */
	put_common(s->buf, src->id, ev->has_pid && ev->tid != UINT32_MAX ? ev->tid : 0, 0);
	for (v = 0; v < P2D_NR_VALS; v++) {
		if (src->vals & (1u << v)) {
			memcpy(s->buf + off, &ev->val[v], 8);
			off += 8;
		}
	}
	*data = s->buf;
	*len = off;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Stacks                                                                   */

/* The recording's format of ftrace:@name, if it lays the callers out as a long array */
static bool recorded_stack(struct p2d_tracing *t, const char *name, const char *count,
			   struct stack_fmt *f, bool fixed)
{
	struct tep_event *e = tep_find_event_by_name(t->tep, "ftrace", name);
	struct tep_format_field *caller, *n;

	if (!e || e->id < 0 || e->id >= 65536)
		return false;
	caller = tep_find_field(e, "caller");
	n = tep_find_field(e, count);
	if (!caller || !n || n->size != 4 || n->offset < COMMON_SIZE ||
	    !(caller->flags & TEP_FIELD_IS_ARRAY) || caller->elementsize != t->long_size ||
	    caller->offset < COMMON_SIZE || caller->arraylen < 1 || caller->arraylen > 256 ||
	    caller->size < 0 || (unsigned int)caller->size != caller->arraylen * t->long_size)
		return false;
	f->id = e->id;
	f->caller_off = (uint32_t)caller->offset;
	f->count_off = n->offset;
	f->entries = fixed ? (uint32_t)caller->arraylen : 0;
	f->lsize = t->long_size;
	return true;
}

/* The kernel's standard format of ftrace:@name, with a new id */
static int standard_stack(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
			  const char *name, const char *count, struct stack_fmt *f, bool fixed)
{
	uint32_t ls = t->long_size;
	int id = p2d_tracing_new_id(t, fixed);

	if (id < 0)
		return p2d_error(d, P2D_NO_OFFSET, id, "no event id left for ftrace:%s", name);
	f->id = id;
	f->count_off = COMMON_SIZE;
	f->caller_off = (COMMON_SIZE + 4 + ls - 1) / ls * ls;
	f->entries = fixed ? STACK_ENTRIES : 0;
	f->lsize = ls;
	return add(s, t, d, "ftrace", format("name: %s\nID: %d\nformat:\n" COMMON_FIELDS_ALL
					     "\tfield:%s %s;\toffset:%u;\tsize:4;\tsigned:%d;\n"
					     "\tfield:unsigned long caller[%u];\toffset:%u;"
					     "\tsize:%u;\tsigned:0;\n\n" STACK_PRINT,
					     name, id, fixed ? "unsigned int" : "int", count,
					     COMMON_SIZE, !fixed, STACK_ENTRIES, f->caller_off,
					     STACK_ENTRIES * ls),
		   id, P2D_KIND_STACK);
}

static int setup_stacks(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d)
{
	int ret = 0;

	s->stacks_ready = true;
	if (recorded_stack(t, "kernel_stack", "size", &s->kstack, false))
		ret = set_kind(s, (uint16_t)s->kstack.id, P2D_KIND_STACK);
	else
		ret = standard_stack(s, t, d, "kernel_stack", "size", &s->kstack, false);
	if (ret)
		return ret;
	if (recorded_stack(t, "user_stack", "tgid", &s->ustack, true))
		ret = set_kind(s, (uint16_t)s->ustack.id, P2D_KIND_STACK);
	else
		ret = standard_stack(s, t, d, "user_stack", "tgid", &s->ustack, true);
	return ret;
}

static void put_long(uint8_t *p, uint64_t v, uint32_t lsize)
{
	uint32_t v32 = (uint32_t)v;

	if (lsize == 4)
		memcpy(p, &v32, 4);
	else
		memcpy(p, &v, 8);
}

/* One stack event of @n callers from @frames */
static int emit_stack(struct p2d_synth *s, const struct stack_fmt *f, const struct p2d_stack_of *of,
		      uint32_t count, const uint64_t *frames, uint32_t n, p2d_payload_fn fn,
		      void *ctx)
{
	uint32_t slots = f->entries ? f->entries : n;
	size_t len = f->caller_off + (size_t)slots * f->lsize, need;
	uint32_t i;

	need = len > (size_t)f->count_off + 4 ? len : (size_t)f->count_off + 4;
	if (need > s->stack_cap) {
		uint8_t *b = realloc(s->stack, need);

		if (!b)
			return -ENOMEM;
		s->stack = b;
		s->stack_cap = need;
	}
	memset(s->stack, 0, need);
	put_common(s->stack, f->id, of->pid, of->flags);
	memcpy(s->stack + f->count_off, &count, 4);
	for (i = 0; i < n; i++)
		put_long(s->stack + f->caller_off + (size_t)i * f->lsize, frames[i], f->lsize);
	return fn(ctx, s->stack, (uint32_t)need);
}

/**
 * p2d_synth_chain - a sample's call chain, split into its kernel and user parts
 * @s: the state
 * @ev: the sample, with its chain
 * @chain: set to the parts (valid until the next call)
 *
 * perf's PERF_CONTEXT_* markers split the chain and are dropped, with the
 * guest and hypervisor parts. Any other value of the markers' range makes
 * the whole chain empty and @chain->bad true: the markers perf's callchain
 * resolution (machine.c, add_callchain_ip()) knows are HV, KERNEL, USER,
 * USER_DEFERRED, GUEST_KERNEL and GUEST_USER, and on any other it discards
 * all of the chain (perf script prints the sample without frames). Such
 * values are user return addresses of a frame-pointer walk through code
 * without frame pointers (a stack slot holding -1, say). (perf before 6.8
 * knows no GUEST_* marker, before 6.19 no USER_DEFERRED, and discards
 * those chains too; no kernel writes them in a host recording of x86.)
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_synth_chain(struct p2d_synth *s, const struct p2d_event *ev, struct p2d_chain *chain)
{
	uint64_t ctxmark = CONTEXT_KERNEL, ip, *user;
	uint32_t i, nk = 0, nu = 0;

	if (ev->nr_chain > s->frames_cap) {
		uint64_t *f = realloc(s->frames, (size_t)ev->nr_chain * 2 * sizeof(*f));

		if (!f)
			return -ENOMEM;
		s->frames = f;
		s->frames_cap = ev->nr_chain;
	}
	user = s->frames + ev->nr_chain;
	chain->kernel = s->frames;
	chain->user = user;
	chain->bad = false;
	for (i = 0; i < ev->nr_chain; i++) {
		ip = p2d_get64(ev->chain + 8 * (size_t)i, ev->swap);
		if (ip < CONTEXT_MAX) {
			if (ctxmark == CONTEXT_KERNEL)
				s->frames[nk++] = ip;
			else if (ctxmark == CONTEXT_USER)
				user[nu++] = ip;
			continue;
		}
		if (ip != CONTEXT_HV && ip != CONTEXT_KERNEL && ip != CONTEXT_USER &&
		    ip != CONTEXT_USER_DEFERRED && ip != CONTEXT_GUEST_KERNEL &&
		    ip != CONTEXT_GUEST_USER) {
			chain->bad = true;
			nk = nu = 0;
			break;
		}
		ctxmark = ip;
		if (ip == CONTEXT_USER_DEFERRED)	/* then a cookie, no frame */
			i++;
	}
	chain->nr_kernel = nk;
	chain->nr_user = nu;
	return 0;
}

/**
 * p2d_synth_kernel_stack - the ftrace:kernel_stack event of kernel frames
 * @s: the state
 * @t: the tracing data (gets the stack formats the first time, if needed)
 * @d: diagnostics
 * @of: the event the stack belongs to
 * @frames: the frames, innermost first
 * @n: how many; none gives a stack of no caller: size 0 and one caller of
 *	-1, the end mark the readers of kernel stacks stop at (trace-cmd hist,
 *	libtraceevent's plugin_function.c), so that trace-cmd report --profile,
 *	which takes the bytes after "caller" as the stack and dies on fewer
 *	than an int's, has one of no frame
 * @fn: receives the payload
 * @ctx: passed to @fn
 *
 * Returns 0 or a negative errno.
 */
int p2d_synth_kernel_stack(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
			   const struct p2d_stack_of *of, const uint64_t *frames, uint32_t n,
			   p2d_payload_fn fn, void *ctx)
{
	static const uint64_t end = UINT64_MAX;
	int ret;

	if (!s->stacks_ready && (ret = setup_stacks(s, t, d)))
		return ret;
	if (!n)
		return emit_stack(s, &s->kstack, of, 0, &end, 1, fn, ctx);
	return emit_stack(s, &s->kstack, of, n, frames, n, fn, ctx);
}

/**
 * p2d_synth_user_stacks - the ftrace:user_stack events of user frames
 * @s: the state
 * @t: the tracing data (gets the stack formats the first time, if needed)
 * @d: diagnostics
 * @of: the event the stack belongs to
 * @frames: the frames, innermost first
 * @n: how many
 * @fn: receives each payload
 * @ctx: passed to @fn
 *
 * Returns 0 or a negative errno.
 */
int p2d_synth_user_stacks(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
			  const struct p2d_stack_of *of, const uint64_t *frames, uint32_t n,
			  p2d_payload_fn fn, void *ctx)
{
	uint32_t i, k;
	int ret = 0;

	if (!s->stacks_ready && (ret = setup_stacks(s, t, d)))
		return ret;
	for (i = 0; !ret && i < n; i += s->ustack.entries) {
		k = n - i < s->ustack.entries ? n - i : s->ustack.entries;
		ret = emit_stack(s, &s->ustack, of, of->tgid, frames + i, k, fn, ctx);
	}
	return ret;
}

/**
 * p2d_synth_user_frames - the frames of an ftrace:user_stack event
 * @s: the state
 * @data: an event payload, in this host's byte order
 * @len: its bytes
 * @tgid: set to its process
 * @fn: called with each frame (0s, the padding, too)
 * @ctx: passed to @fn
 *
 * Returns what the last @fn returned (0 for none), or 1 when @data is no
 * user_stack event.
 */
int p2d_synth_user_frames(const struct p2d_synth *s, const uint8_t *data, uint32_t len,
			  uint32_t *tgid, int (*fn)(void *ctx, uint32_t tgid, uint64_t frame),
			  void *ctx)
{
	const struct stack_fmt *f = &s->ustack;
	uint32_t off;
	int ret = 0;

	if (!p2d_synth_user_tgid(s, data, len, tgid))
		return 1;
	for (off = f->caller_off; !ret && off + f->lsize <= len; off += f->lsize)
		ret = fn(ctx, *tgid, f->lsize == 8 ? p2d_get64(data + off, false) :
					    p2d_get32(data + off, false));
	return ret;
}

/**
 * p2d_synth_user_tgid - is @data an ftrace:user_stack event, and of what process?
 * @s: the state
 * @data: an event payload, in this host's byte order
 * @len: its bytes
 * @tgid: set to its process
 */
bool p2d_synth_user_tgid(const struct p2d_synth *s, const uint8_t *data, uint32_t len,
			 uint32_t *tgid)
{
	if (!s->stacks_ready || len < 2 || p2d_get16(data, false) != (uint16_t)s->ustack.id ||
	    s->ustack.count_off < 0 || (uint32_t)s->ustack.count_off + 4 > len)
		return false;
	*tgid = p2d_get32(data + s->ustack.count_off, false);
	return true;
}

/* ------------------------------------------------------------------------ */
/* Side-band records (perf2dat --all)                                       */

/**
 * p2d_synth_record - the payload of a side-band record's perf:* event
 * @s: the state
 * @t: the tracing data (gets the kind's format the first time)
 * @d: diagnostics
 * @rec: the record
 * @data: set to the payload, in this host's byte order (valid until the next call)
 * @len: set to its size
 *
 * Returns 0 or a negative errno.
 */
int p2d_synth_record(struct p2d_synth *s, struct p2d_tracing *t, struct p2d_diag *d,
		     const struct p2d_record *rec, const uint8_t **data, uint32_t *len)
{
	uint32_t k = rec->kind, i, size, slen;
	int id, ret;

	if (k >= P2D_NR_RECORD_KINDS)
		return -EINVAL;
	if (!s->record_id[k]) {
		id = p2d_tracing_new_id(t, false);
		if (id < 0)
			return p2d_error(d, P2D_NO_OFFSET, id, "no event id left for perf:%s",
					 records[k].name);
		ret = add(s, t, d, P2D_SYNTH_SYSTEM,
			  format("name: %s\nID: %d\nformat:\n" COMMON_FIELDS_ALL "%s\nprint fmt: %s\n",
				 records[k].name, id, records[k].fields, records[k].print),
			  id, P2D_KIND_RECORD);
		if (ret)
			return ret;
		s->record_id[k] = id;
	}
	size = record_size[k];
	memset(s->rbuf, 0, size);
	put_common(s->rbuf, s->record_id[k],
		   rec->has_pid && rec->tid != UINT32_MAX ? rec->tid : 0, 0);
	for (i = 0; i < P2D_RECORD_VALS; i++) {
		uint32_t v32 = (uint32_t)rec->v[i];

		if (record_layout[k][i][1] == 4)
			memcpy(s->rbuf + record_layout[k][i][0], &v32, 4);
		else if (record_layout[k][i][1] == 8)
			memcpy(s->rbuf + record_layout[k][i][0], &rec->v[i], 8);
	}
	if (k == P2D_RECORD_COMM && rec->str)
		strncpy((char *)s->rbuf + 20, rec->str, 15);
	if (k == P2D_RECORD_MMAP) {
		/* __data_loc: length << 16 | offset, the string NUL-terminated after the fields */
		uint32_t loc;

		slen = rec->str ? (uint32_t)strnlen(rec->str, MAX_FILE - 1) : 0;
		memset(s->rbuf + size, 0, (slen + 1 + 3) & ~3u);
		memcpy(s->rbuf + size, rec->str ? rec->str : "", slen);
		loc = (slen + 1) << 16 | size;
		memcpy(s->rbuf + 48, &loc, 4);
		size += (slen + 1 + 3) & ~3u;
	}
	*data = s->rbuf;
	*len = size;
	return 0;
}
