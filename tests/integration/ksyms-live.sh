#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Kernel symbols on a fresh recording of this machine, converted with no
# option: perf record -g of sched_switch/sched_wakeup, and of cpu-clock,
# both -a, and -z and pipe ones (no kernel build id in them); every kernel frame trace-cmd report shows is named as perf script
# names it (tests/tools/names.py). perf record and perf2dat find the
# symbols by themselves (perf's build-id cache, which perf record fills in
# a HOME of this test's, and the running kernel). Skipped where the kernel
# hides its addresses (kptr_restrict) or perf cannot record: tests/
# integration/ksyms.sh covers the same paths with fixtures.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PERF_REAL:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat, trace-cmd, perf and python3 are needed"
done
if ! head -n 1 /proc/kallsyms 2> /dev/null | grep -qv '^0* '; then
	skip "the running kernel hides its addresses (kernel.kptr_restrict)"
fi
export HOME="$tmp/home" PERF_CONFIG=/dev/null
unset PERF_BUILDID_DIR
mkdir -p "$HOME"
work='for i in 1 2 3 4 5 6; do cat /etc/hostname > /dev/null; done; dd if=/dev/zero of=/dev/null bs=4k count=4000 2> /dev/null; sleep 0.05'
n=0
# the shapes without a kernel build id too (-z, a pipe): named from the
# running kernel, which recorded them
for events in "-e sched:sched_switch -e sched:sched_wakeup" "-e cpu-clock -F 1000" \
	"-z -e cpu-clock -F 1000 -e sched:sched_switch" "pipe -e sched:sched_switch -e cpu-clock"; do
	n=$((n + 1))
	out="-o $tmp/$n.data"
	case $events in
	pipe*) events=${events#pipe } out="-o -" ;;
	esac
	# perf script of perf 7.2 crashed once in many hundred runs on such a
	# recording (SIGSEGV; not reproduced in 15 tries): a crash of perf's
	# own (killed by a signal) records again, twice at most, and says so
	tries=0
	while :; do
		tries=$((tries + 1))
		# shellcheck disable=SC2086
		if ! timeout 60 "$PERF_REAL" record -q -g $events -a $out -- sh -c "$work" \
			> "$tmp/record.out" 2> "$tmp/record.log"; then
			skip "perf record fails here: $(tail -n 1 "$tmp/record.log")"
		fi
		[ "$out" = "-o -" ] && mv "$tmp/record.out" "$tmp/$n.data"
		"$PERF_REAL" script -f -i "$tmp/$n.data" -F time,event,ip,sym --ns > "$tmp/perf" \
			2> "$tmp/perf.err"
		rc=$?
		[ "$rc" = 0 ] && break
		[ "$rc" -gt 128 ] && [ "$tries" -lt 3 ] ||
			fail "$events: perf script (exit status $rc): $(tail -n 3 "$tmp/perf.err")"
		echo "$events: perf script killed by signal $((rc - 128)) (perf's own crash): recording again"
	done
	"$PERF2DAT" -f "$tmp/$n.data" -o "$tmp/$n.dat" > "$tmp/out" 2> "$tmp/err" ||
		fail "$events: $(cat "$tmp/err")"
	grep -q '^perf2dat: kernel symbols: [0-9]* from ' "$tmp/out" ||
		fail "$events: no symbols: $(cat "$tmp/out" "$tmp/err")"
	"$TRACE_CMD" report -t "$tmp/$n.dat" > "$tmp/report" 2> /dev/null || fail "$events: trace-cmd report"
	"$PYTHON3" "$DATA/../tools/names.py" "$tmp/perf" "$tmp/report" > "$tmp/names" ||
		fail "$events: $(cat "$tmp/names")"
	"$TRACE_CMD" report --profile "$tmp/$n.dat" > "$tmp/profile" 2>&1 ||
		fail "$events: trace-cmd report --profile"
	grep -q '^ *[|+ ]*[a-z_][a-z0-9_.]* (0xffff[0-9a-f]*)$' "$tmp/profile" ||
		fail "$events: report --profile names no kernel frame: $(grep -m 5 '+ ' "$tmp/profile")"
	# what the symbols cost
	"$PERF2DAT" -q -f --kallsyms none "$tmp/$n.data" -o "$tmp/bare.dat" 2> "$tmp/err" ||
		fail "$events: --kallsyms none: $(cat "$tmp/err")"
	named=$(wc -c < "$tmp/$n.dat") bare=$(wc -c < "$tmp/bare.dat")
	[ "$named" -le $((bare + bare / 20 + 65536)) ] ||
		fail "$events: $named bytes with symbols, $bare without: more than 5% + 64 KiB"
	echo "$events: $(cat "$tmp/names"); $(sed -n 's/^perf2dat: kernel symbols: //p' "$tmp/out");" \
		"$named bytes, $bare with --kallsyms none"
done
echo "PASS: ksyms-live: four fresh recordings (file, -z, pipe) named as perf names them, at their cost bound"
