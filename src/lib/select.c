// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Selection: which tracepoint samples a conversion keeps.
 *
 * The caller's strings (&struct p2d_options events, cpus, time, pids, tids)
 * are checked when the conversion starts, so a typo fails before any input
 * is read. What needs the recording (the event formats, the first and last
 * sample times for percentages, the CPU count) is resolved at the first
 * event. The time syntax and its semantics are those of perf script --time.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>

#include "select.h"
#include "tracing.h"

#define NR_EVENT_IDS	65536		/* common_type is a u16 */
#define MAX_RANGES	1024		/* list items and time ranges */

/** struct id_range - an inclusive range of ids (CPUs, pids, tids) */
struct id_range {
	uint32_t	lo;
	uint32_t	hi;
};

/** struct id_list - a parsed list such as "0,2-3" */
struct id_list {
	struct id_range	*r;
	unsigned int	nr;
};

/**
 * struct time_range - one perf script --time window
 * @start: first ns kept; 0 when open
 * @end: last ns kept; 0 when open
 * @start_pct: fraction of the recording, for percentages (resolved later)
 * @end_pct: fraction of the recording, for percentages
 */
struct time_range {
	uint64_t	start;
	uint64_t	end;
	double		start_pct;
	double		end_pct;
};

/**
 * struct p2d_select - the selection of one conversion
 * @active: something is selected (otherwise every event is kept)
 * @resolved: the parts that need the recording are resolved
 * @ids: bitmap of the selected event ids, NULL when -e was not given
 * @cpus: the --cpu list
 * @pids: the --pid list
 * @tids: the --tid list
 * @times: the --time windows
 * @nr_times: count of @times
 * @percent: @times are percentages of the recording, not resolved yet
 * @tod: @times are times of day (--tod), not shifted to the recorded clock yet
 * @o: the caller's options (the strings, for messages)
 */
struct p2d_select {
	bool			active;
	bool			resolved;
	uint8_t			*ids;
	struct id_list		cpus;
	struct id_list		pids;
	struct id_list		tids;
	struct time_range	*times;
	unsigned int		nr_times;
	bool			percent;
	bool			tod;
	const struct p2d_options *o;
};

/* ------------------------------------------------------------------------ */
/* Lists: "N", "N-M", comma separated                                       */

static int parse_u32(const char *s, const char *end, uint32_t *v)
{
	uint64_t n = 0;

	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		n = n * 10 + (uint64_t)(*s - '0');
		if (n > UINT32_MAX)
			return -ERANGE;
	}
	*v = (uint32_t)n;
	return 0;
}

static int parse_item(const char *s, const char *end, struct id_range *r)
{
	const char *dash = memchr(s, '-', (size_t)(end - s));

	if (!dash) {
		if (parse_u32(s, end, &r->lo))
			return -EINVAL;
		r->hi = r->lo;
		return 0;
	}
	if (parse_u32(s, dash, &r->lo) || parse_u32(dash + 1, end, &r->hi))
		return -EINVAL;
	return r->hi < r->lo ? -ERANGE : 0;
}

static int parse_list(struct p2d_diag *d, const char *opt, const char *str,
		      struct id_list *l)
{
	const char *s = str, *end;
	size_t n = 1;

