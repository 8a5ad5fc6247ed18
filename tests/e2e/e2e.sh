#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end test: convert a real perf recording with perf2dat and check
# that `trace-cmd report` shows exactly what `perf script` shows (see
# compare.py: tracepoint samples, the samples of other events, the call
# chains of all), that `trace-cmd report --cpus` lists the CPUs perf shows,
# and that `trace-cmd dump --summary` reads the file.
#
# Usage: e2e.sh CASE.e2e, where CASE.e2e sets some of:
#   input=FILE          recording in tests/data
#   stdin=yes           feed it to perf2dat (and perf) on standard input
#   convert_args=...    extra perf2dat options
#   perf_args=...       extra perf script options (of the tracepoint listing)
#   tracepoints=no      the recording has none (perf script -F trace: would
#                       print the other events)
#   sample_fields=...   what the samples of other events are compared on:
#                       ip,period (default) or ip,period,addr
#   compare_args=...    extra compare.py options
#   lost_check=no       skip the check (done by default) that the dropped-event
#                       markers add up to perf report's Total Lost Samples, per
#                       CPU cover its PERF_RECORD_LOST records, and agree with
#                       trace-cmd report --stat
#   lost_from=records   the markers must add up to the piece's own LOST records,
#                       not perf report's Total Lost Samples (a piece of a perf
#                       record --switch-output run, whose LOST_SAMPLES count the
#                       whole run)
#   prepare=CMD         make the file to convert, "$in", from "$src" (perf
#                       still reads "$src": for inputs perf cannot read)
#   perf_input=FILE     what perf script reads instead (in tests/data)
#   clock=NAME          the trace clock trace-cmd dump must show (default perf)
#   report_args=...     extra trace-cmd report options
#   recorded=DIR        perf's outputs for this input as perf 6.12 printed them,
#                       in tests/data/DIR (tests/tools/perf-recorded): used
#                       when this perf cannot read the input (perf 6.1 and a
#                       perf 6.12 recording), checked equal to the output of
#                       the perf that made them (DIR/VERSION)
#   date_check=yes      (with convert_args=--tod) without --nodate, report shows
#                       perf script's wall-clock time (-F tod) of the first
#                       event, to the microsecond
#   kallsyms=FILE       kernel symbols for both perf and perf2dat (in
#                       tests/data); default none: perf gets an empty one,
#                       perf2dat --kallsyms none
#   root_setup=CMD      fill "$root", the --symfs root of both perf and
#                       perf2dat (empty by default: no file of this host is
#                       used for user stacks)
#   root_for=perf       give that root to perf only (perf2dat gets an empty one)
#   cache_setup=CMD     fill "$cache", perf's build-id cache: the .debug of
#                       perf2dat's --symfs root, where perf and perf2dat
#                       take it under --symfs (empty by default)
#   unwound=yes         compare the user frames of --call-graph dwarf samples
#                       with those perf script unwinds (compare.py --unwound)
. "$TOP_SRCDIR/tests/lib.sh"
input= stdin=no convert_args= perf_args= compare_args= prepare= report_args=
date_check=no perf_input= clock=perf lost_check=yes tracepoints=yes sample_fields=ip,period
lost_from=report recorded= kallsyms= root_setup= root_for=both cache_setup= unwound=no
. "$1"
name=$(basename "$1" .e2e)
T=$name	# lib.sh's fail and skip name the case, not e2e.sh

for tool in "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "trace-cmd, perf and python3 are needed"
	fi
done

# a newer perf than the one that recorded the input is compared with live
# (it reads older files); an older one only with what the recorder printed,
# even where it reads part of the file (perf 6.1 reads perf 7.2's pipe
# streams but prints no lost total of them)
perf_version_of() { sed -n 's/^perf version \([0-9][0-9.]*\).*/\1/p'; }
newer_perf() {
	this=$("$PERF" version 2> /dev/null | perf_version_of)
	rec=$(perf_version_of < "$DATA/$recorded/VERSION")
	[ -n "$this" ] && [ -n "$rec" ] && [ "$this" != "$rec" ] &&
		[ "$(printf '%s\n%s\n' "$rec" "$this" | sort -V | head -n 1)" = "$rec" ]
}
if [ -n "$recorded" ] && [ -z "${PERF_RECORDED_MODE:-}" ] && newer_perf &&
	"$PERF" script -f -i "$DATA/$input" -F event > /dev/null 2>&1; then
	echo "$name: compared with this perf ($("$PERF" version 2> /dev/null)), which reads $input"
	recorded=
