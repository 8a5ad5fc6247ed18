#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The PROCMAPS options of a conversion with user stacks, against perf: every
# user frame perf script places in a file (its -F dso), in a process that did
# not exec afterwards, lies in a mapping of the same file (its name cut at the
# first blank) in the PROCMAPS option of that process, whose mappings perf may
# have recorded for its parent only (a forked child inherits them) or before
# an exec (which replaces them). The frames' addresses are those of perf's own
# call chains (perf script -D); perf prints them relative to their file.
. "$TOP_SRCDIR/tests/lib.sh"
for tool in "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		skip "trace-cmd, perf and python3 are needed"
	fi
done
for input in stacks.data mixed.data ksyms-sched.data ksyms-clock.data; do
	"$PERF2DAT" -q -f --kallsyms none "$DATA/$input" -o "$tmp/out.dat" || fail "$input: conversion"
	"$TRACE_CMD" dump --options "$tmp/out.dat" > "$tmp/options" 2>&1 || fail "$input: dump"
	"$PERF" script -f -D -i "$DATA/$input" > "$tmp/dump" 2> /dev/null || fail "$input: perf -D"
	"$PERF" script -f -i "$DATA/$input" -F pid,tid,cpu,time,ip,dso --ns > "$tmp/dso" 2> /dev/null ||
		fail "$input: perf script"
	"$PYTHON3" - "$tmp/options" "$tmp/dump" "$tmp/dso" "$input" <<'PY' || fail "$input"
import collections, re, sys
opts, dump, dso, name = sys.argv[1:]
# trace-cmd dump --options: "[Option PROCMAPS, N bytes]" then the text
got = {}
lines = open(opts, errors='replace').read().split('\n')
i = 0
while i < len(lines):
    if re.match(r'^\s*\[Option PROCMAPS, \d+ bytes\]$', lines[i]):
        pid, nr, comm = lines[i + 1].split()
        maps = []
        for j in range(int(nr, 16)):
            s, e, f = lines[i + 2 + j].split()
            maps.append((int(s, 16), int(e, 16), f))
        got[int(pid, 16)] = maps
        i += 2 + int(nr, 16)
    else:
        i += 1
# perf -D: each sample's user frames (absolute), and each process's last exec
sample_re = re.compile(r'^(?:\d+ )?(\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE\(.*?\): (-?\d+)/(-?\d+): ')
exec_re = re.compile(r'^(?:\d+ )?(\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_COMM exec: .*:(\d+)/\d+$')
mmap_re = re.compile(r'^(?:\d+ )?(\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_MMAP2? (-?\d+)/-?\d+: '
                     r'\[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ .*\]: ([-rwxps]+) ')
frames, last_exec, cur, in_user = [], {}, None, False
own = collections.defaultdict(list)	# pid -> (time, start, end) of its exec mappings
for line in open(dump, errors='replace'):
    line = line.rstrip('\n')
    m = exec_re.match(line)
    if m:
        last_exec[int(m[2])] = int(m[1])
        continue
    m = mmap_re.match(line)
    if m:
        if 'x' in m[5]:
            start = int(m[3], 16)
            own[int(m[2])].append((int(m[1]), start, start + int(m[4], 16)))
        continue
    m = sample_re.match(line)
    if m:
        cur, in_user = (int(m[1]), int(m[2]), []), False
        frames.append(cur)
        continue
    # (perf >= 7 names the context markers: " (PERF_CONTEXT_USER)")
    m = re.match(r'^\.\.\.\.\.\s+\d+: ([0-9a-f]+)(?: \(PERF_CONTEXT_[A-Z_]+\))?$', line)
    if m and cur is not None:
        ip = int(m[1], 16)
        if ip >= 2**64 - 4095:
            in_user = ip == 2**64 - 512
        elif in_user:
            cur[2].append(ip)
# perf script: the file of each user frame, sample by sample (in time order)
files, cur = collections.defaultdict(collections.deque), None
for n, line in enumerate(open(dso, errors='replace'), 1):
    if not line.strip():
        continue
    f = re.match(r'^\s+([0-9a-f]+) \((.*)\)$', line)
    if f:
        if cur is None:
            sys.exit(f'{name}: perf script line {n}: a frame before a sample')
        if f[2] != '[kernel.kallsyms]' and int(f[1], 16) < 2**63:
            cur.append(f[2])
        continue
    m = re.match(r'^\s*(-?\d+)/-?\d+\s+\[\d+\]\s+(\d+)\.(\d{9}):', line)
    if not m:
        sys.exit(f'{name}: perf script line {n}: cannot read {line!r}')
    cur = []
    files[(int(m[2]) * 10**9 + int(m[3]), int(m[1]))].append(cur)
checked = skipped = stray = 0
procs = set()
for ts, pid, ips in frames:
    q = files.get((ts, pid))
    if not q:
        sys.exit(f'{name}: perf script has no sample of pid {pid} at {ts}')
    where = q.popleft()
    if len(ips) != len(where):
        sys.exit(f'{name}: a sample of pid {pid} at {ts}: {len(ips)} user frames in -D,'
                 f' {len(where)} in perf script')
    for ip, f in zip(ips, where):
        if f == '[unknown]':
            continue
        ex = last_exec.get(pid, 0)
        if ex > ts:
            skipped += 1	# before the exec that replaced the maps PROCMAPS holds
            continue
        if ex and not any(t >= ex and s <= ip < e for t, s, e in own[pid]):
            # a stray value of a frame-pointer walk that perf places in a
            # mapping from before the exec (perf keeps those; the exec ended them)
            stray += 1
            continue
        procs.add(pid)
        hit = [m[2] for m in got.get(pid, []) if m[0] <= ip < m[1]]
        if hit != [f.split()[0]]:
            sys.exit(f'{name}: pid {pid}: user frame {ip:#x} is in {f} for perf, in'
                     f' {hit or "no mapping"} for PROCMAPS ({len(got.get(pid, []))} mappings)')
        checked += 1
if not checked:
    sys.exit(f'{name}: perf places no user frame in a file: a useless case')
print(f'{name}: {checked} user frames of {len(procs)} processes in the file perf names'
      f' ({skipped} before an exec, {stray} stray ones in a mapping the exec ended, left'
      f' out); {len(got)} PROCMAPS options')
PY
done
echo "PASS: procmaps"
