// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tracing data perf stores (the TRACING_DATA feature in a file, the
 * HEADER_TRACING_DATA record in a pipe): the tracefs files needed to decode
 * tracepoints, in the layout of tools/perf/util/trace-event-info.c:
 *
 *	"\027\010\104tracing" version\0 endian(u8) long_size(u8) page_size(u32)
 *	"header_page\0" u64 size, data      "header_event\0" u64 size, data
 *	u32 nr_ftrace, { u64 size, data }
 *	u32 nr_systems, { name\0, u32 nr_events, { u64 size, data } }
 *	u32 size, kallsyms      u32 size, printk_formats
 *	u64 size, saved_cmdlines (version 0.6)
 *
 * Numbers are in the byte order of the endian byte. The formats are parsed
 * with libtraceevent.
 */
#include <stdlib.h>

#include <event-parse.h>

#include "cursor.h"
#include "tracing.h"
#include "tracing-local.h"

static const uint8_t tracing_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static bool valid_page_size(unsigned int size)
{
	return size >= 256 && size <= (1u << 24) && !(size & (size - 1));
}

static int bad(struct p2d_diag *d, const struct p2d_cursor *c, const char *what)
{
	return p2d_error(d, p2d_cur_off(c), -EBADMSG, "tracing data: %s", what);
}

static int read_span64(struct p2d_cursor *c, struct p2d_span *s)
{
	const uint8_t *p;
	uint64_t size;

	if (p2d_cur_u64(c, &size) || p2d_cur_bytes(c, size, &p))
		return -EBADMSG;
	s->data = (const char *)p;
	s->len = size;
	return 0;
}

static int read_span32(struct p2d_cursor *c, struct p2d_span *s)
{
	const uint8_t *p;
	uint32_t size;

	if (p2d_cur_u32(c, &size) || p2d_cur_bytes(c, size, &p))
		return -EBADMSG;
	s->data = (const char *)p;
	s->len = size;
	return 0;
}

static int read_tag(struct p2d_cursor *c, const char *tag)
{
	const uint8_t *p;
	size_t n = strlen(tag) + 1;

	if (p2d_cur_bytes(c, n, &p) || memcmp(p, tag, n))
		return -EBADMSG;
	return 0;
}

/* A count of items that each take at least 8 bytes must fit what is left */
static int read_count(struct p2d_cursor *c, uint32_t *n)
{
	if (p2d_cur_u32(c, n) || *n > p2d_cur_left(c) / 8)
		return -EBADMSG;
	return 0;
}

static int read_prologue(struct p2d_diag *d, struct p2d_tracing *t, struct p2d_cursor *c)
{
	const uint8_t *p;
	const char *version;
	uint8_t endian, lsize;

	if (p2d_cur_bytes(c, sizeof(tracing_magic), &p) ||
	    memcmp(p, tracing_magic, sizeof(tracing_magic)))
		return bad(d, c, "bad magic");
	if (p2d_cur_cstr(c, &version) || strlen(version) >= sizeof(t->version))
		return bad(d, c, "bad version string");
	strcpy(t->version, version);
	if (strcmp(version, "0.5") && strcmp(version, "0.6"))
		p2d_warn(d, p2d_cur_off(c), "tracing data version %s, expected 0.5 or 0.6",
			 version);
	if (p2d_cur_u8(c, &endian) || p2d_cur_u8(c, &lsize))
		return bad(d, c, "truncated");
	if (endian > 1)
		return bad(d, c, "bad endian byte");
	t->big_endian = endian;
	c->swap = t->big_endian != p2d_host_big_endian();
	t->long_size = lsize;
	if (p2d_cur_u32(c, &t->page_size))
		return bad(d, c, "truncated");
	return 0;
}

static int read_systems(struct p2d_diag *d, struct p2d_tracing *t, struct p2d_cursor *c)
{
	struct p2d_tsystem *sys;
	uint32_t i, j, n, first = t->nr_ftrace;

	if (read_count(c, &n))
		return bad(d, c, "bad number of event systems");
	t->systems = calloc(n ? n : 1, sizeof(*t->systems));
	if (!t->systems)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		sys = &t->systems[i];
		if (p2d_cur_cstr(c, &sys->name))
			return bad(d, c, "truncated system name");
		if (read_count(c, &sys->nr_events))
			return bad(d, c, "bad number of events");
		sys->events = calloc(sys->nr_events ? sys->nr_events : 1, sizeof(*sys->events));
		if (!sys->events)
			return -ENOMEM;
		/*
		 * numbered now: the format probe's child, forked before the
		 * index is made, finds format i where the conversion does
		 */
		sys->first = first;
		first += sys->nr_events;
		t->nr_systems = i + 1;
		for (j = 0; j < sys->nr_events; j++)
			if (read_span64(c, &sys->events[j]))
				return bad(d, c, "truncated event format");
	}
	return 0;
}

