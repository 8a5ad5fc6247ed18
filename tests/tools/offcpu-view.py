#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""offcpu-view.py - what KernelShark's perf2dat plugin makes of a perf record
--off-cpu recording, against perf script of it (tests/integration/offcpu-plugin.sh).

    offcpu-view.py SAMPLES DUMP

SAMPLES: what tests/tools/offcpu-samples.py printed (perf script -s);
DUMP: the plugin's p2d_ks_blocked_dump() of the recording opened as
KernelShark opens it (tests/integration/kshark-stacks --blocked).

Checks, failing on the first difference:
  * the blocked intervals are the direct samples, one for one: each of
    state O, of the sample's task, ending at its time, as long as its
    period, on its CPU, with its user frames as the stack (and no other
    interval: the recordings have no sched events);
  * the end-of-run batch is the plugin's batch, in order, sample for
    sample (pid, tid, ns, frames);
  * the off-CPU tree's two states hold the direct samples' and the
    batch's counts and times (a state without samples is absent);
  * there is a direct sample or a batch sample at all.
"""

import sys

import offcpu_lines

DIRECT = "off-CPU (perf --off-cpu, S or D)"
BATCH = "off-CPU, end of run (perf --off-cpu, no time)"


def fail(msg):
    print("offcpu-view: " + msg)
    sys.exit(1)


def perf_side(path):
    direct, batch = offcpu_lines.read(path, fail)
    return sorted((tid, ns - period, ns, cpu, frames)
                  for ns, cpu, tid, period, frames in direct), batch


def dump_side(path):
    intervals, batch, tree, cur = [], [], {}, None
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0] in ("kshark-stacks:", "loading"):
                continue
            if w[0] == "interval":
                if w[2] != "O" or w[6] != "-":
                    fail("an interval that is not of an off-CPU sample: " + line.strip())
                cur = [int(w[1]), int(w[3]), int(w[4]), int(w[5]), []]
                intervals.append(cur)
            elif w[0] == "batch":
                cur = [int(w[1]), int(w[2]), int(w[3]), []]
                batch.append(cur)
            elif w[0] in ("ostack", "bstack"):
                if cur is None or w[1] != "u":
                    fail("a frame of no interval or batch sample, or not a user one: "
                         + line.strip())
                cur[-1].append(int(w[2], 16))
            elif w[0] == "otree":
                if w[1] == "0":
                    tree[" ".join(w[4:])] = (int(w[2]), int(w[3]))
            else:
                fail("a dump line not understood: " + line.strip())
    return sorted(tuple(i) for i in intervals), [tuple(b) for b in batch], tree


def main():
    direct, batch = perf_side(sys.argv[1])
    intervals, kept, tree = dump_side(sys.argv[2])
    if not direct and not batch:
        fail("perf script shows no off-CPU sample")
    if [tuple(d) for d in direct] != intervals:
        fail("intervals %s, perf script %s" % (intervals, direct))
    if [tuple(b) for b in batch] != kept:
        fail("the plugin's batch %s, perf script %s" % (kept, batch))
    want = {}
    if direct:
        want[DIRECT] = (len(direct), sum(d[2] - d[1] for d in direct))
    if batch:
        want[BATCH] = (len(batch), sum(b[2] for b in batch))
    if tree != want:
        fail("off-CPU tree %s, perf script %s" % (tree, want))
    print("%d intervals and %d end-of-run samples as perf script's, tree %s"
          % (len(intervals), len(kept), sorted(tree.values())))


if __name__ == "__main__":
    main()
