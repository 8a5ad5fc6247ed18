#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The PROCMAPS options of a conversion with user stacks, against perf: the
# processes whose samples have a user part in their call chain (perf script
# -D) get one each, listing exactly the executable mappings perf recorded for
# them (MMAP/MMAP2 records with x in their protection, names cut at the first
# blank); the user frames these maps place are counted (frame-pointer chains
# through code without frame pointers hold a few stray values).
set -u
for tool in "${TRACE_CMD:-}" "${PERF:-}" "${PYTHON3:-}"; do
	if [ -z "$tool" ] || [ ! -x "$tool" ]; then
		echo "SKIP: procmaps: trace-cmd, perf and python3 are needed"
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: procmaps: $*"
	exit 1
}
for input in stacks.data mixed.data; do
	"$PERF2DAT" -q -f "$DATA/$input" -o "$tmp/out.dat" || fail "$input: conversion"
	"$TRACE_CMD" dump --options "$tmp/out.dat" > "$tmp/options" 2>&1 || fail "$input: dump"
	"$PERF" script -f -D -i "$DATA/$input" > "$tmp/dump" 2> /dev/null || fail "$input: perf -D"
	"$PYTHON3" - "$tmp/options" "$tmp/dump" "$input" <<'PY' || fail "$input"
import re, sys
opts, dump, name = sys.argv[1:]
# trace-cmd dump --options: "[Option PROCMAPS, N bytes]" then the text
got, cur = {}, None
lines = open(opts, errors='replace').read().split('\n')
i = 0
while i < len(lines):
    if re.match(r'^\s*\[Option PROCMAPS, \d+ bytes\]$', lines[i]):
        pid, nr, comm = lines[i + 1].split()
        maps = set()
        for j in range(int(nr, 16)):
            s, e, f = lines[i + 2 + j].split()
            maps.add((int(s, 16), int(e, 16), f))
        got[int(pid, 16)] = maps
        i += 2 + int(nr, 16)
    else:
        i += 1
mmap_re = re.compile(r'PERF_RECORD_MMAP2? (-?\d+)/-?\d+: \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ '
                     r'(?:0x)?[0-9a-f]+(?: [0-9a-f]+:[0-9a-f]+ \d+ \d+)?\]: ([-rwxps]+) (.*)$')
sample_re = re.compile(r'PERF_RECORD_SAMPLE\(.*?\): (-?\d+)/-?\d+: ')
maps, users, frames = {}, set(), {}
pid, in_user = None, False
for line in open(dump, errors='replace'):
    line = line.rstrip('\n')
    m = mmap_re.search(line)
    if m:
        if 'x' in m[4] and m[1] != '-1':
            start, length = int(m[2], 16), int(m[3], 16)
            maps.setdefault(int(m[1]), set()).add((start, start + length, m[5].split()[0]))
        continue
    m = sample_re.search(line)
    if m:
        pid, in_user = int(m[1]), False
        continue
    m = re.match(r'^\.\.\.\.\.\s+\d+: ([0-9a-f]+)$', line)
    if m and pid is not None:
        ip = int(m[1], 16)
        if ip >= 2**64 - 4095:
            in_user = ip == 2**64 - 512
        elif in_user:
            users.add(pid)
            frames.setdefault(pid, []).append(ip)
want = {p: maps[p] for p in users if p in maps}
if not want:
    sys.exit(f'{name}: perf shows no process with user stacks and mappings: a useless case')
if got != want:
    for p in sorted(set(got) | set(want)):
        if got.get(p) != want.get(p):
            sys.exit(f'{name}: pid {p}: PROCMAPS {sorted(got.get(p, ()))[:3]},'
                     f' perf {sorted(want.get(p, ()))[:3]}')
n = out = 0
for p, ips in frames.items():
    for ip in ips:
        n += 1
        out += not any(s <= ip < e for s, e, _ in got.get(p, ()))
if n - out == 0:
    sys.exit(f'{name}: none of the {n} user frames lies in a mapping')
print(f'{name}: {len(got)} processes, {sum(len(v) for v in got.values())} mappings as perf'
      f' recorded them; {n - out} of {n} user frames in them')
PY
done
echo "PASS: procmaps"
