#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf2dat --all: the side-band records as perf:* events, against perf
# script --show-task-events --show-mmap-events --show-switch-events
# --show-lost-events (compare.py --sideband --records-only): every COMM,
# FORK, EXIT, MMAP, MMAP2, SWITCH_CPU_WIDE and LOST record with the same CPU,
# time, tid and numbers. perf script 6.1 cannot show THROTTLE records: their
# count is checked against perf report --stats. Without --all there is none.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "trace-cmd, perf and python3 are needed"
	fi
done
all_throttles=0
for input in mixed.data switches.data lost.data; do
	"$PERF2DAT" -q -f --all --no-callchain "$DATA/$input" -o "$tmp/out.dat" ||
		fail "$input: conversion"
	"$TRACE_CMD" report -N -t "$tmp/out.dat" > "$tmp/report" 2> "$tmp/report.err" ||
		fail "$input: trace-cmd report: $(cat "$tmp/report.err")"
	"$PERF" script -f -i "$DATA/$input" --show-task-events --show-mmap-events \
		--show-switch-events --show-lost-events -F comm,tid,cpu,time --ns \
		> "$tmp/perf" 2> /dev/null || fail "$input: perf script"
	: > "$tmp/empty"
	"$PYTHON3" "$COMPARE" "$tmp/empty" "$tmp/report" --sideband "$tmp/perf" --records-only \
		--name "$input --all" || fail "$input: the side-band records differ from perf script"
	throttles=$("$PERF" report -f --stats -i "$DATA/$input" 2> /dev/null |
		sed -n 's/^ *THROTTLE events: *\([0-9]*\).*$/\1/p')
	got=$(grep -c ' throttle: ' "$tmp/report")
	[ "$got" -eq "${throttles:-0}" ] ||
		fail "$input: $got perf:throttle events, perf report --stats says ${throttles:-0}"
	all_throttles=$((all_throttles + got))
	"$PERF2DAT" -q -f "$DATA/$input" -o "$tmp/plain.dat" || fail "$input: plain conversion"
	"$TRACE_CMD" report -N "$tmp/plain.dat" > "$tmp/plain.report" 2> /dev/null ||
		fail "$input: trace-cmd report of the plain conversion"
	grep -Eq '\[[0-9]+\] +([^ :]{4,5} +)?[0-9]+\.[0-9]+: ' "$tmp/plain.report" ||
		fail "$input: no events in the plain conversion"
	if grep -Eq ' (comm|fork|exit|mmap|switch|lost|throttle): ' "$tmp/plain.report"; then
		fail "$input: side-band events without --all"
	fi
	# with stacks too: no event takes the id libtracecmd gives its made-up
	# blktrace event (after ftrace:user_stack), as perf:lost once did
	"$PERF2DAT" -q -f --all --kallsyms none "$DATA/$input" -o "$tmp/stacks.dat" ||
		fail "$input: --all with stacks"
	"$TRACE_CMD" report "$tmp/stacks.dat" > "$tmp/stacks.report" 2> /dev/null ||
		fail "$input: trace-cmd report with stacks"
	grep -Eq '\[[0-9]+\] +([^ :]{4,5} +)?[0-9]+\.[0-9]+: ' "$tmp/stacks.report" ||
		fail "$input: no events with stacks"
	if grep -q ' blktrace: ' "$tmp/stacks.report"; then
		fail "$input: events shown as blktrace"
	fi
done
# (mixed.data has one THROTTLE record: the count above is not all 0 = 0)
checked "$all_throttles" "perf:throttle events"
# a --call-graph dwarf recording: the stack events' formats are perf2dat's,
# new ids, and a perf:* event (perf:exit) came right after ftrace:user_stack,
# on the id libtracecmd gives blktrace
"$PERF2DAT" -q -f --all --kallsyms none "$DATA/dwarf.data" -o "$tmp/dwarf.dat" ||
	fail "dwarf.data: --all"
"$TRACE_CMD" report "$tmp/dwarf.dat" > "$tmp/dwarf.report" 2> /dev/null ||
	fail "dwarf.data: trace-cmd report"
grep -q ' blktrace: ' "$tmp/dwarf.report" && fail "dwarf.data: events shown as blktrace"
grep -q ' exit: ' "$tmp/dwarf.report" && grep -q ' kernel_stack: ' "$tmp/dwarf.report" ||
	fail "dwarf.data: no perf:exit or kernel_stack event to check"
echo "PASS: all-records"
