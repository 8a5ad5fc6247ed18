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
- samples of other events (--samples FILE: `perf script -F
  comm,tid,cpu,time,event,ip,period[,addr] --ns -G`, whose tracepoint lines
  are left out): each appears as the event perf names, made a valid event
  name (cpu-clock -> cpu_clock), with the same CPU, time, tid, ip, period
  (and addr with --sample-addr).
- stacks (--chains FILE: `perf script -D`, the call chain perf stored with
  each sample): right after its event, with the same CPU, time and pid, an
  ftrace:kernel_stack event lists the kernel part of the chain (between
  perf's context markers) and ftrace:user_stack events, 8 callers each, the
  user part, address for address, in the same order; every event with a
  chain has one kernel_stack, of no caller when the chain has no kernel part
  (trace-cmd hist would give it another event's stack), an event without a
  chain none, an event without a user part no user_stack. The stacks are read from
  --stack-report FILE, `trace-cmd report -t` with its plugins as users run
  it (without them kernel_stack events print 8 callers only), which must
  list the same events as TRACE_CMD_REPORT_OUTPUT.
- user stacks unwound (--unwound FILE: `perf script -F
  pid,tid,cpu,time,event,ip,dso --ns --no-inline --show-mmap-events
  --show-task-events`): a sample perf unwinds from its stack copy
  (--call-graph dwarf: -D shows its "ustack") has as user frames those perf
  script prints, in the same order. perf 6.1 prints a frame of a file
  relative to the file's mapping (--unwound-ips relative: made absolute again
  from the mappings perf shows, except the regions perf maps one to one:
  [stack], [heap], //anon); perf 6.12 and later print its address
  (--unwound-ips absolute). With --unwound-code-only, where perf's chain
  reaches an address that no executable mapping of the process holds (its
  libunwind, having lost the frame, takes a word of data for a return
  address: "__quick_exit_funcs"), perf's frames before it must begin the
  converted chain, which may go on; such samples are counted.
- side-band records (--sideband FILE: `perf script --show-task-events
  --show-mmap-events --show-switch-events --show-lost-events -F
  comm,tid,cpu,time --ns`, for a conversion with --all): each appears as a
  perf:comm, perf:fork, perf:exit, perf:mmap, perf:switch or perf:lost event
  with the same CPU, time, tid and numbers (a mapping's protection as
  executable or not, its file name); --records-only leaves the other
  events out of both sides.
- task names: a tid perf shows under one name all along has that name in the
  report (the first 15 characters, byte for byte but for the blanks that pad
  it and the format characters, such as U+200B, that print as nothing; pid 0
  is trace-cmd's "<idle>"); a tid perf shows under several names (exec) has
  one of them; no event of a tid perf names is shown as "<...>", not even of
  one its COMM record names "" (prctl(PR_SET_NAME, "")).
- losses (--lost): the "[N EVENTS DROPPED]" markers add up to perf report's
  "Total Lost Samples"; --lost-cpu CPU:N asks for at least the N events the
  PERF_RECORD_LOST records of that CPU reported; --stat FILE (trace-cmd report
  --stat) must show, per CPU, the dropped events the markers show. trace-cmd
  prints a marker before the next event of its CPU: a loss perf records after
  the last event of its CPU (its PERF_RECORD_LOST records' times in the
  perf script -D output --lost-records FILE, or time 0) has no event to be
  shown before, and is counted by --stat only; such losses are added to the
  markers wherever they are compared, and --stat must show them too, as well
  as what perf's LOST_SAMPLES records (time 0: perf record's totals when it
  stops) count beyond its LOST records, which has no time but the end
  (tests/e2e/losses.py).

It fails when perf prints no event, and on any line of either input it cannot
parse: nothing is skipped silently.
"""
import argparse
import collections
import re
import sys
import unicodedata

from losses import check_lost, losses_after

PERF_RE = re.compile(r'^(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+'
                     r'(?P<ts>\d+\.\d{9}):\s+(?P<sys>[^:\s]+):(?P<event>[^:\s]+):\s?(?P<fields>.*)$')
# trace-cmd >= 3.2 always prints a latency column ("d..3.") after the CPU
TC_RE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:[^\s:]{4,5}\s+)?'
                   r'(?P<ts>\d+\.\d{9}):\s+(?P<event>[^:\s]+):\s*(?P<fields>.*)$')
SAMPLE_RE = re.compile(r'^(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+'
                       r'(?P<ts>\d+\.\d{9}):\s+(?P<period>\d+)\s+(?P<event>\S+):\s+'
                       r'(?P<rest>[0-9a-f ]+)$')
DUMP_RE = re.compile(r'^(?:(?P<cpu>\d+) )?(?P<ts>\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: '
                     r'PERF_RECORD_SAMPLE\(.*?\): (?P<pid>-?\d+)/(?P<tid>-?\d+): ')
CHAIN_RE = re.compile(r'^\.\.\. FP chain: nr:(?P<nr>\d+)$')
# perf >= 7 names the context markers: ".....  0: ffffffffffffff80 (PERF_CONTEXT_KERNEL)"
FRAME_RE = re.compile(r'^\.\.\.\.\.\s+\d+: (?P<ip>[0-9a-f]+)(?: \((?P<ctx>PERF_CONTEXT_[A-Z_]+)\))?$')
CONTEXTS = {'PERF_CONTEXT_HV': 2**64 - 32, 'PERF_CONTEXT_KERNEL': 2**64 - 128,
            'PERF_CONTEXT_USER': 2**64 - 512, 'PERF_CONTEXT_GUEST': 2**64 - 2048,
            'PERF_CONTEXT_GUEST_KERNEL': 2**64 - 2176, 'PERF_CONTEXT_GUEST_USER': 2**64 - 2560,
            'PERF_CONTEXT_MAX': 2**64 - 4095}
USTACK_RE = re.compile(r'^\.\.\. ustack: size (?P<size>\d+)')
UNW_SAMPLE_RE = re.compile(r'^\s*(?P<pid>-?\d+)/(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+'
                           r'(?P<ts>\d+\.\d{9}):\s+(?P<rest>.*)$')
UNW_FRAME_RE = re.compile(r'^\s+(?P<ip>[0-9a-f]+) \((?P<dso>.*)\)$')
UNW_MMAP_RE = re.compile(r'^PERF_RECORD_MMAP2? (?P<pid>-?\d+)/-?\d+: \[0x(?P<start>[0-9a-f]+)'
                         r'\(0x(?P<len>[0-9a-f]+)\) @ (?:0x)?(?P<pgoff>[0-9a-f]+)[ \]].*\]: '
                         r'(?P<prot>\S+) (?P<file>.*)$')
UNW_FORK_RE = re.compile(r'^PERF_RECORD_FORK\((?P<pid>\d+):\d+\):\((?P<ppid>\d+):\d+\)$')
UNW_EXEC_RE = re.compile(r'^PERF_RECORD_COMM exec: .*:(?P<pid>\d+)/\d+$')
STACK_RE = re.compile(r'^\s*=> (?:.* \((?P<addr>[0-9a-f]+)\)|(?:0x)?(?P<hex>[0-9a-f]+))$')
CONTEXT_MAX = 2**64 - 4095
CONTEXT_KERNEL = 2**64 - 128
CONTEXT_USER = 2**64 - 512
USER_STACK_ENTRIES = 8
DROP_RE = re.compile(r'^\s*CPU:\s*(?P<cpu>\d+)\s+\[(?P<n>\d+) EVENTS DROPPED\]$')
CPUS_RE = re.compile(r'^cpus=\d+$')


def ns(ts):
    sec, frac = ts.split('.')
    return int(sec) * 1000000000 + int(frac)


def numbered_lines(path):
    """(line number, line without its newline) of a file, bad bytes replaced."""
    with open(path, encoding='utf-8', errors='replace') as f:
        for n, line in enumerate(f, 1):
            yield n, line.rstrip('\n')


def fail_parse(path, n, what, line):
    sys.exit(f'compare: {path}:{n}: cannot parse {what} line: {line!r}')


NO_STACK = (None, ())	# no kernel_stack event (a kernel part of no caller is ())


def parse_perf(path, ignore, names):
    """The tracepoint lines; @names gets every tracepoint's SYSTEM:EVENT."""
    events = []
    for n, line in numbered_lines(path):
        m = PERF_RE.match(line)
        if not m:
            fail_parse(path, n, 'perf script', line)
        names.add(m['sys'] + ':' + m['event'])
        if m['sys'] + ':' + m['event'] in ignore:
            continue
        events.append([int(m['cpu']), ns(m['ts']), int(m['tid']), m['event'],
                       m['fields'].rstrip(), m['comm'].strip(), NO_STACK])
    return events


SIDE_RE = re.compile(r'^(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+'
                     r'(?P<ts>\d+\.\d{9}):\s+PERF_RECORD_(?P<kind>[A-Z0-9_]+)(?P<rest>.*)$')
SIDE_FORMS = {
    'COMM': (r'^( exec)?: (?P<comm>.*):(?P<pid>-?\d+)/(?P<tid>-?\d+)$', 'comm'),
    'FORK': (r'^\((?P<pid>-?\d+):(?P<tid>-?\d+)\):\((?P<ppid>-?\d+):(?P<ptid>-?\d+)\)$', 'fork'),
    'EXIT': (r'^\((?P<pid>-?\d+):(?P<tid>-?\d+)\):\((?P<ppid>-?\d+):(?P<ptid>-?\d+)\)$', 'exit'),
    'MMAP': (r'^ (?P<pid>-?\d+)/(?P<tid>-?\d+): \[0x(?P<start>[0-9a-f]+)\(0x(?P<len>[0-9a-f]+)\)'
             r' @ (?:0x)?(?P<pgoff>[0-9a-f]+)\]: (?P<prot>\S+) (?P<file>.*)$', 'mmap'),
    'MMAP2': (r'^ (?P<pid>-?\d+)/(?P<tid>-?\d+): \[0x(?P<start>[0-9a-f]+)\(0x(?P<len>[0-9a-f]+)\)'
              r' @ (?:0x)?(?P<pgoff>[0-9a-f]+) [^\]]*\]: (?P<prot>\S+) (?P<file>.*)$', 'mmap'),
    'SWITCH': (r'^ (?P<dir>IN|OUT)(?P<preempt> preempt)?\s*$', 'switch'),
    'SWITCH_CPU_WIDE': (r'^ (?P<dir>IN|OUT)(?P<preempt> preempt)?\s+(?:next|prev) pid/tid:'
                        r'\s*(?P<npid>-?\d+)/(?P<ntid>-?\d+)\s*$', 'switch'),
    'LOST': (r'^ lost (?P<lost>\d+)$', 'lost'),
}


def u32(x):
    """A pid or tid as perf prints it: signed (-1, the kernel's maps)."""
    return int(x)


def side_fields(kind, g):
    """The fields both sides are compared on, from a dict of strings."""
    if kind == 'comm':
        return f'comm={g["comm"]} pid={u32(g["pid"])} tid={u32(g["tid"])} exec={g["exec"]}'
    if kind in ('fork', 'exit'):
        return (f'pid={u32(g["pid"])} ppid={u32(g["ppid"])} tid={u32(g["tid"])}'
                f' ptid={u32(g["ptid"])}')
    if kind == 'mmap':
        return (f'pid={u32(g["pid"])} tid={u32(g["tid"])} start={int(g["start"], 16):#x}'
                f' len={int(g["len"], 16):#x} pgoff={int(g["pgoff"], 16):#x}'
                f' exec={g["exec"]} filename={g["filename"]}')
    if kind == 'switch':
        return (f'out={g["out"]} preempt={g["preempt"]} next_prev_pid={g["npid"]}'
                f' next_prev_tid={g["ntid"]}')
    return f'lost={g["lost"]}'


def parse_sideband(path):
    """perf script's side-band records, as perf2dat's perf:* events.

    The records perf synthesizes at the start have time 0; perf2dat gives
    them the earliest time of the recording (that of any sample or record).
    """
    events = []
    first = None
    for n, line in numbered_lines(path):
        m = SIDE_RE.match(line)
        if not m:
            # a sample's line, "COMM TID [CPU] TIME:": compared elsewhere
            s = re.match(r'^.*\s-?\d+\s+\[\d+\]\s+(\d+\.\d{9}):\s*$', line)
            if not s:
                fail_parse(path, n, 'perf script side-band', line)
            t = ns(s.group(1))
            first = t if t and (first is None or t < first) else first
            continue
        t = ns(m['ts'])
        first = t if t and (first is None or t < first) else first
        form = SIDE_FORMS.get(m['kind'])
        r = re.match(form[0], m['rest']) if form else None
        if not r:
            fail_parse(path, n, 'perf script side-band', line)
        g, kind = dict(r.groupdict()), form[1]
        if kind == 'comm':
            g['exec'] = 1 if r.group(1) else 0
        elif kind == 'mmap':
            g['exec'] = int('x' in g['prot'])
            g['filename'] = g['file']
        elif kind == 'switch':
            g['out'] = int(g['dir'] == 'OUT')
            g['preempt'] = int(bool(g['preempt']))
            g['npid'] = g.get('npid') or 0
            g['ntid'] = g.get('ntid') or 0
        events.append([int(m['cpu']), t, int(m['tid']), kind, side_fields(kind, g),
                       m['comm'].strip(), NO_STACK])
    for e in events:
        if not e[1]:
            e[1] = first or 0
    return events


def canonical_records(events):
    """The fields of perf2dat's perf:* events of side-band records, as side_fields() puts them."""
    for e in events:
        if e[3] not in ('comm', 'fork', 'exit', 'mmap', 'switch', 'lost'):
            continue
        text = e[4]
        g = {}
        if e[3] == 'comm':
            m = re.match(r'^comm=(?P<comm>.*) pid=(?P<pid>-?\d+) tid=(?P<tid>-?\d+) exec=(?P<exec>\d+)$',
                         text)
        elif e[3] == 'mmap':
            m = re.match(r'^pid=(?P<pid>-?\d+) tid=(?P<tid>-?\d+) start=0x(?P<start>[0-9a-f]+)'
                         r' len=0x(?P<len>[0-9a-f]+) pgoff=0x(?P<pgoff>[0-9a-f]+)'
                         r' prot=(?P<prot>\d+) flags=\d+ filename=(?P<filename>.*)$', text)
        else:
            m = re.match(r'^(?P<kv>(?:\w+=-?\d+ ?)+)$', text)
        if not m:
            continue
        g = m.groupdict()
        if e[3] == 'mmap':
            g['exec'] = int(int(g['prot']) & 4 != 0)
        if 'kv' in g:
            g = dict(x.split('=') for x in g['kv'].split())
            g['npid'], g['ntid'] = g.get('next_prev_pid'), g.get('next_prev_tid')
        try:
            e[4] = side_fields(e[3], g)
        except (KeyError, ValueError):
            pass


def event_name(name):
    """perf's name of an event made a valid event name, as perf2dat names it."""
    name = re.sub(r'[^A-Za-z0-9_]', '_', name)
    return '_' + name if name[:1].isdigit() else name


def sample_fields(ip, period, addr):
    return f'ip={ip:#x}' + (f' addr={addr:#x}' if addr is not None else '') + f' period={period}'


def parse_samples(path, tracepoints, with_addr):
    """The lines of non-tracepoint samples (tracepoint ones are left out)."""
    events = []
    for n, line in numbered_lines(path):
        m = SAMPLE_RE.match(line)
        if not m or len(m['rest'].split()) != 1 + with_addr:
            fail_parse(path, n, 'perf script sample', line)
        if m['event'] in tracepoints:
            continue
        vals = [int(x, 16) for x in m['rest'].split()]
        fields = sample_fields(vals[-1], int(m['period']), vals[0] if with_addr else None)
        events.append([int(m['cpu']), ns(m['ts']), int(m['tid']), event_name(m['event']),
                       fields, m['comm'].strip(), NO_STACK])
    return events


def split_chain(chain):
    """The kernel and user parts of a perf call chain, markers dropped."""
    kernel, user, ctx = [], [], CONTEXT_KERNEL
    for ip in chain:
        if ip >= CONTEXT_MAX:
            ctx = ip
        elif ctx == CONTEXT_KERNEL:
            kernel.append(ip)
        elif ctx == CONTEXT_USER:
            user.append(ip)
    return tuple(kernel), tuple(user)


def parse_chains(path):
    """perf script -D: (cpu, ns, tid) -> the call chains of those samples, in order.

    A chain of a sample with a user stack copy (--call-graph dwarf) is a
    list whose attribute dwarf is True.
    """
    chains = collections.defaultdict(collections.deque)
    cur, want = None, 0
    for n, line in numbered_lines(path):
        if want:
            m = FRAME_RE.match(line)
            if not m or (m['ctx'] and CONTEXTS.get(m['ctx']) != int(m['ip'], 16)):
                fail_parse(path, n, 'perf script -D call chain', line)
            cur.append(int(m['ip'], 16))
            want -= 1
            continue
        m = DUMP_RE.match(line)
        if m:
            cur = Chain()
            key = (int(m['cpu'] or 0), int(m['ts']), int(m['tid']))
            chains[key].append(cur)
            continue
        m = CHAIN_RE.match(line)
        if m and cur is not None:
            want = int(m['nr'])
            cur.fp = True
            continue
        m = USTACK_RE.match(line)
        if m and cur is not None and int(m['size']):
            cur.dwarf = True
    return chains


class Chain(list):
    """A call chain, whether its sample carries a user stack copy (dwarf), and
    whether it has a chain at all (fp: PERF_SAMPLE_CALLCHAIN, "FP chain")."""
    dwarf = False
    fp = False


# perf maps these regions one to one (identity__map_ip): it prints their
# frames at their addresses, not relative to a file
IDENTITY_MAPS = ('[unknown]', '[heap]', '//anon', '/dev/zero', '/anon_hugepage')
IDENTITY_PREFIXES = ('[stack', '/SYSV')


def absolute(maps, pid, rel, dso):
    """The address of a frame perf prints relative to @dso, in process @pid."""
    if dso in IDENTITY_MAPS or dso.startswith(IDENTITY_PREFIXES):
        return rel
    for start, length, pgoff, file, _ in reversed(maps.get(pid, [])):
        if file == dso and pgoff <= rel < pgoff + length:
            return start + rel - pgoff
    return None


class CutChain(list):
    """perf's frames up to one that is in no executable mapping (left out)"""


def in_code(maps, pid, a):
    """Is @a in an executable mapping of @pid (the last mapped there)?"""
    for start, length, _, _, prot in reversed(maps.get(pid, [])):
        if start <= a < start + length:
            return 'x' in prot
    return False


def parse_unwound(path, ips, code_only=False):
    """perf script with the mappings: (cpu, ns, tid) -> user frames, absolute.

    @ips: how perf prints the frames, 'relative' to their mappings (perf 6.1)
    or 'absolute' (perf 6.12 and later). @code_only: a chain is cut at its
    first frame in no executable mapping (a CutChain), when frames precede it.
    """
    out = collections.defaultdict(collections.deque)
    maps = collections.defaultdict(list)
    cur, pid = None, 0
    for n, line in numbered_lines(path):
        f = UNW_FRAME_RE.match(line)
        if f and cur is not None:
            ip = int(f['ip'], 16)
            if f['dso'] == '[kernel.kallsyms]' or ip >= 2**63:
                continue
            a = ip if ips == 'absolute' else absolute(maps, pid, ip, f['dso'])
            if a is None:
                fail_parse(path, n, f'a user frame of a file pid {pid} does not map', line)
            if code_only and cur and not isinstance(cur, CutChain) and \
                    not in_code(maps, pid, a):
                cut = CutChain(cur)
                out[key][-1] = cut
                cur = cut
            if not isinstance(cur, CutChain):
                cur.append(a)
            continue
        if not line.strip():
            cur = None
            continue
        m = UNW_SAMPLE_RE.match(line)
        if not m:
            fail_parse(path, n, 'perf script sample or record', line)
        rest, cur = m['rest'], None
        r = UNW_MMAP_RE.match(rest)
        if r:	# a frame may be in any of them (perf unwinds what it can)
            maps[int(r['pid'])].append((int(r['start'], 16), int(r['len'], 16),
                                        int(r['pgoff'], 16), r['file'], r['prot']))
            continue
        r = UNW_FORK_RE.match(rest)
        if r:
            if r['pid'] != r['ppid']:
                maps[int(r['pid'])] = list(maps.get(int(r['ppid']), []))
            continue
        r = UNW_EXEC_RE.match(rest)
        if r:
            maps[int(r['pid'])] = []
            continue
        if rest.startswith('PERF_RECORD_'):
            continue
        pid = int(m['pid'])
        cur = []
        key = (int(m['cpu']), ns(m['ts']), int(m['tid']))
        out[key].append(cur)
    return out


def canonical_samples(events, names, with_addr):
    """The fields of perf2dat's events of samples, as sample_fields() writes them."""
    for e in events:
        if e[3] not in names:
            continue
        kv = dict(x.split('=', 1) for x in e[4].split() if '=' in x)
        try:
            e[4] = sample_fields(int(kv['ip'], 16), int(kv['period']),
                                 int(kv['addr'], 16) if with_addr else None)
        except (KeyError, ValueError):
            pass


def stacks_from(got, plugged, errors):
    """Take the stacks of the report with plugins; its events must be the same."""
    if len(got) != len(plugged):
        errors.append(f'trace-cmd report lists {len(got)} events, with plugins {len(plugged)}')
        return
    for i, (a, b) in enumerate(zip(got, plugged)):
        if a[:4] != b[:4]:
            errors.append(f'event {i}: {a[:4]} in trace-cmd report, {b[:4]} with plugins')
            return
        a[6] = b[6]


def attach_chains(events, chains, long_size, unwound, cuts=None):
    """Each event's stacks; callers are the kernel's longs (4 bytes on 32-bit).

    The user part of a sample perf unwinds is what perf unwound (--unwound);
    the events whose unwound chain perf cut (CutChain) go to @cuts by key.
    """
    mask = (1 << (8 * long_size)) - 1
    for e in events:
        key = (e[0], e[1], e[2])
        q = chains.get(key)
        if q:
            chain = q.popleft()
            k, u = split_chain(chain)
            uq = unwound.get(key) if unwound is not None else None
            if chain.dwarf and unwound is not None:
                if not uq:
                    raise SystemExit(f'compare.py: --unwound has no sample of CPU {key[0]},'
                                     f' time {fmt_ts(key[1])}, tid {key[2]}')
                uc = uq.popleft()	# perf's own user frames, then the unwound
                u = tuple(uc)
                if isinstance(uc, CutChain) and cuts is not None:
                    cuts[key].append(e)
            elif uq:
                uq.popleft()
            e[6] = (tuple(x & mask for x in k) if chain.fp else None,
                    tuple(x & mask for x in u))


def accept_cuts(got, cuts):
    """Where perf's unwinding went astray, the converted chain must begin
    with perf's frames before that: it is then taken as perf's. Returns how
    many."""
    n = 0
    for e in got:
        q = cuts.get((e[0], e[1], e[2]))
        if not q or not e[6]:
            continue
        w = q.pop(0)
        want_u = tuple(x for x in w[6][1] if x)
        got_u = tuple(x for x in e[6][1] if x)
        if got_u[:len(want_u)] == want_u:
            e[6] = (e[6][0], user_padded(w[6][1]))
            n += 1
    return n


# trace-cmd 3.4 -N (libtraceevent 1.9) names a kernel frame without its address
STACK_NAME_RE = re.compile(r'^\s*=> [A-Za-z_.$][\w.$]*(?:\+0x[0-9a-f]+)?$')


def parse_report(path, names_only=False):
    """Events with their stacks (the stack events after them on their CPU).

    With names_only (a report read for its task names), a frame shown by
    name only is taken as a frame of unknown address (0).
    """
    events, drops = [], collections.Counter()
    last, stack, errors = {}, None, []
    for n, line in numbered_lines(path):
        if n == 1 and CPUS_RE.match(line):
            continue
        d = DROP_RE.match(line)
        if d:
            drops[int(d['cpu'])] += int(d['n'])
            continue
        s = STACK_RE.match(line)
        if s and stack is not None:
            stack.append(int(s['addr'] or s['hex'], 16))
            continue
        if names_only and stack is not None and STACK_NAME_RE.match(line):
            stack.append(0)
            continue
        m = TC_RE.match(line)
        if not m:
            fail_parse(path, n, 'trace-cmd report', line)
        cpu, ts, pid = int(m['cpu']), ns(m['ts']), int(m['pid'])
        if m['event'] in ('kernel_stack', 'user_stack'):
            parent = last.get(cpu)
            if not parent or parent[1] != ts or parent[2] != pid:
                errors.append(f'line {n}: {m["event"]} not right after an event of'
                              f' CPU {cpu}, time {fmt_ts(ts)}, pid {pid}')
                parent = [0] * 6 + [[None, []]]
            part = 0 if m['event'] == 'kernel_stack' else 1
            if part == 0:
                if parent[6][0] is not None:
                    errors.append(f'line {n}: a second kernel_stack for one event')
                parent[6][0] = []
            elif parent[6][0] is None:
                errors.append(f'line {n}: a user_stack without a kernel_stack before it')
                parent[6][0] = []
            stack = parent[6][part]
            s = STACK_RE.match(m['fields'].strip())
            if s:
                stack.append(int(s['addr'] or s['hex'], 16))
            elif names_only and STACK_NAME_RE.match(m['fields'].strip()):
                stack.append(0)
            elif part == 1 or m['fields'].strip() != '<stack trace >':
                fail_parse(path, n, 'trace-cmd report stack', line)
            continue
        stack = None
        e = [cpu, ts, pid, m['event'], m['fields'].rstrip(), m['comm'].strip(), [None, []]]
        last[cpu] = e
        events.append(e)
    for e in events:
        e[6] = (None if e[6][0] is None else tuple(e[6][0]), tuple(e[6][1]))
    return events, drops, errors


def user_padded(user):
    """A user stack as user_stack events hold it: 8 callers each, zero-padded."""
    pad = -len(user) % USER_STACK_ENTRIES
    return tuple(user) + (0,) * pad


def groups(events, padded):
    """Per CPU: the list of (ts, multiset of (tid, event, fields, stacks)) in order."""
    out = collections.defaultdict(list)
    for cpu, ts, tid, ev, fields, _, (kernel, user) in events:
        key = (tid, ev, fields, (kernel, user_padded(user) if padded else user))
        g = out[cpu]
        if g and g[-1][0] == ts:
            g[-1][1][key] += 1
        else:
            g.append((ts, collections.Counter({key: 1})))
    return out


def same_group(want, got):
    """perf's tid -1 stands for any tid; everything else must be equal."""
    got = collections.Counter(got)
    wild = []
    for (tid, ev, fields, stacks), k in want.items():
        if tid == -1:
            wild += [(ev, fields, stacks)] * k
            continue
        if got[(tid, ev, fields, stacks)] < k:
            return False
        got[(tid, ev, fields, stacks)] -= k
    for ev, fields, stacks in wild:
        key = next((x for x, k in got.items() if k and x[1:] == (ev, fields, stacks)), None)
        if key is None:
            return False
        got[key] -= 1
    return not +got


def fmt_ts(t):
    return f'{t // 1000000000}.{t % 1000000000:09d}'


def check_events(want, got, errors):
    if len(want) != len(got):
        errors.append(f'perf script has {len(want)} events, trace-cmd report {len(got)}')
    gw, gg = groups(want, True), groups(got, False)
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


def perf_comms(path):
    """The names perf's COMM records give each task, from perf script -D."""
    names = collections.defaultdict(set)
    for _, line in numbered_lines(path):
        m = re.search(r'PERF_RECORD_COMM(?: exec)?: (.*):(\d+)/(\d+)$', line)
        if m:
            names[int(m.group(3))].add(m.group(1)[:15])
    return names


def shown_name(comm):
    """A name as it shows: without the format characters (U+200B ZERO WIDTH SPACE)
    that print as nothing, nor the blanks that pad it."""
    return ''.join(c for c in comm if unicodedata.category(c) != 'Cf').strip()


def check_names(want, got, errors, comms):
    """Every task perf names is shown under one of its names: those perf gives its
    events, or (perf 6.12 names a task's events after its exit ":TID") one its COMM
    records give it; a task its COMM records name "" (and perf shows so) is shown
    under a name that prints as nothing."""
    names = collections.defaultdict(set)
    for _, _, tid, _, _, comm, _ in want:
        if tid == -1 or comm.startswith(':'):
            continue
        if comm or '' in comms.get(tid, set()):
            names[tid].add('<idle>' if tid == 0 else comm[:15])
    for tid in names:
        names[tid] |= {n.strip() for n in comms.get(tid, set())}
    unnamed, wrong = collections.Counter(), collections.Counter()
    shown = collections.defaultdict(set)
    for _, _, pid, _, _, comm, _ in got:
        if pid not in names:
            continue
        if comm == '<...>':
            unnamed[pid] += 1
        elif shown_name(comm)[:15] not in names[pid]:
            wrong[pid] += 1
            shown[pid].add(comm)
    if unnamed:
        errors.append(f'{sum(unnamed.values())} events of {len(unnamed)} tasks perf names shown'
                      f' as "<...>" (tids {sorted(unnamed)[:8]})')
    for pid in sorted(wrong)[:5]:
        errors.append(f'tid {pid}: perf names it {sorted(names[pid])}, trace-cmd'
                      f' {sorted(shown[pid])} ({wrong[pid]} events)')
    return len(names)


def arg_parser():
    """The command line: the two listings and what else is compared."""
    ap = argparse.ArgumentParser()
    ap.add_argument('perf')
    ap.add_argument('report')
    ap.add_argument('--ignore-event', action='append', default=[],
                    help='SYSTEM:EVENT lines of perf script to leave out')
    ap.add_argument('--lost', type=int, help="perf report's Total Lost Samples")
    ap.add_argument('--lost-cpu', action='append', default=[],
                    help='CPU:N, the events the LOST records of that CPU reported')
    ap.add_argument('--stat', help='trace-cmd report --stat of the trace.dat')
    ap.add_argument('--lost-records', help='perf script -D output: where the LOST records'
                    ' are, to tell the losses after the last event of their CPU')
    ap.add_argument('--samples', help='perf script output of the non-tracepoint samples')
    ap.add_argument('--sample-addr', action='store_true',
                    help='the --samples output has the addr field')
    ap.add_argument('--chains', help='perf script -D output: the call chains')
    ap.add_argument('--unwound', help='perf script output of the unwound user stacks,'
                    ' with the mappings')
    ap.add_argument('--unwound-ips', choices=('relative', 'absolute'), default='relative',
                    help='how --unwound prints frames: relative to their mappings (perf 6.1)'
                    ' or their addresses (perf 6.12 and later)')
    ap.add_argument('--unwound-code-only', action='store_true',
                    help="compare perf's unwound chains up to a frame in no executable mapping")
    ap.add_argument('--stack-report', help='trace-cmd report -t output, with plugins')
    ap.add_argument('--sideband', help='perf script output with the side-band records')
    ap.add_argument('--records-only', action='store_true',
                    help='compare the side-band records only')
    ap.add_argument('--ignore-report-event', action='append', default=[],
                    help='EVENT of trace-cmd report to leave out (one perf script cannot show)')
    ap.add_argument('--long-size', type=int, default=8,
                    help="the recording kernel's long size, that of stack callers")
    ap.add_argument('--perf-comms', help='perf script -D output: the names COMM records give'
                    ' (default: --chains)')
    ap.add_argument('--names-report',
                    help='trace-cmd report -N of the trace.dat: the task names it holds')
    ap.add_argument('--name', default='')
    return ap


def perf_events(a):
    """What perf shows, with the stacks: (events, those of other events than
    tracepoints, the events whose unwound chain perf cut, by key)."""
    tracepoints = set()
    want = parse_perf(a.perf, set(a.ignore_event), tracepoints)
    samples = parse_samples(a.samples, tracepoints, a.sample_addr) if a.samples else []
    want += samples
    want.sort(key=lambda e: e[1])	# both listings are in time order: merged
    cuts = collections.defaultdict(list)
    if a.chains:
        attach_chains(want, parse_chains(a.chains), a.long_size,
                      parse_unwound(a.unwound, a.unwound_ips, a.unwound_code_only)
                      if a.unwound else None, cuts)
    return want, samples, cuts


def main():
    a = arg_parser().parse_args()
    want, samples, cuts = perf_events(a)
    got, drops, errors = parse_report(a.report)
    if a.stack_report:
        plugged, _, perrors = parse_report(a.stack_report)
        errors += perrors
        stacks_from(got, plugged, errors)
    canonical_samples(got, {e[3] for e in samples}, a.sample_addr)
    astray = accept_cuts(got, cuts)
    if astray:
        print(f'{a.name}: {astray} samples where perf unwound to an address in no executable'
              ' mapping: compared up to it, the conversion going on')
    if a.sideband:
        side = parse_sideband(a.sideband)
        if a.records_only:
            want = side
            got = [e for e in got if e[3] in ('comm', 'fork', 'exit', 'mmap', 'switch', 'lost')]
        else:
            want += side
            want.sort(key=lambda e: e[1])
        canonical_records(got)
    got = [e for e in got if e[3] not in a.ignore_report_event]
    if not want:
        errors.append('perf script printed no events: nothing to compare')
    check_events(want, got, errors)
    if a.names_report:
        # without plugins: with them, trace-cmd renames tasks after the comm
        # fields of the sched events it prints (libtraceevent 1.8)
        named_got, _, nerrors = parse_report(a.names_report, names_only=True)
        errors += nerrors
        named_got = [e for e in named_got if e[3] not in a.ignore_report_event]
    else:
        named_got = got
    comms = a.perf_comms or a.chains
    named = check_names(want, named_got, errors, perf_comms(comms) if comms else {})
    after, records = (losses_after(a.lost_records, want) if a.lost_records else
                      (collections.Counter(), a.lost or 0))
    check_lost(a, drops, after, records, errors)
    cpus = len(set(e[0] for e in want))
    tag = f'{a.name}: ' if a.name else ''
    if errors:
        print(f'{tag}MISMATCH: ' + '\n'.join(errors[:6]))
        return 1
    frames = sum(len(k or ()) + len(u) for *_, (k, u) in want)
    print(f'{tag}{len(want)} events on {cpus} CPUs equal ({len(samples)} of other events than'
          f' tracepoints, {frames} stack frames), {named} tasks named as perf names'
          ' them' + (f', {sum(drops.values())} dropped events shown' if drops else '') +
          (f', {sum(after.values())} lost after the last event of their CPU' if after else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
