#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Command-line behaviour of perf2dat: default output name, refusal to
# overwrite, --force, one-line errors naming the file, nothing left behind
# after a failure, --help and --version.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: cli: $*"
	exit 1
}
cd "$tmp" || exit 1

"$PERF2DAT" --help | grep -q 'usage: perf2dat' || fail "--help"
"$PERF2DAT" --version | grep -q '^perf2dat [0-9]' || fail "--version"
"$PERF2DAT" > out 2> err && fail "no input accepted"

# default output name, and the summary line
"$PERF2DAT" "$DATA/sample.data" > out 2> err || fail "conversion: $(cat err)"
[ -s trace.dat ] || fail "trace.dat not written"
grep -q '^perf2dat: 629 events, 2 CPUs, 0 lost, [0-9]* tasks -> trace.dat' out ||
	fail "summary line: $(cat out)"

# an existing output is refused and left alone without -f
echo precious > keep.dat
"$PERF2DAT" -q "$DATA/sample.data" -o keep.dat 2> err && fail "overwrote without -f"
[ "$(cat keep.dat)" = precious ] || fail "existing output was modified"
grep -q 'exists (use --force' err || fail "refusal message: $(cat err)"
"$PERF2DAT" -q -f "$DATA/sample.data" -o keep.dat || fail "-f did not replace"
[ "$(head -c 3 keep.dat | od -An -tx1 | tr -d ' ')" = 170844 ] || fail "-f output is not a trace.dat"

# errors: one line, "perf2dat: FILE: ...", exit 1, nothing left behind
printf 'not a perf file at all' > bad.data
"$PERF2DAT" -q bad.data -o bad.dat 2> err
[ $? -eq 1 ] || fail "bad input: exit status"
[ "$(wc -l < err)" -eq 1 ] || fail "bad input: more than one line: $(cat err)"
grep -q '^perf2dat: bad.data: offset 0x0: not a perf.data file' err || fail "message: $(cat err)"
[ ! -e bad.dat ] || fail "output left after an error"
ls -A | grep -q perf2dat && fail "temporary files left: $(ls -A)"

# a truncated copy converts what is complete, with a warning naming the offset
head -c 100000 "$DATA/sample.data" > cut.data
"$PERF2DAT" -q -f cut.data -o cut.dat 2> err
case $? in
0) [ -s cut.dat ] || fail "truncated: no output" ;;
1) [ ! -e cut.dat ] || fail "truncated: output left after an error"
   grep -q '^perf2dat: cut.data: ' err || fail "truncated: message: $(cat err)" ;;
*) fail "truncated: exit status $?" ;;
esac

# no tracepoint samples at all
"$PERF2DAT" -q "$DATA/no-tracepoints.data" -o none.dat 2> err && fail "no tracepoints accepted"
grep -q 'no tracepoint samples to convert (58 other samples' err || fail "no tracepoints: $(cat err)"
[ ! -e none.dat ] || fail "no tracepoints: output left"

# an output directory that does not exist
"$PERF2DAT" -q "$DATA/sample.data" -o "$tmp/nodir/x.dat" 2> err && fail "missing directory accepted"
[ "$(wc -l < err)" -eq 1 ] || fail "missing directory: $(cat err)"

# version 6 on request
"$PERF2DAT" -q --file-version 6 "$DATA/sample.data" -o v6.dat || fail "--file-version 6"
[ "$(od -An -c -j 10 -N 1 v6.dat | tr -d ' ')" = 6 ] || fail "not a version 6 file"
"$PERF2DAT" --file-version 5 "$DATA/sample.data" -o v5.dat 2> err && fail "version 5 accepted"
echo "PASS: cli"
