#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Rewrite the PERF_RECORD_COMPRESSED (81) records of a little-endian,
file-mode perf.data as PERF_RECORD_COMPRESSED2 (83), the way perf >= 6.16
writes them: { header; u64 data_size; data[data_size]; zero padding to 8 }.

    mk-compressed2.py IN OUT [--overflow]

--overflow writes each one as perf 6.16's buggy writer does when header.size
overflows: header.size 0 and no padding (the reader must use data_size).
The feature sections after the data move by the change in size.
"""
import struct
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    overflow = '--overflow' in sys.argv[3:]
    d = open(src, 'rb').read()
    if d[:8] != b'PERFILE2':
        sys.exit('mk-compressed2: not a little-endian file-mode perf.data')
    hsize, = struct.unpack_from('<Q', d, 8)
    data_off, data_size = struct.unpack_from('<QQ', d, 40)
    feat = struct.unpack_from('<4Q', d, 72)
    out = bytearray()
    pos, end, n = data_off, data_off + data_size, 0
    while pos < end:
        rtype, misc, size = struct.unpack_from('<IHH', d, pos)
        if rtype == 81:
            payload = d[pos + 8:pos + size]
            total = 16 + len(payload)
            padded = (total + 7) & ~7
            if overflow:
                out += struct.pack('<IHHQ', 83, misc, 0, len(payload)) + payload
            else:
                out += struct.pack('<IHHQ', 83, misc, padded, len(payload)) + payload
                out += b'\0' * (padded - total)
            n += 1
        else:
            out += d[pos:pos + size]
        pos += size
    delta = len(out) - data_size
    nfeat = sum(bin(w).count('1') for w in feat)
    table = bytearray(d[end:end + 16 * nfeat])
    for i in range(nfeat):
        off, sz = struct.unpack_from('<QQ', table, 16 * i)
        struct.pack_into('<QQ', table, 16 * i, off + delta, sz)
    head = bytearray(d[:data_off])
    struct.pack_into('<Q', head, 48, len(out))
    with open(dst, 'wb') as f:
        f.write(head + out + table + d[end + 16 * nfeat:])
    print(f'mk-compressed2: {n} records rewritten as COMPRESSED2'
          + (' with overflowed sizes' if overflow else ''))


if __name__ == '__main__':
    main()
