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

/**
 * p2d_tracing_plugin_loops - would libtraceevent's sched_switch plugin loop
 * forever on event @ev?
 * @ev: an event just parsed (tracing-index.c)
 *
 * The event parsed is looked at, not its format again: a format is parsed
 * once. The caller drops the format (it is not written, its events are
 * skipped).
 *
 * Returns true when it would.
 */
bool p2d_tracing_plugin_loops(struct tep_event *ev)
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
