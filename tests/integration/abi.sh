#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libperf2dat's ABI against its committed baseline (tests/abi/README):
# 1. abidiff (Debian's abigail-tools) finds no change between the baseline
#    tests/abi/libperf2dat.abi and the library as built: a changed, removed
#    or reordered field, function or type fails; so does an appended field
#    until the baseline is brought forward (make abi-baseline) and
#    -version-info bumped, as the README says;
# 2. a caller compiled against the frozen 0.1 header (tests/abi/old-caller)
#    converts tests/data/sample.data to the same bytes as perf2dat.
. "$TOP_SRCDIR/tests/lib.sh"
abi=$TOP_SRCDIR/tests/abi
command -v abidiff > /dev/null || fail "abidiff not found (Debian package abigail-tools)"
# the shared object itself (the .la names it), not a symlink or a libtool wrapper
dlname=$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$P2D_LIBDIR/../libperf2dat.la")
lib=$(readlink -f "$P2D_LIBDIR/$dlname")
[ -n "$dlname" ] && [ -r "$lib" ] || fail "no shared library in $P2D_LIBDIR ($dlname)"
readelf -S "$lib" | grep -q '\.debug_info' ||
	fail "$lib has no debug information: abidiff needs it (build with CFLAGS containing -g)"

abidiff --headers-dir2 "$TOP_SRCDIR/src" "$abi/libperf2dat.abi" "$lib" > "$tmp/diff" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	cat "$tmp/diff"
	# abidiff's exit status: 4 an ABI change, 8 an incompatible one (libabigail's manual)
	[ $((rc & 8)) -ne 0 ] && kind="an incompatible ABI change" || kind="an ABI change"
	fail "abidiff: $kind against tests/abi/libperf2dat.abi (status $rc); see tests/abi/README"
fi
echo "PASS: abi: abidiff $(abidiff --version | sed 's/^abidiff: //'): no change against the baseline ($(basename "$lib"))"

[ -x "$OLD_CALLER" ] || fail "no $OLD_CALLER"
"$OLD_CALLER" "$DATA/sample.data" "$tmp/old.dat" > "$tmp/old.out" 2>&1
rc=$?
sed 's/^/  /' "$tmp/old.out"
[ $rc -eq 0 ] || fail "the 0.1 caller failed (status $rc)"
grep -q '^ok: the 0.1 caller converts' "$tmp/old.out" || fail "the 0.1 caller did not convert"
"$PERF2DAT" -q "$DATA/sample.data" -o "$tmp/new.dat" > "$tmp/cli.out" 2>&1 ||
	fail "perf2dat: $(cat "$tmp/cli.out")"
cmp "$tmp/old.dat" "$tmp/new.dat" || fail "the 0.1 caller's output differs from perf2dat's"
echo "PASS: abi: a caller of the 0.1 header converts sample.data to perf2dat's bytes ($(wc -c < "$tmp/new.dat") bytes)"
