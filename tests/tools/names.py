#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare the kernel frames perf script names with those trace-cmd report names.

    names.py PERF_SCRIPT TRACE_CMD_REPORT [--named]

PERF_SCRIPT: `perf script -F time,event,ip,sym --ns` (each sample's line,
then its frames as "\tADDRESS SYMBOL" lines, [unknown] where perf names
none); TRACE_CMD_REPORT: `trace-cmd report -t` with its plugins (each
kernel_stack event followed by "=> SYMBOL (ADDRESS)" lines, "=> ADDRESS"
where trace-cmd names none). Sample by sample in time order, the kernel
frames (addresses of the kernel half) must be the same addresses in the same
order, each named as perf names it (the function, without perf's +offset),
and a frame perf names no symbol for ([unknown]) must get no name or
"[unknown]". The kernel part of perf's chain is its frames before the first
user address; a user_stack frame must be an address, "[unknown]" or a user
function's name (never an address of the kernel half). A
sample perf prints without any frame (it discards a chain with a value of
its context-marker range that is no marker) must have no stack event at all
in trace-cmd's report. A user stack word of a frame-pointer walk can hold
perf's kernel context marker (-128): perf and perf2dat then take the words
after it as kernel frames, perf script prints them after the user ones
([unknown], user-half addresses) and trace-cmd's kernel stack ends with
them; that tail of a kernel stack (from its first user-half address) must
be, name for name, a run of the frames perf prints after the sample's
first user address. It fails on any line it cannot read, and when there is
no frame to compare (with --named, also when perf names none of them). Prints "kernel frames: N compared, M named alike"
(and ", K samples without frames as perf shows them", ", J frames after a
kernel marker in the user stack" when there are some).
"""
import collections
import re
import sys

KERNEL = 0xffff800000000000
PERF_SAMPLE = re.compile(r'^\s*(?P<s>\d+)\.(?P<ns>\d{9}):\s+(?P<event>\S+):\s*$')
PERF_FRAME = re.compile(r'^\s+(?P<addr>[0-9a-f]+) (?P<sym>.+?)(?: \(.*\))?$')
TC_EVENT = re.compile(r'^\s*.*-\d+\s+\[\d+\]\s+(?:[^\s:]{4,5}\s+)?(?P<s>\d+)\.(?P<ns>\d{9}):'
                      r'\s+(?P<event>[^:\s]+):\s*(?P<rest>.*)$')
# a user_stack caller: its address, [unknown], or the name of the user
# function that holds it (tests/integration/user-names.sh checks those
# names against perf's); never an address of the kernel half
USER_FRAME = re.compile(r'^\s*=> (?!(?:0x)?ffff[89a-f][0-9a-f]{12}$)\S.*$')
TC_FRAME = re.compile(r'^\s*=> (?:(?P<sym>\S+) \((?P<addr>[0-9a-f]+)\)|(?:0x)?(?P<hex>[0-9a-f]+))$')


def bad(path, n, line):
    sys.exit(f'names.py: {path}:{n}: cannot read: {line.rstrip()!r}')


def perf_frames(path):
    """Each timestamp's samples' kernel parts, how many samples of each have no frame,
    and the samples' frames after their first user address"""
    out = collections.defaultdict(list)
    after = collections.defaultdict(list)
    frameless = collections.Counter()
    cur = None
    user = {}	# the samples whose user part has begun
    for n, line in enumerate(open(path, errors='replace'), 1):
        if not line.strip():
            cur = None
            continue
        m = PERF_SAMPLE.match(line)
        if m:
            cur = []
            rest = []
            ts = int(m['s']) * 10**9 + int(m['ns'])
            out[ts].append(cur)
            after[ts].append(rest)
            frameless[ts] += 1
            continue
        f = PERF_FRAME.match(line)
        if not f or cur is None:
            bad(path, n, line)
        if not cur and id(cur) not in user:	# the sample's first frame
            frameless[ts] -= 1
        addr = int(f['addr'], 16)
        sym = f['sym']
        frame = (addr, None if sym.startswith('[unknown]') else re.sub(r'\+0x[0-9a-f]+$', '', sym))
        if id(cur) in user:
            rest.append(frame)
        elif addr < KERNEL:
            user[id(cur)] = True
        else:	# the kernel part: the frames before the user ip
            cur.append(frame)
    return out, frameless, after


def tc_frames(path):
    """Each timestamp's kernel stacks, and the timestamps of user stacks"""
    out = collections.defaultdict(list)
    users = set()
    cur, in_user = None, False
    for n, line in enumerate(open(path, errors='replace'), 1):
        if n == 1 and line.startswith('cpus='):
            continue
        if in_user and USER_FRAME.match(line):
            continue	# user frames: not compared here (no name but [unknown] allowed)
        f = TC_FRAME.match(line.strip())
        if f and cur is not None:
            if f['addr']:
                cur.append((int(f['addr'], 16), None if f['sym'] == '[unknown]' else f['sym']))
            else:
                cur.append((int(f['hex'], 16), None))
            continue
        m = TC_EVENT.match(line)
        if not m:
            bad(path, n, line)
        ts = int(m['s']) * 10**9 + int(m['ns'])
        in_user = m['event'] == 'user_stack'
        if in_user:
            if not USER_FRAME.match('\t' + m['rest']):
                bad(path, n, line)
            users.add(ts)
            cur = None
        elif m['event'] == 'kernel_stack':
            cur = []
            out[ts].append(cur)
        else:
            cur = None
    return out, users


def run_of(part, frames):
    """Whether part is a run of consecutive frames of frames"""
    return any(frames[i:i + len(part)] == part for i in range(len(frames) - len(part) + 1))


def main():
    (perf, frameless, after), (tc, tc_users) = perf_frames(sys.argv[1]), tc_frames(sys.argv[2])
    compared = named = marked = 0
    errors = []
    for ts, stacks in tc.items():	# the tails after a marker-valued user stack word
        for n, s in enumerate(stacks):
            k = next((i for i, f in enumerate(s) if f[0] < KERNEL), len(s))
            if k == len(s):
                continue
            if not any(run_of(s[k:], r) for r in after.get(ts, [])):
                errors.append(f'{ts / 1e9:.9f}: kernel stack frames of the user half perf does'
                              f' not print after the user part: {s[k:]}')
            marked += len(s) - k
            stacks[n] = s[:k]
    for ts in sorted(ts for ts, k in frameless.items() if k == len(perf[ts])):
        if any(tc.get(ts, [])) or ts in tc_users:
            errors.append(f'{ts / 1e9:.9f}: perf shows no frame, trace-cmd has a stack:'
                          f' {tc.get(ts)}')
    for ts in sorted(perf):
        want = [k for k in ([f for f in s if f[0] >= KERNEL] for s in perf[ts]) if k]
        got = [s for s in tc.get(ts, []) if s]
        if sorted(want) != sorted(got):
            errors.append(f'{ts / 1e9:.9f}: perf {want}\n    trace-cmd {got}')
            continue
        for s in want:
            compared += len(s)
            named += sum(1 for _, name in s if name)
    for ts in sorted(set(tc) - set(perf)):
        if any(tc[ts]):
            errors.append(f'{ts / 1e9:.9f}: a kernel stack perf does not show: {tc[ts]}')
    if not compared:
        errors.append('no kernel frame to compare')
    elif not named and '--named' in sys.argv[3:]:
        errors.append(f'none of the {compared} kernel frames compared is named by perf')
    if errors:
        print('names: MISMATCH:\n  ' + '\n  '.join(errors[:5]))
        return 1
    nframeless = sum(frameless.values())
    print(f'kernel frames: {compared} compared, {named} named alike' +
          (f', {nframeless} samples without frames as perf shows them' if nframeless else '') +
          (f', {marked} frames after a kernel marker in the user stack' if marked else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
