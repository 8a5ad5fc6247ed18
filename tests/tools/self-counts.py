#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Self counts per function: perf's, trace-cmd hist's and report --profile's.

    self-counts.py --label NAME --script PERF_SCRIPT --report PERF_REPORT \\
        --hist HIST --profile PROFILE [--no-chains] [--by-address KALLSYMS]

PERF_SCRIPT is `perf script -F tid[,cpu],time,event,ip,sym,dso,trace --ns`
of a recording made with -g (every sample with its call chain), PERF_REPORT
`perf report --no-children --stdio -n -g none --sort sym` of it; HIST is
`trace-cmd hist -P` and PROFILE `trace-cmd report --profile` of its
conversion. A sample's self function is the function of its innermost
kernel frame, as perf names it: perf report's [k] symbol of the sample;
a sample without kernel frames (taken in user mode) has none, "-" in the
tables. hist and --profile read ftrace:kernel_stack events only, so that is
what they can show of a sample.

Per event and function, the counts must be:
- perf report's [k] rows equal to the leaves of perf script's chains (and
  its [.] rows, summed, to the samples without kernel frames): the
  reference is perf's own;
- trace-cmd hist: perf's, plus the stacks its end counts once more, as
  tracecmd/trace-hist.c plays them (process_event(), process_kernel_stack(),
  do_trace_hist(), save_stored_stacks()), CPU after CPU: at each stack event
  the current stack is saved under its task, the new one counted and made
  current, and the latest saved stack of the new one's task taken back as
  current; at the end the current stack and every saved one count again
  (about one per task, not always: the test plays it). The task is the
  record's common_pid (for a tracepoint sample, what perf's Python engine
  gives: --common-pids; perf script shows tid -1 for a task whose pid is
  gone). A sample of pid -1 is counted under the event of the stack before
  it, which it drops. hist's "user_stack" entries (it reads no user_stack: each is an
  event of its own, under the task's saved stack) are not counted;
- trace-cmd report --profile: perf's, except for sched_switch: --profile
  counts a task's switch out, with its stack, when the task runs again
  (the next sched_switch to it, trace-profile.c:
  handle_sched_switch_event()), so a switch out with no switch in after it
  in the recording is not counted; the test plays the switches in the
  recording's time order, a task's latest switch out ending first, as
  --profile's hash does.

With --by-address KALLSYMS, perf printed the kernel frames as addresses
(perf script and report --kallsyms=/dev/null) and the conversion named
each p2d_ADDRESS (perf2dat --kallsyms of such names): the counts are per
innermost kernel address, which is finer than per function, and the
tables name each address's function from KALLSYMS (the kernel's, for the
reader only: the greatest text symbol at or below it).

With --hist-fixed, HIST is of a trace-cmd with the two patches of
contrib/upstream/trace-cmd (an event's stack counted once, a pid of -1
kept pending): hist must count exactly what perf counts.

With --no-chains (a recording made without -g: no stack events), every
sample's function is "-" (perf report's rows are summed per event) and
hist counts no task's stack again; the
recording must still have samples.

