#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Blocked intervals in KernelShark, headless, against perf script. Three
# recordings are made here, live, of one workload (pipes, sleeps, a synced
# direct write, so S and D both occur; processes whose last thread wakes
# the shell): perf record -g of sched_switch and sched_waking on every
# CPU, perf sched record -g, and the same events without -g. Each is
# opened in libkshark through the plugin as KernelShark opens it (the
# perf.data itself: the input plugin converts it), and the plugin's
# p2d_ks_dump_blocked() printed (tests/integration/kshark-stacks
# --blocked). Every blocked interval must be one perf script's
# sched_switch and wake-up lines give, and none missing
# (tests/tools/sched-intervals.py: task, state, start, end, CPUs, waker,
# its CPU and time, hence the run delay); each stack the call chain perf
# script shows for that sched_switch and that sched_waking sample; the
# off-CPU tree's totals (all, per state, per waker under a state) the sums
# of those intervals. The waker is the wake-up event's common_pid, which
# perf's Python engine gives (tests/tools/sched-wakers.py); perf script's
# tid must be that or -1, which the kernel gives a task it has unhashed.
# tests/integration/last-thread's last thread is one: it wakes the shell
# once its pid is gone. No interval, no S or no D one, or none woken by a
# task perf shows as -1, is a failure.
# Needs a perf that records here (root): skipped otherwise.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF_REAL:-}" "${PYTHON3:-}" "${KSHARK_TEST:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf, python3 and the libkshark test program are needed"
done
[ -r "${KSHARK_PLUGIN:-}" ] || skip "the KernelShark plugin is not built"
dump="$(dirname "$KSHARK_TEST")/kshark-stacks"
last="$(dirname "$KSHARK_TEST")/last-thread"
[ -x "$last" ] || fail "$last is not built"
check="$TOP_SRCDIR/tests/tools/sched-intervals.py"
wakers="$TOP_SRCDIR/tests/tools/sched-wakers.py"
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
# perf's build-id cache (the kernel symbols of the recordings) is private
# to the test: perf record fills it, perf script and the plugin's
# converter read it
HOME=$tmp
PERF_CONFIG=/dev/null
export HOME PERF_CONFIG

# pipes (S, woken by the writer), sleeps (S, woken by a timer), a direct,
# synced write (D, woken by the disk's completion), processes whose last
# thread wakes the shell (S) once unhashed
work="for i in 1 2 3 4 5 6; do echo \$i | cat > /dev/null; sleep 0.01; done;
	dd if=/dev/zero of=$tmp/dd bs=4k count=16 oflag=direct,sync 2> /dev/null; rm -f $tmp/dd;
	$last; $last; $last"

record() {
	out=$1
	shift
	timeout 60 "$@" -o "$tmp/$out" -- sh -c "$work" > "$tmp/record.log" 2>&1 ||
		skip "perf cannot record here: $(tail -n 1 "$tmp/record.log")"
}
rec_stacks="$PERF_REAL record -q -g -e sched:sched_switch -e sched:sched_waking -a"
rec_sched="$PERF_REAL sched record -q -g"
rec_nostacks="$PERF_REAL record -q -e sched:sched_switch -e sched:sched_waking -a"
# shellcheck disable=SC2086
record stacks.data $rec_stacks
# shellcheck disable=SC2086
record sched.data $rec_sched
# shellcheck disable=SC2086
record nostacks.data $rec_nostacks

# run_wakers FILE: perf script -s sched-wakers.py of FILE into $tmp/wakers. perf
# 7.2 has crashed on a system-wide recording of a busy machine (an assertion
# of its util/namespaces.c, then SIGSEGV, on a task of another namespace the
# recording caught): then the recording is made again, once, and said so
run_wakers() {
	"$PERF_REAL" script -f -i "$tmp/$1" -s "$wakers" > "$tmp/wakers" 2> "$tmp/err" && return 0
	rc=$?
	[ $rc -gt 128 ] || return $rc
	echo "$T: perf script -s crashed on $1 (signal $((rc - 128)): $(head -n 1 "$tmp/err")):" \
		"recording it again"
	case $1 in
	stacks.data) cmd=$rec_stacks ;;
	sched.data) cmd=$rec_sched ;;
	*) cmd=$rec_nostacks ;;
	esac
	# shellcheck disable=SC2086
	record "$1" $cmd
	"$PERF_REAL" script -f -i "$tmp/$1" -s "$wakers" > "$tmp/wakers" 2> "$tmp/err"
}

# check FILE CHAINS: the plugin's intervals of FILE against perf script's
check() {
	file=$1 chains=$2
	# (first: it may record the file again)
	if ! run_wakers "$file"; then
		"$PERF_REAL" version --build-options 2> /dev/null | grep -q 'libpython: \[ on' ||
			skip "perf script -s needs perf's Python engine (libpython), which this perf lacks"
		fail "$file: perf script -s sched-wakers.py: $(head -n 3 "$tmp/err")"
	fi
	"$PERF_REAL" script -f -i "$tmp/$file" -F comm,tid,cpu,time,event,trace --ns \
		> "$tmp/trace" 2> "$tmp/err" || fail "$file: perf script: $(head -n 3 "$tmp/err")"
	if [ "$chains" = yes ]; then
		# one line a chain entry: perf 7.2 adds the DWARF inlines by default,
		# all "(inlined)" where it has no symbol, or repeats the frame itself
		"$PERF_REAL" script -f -i "$tmp/$file" -F cpu,time,event,ip,sym --ns --no-inline \
			> "$tmp/chains" 2> /dev/null || fail "$file: perf script -F ip,sym"
		chains=$tmp/chains
	else
		chains=-
	fi
	"$dump" --blocked "$KSHARK_PLUGIN" "$tmp/$file" > "$tmp/view" 2> "$tmp/err" ||
		fail "$file: kshark-stacks --blocked: $(cat "$tmp/err")"
	"$PYTHON3" "$check" compare "$tmp/trace" "$tmp/wakers" "$chains" "$tmp/view" "$file" \
		> "$tmp/out" || fail "$(cat "$tmp/out")"
	cat "$tmp/out"
	grep -q '([1-9][0-9]* woken by a task perf shows as -1)' "$tmp/out" ||
		fail "$file: no interval woken by a task perf shows as -1 (last-thread's parent)"
	grep -q '(.*D [0-9]' "$tmp/out" || fail "$file: no interval in state D"
	grep -q '(.*S [0-9]' "$tmp/out" || fail "$file: no interval in state S"
}
check stacks.data yes
check sched.data yes
check nostacks.data no
echo "PASS: $T"
