#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tracing-data.py PERF.DATA OUT: write the tracing data of a file-mode perf.data
(its HEADER_TRACING_DATA feature section, feature bit 1) to OUT, as the
tracing-data parser reads it: a seed for tests/fuzz/fuzz-tracing. Exits 1
when the file has none (pipe mode, no tracepoints)."""
import struct
import sys

def main():
    data = open(sys.argv[1], 'rb').read()
    if data[:8] == b'PERFILE2':
        end = '<'
    elif data[:8] == b'2ELIFREP':
        end = '>'
    else:
        sys.exit(1)
    size, = struct.unpack(end + 'Q', data[8:16])
    if size != 104:
        sys.exit(1)
    data_off, data_size = struct.unpack(end + 'QQ', data[40:56])
    feats = struct.unpack(end + '4Q', data[72:104])
    if not feats[0] & (1 << 1):
        sys.exit(1)
    # the feature table follows the data section, one {offset, size} per bit set, in
    # bit order: TRACING_DATA (bit 1) comes first unless bit 0 is set
    index = bin(feats[0] & 1).count('1')
    table = data_off + data_size + 16 * index
    off, length = struct.unpack(end + 'QQ', data[table:table + 16])
    if off + length > len(data):
        sys.exit(1)
    open(sys.argv[2], 'wb').write(data[off:off + length])

if __name__ == '__main__':
    main()
