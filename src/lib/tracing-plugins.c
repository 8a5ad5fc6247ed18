// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Formats that libtraceevent parses but whose plugins then never return.
 *
 * The sched_switch plugin of libtraceevent 1.8 (convert_sym() in
 * plugin_sched_switch.c) turns the __print_flags() symbols of prev_state
 * into a letter per bit by shifting each value right until its lowest set
 * bit: a value that reads as 0 makes that loop endless, so trace-cmd report
 * (and perf script) hang on the first sched_switch event. The kernel's own
 * format has no such value; a damaged recording can. Such a format is
 * dropped like one libtraceevent dies on (tracing-probe.c): its events are
 * skipped with a warning.
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "tracing.h"
#include "tracing-local.h"

/* A __print_flags() in @arg (as the plugin searches: through operators) with a 0 value */
static bool zero_flag(const struct tep_print_arg *arg, int depth)
{
	const struct tep_print_flag_sym *sym;

	if (!arg || depth > 64)
		return false;
	if (arg->type == TEP_PRINT_OP)
		return zero_flag(arg->op.left, depth + 1) || zero_flag(arg->op.right, depth + 1);
	if (arg->type != TEP_PRINT_FLAGS)
		return false;
	for (sym = arg->flags.flags; sym; sym = sym->next)
		if (!sym->value || !sym->str || !strtoul(sym->value, NULL, 0))
			return true;
	return false;
}

/* Would the sched_switch plugin loop on event @ev? */
static bool plugin_loops(struct tep_event *ev)
{
	const struct tep_print_arg *arg;
	bool loops = false;

	if (!ev->system || !ev->name || strcmp(ev->system, "sched") ||
	    strcmp(ev->name, "sched_switch") || !tep_find_field(ev, "prev_state"))
		return false;
	for (arg = ev->print_fmt.args; arg && !loops; arg = arg->next)
		loops = zero_flag(arg, 0);
	return loops;
}

/* Is @f a sched_switch format, of event @id (any id when negative)? */
static bool sched_switch_format(const struct p2d_span *f, const char *sys, int id)
{
	static const char name[] = "name: sched_switch\n";
	const char *p = f->data, *end = f->data + f->len;
	long v = -1;

	if (strcmp(sys, "sched") != 0 || f->len < sizeof(name) - 1 ||
	    memcmp(f->data, name, sizeof(name) - 1) != 0)
		return false;
	if (id < 0)
		return true;
	for (p += sizeof(name) - 1; p + 3 < end; p++) {
		if (memcmp(p, "ID:", 3) || (p > f->data && p[-1] != '\n'))
			continue;
		for (p += 3; p < end && *p == ' '; p++)
			;
		for (v = 0; p < end && *p >= '0' && *p <= '9' && v <= 65535; p++)
			v = v * 10 + (*p - '0');
		break;
	}
	return v == id;
}

/* Drop the sched_switch formats of event @id (every one when none matches) */
static void drop(struct p2d_diag *d, struct p2d_tracing *t, int id, uint64_t off)
{
	struct p2d_span *f;
	const char *sys;
	bool any = false;
	uint32_t i;
	int pass;

	for (pass = 0; pass < 2 && !any; pass++) {
		for (i = 0; (f = p2d_tracing_format(t, i, &sys)); i++) {
			if (!f->len || !sched_switch_format(f, sys, pass ? -1 : id))
				continue;
			p2d_warn(d, off, "tracing data: format %u (sched_switch) has a prev_state"
				 " flag of value 0, on which libtraceevent's sched_switch plugin"
				 " loops forever: its events are skipped", i);
			f->len = 0;
			any = true;
		}
	}
}

/**
 * p2d_tracing_drop_looping - drop the formats a libtraceevent plugin would
 * loop forever on
 * @d: diagnostics
 * @t: tracing data, its formats parsed into @t->tep
 * @off: the tracing data's input offset, for messages
 *
 * The events parsed are looked at, not the formats again: a format is
 * parsed once. libtraceevent cannot forget an event, so when this drops a
 * format, the caller parses the others again into a new handle.
 *
 * Returns true when a format was dropped.
 */
bool p2d_tracing_drop_looping(struct p2d_diag *d, struct p2d_tracing *t, uint64_t off)
{
	int i, n = tep_get_events_count(t->tep);
	struct tep_event *ev;
	bool dropped = false;

	for (i = 0; i < n; i++) {
		ev = tep_get_event(t->tep, i);
		if (ev && plugin_loops(ev)) {
			drop(d, t, ev->id, off);
			dropped = true;
		}
	}
	return dropped;
}
