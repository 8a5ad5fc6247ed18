#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Make a large perf.data from a real (small) recording, for benchmarks.

The seed's data section is split into
  prefix: everything up to FINISHED_INIT (records perf synthesized at start:
          ID_INDEX, THREAD_MAP, CPU_MAP, MMAP, COMM, FORK, ...), kept once;
  body:   the ring-buffer records after it, up to and including the last
          FINISHED_ROUND;
  tail:   whatever follows the last FINISHED_ROUND (e.g. LOST_SAMPLES), kept
          once at the end.
The body is written once as recorded and then repeated as many times as
needed to reach the target size. Each repetition k shifts every timestamp
(the TIME of SAMPLE records and the sample_id trailer time of COMM, FORK,
EXIT, LOST records) by k * period, where period is the body's time span plus
one mean inter-event gap; so every CPU's events stay in time order, every
repetition is a whole number of perf rounds ending in FINISHED_ROUND, and an
event is never older than the newest event of the previous round. Records
that only make sense once (MMAP, MMAP2, ...) are not repeated.

The header's data size is updated, and the feature sections that follow the
data are moved, their offsets rewritten; HEADER_SAMPLE_TIME gets the new last
sample time. The result is a valid perf.data that perf script reads.

Usage: mkinput.py [--seed FILE] [--size SIZE] OUTPUT
SIZE accepts K, M, G suffixes (powers of 1000: 50M is 50,000,000 bytes;
KiB/MiB/GiB for powers of 1024).
"""
import argparse
import os
import struct
import sys

try:
    import numpy as np
except ImportError:          # slower pure-Python fallback
    np = None

HDR = struct.Struct('<8sQQQQQQQQ')    # magic, size, attr_size, attrs, data, event_types
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME = 1 << 0, 1 << 1, 1 << 2
SAMPLE_ID, SAMPLE_CPU, SAMPLE_STREAM_ID = 1 << 6, 1 << 7, 1 << 9
SAMPLE_IDENTIFIER = 1 << 16
REC_SAMPLE, REC_FINISHED_ROUND, REC_FINISHED_INIT = 9, 68, 82
REC_LOST, REC_COMM, REC_EXIT, REC_FORK = 2, 3, 4, 7
REPEATED = {REC_SAMPLE, REC_FINISHED_ROUND, REC_LOST, REC_COMM, REC_EXIT, REC_FORK}
FEAT_SAMPLE_TIME = 21


def die(msg):
    sys.exit('mkinput: ' + msg)


def parse_size(s):
    units = {'': 1, 'K': 10**3, 'M': 10**6, 'G': 10**9,
             'KIB': 2**10, 'MIB': 2**20, 'GIB': 2**30}
    s = s.strip().upper()
    num = s.rstrip('KMGIB')
    unit = s[len(num):]
    if unit.endswith('B') and unit not in units:
        unit = unit[:-1]
    if unit not in units:
        die('bad size ' + s)
    return int(float(num) * units[unit])


class Seed:
    def __init__(self, path):
        self.buf = open(path, 'rb').read()
        b = self.buf
        if len(b) < 104 or b[:8] != b'PERFILE2':
            die(path + ': not a little-endian file-mode perf.data')
        (_, hsize, self.attr_size, aoff, asize, self.doff, self.dsize,
         _, _) = HDR.unpack_from(b, 0)
        if hsize != 104:
            die(path + ': unexpected header size %d' % hsize)
        self.feat_bits = b[72:104]
        self.attrs = {}         # id -> sample_type
        self.types = []
        for off in range(aoff, aoff + asize, self.attr_size):
            st = struct.unpack_from('<Q', b, off + 24)[0]
            ids_off, ids_size = struct.unpack_from('<QQ', b, off + self.attr_size - 16)
            self.types.append(st)
            for i in range(ids_off, ids_off + ids_size, 8):
                self.attrs[struct.unpack_from('<Q', b, i)[0]] = st
        if not self.types:
            die(path + ': no attrs')

    def sample_type(self, rec_off, size, trailer):
        """sample_type of a record's attr (by IDENTIFIER, or the only attr)."""
        if len(self.types) == 1:
            return self.types[0]
        if not all(t & SAMPLE_IDENTIFIER for t in self.types):
            die('seed attrs without PERF_SAMPLE_IDENTIFIER are not supported')
        pos = rec_off + size - 8 if trailer else rec_off + 8
        return self.attrs.get(struct.unpack_from('<Q', self.buf, pos)[0])

    def time_offset(self, rec_off, rtype, size):
        """Offset of the record's u64 timestamp inside it, or None."""
        if rtype == REC_SAMPLE:
            st = self.sample_type(rec_off, size, False)
            if st is None or not st & SAMPLE_TIME:
                return None
            return 8 + 8 * bin(st & (SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID)).count('1')
        if rtype >= 64:
            return None
        st = self.sample_type(rec_off, size, True)
        if st is None or not st & SAMPLE_TIME:
            return None
        trailer = 8 * bin(st & (SAMPLE_TID | SAMPLE_TIME | SAMPLE_ID | SAMPLE_STREAM_ID |
                                SAMPLE_CPU | SAMPLE_IDENTIFIER)).count('1')
        if trailer > size - 8:
            return None
        return size - trailer + (8 if st & SAMPLE_TID else 0)

    def records(self):
        b, p, end = self.buf, self.doff, self.doff + self.dsize
        while p < end:
            rtype, _, size = struct.unpack_from('<IHH', b, p)
            if size < 8 or p + size > end:
                die('bad record at 0x%x' % p)
            yield p, rtype, size
            p += size