It prints the table of each event and exits 1 on any difference, and when
the recording has no sample or (without --no-chains) no kernel frame.
"""
import argparse
import bisect
import collections
import re
import sys

KERNEL_MIN = 1 << 63
NONE = '-'

SCRIPT_HEAD_RE = re.compile(
    r'^\s*(?P<tid>-?\d+)\s+(?:\[(?P<cpu>\d+)\]\s+)?(?P<ts>\d+\.\d+):\s+'
    r'(?:\d+\s+)?(?P<event>[^:\s]+(?::[^:\s]+)?):\s*(?P<trace>.*)$')
FRAME_RE = re.compile(r'^\s+(?P<addr>[0-9a-f]+)\s+(?P<sym>.*?)\s+\((?P<dso>.*)\)\s*$')
REPORT_EVENT_RE = re.compile(r"^# Samples: .* of event '(?P<event>[^']+)'")
REPORT_ROW_RE = re.compile(r'^\s+[\d.]+%\s+(?P<n>\d+)\s+\[(?P<lvl>.)\]\s+(?P<sym>.*?)\s*$')
HIST_ROOT_RE = re.compile(r'^  %\s*[\d.]+ <all pids>\s+(?P<name>\S+) #(?P<n>\d+)$')
HIST_COUNT_RE = re.compile(r'^(?P<pre>[ |]*)--%[\d.]+-- (?P<name>.+?)  # (?P<n>\d+)$')
HIST_SINGLE_RE = re.compile(r'^ {10}(?P<name>\S.*)$')
PROF_EVENT_RE = re.compile(r'^  Event: (?P<name>[^:\s]+)(?::\S*)? \((?P<n>\d+)\)')
PROF_PLUS_RE = re.compile(r'^(?P<pre>[ |]*)\+ (?P<name>\S+)(?: \(0x[0-9a-f]+\))?$')
PROF_COUNT_RE = re.compile(r'^[ |]*\s+\d+% \((?P<n>\d+)\)')
# perf script's sched_switch: its fields (perf 6.1) or the event's own format
# (perf 6.12 and later: "prev:PID [PRIO] STATE ==> next:PID [PRIO]")
SWITCH_RE = re.compile(r'prev_pid=(?P<prev>-?\d+) .*next_pid=(?P<next>-?\d+)')
SWITCH_PRETTY_RE = re.compile(r':(?P<prev>-?\d+) \[-?\d+\] \S+ ==> .*:(?P<next>-?\d+) \[-?\d+\]')


def event_name(perf_name):
    """perf's name of an event as perf2dat names it: sched:sched_switch -> sched_switch."""
    name = perf_name.split(':')[-1]
    name = re.sub(r'[^A-Za-z0-9_]', '_', name)
    return '_' + name if name[:1].isdigit() else name


def fail_parse(path, n, what, line):
    sys.exit(f'{path}:{n}: not {what}: {line.rstrip()!r}')


class Sample:
    __slots__ = ('n', 'tid', 'cpu', 'ts', 'event', 'tracepoint', 'trace', 'leaf', 'frames')

    def __init__(self, n, m):
        self.n = n
        self.tid = int(m['tid'])
        self.cpu = int(m['cpu'] or 0)
        self.ts = m['ts']
        self.event = event_name(m['event'])
        self.tracepoint = ':' in m['event']
        self.trace = m['trace']
        self.leaf = None
        self.frames = 0


def parse_script(path, by_address=False):
    """The samples, in perf script's order, with their innermost kernel frame."""
    samples, cur = [], None
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                cur = None
                continue
            if line.startswith(('\t', ' ' * 8)) and cur is not None:
                m = FRAME_RE.match(line)
                if not m:
                    fail_parse(path, n, 'a perf script frame', line)
                if cur.frames == 0 and int(m['addr'], 16) >= KERNEL_MIN:
                    cur.leaf = f"p2d_{int(m['addr'], 16):x}" if by_address else m['sym']
                cur.frames += 1
                continue
            m = SCRIPT_HEAD_RE.match(line)
            if not m:
                fail_parse(path, n, 'a perf script sample', line)
            cur = Sample(n, m)
            samples.append(cur)
    return samples


def parse_report(path, chains=True, by_address=False):
    """perf report --no-children -n --sort sym: (event, function) -> samples.

    Without chains perf names the function of the sample's ip, of which
    trace-cmd has no stack: its samples are counted per event ("-")."""
    counts, event = collections.Counter(), None
    with open(path, errors='replace') as f:
        for line in f:
            m = REPORT_EVENT_RE.match(line)
            if m:
                event = event_name(m['event'])
                continue
            m = REPORT_ROW_RE.match(line)
            if m and event:
                sym = m['sym'] if m['lvl'] == 'k' and chains else NONE
                if by_address and sym != NONE:
                    a = re.fullmatch(r'0x([0-9a-f]+)', sym)
                    if not a:
                        sys.exit(f'{path}: a [k] row not of an address: {line.rstrip()!r}')
                    sym = f'p2d_{int(a[1], 16):x}'
                counts[(event, sym)] += int(m['n'])
    return counts


def parse_hist(path):
    """trace-cmd hist -P: (event, innermost function) -> count, for the events given."""
    counts, roots, root, ambiguous = collections.Counter(), {}, None, []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = HIST_ROOT_RE.match(line)
            if m:
                root = m['name']
                roots[root] = int(m['n'])
                counts[(root, NONE)] += int(m['n'])
                first = True
                continue
            if root is None:
                continue
            m = HIST_COUNT_RE.match(line)
            if m and len(m['pre']) == 13:
                counts[(root, m['name'])] += int(m['n'])
                counts[(root, NONE)] -= int(m['n'])
                first = False
                continue
            m = HIST_SINGLE_RE.match(line)
            if m and first and not line.strip().startswith('---'):
                # one path only: hist prints no count on it
                ambiguous.append((root, m['name']))
                first = False
    return counts, roots, ambiguous


