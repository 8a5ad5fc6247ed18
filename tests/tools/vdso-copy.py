#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write this process's vDSO to a file, if it has the build id asked.

    vdso-copy.py BUILD_ID FILE

perf record keeps a copy of the vDSO in its build-id cache
(.build-id/xx/yyyy/vdso) only when a sample's ip is in it; a test that
gives perf and perf2dat the vDSO of a recording of this kernel makes the
copy so (the whole mapping, as perf copies it). Exits 1, writing nothing,
when the vDSO here has another build id (another kernel) or none.
"""
import re
import struct
import sys


def build_id(img):
    """The GNU build id of the ELF64 image @img, in hex, or None."""
    if img[:4] != b'\x7fELF' or img[4] != 2 or img[5] != 1:
        return None
    shoff, = struct.unpack_from('<Q', img, 0x28)
    shentsize, shnum = struct.unpack_from('<HH', img, 0x3a)
    for i in range(shnum):
        sh = shoff + i * shentsize
        if sh + 64 > len(img):
            return None
        sh_type, = struct.unpack_from('<I', img, sh + 4)
        off, size = struct.unpack_from('<QQ', img, sh + 0x18)
        if sh_type != 7:	# SHT_NOTE
            continue
        p = off
        while p + 12 <= off + size and p + 12 <= len(img):
            namesz, descsz, ntype = struct.unpack_from('<III', img, p)
            name = img[p + 12:p + 12 + namesz]
            desc = p + 12 + ((namesz + 3) & ~3)
            if ntype == 3 and name.rstrip(b'\0') == b'GNU':	# NT_GNU_BUILD_ID
                return img[desc:desc + descsz].hex()
            p = desc + ((descsz + 3) & ~3)
    return None


def main():
    want, out = sys.argv[1], sys.argv[2]
    with open('/proc/self/maps') as f:
        m = next((re.match(r'([0-9a-f]+)-([0-9a-f]+) ', line) for line in f
                  if line.rstrip().endswith('[vdso]')), None)
    if not m:
        sys.exit('vdso-copy.py: this process has no vDSO')
    start, end = int(m.group(1), 16), int(m.group(2), 16)
    with open('/proc/self/mem', 'rb') as f:
        f.seek(start)
        img = f.read(end - start)
    got = build_id(img)
    if got != want:
        sys.exit(f'vdso-copy.py: the vDSO here has build id {got}, not {want}')
    with open(out, 'wb') as f:
        f.write(img)


if __name__ == '__main__':
    main()
