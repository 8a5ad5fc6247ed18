#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""sched-intervals.py - blocked intervals from perf script, to check the
KernelShark plugin's (plugin/blocked.h) against.

An interval goes from a sched_switch whose prev_state is a sleeping state
(S D T t P I: not R or R+, nor X and Z) to the next sched_switch that runs
the task again. Its wake-up is the last sched_waking of the task (of
sched_wakeup, when the recording has no sched_waking) since the task last
ran: the waker is the task that ran that wake-up, its CPU and time; the
run delay goes from it to the switch-in. Events of one task at one
nanosecond are taken switch-out, wake-up, switch-in, each kind in CPU
order.

The waker is the wake-up event's common_pid, the task the kernel recorded
in the tracepoint's payload (what trace.dat keeps and the plugin shows), as
perf's Python engine gives it (WAKERS). perf script's tid of the line is
the sample's, which the kernel gives as -1 for a task it has already
unhashed (perf_event_tid() once !pid_alive(): the last wake-ups of an
exiting thread, such as the one that tells the parent of a process whose
main thread exited first). So every wake-up line must have its WAKERS
line, and a tid other than -1 must equal its common_pid: anything else is
a failure.

    sched-intervals.py compare TRACE WAKERS CHAINS DUMP NAME
        TRACE: perf script -F comm,tid,cpu,time,event,trace --ns
        WAKERS: perf script -s tests/tools/sched-wakers.py
        CHAINS: perf script -F cpu,time,event,ip,sym --ns --no-inline (or "-": no stacks)
        DUMP: kshark-stacks --blocked of the same recording
      Every interval of DUMP must be one of TRACE's (task, state, start,
      end, CPUs, waker, its CPU and time) and none missing; each stack of
      DUMP the call chain perf script shows for the sched_switch and the
      sched_waking sample, function by function; the off-CPU tree's
      totals (of each state, of each waker under it, of all) the sums of
      the intervals. Prints a summary, with how many intervals have a
      waker perf script shows as -1; exit 1 on a difference.

    sched-intervals.py list TRACE WAKERS
        The intervals, one a line: PID STATE START END WAKER WAKE_CPU WAKE_TS
"""

import collections
import re
import sys

LINE_RE = re.compile(r'^\s*(.*?)\s+(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):(?:\s+(.*))?$')
# perf 6.1 prints the format's fields; perf 6.12 and later libtraceevent's plugin form
SW_FIELDS = re.compile(r'prev_pid=(-?\d+) prev_prio=-?\d+ prev_state=(\S+) ==> '
                       r'next_comm=.* next_pid=(-?\d+) next_prio=-?\d+$')
SW_PRETTY = re.compile(r'^.*:(-?\d+) \[-?\d+\] (\S+) ==> .*:(-?\d+) \[-?\d+\]$')
WAKE_FIELDS = re.compile(r'comm=.* pid=(-?\d+) prio=-?\d+')
WAKE_PRETTY = re.compile(r'^.*:(-?\d+) \[-?\d+\]( success=\d+)? CPU:\d+$')
SLEEPING = set('SDTtPI')
KERNEL_START = 0xffff800000000000
OUT, WAKE, IN = 0, 1, 2


def fail(name, msg):
    print('%s: %s' % (name, msg))
    sys.exit(1)


def read_wakers(path, name):
    """sched-wakers.py's lines: (cpu, time, event, pid) -> their common_pids, in order"""
    wakers = collections.defaultdict(collections.deque)
    for n, line in enumerate(open(path, errors='replace'), 1):
        m = re.match(r'^(\d+) (\d+)\.(\d{9}) (sched:sched_wak(?:ing|eup)) (-?\d+) (-?\d+)$', line)
        if not m:
            fail(name, 'sched-wakers.py line %d not understood: %r' % (n, line))
        cpu, sec, ns, ev, pid, common_pid = m.groups()
        wakers[(int(cpu), int(sec) * 10**9 + int(ns), ev, int(pid))].append(int(common_pid))
    return wakers


