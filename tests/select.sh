#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf2dat's selection options (-e, --cpu, --time, --pid, --tid) against
# perf script given the same selection (tests/select-lib.sh), and the summary
# line's count of the events left out.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: select: $*"
	exit 1
}
convert() {
	"$PERF2DAT" -q "$@"
}
. "$TOP_SRCDIR/tests/select-lib.sh"
need_tools select

run_selection_checks

# the summary counts what the selection left out
"$PERF2DAT" --cpu 1 "$DATA/sample.data" -o "$tmp/s.dat" > "$tmp/out" || fail "summary: conversion"
kept=$(sed -n 's/^perf2dat: \([0-9]*\) events (\([0-9]*\) left out by the selection).*$/\1/p' "$tmp/out")
out=$(sed -n 's/^perf2dat: \([0-9]*\) events (\([0-9]*\) left out by the selection).*$/\2/p' "$tmp/out")
[ -n "$kept" ] && [ $((kept + out)) -eq 629 ] || fail "summary line: $(cat "$tmp/out")"
echo "PASS: select"
