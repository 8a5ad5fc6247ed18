# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the tests that compare trace-cmd report with perf script: both
# must print events with the same libtraceevent plugin setting. perf 6.1
# (Debian 12) prints tracepoints without plugins, perf 6.12 (Debian 13)
# through the system's plugins (sched_switch as "perf:8164 [120] S ==> ...").
# Sets NOPLUGINS to trace-cmd report's -N when perf prints a sched_wakeup of
# tests/data/sample.data with its raw fields (comm=...), else to nothing.
NOPLUGINS=-N
if [ -n "${PERF:-}" ] && "$PERF" script -f -i "$DATA/sample.data" -F trace:event,trace 2> /dev/null |
	grep -m 1 'sched:sched_wakeup:' | grep -qv 'comm='; then
	NOPLUGINS=
fi
