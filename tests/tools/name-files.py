#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""name-files.py - make a recording (or a trace.dat) name other files

    name-files.py path IN OUT OLD NEW       every "OLD" path in IN names NEW
    name-files.py release IN OUT RELEASE    the perf.data's OSRELEASE is RELEASE
    name-files.py text IN OUT OLD NEW       every OLD in IN is NEW (as long)

A recording names files: its MMAP/MMAP2 records (and a trace.dat's
PROCMAPS) name the mapped files, its OSRELEASE feature leads to a vmlinux
(/lib/modules/RELEASE/build/vmlinux, ...). tests/hostile/named-files.sh
makes them name FIFOs, devices, directories and paths with ".." this way.

"path" replaces each occurrence of the bytes OLD, followed by a NUL or a
newline, with NEW padded at its start with '/' to OLD's length, so the file
keeps its size and every record its layout ("////tmp/f" is the path
"/tmp/f"). NEW must not be longer than OLD, and OLD must occur.

"text" replaces bytes with as many others (a trace.dat's VERSION option
"perf2dat ..." made another program's, whose user frames the stack view
names itself).

"release" rewrites the OSRELEASE feature section of a perf.data in file
mode, little-endian (u32 length, then the NUL-padded string): RELEASE must
fit in the section's length.
"""
import struct
import sys

HEADER_OSRELEASE = 4


def die(msg):
    sys.stderr.write('name-files.py: %s\n' % msg)
    sys.exit(1)


def path(data, old, new):
    if len(new) > len(old):
        die('%r is longer than %r' % (new, old))
    padded = b'/' * (len(old) - len(new)) + new
    out = bytearray(data)
    n = 0
    at = out.find(old)
    while at >= 0:
        end = at + len(old)
        if end < len(out) and out[end] in (0, 10):
            out[at:end] = padded
            n += 1
        at = out.find(old, end)
    if not n:
        die('%r does not occur' % old)
    return bytes(out)


def release(data, rel):
    if data[:8] != b'PERFILE2':
        die('not a little-endian perf.data in file mode')
    data_off, data_size = struct.unpack_from('<QQ', data, 40)
    bits = int.from_bytes(data[72:104], 'little')
    if not bits & (1 << HEADER_OSRELEASE):
        die('the recording has no OSRELEASE')
    # the feature sections follow the data, one (offset, size) per feature set
    index = bin(bits & ((1 << HEADER_OSRELEASE) - 1)).count('1')
    off, size = struct.unpack_from('<QQ', data, data_off + data_size + 16 * index)
    length, = struct.unpack_from('<I', data, off)
    if len(rel) + 1 > length or length + 4 > size:
        die('%r does not fit in %d bytes' % (rel, length))
    out = bytearray(data)
    out[off + 4:off + 4 + length] = rel + b'\0' * (length - len(rel))
    return bytes(out)


def main():
    args = sys.argv[1:]
    if len(args) == 5 and args[0] == 'path':
        cmd, src, dst, old, new = args
    elif len(args) == 5 and args[0] == 'text':
        cmd, src, dst, old, new = args
        if len(old) != len(new):
            die('%r and %r differ in length' % (old, new))
    elif len(args) == 4 and args[0] == 'release':
        cmd, src, dst, rel = args
    else:
        die('usage: name-files.py path|text IN OUT OLD NEW | release IN OUT RELEASE')
    data = open(src, 'rb').read()
    if cmd == 'path':
        data = path(data, old.encode(), new.encode())
    elif cmd == 'text':
        if old.encode() not in data:
            die('%r does not occur' % old)
        data = data.replace(old.encode(), new.encode())
    else:
        data = release(data, rel.encode())
    open(dst, 'wb').write(data)


main()
