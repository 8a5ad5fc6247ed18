# SPDX-License-Identifier: GPL-2.0-or-later
"""Losses for compare.py: the "[N EVENTS DROPPED]" markers of trace-cmd report,
with the losses perf records after the last event of their CPU, against perf
report's total, the PERF_RECORD_LOST records of each CPU and trace-cmd report
--stat (compare.py's text says what is checked)."""
import collections
import re

STAT_CPU_RE = re.compile(r'^\s*CPU:\s*(?P<cpu>\d+)\s*$')
STAT_DROP_RE = re.compile(r'^\s*dropped events:\s*(?P<n>\d+)\s*$')
LOST_REC_RE = re.compile(r'^(?P<cpu>\d+) (?P<ts>\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: '
                         r'PERF_RECORD_LOST: .*lost:(?P<n>\d+)\s*$')
LOST_ANY_RE = re.compile(r'PERF_RECORD_LOST: .*lost:(?P<n>\d+)\s*$')


def losses_after(path, want):
    """(per CPU, the events perf's PERF_RECORD_LOST records (perf script -D) lost
    after the last event perf shows on that CPU, or at time 0; the events all
    the LOST records lost)."""
    last, after, total = {}, collections.Counter(), 0
    for e in want:
        last[e[0]] = max(last.get(e[0], -1), e[1])
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = [line.rstrip('\n') for line in f if 'PERF_RECORD_LOST:' in line]
    for line in lines:
        total += int(LOST_ANY_RE.search(line)['n'])
        m = LOST_REC_RE.match(line)
        if m and (int(m['ts']) == 0 or int(m['ts']) > last.get(int(m['cpu']), -1)):
            after[int(m['cpu'])] += int(m['n'])
    return after, total


def check_lost(a, drops, after, records, errors):
    """The markers, with the losses after the last event of their CPU, against
    perf's totals and trace-cmd report --stat. What perf's LOST_SAMPLES records
    (time 0, written when perf record stops) count beyond its LOST records
    (@records) has no time: shown before the first event of a CPU's last page,
    or after its last event where that page has no room to say it."""
    shown, late = sum(drops.values()), sum(after.values())
    lost = a.lost if a.lost is not None else records
    end = max(lost - records, 0)
    timed = min(lost, records) - late	# what must be shown before an event
    if a.lost is not None and not 0 <= shown - timed <= end:
        errors.append(f'{shown} dropped events shown, perf report says {lost} lost:'
                      f' {timed} by LOST records before an event of their CPU, {late} after'
                      f' the last event of their CPU, {end} more by LOST_SAMPLES, untimed')
    for spec in a.lost_cpu:
        cpu, n = (int(x) for x in spec.split(':'))
        if drops[cpu] + after[cpu] < n:
            errors.append(f'CPU {cpu}: {drops[cpu]} dropped events shown'
                          f' ({after[cpu]} lost after its last event), its'
                          f' PERF_RECORD_LOST records say {n}')
    if a.stat:
        stat = parse_stat(a.stat)
        cpus = sorted(set(stat) | set(drops) | set(after))
        extra = {cpu: stat.get(cpu, 0) - drops[cpu] - after[cpu] for cpu in cpus}
        for cpu in cpus:
            if extra[cpu] < 0 or (extra[cpu] and not end):
                errors.append(f'CPU {cpu}: trace-cmd report --stat says {stat.get(cpu, 0)}'
                              f' dropped events, the markers {drops[cpu]}, after its last'
                              f' event {after[cpu]}')
        if a.lost is not None and sum(stat.values()) != lost:
            errors.append(f'trace-cmd report --stat says {sum(stat.values())} dropped events,'
                          f' perf report {lost}')


def parse_stat(path):
    """trace-cmd report --stat: the dropped events of each CPU."""
    dropped, cpu = {}, None
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            c = STAT_CPU_RE.match(line)
            if c:
                cpu = int(c['cpu'])
            d = STAT_DROP_RE.match(line)
            if d and cpu is not None:
                dropped[cpu] = int(d['n'])
    return dropped
