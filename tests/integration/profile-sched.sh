#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# trace-cmd report --profile and trace-cmd hist of a perf sched record
# recording (tests/data/sched-record.data, perf 6.1: sched_switch and
# sched_waking, no sched_wakeup), counted per event against perf's own
# counts by tests/tools/self-counts.py --no-chains: --profile handles
# sched_switch only when the file has a format of sched_wakeup, and counts
# each switch out that a switch in of the same task ends.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
tools=$(cd "$(dirname "$0")/../tools" && pwd)
in=$DATA/sched-record.data
"$PERF2DAT" -q "$in" -o "$tmp/out.dat" 2> "$tmp/err" || fail "conversion: $(cat "$tmp/err")"
"$PERF" script -i "$in" -F tid,cpu,time,event,ip,sym,dso,trace --ns > "$tmp/script" 2> "$tmp/err" ||
	fail "perf script: $(tail -n 3 "$tmp/err")"
grep -q 'sched:sched_waking:' "$tmp/script" && ! grep -q 'sched:sched_wakeup:' "$tmp/script" ||
	fail "the recording is not one of sched_waking without sched_wakeup"
"$PERF" report -i "$in" --no-children --stdio -n -g none --sort sym > "$tmp/report" 2> "$tmp/err" ||
	fail "perf report: $(tail -n 3 "$tmp/err")"
"$TRACE_CMD" hist -P "$tmp/out.dat" > "$tmp/hist" 2> "$tmp/err" ||
	fail "trace-cmd hist: $(tail -n 3 "$tmp/err")"
"$TRACE_CMD" report --profile "$tmp/out.dat" > "$tmp/profile" 2> "$tmp/err" ||
	fail "trace-cmd report --profile: $(tail -n 3 "$tmp/err")"
grep -q 'Event: sched_switch:' "$tmp/profile" ||
	fail "report --profile shows no sched_switch:" \
		"$(grep 'Event:' "$tmp/profile" | sort | uniq -c | head)"
"$PYTHON3" "$tools/self-counts.py" --no-chains --label sched-record --script "$tmp/script" \
	--report "$tmp/report" --hist "$tmp/hist" --profile "$tmp/profile" ||
	fail "hist or report --profile counts differ from perf's (table above)"
echo "PASS: profile-sched: report --profile and hist count what perf counts" \
	"of perf sched record"
