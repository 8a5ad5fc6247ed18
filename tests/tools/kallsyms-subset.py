#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cut a kallsyms down to what names some kernel addresses, for test fixtures.

    kallsyms-subset.py KALLSYMS ADDRESS_FILE... > SUBSET

The addresses are read as hex words from the files (perf script -D outputs:
every 16-digit hex word of the kernel half). For each address the subset
keeps every line from the closest address at or below it that perf keeps a
symbol of (types T W D B, either case, and u l N n) up to and including the
next such address above it: the symbol perf names the address after, its
aliases and where it ends, so that perf script and perf2dat name the
address the same with the subset as with the whole file. _text and _stext
(where perf places the kernel) are kept too.
"""
import bisect
import re
import sys

KEPT = set('TtWwDdBbulNn')
HEX = re.compile(r'\b(ffff[0-9a-f]{12})\b')


def main():
    lines = [l.rstrip('\n') for l in open(sys.argv[1]) if l.strip()]
    parsed = [(int(l.split()[0], 16), l.split()[1], l) for l in lines]
    kept = sorted({a for a, t, _ in parsed if t in KEPT})
    want = set()
    for path in sys.argv[2:]:
        for line in open(path, errors='replace'):
            for h in HEX.findall(line):
                a = int(h, 16)
                i = bisect.bisect_right(kept, a)
                if i:
                    want.add((kept[i - 1], kept[i] if i < len(kept) else kept[i - 1]))
    out = []
    for a, t, l in parsed:
        if any(lo <= a <= hi for lo, hi in want) or l.split()[2] in ('_text', '_stext'):
            out.append(l)
    sys.stdout.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
