#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Command-line behaviour of perf2dat: default output name, refusal to
# overwrite, --force, one-line errors naming the file, nothing left behind
# after a failure, usage errors, --help and --version, recordings without
# samples, the summary lines and -v. Each case has one expected outcome.
. "$TOP_SRCDIR/tests/lib.sh"
cd "$tmp" || exit 1

# run EXPECTED_STATUS ARGS...: perf2dat's stdout in out, stderr in err
run() {
	want=$1
	shift
	"$PERF2DAT" "$@" > out 2> err
	got=$?
	[ "$got" -eq "$want" ] || fail "perf2dat $*: exit status $got, expected $want: $(cat err)"
}

# one_error PATTERN WHAT: stderr is one line matching PATTERN (grep -E)
one_error() {
	[ "$(wc -l < err)" -eq 1 ] || fail "$2: not one line: $(cat err)"
	grep -Eq -e "$1" err || fail "$2: message: $(cat err)"
}

no_leftovers() {
	ls -A | grep -q perf2dat && fail "$1: temporary files left: $(ls -A)"
	return 0
}

run 0 --help
grep -q 'usage: perf2dat' out || fail "--help"
run 0 --version
grep -q '^perf2dat [0-9]' out || fail "--version"

# usage errors: status 2, what is wrong and where to read more
run 2
grep -q '^perf2dat: no input file' err || fail "no input: $(cat err)"
for bad in --bogus -Z "--output" "--file-version 5 x.data"; do
	# shellcheck disable=SC2086
	run 2 $bad
	[ "$(wc -l < err)" -eq 2 ] || fail "usage error $bad: $(cat err)"
	grep -q "^Try 'perf2dat --help' for more information.$" err ||
		fail "usage error $bad: no hint: $(cat err)"
done
grep -q '^perf2dat: --file-version must be 6 or 7, not 5$' err || fail "version 5: $(cat err)"

# default output name, and the summary line
run 0 "$DATA/sample.data"
[ -s trace.dat ] || fail "trace.dat not written"
grep -q '^perf2dat: 629 events, 2 CPUs, 0 lost, [0-9]* tasks -> trace.dat' out ||
	fail "summary line: $(cat out)"

# an existing output is refused and left alone without -f
echo precious > keep.dat
run 1 -q "$DATA/sample.data" -o keep.dat
[ "$(cat keep.dat)" = precious ] || fail "existing output was modified"
one_error 'exists \(use --force' "refusal"
run 0 -q -f "$DATA/sample.data" -o keep.dat
[ "$(head -c 3 keep.dat | od -An -tx1 | tr -d ' ')" = 170844 ] || fail "-f output is not a trace.dat"

# -o -: into standard output when it is an empty file, the same trace.dat;
# the summary then on standard error; a failure leaves it empty; a file
# with something in it, or appended to, is refused untouched
"$PERF2DAT" "$DATA/sample.data" -o - > so.dat 2> err || fail "-o - > FILE: $(cat err)"
cmp -s so.dat keep.dat || fail "-o - > FILE: not the trace.dat -o FILE writes"
grep -q '^perf2dat: 629 events, .* -> standard output (' err || fail "-o - summary: $(cat err)"
rm -f so.dat
"$PERF2DAT" -q "$DATA/sample.data" -o - 1<> so.dat 2> err || fail "-o - 1<> FILE: $(cat err)"
cmp -s so.dat keep.dat || fail "-o - 1<> FILE: not the trace.dat -o FILE writes"
[ ! -s err ] || fail "-o - -q: printed $(cat err)"
printf 'PERFILE2 and nothing' > badmagic.data
"$PERF2DAT" -q badmagic.data -o - > so.dat 2> err && fail "-o -: a bad input converted"
[ ! -s so.dat ] || fail "-o -: a failure left $(wc -c < so.dat) bytes"
one_error '^perf2dat: badmagic.data: ' "-o -, bad input"
echo precious > so.dat
"$PERF2DAT" -q "$DATA/sample.data" -o - >> so.dat 2> err && fail "-o - >> FILE converted"
[ "$(cat so.dat)" = precious ] || fail "-o - >> FILE: the file was modified"
one_error 'standard output is a file, but not an empty one' "-o - >> FILE"
rm -f so.dat badmagic.data
echo "-o -: into an empty standard output file; a failure leaves it empty; >> refused"

