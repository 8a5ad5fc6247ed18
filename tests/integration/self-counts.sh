#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What trace-cmd's own readers of stacks show of a conversion adds up to
# what perf shows: three fresh recordings of this machine, made with -g,
#   * a user-bound profile (cpu-clock, most samples taken in user mode, so
#     without kernel frames),
#   * perf sched record -g (perf 6.1 and later record sched_waking, no
#     sched_wakeup),
#   * perf record -g -e sched:sched_switch -e sched:sched_waking -a,
# are converted, and per event and innermost kernel function (address:
# finer) the self counts of trace-cmd hist -P and of trace-cmd report
# --profile are compared with perf report --no-children's and the innermost
# kernel frames of perf script's chains (tests/tools/self-counts.py says
# what each tool counts, and prints the tables, the functions named from
# the kallsyms perf record keeps in the build-id cache of a HOME of this
# test's). Nothing depends on this host's kernel symbols. Skipped only
# where perf cannot record.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] ||
		skip "perf2dat, trace-cmd, perf and python3 are needed"
done
export HOME="$tmp/home" PERF_CONFIG=/dev/null
unset PERF_BUILDID_DIR
mkdir -p "$HOME" "$tmp/empty"
tools=$(cd "$(dirname "$0")/../tools" && pwd)
compress=xz
command -v xz > /dev/null 2>&1 || compress=gzip
# threads that end: the kernel has detached a thread's pid before its last
# switch out, so perf gives those samples tid -1 while their tracepoint
# records name the thread (what hist reads: tests/tools/self-counts.py)
work="for i in 1 2 3 4 5 6; do sh -c 'cat /etc/hostname > /dev/null' & done; wait;
	dd if=/dev/zero of=/dev/null bs=4k count=4000 2> /dev/null;
	$PYTHON3 -c 'import threading
ts = [threading.Thread(target=lambda: sum(range(20000))) for _ in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]'; sleep 0.1"

# record NAME PERF-ARGS...: NAME.data, recorded again (up to three times) if perf lost events
record() {
	name=$1
	shift
	for try in 1 2 3; do
		if ! timeout 120 "$PERF_REAL" "$@" > "$tmp/record.out" 2> "$tmp/record.log"; then
			skip "perf cannot record here ($*): $(tail -n 1 "$tmp/record.log")"
		fi
		"$PERF2DAT" -f "$tmp/$name.data" -o "$tmp/$name.dat" > "$tmp/$name.sum" 2> "$tmp/err" ||
			fail "$name: conversion: $(cat "$tmp/err")"
		grep -q ', 0 lost,' "$tmp/$name.sum" && return 0
		echo "$name: perf lost events ($(head -n 1 "$tmp/$name.sum")), recording again ($try)"
	done
	fail "$name: perf loses events on every try: $(head -n 1 "$tmp/$name.sum")"
}
record xz record -q -g -e cpu-clock -F 2000 -o "$tmp/xz.data" -- \
	sh -c "head -c 3000000 /dev/urandom | $compress -6 > /dev/null"
record sched sched record -g -o "$tmp/sched.data" -- sh -c "$work"
record sw record -q -g -m 1024 -e sched:sched_switch -e sched:sched_waking -a -o "$tmp/sw.data" -- \
	sh -c "$work"

# perf script or report, naming no kernel frame: perf 6.12 and 7.2 in a
# chroot give up on the kernel symbols of a -a recording ("[kernel.kallsyms]
# with build id ... not found, continuing without symbols") whatever
# --kallsyms says, so perf prints kernel frames as addresses everywhere (an
# empty kallsyms, build-id cache and --symfs, as tests/tools/perf-isolated
# runs it), and perf2dat gets a kallsyms that names each of them (below):
# the counts are compared per innermost kernel address. User frames are
# not compared.
popt="--kallsyms=/dev/null --symfs=$tmp/empty"
perf_read() {
	PERF_BUILDID_DIR=$tmp/empty "$PERF_REAL" "$@"
}

