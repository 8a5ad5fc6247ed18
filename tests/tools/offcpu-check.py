#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""offcpu-check.py - a perf record --off-cpu recording's conversion against
perf script of the same file (tests/integration/offcpu.sh).

    offcpu-check.py SAMPLES HEADER REPORT SUMMARY TRACE_DAT direct|batch|old

SAMPLES: what tests/tools/offcpu-samples.py printed (perf script -s);
HEADER: perf report --header-only of the recording (its time span:
"time of first sample", "time of last sample", printed in microseconds);
REPORT: trace-cmd report -t of the conversion (made with --no-user-names,
so that frames are numbers); SUMMARY: what perf2dat printed; TRACE_DAT:
the conversion. The last argument says what the recording must hold:
"direct", direct samples only; "batch", direct samples and an end-of-run
batch; "old", an end-of-run batch only (perf 5.19 to 6.15, which perf
script decodes itself).

Checks, failing on the first difference:
  * every event of the trace.dat is inside the recording's time span;
  * the offcpu_time events are perf script's direct samples, one for one,
    in order: time (ns), CPU, task (the tid of the raw data), period, and
    the user frames of the user_stack events that follow each one;
  * the end-of-run batch is no event, is counted in perf2dat's summary
    (samples and total off-CPU time) and is the block appended to the
    trace.dat, sample for sample (pid, tid, ns, frames);
  * direct samples and a batch exactly as asked, not none of either.
"""

import re
import sys

import offcpu_lines

FOOT = b"P2D-OFFCPU-BATCH-END "


def fail(msg):
    print("offcpu-check: " + msg)
    sys.exit(1)


def perf_side(path):
    return offcpu_lines.read(path, fail)


def span(path):
    with open(path) as f:
        text = f.read()
    first = re.search(r"time of first sample : (\d+)\.(\d{6})", text)
    last = re.search(r"time of last sample : (\d+)\.(\d{6})", text)
    if not first or not last:
        fail("%s: no time of first and last sample" % path)
    lo = (int(first.group(1)) * 1000000 + int(first.group(2))) * 1000
    hi = (int(last.group(1)) * 1000000 + int(last.group(2)) + 1) * 1000
    return lo, hi


# trace-cmd >= 3.2 prints a latency column ("d..3.") after the CPU
EVENT = re.compile(r"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(?:[^\s:]{4,5}\s+)?(\d+)\.(\d{9}):\s+(\w+):\s*(.*)$")
# a frame: "=> 0xADDR", "=> ADDR", or "=> NAME (ADDR)"
FRAME = re.compile(r"=> (?:.* \(([0-9a-f]+)\)|(?:0x)?([0-9a-f]+))\s*$")
# the lines of trace-cmd report's own: its CPU count, an empty CPU
OTHER = re.compile(r"^(?:cpus=\d+|CPU \d+ is empty)$")


def report(path, lo, hi):
    """the offcpu_time events with their user frames; every event in [lo, hi)"""
    events, cur, nr = [], None, 0
    with open(path) as f:
        for line in f:
            m = EVENT.match(line)
            if m:
                nr += 1
                ts = int(m.group(4)) * 1000000000 + int(m.group(5))
                if not lo <= ts < hi:
                    fail("an event outside the recording's span [%d, %d): %s"
                         % (lo, hi, line.strip()))
                name, rest = m.group(6), m.group(7)
                if name == "offcpu_time":
                    p = re.search(r"period=(\d+)", rest)
                    if not p:
                        fail("offcpu_time without a period: " + line.strip())
                    cur = [ts, int(m.group(3)), int(m.group(2)), int(p.group(1)), []]
                    events.append(cur)
                    continue
                if name not in ("kernel_stack", "user_stack"):
                    fail("an event that is not of an off-CPU sample: " + line.strip())
                rest = rest.strip()
            else:
                rest = line.strip()
            f = FRAME.search(rest)
            if f:
                if cur is None:
                    fail("a stack before any offcpu_time event: " + line.strip())
                addr = int(f.group(1) or f.group(2), 16)
                if addr:
                    cur[4].append(addr)
            elif "=>" in rest:
                fail("a frame not understood: " + line.strip())
            elif not m and rest and not OTHER.match(rest):
                fail("a line that is neither an event, a frame nor report's own: "
                     + line.strip())
    return events, nr


def block(path):
    """the samples of the batch block at the end of the trace.dat"""
    with open(path, "rb") as f:
        data = f.read()
    foot = data[-len(FOOT) - 21:]
    if not foot.startswith(FOOT):
        return None
    n = int(foot[len(FOOT):-1])
    lines = data[-len(FOOT) - 21 - n:-len(FOOT) - 21].decode().splitlines()
    head = lines[0].split()
    if head[:2] != ["P2D-OFFCPU-BATCH", "1"] or int(head[2]) != len(lines) - 1:
        fail("the batch block's head is wrong: " + lines[0])
    out = []
    for line in lines[1:]:
        w = line.split()
        if int(w[3]) != len(w) - 4:
            fail("a batch line with a wrong frame count: " + line)
        out.append((int(w[0]), int(w[1]), int(w[2]), [int(x, 16) for x in w[4:]]))
    return out


def main():
    samples, header, rep, summary, dat, want = sys.argv[1:7]
    direct, batch = perf_side(samples)
    lo, hi = span(header)
    events, nr = report(rep, lo, hi)
    if (want != "old") != bool(direct) or (want != "direct") != bool(batch):
        fail("perf script shows %d direct and %d end-of-run samples; expected %s"
             % (len(direct), len(batch), want))
    if len(events) != len(direct):
        fail("%d offcpu_time events, perf script has %d direct samples"
             % (len(events), len(direct)))
    for ev, d in zip(events, direct):
        if ev != list(d):
            fail("event %s, perf script %s" % (ev, d))
    with open(summary) as f:
        text = f.read()
    m = re.search(r"perf --off-cpu end-of-run batch: (\d+) samples?, (\d+)\.(\d{6}) s off CPU",
                  text)
    kept = block(dat)
    if not batch:
        if m or kept is not None:
            fail("a batch in the summary or the trace.dat of a recording without one")
    else:
        total = sum(b[2] for b in batch)
        if not m or int(m.group(1)) != len(batch) or \
                abs(int(m.group(2)) * 1000000 + int(m.group(3)) - total / 1000) > 1:
            fail("summary %r, perf script: %d samples, %d ns"
                 % (m.group(0) if m else None, len(batch), total))
        if kept != [tuple(b) for b in batch]:
            fail("the trace.dat's batch %s, perf script %s" % (kept, batch))
    print("%d events in [%d, %d): %d offcpu_time as perf script's direct samples, "
          "%d end-of-run samples (%d ns) counted and kept"
          % (nr, lo, hi, len(events), len(batch), sum(b[2] for b in batch)))


if __name__ == "__main__":
    main()