# errors: one line, "perf2dat: FILE: ...", exit 1, nothing left behind
printf 'not a perf file at all' > bad.data
run 1 -q bad.data -o bad.dat
one_error '^perf2dat: bad.data: offset 0x0: not a perf.data file' "bad input"
[ ! -e bad.dat ] || fail "output left after an error"
no_leftovers "bad input"

# a file-mode recording cut inside its data section has no event formats left
head -c 100000 "$DATA/sample.data" > cut.data
run 1 -q cut.data -o cut.dat
one_error '^perf2dat: cut.data: offset 0x186a0: the file ends inside its data section' "cut"
[ ! -e cut.dat ] || fail "truncated: output left after an error"

# no tracepoints at all (cpu-clock without -a: no CPU in the samples): the
# samples as perf:cpu_clock events on CPU 0, one warning (no files: their
# user ips as numbers, whatever libraries this host has)
mkdir -p no-files
run 0 --kallsyms none --symfs no-files "$DATA/no-tracepoints.data" -o none.dat
one_error 'offset 0x3f0: samples carry no CPU \(PERF_SAMPLE_CPU\): all on CPU 0' "no tracepoints"
"$TRACE_CMD" report -N none.dat > report 2> report.err || fail "no tracepoints: $(cat report.err)"
[ "$(grep -c ' \[000\] .* cpu_clock: *ip=0x[0-9a-f]* period=100000$' report)" -eq 58 ] ||
	fail "no tracepoints: not 58 perf:cpu_clock events: $(head -3 report)"
# ... all on CPU 0, which the summary and the trace.dat count alone (as
# many events as perf script shows; a trace.dat of 2 CPUs would say the
# recording had two)
n=$("$PERF" script -i "$DATA/no-tracepoints.data" -F tid,time,event 2> /dev/null | grep -c cpu-clock)
[ "$n" -gt 0 ] || fail "no tracepoints: perf script shows no cpu-clock sample"
grep -q "^perf2dat: $n events ($n other samples), 1 CPU, 0 lost, " out ||
	fail "no tracepoints: summary: not $n events on 1 CPU: $(head -1 out)"
[ "$(head -1 report)" = "cpus=1" ] || fail "no tracepoints: report: $(head -1 report)"

