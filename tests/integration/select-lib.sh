# SPDX-License-Identifier: GPL-2.0-or-later
#
# Selection checks shared by tests/select.sh (perf2dat) and tests/frontend.sh
# (the installed trace-cmd convert --from-perf): each selection option is
# given to the converter and, where perf script has it (--cpu, --time, --pid,
# --tid), the same option to perf script, and compare.py checks that
# trace-cmd report of the result shows exactly perf script's events. Event
# selection (-e) is checked against perf script's full output less the
# events that were not selected.
#
# The caller sources tests/lib.sh first ($tmp, fail, skip) and defines
# convert OPTIONS... INPUT -o OUTPUT (exit status of the converter).

FIELDS="-F trace:comm,tid,cpu,time,event,trace --ns"
. "$DATA/../tools/report-plugins.sh"

need_tools() {
	for tool in "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
		if [ -z "$tool" ] || [ ! -x "$tool" ]; then
			skip "trace-cmd, perf and python3 are needed"
		fi
	done
}

# perf script of a recording, with extra options
perf_script() {
	input=$1
	shift
	"$PERF" script -f -i "$DATA/$input" $FIELDS "$@" 2> "$tmp/perf.err" ||
		fail "perf script $*: $(head -c 300 "$tmp/perf.err")"
}

report() {
	"$TRACE_CMD" report $NOPLUGINS -t "$1" 2> "$tmp/report.err" ||
		fail "trace-cmd report $1: $(head -c 300 "$tmp/report.err")"
}

# the task names the trace.dat holds: trace-cmd report -N (with plugins,
# libtraceevent 1.8 renames tasks after the comm fields of sched events)
names_report() {
	"$TRACE_CMD" report -N -t "$1" 2> "$tmp/report.err" ||
		fail "trace-cmd report -N $1: $(head -c 300 "$tmp/report.err")"
}

# comms INPUT: perf's COMM records of INPUT (the names a task had) in $tmp/comms
comms() {
	"$PERF" script -f -D -i "$DATA/$1" 2> /dev/null | grep -a 'PERF_RECORD_COMM' > "$tmp/comms" ||
		fail "perf script -D $1 shows no COMM record"
}

# sel_case NAME INPUT OPTIONS...: OPTIONS mean the same to both tools
sel_case() {
	name=$1 input=$2
	shift 2
	rm -f "$tmp/sel.dat"
	convert "$@" "$DATA/$input" -o "$tmp/sel.dat" > "$tmp/conv.out" 2>&1 ||
		fail "$name: converting with $*: $(cat "$tmp/conv.out")"
	perf_script "$input" "$@" > "$tmp/sel.perf"
	[ -s "$tmp/sel.perf" ] || fail "$name: perf script $* selects nothing: a useless case"
	report "$tmp/sel.dat" > "$tmp/sel.report"
	names_report "$tmp/sel.dat" > "$tmp/sel.names"
	comms "$input"
	"$PYTHON3" "$COMPARE" "$tmp/sel.perf" "$tmp/sel.report" --names-report "$tmp/sel.names" \
		--perf-comms "$tmp/comms" --name "$name ($*)" ||
		fail "$name: trace-cmd report differs from perf script $*"
}

# event_case NAME INPUT "SYS:EVENT ..." OPTIONS...: the events OPTIONS select
event_case() {
	name=$1 input=$2 keep=$3
	shift 3
	rm -f "$tmp/sel.dat"
	convert "$@" "$DATA/$input" -o "$tmp/sel.dat" > "$tmp/conv.out" 2>&1 ||
		fail "$name: converting with $*: $(cat "$tmp/conv.out")"
	perf_script "$input" > "$tmp/sel.perf"
	ignore=
	for ev in $(sed -n 's/^.*: *\([^ :]*:[^ :]*\): .*$/\1/p' "$tmp/sel.perf" | sort -u); do
		case " $keep " in
		*" $ev "*) ;;
		*) ignore="$ignore --ignore-event $ev" ;;
		esac
	done
	report "$tmp/sel.dat" > "$tmp/sel.report"
	names_report "$tmp/sel.dat" > "$tmp/sel.names"
	comms "$input"
	"$PYTHON3" "$COMPARE" "$tmp/sel.perf" "$tmp/sel.report" --names-report "$tmp/sel.names" \
		--perf-comms "$tmp/comms" --name "$name ($*)" $ignore ||
		fail "$name: trace-cmd report is not perf script's $keep"
}