# the kallsyms perf record kept in the build-id cache: the kernel's _text
# for perf2dat, and the functions' names in the tables
ksyms=$(find "$HOME/.debug/[kernel.kallsyms]" -name kallsyms 2> /dev/null | head -n 1)
[ -n "$ksyms" ] || fail "perf record kept no kallsyms in $HOME/.debug"
cp "$ksyms" "$tmp/kallsyms" || fail "cannot copy $ksyms"
text=$(grep ' [Tt] _text$' "$tmp/kallsyms" | head -n 1)
[ -n "$text" ] || fail "no _text in $ksyms"

status=0
for name in xz sched sw; do
	fields=tid,cpu,time,event,ip,sym,dso,trace
	# a recording without PERF_SAMPLE_CPU (per task): perf script refuses "cpu"
	perf_read script $popt -i "$tmp/$name.data" -F "$fields" --ns > "$tmp/$name.script" \
		2> "$tmp/err" || perf_read script $popt -i "$tmp/$name.data" \
		-F "$(echo "$fields" | sed 's/,cpu//')" --ns > "$tmp/$name.script" 2> "$tmp/err" ||
		fail "$name: perf script: $(tail -n 3 "$tmp/err")"
	perf_read report $popt -i "$tmp/$name.data" --no-children --stdio -n -g none --sort sym \
		> "$tmp/$name.report" 2> "$tmp/err" || fail "$name: perf report: $(tail -n 3 "$tmp/err")"
	# every kernel address of perf's chains named p2d_ADDRESS for perf2dat
	{
		echo "$text"
		awk 'length($1) == 16 && $1 ~ /^[89a-f][0-9a-f]*$/ { print $1 " t p2d_" $1 }' \
			"$tmp/$name.script" | sort -u
	} > "$tmp/$name.kallsyms"
	# each tracepoint sample's common_pid, the task hist reads
	perf_read script $popt -i "$tmp/$name.data" -s "$tools/common-pids.py" > "$tmp/$name.pids" \
		2> "$tmp/err" || fail "$name: perf script -s common-pids.py: $(tail -n 3 "$tmp/err")"
	"$PERF2DAT" -q -f --kallsyms "$tmp/$name.kallsyms" "$tmp/$name.data" -o "$tmp/$name.dat" \
		2> "$tmp/err" || fail "$name: conversion: $(cat "$tmp/err")"
	"$TRACE_CMD" hist -P "$tmp/$name.dat" > "$tmp/$name.hist" 2> "$tmp/err" ||
		fail "$name: trace-cmd hist: $(tail -n 3 "$tmp/err")"
	"$TRACE_CMD" report --profile "$tmp/$name.dat" > "$tmp/$name.profile" 2> "$tmp/err" ||
		fail "$name: trace-cmd report --profile: $(tail -n 3 "$tmp/err")"
	user=
	[ "$name" = xz ] && user=--user-samples
	[ "$name" = sched ] && user=--gone-tasks
	"$PYTHON3" "$tools/self-counts.py" $user --by-address "$tmp/kallsyms" --label "$name" \
		--script "$tmp/$name.script" --common-pids "$tmp/$name.pids" \
		--report "$tmp/$name.report" --hist "$tmp/$name.hist" --profile "$tmp/$name.profile" ||
		status=1
	if [ -n "${P2D_PATCHED_TRACE_CMD:-}" ]; then
		# contrib/upstream/trace-cmd/check.sh: hist of a trace-cmd with
		# the patches there counts what perf counts
		"$P2D_PATCHED_TRACE_CMD" hist -P "$tmp/$name.dat" > "$tmp/$name.hist-fixed" \
			2> "$tmp/err" || fail "$name: patched trace-cmd hist: $(tail -n 3 "$tmp/err")"
		"$PYTHON3" "$tools/self-counts.py" $user --by-address "$tmp/kallsyms" \
			--label "$name (patched hist)" --hist-fixed --script "$tmp/$name.script" \
			--report "$tmp/$name.report" --hist "$tmp/$name.hist-fixed" \
			--profile "$tmp/$name.profile" || status=1
	fi
	echo
done
[ "$status" = 0 ] || fail "hist or report --profile counts differ from perf's (tables above)"
echo "PASS: self-counts: hist and report --profile count per function what perf counts" \
	"(a user-bound profile, perf sched record, sched_switch/sched_waking)"