# a valid recording with tracepoint events but no samples, and one of
# cpu-clock (perf record -e cpu-clock -c 1000000000 -- true; the last piece of
# a perf record --switch-output run can be so): 0 events, one warning, the
# formats perf2dat writes of its events (perf:cpu_clock), none of the
# tracepoints that never occurred (lock:contention_begin: perf2dat(1))
for rec in lock-record.data:lock:contention_begin empty-cc.data:perf:cpu_clock; do
	event=${rec#*:} rec=${rec%%:*}
	[ "$("$PERF" script -i "$DATA/$rec" 2> /dev/null | wc -l)" -eq 0 ] ||
		fail "$rec: perf script shows samples"
	run 0 "$DATA/$rec" -o empty.dat
	one_error '^perf2dat: warning: the recording has no samples' "$rec"
	grep -q '^perf2dat: 0 events, 2 CPUs, 0 lost' out || fail "$rec: summary: $(cat out)"
	"$TRACE_CMD" report empty.dat > report 2> report.err || fail "$rec: report: $(cat report.err)"
	[ "$(cat report)" = "cpus=2" ] || fail "$rec: report shows events: $(head -3 report)"
	"$TRACE_CMD" report -E empty.dat > events 2> report.err ||
		fail "$rec: report -E: $(cat report.err)"
	if [ "$rec" = lock-record.data ]; then
		! grep -qx "$event" events || fail "$rec: a format of $event, which has no event"
	else
		grep -qx "$event" events || fail "$rec: no format of $event: $(cat events)"
	fi
	rm -f empty.dat
done
# ... and a selection that leaves nothing
run 0 -e sched:sched_switch --cpu 1 --time 1,2 "$DATA/sample.data" -o nothing.dat
one_error '^perf2dat: warning: no events left after the selection \(629 samples left out\)' \
	"empty selection"
[ -s nothing.dat ] || fail "empty selection: no output"

# an output directory that does not exist, an output on /proc
run 1 -q "$DATA/sample.data" -o "$tmp/nodir/x.dat"
one_error "cannot create a file in $tmp/nodir: No such file or directory" "missing directory"
run 1 -q -f "$DATA/sample.data" -o /proc/version
one_error 'cannot create /proc/version: /proc is a proc file system' "/proc output"

# version 6 on request
run 0 -q --file-version 6 "$DATA/sample.data" -o v6.dat
[ "$(od -An -c -j 10 -N 1 v6.dat | tr -d ' ')" = 6 ] || fail "not a version 6 file"

# --kallsyms: a kallsyms file that cannot be used is warned about, the
# recording still converted (stacks.data has kernel frames to name)
printf 'ffffffff81000000 T _text\nnot a symbol\n' > ks-bad
run 0 --kallsyms ks-bad "$DATA/stacks.data" -o ks-bad.dat
one_error '^perf2dat: warning: kernel symbols: ks-bad: line 2 is not "ADDRESS TYPE SYMBOL": not used$' \
	"bad kallsyms"
printf '0000000000000000 T _text\n0000000000000000 t x\n' > ks-zero
run 0 --kallsyms ks-zero "$DATA/stacks.data" -o ks-zero.dat
one_error 'kernel symbols: ks-zero: every address is 0 \(hidden by kernel.kptr_restrict\): not used$' \
	"zero kallsyms"
printf 'ffffffff81000000 T _stext\n' > ks-notext
run 0 --kallsyms ks-notext "$DATA/stacks.data" -o ks-notext.dat
one_error 'kernel symbols: ks-notext has no _text symbol to place it: not used$' "kallsyms without _text"
run 0 --kallsyms no-such-file "$DATA/stacks.data" -o ks-none.dat
one_error 'kernel symbols: --kallsyms no-such-file: No such file or directory$' "missing kallsyms"
run 1 --kallsyms '' "$DATA/stacks.data" -o ks-empty.dat
one_error 'kallsyms: an empty file name' "empty --kallsyms"
# none: nothing looked for, nothing said
run 0 --kallsyms none "$DATA/stacks.data" -o ks-no.dat
[ ! -s err ] || fail "--kallsyms none: $(cat err)"
grep -q '^perf2dat: kernel symbols: none (--kallsyms none)$' out || fail "--kallsyms none: $(cat out)"

# --tod needs clock data
run 1 -q --tod "$DATA/sample.data" -o tod.dat
one_error '--tod: the recording has no clock data' "--tod"

# the size relative to the input: every file of a --threads directory
run 0 "$DATA/threads.data" -o dir.dat
insize=$(cat "$DATA"/threads.data/* | wc -c)
pct=$(sed -n 's/^.*, \([0-9]*\)% of the input)$/\1/p' out)
want=$(awk -v o="$(wc -c < dir.dat)" -v i="$insize" 'BEGIN { printf "%.0f", 100 * o / i }')
[ "$pct" = "$want" ] || fail "directory: $pct% of the input, expected $want%: $(cat out)"

# what was converted and what not, by count, as perf and trace-cmd count it
if [ -x "${PERF:-}" ]; then
	run 0 "$DATA/mixed.data" -o mixed.dat
	# every event of mixed.data samples CALLCHAIN (perf record -g): one chain each
	"$PERF" evlist -v -i "$DATA/mixed.data" 2> /dev/null | grep -v '^dummy' > evlist
	[ "$(grep -c 'sample_type: [A-Z|]*CALLCHAIN' evlist)" -eq 3 ] || fail "mixed.data: $(cat evlist)"
	"$PERF" script -f -G -i "$DATA/mixed.data" -F event 2> /dev/null > events
	other=$(grep -vc 'sched:' events)
	tp=$(grep -c 'sched:' events)
	"$TRACE_CMD" report -N mixed.dat 2> /dev/null > report
	# (trace-cmd >= 3.2 prints a latency column after the CPU)
	stacks=$(grep -Ec '^ *[^ ].*\] +([^ ]+ +)?[0-9.]+: (kernel|user)_stack:' report)
	[ "$stacks" -gt "$((tp + other))" ] || fail "mixed.data: $stacks stack events"
	side=$("$PERF" report -f --stats -i "$DATA/mixed.data" 2> /dev/null | awk '
		/^ *TOTAL events/ { on = 1 }
		on && /^ *(MMAP|MMAP2|COMM|EXIT|FORK|THROTTLE|UNTHROTTLE|READ|AUX|ITRACE_START|SWITCH|SWITCH_CPU_WIDE|NAMESPACES|KSYMBOL|BPF_EVENT|CGROUP|TEXT_POKE) events:/ { s += $3 }
		/^ *$/ && on { exit } END { print s + 0 }')
	grep -q "^perf2dat: $((tp + other + stacks)) events ($tp tracepoint samples, $other other samples, $stacks stacks), " out ||
		fail "converted ($tp, $other, $stacks): $(cat out)"
	grep -q "^perf2dat: not converted: $side side-band records" out ||
		fail "not converted ($side): $(cat out)"
	# --no-callchain: the chains are left out, and said so
	run 0 --no-callchain -f "$DATA/mixed.data" -o mixed.dat
	grep -q "^perf2dat: $((tp + other)) events ($tp tracepoint samples, $other other samples), " out ||
		fail "--no-callchain: $(cat out)"
	grep -q "^perf2dat: not converted: $((tp + other)) call chains (--no-callchain), $side side-band records" out ||
		fail "--no-callchain: not converted: $(cat out)"
	"$TRACE_CMD" report -N mixed.dat > nc.report 2> /dev/null || fail "--no-callchain: trace-cmd report"
	[ "$(grep -Ec '\[[0-9]+\] +([^ :]{4,5} +)?[0-9]+\.[0-9]+: ' nc.report)" -eq $((tp + other)) ] ||
		fail "--no-callchain: the report does not show the $((tp + other)) events"
	if grep -q '_stack:' nc.report; then
		fail "--no-callchain: stacks written"
	fi
	# perf record --per-thread: its samples have no time, a trace.dat cannot
	# place them; they are counted as perf script shows them, and said so
	n=$("$PERF" script -f -i "$DATA/perthread.data" 2> /dev/null | grep -c 'cpu-clock')
	[ "$n" -gt 0 ] || fail "perthread.data: perf script shows no sample"
	run 0 -f "$DATA/perthread.data" -o perthread.dat
	grep -q "^perf2dat: not converted: $n samples without timestamps (perf record --per-thread)" out ||
		fail "perthread.data: not converted: $(cat out)"
	grep -q "the recording's $n samples have no timestamps" err ||
		fail "perthread.data: no word of why: $(cat err)"
	if grep -q 'does not describe\|has no samples' out err; then
		fail "perthread.data: a wrong reason: $(cat out err)"
	fi
else
	echo "$T: no perf: mixed.data's and perthread.data's counts against perf's not checked"
fi

# -v tells what was read
run 0 -v -f "$DATA/sample.data" -o v.dat
for what in 'read: file mode, little-endian; features: tracing_data' 'samples of [0-9]* events: ' \
	    'records read: .*SAMPLE 629' 'pages: CPU 0 [0-9]* events, 0 lost'; do
	grep -q "^perf2dat: info: $what" err || fail "-v: no '$what': $(cat err)"
done
# the samples of other events are converted (to perf:cpu_clock): not labelled otherwise
run 0 -v -f "$DATA/no-tracepoints.data" -o v.dat
grep -q "^perf2dat: info: samples of 1 event: cpu-clock 58$" err || fail "-v, cpu-clock: $(cat err)"
grep -q "^perf2dat: 58 events (58 other samples), 1 CPU, 0 lost, 1 task -> " out ||
	fail "cpu-clock converted: $(cat out)"
# one of a kind is said in the singular; a share under 1% keeps a digit
run 0 -f "$DATA/single.data" --tid 8664 -o v.dat
grep -q "^perf2dat: 1 event (3 left out by the selection), 2 CPUs, 0 lost, 4 tasks -> " out ||
	fail "one event: $(cat out)"
{ cat "$DATA/pipe.data"; perl -e 'print "\x44\0\0\0\0\0\x08\0" x 200000'; } > rounds.data	# + FINISHED_ROUNDs
run 0 -f rounds.data --tid 1 -o v.dat
rm -f rounds.data
grep -Eq "^perf2dat: 0 events \([0-9]+ left out by the selection\), .*, 0\.[0-9]% of the input\)$" out ||
	fail "a share under 1%: $(cat out)"
# the last piece of a --switch-output run: the run's losses are said, its own marked
run 0 -f "$DATA/switch-2.data" -o v.dat
grep -q "^perf2dat: warning: a piece of a perf record --switch-output run: its LOST_SAMPLES records count 929 losses of the whole run (perf report's Total Lost Samples); only the 50 of this piece's LOST records are marked$" err ||
	fail "--switch-output piece: $(cat err)"
grep -q "^perf2dat: 757 events, 2 CPUs, 50 lost, " out || fail "--switch-output piece: $(cat out)"
no_leftovers "end"
echo "PASS: cli"
