#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# KernelShark's list, Info column, of the stack events of a conversion
# (tests/data/stacks.data, perf record -g, kernel and user frames left as
# addresses: --kallsyms none --no-user-names): libkshark's Info through the
# plugin (tests/integration/kshark-stacks ... info, kshark_get_info() as the
# list calls it) must be one line, the frames of perf's chain (perf script
# -D) from the top one on: a kernel_stack "=> ADDR" per kernel frame, the
# user_stack events "=> 0xADDR" per user frame, 8 to an event.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF:-}" "${PYTHON3:-}" "${KSHARK_TEST:-}" "${PERF2DAT:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "perf, python3 and the libkshark test program are needed"
	fi
done
if [ ! -r "${KSHARK_PLUGIN:-}" ]; then
	skip "the KernelShark plugin is not built"
fi
dump="$(dirname "$KSHARK_TEST")/kshark-stacks"
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
in=$DATA/stacks.data
"$PERF" script -f -D -i "$in" > "$tmp/dump" 2> "$tmp/err" ||
	fail "perf script -D: $(tail -n 3 "$tmp/err")"
"$PERF2DAT" -q -f --kallsyms none --no-user-names "$in" -o "$tmp/out.dat" 2> "$tmp/err" ||
	fail "conversion: $(cat "$tmp/err")"
"$dump" "$KSHARK_PLUGIN" "$tmp/out.dat" info > "$tmp/info" 2> "$tmp/err" ||
	fail "kshark-stacks: $(cat "$tmp/err")"
cat > "$tmp/check.py" <<'PY'
import collections
import sys

sys.path.insert(0, sys.argv[1])
import compare  # noqa: E402  (perf script -D's chains, as the e2e tests read them)

want = collections.defaultdict(collections.deque)
for (cpu, ts, tid), chains in sorted(compare.parse_chains(sys.argv[2]).items()):
    for chain in chains:
        k, u = compare.split_chain(chain)
        rows = [('kernel_stack', ' '.join(f'=> {a:x}' for a in k))]
        rows += [('user_stack', ' '.join(f'=> 0x{a:x}' for a in u[i:i + 8]))
                 for i in range(0, len(u), 8)]
        want[(cpu, ts, tid)].extend(rows)
got = collections.defaultdict(collections.deque)
n = 0
with open(sys.argv[3]) as f:
    for line in f:
        parts = line.rstrip('\n').split(' ', 5)
        if parts[0] != 'info':
            continue
        _, ev, cpu, ts, pid, text = parts + [''] * (6 - len(parts))
        got[(int(cpu), int(ts), int(pid))].append((ev, text))
        n += 1
errors = []
for key in sorted(set(want) | set(got)):
    if list(want[key]) != list(got[key]):
        errors.append(f'CPU {key[0]} time {key[1]} pid {key[2]}:\n  perf:        '
                      f'{list(want[key])}\n  KernelShark: {list(got[key])}')
frames = sum(t.count('=>') for q in got.values() for _, t in q)
if not n or not frames:
    errors.append(f'{n} stack entries, {frames} frames: nothing compared')
if errors:
    print(f'{len(errors)} samples differ; the first:')
    print('\n'.join(errors[:4]))
    sys.exit(1)
print(f'kshark-info: {n} stack entries, {frames} frames, each on one line, top first')
PY
"$PYTHON3" "$tmp/check.py" "$TOP_SRCDIR/tests/e2e" "$tmp/dump" "$tmp/info" ||
	fail "the Info column differs (above)"
echo "PASS: kshark-info: the Info of every stack event is its frames on one line, top first"
