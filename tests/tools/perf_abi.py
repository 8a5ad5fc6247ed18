# SPDX-License-Identifier: GPL-2.0-or-later
"""perf_abi - the perf.data layout perf-rewrite.py rewrites: constants from
linux/perf_event.h and perf's header.h, and the byte readers and swapper."""

import struct
import sys

# ------------------------------------------------------------------ ABI
PERF_MAGIC = b"PERFILE2"

# sample_type bits (linux/perf_event.h)
S_IP, S_TID, S_TIME, S_ADDR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
S_READ, S_CALLCHAIN, S_ID, S_CPU = 1 << 4, 1 << 5, 1 << 6, 1 << 7
S_PERIOD, S_STREAM_ID, S_RAW = 1 << 8, 1 << 9, 1 << 10
S_BRANCH_STACK, S_REGS_USER, S_STACK_USER = 1 << 11, 1 << 12, 1 << 13
S_WEIGHT, S_DATA_SRC, S_IDENTIFIER = 1 << 14, 1 << 15, 1 << 16
S_TRANSACTION, S_REGS_INTR, S_PHYS_ADDR = 1 << 17, 1 << 18, 1 << 19
S_AUX, S_CGROUP, S_DATA_PAGE_SIZE = 1 << 20, 1 << 21, 1 << 22
S_CODE_PAGE_SIZE, S_WEIGHT_STRUCT = 1 << 23, 1 << 24
S_KNOWN = (1 << 25) - 1

# read_format bits
R_TOTAL_TIME_ENABLED, R_TOTAL_TIME_RUNNING = 1 << 0, 1 << 1
R_ID, R_GROUP, R_LOST = 1 << 2, 1 << 3, 1 << 4

BRANCH_HW_INDEX = 1 << 17          # attr.branch_sample_type
ATTR_SAMPLE_ID_ALL = 1 << 18       # bit of the attr bit-field word

# record types
REC_MMAP, REC_LOST, REC_COMM, REC_EXIT = 1, 2, 3, 4
REC_THROTTLE, REC_UNTHROTTLE, REC_FORK, REC_READ, REC_SAMPLE = 5, 6, 7, 8, 9
REC_MMAP2, REC_LOST_SAMPLES, REC_CGROUP = 10, 13, 19
MISC_MMAP_BUILD_ID = 1 << 14
REC_HEADER_ATTR, REC_HEADER_EVENT_TYPE, REC_HEADER_TRACING_DATA = 64, 65, 66
REC_FINISHED_ROUND, REC_ID_INDEX, REC_THREAD_MAP = 68, 69, 73
REC_EVENT_UPDATE, REC_HEADER_FEATURE = 78, 80
REC_COMPRESSED, REC_FINISHED_INIT, REC_COMPRESSED2 = 81, 82, 83

# feature bits
F_TRACING_DATA, F_BUILD_ID, F_HOSTNAME, F_OSRELEASE = 1, 2, 3, 4
F_VERSION, F_ARCH, F_NRCPUS, F_CPUDESC, F_CPUID = 5, 6, 7, 8, 9
F_TOTAL_MEM, F_CMDLINE, F_EVENT_DESC, F_GROUP_DESC = 10, 11, 12, 17
F_SAMPLE_TIME, F_CLOCKID, F_CLOCK_DATA = 21, 23, 29
F_LAST = 32                        # HEADER_LAST_FEATURE in perf 6.x
FEATURE_BITS = 256

# perf_event_attr: (offset, size) of every field but the bit-field word
ATTR_FIELDS = [
    (0, 4), (4, 4), (8, 8), (16, 8), (24, 8), (32, 8),  # type .. read_format
    (48, 4), (52, 4), (56, 8), (64, 8),                 # wakeup, bp_type, config1/2
    (72, 8), (80, 8), (88, 4), (92, 4),                 # branch_sample_type .. clockid
    (96, 8), (104, 4), (108, 2), (110, 2),              # regs_intr .. __reserved_2
    (112, 4), (116, 4), (120, 8), (128, 8),             # aux_sample_size .. config3
]
ATTR_FLAGS_OFF = 40
ATTR_KNOWN_SIZE = 136
# widths of the attr bit-fields, first field first: 15 flags, precise_ip:2,
# then 1-bit flags (unknown future flags are 1-bit too)
ATTR_FLAG_WIDTHS = [1] * 15 + [2] + [1] * 47
# struct perf_branch_entry's flags word
BRANCH_FLAG_WIDTHS = [1, 1, 1, 1, 16, 4, 2, 4, 3, 31]

