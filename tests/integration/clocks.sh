#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The clock of a recording (issue 38, item 4; the timestamps themselves are
# compared with perf script by tests/e2e/clock-*.e2e):
# * cpu-clock recordings of perf record -k mono, boot, tai and realtime
#   (tests/data/clock-cc-*.data) get the trace clock of that name; boot and
#   realtime, which trace-cmd 3.1 to 3.4 do not know to count nanoseconds,
#   with a TSC2NSEC option of multiplier 1, so that trace-cmd report prints
#   seconds, not raw counts; the others without it. No warning.
# * attributes that disagree on the clock (one use_clockid bit flipped by
#   tests/tools/perf-rewrite.py) give the clock of the sampling events and
#   one warning naming the first odd attribute's offset; --tod then refuses a
#   CLOCK_DATA of another clock than the samples'.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat, trace-cmd and python3 are needed"
done
rewrite="$DATA/../tools/perf-rewrite.py"

# convert IN: the trace.dat in $tmp/out.dat, warnings in $tmp/err (no file
# of this host is looked at: its libraries are not the recording's)
mkdir "$tmp/root"
convert() {
	"$PERF2DAT" -f --kallsyms none --symfs "$tmp/root" "$@" -o "$tmp/out.dat" > "$tmp/out" \
		2> "$tmp/err" ||
		fail "$*: perf2dat: $(cat "$tmp/err")"
}
# clock_is NAME TSC2NSEC(yes|no) WHAT: what the trace.dat says and how report prints it
clock_is() {
	"$TRACE_CMD" dump --summary "$tmp/out.dat" > "$tmp/summary" 2>&1 || fail "$3: trace-cmd dump"
	grep -q "\"$1\" clock" "$tmp/summary" || fail "$3: not the $1 clock: $(grep clock "$tmp/summary")"
	"$TRACE_CMD" dump --options "$tmp/out.dat" > "$tmp/options" 2>&1 || fail "$3: dump --options"
	if grep -q '^1 0 0 \[multiplier, shift, offset\]$' "$tmp/options"; then
		[ "$2" = yes ] || fail "$3: a TSC2NSEC option for the $1 clock"
	else
		[ "$2" = no ] || fail "$3: no TSC2NSEC option of multiplier 1: $(cat "$tmp/options")"
	fi
	# "[000] SECONDS.MICROSECONDS:", not a count of nanoseconds (trace-cmd >=
	# 3.2 prints a latency column, "....", between them)
	n=$("$TRACE_CMD" report "$tmp/out.dat" 2> /dev/null |
		grep -Ec '\] +([^ :]{4,5} +)?[0-9]+\.[0-9]{6}: ')
	[ "$n" -gt 10 ] || fail "$3: report prints no times in seconds: $("$TRACE_CMD" report \
		"$tmp/out.dat" 2> /dev/null | sed -n 2p)"
}
no_warning() {
	! grep -q 'warning:.*clock' "$tmp/err" || fail "$1: $(cat "$tmp/err")"
}

for c in mono:mono:no boot:boot:yes tai:tai:no realtime:realtime:yes; do
	k=${c%%:*} rest=${c#*:}
	convert "$DATA/clock-cc-$k.data"
	clock_is "${rest%:*}" "${rest#*:}" "clock-cc-$k.data"
	no_warning "clock-cc-$k.data"
done
convert "$DATA/clock-raw-a.data"
clock_is mono_raw no clock-raw-a.data
no_warning clock-raw-a.data
convert "$DATA/mixed.data"
clock_is perf no mixed.data
no_warning mixed.data

# flip the use_clockid bit of attr N of IN into $tmp/in.data
flip() {
	"$PYTHON3" "$rewrite" --flip-clockid "$2" "$DATA/$1" "$tmp/in.data" 2> "$tmp/rw.err" ||
		fail "perf-rewrite.py: $(cat "$tmp/rw.err")"
}
one_warning() {
	[ "$(grep -c 'warning:' "$tmp/err")" -eq 1 ] && grep -q "$1" "$tmp/err" ||
		fail "$2: not one warning '$1': $(cat "$tmp/err")"
}
disagree='disagree on the clock'
taken='the timestamps are taken as'

# a tracepoint of a recording without -k says CLOCK_REALTIME: 3 sampling
# events, 2 of perf's clock
flip mixed.data 1
convert "$tmp/in.data"
one_warning "offset 0x138: the event attributes $disagree: 1 of 4 give another than perf; $taken perf, the clock of the sampling events" "mixed.data, attr 1"
clock_is perf no "mixed.data, attr 1"

# perf record -k raw -a: its dummy event (side-band records only) says perf's clock
flip clock-raw-a.data 3
convert "$tmp/in.data"
one_warning "offset 0x258: the event attributes and the clock data $disagree: 1 of 5 give another than mono_raw; $taken mono_raw" "clock-raw-a.data, attr 3"
clock_is mono_raw no "clock-raw-a.data, attr 3"

# the only event of a -k mono recording says perf's clock: the clock data disagrees
flip clock-cc-mono.data 0
convert "$tmp/in.data"
one_warning "$disagree: 1 of 2 give another than perf; $taken perf" "clock-cc-mono.data, attr 0"
clock_is perf no "clock-cc-mono.data, attr 0"
"$PERF2DAT" -q -f --tod --kallsyms none --symfs "$tmp/root" "$tmp/in.data" -o "$tmp/tod.dat" 2> "$tmp/err" &&
	fail "--tod with clock data of another clock succeeded"
grep -q -- '--tod: the clock data is of the mono clock, the samples were taken with the perf clock$' \
	"$tmp/err" || fail "--tod, clock data of another clock: $(cat "$tmp/err")"
[ ! -e "$tmp/tod.dat" ] || fail "--tod: output left after the error"

echo "PASS: clocks: mono, boot, tai, realtime, mono_raw, perf; disagreeing attributes warned of"