# sel_error NAME MESSAGE OPTIONS... INPUT: the conversion fails, saying MESSAGE
sel_error() {
	name=$1 msg=$2
	shift 2
	rm -f "$tmp/err.dat"
	convert "$@" -o "$tmp/err.dat" > "$tmp/conv.out" 2>&1 && fail "$name: $* accepted"
	grep -q -- "$msg" "$tmp/conv.out" || fail "$name: message: $(cat "$tmp/conv.out")"
	[ ! -e "$tmp/err.dat" ] || fail "$name: output left behind"
}

# sel_empty NAME OPTIONS... INPUT: perf script selects nothing either; the
# output is a valid trace.dat without events (convert is quiet: the warning
# that says why is checked by cli.sh)
sel_empty() {
	name=$1
	shift
	rm -f "$tmp/empty.dat"
	convert "$@" -o "$tmp/empty.dat" > "$tmp/conv.out" 2> "$tmp/conv.err" ||
		fail "$name: $* failed: $(cat "$tmp/conv.err")"
	[ ! -s "$tmp/conv.err" ] || fail "$name: -q printed: $(cat "$tmp/conv.err")"
	report "$tmp/empty.dat" > "$tmp/empty.report"
	[ "$(grep -vc '^cpus=' "$tmp/empty.report")" -eq 0 ] ||
		fail "$name: report shows events: $(head -3 "$tmp/empty.report")"
}

run_selection_checks() {
	perf_script sample.data > "$tmp/all.perf"
	ts() { sed -n "$1p" "$tmp/all.perf" | sed 's/^.*\] *\([0-9.]*\):.*$/\1/'; }
	t1=$(ts 100) t2=$(ts 200) t3=$(ts 300) t4=$(ts 400) t5=$(ts 500)
	# pids (and tids) with events, the busiest first; 0 is the idle task
	"$PERF" script -f -i "$DATA/sample.data" -F pid,tid 2>/dev/null | tr '/' ' ' |
		awk '$1 != 0 { print $1, $2 }' | sort | uniq -c | sort -rn > "$tmp/pids"
	p1=$(awk 'NR == 1 { print $2 }' "$tmp/pids") p2=$(awk 'NR == 2 { print $2 }' "$tmp/pids")
	tid=$(awk 'NR == 3 { print $3 }' "$tmp/pids")

	sel_case cpu sample.data --cpu 1
	sel_case cpu-list lost.data --cpu 0,1
	sel_case time sample.data --time "$t1,$t4"
	sel_case time-open-end sample.data --time "$t3,"
	sel_case time-open-start sample.data --time ",$t2"
	sel_case time-windows sample.data --time "$t1,$t2 $t3,$t4"
	sel_case time-percent sample.data --time 25%
	sel_case time-slice sample.data --time 10%/2
	sel_case time-percent-ranges sample.data --time 0%-10%,30%-40%
	sel_case pid sample.data --pid "$p1,$p2"
	sel_case tid sample.data --tid "$tid"
	sel_case combined sample.data --cpu 0 --time "$t1,$t5" --pid "$p1,$p2,0"

	event_case event sample.data "sched:sched_switch" -e sched:sched_switch
	event_case event-glob sched-all.data "sched:sched_wakeup sched:sched_wakeup_new sched:sched_waking" \
		-e 'sched:sched_wak*'
	event_case event-name sample.data "sched:sched_switch" -e sched_switch
	event_case event-system syscalls.data "raw_syscalls:sys_enter raw_syscalls:sys_exit" \
		-e raw_syscalls
	event_case event-list sample.data "sched:sched_switch sched:sched_process_exec sched:sched_process_fork" \
		-e sched:sched_switch,sched:sched_process_exec -e 'sched:*fork'

	sel_error no-such-event "no such event in the recording" -e sched:nosuch "$DATA/sample.data"
	sel_error cpu-range "the recording has CPUs 0-1" --cpu 7 "$DATA/sample.data"
	sel_error cpu-syntax "--cpu x1: 'x1' is not a number" --cpu x1 "$DATA/sample.data"
	sel_error time-syntax "--time yesterday" --time yesterday "$DATA/sample.data"
	sel_error time-order "ends before it starts" --time "$t4,$t1" "$DATA/sample.data"
	sel_error percent-pipe "percentages need the first and last sample times" \
		--time 10% "$DATA/pipe.data"
	perf_script sample.data --time 1,2 > "$tmp/none.perf"
	[ ! -s "$tmp/none.perf" ] || fail "perf script --time 1,2 selects events"
	sel_empty nothing-left --time "1,2" "$DATA/sample.data"
}
