#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Truncated and damaged recordings: a stream cut mid-record converts what is
# complete and warns with the offset; trailing garbage is reported, not
# fatal; a file-mode recording cut before its event formats (which perf
# writes last) is a one-line error; a header whose data size perf never
# filled in (0) still converts. What the output holds is compared with what
# perf script shows for the same damaged input.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "tools missing"
done
fields="-F trace:comm,tid,cpu,time,event,trace --ns"
. "$DATA/../tools/report-plugins.sh"
checks=0

# expect_same NAME INPUT PERF_INPUT: converts with a warning, equals perf on PERF_INPUT
expect_same() {
	"$PERF2DAT" -f -i - -o "$tmp/out.dat" < "$2" > /dev/null 2> "$tmp/err" ||
		fail "$1: exit $?: $(cat "$tmp/err")"
	grep -q 'warning: <stdin>: offset 0x[0-9a-f]*: ' "$tmp/err" || fail "$1: no warning with an offset"
	"$PERF" script -f -i "$3" $fields > "$tmp/perf" 2> /dev/null
	"$TRACE_CMD" report $NOPLUGINS -t "$tmp/out.dat" > "$tmp/report" 2> /dev/null || fail "$1: report"
	"$PYTHON3" "$COMPARE" "$tmp/perf" "$tmp/report" --name "$1" > "$tmp/cmp" ||
		fail "$(cat "$tmp/cmp")"
	checks=$((checks + 1))
}

# expect_error NAME INPUT: exit 1, one line naming the file and an offset, no output
expect_error() {
	rm -f "$tmp/err.dat"
	"$PERF2DAT" -q "$2" -o "$tmp/err.dat" 2> "$tmp/err"
	[ $? -eq 1 ] || fail "$1: exit status"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$1: not one line: $(cat "$tmp/err")"
	grep -q "^perf2dat: $2: offset 0x[0-9a-f]*: " "$tmp/err" || fail "$1: message: $(cat "$tmp/err")"
	[ ! -e "$tmp/err.dat" ] || fail "$1: output left behind"
	checks=$((checks + 1))
}

# pipe-mode streams cut at several places, inside records
size=$(wc -c < "$DATA/pipe.data")
for cut in 36001 38000 39999 $((size - 3)); do
	head -c $cut "$DATA/pipe.data" > "$tmp/cut.data"
	expect_same "pipe cut at $cut" "$tmp/cut.data" "$tmp/cut.data"
done
# compressed stream cut inside a compressed record
size=$(wc -c < "$DATA/pipe-zstd.data")
head -c $((size - 100)) "$DATA/pipe-zstd.data" > "$tmp/cutz.data"
expect_same "pipe-zstd cut" "$tmp/cutz.data" "$tmp/cutz.data"

# trailing garbage after the last record
{ cat "$DATA/pipe.data"; printf 'garbage after the end of the recording\001\002'; } > "$tmp/garb.data"
expect_same "trailing garbage" "$tmp/garb.data" "$DATA/pipe.data"

# file mode: the formats come last, so a cut file is an error, whatever the cut
for cut in 5000 70000 137000 139000; do
	head -c $cut "$DATA/sample.data" > "$tmp/cutf$cut.data"
	(cd "$tmp" && expect_error "file cut at $cut" "cutf$cut.data") || exit 1
	checks=$((checks + 1))
done
# ... unless only feature sections after the formats are lost
size=$(wc -c < "$DATA/sample.data")
head -c $((size - 100)) "$DATA/sample.data" > "$tmp/cutend.data"
expect_same "file cut in its last features" "$tmp/cutend.data" "$DATA/sample.data"

# data size 0 in the header (perf stopped before rewriting it): read to the end
cp "$DATA/sample.data" "$tmp/zero.data"
printf '\0\0\0\0\0\0\0\0' | dd of="$tmp/zero.data" bs=1 seek=48 conv=notrunc 2> /dev/null
"$PERF2DAT" "$tmp/zero.data" -o "$tmp/zero.dat" > /dev/null 2> "$tmp/err" || fail "data size 0: $(cat "$tmp/err")"
grep -q 'data size is 0' "$tmp/err" || fail "data size 0: no warning"
"$PERF" script -f -i "$DATA/sample.data" $fields > "$tmp/perf" 2> /dev/null
"$TRACE_CMD" report $NOPLUGINS -t "$tmp/zero.dat" > "$tmp/report" 2> /dev/null
"$PYTHON3" "$COMPARE" "$tmp/perf" "$tmp/report" --name "data size 0" > "$tmp/cmp" || fail "$(cat "$tmp/cmp")"
checks=$((checks + 1))

# a stream cut before its first sample or event formats: an error naming the cut
head -c 200 "$DATA/pipe.data" > "$tmp/cuthead.data"
"$PERF2DAT" -q -i - -o "$tmp/err.dat" < "$tmp/cuthead.data" 2> "$tmp/err"
[ $? -eq 1 ] || fail "pipe cut before its formats: exit status"
[ "$(cat "$tmp/err")" = "perf2dat: <stdin>: offset 0xa8: the input ends inside a record before its first sample or event formats (truncated): nothing to convert" ] ||
	fail "pipe cut before its formats: $(cat "$tmp/err")"
[ ! -e "$tmp/err.dat" ] || fail "pipe cut before its formats: output left behind"
checks=$((checks + 1))

# perf record killed: the header's data size is 0 and nothing follows the
# records (the event formats are written last): the error names the end of
# the file, where they would be
"$PYTHON3" -c 'import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", d, 40)
struct.pack_into("<Q", d, 48, 0)
open(sys.argv[2], "wb").write(d[:off + size])' "$DATA/sample.data" "$tmp/killed.data" ||
	fail "killed: rewriting"
end=$(printf '0x%x' "$(wc -c < "$tmp/killed.data")")
"$PERF2DAT" -q "$tmp/killed.data" -o "$tmp/err.dat" 2> "$tmp/err"
[ $? -eq 1 ] || fail "killed: exit status"
grep -q "^perf2dat: $tmp/killed.data: offset $end: the tracing data (event formats) is missing" \
	"$tmp/err" || fail "killed: $(cat "$tmp/err")"
[ ! -e "$tmp/err.dat" ] || fail "killed: output left behind"
checks=$((checks + 1))

# a perf stat record file holds counts, not samples: said so, in one line
"$PERF2DAT" -q "$DATA/stat-record.data" -o "$tmp/err.dat" 2> "$tmp/err"
[ $? -eq 1 ] || fail "perf stat record file: exit status"
[ "$(sed "s|$DATA/||" "$tmp/err")" = "perf2dat: stat-record.data: a perf stat record file: it holds counter values, not samples (perf stat report -i FILE shows them); nothing to convert" ] ||
	fail "perf stat record file: $(cat "$tmp/err")"
[ ! -e "$tmp/err.dat" ] || fail "perf stat record file: output left behind"
checks=$((checks + 1))

echo "PASS: damaged: $checks cases"
