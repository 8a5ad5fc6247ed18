#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare perf's view of a recording with trace-cmd's view of its conversion.

    compare.py PERF_SCRIPT_OUTPUT TRACE_CMD_REPORT_OUTPUT [options]

PERF_SCRIPT_OUTPUT is `perf script -F trace:comm,tid,cpu,time,event,trace --ns`
of the perf.data; TRACE_CMD_REPORT_OUTPUT is `trace-cmd report -N -t` of the
trace.dat perf2dat made from it. The expectation comes from perf only:

- events: every tracepoint sample perf prints appears in the report with the
  same CPU, nanosecond timestamp, tid, event name and printed fields, and
  nothing else appears. Events with the same CPU and timestamp may come in
  any order. perf prints tid -1 for some samples of exiting tasks (the kernel
  has already detached their pid): such a line matches an event with the same
  CPU, time, event and fields under any tid (the payload's common_pid).
- task names: a tid perf shows under one name all along has that name in the
  report (the first 15 characters; pid 0 is trace-cmd's "<idle>"); a tid perf
  shows under several names (exec) has one of them; no event of a tid perf
  names is shown as "<...>".
- losses (--lost): the "[N EVENTS DROPPED]" markers add up to perf report's
  "Total Lost Samples"; --lost-cpu CPU:N asks for at least the N events the
  PERF_RECORD_LOST records of that CPU reported; --stat FILE (trace-cmd report
  --stat) must show, per CPU, the dropped events the markers show.

It fails when perf prints no event, and on any line of either input it cannot
parse: nothing is skipped silently.
"""
import argparse
import collections
import re
import sys

PERF_RE = re.compile(r'^(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+'
                     r'(?P<ts>\d+\.\d{9}):\s+(?P<sys>[^:\s]+):(?P<event>[^:\s]+):\s?(?P<fields>.*)$')
# trace-cmd >= 3.2 always prints a latency column ("d..3.") after the CPU
TC_RE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:[^\s:]{4,5}\s+)?'
                   r'(?P<ts>\d+\.\d{9}):\s+(?P<event>[^:\s]+):\s*(?P<fields>.*)$')
DROP_RE = re.compile(r'^\s*CPU:\s*(?P<cpu>\d+)\s+\[(?P<n>\d+) EVENTS DROPPED\]$')
CPUS_RE = re.compile(r'^cpus=\d+$')
STAT_CPU_RE = re.compile(r'^\s*CPU:\s*(?P<cpu>\d+)\s*$')
STAT_DROP_RE = re.compile(r'^\s*dropped events:\s*(?P<n>\d+)\s*$')


def ns(ts):
    sec, frac = ts.split('.')
    return int(sec) * 1000000000 + int(frac)


def fail_parse(path, n, what, line):
    sys.exit(f'compare: {path}:{n}: cannot parse {what} line: {line!r}')


def parse_perf(path, ignore):
    events = []
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            m = PERF_RE.match(line)
            if not m:
                fail_parse(path, n, 'perf script', line)
            if m['sys'] + ':' + m['event'] in ignore:
                continue
            events.append((int(m['cpu']), ns(m['ts']), int(m['tid']), m['event'],
                           m['fields'].rstrip(), m['comm'].strip()))
    return events


def parse_report(path):
    events, drops = [], collections.Counter()
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if n == 1 and CPUS_RE.match(line):
                continue
            d = DROP_RE.match(line)
            if d:
                drops[int(d['cpu'])] += int(d['n'])
                continue
            m = TC_RE.match(line)
            if not m:
                fail_parse(path, n, 'trace-cmd report', line)
            events.append((int(m['cpu']), ns(m['ts']), int(m['pid']), m['event'],
                           m['fields'].rstrip(), m['comm'].strip()))
    return events, drops


def parse_stat(path):
    """trace-cmd report --stat: the dropped events of each CPU."""
    dropped, cpu = {}, None
    with open(path, errors='replace') as f:
        for line in f:
            c = STAT_CPU_RE.match(line)
            if c:
                cpu = int(c['cpu'])
            d = STAT_DROP_RE.match(line)
            if d and cpu is not None:
                dropped[cpu] = int(d['n'])
    return dropped


def groups(events):
    """Per CPU: the list of (ts, multiset of (tid, event, fields)) in order."""
    out = collections.defaultdict(list)
    for cpu, ts, tid, ev, fields, _ in events:
        g = out[cpu]
        if g and g[-1][0] == ts:
            g[-1][1][(tid, ev, fields)] += 1
        else:
            g.append((ts, collections.Counter({(tid, ev, fields): 1})))
    return out


def same_group(want, got):
    """perf's tid -1 stands for any tid; everything else must be equal."""
    got = collections.Counter(got)
    wild = []
    for (tid, ev, fields), k in want.items():
        if tid == -1:
            wild += [(ev, fields)] * k
            continue
        if got[(tid, ev, fields)] < k:
            return False
        got[(tid, ev, fields)] -= k
    for ev, fields in wild:
        key = next((x for x, k in got.items() if k and x[1:] == (ev, fields)), None)
        if key is None:
            return False
        got[key] -= 1
    return not +got


def fmt_ts(t):
    return f'{t // 1000000000}.{t % 1000000000:09d}'


def check_events(want, got, errors):
    if len(want) != len(got):
        errors.append(f'perf script has {len(want)} events, trace-cmd report {len(got)}')
    gw, gg = groups(want), groups(got)
    for cpu in sorted(set(gw) | set(gg)):
        w, g = gw.get(cpu, []), gg.get(cpu, [])
        for i in range(max(len(w), len(g))):
            ew = w[i] if i < len(w) else None
            eg = g[i] if i < len(g) else None
            if ew and eg and ew[0] == eg[0] and same_group(ew[1], eg[1]):
                continue
            errors.append(f'CPU {cpu}, event group {i}:\n'
                          f'  perf:      {fmt_ts(ew[0]) if ew else "-"} '
                          f'{sorted(ew[1].items()) if ew else ""}\n'
                          f'  trace-cmd: {fmt_ts(eg[0]) if eg else "-"} '
                          f'{sorted(eg[1].items()) if eg else ""}')
            break


def check_names(want, got, errors):
    names = collections.defaultdict(set)
    for _, _, tid, _, _, comm in want:
        if tid != -1 and comm and not comm.startswith(':'):
            names[tid].add('<idle>' if tid == 0 else comm[:15])
    unnamed, wrong = collections.Counter(), collections.Counter()
    shown = collections.defaultdict(set)
    for _, _, pid, _, _, comm in got:
        if pid not in names:
            continue
        if comm == '<...>':
            unnamed[pid] += 1
        elif comm[:15] not in names[pid]:
            wrong[pid] += 1
            shown[pid].add(comm)
    if unnamed:
        errors.append(f'{sum(unnamed.values())} events of {len(unnamed)} tasks perf names shown'
                      f' as "<...>" (tids {sorted(unnamed)[:8]})')
    for pid in sorted(wrong)[:5]:
        errors.append(f'tid {pid}: perf names it {sorted(names[pid])}, trace-cmd'
                      f' {sorted(shown[pid])} ({wrong[pid]} events)')
    return len(names)


def check_lost(a, drops, errors):
    if a.lost is not None and sum(drops.values()) != a.lost:
        errors.append(f'{sum(drops.values())} dropped events shown, perf report says'
                      f' {a.lost} lost')
    for spec in a.lost_cpu:
        cpu, n = (int(x) for x in spec.split(':'))
        if drops[cpu] < n:
            errors.append(f'CPU {cpu}: {drops[cpu]} dropped events shown, its'
                          f' PERF_RECORD_LOST records say {n}')
    if a.stat:
        stat = parse_stat(a.stat)
        for cpu in sorted(set(stat) | set(drops)):
            if stat.get(cpu, 0) != drops[cpu]:
                errors.append(f'CPU {cpu}: trace-cmd report --stat says {stat.get(cpu, 0)}'
                              f' dropped events, the markers {drops[cpu]}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('perf')
    ap.add_argument('report')
    ap.add_argument('--ignore-event', action='append', default=[],
                    help='SYSTEM:EVENT lines of perf script to leave out')
    ap.add_argument('--lost', type=int, help="perf report's Total Lost Samples")
    ap.add_argument('--lost-cpu', action='append', default=[],
                    help='CPU:N, the events the LOST records of that CPU reported')
    ap.add_argument('--stat', help='trace-cmd report --stat of the trace.dat')
    ap.add_argument('--name', default='')
    a = ap.parse_args()

    want = parse_perf(a.perf, set(a.ignore_event))
    got, drops = parse_report(a.report)
    errors = []
    if not want:
        errors.append('perf script printed no events: nothing to compare')
    check_events(want, got, errors)
    named = check_names(want, got, errors)
    check_lost(a, drops, errors)
    cpus = len(set(e[0] for e in want))
    tag = f'{a.name}: ' if a.name else ''
    if errors:
        print(f'{tag}MISMATCH: ' + '\n'.join(errors[:6]))
        return 1
    print(f'{tag}{len(want)} events on {cpus} CPUs equal, {named} tasks named as perf names'
          ' them' + (f', {sum(drops.values())} dropped events shown' if drops else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
