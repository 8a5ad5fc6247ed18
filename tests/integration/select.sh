#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf2dat's selection options (-e, --cpu, --time, --pid, --tid) against
# perf script given the same selection (tests/select-lib.sh), and the summary
# line's count of the events left out.
. "$TOP_SRCDIR/tests/lib.sh"
# perf runs isolated (tests/tools/perf-isolated: an empty --symfs): so does
# perf2dat, whose user addresses then stay numbers, as perf shows them
mkdir -p "$tmp/none"
convert() {
	"$PERF2DAT" -q --symfs "$tmp/none" "$@"
}
. "$TOP_SRCDIR/tests/integration/select-lib.sh"
need_tools

run_selection_checks

# an event that is not a tracepoint, by perf's name, with --cpu: perf script's
# software-event samples of that CPU (its tracepoints printed in no line)
"$PERF2DAT" -q --no-callchain --symfs "$tmp/none" -e cpu-clock --cpu 0 "$DATA/mixed.data" \
	-o "$tmp/c.dat" ||
	fail "-e cpu-clock: conversion"
"$PERF" script -f -i "$DATA/mixed.data" -F sw:comm,tid,cpu,time,event,ip,period -F trace: --ns -G \
	--cpu 0 > "$tmp/c.samples" 2> "$tmp/perf.err" || fail "-e cpu-clock: perf script: $(cat "$tmp/perf.err")"
: > "$tmp/c.perf"
report "$tmp/c.dat" > "$tmp/c.report"
"$PYTHON3" "$COMPARE" "$tmp/c.perf" "$tmp/c.report" --samples "$tmp/c.samples" \
	--name "-e cpu-clock --cpu 0" || fail "-e cpu-clock --cpu 0 differs from perf script"

# the summary counts what the selection left out
"$PERF2DAT" --cpu 1 "$DATA/sample.data" -o "$tmp/s.dat" > "$tmp/out" || fail "summary: conversion"
kept=$(sed -n 's/^perf2dat: \([0-9]*\) events (\([0-9]*\) left out by the selection).*$/\1/p' "$tmp/out")
out=$(sed -n 's/^perf2dat: \([0-9]*\) events (\([0-9]*\) left out by the selection).*$/\2/p' "$tmp/out")
[ -n "$kept" ] && [ $((kept + out)) -eq 629 ] || fail "summary line: $(cat "$tmp/out")"
# with compression, the summary's ratio is about the real one
for sel in "" "-e sched:sched_switch --cpu 1 --time 10%"; do
	# shellcheck disable=SC2086
	"$PERF2DAT" -f $sel "$DATA/sample.data" -o "$tmp/u.dat" > /dev/null || fail "ratio: plain"
	# shellcheck disable=SC2086
	"$PERF2DAT" -f $sel --compression zstd "$DATA/sample.data" -o "$tmp/z.dat" > "$tmp/out" ||
		fail "ratio: zstd"
	shown=$(sed -n 's/^.*, compressed \([0-9.]*\):1)$/\1/p' "$tmp/out")
	[ -n "$shown" ] || fail "no compression ratio: $(cat "$tmp/out")"
	awk -v u="$(wc -c < "$tmp/u.dat")" -v z="$(wc -c < "$tmp/z.dat")" -v s="$shown" \
		'BEGIN { r = u / z; exit !(s > r * 0.9 && s < r * 1.1) }' ||
		fail "compression ratio shown $shown:1, real $(wc -c < "$tmp/u.dat")/$(wc -c < "$tmp/z.dat")"
	echo "compression ratio [$sel]: shown $shown:1, real $(wc -c < "$tmp/u.dat")/$(wc -c < "$tmp/z.dat")"
done
echo "PASS: select"
