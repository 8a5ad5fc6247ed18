#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The KernelShark stack view, headless, against perf: each recording is
# opened in libkshark through the plugin (as perf.data, through the input
# plugin, and as the trace.dat perf2dat writes), the plugin's plot interface
# put on the stream as KernelShark does, and its p2d_ks_dump() printed
# (tests/integration/kshark-stacks). For every sample perf script shows
# with a call chain, the panel must list the same frames in the same order,
# each under the same name+offset and file as perf script -F ip,sym,symoff,dso
# (kernel names from the recording's kallsyms, user names from the files
# of a --symfs root, [unknown] where perf has none), and no other sample.
# The call tree must have, for every path from an outermost caller, as many
# samples as perf's chains that start with that path, and for sched_switch
# samples the time until perf script shows the task switched in again.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${PERF:-}" "${PYTHON3:-}" "${KSHARK_TEST:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "perf, python3 and the libkshark test program are needed"
	fi
done
if [ ! -r "${KSHARK_PLUGIN:-}" ]; then
	skip "the KernelShark plugin is not built"
fi
dump="$(dirname "$KSHARK_TEST")/kshark-stacks"
# not while make install relinks the plugin
. "$TOP_SRCDIR/tests/integration/plugin-lock.sh"
plugin_lock_shared
mkdir -p "$tmp/empty" "$tmp/root/tmp/perf2dat-unwind"
cp "$DATA/unwind/prog" "$tmp/root/tmp/perf2dat-unwind/prog"
ks="$DATA/ksyms.kallsyms"

