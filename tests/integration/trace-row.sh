#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The stack view finds the entry of a selected row of KernelShark's list by
# the row's CPU, its time as the list prints it and its place among that
# CPU's rows of the same time (plugin/stacks-row.c: KernelShark installs
# nothing that says which entry a row is). Headless, through the plugin as
# KernelShark loads it (tests/integration/kshark-stacks --rows): every
# entry of every CPU of these recordings, converted by the plugin, must be
# found back from its row, including the entries that share a microsecond.
. "$TOP_SRCDIR/tests/lib.sh"
need_progs "${KSHARK_TEST:-}"
[ -r "${KSHARK_PLUGIN:-}" ] || skip "the KernelShark plugin is not built"
dump="$(dirname "$KSHARK_TEST")/kshark-stacks"
need_progs "$dump"
# not while make install relinks the plugin
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared

total=0
later=0
for input in sample.data mixed.data lost.data stacks.data sched-all.data; do
	"$dump" --rows "$KSHARK_PLUGIN" "$DATA/$input" > "$tmp/out" 2> "$tmp/err" ||
		fail "$input: $(cat "$tmp/out" "$tmp/err" | tail -n 12)"
	line=$(grep '^rows: ' "$tmp/out")
	n=$(echo "$line" | sed -n 's/^rows: \([0-9]*\) entries of [0-9]* CPUs (\([0-9]*\) after.*, 0 not found back.*/\1 \2/p')
	[ -n "$n" ] || fail "$input: $(cat "$tmp/out")"
	checked "${n% *}" "$input: no entry checked: $line"
	total=$((total + ${n% *}))
	later=$((later + ${n#* }))
done
# the rows the place among a CPU's rows of one time is for
checked "$later" "no entry shares its CPU and microsecond with another"
echo "PASS: $T: $total entries of 5 recordings found back from their rows," \
	"$later of them after another of their CPU and microsecond"
