#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The inputs that crashed, hung or misled perf2dat once (tests/fuzz/regress,
# found by the fuzzer and the sweeps; see the commits that fixed them), each
# given by name and on standard input: the same checks as the sweeps.
. "$TOP_SRCDIR/tests/lib.sh"
. "$(dirname "$0")/sweep-common.sh"
"$SWEEP" -j "$jobs" -t "$timeout" -k "$keep/regress" run "$REGRESS"/*.data
