#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# DWARF user stacks where the files are not the recording's: the program of
# tests/data/unwind.data (tests/data/unwind/prog) with another build id
# (its note changed, nothing else), at its path under --symfs, gives no
# user frame, never a wrong one, and the summary counts the stacks cut
# short; missing altogether, likewise. Unwinding the right file is compared
# with perf by tests/e2e/unwind-*.e2e.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF2DAT:-}" "${TRACE_CMD:-}" "${PYTHON3:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf2dat, trace-cmd and python3 are needed"
done
in=$DATA/unwind.data
mkdir -p "$tmp/good/tmp/perf2dat-unwind" "$tmp/changed/tmp/perf2dat-unwind" "$tmp/cache" \
	"$tmp/missing"
cp "$DATA/unwind/prog" "$tmp/good/tmp/perf2dat-unwind/prog"
# the same program, its build id note changed
"$PYTHON3" -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.find(b"GNU\0", b.find(b"\x03\0\0\0GNU\0") - 8) + 4
b[i] ^= 0xff
open(sys.argv[2], "wb").write(b)' "$DATA/unwind/prog" "$tmp/changed/tmp/perf2dat-unwind/prog" ||
	fail "cannot change the build id"
cmp -s "$DATA/unwind/prog" "$tmp/changed/tmp/perf2dat-unwind/prog" && fail "the copy is the same"

# user_stack events and their non-zero frames
frames() {
	"$TRACE_CMD" report "$1" 2> /dev/null | awk '/user_stack:/ { n++ } /=> 0x[1-9a-f]/ { f++ }
		END { printf "%d %d\n", n, f }'
}

PERF_BUILDID_DIR=$tmp/cache "$PERF2DAT" -f --kallsyms none --no-user-names --symfs "$tmp/good" "$in" \
	-o "$tmp/good.dat" > "$tmp/out" 2> "$tmp/err" || fail "good: $(cat "$tmp/err")"
set -- $(frames "$tmp/good.dat")
[ "$1" -gt 100 ] && [ "$2" -gt 500 ] || fail "good: only $1 user stacks, $2 frames"
stacks=$(sed -n 's/^perf2dat: user stacks unwound: \([0-9]*\), 0 of them stop early.*/\1/p' "$tmp/out")
[ -n "$stacks" ] && [ "$stacks" -gt 100 ] || fail "good: summary: $(cat "$tmp/out")"

for case in changed missing; do
	PERF_BUILDID_DIR=$tmp/cache "$PERF2DAT" -f --kallsyms none --no-user-names --symfs "$tmp/$case" "$in" \
		-o "$tmp/$case.dat" > "$tmp/out" 2> "$tmp/err" || fail "$case: $(cat "$tmp/err")"
	set -- $(frames "$tmp/$case.dat")
	[ "$1" -eq 0 ] && [ "$2" -eq 0 ] || fail "$case: $1 user stacks, $2 frames from a file not the recording's"
	grep -q "^perf2dat: user stacks unwound: $stacks, $stacks of them stop early" "$tmp/out" ||
		fail "$case: summary: $(cat "$tmp/out")"
	grep -q "warning: $stacks user stacks stop early, at a file missing here or of another build id" \
		"$tmp/err" || fail "$case: warning: $(cat "$tmp/err")"
done
echo "PASS: unwind: $stacks stacks: none unwound from a changed or missing program"