def waker_of(wakers, key, tid, n, name):
    """The common_pid of perf script's wake-up line @n: perf's tid, unless that is -1"""
    if not wakers[key]:
        fail(name, 'perf script line %d: no sched-wakers.py line for %s %d.%09d of %d'
             % (n, key[2], key[1] // 10**9, key[1] % 10**9, key[3]))
    common_pid = wakers[key].popleft()
    if tid not in (-1, common_pid):
        fail(name, 'perf script line %d: tid %d, but the event\'s common_pid is %d'
             % (n, tid, common_pid))
    return common_pid


def read_trace(path, wakers_path, name):
    """The moves of perf script's sched_switch and wake-up lines."""
    moves, wakings = [], 0
    wakers = read_wakers(wakers_path, name)
    for n, line in enumerate(open(path, errors='replace'), 1):
        m = LINE_RE.match(line.rstrip('\n'))
        if not m:
            fail(name, 'perf script line %d not understood: %r' % (n, line))
        comm, tid, cpu, sec, ns, ev, rest = m.groups()
        rest = rest or ''
        ts, cpu, tid = int(sec) * 10**9 + int(ns), int(cpu), int(tid)
        if ev == 'sched:sched_switch':
            f = SW_FIELDS.search(rest) or SW_PRETTY.match(rest)
            if not f:
                fail(name, 'perf script line %d: sched_switch not understood: %r' % (n, line))
            prev, state, nxt = int(f.group(1)), f.group(2)[0], int(f.group(3))
            moves.append((prev, ts, OUT, cpu, n, state, None))
            moves.append((nxt, ts, IN, cpu, n, None, None))
        elif ev in ('sched:sched_waking', 'sched:sched_wakeup'):
            f = WAKE_FIELDS.search(rest) or WAKE_PRETTY.match(rest)
            if not f:
                fail(name, 'perf script line %d: %s not understood: %r' % (n, ev, line))
            kind = 'w' if ev == 'sched:sched_waking' else 'u'
            wakings += kind == 'w'
            pid = int(f.group(1))
            waker = waker_of(wakers, (cpu, ts, ev, pid), tid, n, name)
            moves.append((pid, ts, WAKE, cpu, n, kind, (waker, tid == -1)))
    left = sum(len(q) for q in wakers.values())
    if left:
        fail(name, '%d sched-wakers.py lines without their perf script line' % left)
    return moves, wakings


def intervals(path, wakers_path, name):
    """
    (pid, state, start, end, out_cpu, in_cpu, waker, wake_cpu, wake_ts), and
    how many of them have a waker perf script shows as -1
    """
    moves, wakings = read_trace(path, wakers_path, name)
    moves = [m for m in moves if m[0] > 0]
    moves.sort(key=lambda m: (m[0], m[1], m[2], m[3], m[4]))
    out, prev_pid, wake, res, unhashed = None, None, None, [], 0
    for pid, ts, kind, cpu, _, what, waker in moves:
        if pid != prev_pid:
            out = wake = None
            prev_pid = pid
        if kind == OUT:
            out = (ts, cpu, what) if what in SLEEPING else None
        elif kind == WAKE:
            if what == 'w' or not wakings:
                wake = (waker[0], cpu, ts, waker[1])
        else:
            if out:
                w = wake or (-1, None, None, False)
                res.append((pid, out[2], out[0], ts, out[1], cpu) + w[:3])
                unhashed += w[3]
            out = wake = None
    return res, unhashed


def read_chains(path):
    """(time, cpu, event) -> the function names of the sample's call chain"""
    chains, cur = {}, None
    head = re.compile(r'^\s*\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):(\s|$)')
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = head.match(line)
        if m:
            cpu, sec, ns, ev = m.groups()[:4]
            cur = chains.setdefault((int(sec) * 10**9 + int(ns), int(cpu), ev), [])
        elif line.strip() and cur is not None:
            f = line.split(None, 1)
            sym = re.sub(r'\+0x[0-9a-f]+$', '', f[1].split(' (')[0]) if len(f) > 1 else '?'
            # the kernel frames come first: a user frame may hold any number
            kernel = int(f[0], 16) >= KERNEL_START and (not cur or cur[-1][0])
            cur.append((kernel, sym))
        else:
            cur = None
    # a trailing 0 user caller is the padding of user_stack events: the view ends before it
    return chains


def read_dump(path, name):
    ivs, stacks, tree, path_ = [], [], {}, []
    iv_re = re.compile(r'^interval (\d+) (\S) (\d+) (\d+) (\d+) (\S+) (-?\d+) (\S+) (\S+)$')
    for n, line in enumerate(open(path, errors='replace'), 1):
        line = line.rstrip('\n')
        if line.startswith('interval '):
            m = iv_re.match(line)
            if not m:
                fail(name, 'dump line %d not understood: %r' % (n, line))
            g = m.groups()
            ivs.append((int(g[0]), g[1], int(g[2]), int(g[3]), int(g[4]),
                        None if g[5] == '-' else int(g[5]), int(g[6]),
                        None if g[7] == '-' else int(g[7]), None if g[8] == '-' else int(g[8])))
            stacks.append(([], []))
        elif line.startswith(('ostack ', 'wstack ')):
            if line.endswith(' (inlined)'):
                continue    # the view's DWARF inlines: checked by user-names.sh, not here
            f = line.split(None, 3)
            sym = re.sub(r'\+0x[0-9a-f]+$', '', f[3].split(' (')[0])
            stacks[-1][0 if line[0] == 'o' else 1].append((f[1] == 'k', sym))
        elif line.startswith('otree '):
            _, depth, count, ns, label = line.split(' ', 4)
            path_[int(depth):] = [label]
            tree[tuple(path_)] = (int(count), int(ns))
        elif line.startswith(('batch ', 'bstack ', 'loading plugin')):
            continue
        else:
            fail(name, 'dump line %d not understood: %r' % (n, line))
    return ivs, stacks, tree


def same_frames(got, want):
    """
    The same frames: the kernel ones under the same names, as many user
    ones (their names are user-names.sh's and stack-view.sh's to check:
    on a busy host, processes of chroots and execs in flight are named
    from files that differ between perf and the converter).
    """
    while want and want[-1] == (False, '[unknown]') and len(want) > len(got):
        want.pop()
    return len(got) == len(want) and all(
        g == w or (not g[0] and not w[0]) for g, w in zip(got, want))


def check_stacks(name, ivs, stacks, chains):
    """each stack of the dump = perf script's chain of that sample"""
    checked = 0
    for iv, (ost, wst) in zip(ivs, stacks):
        pairs = [(ost, (iv[2], iv[4], 'sched:sched_switch'))]
        if iv[6] >= 0:
            ev = 'sched:sched_waking'
            if (iv[8], iv[7], ev) not in chains:
                ev = 'sched:sched_wakeup'
            pairs.append((wst, (iv[8], iv[7], ev)))
        for got, key in pairs:
            want = list(chains.get(key, []))
            if not same_frames(got, want):
                fail(name, 'interval of %d at %d: the stack of %s differs:\n  perf: %s\n  view: %s'
                     % (iv[0], iv[2], key, want[:40], got[:40]))
            checked += bool(got)
    return checked


def check_tree(name, ivs, tree):
    want = collections.defaultdict(lambda: [0, 0])
    for iv in ivs:
        t = iv[3] - iv[2]
        for key in (('all',), ('state', iv[1]), ('waker', iv[1], iv[6])):
            want[key][0] += 1
            want[key][1] += t
    got = collections.defaultdict(lambda: [0, 0])
    for path, (count, ns) in tree.items():
        state = path[0][0]
        if len(path) == 1:
            for key in (('all',), ('state', state)):
                got[key][0] += count
                got[key][1] += ns
        elif re.match(r'^(woken by .*-(\d+)|no wake-up seen)$', path[-1]):
            m = re.match(r'^woken by .*-(\d+)$', path[-1])
            key = ('waker', state, int(m.group(1)) if m else -1)
            got[key][0] += count
            got[key][1] += ns
    if dict(want) != dict(got):
        for k in sorted(set(want) | set(got), key=str):
            if want.get(k) != got.get(k):
                fail(name, 'off-CPU tree %s: from perf script %s, view %s' % (k, want.get(k), got.get(k)))
    return want[('all',)]


def compare(trace, wakers, chains_path, dump, name):
    want, unhashed = intervals(trace, wakers, name)
    ivs, stacks, tree = read_dump(dump, name)
    if not want:
        fail(name, 'perf script shows no blocked interval')
    if sorted(ivs) != sorted(want):
        a, b = set(want), set(ivs)
        fail(name, 'intervals differ: %d from perf script, %d in the view; not in the view: %s;'
             ' not in perf script: %s' % (len(want), len(ivs), sorted(a - b)[:3], sorted(b - a)[:3]))
    states = collections.Counter(iv[1] for iv in ivs)
    woken = sum(1 for iv in ivs if iv[6] >= 0)
    checked = 0
    if chains_path != '-':
        checked = check_stacks(name, ivs, stacks, read_chains(chains_path))
        if not checked:
            fail(name, 'no interval has a stack')
    elif any(s[0] or s[1] for s in stacks):
        fail(name, 'stacks in a recording without call chains')
    total = check_tree(name, ivs, tree)
    print('%s: %d blocked intervals as perf script gives them (%s), %d with their waker and run'
          ' delay (%d woken by a task perf shows as -1), %d stacks (kernel frames as perf script'
          ' names them); off-CPU tree: %d intervals, %d ns'
          % (name, len(ivs), ', '.join('%s %d' % kv for kv in sorted(states.items())), woken,
             unhashed, checked, total[0], total[1]))
    return states


def main():
    if len(sys.argv) == 7 and sys.argv[1] == 'compare':
        compare(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == 'list':
        for iv in intervals(sys.argv[2], sys.argv[3], sys.argv[2])[0]:
            print('%d %s %d %d %d %s %s' % (iv[0], iv[1], iv[2], iv[3], iv[6], iv[7], iv[8]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == '__main__':
    main()