def parse_profile(path):
    """report --profile: (event, innermost function) -> count, summed over the tasks."""
    counts, event, pending = collections.Counter(), None, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('task: ') or not line.startswith(' '):
                event = None
                continue
            m = PROF_EVENT_RE.match(line)
            if m:
                event = m['name']
                counts[(event, NONE)] += int(m['n'])
                continue
            if event is None:
                continue
            m = PROF_PLUS_RE.match(line)
            if m:
                pending = m['name'] if len(m['pre']) == 10 else None
                continue
            m = PROF_COUNT_RE.match(line)
            if m and pending is not None:
                counts[(event, pending)] += int(m['n'])
                counts[(event, NONE)] -= int(m['n'])
                pending = None
    return counts


def kernel_names(path):
    """The text symbols of a kallsyms, sorted: (addresses, names)."""
    syms = []
    with open(path, errors='replace') as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in 'tTwW':
                syms.append((int(p[0], 16), p[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def label(key, names):
    """A key's function as the table shows it: p2d_ADDR with its name."""
    if not names or not key.startswith('p2d_'):
        return key
    addr = int(key[4:], 16)
    i = bisect.bisect_right(names[0], addr) - 1
    return f'{addr:x} {names[1][i] if i >= 0 else "?"}'


def perf_counts(samples):
    return collections.Counter((s.event, s.leaf or NONE) for s in samples)


def read_common_pids(path):
    """common-pids.py's lines: (cpu, time, event) -> their common_pids, in order"""
    pids = collections.defaultdict(collections.deque)
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'^(\d+) (\d+\.\d{9}) (\S+) (-?\d+)$', line)
            if not m:
                fail_parse(path, n, 'a common-pids.py line', line)
            pids[(int(m[1]), m[2], m[3])].append(int(m[4]))
    return pids


def hist_pids(samples, common_pids):
    """The pid hist reads with each sample's stack: the record's common_pid.

    perf2dat copies a tracepoint's raw record, whose common_pid the kernel
    wrote; a sample of another event gets perf's tid. They differ where
    perf's tid is -1: the kernel gives -1 for a task whose pid is already
    detached (a reaped task's last moments: perf_event_pid_type()), while
    the tracepoint still names it. Every tracepoint sample takes the
    common_pid perf's Python engine gives it (COMMON_PIDS, in perf script's
    order), each line used once and none left over.
    """
    pids = {}
    for s in samples:
        pid = s.tid
        if s.tracepoint:
            key = (s.cpu, s.ts, s.event)
            if not common_pids[key]:
                sys.exit(f'common-pids.py: no line for perf script line {s.n}'
                         f' ({s.event}, CPU {s.cpu}, {s.ts})')
            pid = common_pids[key].popleft()
            if s.tid not in (-1, pid):
                sys.exit(f'perf script line {s.n}: tid {s.tid}, but the event\'s'
                         f' common_pid is {pid}')
        pids[s.n] = pid
    left = sum(len(q) for q in common_pids.values())
    if left:
        sys.exit(f'common-pids.py: {left} lines without their perf script line')
    return pids


def hist_counts(samples, chains, common_pids, fixed=False):
    """What hist counts, played as tracecmd/trace-hist.c plays each sample's
    event and stack (process_event(), process_kernel_stack(), CPU after CPU
    in do_trace_hist(), save_stored_stacks() at the end): (counts, extra
    counts of its end, samples counted under another event). With fixed (a
    trace-cmd carrying contrib/upstream/trace-cmd's patches), perf's."""
    want = perf_counts(samples)
    if not chains or fixed:
        return want, collections.Counter(), 0
    pids = hist_pids(samples, common_pids)
    # current: (pid, key) of the current stack, None while current_pid < 0;
    # saved: saved_stacks, latest first. Each sample is its event (its name
    # made pending under its pid, unless the pid is negative: pending_pid
    # < 0 is "none"), then its kernel_stack (every chain has one), then
    # maybe its user_stack, which only makes a pending entry of its own
    # that the next event counts under "user_stack" (not compared here).
    cur, saved, moved = None, [], 0
    for s in sorted(samples, key=lambda s: (s.cpu, s.ts, s.n)):
        pid, key = pids[s.n], (s.event, s.leaf or NONE)
        if pid >= 0:
            # pending: the current stack is saved, the new one counted and
            # made current, then the latest saved one of its pid restored
            restore = cur is not None
            if restore:
                saved.insert(0, cur)
            cur = (pid, key)
            if restore:
                for i, (p, _) in enumerate(saved):
                    if p == pid:
                        cur = saved.pop(i)
                        break
            continue
        # no pending: the current stack is dropped (never counted again)
        # and its event's name ends the new stack, counted under that name
        # (none: the stack's outermost kernel function, no event)
        want[key] -= 1
        want[(cur[1][0] if cur else None, key[1])] += 1
        moved += 1
        cur = None
    again = ([cur] if cur is not None else []) + saved
    extra = collections.Counter(k for _, k in again)
    return want + extra, extra, moved


def profile_counts(samples):
    """perf's, the switches out that no switch in ends left out."""
    want = collections.Counter()
    out = collections.defaultdict(list)
    unended = 0
    for s in sorted(samples, key=lambda s: (s.ts, s.cpu, s.n)):
        if s.event != 'sched_switch':
            want[(s.event, s.leaf or NONE)] += 1
            continue
        m = SWITCH_RE.search(s.trace) or SWITCH_PRETTY_RE.search(s.trace)
        if not m:
            sys.exit(f'perf script: a sched_switch without prev_pid/next_pid: {s.trace!r}')
        out[int(m['prev'])].append(s)
        if out[int(m['next'])]:
            ended = out[int(m['next'])].pop()
            want[(ended.event, ended.leaf or NONE)] += 1
    unended = sum(len(v) for v in out.values())
    return want, unended


def arg_parser():
    """The options (the docstring above says what each file is)."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--label', required=True)
    ap.add_argument('--script', required=True)
    ap.add_argument('--report', required=True)
    ap.add_argument('--hist', required=True)
    ap.add_argument('--profile', required=True)
    ap.add_argument('--no-chains', action='store_true')
    ap.add_argument('--common-pids', metavar='FILE',
                    help='perf script -s tests/tools/common-pids.py of the recording'
                    ' (needed when it has tracepoint samples)')
    ap.add_argument('--by-address', metavar='KALLSYMS')
    ap.add_argument('--hist-fixed', action='store_true',
                    help="HIST is of a trace-cmd with contrib/upstream/trace-cmd's patches:"
                    " it must count what perf counts")
    ap.add_argument('--user-samples', action='store_true',
                    help='the recording must have samples taken in user mode')
    ap.add_argument('--gone-tasks', action='store_true',
                    help='the recording must have tracepoint samples perf shows with tid -1')
    return ap


def check_samples(a, samples):
    """Exit unless perf script shows what the options ask for; return how many
    tracepoint samples it shows with tid -1."""
    if not samples:
        sys.exit(f'{a.label}: perf script shows no sample')
    if a.no_chains and any(s.frames for s in samples):
        sys.exit(f'{a.label}: --no-chains, but perf script shows call chains')
    if not a.no_chains and not any(s.leaf for s in samples):
        sys.exit(f'{a.label}: perf script shows no kernel frame')
    if a.user_samples and all(s.leaf for s in samples):
        sys.exit(f'{a.label}: perf script shows no sample taken in user mode')
    gone = sum(1 for s in samples if s.tid == -1 and s.tracepoint)
    if a.gone_tasks and not gone:
        sys.exit(f'{a.label}: perf script shows no tracepoint sample of tid -1 (a task gone)')
    return gone


def given_common_pids(a, samples):
    """--common-pids's lines; without it, none (hist needs them for tracepoint
    samples with chains)."""
    if a.common_pids:
        return read_common_pids(a.common_pids)
    if any(s.tracepoint for s in samples) and not a.no_chains and not a.hist_fixed:
        sys.exit(f'{a.label}: tracepoint samples, and no --common-pids')
    return collections.defaultdict(collections.deque)


def print_table(keys, names, counts, frameless, errors):
    """A row per (event, function): the counts of perf report, perf script,
    hist and --profile, and what hist and --profile should count; a row that
    differs is marked and its difference added to errors."""
    report, perf, hist, hist_want, prof, prof_want = counts
    moved = collections.Counter()
    width = max(len(label(k[1], names)) for k in keys)
    head = (f'  {"event":<16} {"function":<{width}} {"perf report":>11} {"perf script":>11}'
            f' {"hist":>6} {"= want":>6} {"profile":>7} {"= want":>6}')
    print(head)
    for k in keys:
        if k[1] == NONE:
            moved[k[0]] -= report[k] - perf[k]
    for k in keys:
        row = (report[k], perf[k], hist[k], hist_want[k], prof[k], prof_want[k])
        bad = []
        d = row[0] - row[1]
        if d and not (frameless[k[0]] and moved[k[0]] <= frameless[k[0]] and
                      (d < 0) == (k[1] == NONE)):
            bad.append('perf report')
        if row[2] != row[3]:
            bad.append('hist')
        if row[4] != row[5]:
            bad.append('profile')
        print(f'  {k[0]:<16} {label(k[1], names):<{width}} {row[0]:>11} {row[1]:>11}'
              f' {row[2]:>6} {row[3]:>6} {row[4]:>7} {row[5]:>6}'
              f'{"  <- " + ", ".join(bad) if bad else ""}')
        if bad:
            errors.append(f'{k[0]} {label(k[1], names)}: perf report {row[0]},'
                          f' perf script {row[1]}, hist {row[2]} (want {row[3]}),'
                          f' profile {row[4]} (want {row[5]})')


def check_totals(events, perf, report, hist_want, roots, errors):
    """Per event, perf report's samples and hist's events against perf's."""
    for ev in events:
        n = sum(v for k, v in perf.items() if k[0] == ev)
        if sum(v for k, v in report.items() if k[0] == ev) != n:
            errors.append(f'perf report counts {sum(v for k, v in report.items() if k[0] == ev)}'
                          f' {ev} samples, perf script {n}')
        hn = sum(v for k, v in hist_want.items() if k[0] == ev)
        if roots.get(ev) != hn:
            errors.append(f'hist counts {roots.get(ev)} {ev} events, want {hn} (perf {n})')


def main():
    a = arg_parser().parse_args()

    samples = parse_script(a.script, bool(a.by_address))
    gone = check_samples(a, samples)
    events = sorted({s.event for s in samples})
    perf = perf_counts(samples)
    report = parse_report(a.report, not a.no_chains, bool(a.by_address))
    hist, roots, ambiguous = parse_hist(a.hist)
    common_pids = given_common_pids(a, samples)
    hist_want, hist_extra, hist_moved = hist_counts(samples, not a.no_chains, common_pids,
                                                    a.hist_fixed)
    prof = parse_profile(a.profile)
    prof_want, unended = profile_counts(samples)

    errors = []
    for root, name in ambiguous:
        if root in events:
            errors.append(f'hist shows {root} with one path ({name}) and no count on it')
    keys = sorted({k for k in perf} | {k for c in (report, hist, hist_want, prof) for k in c
                                        if k[0] in events and c[k]})
    # perf script prints a sample whose chain perf discarded (a value of the
    # markers' range that is no marker) without frames, and the conversion
    # has no frame of it either; perf report counts it under its ip: on an
    # event with such samples, perf report may have up to that many more in
    # [k] rows and as many fewer in "-", its total the same
    frameless = collections.Counter(s.event for s in samples
                                    if not s.frames and not a.no_chains)
    print(f'{a.label}: {len(samples)} samples; self counts per event and innermost kernel'
          f' function ("-": none, a sample taken in user mode)')
    print(f'  hist = perf + the stacks hist counts again at its end ({sum(hist_extra.values())}'
          f'); profile = perf - switches out not ended by a switch in ({unended})')
    if gone:
        print(f'  {gone} tracepoint samples perf shows with tid -1 (a task whose pid is gone)')
    if hist_moved:
        print(f'  hist counts {hist_moved} samples of pid -1 under the event of the stack before'
              ' (trace-hist.c takes a negative pid for "no pending event")')
    if frameless:
        print(f'  samples perf script shows without frames (perf discarded the chain; perf'
              f' report counts them under their ip): {dict(frameless)}')
    names = kernel_names(a.by_address) if a.by_address else None
    print_table(keys, names, (report, perf, hist, hist_want, prof, prof_want), frameless,
                errors)
    check_totals(events, perf, report, hist_want, roots, errors)
    if errors:
        print(f'{a.label}: {len(errors)} differences:')
        for e in errors[:40]:
            print(f'  {e}')
        return 1
    print(f'{a.label}: every count equal ({len(keys)} rows)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
