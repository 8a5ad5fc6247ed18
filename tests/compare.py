#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare perf's view of a recording with trace-cmd's view of its conversion.

    compare.py PERF_SCRIPT_OUTPUT TRACE_CMD_REPORT_OUTPUT [options]

PERF_SCRIPT_OUTPUT is `perf script -F trace:comm,tid,cpu,time,event,trace --ns`
of the perf.data; TRACE_CMD_REPORT_OUTPUT is `trace-cmd report -N -t` of the
trace.dat perf2dat made from it. The expectation comes from perf: every
tracepoint sample perf prints must appear in the report with the same CPU,
nanosecond timestamp, tid, event name and printed fields, and nothing else
may appear. Events with the same CPU and timestamp may come in any order.
Also checked: every event's task has a name (not "<...>"), and the
"[N EVENTS DROPPED]" markers add up to --lost when given.
"""
import argparse
import collections
import re
import sys

PERF_RE = re.compile(r'^(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+'
                     r'(?P<ts>\d+\.\d{9}):\s+(?P<sys>[^:\s]+):(?P<event>[^:\s]+):\s?(?P<fields>.*)$')
TC_RE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+'
                   r'(?P<ts>\d+\.\d{9}):\s+(?P<event>[^:\s]+):\s*(?P<fields>.*)$')
DROP_RE = re.compile(r'^\s*CPU:\s*(?P<cpu>\d+)\s+\[(?P<n>\d+) EVENTS DROPPED\]')


def ns(ts):
    sec, frac = ts.split('.')
    return int(sec) * 1000000000 + int(frac)


def parse_perf(path, ignore):
    events = []
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip():
                continue
            m = PERF_RE.match(line)
            if not m:
                sys.exit(f'compare: {path}:{n}: cannot parse perf script line: {line!r}')
            name = m['sys'] + ':' + m['event']
            if name in ignore:
                continue
            events.append((int(m['cpu']), ns(m['ts']), int(m['tid']), m['event'],
                           m['fields'].rstrip(), m['comm'].strip()))
    return events


def parse_report(path):
    events, drops, header = [], collections.Counter(), 0
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip():
                continue
            d = DROP_RE.match(line)
            if d:
                drops[int(d['cpu'])] += int(d['n'])
                continue
            m = TC_RE.match(line)
            if not m:
                if line.startswith(('cpus=', 'version =', 'CPU ')) or header < 3:
                    header += 1
                    continue
                sys.exit(f'compare: {path}:{n}: cannot parse trace-cmd line: {line!r}')
            events.append((int(m['cpu']), ns(m['ts']), int(m['pid']), m['event'],
                           m['fields'].rstrip(), m['comm'].strip()))
    return events, drops


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


def fmt_ts(t):
    return f'{t // 1000000000}.{t % 1000000000:09d}'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('perf')
    ap.add_argument('report')
    ap.add_argument('--ignore-event', action='append', default=[],
                    help='SYSTEM:EVENT lines of perf script to leave out')
    ap.add_argument('--lost', type=int, help='expected total of dropped events')
    ap.add_argument('--name', default='')
    a = ap.parse_args()

    want = parse_perf(a.perf, set(a.ignore_event))
    got, drops = parse_report(a.report)
    errors = []
    if len(want) != len(got):
        errors.append(f'perf script has {len(want)} events, trace-cmd report {len(got)}')
    gw, gg = groups(want), groups(got)
    for cpu in sorted(set(gw) | set(gg)):
        w, g = gw.get(cpu, []), gg.get(cpu, [])
        for i in range(max(len(w), len(g))):
            if i >= len(w) or i >= len(g) or w[i] != g[i]:
                ew = w[i] if i < len(w) else None
                eg = g[i] if i < len(g) else None
                errors.append(f'CPU {cpu}, event group {i}:\n'
                              f'  perf:      {fmt_ts(ew[0]) if ew else "-"} '
                              f'{sorted(ew[1].items()) if ew else ""}\n'
                              f'  trace-cmd: {fmt_ts(eg[0]) if eg else "-"} '
                              f'{sorted(eg[1].items()) if eg else ""}')
                break
    unnamed = sum(1 for e in got if e[5] == '<...>' and e[2] != 0)
    if unnamed:
        errors.append(f'{unnamed} events of tasks without a name ("<...>")')
    if a.lost is not None and sum(drops.values()) != a.lost:
        errors.append(f'{sum(drops.values())} dropped events shown, perf lost {a.lost}')
    cpus = len(set(e[0] for e in want))
    tag = f'{a.name}: ' if a.name else ''
    if errors:
        print(f'{tag}MISMATCH: ' + '\n'.join(errors[:5]))
        return 1
    print(f'{tag}{len(want)} events on {cpus} CPUs equal'
          + (f', {sum(drops.values())} dropped events shown' if drops else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
