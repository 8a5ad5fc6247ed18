#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# trace-cmd's own readers of stacks on a conversion with call chains
# (stacks.data: perf record -g -e sched:sched_switch -e sched:sched_wakeup -a)
# and a kallsyms (--kallsyms) that names every kernel address of perf's chains
# (perf script -D) p2d_ADDRESS, made here so that nothing depends on this
# host's kernel:
#   * trace-cmd report prints each kernel_stack frame as "=> p2d_ADDR (ADDR)",
#     as for a native trace-cmd record -T recording;
#   * trace-cmd report --profile attributes the blocked time of sched_switch
#     to stacks of those symbols, per task;
#   * trace-cmd hist shows stacks of those symbols.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${TRACE_CMD:-}" "${PERF:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "trace-cmd and perf are needed"
	fi
done
in=$DATA/stacks.data
"$PERF" script -f -D -i "$in" > "$tmp/dump" 2> /dev/null || fail "perf script -D"
# the frames of the kernel parts: after PERF_CONTEXT_KERNEL (ffffffffffffff80)
awk '/^\.\.\. FP chain/ { k = 0 }
     /^\.\.\.\.\. +[0-9]+: / { a = $3; if (a ~ /^ffffffffffff/ && length(a) == 16 && a >= "fffffffffffff001") { k = (a == "ffffffffffffff80"); next } if (k) print a }' \
	"$tmp/dump" | sort -u > "$tmp/addrs"
[ "$(wc -l < "$tmp/addrs")" -ge 10 ] || fail "perf shows too few kernel frames: $(wc -l < "$tmp/addrs")"
# and where the recording says the kernel was (perf places a kallsyms by its _text)
text=$("$PERF" script -f -i "$in" --show-mmap-events 2> /dev/null |
	sed -n 's/.*PERF_RECORD_MMAP .* @ 0x\([0-9a-f]*\)\]: . \[kernel.kallsyms\]_text$/\1/p' | head -n 1)
[ -n "$text" ] || fail "perf shows no [kernel.kallsyms]_text mapping"
{
	echo "$text T _text"
	sed 's/^\(.*\)$/\1 t p2d_\1/' "$tmp/addrs"
} | sort > "$tmp/kallsyms"
"$PERF2DAT" -q --kallsyms "$tmp/kallsyms" "$in" -o "$tmp/out.dat" || fail "conversion"

"$TRACE_CMD" report "$tmp/out.dat" > "$tmp/report" 2>&1 || fail "trace-cmd report"
frames=$(grep -c '^=> p2d_\([0-9a-f]*\) (\1)$' "$tmp/report")
other=$(grep -c '^=> ' "$tmp/report")
[ "$frames" -gt 0 ] && [ "$frames" -eq "$other" ] ||
	fail "report: $frames of $other kernel frames printed as their symbols"

"$TRACE_CMD" report --profile "$tmp/out.dat" > "$tmp/profile" 2>&1 || fail "report --profile: $(tail -3 "$tmp/profile")"
# "Event: sched_switch:STATE ..." followed by a stack of the kallsyms' names
awk '/Event: sched_switch/ { on = 1; next } /Event:|^task:/ { on = 0 }
     on && /\+ p2d_[0-9a-f]+ \(0x[0-9a-f]+\)/ { n++ } END { exit !(n > 0) }' "$tmp/profile" ||
	fail "report --profile shows no blocked-time stack: $(head -20 "$tmp/profile")"
tasks=$(grep -c '^task: ' "$tmp/profile")

"$TRACE_CMD" hist "$tmp/out.dat" > "$tmp/hist" 2>&1 || fail "hist: $(tail -3 "$tmp/hist")"
hframes=$(grep -c ' p2d_[0-9a-f]*$' "$tmp/hist")
[ "$hframes" -gt 0 ] || fail "hist shows no stack frame: $(head -20 "$tmp/hist")"

echo "PASS: profile: $frames kernel frames as symbols, --profile stacks for $tasks tasks," \
	"hist $hframes frames"
