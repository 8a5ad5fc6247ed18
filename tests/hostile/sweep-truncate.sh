#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Truncation sweep (tests/hostile/sweep.c): recordings cut at many points, among
# them one byte before, at and after a sample of record and section
# boundaries; also big-endian and 32-bit twins (tests/tools/perf-rewrite.py).
# Every run converts (and trace-cmd report reads the output) or fails with
# one line and leaves nothing; never a signal, never a hang.
. "$TOP_SRCDIR/tests/lib.sh"
. "$(dirname "$0")/sweep-common.sh"
tw=$(twins "$tmp" sample.data pipe.data lost.data) || fail "the twins"
# shellcheck disable=SC2086
"$SWEEP" -j "$jobs" -t "$timeout" -k "$keep/truncate" truncate $tw \
	"$DATA/sample.data" "$DATA/pipe.data" "$DATA/pipe-zstd.data" "$DATA/zstd.data" \
	"$DATA/lost.data" "$DATA/threads.data" "$DATA/mixed.data" "$DATA/sampletypes.data" \
	"$DATA/readfmt.data" "$DATA/strings.data" "$DATA/single.data" "$DATA/clock-mono.data"
