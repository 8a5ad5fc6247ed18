#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Call chains perf discards: tests/data/badfp.data has 200 samples whose
# chain holds a return address of -1 (a frame-pointer walk through a frame
# that is not one), a value of perf's context-marker range that is no
# marker; perf script prints them without frames. Converted, each must have
# no stack event while the recording's other chains are there, every kernel
# frame named as perf names it (tests/tools/names.py, against perf script
# with the recording's kernel symbols, tests/data/badfp.kallsyms); the
# summary counts the chains left out as many as perf prints samples without
# frames, and every sample is still an event.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat, trace-cmd, perf and python3 are needed"
done
rec=$DATA/badfp.data
ksyms=$DATA/badfp.kallsyms
export PERF_ISOLATED_KALLSYMS="$ksyms"

"$PERF2DAT" -f --kallsyms "$ksyms" "$rec" -o "$tmp/out.dat" > "$tmp/out" 2> "$tmp/err" ||
	fail "perf2dat: $(cat "$tmp/err")"
"$TRACE_CMD" report -t "$tmp/out.dat" > "$tmp/report" 2> "$tmp/report.err" ||
	fail "trace-cmd report: $(head -c 300 "$tmp/report.err")"
"$PERF" script -f -i "$rec" -F time,event,ip,sym --ns > "$tmp/perf" 2> /dev/null || fail "perf script"
"$PYTHON3" "$DATA/../tools/names.py" "$tmp/perf" "$tmp/report" --named > "$tmp/names" ||
	fail "$(cat "$tmp/names")"

# perf's samples without frames, and the chains perf2dat says it left out
frameless=$(sed -n 's/.*, \([0-9]*\) samples without frames as perf shows them$/\1/p' "$tmp/names")
[ -n "$frameless" ] && [ "$frameless" -gt 0 ] || fail "perf prints every sample with frames: $(cat "$tmp/names")"
left=$(sed -n 's/.*not converted: \([0-9]*\) call chains\{0,1\} perf drops (a stray context-marker value).*/\1/p' "$tmp/out")
[ "$left" = "$frameless" ] ||
	fail "perf prints $frameless samples without frames, perf2dat left out ${left:-no} chains: $(cat "$tmp/out")"
grep -q "offset 0x[0-9a-f]*: a call chain with a value of perf's context marker range" "$tmp/err" ||
	fail "no warning naming the offset: $(cat "$tmp/err")"

# every sample is an event, as perf prints it
for ev in sched_switch sched_wakeup; do
	p=$(grep -c "^ *[0-9]*\.[0-9]*: sched:$ev: *$" "$tmp/perf")
	t=$(grep -c "^ *.*-[0-9]* *\[[0-9]*\] .* [0-9]*\.[0-9]*: $ev: " "$tmp/report")
	[ "$p" -gt 0 ] && [ "$p" = "$t" ] || fail "$ev: perf script prints $p, trace-cmd report $t"
done
echo "PASS: bad-chains: $(cat "$tmp/names"); $left chains left out as perf leaves them out"
