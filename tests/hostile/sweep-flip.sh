#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Bit-flip sweep (tests/hostile/sweep.c): SWEEP_FLIPS (3000) mutations of every
# recording and of big-endian and 32-bit twins (tests/tools/perf-rewrite.py),
# drawn from SWEEP_SEED (1): bits flipped anywhere, in headers, record headers
# and feature sections, words set to boundary values. The same checks as the
# truncation sweep.
. "$TOP_SRCDIR/tests/lib.sh"
. "$(dirname "$0")/sweep-common.sh"
tw=$(twins "$tmp" sample.data pipe.data strings.data sampletypes.data) || fail "the twins"
# shellcheck disable=SC2086
"$SWEEP" -j "$jobs" -t "$timeout" -k "$keep/flip" flip "${SWEEP_FLIPS:-3000}" \
	"${SWEEP_SEED:-1}" "$DATA"/*.data "$DATA/threads.data" $tw