# check INPUT ROOT: the panel and tree of INPUT, as perf.data and as trace.dat
check() {
	input=$1 root=$2
	PERF_ISOLATED_KALLSYMS=$ks PERF_ISOLATED_SYMFS=$root "$PERF" script -f -i "$DATA/$input" \
		-F cpu,time,pid,event,ip,sym,symoff,dso --ns > "$tmp/perf" 2> "$tmp/perf.err" ||
		fail "$input: perf script: $(head -3 "$tmp/perf.err")"
	PERF_ISOLATED_KALLSYMS=$ks PERF_ISOLATED_SYMFS=$root "$PERF" script -f -i "$DATA/$input" \
		-F cpu,time,pid,event,trace --ns > "$tmp/trace" 2> /dev/null ||
		fail "$input: perf script -F trace"
	PERF2DAT_KALLSYMS=$ks PERF2DAT_SYMFS=$root "$dump" "$KSHARK_PLUGIN" "$DATA/$input" \
		> "$tmp/view-perf" 2> "$tmp/err" || fail "$input: kshark-stacks: $(cat "$tmp/err")"
	"$PERF2DAT" -q -f --kallsyms "$ks" --symfs "$root" "$DATA/$input" -o "$tmp/out.dat" \
		2> "$tmp/err" || fail "$input: perf2dat: $(cat "$tmp/err")"
	PERF2DAT_SYMFS=$root "$dump" "$KSHARK_PLUGIN" "$tmp/out.dat" > "$tmp/view-dat" \
		2> "$tmp/err" || fail "$input: kshark-stacks on the trace.dat: $(cat "$tmp/err")"
	cmp -s "$tmp/view-perf" "$tmp/view-dat" ||
		fail "$input: the view differs between perf.data and its trace.dat"
	# a trace.dat of another program (trace-cmd record -T --proc-map): the
	# view names its user frames itself, from the files, with the same rules
	"$PYTHON3" "$TOP_SRCDIR/tests/tools/name-files.py" text "$tmp/out.dat" "$tmp/native.dat" \
		'perf2dat ' 'p2d-test ' || fail "$input: rewriting VERSION"
	PERF2DAT_SYMFS=$root "$dump" "$KSHARK_PLUGIN" "$tmp/native.dat" > "$tmp/view-native" \
		2> "$tmp/err" || fail "$input: kshark-stacks on a native trace.dat: $(cat "$tmp/err")"
	cmp -s "$tmp/view-perf" "$tmp/view-native" ||
		fail "$input: the view of a native trace.dat differs: $(diff "$tmp/view-perf" "$tmp/view-native" | head -5)"
	"$PYTHON3" - "$tmp/perf" "$tmp/trace" "$tmp/view-perf" "$input" <<'PY' || fail "$input"
import collections, re, sys
perf_path, trace_path, view_path, name = sys.argv[1:]

def bad(msg):
    print('%s: %s' % (name, msg))
    sys.exit(1)

head_re = re.compile(r'^\s*(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):')
frame_re = re.compile(r'^\s+([0-9a-f]+) (\S+) \((.*)\)$')

def key(cpu, sec, ns, pid):
    return (int(sec) * 10**9 + int(ns), int(cpu), int(pid))

# perf script: a header per sample, then its frames, then a blank line
perf = []
cur = None
for n, line in enumerate(open(perf_path, errors='replace'), 1):
    line = line.rstrip('\n')
    m = head_re.match(line)
    if m:
        pid, cpu, sec, ns, ev = m.groups()
        cur = [key(cpu, sec, ns, pid), ev, [], []]
        perf.append(cur)
        continue
    if not line.strip():
        cur = None
        continue
    m = frame_re.match(line)
    if not m or cur is None:
        bad('perf script line %d not understood: %r' % (n, line))
    # PROCMAPS names a file up to its first blank (" (deleted)" goes)
    cur[2].append((m.group(2), m.group(3).split(' ')[0]))
    cur[3].append(int(m.group(1), 16))
# user_stack events are zero-padded: a trailing 0 caller (perf: "0 [unknown]
# ([unknown])") cannot be told from the padding, and the panel ends before it
for p in perf:
    while p[2] and p[2][-1] == ('[unknown]', '[unknown]') and p[3][-1] == 0:
        p[2].pop()
        p[3].pop()
perf = [p for p in perf if p[2]]
if not perf:
    bad('perf script shows no sample with a call chain')

# the view: "sample CPU TS PID EVENT", "frame k|u ADDR NAME (FILE)", "tree ..."
view, tree = [], {}
path = []
frame_v = re.compile(r'^frame [ku] +([0-9a-f]+) (\S+) \((.*)\)$')
for n, line in enumerate(open(view_path, errors='replace'), 1):
    line = line.rstrip('\n')
    if line.startswith('sample '):
        _, cpu, ts, pid, ev = line.split(' ', 4)
        view.append([(int(ts), int(cpu), int(pid)), ev, []])
    elif line.startswith('frame '):
        m = frame_v.match(line)
        if not m or not view:
            bad('view line %d not understood: %r' % (n, line))
        sym, file = m.group(2), m.group(3)
        if sym == '[unknown]':
            file = re.sub(r'\+0x[0-9a-f]+$', '', file)
        view[-1][2].append((sym, file))
    elif line.startswith('tree '):
        _, depth, samples, offcpu, label = line.split(' ', 4)
        depth = int(depth)
        path[depth:] = [label]
        tree[tuple(path)] = (int(samples), int(offcpu))
    elif line.startswith('loading plugin'):
        continue
    else:
        bad('view line %d not understood: %r' % (n, line))

pk = sorted(perf)
vk = sorted(view)
if [p[0] for p in pk] != [v[0] for v in vk]:
    missing = set(p[0] for p in pk) - set(v[0] for v in vk)
    extra = set(v[0] for v in vk) - set(p[0] for p in pk)
    bad('samples differ: %d perf, %d view; not in the view: %s; not in perf: %s' %
        (len(pk), len(vk), sorted(missing)[:3], sorted(extra)[:3]))
frames = 0
for p, v in zip(pk, vk):
    if p[2] != v[2]:
        for i, (a, b) in enumerate(zip(p[2], v[2] + [None] * len(p[2]))):
            if a != b:
                bad('sample %s: frame %d: perf %s, view %s' % (p[0], i, a, b))
        bad('sample %s: perf %d frames, view %d' % (p[0], len(p[2]), len(v[2])))
    frames += len(p[2])

# off-CPU time of sched_switch samples: until the task is switched in again
switch = []
# perf 6.1: prev_comm=... prev_pid=N ... next_pid=M ...; perf 6.12 prints
# libtraceevent's form: COMM:N [PRIO] STATE ==> COMM:M [PRIO]
tr_re = re.compile(r'^\s*(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+sched:sched_switch:\s*(.*)$')
fields_re = re.compile(r'prev_pid=(\d+) .*next_pid=(\d+)')
pretty_re = re.compile(r'^.*:(\d+) \[-?\d+\] \S+ ==> .*:(\d+) \[-?\d+\]$')
for n, line in enumerate(open(trace_path, errors='replace'), 1):
    m = tr_re.match(line.rstrip('\n'))
    if not m:
        continue
    pid, cpu, sec, ns, rest = m.groups()
    f = fields_re.search(rest) or pretty_re.match(rest)
    if not f:
        bad('perf script -F trace line %d: sched_switch not understood: %r' % (n, line))
    switch.append((key(cpu, sec, ns, pid), int(f.group(1)), int(f.group(2))))
if any(ev == 'sched:sched_switch' for _, ev, _, _ in perf) and not switch:
    bad('perf script -F trace shows no sched_switch')
switch.sort()
offcpu = {}
out = {}
for k, prev, nxt in switch:
    if nxt > 0 and nxt in out:
        ko = out.pop(nxt)
        offcpu[ko] = k[0] - ko[0]
    if prev > 0:
        out[prev] = k

def label(sym, file):
    if sym == '[unknown]':
        return '[unknown] (%s)' % file
    return re.sub(r'\+0x[0-9a-f]+$', '', sym)

want = collections.defaultdict(lambda: [0, 0])
for k, ev, fr, _ in pk:
    t = offcpu.get(k, -1) if ev == 'sched:sched_switch' else -1
    labels = [label(s, f) for s, f in reversed(fr)]
    for d in range(1, len(labels) + 1):
        w = want[tuple(labels[:d])]
        w[0] += 1
        if t > 0:
            w[1] += t
if {p: tuple(c) for p, c in want.items()} != tree:
    for p in sorted(set(want) | set(tree)):
        a, b = tuple(want.get(p, (0, 0))), tree.get(p)
        if a != b:
            bad('tree %s: from perf %s samples/off-CPU ns, view %s' % (' > '.join(p), a, b))
print('%s: %d samples, %d frames as perf names them; %d tree nodes, %d of them with off-CPU '
      'time' % (name, len(pk), frames, len(tree), sum(1 for c in tree.values() if c[1] > 0)))
PY
}

check ksyms-sched.data "$tmp/empty"
check ksyms-clock.data "$tmp/empty"
check unwind.data "$tmp/root"
grep -q 'frame u .* middle+0x[0-9a-f]* (/tmp/perf2dat-unwind/prog)' "$tmp/view-perf" ||
	fail "unwind.data: no user frame named from the program"

# a file without stacks but with sched_switch: the plugin is on the stream
# for its blocked intervals (blocked.sh), and finds no sample with a stack
"$dump" "$KSHARK_PLUGIN" "$DATA/sample.data" > "$tmp/view" 2> "$tmp/err" ||
	fail "sample.data (no stacks): kshark-stacks: $(cat "$tmp/err")"
grep -q '^sample ' "$tmp/view" && fail "sample.data (no stacks): samples with stacks in the view"
echo "stack-view: sample.data has no stacks: no sample in the view"
# neither stacks nor scheduler events: the plugin stays off the stream (exit 2)
"$dump" "$KSHARK_PLUGIN" "$DATA/no-tracepoints.data" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "no-tracepoints.data: kshark-stacks exit $rc, not 2: $(cat "$tmp/err")"
echo "stack-view: no-tracepoints.data has no stacks and no sched_switch: the plugin left its stream alone"
echo "PASS: stack-view"
