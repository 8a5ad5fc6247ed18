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

/* Would the sched_switch plugin loop on this format of system @sys? */
static bool plugin_loops(struct p2d_tracing *t, const struct p2d_span *f, const char *sys)
{
	static const char name[] = "name: sched_switch\n";
	const struct tep_print_arg *arg;
	struct tep_event *ev;
	struct tep_handle *tep;
	bool loops = false;

	if (strcmp(sys, "sched") != 0 || f->len < sizeof(name) - 1 ||
	    memcmp(f->data, name, sizeof(name) - 1) != 0)
		return false;
	tep = tep_alloc();
	if (!tep)
		return false;
	p2d_tracing_setup_tep(tep, t);
	if (!tep_parse_event(tep, (char *)f->data, f->len, sys)) {
		ev = tep_find_event_by_name(tep, "sched", "sched_switch");
		if (ev && tep_find_field(ev, "prev_state"))
			for (arg = ev->print_fmt.args; arg && !loops; arg = arg->next)
				loops = zero_flag(arg, 0);
	}
	tep_free(tep);
	return loops;
}

/**
 * p2d_tracing_drop_looping - drop format @i if a libtraceevent plugin would
 * loop forever on it
 * @d: diagnostics
 * @t: tracing data
 * @i: the format's index (p2d_tracing_format()), one libtraceevent
 *	survives (tracing-probe.c)
 * @off: the tracing data's input offset, for messages
 *
 * Returns true when it was dropped.
 */
bool p2d_tracing_drop_looping(struct p2d_diag *d, struct p2d_tracing *t, uint32_t i, uint64_t off)
{
	struct p2d_span *f;
	const char *sys;

	f = p2d_tracing_format(t, i, &sys);
	if (!f || !f->len || !plugin_loops(t, f, sys))
		return false;
	p2d_warn(d, off, "tracing data: format %u (sched_switch) has a prev_state flag of"
		 " value 0, on which libtraceevent's sched_switch plugin loops forever:"
		 " its events are skipped", i);
	f->len = 0;
	return true;
}
