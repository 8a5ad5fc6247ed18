#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The progress bar: drawn on a terminal (a pseudo-terminal made by script(1))
# with the bytes read, the events, the rate and the ETA, and cleared before
# the summary; never drawn when standard error is not a terminal, with -q,
# or for a conversion shorter than the delay (1 s; PERF2DAT_PROGRESS_DELAY=0
# here, so that a small recording shows it).
. "$TOP_SRCDIR/tests/lib.sh"
if ! command -v script > /dev/null; then
	skip "script(1) is needed for a terminal"
fi
cd "$tmp" || exit 1
on_tty() {
	# script(1) gives the command a terminal; its transcript is what the terminal got
	script -qec "$1" transcript > /dev/null 2>&1 < /dev/null || fail "script $1: $(cat transcript)"
}

on_tty "PERF2DAT_PROGRESS_DELAY=0 '$PERF2DAT' '$DATA/sample.data' -o a.dat"
grep -q "perf2dat: \\[[#.]*\\] *[0-9]*% [0-9.]*/[0-9.]* [KMG]*i*B, [0-9]* events, .*/s, ETA [0-9]*:[0-9][0-9]" transcript ||
	fail "no progress bar on a terminal: $(cat -v transcript)"
grep -q "$(printf '\r\033\\[K')perf2dat: 629 events" transcript ||
	fail "the bar is not cleared before the summary: $(cat -v transcript)"
echo "bar: $(tr '\r' '\n' < transcript | grep -a 'ETA' | head -n 1 | cat -v)"

on_tty "PERF2DAT_PROGRESS_DELAY=0 '$PERF2DAT' -q -f '$DATA/sample.data' -o a.dat"
grep -q 'ETA' transcript && fail "-q shows progress: $(cat -v transcript)"

# no bar before the delay (60 s, not the default 1 s: a loaded machine can
# take a second over anything)
on_tty "PERF2DAT_PROGRESS_DELAY=60 '$PERF2DAT' -f '$DATA/sample.data' -o a.dat"
grep -q 'ETA' transcript && fail "a bar for a conversion shorter than its delay: $(cat -v transcript)"
grep -q 'perf2dat: 629 events' transcript || fail "no summary: $(cat -v transcript)"

PERF2DAT_PROGRESS_DELAY=0 "$PERF2DAT" -f "$DATA/sample.data" -o a.dat > out 2> err ||
	fail "conversion: $(cat err)"
[ ! -s err ] || fail "progress output without a terminal: $(cat -v err)"
echo "PASS: progress"
