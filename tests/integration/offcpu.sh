#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf record --off-cpu recordings (tests/data/offcpu-direct.data: direct
# samples only; offcpu-batch.data: direct samples and an end-of-run batch;
# offcpu-old.data: perf 5.19 to 6.15's layout, a batch only, which perf 6.1
# decodes itself; tests/data/README.md says how they were made) converted,
# against perf script of the same files: perf places every sample (time,
# CPU), perf's Python engine gives its raw data, or its own decoding of the
# old layout (tests/tools/offcpu-samples.py). The
# conversion must have every event inside the recording's time span, one
# offcpu_time event per direct sample with its time, CPU, task, period and
# user frames, and the batch (OFF_CPU_TIMESTAMP samples) in no event but
# counted in the summary and kept, sample for sample, after the trace.dat's
# end (tests/tools/offcpu-check.py). trace-cmd report must read the file,
# also as version 6 and compressed, without a word on stderr.
# Reads files only: no root needed. Skipped without perf's Python engine.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF:-}" "${PYTHON3:-}" "${TRACE_CMD:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf, python3 and trace-cmd are needed"
done
samples="$TOP_SRCDIR/tests/tools/offcpu-samples.py"
check="$TOP_SRCDIR/tests/tools/offcpu-check.py"

# skipped only when this perf has no Python engine; a script that fails
# in a perf that has one is a failure
if ! "$PERF" script -i "$DATA/offcpu-direct.data" -s "$samples" > "$tmp/probe" 2> "$tmp/err"; then
	"$PERF" version --build-options 2> /dev/null | grep -q 'libpython: \[ on' ||
		skip "perf script -s needs perf's Python engine (libpython), which this perf lacks"
	fail "perf script -s offcpu-samples.py: $(head -n 3 "$tmp/err")"
fi

for pair in direct:direct batch:batch old:old; do
	file=offcpu-${pair%%:*}.data
	want=${pair#*:}
	"$PERF" script -i "$DATA/$file" -s "$samples" > "$tmp/samples" 2> "$tmp/err" ||
		fail "$file: perf script -s: $(cat "$tmp/err")"
	"$PERF" report --header-only -i "$DATA/$file" > "$tmp/header" 2> "$tmp/err" ||
		fail "$file: perf report --header-only: $(cat "$tmp/err")"
	for opts in "" "--file-version 6" "--compression zstd"; do
		# shellcheck disable=SC2086
		"$PERF2DAT" -f --no-user-names $opts "$DATA/$file" -o "$tmp/out.dat" \
			> "$tmp/summary" 2>&1 || fail "$file $opts: perf2dat: $(cat "$tmp/summary")"
		"$TRACE_CMD" report -t "$tmp/out.dat" > "$tmp/report" 2> "$tmp/err" ||
			fail "$file $opts: trace-cmd report: $(cat "$tmp/err")"
		[ -s "$tmp/err" ] && fail "$file $opts: trace-cmd report says: $(cat "$tmp/err")"
		out=$("$PYTHON3" "$check" "$tmp/samples" "$tmp/header" "$tmp/report" \
			"$tmp/summary" "$tmp/out.dat" "$want") || fail "$file $opts: $out"
		echo "$file $opts: $out"
	done
done

# The raw data is bounds-checked: the first sample in offcpu-batch.data's
# data section (a direct one, of 14 user frames) given a chain longer than
# its raw data (nr 0xffff) is skipped with a warning naming its offset;
# the rest converts as before (4 of 5 direct samples, the batch).
"$PYTHON3" - "$DATA/offcpu-batch.data" "$tmp/bad.data" << 'PY' || fail "damaging the raw data"
import struct, sys
buf = bytearray(open(sys.argv[1], "rb").read())
off, end = struct.unpack_from("<QQ", buf, 40)
end += off
while off < end:
    rtype, _, size = struct.unpack_from("<IHH", buf, off)
    if rtype == 9:      # the first sample: IDENTIFIER IP TID TIME CPU PERIOD, then RAW
        struct.pack_into("<Q", buf, off + 8 + 48 + 4 + 16, 0xffff)
        break
    off += size
open(sys.argv[2], "wb").write(buf)
PY
"$PERF2DAT" -f "$tmp/bad.data" -o "$tmp/bad.dat" > "$tmp/summary" 2>&1 ||
	fail "damaged raw data: perf2dat: $(cat "$tmp/summary")"
grep -q "warning: .*offset 0x[0-9a-f]*: malformed sample" "$tmp/summary" ||
	fail "damaged raw data: no warning with an offset: $(cat "$tmp/summary")"
grep -q "^perf2dat: 12 events (4 other samples, 8 stacks)" "$tmp/summary" &&
	grep -q "1 sample could not be converted" "$tmp/summary" &&
	grep -q "end-of-run batch: 8 samples, 0.181303 s" "$tmp/summary" ||
	fail "damaged raw data: $(cat "$tmp/summary")"
echo "damaged raw data: $(grep -c . "$tmp/summary") lines, the sample skipped, the rest converted"
echo "PASS: $T"
