# SPDX-License-Identifier: GPL-2.0-or-later
"""offcpu-samples.py - for perf script -s (perf's Python engine): each
sample of perf record --off-cpu's "offcpu-time" event, where perf script
places it and what its raw data holds.

    perf script -i perf.data -s tests/tools/offcpu-samples.py

prints, one sample a line, in perf script's order:
    direct NS CPU TID PID PERIOD FRAMES...
    batch NS PID TID PERIOD FRAMES...
(NS the sample's time, FRAMES the user frames in hex, innermost first).

perf script places each sample (time, CPU); perf before 6.16 (Debian's)
does not decode the raw data of the --off-cpu-thresh layout, so it is
decoded here as perf's source writes it (tools/perf/util/bpf_skel/
off_cpu.bpf.c off_cpu_dump(), tools/perf/util/bpf_off_cpu.c
off_cpu_write()): u64 ids, u64 off-CPU ns, u64 nr, nr chain entries
(PERF_CONTEXT_USER first), u64 cgroup id. A sample whose time is
OFF_CPU_TIMESTAMP (~0 << 32) or later is of the end-of-run batch: its ids
word is tid << 32 | tgid; a direct sample's is tgid << 32 | tid.
Anything else (another layout, a chain past the raw data) stops the script.

Samples without raw data are of the layout of perf 5.19 to 6.15 (the
end-of-run batch only): perf decodes those itself (the sample's pid, tid,
period and call chain), and they are printed from what perf gives.
"""

import struct
import sys

OFF_CPU_TIMESTAMP = (~0 << 32) & (2**64 - 1)
PERF_CONTEXT_USER = 2**64 - 512


def process_event(param):
    """perf's engine calls this for every sample of a non-tracepoint event"""
    if param.get('ev_name') != 'offcpu-time':
        return
    s, raw = param['sample'], param.get('raw_buf')
    if not raw:
        if s['time'] < OFF_CPU_TIMESTAMP or 'callchain' not in param:
            sys.exit('offcpu-samples: a sample of no layout perf writes')
        print('batch %d %d %d %d %s' % (s['time'], s['pid'], s['tid'], s['period'],
                                        ' '.join('%x' % f['ip'] for f in param['callchain'])))
        return
    if len(raw) < 24 or len(raw) % 8 not in (0, 4):
        sys.exit('offcpu-samples: a sample without the raw data perf writes')
    ids, period, nr = struct.unpack_from('<QQQ', raw, 0)
    if 24 + 8 * nr > len(raw) or nr < 1:
        sys.exit('offcpu-samples: a call chain past the raw data')
    chain = struct.unpack_from('<%dQ' % nr, raw, 24)
    if chain[0] != PERF_CONTEXT_USER:
        sys.exit('offcpu-samples: a chain that does not start with PERF_CONTEXT_USER')
    frames = ' '.join('%x' % ip for ip in chain[1:])
    if s['time'] >= OFF_CPU_TIMESTAMP:
        print('batch %d %d %d %d %s' % (s['time'], ids & 0xffffffff, ids >> 32, period,
                                        frames))
    else:
        print('direct %d %d %d %d %d %s' % (s['time'], s['cpu'], ids & 0xffffffff,
                                            ids >> 32, period, frames))
