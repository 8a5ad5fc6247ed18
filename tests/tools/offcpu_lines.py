# SPDX-License-Identifier: GPL-2.0-or-later
"""offcpu_lines.py - read the lines offcpu-samples.py writes.

    direct NS CPU TID PID PERIOD FRAMES...
    batch NS PID TID PERIOD FRAMES...

read(path, fail) gives (direct, batch): direct as (ns, cpu, tid, period,
frames), batch as (pid, tid, period, frames), frames as integers; a line of
neither kind calls fail(message).
"""


def read(path, fail):
    direct, batch = [], []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "direct":
                ns, cpu, tid, _pid, period = map(int, w[1:6])
                direct.append((ns, cpu, tid, period, [int(x, 16) for x in w[6:]]))
            elif w and w[0] == "batch":
                _ns, pid, tid, period = map(int, w[1:5])
                batch.append((pid, tid, period, [int(x, 16) for x in w[5:]]))
            else:
                fail("%s: a line not understood: %s" % (path, line.strip()))
    return direct, batch