def split(seed):
    recs = list(seed.records())
    init = [i for i, r in enumerate(recs) if r[1] == REC_FINISHED_INIT]
    start = init[0] + 1 if init else next(
        (i for i, r in enumerate(recs) if r[1] == REC_SAMPLE), 0)
    rounds = [i for i, r in enumerate(recs) if r[1] == REC_FINISHED_ROUND and i >= start]
    if not rounds:
        die('seed has no FINISHED_ROUND after its synthesized records')
    end = rounds[-1] + 1
    return recs[:start], recs[start:end], recs[end:]


def build_body(seed, body, repeat_only):
    """Body bytes, u64 indexes of its timestamps, their values."""
    out = bytearray()
    idx, ts = [], []
    for off, rtype, size in body:
        if repeat_only and rtype not in REPEATED:
            continue
        t = seed.time_offset(off, rtype, size)
        if t is not None and t % 8 == 0:
            v = struct.unpack_from('<Q', seed.buf, off + t)[0]
            if v:
                idx.append((len(out) + t) // 8)
                ts.append(v)
        out += seed.buf[off:off + size]
    if len(out) % 8:
        die('records not 8-byte aligned')
    return out, idx, ts


class Repeater:
    def __init__(self, body, idx, ts):
        self.body, self.idx, self.ts = body, idx, ts
        if np is not None:
            self.arr = np.frombuffer(bytes(body), dtype='<u8').copy()
            self.nidx = np.array(idx, dtype=np.int64)
            self.nts = np.array(ts, dtype='<u8')
        else:
            self.mv = memoryview(body).cast('Q')

    def copy(self, shift):
        if np is not None:
            self.arr[self.nidx] = self.nts + np.uint64(shift)
            return self.arr.tobytes()
        for i, v in zip(self.idx, self.ts):
            self.mv[i] = v + shift
        return bytes(self.body)


def rewrite_features(seed, delta, last_shift, out):
    """Feature section table and contents, moved by delta bytes."""
    b = seed.buf
    old_end = seed.doff + seed.dsize
    nfeat = sum(bin(x).count('1') for x in seed.feat_bits)
    bits = [i for i in range(256) if seed.feat_bits[i // 8] >> (i % 8) & 1]
    table = []
    for k in range(nfeat):
        table.append(list(struct.unpack_from('<QQ', b, old_end + 16 * k)))
    contents = bytearray(b[old_end + 16 * nfeat:])
    base = old_end + 16 * nfeat
    for bit, sec in zip(bits, table):
        if bit == FEAT_SAMPLE_TIME and sec[1] >= 16:
            first, last = struct.unpack_from('<QQ', b, sec[0])
            struct.pack_into('<Q', contents, sec[0] + 8 - base, last + last_shift)
        if sec[0] >= old_end:
            sec[0] += delta
    for sec in table:
        out.write(struct.pack('<QQ', *sec))
    out.write(contents)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--seed', default=os.path.join(here, '..', 'tests', 'data', 'sample.data'))
    ap.add_argument('--size', default='50M', help='target file size (default 50M)')
    ap.add_argument('--repeat-all', action='store_true',
                    help='repeat every body record, MMAP/MMAP2 included')
    ap.add_argument('output')
    a = ap.parse_args()
    target = parse_size(a.size)

    seed = Seed(a.seed)
    prefix, body, tail = split(seed)
    first = bytes(b''.join(seed.buf[o:o + s] for o, _, s in body))
    rep, idx, ts = build_body(seed, body, not a.repeat_all)
    if not ts:
        die('no timestamps in the body')
    gap = (max(ts) - min(ts)) // max(1, len(ts) - 1) + 1
    period = max(ts) - min(ts) + gap
    prefix_len = sum(s for _, _, s in prefix)
    tail_len = sum(s for _, _, s in tail)
    fixed = seed.doff + prefix_len + len(first) + tail_len + (len(seed.buf) -
                                                              seed.doff - seed.dsize)
    copies = max(0, -(-(target - fixed) // len(rep)))
    new_dsize = prefix_len + len(first) + copies * len(rep) + tail_len

    r = Repeater(rep, idx, ts)
    tmp = a.output + '.tmp'
    with open(tmp, 'wb') as out:
        head = bytearray(seed.buf[:seed.doff])
        struct.pack_into('<Q', head, 48, new_dsize)
        out.write(head)
        for o, _, s in prefix:
            out.write(seed.buf[o:o + s])
        out.write(first)
        for k in range(1, copies + 1):
            out.write(r.copy(k * period))
        for o, _, s in tail:
            out.write(seed.buf[o:o + s])
        rewrite_features(seed, new_dsize - seed.dsize, copies * period, out)
    os.replace(tmp, a.output)
    samples = sum(1 for _, t, _ in body if t == REC_SAMPLE)
    rep_samples = sum(1 for o, t, s in body if t == REC_SAMPLE)
    print('%s: %d bytes, %d body repetitions, %d samples, %.3f s of trace' %
          (a.output, os.path.getsize(a.output), copies + 1,
           samples + copies * rep_samples, (period * (copies + 1)) / 1e9))


if __name__ == '__main__':
    main()