static int read_sections(struct p2d_diag *d, struct p2d_tracing *t, struct p2d_cursor *c)
{
	uint32_t i, n;
	int ret;

	if (read_tag(c, "header_page") || read_span64(c, &t->header_page))
		return bad(d, c, "bad header_page");
	if (read_tag(c, "header_event") || read_span64(c, &t->header_event))
		return bad(d, c, "bad header_event");
	if (read_count(c, &n))
		return bad(d, c, "bad number of ftrace formats");
	t->ftrace = calloc(n ? n : 1, sizeof(*t->ftrace));
	if (!t->ftrace)
		return -ENOMEM;
	for (i = 0; i < n; i++, t->nr_ftrace++)
		if (read_span64(c, &t->ftrace[i]))
			return bad(d, c, "truncated ftrace format");
	ret = read_systems(d, t, c);
	if (ret)
		return ret;
	if (read_span32(c, &t->kallsyms))
		return bad(d, c, "truncated kallsyms");
	if (read_span32(c, &t->printk))
		return bad(d, c, "truncated printk formats");
	if (strcmp(t->version, "0.5") && p2d_cur_left(c) &&
	    read_span64(c, &t->cmdlines))
		return bad(d, c, "truncated saved_cmdlines");
	return 0;
}

/**
 * p2d_tracing_setup_tep - give libtraceevent the recording's geometry
 * @tep: a handle
 * @t: the tracing data
 */
void p2d_tracing_setup_tep(struct tep_handle *tep, const struct p2d_tracing *t)
{
	tep_set_file_bigendian(tep, t->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, p2d_host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)t->long_size);
	tep_set_page_size(tep, (int)t->page_size);
}

/* The bitmaps of event ids */
static int alloc_maps(struct p2d_tracing *t)
{
	t->known = calloc(65536 / 8, 1);
	t->pending = calloc(65536 / 8, 1);
	t->present = calloc(65536 / 8, 1);
	return t->known && t->pending && t->present ? 0 : -ENOMEM;
}

static int parse_formats(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off)
{
	struct tep_handle *tep = t->tep;
	bool safe = true;
	int ret;

	p2d_tracing_setup_tep(tep, t);
	/*
	 * The header_page goes into the trace.dat as it is, and libtracecmd
	 * takes the page size from it (a page size that is not a power of two
	 * made it write the CPU data over the file header): it must describe
	 * the pages we build, or the standard layout is written instead.
	 */
	ret = t->header_page.len && t->probe ? p2d_probe_check(t->probe, PROBE_HEADER, &safe) : 0;
	if (ret)
		return ret;
	if (t->header_page.len && safe &&
	    !tep_parse_header_page(tep, (char *)t->header_page.data, t->header_page.len,
				   (int)t->long_size) &&
	    tep_get_header_timestamp_size(tep) == 8 &&
	    (tep_get_header_page_size(tep) == 4 || tep_get_header_page_size(tep) == 8) &&
	    valid_page_size((unsigned int)tep_get_sub_buffer_size(tep))) {
		unsigned int sub = (unsigned int)tep_get_sub_buffer_size(tep);

		/* the commit field has the size of the kernel's long */
		t->long_size = (unsigned int)tep_get_header_page_size(tep);
		/* trace-cmd takes the page size from header_page: so do we */
		if (sub != t->page_size)
			p2d_info(d, "page size %u from header_page, %u in tracing data",
				 sub, t->page_size);
		t->page_size = sub;
	} else {
		p2d_warn(d, off, "tracing data: unusable header_page, using the standard layout");
		t->header_page.len = 0;
	}
	/* the other formats are parsed when needed (tracing-index.c) */
	return p2d_tracing_index(t);
}