fi
if [ -n "$recorded" ]; then
	# two stores: perf 6.12 printing through libtraceevent 1.8's plugins (as
	# it runs), and without plugins (what trace-cmd report -N of another
	# libtraceevent can be compared with)
	PERF_LIVE=$PERF
	if [ -n "${PERF_RECORDED_MODE:-}" ]; then
		# record, when the store is made (tests/tools/record-release.sh)
		PERF_RECORDED_DIR="$DATA/$recorded/${PERF_RECORDED_STORE:?}"
	elif [ "$("$PERF" version 2> /dev/null)" = "$(cat "$DATA/$recorded/VERSION")" ]; then
		PERF_RECORDED_MODE=verify PERF_RECORDED_DIR="$DATA/$recorded/plugins"
		echo "$name: the perf that recorded $input: its output is also checked equal to the" \
			"recorded one"
	else
		PERF_RECORDED_MODE=replay PERF_RECORDED_DIR="$DATA/$recorded/noplugins"
		echo "$name: this perf is older than the one that recorded $input: compared with what" \
			"$(cat "$DATA/$recorded/VERSION") printed without plugins (tests/data/$recorded)"
	fi
	PERF="$DATA/../tools/perf-recorded" PERF_RECORDED_INPUT=$input
	export PERF_RECORDED_DIR PERF_LIVE PERF_RECORDED_MODE PERF_RECORDED_INPUT
fi
src="$DATA/$input"
in="$src"
if [ -n "$prepare" ]; then
	in="$tmp/in.data"
	eval "$prepare" > "$tmp/prepare.log" 2>&1 || fail "preparing the input: $(cat "$tmp/prepare.log")"
fi
fields="-F trace:comm,tid,cpu,time,event,trace --ns"
[ -z "$perf_input" ] || src="$DATA/$perf_input"

# where symbols and files come from: the same for perf and perf2dat, never this host
root=$tmp/root cache=$tmp/root/.debug
[ "$root_for" = perf ] && cache=$tmp/empty-root/.debug
mkdir -p "$root" "$cache"
if [ -n "$root_setup" ]; then
	eval "$root_setup" > "$tmp/root.log" 2>&1 || fail "making the --symfs root: $(cat "$tmp/root.log")"
fi
if [ -n "$cache_setup" ]; then
	eval "$cache_setup" > "$tmp/cache.log" 2>&1 || fail "making the build-id cache: $(cat "$tmp/cache.log")"
fi
export PERF_ISOLATED_SYMFS="$root" PERF_ISOLATED_CACHE="$cache" PERF_BUILDID_DIR="$cache"
if [ -n "$kallsyms" ]; then
	export PERF_ISOLATED_KALLSYMS="$DATA/$kallsyms"
	convert_args="$convert_args --kallsyms $DATA/$kallsyms"
else
	convert_args="$convert_args --kallsyms none"
fi
if [ "$root_for" = perf ]; then
	convert_args="$convert_args --symfs $tmp/empty-root"
else
	convert_args="$convert_args --symfs $root"
fi

if [ "$stdin" = yes ]; then
	"$PERF2DAT" -q $convert_args -i - -o "$tmp/out.dat" < "$in"
else
	"$PERF2DAT" -q $convert_args "$in" -o "$tmp/out.dat"
fi 2> "$tmp/convert.err" || fail "perf2dat exited with $?: $(cat "$tmp/convert.err")"

if [ "$tracepoints" = no ]; then
	: > "$tmp/perf"
elif [ "$stdin" = yes ]; then
	"$PERF" script -f -i - $fields $perf_args < "$src" > "$tmp/perf" 2> "$tmp/perf.err"
else
	"$PERF" script -f -i "$src" $fields $perf_args > "$tmp/perf" 2> "$tmp/perf.err"
fi || fail "perf script failed: $(head -c 300 "$tmp/perf.err")"

. "$DATA/../tools/report-plugins.sh"
"$TRACE_CMD" report $NOPLUGINS -t $report_args "$tmp/out.dat" > "$tmp/report" 2> "$tmp/report.err" ||
	fail "trace-cmd report failed: $(head -c 300 "$tmp/report.err")"
# the task names the trace.dat holds (with plugins, libtraceevent 1.8 renames
# tasks after the comm fields of the sched events it prints)
"$TRACE_CMD" report -N -t $report_args "$tmp/out.dat" > "$tmp/report-names" \
	2> "$tmp/report.err" || fail "trace-cmd report -N failed: $(head -c 300 "$tmp/report.err")"
# with plugins, as users run it: the stacks (kernel_stack has a plugin's handler)
"$TRACE_CMD" report -t $report_args "$tmp/out.dat" > "$tmp/report-plugins" \
	2> "$tmp/report.err" || fail "trace-cmd report failed: $(head -c 300 "$tmp/report.err")"

# perf reading $src, as a file or on its standard input
perf_on() {
	if [ "$stdin" = yes ]; then
		"$PERF" "$@" -i - < "$src"
	else
		"$PERF" "$@" -i "$src"
	fi
}

# the samples of every event (those of tracepoints are left out by compare.py),
# and every record decoded: the call chains perf stored
perf_on script -f -F "comm,tid,cpu,time,event,$sample_fields" --ns -G > "$tmp/samples" \
	2> "$tmp/samples.err" || fail "perf script of the samples failed: $(head -c 300 "$tmp/samples.err")"
