// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The event formats, parsed when an event of theirs is first needed.
 *
 * A recording of `perf record -e 'syscalls:*'` carries some 720 formats
 * (every event recorded), of which a short run uses a few dozen;
 * libtraceevent takes about 170,000 instructions to parse one, and the
 * probe's child as many again to know that it survives it
 * (tracing-probe.c): 250 million instructions for formats nothing used.
 * So a format is read at first only for what the kernel writes on its
 * first two lines, "name: NAME" and "ID: N", which tells its event's id
 * and name; it is parsed by libtraceevent (the probe's child first) when
 * an event of that id is first converted (p2d_tracing_need()). The
 * formats of ftrace, and any whose first lines are not as the kernel
 * writes them, are parsed at once, as is every format of an id that one
 * of those also has.
 *
 * Only parsed formats go into the trace.dat (write-dir.c), so the formats
 * of events that never occurred are left out, on purpose:
 *   - a format never parsed was never tried in the probe's child either,
 *     and one libtraceevent dies on would take trace-cmd report down on
 *     the output (the probe's guarantee: nothing unprobed is written);
 *   - trace-cmd and KernelShark parse every format of a trace.dat each
 *     time they open it: trace-cmd report of a tiny syscalls:* conversion
 *     (58 events) costs 130 million instructions with the 720 formats, 8
 *     million with the 32 of its events; probing all of them to keep them
 *     would cost each conversion what this saves;
 *   - what they would list is events without data; perf evlist lists
 *     every event recorded.
 * A build with P2D_FORMATS_AT_ONCE defined parses (and so writes) every
 * format, as perf2dat did before (tests/tools/cmp-builds.sh).
 *
 * A format on which libtraceevent's sched_switch plugin would loop
 * (tracing-plugins.c) is dropped once parsed: its event stays in the
 * handle (libtraceevent cannot forget one), but its id is not known, so
 * its events are skipped, and it is not written.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "tracing.h"
#include "tracing-local.h"


static inline void set_bit(uint8_t *map, int id)
{
	map[id / 8] |= (uint8_t)(1u << (id % 8));
}

static inline bool test_bit(const uint8_t *map, int id)
{
	return map[id / 8] & (1u << (id % 8));
}

/**
 * p2d_tracing_format - format @i in parsing order: ftrace's, then each system's
 * @t: tracing data
 * @i: index
 * @sys: set to its system
 *
 * Returns the format, or NULL past the last.
 */
struct p2d_span *p2d_tracing_format(struct p2d_tracing *t, uint32_t i, const char **sys)
{
	uint32_t s;

	*sys = "ftrace";
	if (i < t->nr_ftrace)
		return &t->ftrace[i];
	for (s = 0; s < t->nr_systems; s++) {
		*sys = t->systems[s].name;
		if (i - t->systems[s].first < t->systems[s].nr_events)
			return &t->systems[s].events[i - t->systems[s].first];
	}
	return NULL;
}

/* The system of format @i (not one of ftrace), and @i's index in it */
static const struct p2d_tsystem *system_of(const struct p2d_tracing *t, uint32_t i, uint32_t *j)
{
	uint32_t s;

	for (s = 0; s < t->nr_systems; s++) {
		*j = i - t->systems[s].first;
		if (*j < t->systems[s].nr_events)
			return &t->systems[s];
	}
	return NULL;
}

static bool is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * "name: NAME\nID: N\n", as the kernel starts every format: NAME one word
 * (as libtraceevent reads it), N decimal without a leading 0 and below
 * 65536, so that libtraceevent reads the same id. False otherwise.
 */
static bool read_head(const struct p2d_span *f, struct p2d_tformat *fi)
{
	const char *p = f->data, *end = f->data + f->len, *name;
	uint32_t id = 0;
	size_t n;

	if (f->len < 6 || memcmp(p, "name: ", 6))
		return false;
	for (name = p += 6; p < end && is_word(*p); p++)
		;
	n = (size_t)(p - name);
	if (!n || n > 255 || end - p < 5 || memcmp(p, "\nID: ", 5))
		return false;
	p += 5;
	if (p >= end || *p < '0' || *p > '9' || (*p == '0' && end - p > 1 && p[1] != '\n'))
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		id = id * 10 + (uint32_t)(*p - '0');
		if (id > 65535)
			return false;
	}
	if (p >= end || *p != '\n')
		return false;
	fi->name = name;
	fi->name_len = (uint16_t)n;
	fi->id = (int32_t)id;
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void warn_failed(struct p2d_tracing *t, uint32_t i, enum tep_errno err)
{
	const struct p2d_tsystem *sys;
	char msg[128];
	uint32_t j;

	sys = system_of(t, i, &j);
	if (!sys)
		return;
	tep_strerror(t->tep, err, msg, sizeof(msg));
	p2d_warn(t->d, t->off, "format %u of system %s: %s", j, sys->name, msg);
}

/**
 * p2d_tracing_parse_format - parse format @i (p2d_tracing_format()) if not yet
 * @t: tracing data
 * @i: the format
 *
 * The probe's child parses it first (a format it dies on is dropped, with a
 * warning), then libtraceevent here; the event's id becomes known, and the
 * hook is told.
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_tracing_parse_format(struct p2d_tracing *t, uint32_t i)
{
	struct p2d_tformat *fi = &t->formats[i];
	struct tep_event *e = NULL;
	const struct p2d_span *f;
	enum tep_errno err;
	const char *sys;
	bool safe = true;
	int before, ret;

	if (fi->state != P2D_FORMAT_UNREAD)
		return 0;
	fi->state = P2D_FORMAT_DROPPED;
	f = p2d_tracing_format(t, i, &sys);
	if (!f || !f->len)
		return 0;
	if (t->probe) {
		ret = p2d_probe_check(t->probe, i, &safe);
		if (ret)
			return ret;
	}
	if (!safe)
		return 0;
	fi->state = P2D_FORMAT_FAILED;
	before = tep_get_events_count(t->tep);
	err = tep_parse_format(t->tep, &e, f->data, f->len, sys);
	if (err && i >= t->nr_ftrace)
		warn_failed(t, i, err);
	if (tep_get_events_count(t->tep) <= before || !e)
		return 0;
	/*
	 * libtraceevent cannot forget the event: it stays in t->tep, but its
	 * id is not known, so its events are skipped, and it is not written
	 */
	if (p2d_tracing_plugin_loops(e)) {
		p2d_warn(t->d, t->off, "tracing data: format %u (sched_switch) has a prev_state"
			 " flag of value 0, on which libtraceevent's sched_switch plugin loops"
			 " forever: its events are skipped", i);
		fi->state = P2D_FORMAT_DROPPED;
		return 0;
	}
	fi->state = P2D_FORMAT_PARSED;
	if (e->id >= 0 && e->id < 65536) {
		set_bit(t->known, e->id);
		set_bit(t->present, e->id);
		if (e->id > t->max_id)
			t->max_id = e->id;
	}
	return t->hook ? t->hook(t->hook_ctx, e) : 0;
}

/* The first entry of @t->by_id for @id */
static uint32_t first_of(const struct p2d_tracing *t, uint16_t id)
{
	uint32_t lo = 0, hi = t->nr_by_id, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((t->by_id[mid] >> 32) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * p2d_tracing_load - parse the formats of event @id (p2d_tracing_need())
 * @t: tracing data
 * @id: the event id
 *
 * Every format of that id, in parsing order, as libtraceevent parsed them
 * all before: it then finds the event as it did.
 *
 * Returns 1 when libtraceevent knows the event, 0 when no format
 * describes it, or a negative errno (message recorded).
 */
int p2d_tracing_load(struct p2d_tracing *t, uint16_t id)
{
	uint32_t k;
	int ret;

	if (test_bit(t->known, id))
		return 1;
	if (!t->pending || !test_bit(t->pending, id))
		return 0;
	t->pending[id / 8] &= (uint8_t)~(1u << (id % 8));
	for (k = first_of(t, id); k < t->nr_by_id && (t->by_id[k] >> 32) == id; k++) {
		ret = p2d_tracing_parse_format(t, (uint32_t)t->by_id[k]);
		if (ret)
			return ret;
	}
	return test_bit(t->known, id);
}

/* Parse now every format not parsed on demand: ftrace's, odd ones, their ids' */
static int parse_at_once(struct p2d_tracing *t)
{
	uint32_t i, k;
	uint16_t id;
	int ret;

	for (i = 0; i < t->nr_formats; i++) {
		if (t->formats[i].id >= 0)
			continue;
		ret = p2d_tracing_parse_format(t, i);
		if (ret)
			return ret;
	}
	/* then every format of their ids (by_id, not all 65536 ids: most have none) */
	for (k = 0; k < t->nr_by_id; k++) {
		id = (uint16_t)(t->by_id[k] >> 32);
		if (!test_bit(t->pending, id) || !test_bit(t->known, id))
			continue;
		t->known[id / 8] &= (uint8_t)~(1u << (id % 8));
		ret = p2d_tracing_load(t, id);
		set_bit(t->known, id);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/**
 * p2d_tracing_index - read the first lines of every format, parse some
 * @t: tracing data, its sections read, header_page parsed
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_tracing_index(struct p2d_tracing *t)
{
	uint32_t i, s, j, n = t->nr_ftrace;

	/* the systems' first formats are numbered as they are read (tracing.c) */
	if (t->nr_systems)
		n = t->systems[t->nr_systems - 1].first + t->systems[t->nr_systems - 1].nr_events;
	t->formats = calloc(n ? n : 1, sizeof(*t->formats));
	t->by_id = calloc(n ? n : 1, sizeof(*t->by_id));
	if (!t->formats || !t->by_id)
		return -ENOMEM;
	t->nr_formats = n;
	for (i = 0; i < n; i++)
		t->formats[i].id = -1;
	for (s = 0; s < t->nr_systems; s++) {
		for (j = 0; j < t->systems[s].nr_events; j++) {
			i = t->systems[s].first + j;
			if (!read_head(&t->systems[s].events[j], &t->formats[i]))
				continue;
			set_bit(t->pending, t->formats[i].id);
			set_bit(t->present, t->formats[i].id);
			if (t->formats[i].id > t->max_id)
				t->max_id = t->formats[i].id;
			t->by_id[t->nr_by_id++] = (uint64_t)t->formats[i].id << 32 | i;
		}
	}
	qsort(t->by_id, t->nr_by_id, sizeof(*t->by_id), cmp_u64);
#ifdef P2D_FORMATS_AT_ONCE
	/*
	 * Every format now, as before formats were parsed on demand: a build
	 * with this defined writes them all (tests/tools/cmp-builds.sh)
	 */
	for (i = 0; i < n; i++)
		t->formats[i].id = -1;
#endif
	return parse_at_once(t);
}

/**
 * p2d_tracing_each_event - every event of the recording, parsed or not
 * @t: tracing data
 * @fn: called for each, by id (those of libtraceevent first among equal ids)
 * @ctx: passed to @fn
 *
 * The events libtraceevent has (ftrace's, those parsed, those perf2dat
 * added) and those of the formats not parsed yet, named by their first
 * line.
 *
 * Returns 0, or the first value of @fn that is not 0.
 */
int p2d_tracing_each_event(const struct p2d_tracing *t, p2d_tracing_event_fn fn, void *ctx)
{
	int i = 0, n = tep_get_events_count(t->tep), ret;
	const struct p2d_tformat *fi;
	const struct p2d_tsystem *sys;
	struct tep_event *e;
	char name[256];
	uint32_t u = 0, j;

	for (;;) {
		while (u < t->nr_by_id &&
		       t->formats[(uint32_t)t->by_id[u]].state != P2D_FORMAT_UNREAD)
			u++;
		e = i < n ? tep_get_event(t->tep, i) : NULL;
		if (!e && u >= t->nr_by_id)
			return 0;
		if (e && (u >= t->nr_by_id || e->id <= (int)(t->by_id[u] >> 32))) {
			ret = fn(ctx, e->system, e->name, e->id);
			i++;
		} else {
			fi = &t->formats[(uint32_t)t->by_id[u]];
			sys = system_of(t, (uint32_t)t->by_id[u], &j);
			memcpy(name, fi->name, fi->name_len);
			name[fi->name_len] = '\0';
			ret = sys ? fn(ctx, sys->name, name, fi->id) : 0;
			u++;
		}
		if (ret)
			return ret;
	}
}

/* What p2d_tracing_find_event() looks for */
struct find_event {
	const char	*system;
	const char	*name;
	int		id;
};

static int found_event(void *ctx, const char *system, const char *name, int id)
{
	struct find_event *f = ctx;

	if (strcmp(system, f->system) || strcmp(name, f->name))
		return 0;
	f->id = id;
	return 1;
}

/**
 * p2d_tracing_find_event - the id of an event of the recording, by name
 * @t: tracing data
 * @system: its system
 * @name: its name
 *
 * Its format parsed or not (p2d_tracing_each_event()).
 *
 * Returns the id of the first such event, or -1 when there is none.
 */
int p2d_tracing_find_event(const struct p2d_tracing *t, const char *system, const char *name)
{
	struct find_event f = { system, name, -1 };

	p2d_tracing_each_event(t, found_event, &f);
	return f.id;
}

/**
 * p2d_tracing_set_hook - be told of each format parsed from now on
 * @t: tracing data
 * @hook: called with each event libtraceevent makes of one, or NULL
 * @ctx: passed to @hook
 */
void p2d_tracing_set_hook(struct p2d_tracing *t, p2d_tracing_hook hook, void *ctx)
{
	t->hook = hook;
	t->hook_ctx = ctx;
}
