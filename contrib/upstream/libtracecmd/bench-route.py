#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""cp against libtracecmd's writer copying the same page files, interleaved.

    bench-route.py [--rounds N] [--mib M] [--cpus C] DIR NAME=CMD...

Makes C page files of M MiB each in DIR (once, random bytes), and one file
with all of their bytes. Then in each round runs, in this order, cp(1) of
that file to a new file, and each NAME's CMD (a bench-route binary, run as
CMD OUTPUT PAGEFILE...). Before each run the output is removed and
sync(2) is called, outside the timing; each run is spawned directly
(os.posix_spawn, os.wait4), no shell and no time(1). Round 0 is a warm-up
and is not counted.

Two times per run: "proc", the wall time around the whole process (the
only time there is for cp; for a bench-route it includes writing the
headers, which read tracefs), and "step", for a bench-route the time of
tracecmd_write_cpu_data[_fds]() it measures itself with CLOCK_MONOTONIC.
Prints per tool the median with min and max, and per NAME the median of
the per-round ratios NAME / cp with their min and max.
"""
import argparse
import os
import statistics
import time


def run(argv, out):
    if os.path.exists(out):
        os.unlink(out)
    os.sync()
    r, w = os.pipe()
    t = time.monotonic()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_CLOSE, r)])
    os.close(w)
    _, status, _ = os.wait4(pid, 0)
    wall = time.monotonic() - t
    text = os.read(r, 4096).decode()
    os.close(r)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit('bench-route.py: %s failed' % ' '.join(argv))
    return wall, float(text) if text.strip() else wall


def stats(v):
    return 'median %.4f (min %.4f, max %.4f)' % (statistics.median(v), min(v), max(v))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rounds', type=int, default=11)
    ap.add_argument('--mib', type=int, default=20)
    ap.add_argument('--cpus', type=int, default=2)
    ap.add_argument('dir')
    ap.add_argument('tools', nargs='+')
    a = ap.parse_args()
    pages = [os.path.join(a.dir, 'cpu%d.pages' % i) for i in range(a.cpus)]
    whole = os.path.join(a.dir, 'all.pages')
    if not all(os.path.exists(p) for p in pages + [whole]):
        with open(whole, 'wb') as w:
            for p in pages:
                with open(p, 'wb') as f:
                    for _ in range(a.mib):
                        block = os.urandom(1 << 20)
                        f.write(block)
                        w.write(block)
    for p in pages + [whole]:
        with open(p, 'rb') as f:
            while f.read(1 << 22):
                pass
    out = os.path.join(a.dir, 'out')
    tools = [('cp', ['/bin/cp', whole, out])]
    for t in a.tools:
        name, cmd = t.split('=', 1)
        tools.append((name, cmd.split() + [out] + pages))
    res = {n: {'proc': [], 'step': []} for n, _ in tools}
    for r in range(a.rounds + 1):
        for name, argv in tools:
            wall, step = run(argv, out)
            if r:
                res[name]['proc'].append(wall)
                res[name]['step'].append(step)
    os.unlink(out)
    print('%d rounds of: %s; %d x %d MiB' % (a.rounds, ', '.join(n for n, _ in tools),
                                             a.cpus, a.mib))
    for name, _ in tools:
        print('%-10s proc s %s' % (name, stats(res[name]['proc'])))
        if name != 'cp':
            print('%-10s step s %s' % (name, stats(res[name]['step'])))
    cp = res['cp']['proc']
    for name, _ in tools[1:]:
        for k in ('step', 'proc'):
            q = [x / c for x, c in zip(res[name][k], cp)]
            print('%-10s %s / cp: median %.2f (min %.2f, max %.2f)' % (
                name, k, statistics.median(q), min(q), max(q)))


if __name__ == '__main__':
    main()
