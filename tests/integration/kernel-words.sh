#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A user frame that is an address of the kernel (a word a frame-pointer walk
# read, tests/data/kfp.c) must not rename the kernel's frames: the user
# addresses' kallsyms entries and the kernel's are one table, in which
# trace-cmd names an address after the closest entry below it; an entry the
# user names wrote at such a frame named every kernel address after it in
# its function with a number (bpf-names.sh once printed a clear_page_erms
# frame as "0xffffffff822391f8"). kfp's user stacks hold the start of the
# kernel's do_nanosleep (then an address 16 bytes into it), under its frames
# in do_nanosleep: each kernel frame
# trace-cmd report prints must be named as perf script names it
# (tests/tools/names.py), and the user frame as perf prints it: [unknown].
# Needs root (the kernel's addresses), gcc and an x86-64 kernel with a
# do_nanosleep: skipped otherwise.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat, trace-cmd, perf and python3 are needed"
done
[ "$(uname -m)" = x86_64 ] || skip "kfp.c is for x86-64"
command -v gcc > /dev/null 2>&1 || skip "gcc is not installed"
[ "$(id -u)" -eq 0 ] || skip "the kernel's addresses need root"
k=$(awk '$3 == "do_nanosleep" && $1 !~ /^0+$/ { print $1; exit }' /proc/kallsyms 2> /dev/null)
[ -n "$k" ] || skip "no do_nanosleep address in /proc/kallsyms"
export HOME="$tmp/home" PERF_CONFIG=/dev/null
mkdir -p "$HOME"
gcc -O2 -fno-omit-frame-pointer -o "$tmp/kfp" "$DATA/kfp.c" || fail "gcc"
# the word at do_nanosleep's start, and inside it, below its frames
for w in "$k" "$("$PYTHON3" -c "print('%x' % (0x$k + 16))")"; do
	"$PERF_REAL" record -q -g -e sched:sched_switch -o "$tmp/$w.data" -- "$tmp/kfp" "$w" \
		> "$tmp/record.log" 2>&1 || fail "$w: perf record: $(tail -n 1 "$tmp/record.log")"
	"$PERF2DAT" -f "$tmp/$w.data" -o "$tmp/$w.dat" > "$tmp/out" 2> "$tmp/err" || fail "$w: $(cat "$tmp/err")"
	"$PERF_REAL" script -f -i "$tmp/$w.data" -F time,event,ip,sym --ns > "$tmp/perf" 2> /dev/null ||
		fail "$w: perf script"
	"$TRACE_CMD" report -t "$tmp/$w.dat" > "$tmp/report" 2> /dev/null || fail "$w: trace-cmd report"
	# the premise: kernel frames in do_nanosleep, and under them the word, as perf shows them
	n=$(grep -c "^[[:space:]]*$w \[unknown\]\$" "$tmp/perf")
	[ "$n" -ge 100 ] || fail "$w: perf script shows $n user frames $w (of 200 sleeps)"
	m=$(grep -c '^[[:space:]]*ffffffff[0-9a-f]* do_nanosleep$' "$tmp/perf")
	[ "$m" -ge 100 ] || fail "$w: perf script names $m kernel frames do_nanosleep (of 200 sleeps)"
	"$PYTHON3" "$DATA/../tools/names.py" "$tmp/perf" "$tmp/report" --named > "$tmp/names" ||
		fail "$w: $(tail -n 5 "$tmp/names")"
	# kfp's user stacks: main, then the word, [unknown] as perf prints it
	u=$(awk '/user_stack:/ { sub(/.*=> /, ""); if ($0 != "main") next
		getline; sub(/^[[:space:]]*=> /, ""); print }' "$tmp/report" |
		sort | uniq -c | sort -rn | head -n 1)
	case "$u" in
	*" [unknown]") ;;
	*) fail "$w: the user frame under main is not [unknown] in trace-cmd report: $u" ;;
	esac
	echo "$(tail -n 1 "$tmp/names"); $n user frames $w; user frame under main: $u"
done
echo "PASS: kernel-words"