# Sizes of the element types of dynamic (__data_loc) arrays. "long" is added
# from the tracing data's long size.
TYPE_SIZES = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "_Bool": 1,
    "u8": 1, "s8": 1, "__u8": 1, "__s8": 1, "uint8_t": 1, "int8_t": 1,
    "short": 2, "short int": 2, "unsigned short": 2, "signed short": 2,
    "unsigned short int": 2,
    "u16": 2, "s16": 2, "__u16": 2, "__s16": 2, "uint16_t": 2, "int16_t": 2,
    "int": 4, "signed int": 4, "unsigned int": 4, "unsigned": 4, "signed": 4,
    "u32": 4, "s32": 4, "__u32": 4, "__s32": 4, "uint32_t": 4, "int32_t": 4,
    "pid_t": 4, "uid_t": 4, "gid_t": 4, "dev_t": 4, "gfp_t": 4,
    "u64": 8, "s64": 8, "__u64": 8, "__s64": 8, "uint64_t": 8, "int64_t": 8,
    "long long": 8, "unsigned long long": 8, "long long int": 8,
    "unsigned long long int": 8, "loff_t": 8, "sector_t": 8,
}
LONG_TYPES = ("long", "unsigned long", "long int", "unsigned long int",
              "signed long", "size_t", "ssize_t", "cpumask_t")


class RewriteError(Exception):
    """The input cannot be rewritten."""


def warn(msg):
    print("perf-rewrite: warning: " + msg, file=sys.stderr)


def u16(buf, off):
    return struct.unpack_from("<H", buf, off)[0]


def u32(buf, off):
    return struct.unpack_from("<I", buf, off)[0]


def u64(buf, off):
    return struct.unpack_from("<Q", buf, off)[0]


def need(buf, off, n, what):
    if off < 0 or n < 0 or off + n > len(buf):
        raise RewriteError("%s: %d bytes at offset %#x run past its end (%#x)"
                           % (what, n, off, len(buf)))


def bitfield_be(value, widths):
    """Little-endian bit-field word -> the same fields in a big-endian u64."""
    out, pos = 0, 0
    for w in widths:
        field = (value >> pos) & ((1 << w) - 1)
        out |= field << (64 - pos - w)
        pos += w
    return struct.pack(">Q", out)


def cstring(buf, off, end, what):
    nul = buf.find(b"\0", off, end)
    if nul < 0:
        raise RewriteError("%s: unterminated string at %#x" % (what, off))
    return bytes(buf[off:nul]), nul + 1


class Swapper:
    """In-place byte-order conversion of a bytearray (a no-op if not enabled)."""

    def __init__(self, enabled):
        self.enabled = enabled

    def sw(self, buf, off, size, count=1, what="record"):
        """Swap COUNT little-endian numbers of SIZE bytes at OFF."""
        need(buf, off, size * count, what)
        if not self.enabled or size < 2:
            return off + size * count
        for i in range(count):
            p = off + i * size
            buf[p:p + size] = buf[p:p + size][::-1]
        return off + size * count

    def bits(self, buf, off, widths):
        need(buf, off, 8, "bit-field")
        if self.enabled:
            buf[off:off + 8] = bitfield_be(u64(buf, off), widths)
        return off + 8


# ------------------------------------------------------------------ attrs
class Attr:
    def __init__(self, raw):
        need(raw, 0, 64, "attr")
        self.type, self.size = struct.unpack_from("<II", raw, 0)
        self.config, _, self.sample_type, self.read_format, self.flags = \
            struct.unpack_from("<QQQQQ", raw, 8)
        self.branch_sample_type = u64(raw, 72) if self.size >= 80 else 0
        self.regs_user = u64(raw, 80) if self.size >= 88 else 0
        self.regs_intr = u64(raw, 96) if self.size >= 104 else 0
        self.sample_id_all = bool(self.flags & ATTR_SAMPLE_ID_ALL)
        if self.sample_type & ~S_KNOWN:
            raise RewriteError("attr has unknown sample_type bits %#x"
                               % (self.sample_type & ~S_KNOWN))


def swap_attr(sw, buf, off, size):
    """Swap a perf_event_attr of SIZE bytes at OFF in BUF."""
    need(buf, off, size, "attr")
    attr_size = u32(buf, off + 4)
    if attr_size > size:
        raise RewriteError("attr at %#x: size %d > room %d" % (off, attr_size, size))
    if attr_size > ATTR_KNOWN_SIZE:
        warn("attr at %#x: bytes after %d left as they are" % (off, ATTR_KNOWN_SIZE))
    for foff, fsize in ATTR_FIELDS:
        if foff + fsize <= attr_size:
            sw.sw(buf, off + foff, fsize, what="attr")
    if attr_size >= ATTR_FLAGS_OFF + 8:
        sw.bits(buf, off + ATTR_FLAGS_OFF, ATTR_FLAG_WIDTHS)