/**
 * p2d_tracing_new - tracing data for a recording that has none
 * @long_size: the recording's kernel long size (4 or 8)
 * @page_size: the ring-buffer page size to write
 * @out: set to the result, to free with p2d_tracing_free()
 *
 * A recording without tracepoints carries no formats: the trace.dat gets
 * the standard header_page and header_event and only the formats perf2dat
 * adds (p2d_tracing_add_format()).
 *
 * Returns 0 or -ENOMEM.
 */
int p2d_tracing_new(unsigned int long_size, unsigned int page_size, struct p2d_tracing **out)
{
	struct p2d_tracing *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t)
		return -ENOMEM;
	strcpy(t->version, "0.6");
	t->big_endian = p2d_host_big_endian();
	t->long_size = long_size;
	t->page_size = page_size;
	t->tep = tep_alloc();
	if (!t->tep || alloc_maps(t)) {
		p2d_tracing_free(t);
		return -ENOMEM;
	}
	p2d_tracing_setup_tep(t->tep, t);
	*out = t;
	return 0;
}

/*
 * libtracecmd makes up a "blktrace" event (tracecmd_blk_hack(), which
 * trace-cmd report and KernelShark run) with the id after ftrace:power,
 * ftrace:kmem_free or ftrace:user_stack, the first of them it finds: an
 * event of ours with that id would be shown as blktrace.
 */
static bool blk_slot(const struct p2d_tracing *t, int id)
{
	static const char *const after[] = { "power", "kmem_free", "user_stack" };
	struct tep_event *e;
	size_t i;

	for (i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		e = tep_find_event_by_name(t->tep, "ftrace", after[i]);
		if (e && e->id + 1 == id)
			return true;
	}
	return false;
}

static bool id_free(const struct p2d_tracing *t, int id)
{
	return id < 65536 && !(t->present[id / 8] & (1u << (id % 8))) &&
	       !p2d_tracing_has_event(t, (uint16_t)id) && !blk_slot(t, id);
}

/**
 * p2d_tracing_new_id - an event id no format of the recording uses
 * @t: tracing data
 * @pair: the id after it must be free too (it is left unused: the id of
 *	ftrace:user_stack, after which libtracecmd places its blktrace event)
 *
 * Ids above the recording's largest, so that the recording's own events
 * keep theirs; never the one libtracecmd gives its made-up blktrace event.
 *
 * Returns the id, or -ENOSPC when none is left.
 */
int p2d_tracing_new_id(struct p2d_tracing *t, bool pair)
{
	int id, pass;

	for (pass = 0; pass < 2; pass++) {
		for (id = pass || t->max_id < 15 ? 16 : t->max_id + 1; id < 65535; id++)
			if (id_free(t, id) && (!pair || id_free(t, id + 1)))
				return id;
	}
	return -ENOSPC;
}

/**
 * p2d_tracing_add_format - a format perf2dat writes (synth.c)
 * @t: tracing data
 * @system: its system
 * @text: the format file, malloc()ed; ownership passes
 *
 * The format is parsed by libtraceevent, its id becomes known, and it is
 * written into the trace.dat with the recording's.
 *
 * Returns 0 or a negative errno.
 */
int p2d_tracing_add_format(struct p2d_tracing *t, const char *system, char *text)
{
	struct p2d_added *a;
	struct tep_event *e = NULL;
	size_t len = strlen(text);

	a = realloc(t->added, (t->nr_added + 1) * sizeof(*a));
	if (!a) {
		free(text);
		return -ENOMEM;
	}
	t->added = a;
	a = &t->added[t->nr_added];
	a->system = strdup(system);
	if (!a->system || tep_parse_format(t->tep, &e, text, len, system) || !e ||
	    e->id < 0 || e->id >= 65536) {
		free(a->system);
		free(text);
		return a->system ? -EINVAL : -ENOMEM;
	}
	a->text = text;
	a->len = len;
	a->with_id = -1;
	t->nr_added++;
	t->known[e->id / 8] |= (uint8_t)(1u << (e->id % 8));
	t->present[e->id / 8] |= (uint8_t)(1u << (e->id % 8));
	if (e->id > t->max_id)
		t->max_id = e->id;
	return 0;
}

/* sched:sched_wakeup as kernels since 4.9 describe it (sched_wakeup_template) */
#define WAKEUP_FORMAT \
	"name: sched_wakeup\nID: %d\nformat:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n" \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"comm=%%s pid=%%d prio=%%d target_cpu=%%03d\", REC->comm, REC->pid," \
	" REC->prio, REC->target_cpu\n"