perf_on script -f -D 2> /dev/null > "$tmp/dump" || fail "perf script -D failed"
compare_args="$compare_args --samples $tmp/samples --chains $tmp/dump"
if [ "$unwound" = yes ]; then
	perf_on script -f -F pid,tid,cpu,time,event,ip,dso --ns --no-inline --show-mmap-events \
		--show-task-events > "$tmp/unwound" 2> "$tmp/unwound.err" ||
		fail "perf script of the unwound stacks failed: $(head -c 300 "$tmp/unwound.err")"
	# perf 6.1 (Debian 12) prints an unwound frame relative to its file's
	# mapping; perf 6.12 (Debian 13) and 7.2 (unstable) print its address
	v=$("$PERF" version 2> /dev/null | sed -n 's/^perf version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
	[ -n "$v" ] || fail "perf version prints no version"
	set -- $v
	if [ "$1" -lt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -lt 12 ]; }; then
		unwound_ips=relative
	else
		unwound_ips=absolute
	fi
	compare_args="$compare_args --unwound $tmp/unwound --unwound-ips $unwound_ips"
fi
compare_args="$compare_args --stack-report $tmp/report-plugins --names-report $tmp/report-names"
case $sample_fields in *addr*) compare_args="$compare_args --sample-addr" ;; esac

if [ "$lost_check" = yes ]; then
	perf_on report -f --stdio > "$tmp/perf-report" 2> /dev/null ||
		fail "perf report failed"
	lost=$(sed -n 's/^# Total Lost Samples: *\([0-9][0-9]*\)$/\1/p' "$tmp/perf-report")
	[ -n "$lost" ] || fail "perf report prints no Total Lost Samples"
	# "CPU TIME OFFSET [SIZE]: PERF_RECORD_LOST: id:N: lost:N", summed per CPU
	per_cpu=$(sed -n 's/^\([0-9][0-9]*\) .*PERF_RECORD_LOST: .*lost:\([0-9]*\) *$/\1 \2/p' \
		"$tmp/dump" | awk '{ s[$1] += $2 } END { for (c in s) printf " --lost-cpu %d:%d", c, s[c] }')
	if [ "$lost_from" = records ]; then
		own=$(sed -n 's/^[0-9][0-9]* .*PERF_RECORD_LOST: .*lost:\([0-9]*\) *$/\1/p' "$tmp/dump" |
			awk '{ s += $1 } END { print s + 0 }')
		[ "$own" -gt 0 ] && [ "$own" -ne "$lost" ] ||
			fail "lost_from=records: the LOST records ($own) are perf's total ($lost)"
		lost=$own
	fi
	"$TRACE_CMD" report --stat $report_args "$tmp/out.dat" > "$tmp/stat" 2>&1 ||
		fail "trace-cmd report --stat failed"
	compare_args="$compare_args --lost $lost$per_cpu --stat $tmp/stat --lost-records $tmp/dump"
fi

"$PYTHON3" "$COMPARE" "$tmp/perf" "$tmp/report" --name "$name" $compare_args || exit 1

if [ "$date_check" = yes ]; then
	tod=$(TZ=UTC "$PERF" script -f -i "$src" -F tod --ns 2>/dev/null | head -n 1 |
		sed 's/^ *//')
	want_s=$(TZ=UTC date -d "${tod%.*}" +%s) || fail "cannot parse perf's time of day '$tod'"
	want_us=$(echo "${tod##*.}" | cut -c1-6)
	# the first "SECONDS.FRACTION:" field of the first event (a latency column may precede)
	got=$("$TRACE_CMD" report -N -t "$tmp/out.dat" 2>/dev/null | awk '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			sub(/:$/, "", $i); split($i, t, "."); print t[1], substr(t[2], 1, 6); exit } }')
	diff_us=$(( (${got% *} - want_s) * 1000000 + 1${got#* } - 1$want_us ))
	[ "${diff_us#-}" -le 1 ] ||
		fail "wall-clock time: trace-cmd shows '$got', perf script -F tod '$tod'"
fi

# the [CPU] before the time (fields printed by plugins hold "[120]" priorities)
want=$(sed -n 's/^.* \[0*\([0-9][0-9]*\)\] *[0-9][0-9]*\.[0-9]*: .*$/\1/p' "$tmp/perf" "$tmp/samples" | sort -n | uniq |
	tr '\n' ' ')
got=$("$TRACE_CMD" report --cpus "$tmp/out.dat" 2>/dev/null | sed -n 's/^ *\([0-9][0-9]*\)$/\1/p' |
	sort -n | tr '\n' ' ')
[ "$want" = "$got" ] || fail "trace-cmd report --cpus lists '$got', perf shows '$want'"

"$TRACE_CMD" dump --summary "$tmp/out.dat" > "$tmp/summary" 2>&1 ||
	fail "trace-cmd dump --summary failed"
grep -qi 'flyrecord' "$tmp/summary" || fail "trace-cmd dump --summary shows no CPU data"
grep -q "\"$clock\" clock\|^[[:space:]]*\[$clock\]" "$tmp/summary" ||
	fail "trace-cmd dump --summary does not show the $clock clock"
echo "PASS: $name: CPUs $got"
exit 0
