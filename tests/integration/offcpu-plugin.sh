#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# perf record --off-cpu recordings in KernelShark, headless: each of
# tests/data/offcpu-{direct,batch,old}.data opened through the perf2dat
# plugin as KernelShark opens it (the perf.data itself: the input plugin
# converts it, and keeps the end-of-run batch for the plot plugin), and the
# plugin's p2d_ks_dump_blocked() printed (tests/integration/kshark-stacks
# --blocked). Its intervals must be perf script's direct samples (task, end
# at the sample, length its period, CPU, user frames), its batch perf
# script's end-of-run samples, and the "Off-CPU in view" tree's states
# their counts and times (tests/tools/offcpu-view.py; perf script -s
# tests/tools/offcpu-samples.py gives perf's side, as in offcpu.sh).
# Skipped without the plugin or perf's Python engine.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF:-}" "${PYTHON3:-}" "${KSHARK_TEST:-}"; do
	[ -n "$tool" ] && [ -x "$tool" ] || skip "perf, python3 and the libkshark test program are needed"
done
[ -r "${KSHARK_PLUGIN:-}" ] || skip "the KernelShark plugin is not built"
dump="$(dirname "$KSHARK_TEST")/kshark-stacks"
[ -x "$dump" ] || fail "$dump is not built"
samples="$TOP_SRCDIR/tests/tools/offcpu-samples.py"
check="$TOP_SRCDIR/tests/tools/offcpu-view.py"
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared

# skipped only when this perf has no Python engine; a script that fails
# in a perf that has one is a failure
if ! "$PERF" script -i "$DATA/offcpu-direct.data" -s "$samples" > "$tmp/probe" 2> "$tmp/err"; then
	"$PERF" version --build-options 2> /dev/null | grep -q 'libpython: \[ on' ||
		skip "perf script -s needs perf's Python engine (libpython), which this perf lacks"
	fail "perf script -s offcpu-samples.py: $(head -n 3 "$tmp/err")"
fi

for file in offcpu-direct.data offcpu-batch.data offcpu-old.data; do
	"$PERF" script -i "$DATA/$file" -s "$samples" > "$tmp/samples" 2> "$tmp/err" ||
		fail "$file: perf script -s: $(cat "$tmp/err")"
	cp "$DATA/$file" "$tmp/$file"
	"$dump" --blocked "$KSHARK_PLUGIN" "$tmp/$file" > "$tmp/view" 2> "$tmp/err" ||
		fail "$file: kshark-stacks --blocked: $(cat "$tmp/err")"
	out=$("$PYTHON3" "$check" "$tmp/samples" "$tmp/view") || fail "$file: $out"
	echo "$file: $out"
done
echo "PASS: $T"