	for (end = str; *end; end++)
		n += *end == ',';
	if (n > MAX_RANGES)
		return p2d_error(d, P2D_NO_OFFSET, -E2BIG, "%s %s: more than %d items",
				 opt, str, MAX_RANGES);
	l->r = calloc(n, sizeof(*l->r));
	if (!l->r)
		return -ENOMEM;
	for (;;) {
		end = strchrnul(s, ',');
		if (parse_item(s, end, &l->r[l->nr]))
			return p2d_error(d, P2D_NO_OFFSET, -EINVAL,
					 "%s %s: '%.*s' is not a number or a range N-M",
					 opt, str, (int)(end - s), s);
		l->nr++;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static bool in_list(const struct id_list *l, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++) {
		if (v >= l->r[i].lo && v <= l->r[i].hi)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------------ */
/* Times: perf script --time                                                */

/* "SEC[.FRACTION]" with at most 9 fraction digits, or empty (open end: 0) */
static int parse_ns(const char *s, const char *end, uint64_t *ns)
{
	const char *dot = memchr(s, '.', (size_t)(end - s));
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	*ns = 0;
	if (s == end)
		return 0;
	for (; s < (dot ? dot : end); s++) {
		if (*s < '0' || *s > '9' || sec > UINT64_MAX / 10000000000ull)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (dot) {
		for (s = dot + 1; s < end; s++, digits++) {
			if (*s < '0' || *s > '9' || digits == 9)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
	}
	*ns = sec * 1000000000ull + frac;
	return 0;
}

static int time_error(struct p2d_diag *d, const char *time, const char *what)
{
	return p2d_error(d, P2D_NO_OFFSET, -EINVAL, "the time option %s: %s (START,STOP in seconds,"
			 " e.g. 1234.5,1235 or 1234.5, or percentages: 10%%, 0%%-10%%,30%%-40%%,"
			 " 10%%/2)", time, what);
}

/* "START,STOP START,STOP ...": windows separated by blanks, in order */
static int parse_time_windows(struct p2d_diag *d, struct p2d_select *sel, const char *str)
{
	const char *s = str, *comma, *end;
	struct time_range *t;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (sel->nr_times == MAX_RANGES)
			return time_error(d, sel->o->time, "too many windows");
		comma = s + strcspn(s, ", \t");
		if (*comma != ',')
			return time_error(d, sel->o->time, "a window needs a comma");
		end = comma + 1;
		while (*end == ' ' || *end == '\t')
			end++;
		end += strcspn(end, ", \t");
		if (*end == ',')
			return time_error(d, sel->o->time, "windows are separated by blanks");
		t = &sel->times[sel->nr_times];
		if (parse_ns(s, comma, &t->start) ||
		    parse_ns(comma + 1 + strspn(comma + 1, " \t"), end, &t->end))
			return time_error(d, sel->o->time, "not a time in seconds");
		if (t->end && t->end < t->start)
			return time_error(d, sel->o->time, "a window ends before it starts");
		if (sel->nr_times && t[-1].end >= t->start)
			return time_error(d, sel->o->time, "windows overlap or are out of order");
		sel->nr_times++;
		s = end;
	}
	return sel->nr_times ? 0 : time_error(d, sel->o->time, "no window");
}

/* "P%" at [s, end): the fraction P/100 */
static int parse_pct(const char *s, const char *end, double *pct)
{
	char buf[64], *e;

	if (end - s < 2 || end[-1] != '%' || (size_t)(end - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, (size_t)(end - s - 1));
	buf[end - s - 1] = '\0';
	*pct = strtod(buf, &e);
	if (e == buf || *e)
		return -EINVAL;
	*pct /= 100.0;
	return 0;
}

/* "P%/N": the Nth slice of P%; "A%-B%": from A% to B%; "P%": the first P% */
static int parse_pct_window(const char *s, const char *end, char form, struct time_range *t)
{
	const char *sep = form ? memchr(s, form, (size_t)(end - s)) : NULL;
	double pct;
	char *e;
	long n;

	if (form && !sep)
		return -EINVAL;
	if (form == '-') {
		if (parse_pct(s, sep, &t->start_pct) || parse_pct(sep + 1, end, &t->end_pct))
			return -EINVAL;
		return 0;
	}
	if (parse_pct(s, form ? sep : end, &pct) || pct <= 0.0)
		return -EINVAL;
	n = 1;
	if (form) {
		n = strtol(sep + 1, &e, 10);
		if (e == sep + 1 || e != end)
			return -EINVAL;
	}
	t->start_pct = pct * (double)(n - 1);
	t->end_pct = pct * (double)n;
	return 0;
}

static int parse_percentages(struct p2d_diag *d, struct p2d_select *sel, const char *str)
{
	char form = strchr(str, '/') ? '/' : strchr(str, '-') ? '-' : 0;
	const char *s = str, *end;
	struct time_range *t;

	sel->percent = true;
	for (;;) {
		end = strchrnul(s, form ? ',' : '\0');
		if (sel->nr_times == MAX_RANGES)
			return time_error(d, sel->o->time, "too many windows");
		t = &sel->times[sel->nr_times++];
		if (parse_pct_window(s, end, form, t))
			return time_error(d, sel->o->time, "not a percentage window");
		if (t->start_pct < 0.0 || t->start_pct > 1.0 || t->end_pct < 0.0 ||
		    t->end_pct > 1.0)
			return time_error(d, sel->o->time, "a percentage beyond 0%-100%");
		if (!*end)
			return 0;
		s = end + 1;
	}
}

static int parse_time(struct p2d_diag *d, struct p2d_select *sel, const char *str)
{
	sel->times = calloc(MAX_RANGES, sizeof(*sel->times));
	if (!sel->times)
		return -ENOMEM;
	if (strchr(str, '%'))
		return parse_percentages(d, sel, str);
	sel->tod = sel->o->tod;
	return parse_time_windows(d, sel, str);
}

static uint64_t round_u64(double x)
{
	uint64_t t = (uint64_t)x;

	return x - (double)t >= 0.5 ? t + 1 : t;
}

/*
 * Percentages are of [first, last], the sample times perf saved in the file
 * header (file mode only). Returns false when the recording has none.
 */
static bool resolve_percentages(struct p2d_select *sel, const struct p2d_meta *m)
{
	uint64_t first = m->sample_time_first, last = m->sample_time_last;
	unsigned int i;

	if (!m->has_sample_time || (!first && !last) || last < first)
		return false;
	for (i = 0; i < sel->nr_times; i++) {
		struct time_range *t = &sel->times[i];

		t->start = first + round_u64(t->start_pct * (double)(last - first));
		t->end = first + round_u64(t->end_pct * (double)(last - first));
		if (t->end > t->start && t->end != last)
			t->end--;
	}
	sel->percent = false;
	return true;
}

/* A time of day (0: an open end) as the recorded clock (@off: its offset); at least 1 */
static uint64_t tod_to_clock(uint64_t t, int64_t off)
{
	uint64_t back = off < 0 ? 0 : (uint64_t)off, ahead = off < 0 ? -(uint64_t)off : 0;

	if (!t)
		return 0;
	if (ahead)
		return t > UINT64_MAX - ahead ? UINT64_MAX : t + ahead;
	return t > back ? t - back : 1;
}

/*
 * With --tod, trace-cmd report prints the recorded clock plus the DATE
 * offset: windows in those times are moved back to the recorded clock.
 * Returns false when the recording has no clock data.
 */
static bool resolve_tod(struct p2d_select *sel, const struct p2d_meta *m)
{
	unsigned int i;
	int64_t off;

	if (!p2d_tod_offset(m, &off))
		return false;
	for (i = 0; i < sel->nr_times; i++) {
		struct time_range *t = &sel->times[i];

		t->start = tod_to_clock(t->start, off);
		t->end = tod_to_clock(t->end, off);
	}
	sel->tod = false;
	return true;
}

/* perf script's rule: one window may be open at either end; several are inclusive */
static bool in_time(const struct p2d_select *sel, uint64_t ts)
{
	const struct time_range *t = sel->times;
	unsigned int i;

	if (!sel->nr_times || !ts)
		return true;
	if (sel->nr_times == 1)
		return !((t->start && ts < t->start) || (t->end && ts > t->end));
	for (i = 0; i < sel->nr_times; i++, t++) {
		if (ts >= t->start && (ts <= t->end || !t->end))
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------------ */
/* Events: SYSTEM:EVENT, EVENT or SYSTEM, with shell wildcards              */

static bool event_matches(const char *pattern, const char *system, const char *name)
{
	const char *colon = strchr(pattern, ':');
	char sys[256];

	if (!colon)
		return !fnmatch(pattern, system, 0) || !fnmatch(pattern, name, 0);
	if ((size_t)(colon - pattern) >= sizeof(sys))
		return false;
	memcpy(sys, pattern, (size_t)(colon - pattern));
	sys[colon - pattern] = '\0';
	return !fnmatch(sys, system, 0) && !fnmatch(colon + 1, name, 0);
}

/*
 * perf's name of an event that is not a tracepoint, as perf2dat names its
 * perf:* event (cpu-clock -> cpu_clock, cycles:P -> cycles_P; synth.c)
 */
static void as_event_name(const char *pattern, char *out, size_t size)
{
	size_t i;

	for (i = 0; pattern[i] && i < size - 1; i++) {
		char c = pattern[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 strchr("_*?[]!", c) ? c : '_';
	}
	out[i] = '\0';
}

/* The events named in no_such_event()'s message */
struct event_list {
	char	text[300];
	size_t	len;
};

static int list_event(void *ctx, const char *system, const char *name, int id)
{
	struct event_list *l = ctx;

	(void)id;
	if (!strcmp(system, "ftrace"))
		return 0;
	l->len += (size_t)snprintf(l->text + l->len, sizeof(l->text) - l->len, "%s%s:%s",
				   l->len ? ", " : "", system, name);
	return l->len >= sizeof(l->text) - 1;
}

static int no_such_event(struct p2d_diag *d, const struct p2d_tracing *t, const char *pattern)
{
	struct event_list l = { "", 0 };

	p2d_tracing_each_event(t, list_event, &l);
	if (l.len >= sizeof(l.text) - 1)
		strcpy(l.text + sizeof(l.text) - 5, "...");
	return p2d_error(d, P2D_NO_OFFSET, -ENOENT, "-e %s: no such event in the recording"
			 " (it has %s)", pattern, l.len ? l.text : "no tracepoint formats");
}

/* What one -e pattern selects */
struct event_match {
	struct p2d_select	*sel;
	const char		*pattern;
	char			name[256];	/* the pattern as a perf:* event name */
	bool			found;
};

static int match_event(void *ctx, const char *system, const char *name, int id)
{
	struct event_match *m = ctx;

	if (id < 0 || id >= NR_EVENT_IDS ||
	    !(event_matches(m->pattern, system, name) ||
	      (!strcmp(system, "perf") && event_matches(m->name, system, name))))
		return 0;
	m->sel->ids[id / 8] |= (uint8_t)(1u << (id % 8));
	m->found = true;
	return 0;
}

/* By the formats' names: those not parsed yet are parsed only if their events come */
static int resolve_events(struct p2d_diag *d, struct p2d_select *sel,
			  const struct p2d_tracing *t)
{
	const struct p2d_options *o = sel->o;
	struct event_match m = { .sel = sel };
	unsigned int p;

	sel->ids = calloc(NR_EVENT_IDS / 8, 1);
	if (!sel->ids)
		return -ENOMEM;
	for (p = 0; p < o->nr_events; p++) {
		m.pattern = o->events[p];
		m.found = false;
		as_event_name(o->events[p], m.name, sizeof(m.name));
		p2d_tracing_each_event(t, match_event, &m);
		if (!m.found)
			return no_such_event(d, t, o->events[p]);
	}
	return 0;
}

/* ------------------------------------------------------------------------ */

static int resolve_cpus(struct p2d_diag *d, struct p2d_select *sel, const struct p2d_meta *m)
{
	uint32_t nr = m->nr_cpus_avail;
	unsigned int i;

	for (i = 0; nr && i < sel->cpus.nr; i++) {
		if (sel->cpus.r[i].hi >= nr)
			return p2d_error(d, P2D_NO_OFFSET, -ERANGE, "the cpus option %s: the recording"
					 " has CPUs 0-%u", sel->o->cpus, nr - 1);
	}
	return 0;
}

/**
 * p2d_select_resolve - resolve what needs the recording, at its first event
 * @sel: selection
 * @d: diagnostics
 * @m: the recording's metadata
 * @t: its tracing data (event formats)
 * @has_pid: its samples carry pids
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_select_resolve(struct p2d_select *sel, struct p2d_diag *d, const struct p2d_meta *m,
		       const struct p2d_tracing *t, bool has_pid)
{
	int ret = 0;

	if (sel->resolved || !sel->active)
		return 0;
	sel->resolved = true;
	if (sel->o->nr_events)
		ret = resolve_events(d, sel, t);
	if (!ret && sel->percent && !resolve_percentages(sel, m))
		ret = p2d_error(d, P2D_NO_OFFSET, -ENODATA, "the time option %s: percentages need the"
				" first and last sample times of the perf.data header, and this"
				" recording has none (pipe mode): give START,STOP in seconds"
				" instead", sel->o->time);
	if (!ret && sel->tod && !resolve_tod(sel, m))
		ret = p2d_no_tod(d, m);
	if (!ret && sel->cpus.nr)
		ret = resolve_cpus(d, sel, m);
	if (!ret && (sel->pids.nr || sel->tids.nr) && !has_pid)
		ret = p2d_error(d, P2D_NO_OFFSET, -ENOTSUP, "the pids and tids options: the samples of"
				" this recording carry no pid (PERF_SAMPLE_TID)");
	return ret;
}

/**
 * p2d_select_new - check the selection options of a conversion
 * @d: diagnostics
 * @o: the caller's options, which hold the strings (kept: they must live
 *	as long as the selection)
 * @out: set to the selection, to free with p2d_select_free()
 *
 * Messages name the command-line options of perf2dat (-e, --cpu, --time,
 * --pid, --tid).
 *
 * Returns 0 or a negative errno (message recorded).
 */
int p2d_select_new(struct p2d_diag *d, const struct p2d_options *o, struct p2d_select **out)
{
	struct p2d_select *sel;
	unsigned int i;
	int ret = 0;

	*out = sel = calloc(1, sizeof(*sel));
	if (!sel)
		return -ENOMEM;
	sel->o = o;
	for (i = 0; i < o->nr_events; i++) {
		if (!o->events[i] || !*o->events[i])
			return p2d_error(d, P2D_NO_OFFSET, -EINVAL, "-e: empty event name");
	}
	if (o->cpus)
		ret = parse_list(d, "the cpus option", o->cpus, &sel->cpus);
	if (!ret && o->pids)
		ret = parse_list(d, "the pids option", o->pids, &sel->pids);
	if (!ret && o->tids)
		ret = parse_list(d, "the tids option", o->tids, &sel->tids);
	if (!ret && o->time)
		ret = parse_time(d, sel, o->time);
	sel->active = o->nr_events || o->cpus || o->pids || o->tids || o->time;
	return ret;
}

/**
 * p2d_select_active - does the selection leave anything out?
 * @sel: selection
 */
bool p2d_select_active(const struct p2d_select *sel)
{
	return sel->active;
}

/**
 * p2d_select_keep - is this tracepoint event selected?
 * @sel: selection, resolved (p2d_select_resolve())
 * @ev: the event, as the import handler delivers it
 * @id: its event id (common_type)
 *
 * Returns true to keep the event.
 */
bool p2d_select_keep(const struct p2d_select *sel, const struct p2d_event *ev, uint16_t id)
{
	if (!sel->active)
		return true;
	return !((sel->ids && !(sel->ids[id / 8] & (1u << (id % 8)))) ||
		 (sel->cpus.nr && !in_list(&sel->cpus, ev->cpu)) ||
		 (sel->pids.nr && !in_list(&sel->pids, ev->pid)) ||
		 (sel->tids.nr && !in_list(&sel->tids, ev->tid)) ||
		 !in_time(sel, ev->ts));
}

/**
 * p2d_select_lost - place a loss of events in the output?
 * @sel: selection
 * @m: the recording's metadata
 * @cpu: CPU the events were lost on
 * @ts: when (UINT64_MAX: at the end of the recording)
 *
 * Losses are placed on the selected CPUs within the selected time; the
 * other selections cannot tell whose events were lost, so they do not
 * apply.
 *
 * Returns true to place the loss.
 */
bool p2d_select_lost(struct p2d_select *sel, const struct p2d_meta *m, uint32_t cpu, uint64_t ts)
{
	if (!sel->active)
		return true;
	if (sel->cpus.nr && !in_list(&sel->cpus, cpu))
		return false;
	if ((sel->percent && !resolve_percentages(sel, m)) || (sel->tod && !resolve_tod(sel, m)))
		return true;	/* the first event reports it */
	return in_time(sel, ts);
}

/**
 * p2d_select_free - free a selection
 * @sel: selection, may be NULL
 */
void p2d_select_free(struct p2d_select *sel)
{
	if (!sel)
		return;
	free(sel->ids);
	free(sel->cpus.r);
	free(sel->pids.r);
	free(sel->tids.r);
	free(sel->times);
	free(sel);
}