/**
 * p2d_tracing_add_wakeup - the format of sched:sched_wakeup beside sched_switch
 * @t: tracing data
 *
 * trace-cmd report --profile (trace-profile.c) handles sched_switch only
 * when the file also has a format of sched_wakeup: without one it reads
 * sched_switch's prev_pid and next_pid through fields it never looked up,
 * and the stack of a switch lands on whatever event the task had before
 * (issue 38: under user_stack). trace-cmd record writes the formats of all
 * the kernel's events, so its files always have one; perf.data has only
 * those of the recorded events, and perf sched record (perf 6.1 and later)
 * records sched_waking, not sched_wakeup. A recording with sched_switch and
 * no sched_wakeup gets the kernel's format of it, under an id no format of
 * the recording uses; no event of it is written, and the format is written
 * only when sched_switch's is (when an event of it occurs: write-dir.c).
 *
 * Returns 0 (nothing to add, or added) or a negative errno.
 */
int p2d_tracing_add_wakeup(struct p2d_tracing *t)
{
	int id, with = p2d_tracing_find_event(t, "sched", "sched_switch");
	char *text;

	if (with < 0 || p2d_tracing_find_event(t, "sched", "sched_wakeup") >= 0)
		return 0;
	id = p2d_tracing_new_id(t, false);
	if (id < 0)
		return id;
	if (asprintf(&text, WAKEUP_FORMAT, id) < 0)
		return -ENOMEM;
	id = p2d_tracing_add_format(t, "sched", text);
	if (!id)
		t->added[t->nr_added - 1].with_id = with;
	return id;
}

/**
 * p2d_tracing_parse - parse the tracing data of a recording
 * @d: diagnostics
 * @blob: the tracing data, malloc()ed; ownership passes to this function
 * @len: its size
 * @off: its input offset, for messages
 * @isolate: parse each format in a child process first, and drop those
 *	libtraceevent dies or loops on (tracing-probe.c)
 * @out: set to the result, to free with p2d_tracing_free()
 *
 * The formats of ftrace are parsed now, the others when an event of theirs
 * is first needed (p2d_tracing_need()); messages about them go to @d, which
 * must outlive the result.
 *
 * Returns 0 or a negative errno with the reason recorded in @d.
 */
int p2d_tracing_parse(struct p2d_diag *d, uint8_t *blob, size_t len, uint64_t off,
		      bool isolate, struct p2d_tracing **out)
{
	struct p2d_tracing *t;
	struct p2d_cursor c;
	int ret;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		free(blob);
		return -ENOMEM;
	}
	t->blob = blob;
	t->blob_len = len;
	t->d = d;
	t->off = off;
	p2d_cur_init(&c, blob, len, off, false);
	ret = read_prologue(d, t, &c);
	if (!ret)
		ret = read_sections(d, t, &c);
	if (!ret && t->long_size != 4 && t->long_size != 8)
		ret = p2d_error(d, off, -EBADMSG, "tracing data: long size %u", t->long_size);
	if (!ret) {
		t->tep = tep_alloc();
		ret = t->tep ? alloc_maps(t) : -ENOMEM;
	}
	if (!ret && isolate) {
		p2d_tracing_setup_tep(t->tep, t);
		ret = p2d_probe_start(d, t, off, &t->probe);
	}
	if (!ret)
		ret = parse_formats(d, t, off);
	if (!ret) {
		if (!valid_page_size(t->page_size))
			ret = p2d_error(d, off, -EBADMSG, "tracing data: page size %u",
					t->page_size);
	}
	if (ret) {
		p2d_tracing_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

/**
 * p2d_tracing_free - free parsed tracing data
 * @t: tracing data, may be NULL
 */
void p2d_tracing_free(struct p2d_tracing *t)
{
	unsigned int i;

	if (!t)
		return;
	p2d_probe_free(t->probe);
	if (t->tep)
		tep_free(t->tep);
	for (i = 0; i < t->nr_systems; i++)
		free(t->systems[i].events);
	free(t->systems);
	free(t->ftrace);
	for (i = 0; i < t->nr_added; i++) {
		free(t->added[i].system);
		free(t->added[i].text);
	}
	free(t->added);
	free(t->blob);
	free(t->known);
	free(t->pending);
	free(t->present);
	free(t->formats);
	free(t->by_id);
	free(t);
}
