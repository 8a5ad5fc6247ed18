#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare the user frames perf script names with what trace-cmd prints for them.

    user-names.py [--otherwise SHARE] [--unsure NAMES] [--inlines] PERF_SCRIPT TRACE_CMD_REPORT [STACK_VIEW]

PERF_SCRIPT: `perf script -F time,event,ip,sym,dso --ns` (a sample's line,
then its frames as "\tADDRESS SYMBOL (DSO)" lines). perf prints the frames
its inline resolution finds at one address on lines of their own, each but
the last marked "(inlined)": those lines are one frame, under the name of
the last (the function the code is out of line in); a frame whose only
lines are "(inlined)" (perf's symbol is another name of that function) is
named after its last line too.
C++ names: perf2dat writes the short form (libiberty without parameters:
'worker', 'std::__introsort_loop<...>'), the form of a perf built with
libbfd (Debian 12's perf 6.1). A perf built without it (Debian 13's 6.12,
unstable's) demangles with __cxa_demangle and prints the full signature
('worker(int, int)', 'void std::__introsort_loop<...>(...)'). When perf's
names show that it prints signatures (one of them has a parameter list),
and only then, each of its names is compared reduced exactly to the short
form (short_name(): the parameter list and what follows it, and a template
function's return type, go) and one line says so.
TRACE_CMD_REPORT: `trace-cmd report -t` (user_stack events, "=> NAME" lines,
a number where trace-cmd has no name; a no-break space in a name is a
space). STACK_VIEW: the headless stack view's dump
(tests/integration/kshark-stacks: "frame u ADDRESS NAME+0xOFF (FILE)",
"frame u ADDRESS NAME (inlined)" for each function inlined at a frame,
before it, innermost first, as perf script prints them).

Sample by sample (by timestamp and order), the two lists of user frames are
aligned by the shortest edit script (perf's libunwind reports some frames
twice). A frame perf names must get the same name: counted alike; another
name at its place is "named otherwise"; a number, [unknown] or no frame at
its place is "not named or not there"; another symbol of the same
function (the same address and size in one of the files perf names frames
in, or their debug files: glibc's __GI_ aliases, which perf 7.2 chooses
among otherwise than perf 6.1 and perf2dat), or the function a GCC clone
perf2dat names was made of (open_verify for open_verify.constprop.0), below
0x10000 in its file, where perf 7 names frames after addr2line (Aliases), is
counted and listed apart, neither alike nor otherwise. --unsure NAMES
(comma-separated): a frame perf names one of NAMES and the report leaves a
number is counted apart too, and said ("U2 frames ... left unnamed");
named otherwise it still counts so (plt-names.sh: perf 6.1 names a frame
in a program's PLT after whichever of two overlapping symbols its lookup
meets first, which perf2dat does not guess). Prints "user names: N/M frames perf names are named alike (W named
otherwise, U not named or not there, S samples)" for the report (and the
view); exits 0 only when M > 0, N >= 99% of M, and W <= SHARE x M (0: none
named otherwise, the default), for each. With a view, also the inlined
functions perf prints before a frame: the view must show the same, in the
same order, for >= 99% of the frames perf shows some for (with --inlines,
there must be some: perf 6.1 shows none in frame-pointer stacks).
"""
import argparse
import collections
import difflib
import os
import re
import subprocess
import sys

KERNEL = 0xffff800000000000
# the DSO is the last parenthesised group; it may hold one of its own: '(/tmp/prog (deleted))'
PERF_FRAME = re.compile(r'^\s+(?P<addr>[0-9a-f]+)\s+(?P<sym>.*?)\s+'
                        r'\((?P<dso>[^()]*(?:\([^()]*\)[^()]*)*)\)\s*$')
PERF_SAMPLE = re.compile(r'(?P<s>\d+)\.(?P<ns>\d{9}):')
TC_EVENT = re.compile(r'(?P<s>\d+)\.(?P<ns>\d{9}):\s+(?P<event>[^:\s]+):')
TC_FRAME = re.compile(r'^\s*=>\s+(?P<name>.*?)\s*$')
TC_DROPPED = re.compile(r'^\s*CPU:\s*\d+ \[(?:\d+ )?EVENTS DROPPED\]')
PERF_MAP = re.compile(r'/perf-\d+\.map$')
VIEW_SAMPLE = re.compile(r'^sample \d+ (?P<ts>\d+) ')
VIEW_FRAME = re.compile(r'^frame (?P<kind>[ku])\s+(?P<addr>[0-9a-f]+) (?P<name>.*) \((?P<file>[^()]*)\)$')


def bare(name):
    """A name without perf's +offset"""
    return re.sub(r'\+0x[0-9a-f]+$', '', name.strip())


OPERATORS = sorted(['->*', '<<=', '>>=', '<=>', '()', '[]', '->', '<<', '>>', '<=', '>=', '==',
                    '!=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
                    '+', '-', '*', '/', '%', '^', '&', '|', '~', '!', '=', '<', '>', ','],
                   key=len, reverse=True)
SPECIAL = re.compile(r'^(?:(?:non-)?transaction clone for|(?:non-)?virtual thunk to|covariant return '
                     r'thunk to|(?:construction )?vtable for|VTT for|typeinfo (?:name |fn )?for|'
                     r'guard variable for|reference temporary #\d+ for|TLS (?:init|wrapper) function '
                     r'for|hidden alias for) ')
QUALIFIERS = re.compile(r'(?:\s+(?:const|volatile|&&|&|noexcept|transaction_safe))+$')
REQUIRES = re.compile(r' requires ')
CLONES = re.compile(r'(?:\s\[clone [^\]]*\])+$')
OPEN, CLOSE = '<({[', '>)}]'


def top_level(name):
    """The name's characters with their nesting depth in <>, (), {}, [] (a
    ')' closes any '<' left open since its '(': a less-than in an expression,
    'decltype (a<b)'; a '>' with no '<' open is a greater-than), the
    operator symbols after an 'operator' keyword (its own '(' or '<' opens
    nothing) at depth None; and where that keyword starts at depth 0"""
    stack, i, out, op_at = [], 0, [], None
    while i < len(name):
        if (name.startswith('operator', i) and (i == 0 or not (name[i - 1].isalnum() or name[i - 1] == '_'))
                and not (i + 8 < len(name) and (name[i + 8].isalnum() or name[i + 8] == '_'))):
            if not stack:
                op_at = i
            out.extend((c, len(stack)) for c in 'operator')
            i += 8
            while i < len(name) and name[i] == ' ':
                out.append((' ', None))
                i += 1
            for op in OPERATORS:
                if name.startswith(op, i):
                    out.extend((c, None) for c in op)
                    i += len(op)
                    break
            continue
        c = name[i]
        if c in OPEN:
            out.append((c, len(stack)))
            stack.append(c)
        elif c == '>' and stack and stack[-1] == '<':
            stack.pop()
            out.append((c, len(stack)))
        elif c in ')]}' and OPEN[CLOSE.index(c)] in stack:
            while stack.pop() != OPEN[CLOSE.index(c)]:
                pass
            out.append((c, len(stack)))
        else:
            out.append((c, len(stack)))
        i += 1
    return out, op_at


def short_name(full):
    """perf's full C++ signature reduced to the short form (libiberty's
    without parameters), e.g. 'void std::sort<It>(It, It)' -> 'std::sort<It>':
    the trailing parameter list at depth 0 goes, with the qualifiers after it
    (' const', ' &&', ...), a requires clause and any ' [clone .SUFFIX]'; and the return type of
    a template function (up to the last blank at depth 0 before the name, the
    blanks of an 'operator new' or 'operator unsigned long' the name's own).
    A name without such a list (C, or the short form) is returned as it is;
    so are special names ('virtual thunk to ...'), whose parameters the short
    form keeps."""
    if SPECIAL.match(full):
        return full
    clone = CLONES.search(full)
    name = full[:clone.start()] if clone else full
    chars, _ = top_level(name)
    req = REQUIRES.search(''.join(c if d == 0 else '_' for c, d in chars))
    if req:		# a C++20 requires clause after the parameters
        name = name[:req.start()]
    name = QUALIFIERS.sub('', name)
    chars, op_at = top_level(name)
    if not chars or chars[-1] != (')', 0):
        return full		# no parameter list: a C name, or the short form already
    i = len(chars) - 1
    while chars[i] != ('(', 0):
        i -= 1
    name = name[:i]
    chars = chars[:i]
    # a return type (template functions): up to the last blank at depth 0
    # before the name (before its 'operator' keyword, whose blanks are its own)
    end = op_at if op_at is not None else len(chars)
    cut = max((k for k in range(end) if chars[k] == (' ', 0)), default=-1)
    return name[cut + 1:]


def perf_names(path):
    """The names perf script gives frames, but those of a JIT map (written
    by the program as it likes, never demangled: 'Jit::spin two(int)')"""
    for line in open(path, errors='replace'):
        f = PERF_FRAME.match(line)
        if f and not PERF_MAP.search(f['dso']) and not f['sym'].startswith('[unknown]'):
            yield bare(f['sym'])


def prints_signatures(names):
    """Whether the perf that wrote these names prints C++ signatures: a perf
    built without libbfd (Debian 13's, unstable's) demangles with
    __cxa_demangle, which keeps the parameters ('worker(int, int)'); one
    with libbfd (Debian 12's) prints the short form ('worker'), as
    perf2dat does. Some name with a parameter list says so."""
    return any(n and short_name(n) != n for n in names)


def unnamed(name):
    return name is None or name.startswith('[unknown]') or re.match(r'^(0x)?[0-9a-f]+$', name)


def unparsed(path, line):
    """A line inside a sample's frames that is none: never skipped"""
    sys.exit(f'user-names: {path}: a line that is neither a frame nor a sample: {line.rstrip()!r}')


def perf_user(path, signatures):
    """timestamp -> the samples' user frames (names, None for [unknown]), and
    timestamp -> for each frame, the names perf prints "(inlined)" before it;
    with @signatures, C++ names reduced to the short form"""
    out = collections.defaultdict(list)
    inl = collections.defaultdict(list)
    cur, last, pending = None, None, False
    for line in open(path, errors='replace'):
        f = PERF_FRAME.match(line)
        if f and cur is not None:
            addr = int(f['addr'], 16)
            if addr >= KERNEL or 'kernel' in f['dso']:
                continue
            name = None if f['sym'].startswith('[unknown]') else bare(f['sym'])
            if name and signatures and not PERF_MAP.search(f['dso']):
                name = short_name(name)
            if cur and last == addr and pending:
                curi[-1] = curi[-1] + (cur[-1],)
                cur[-1] = name		# the holder (or a next inline) of an inlined line
            else:
                cur.append(name)
                curi.append(())
            last, pending = addr, f['dso'] == 'inlined'
            continue
        t = PERF_SAMPLE.search(line)
        if not t and line.strip() and cur is not None:
            unparsed(path, line)
        cur, curi, last, pending = ([] if t else None), [], None, False
        if t:
            out[int(t['s']) * 10**9 + int(t['ns'])].append(cur)
            inl[int(t['s']) * 10**9 + int(t['ns'])].append(curi)
    return out, inl


def report_user(path):
    """timestamp -> the user_stack frames trace-cmd prints (a deep stack's events joined)"""
    out = collections.defaultdict(list)
    cur, cont = None, None
    for line in open(path, errors='replace'):
        t = TC_EVENT.search(line)
        if t:
            ts = int(t['s']) * 10**9 + int(t['ns'])
            if t['event'] != 'user_stack':
                cur = cont = None
                continue
            if cont != ts or not out[ts]:
                out[ts].append([])
            cur, cont = out[ts][-1], ts
            f = TC_FRAME.match(line[t.end():])
            if f:
                cur.append(f['name'])
            continue
        f = TC_FRAME.match(line)
        if f and cur is not None:
            cur.append(f['name'])
        elif TC_DROPPED.match(line):
            cur = cont = None
        elif cur is not None and line.strip():
            unparsed(path, line)
    for stacks in out.values():
        for s in stacks:
            while s and s[-1] in ('0x0', '0'):	# the zero padding of user_stack
                s.pop()
            s[:] = [x.replace('\u00a0', ' ') for x in s]
    return out


def view_user(path):
    """timestamp -> the stack view's user frames, and timestamp -> for each,
    the "NAME (inlined)" lines the view shows before it"""
    out = collections.defaultdict(list)
    inl = collections.defaultdict(list)
    cur, pend = None, ()
    for line in open(path, errors='replace'):
        s = VIEW_SAMPLE.match(line)
        if s:
            cur, curi, pend = [], [], ()
            out[int(s['ts'])].append(cur)
            inl[int(s['ts'])].append(curi)
            continue
        f = VIEW_FRAME.match(line.rstrip('\n'))
        if f and cur is not None and f['kind'] == 'u':
            if f['file'] == 'inlined':
                pend += (bare(f['name']),)
                continue
            cur.append(bare(f['name']))
            curi.append(pend)
            pend = ()
    return out, inl


def compare_inlines(perf, pinl, view, vinl, need):
    """Of the frames perf prints "(inlined)" lines before (frames named
    alike, aligned as compare() aligns them), those the view shows the same
    inlined functions for, in the same order"""
    n = m = 0
    other = collections.Counter()
    for ts, chains in perf.items():
        theirs = view.get(ts, [])
        for i, chain in enumerate(chains):
            tc = theirs[i] if i < len(theirs) else []
            pi = pinl[ts][i]
            vi = vinl[ts][i] if i < len(theirs) else []
            sm = difflib.SequenceMatcher(None, chain, tc, autojunk=False)
            for op, i1, i2, j1, _ in sm.get_opcodes():
                for k in range(i1, i2):
                    if not pi[k]:
                        continue
                    m += 1
                    if op == 'equal' and vi[j1 + k - i1] == pi[k]:
                        n += 1
                    else:
                        got = vi[j1 + k - i1] if op == 'equal' else None
                        other[(pi[k], got)] += 1
    print(f'stack view: inlined functions: {n}/{m} frames perf shows inlined functions in'
          f' show the same')
    for (want, got), k in other.most_common(3):
        print(f'  {k} x perf {want!r}, stack view {got!r}')
    return (bool(m) or not need) and n >= 0.99 * m


def perf_dsos(path):
    """The files perf script names user frames in"""
    out = set()
    for line in open(path, errors='replace'):
        f = PERF_FRAME.match(line)
        if f and f['dso'].startswith('/') and not PERF_MAP.search(f['dso']):
            out.add(f['dso'])
    return out


def func_symbols(path):
    """(name without its version, value, size) of the FUNC symbols of the
    ELF file @path and of its debug file (/usr/lib/debug/.build-id)"""
    files = [path]
    try:
        notes = subprocess.run(['readelf', '-nW', path], capture_output=True, text=True).stdout
        b = re.search(r'Build ID: ([0-9a-f]{4,})', notes)
        if b:
            files.append(f'/usr/lib/debug/.build-id/{b[1][:2]}/{b[1][2:]}.debug')
    except OSError:
        return
    for f in files:
        if not os.path.isfile(f):
            continue
        out = subprocess.run(['readelf', '-sW', f], capture_output=True, text=True).stdout
        for line in out.splitlines():
            c = line.split()
            if len(c) >= 8 and c[3] == 'FUNC' and c[6] != 'UND':
                yield re.sub(r'@.*$', '', c[7]), int(c[1], 16), int(c[2], 0)


# perf 7's inline resolution (libdw.c, libdw__addr2line()) reports the file
# to libdw with dwfl_report_offline(), which places a shared object at
# OFFLINE_REDZONE (0x10000, elfutils libdwfl), and then looks the file's
# address up with dwfl_addrmodule(dwfl, addr), unbiased: below 0x10000 libdw
# finds no module and perf falls back to binutils' addr2line, whose outermost
# function (DWARF linkage name, else name) names the frame, "(inlined)" when it
# is not the symbol's name. Above, the frame keeps its symbol's name. A perf
# patch that mends it, checked on perf 7.2.13: contrib/upstream/perf.
LIBDW_OFFLINE_BASE = 0x10000
# the suffixes GCC gives the clones it makes of a function (ipa-clones)
GCC_CLONE = re.compile(r'(\.(constprop|isra|part|cold|lto_priv)(\.[0-9]+)?)+$')


class Aliases:
    """Names of one function that perf 7 gives a frame below 0x10000 in its
    file (LIBDW_OFFLINE_BASE): a symbol of the same address and size in one
    of the files perf names frames in, the DWARF linkage name binutils'
    addr2line prints (ld.so's __GI__dl_catch_exception at 0x2380 on Debian
    unstable, where the symbol table and perf2dat say _dl_catch_exception),
    or the name of the function a GCC clone was made of (open_verify for
    ld.so's open_verify.constprop.0).
    Above 0x10000 perf 7 names the frame by its symbol as perf2dat does, and
    perf 6 names every unwound frame after addr2line's function as perf2dat
    does: another alias there is named otherwise."""

    def __init__(self, dsos):
        self.at = collections.defaultdict(set)
        for d in dsos:
            for name, value, size in func_symbols(d):
                if size:
                    self.at[name].add((d, value, size))

    def same(self, a, b):
        """@a, perf's name, is that of the function perf2dat names @b below
        0x10000: another symbol of the same address and size, or @b without
        the suffix GCC gives a clone of @a (open_verify.constprop.0 of ld.so:
        its DWARF name, which addr2line prints, is open_verify)"""
        if any(value < LIBDW_OFFLINE_BASE
               for _, value, _ in self.at.get(a, set()) & self.at.get(b, set())):
            return True
        return (GCC_CLONE.sub('', b) == a and a != b and
                any(value < LIBDW_OFFLINE_BASE for _, value, _ in self.at.get(b, set())))


class Tally:
    """What compare() counts: n of m frames perf names named alike, w named
    otherwise, u not named or not there, al named by an alias, un unsure
    ones left unnamed; extra frames the report adds inside perf's stacks,
    tail_extra past perf's last frame, invented names where perf shows
    [unknown]"""

    def __init__(self):
        self.n = self.m = self.w = self.u = self.al = self.un = self.samples = 0
        self.extra = self.tail_extra = self.invented = 0
        self.otherwise = collections.Counter()
        self.alias = collections.Counter()
        self.added = collections.Counter()

    def sample(self, chain, tc, aliases, unsure):
        """One sample: perf's frames @chain against the report's @tc, aligned
        as one edit script (a frame perf repeats, as its libunwind reports
        some frames twice, or leaves out does not shift the rest)"""
        self.samples += 1
        sm = difflib.SequenceMatcher(None, chain, tc, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            # frames the report has where perf has none: past perf's last
            # frame (callers perf's unwinder left out), or inside its stack
            if op in ('insert', 'replace'):
                for j in range(j1 + (i2 - i1 if op == 'replace' else 0), j2):
                    if i2 >= len(chain):
                        self.tail_extra += 1
                    else:
                        self.extra += 1
                        self.added[tc[j]] += 1
            for k in range(i1, i2):
                g = tc[j1 + k - i1] if op == 'replace' and j1 + k - i1 < j2 else None
                self.frame(chain[k], g, op == 'equal', aliases, unsure)

    def frame(self, name, g, equal, aliases, unsure):
        """perf's frame @name against the report's @g at its place"""
        if name is None:
            # perf has no name here: the report must give none either
            if not unnamed(g):
                self.invented += 1
                self.added['(for [unknown]) ' + g] += 1
        elif not equal and name in unsure and unnamed(g):
            self.un += 1
        else:
            self.m += 1
            if equal:
                self.n += 1
            elif unnamed(g):
                self.u += 1
            elif aliases and aliases.same(name, g):
                self.al += 1
                self.alias[(name, g)] += 1
            else:
                self.w += 1
                self.otherwise[(name, g)] += 1


def compare(perf, got, what, max_otherwise, aliases=None, unsure=frozenset(), tail=False):
    t = Tally()
    for ts, chains in perf.items():
        theirs = got.get(ts, [])
        for i, chain in enumerate(chains):
            if any(chain):
                t.sample(chain, theirs[i] if i < len(theirs) else [], aliases, unsure)
    print(f'{what}: user names: {t.n}/{t.m} frames perf names are named alike ({t.w} named'
          f' otherwise, {t.u} not named or not there, {t.samples} samples)')
    for (want, g), k in t.otherwise.most_common(5):
        print(f'  {k} x perf {want!r}, {what} {g!r}')
    print(f'{what}: {t.extra} frames perf does not show inside its stacks, {t.invented} named'
          f' where perf shows [unknown], {t.tail_extra} past perf\'s last frame'
          f'{" (callers its unwinder left out: allowed)" if tail else ""}')
    for g, k in t.added.most_common(5):
        print(f'  {k} x {what} {g!r}')
    if t.un:
        print(f'{what}: {t.un} frames perf names {", ".join(sorted(unsure))} left unnamed,'
              f' counted apart (--unsure)')
    if t.al:
        print(f'{what}: {t.al} frames below 0x10000 in their file, which perf 7 names after'
              f' binutils\' addr2line, named by another name of the same function:')
        for (want, g), k in t.alias.most_common(5):
            print(f'  {k} x perf {want!r}, {what} {g!r}')
    return (bool(t.m) and t.n >= 0.99 * t.m and t.w <= max_otherwise * t.m and
            not t.invented and t.extra <= max_otherwise * t.m and (tail or not t.tail_extra))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--otherwise', type=float, default=0.0)
    ap.add_argument('--inlines', action='store_true')
    ap.add_argument('--unsure', default='')
    ap.add_argument('--tail', action='store_true')
    ap.add_argument('perf')
    ap.add_argument('report')
    ap.add_argument('view', nargs='?')
    a = ap.parse_args()
    signatures = prints_signatures(perf_names(a.perf))
    if signatures:
        print('perf prints C++ signatures: compared reduced to the short form')
    perf, pinl = perf_user(a.perf, signatures)
    aliases = Aliases(perf_dsos(a.perf))
    unsure = frozenset(x for x in a.unsure.split(',') if x)
    ok = compare(perf, report_user(a.report), 'trace-cmd report', a.otherwise, aliases,
                 unsure, a.tail)
    if a.view:
        view, vinl = view_user(a.view)
        ok = compare(perf, view, 'stack view', a.otherwise, aliases, unsure, a.tail) and ok
        ok = compare_inlines(perf, pinl, view, vinl, a.inlines) and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
