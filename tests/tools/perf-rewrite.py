#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""perf-rewrite.py - make big-endian and 32-bit twins of real perf.data files.

No big-endian or 32-bit machine is at hand, so this test tool rewrites a real
little-endian recording made by `perf record` (file mode, or pipe mode with
`-o -`) into the file such a machine would have written for the same events:

--big-endian
    The big-endian twin, as a 64-bit big-endian machine (s390x, ppc64) writes
    it. Every number is stored big-endian:
      * the file header (magic becomes the bytes "2ELIFREP", the u64 magic
        written big-endian), its sections and the adds_features bitmap
        (four u64 words); the pipe header;
      * the event attributes, field by field up to attr.size, and the
        attribute bit-field word as a big-endian compiler lays it out (the
        first field in the most significant bit: for the 1-bit flags, bit k
        becomes bit 7 - k%8 of byte k/8, which is what perf's
        swap_bitfield() undoes); the id arrays;
      * the feature sections perf needs and a tracepoint converter uses:
        TRACING_DATA, HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC,
        CPUID, TOTAL_MEM, CMDLINE, EVENT_DESC, GROUP_DESC, SAMPLE_TIME,
        CLOCKID and CLOCK_DATA. The other features are dropped (their bits
        cleared, their sections left out);
      * the tracing data: its numbers (endian byte set to 1), not its text;
      * the records: SAMPLE (every field of sample_type in kernel order, and
        the tracepoint payload in PERF_SAMPLE_RAW field by field from the
        event's format: scalars and array elements by size, __data_loc and
        __rel_loc words as u32 and their dynamic data by element size;
        strings, char arrays and __be/__le types untouched), COMM, FORK,
        EXIT, LOST, LOST_SAMPLES, THROTTLE, UNTHROTTLE, READ, FINISHED_ROUND,
        FINISHED_INIT, ID_INDEX, THREAD_MAP, EVENT_UPDATE (unit, scale, name)
        and pipe mode's HEADER_ATTR, HEADER_TRACING_DATA and HEADER_FEATURE,
        each with its sample_id_all trailer. Other record types (MMAP, MMAP2,
        KSYMBOL, BPF_EVENT, CGROUP, TIME_CONV, CPU_MAP, BUILD_ID, ...) are
        dropped; a tracepoint converter does not need them. Compressed
        records (perf record -z) are refused.

--long32
    The recording as a 32-bit kernel describes its ring buffer: the tracing
    data's long-size byte becomes 4 and header_page's text the 32-bit page
    header (commit "size:4", data "offset:12; size:PAGE-12"). Nothing else
    changes (no record is dropped, nothing is swapped).

Both options can be combined. Input and output may be "-" (standard input
and output). The input must be a little-endian perf.data.

--off-cpu MS
    The `perf record --off-cpu --off-cpu-thresh MS` recording of the same
    scheduling, from a little-endian file-mode `perf record -g -a -e
    sched:sched_switch` one (perf_offcpu.py says how); alone, not with the
    other options. Off-CPU times of at least MS milliseconds become direct
    samples at their switch-in, the others the end-of-run batch.

--off-cpu-old
    The same for perf 5.19 to 6.15 (before --off-cpu-thresh): every
    off-CPU time in the end-of-run batch, in the ordinary sample fields.

--flip-clockid N
    Flip the use_clockid bit of the N-th event attribute (from 0) of a
    little-endian file-mode recording: its attributes then disagree on the
    clock, as one damaged bit makes them. Done first; nothing else changes.

Usage:
    perf-rewrite.py --big-endian [--long32] IN OUT
    perf-rewrite.py --long32 IN OUT
    perf-rewrite.py --flip-clockid N IN OUT
    perf-rewrite.py --off-cpu MS IN OUT
    perf-rewrite.py --off-cpu-old IN OUT
"""

import argparse
import os
import struct
import sys

from perf_abi import (ATTR_FLAGS_OFF, Attr, BRANCH_FLAG_WIDTHS, BRANCH_HW_INDEX, FEATURE_BITS,
                      F_ARCH, F_CLOCKID, F_CLOCK_DATA, F_CMDLINE, F_CPUDESC, F_CPUID,
                      F_EVENT_DESC, F_GROUP_DESC, F_HOSTNAME, F_LAST, F_NRCPUS, F_OSRELEASE,
                      F_SAMPLE_TIME, F_TOTAL_MEM, F_TRACING_DATA, F_VERSION,
                      MISC_MMAP_BUILD_ID, PERF_MAGIC, REC_CGROUP, REC_COMM, REC_COMPRESSED,
                      REC_COMPRESSED2, REC_EVENT_UPDATE, REC_EXIT, REC_FINISHED_INIT,
                      REC_FINISHED_ROUND, REC_FORK, REC_HEADER_ATTR, REC_HEADER_FEATURE,
                      REC_HEADER_TRACING_DATA, REC_ID_INDEX, REC_LOST, REC_LOST_SAMPLES,
                      REC_MMAP, REC_MMAP2, REC_READ, REC_SAMPLE, REC_THREAD_MAP, REC_THROTTLE,
                      REC_UNTHROTTLE, R_GROUP, R_ID, R_LOST, R_TOTAL_TIME_ENABLED,
                      R_TOTAL_TIME_RUNNING, RewriteError, S_ADDR, S_AUX, S_BRANCH_STACK,
                      S_CALLCHAIN, S_CGROUP, S_CODE_PAGE_SIZE, S_CPU, S_DATA_PAGE_SIZE,
                      S_DATA_SRC, S_ID, S_IDENTIFIER, S_IP, S_PERIOD, S_PHYS_ADDR, S_RAW,
                      S_READ, S_REGS_INTR, S_REGS_USER, S_STACK_USER, S_STREAM_ID, S_TID,
                      S_TIME, S_TRANSACTION, S_WEIGHT, S_WEIGHT_STRUCT, Swapper, need,
                      swap_attr, u16, u32, u64, warn)
from perf_tracing_data import TracingData

# ------------------------------------------------------------------ rewriter
class Rewriter:
    def __init__(self, data, big_endian, long32):
        self.src = data
        self.be = big_endian
        self.long32 = long32
        self.sw = Swapper(big_endian)
        self.attrs = []                        # Attr, in file order
        self.by_id = {}                        # sample id -> Attr
        self.tracing = None
        self.pipe = False
        self.dropped = {}

    # ---- helpers
    def add_attr(self, raw, ids):
        a = Attr(raw)
        self.attrs.append(a)
        for i in ids:
            self.by_id[i] = a
        return a

    def first(self):
        if not self.attrs:
            raise RewriteError("record before any attr")
        return self.attrs[0]

    def sample_attr(self, buf, off, end):
        """The attr of a SAMPLE record (perf's evlist__event2evsel)."""
        a0 = self.first()
        if len(self.attrs) == 1:
            return a0
        st = a0.sample_type
        if st & S_IDENTIFIER:
            pos = off + 8
        elif st & S_ID:
            pos = off + 8 + 8 * sum(1 for b in (S_IP, S_TID, S_TIME, S_ADDR) if st & b)
        else:
            return a0
        need(buf, pos, 8, "sample")
        return self.by_id.get(u64(buf, pos), a0)

    def trailer_attr(self, buf, end):
        a0 = self.first()
        if len(self.attrs) == 1:
            return a0
        st = a0.sample_type
        if st & S_IDENTIFIER:
            pos = end - 8
        elif st & S_ID:
            pos = end - 8 * (1 + bool(st & S_STREAM_ID) + bool(st & S_CPU))
        else:
            return a0
        if pos < 0:
            return a0
        return self.by_id.get(u64(buf, pos), a0)

    def swap_trailer(self, buf, body, end):
        """Swap the sample_id_all trailer of a non-sample record; return its start."""
        if not self.attrs or not self.first().sample_id_all:
            return end
        a = self.trailer_attr(buf, end)
        st = a.sample_type
        n = sum(8 for b in (S_TID, S_TIME, S_ID, S_STREAM_ID, S_CPU, S_IDENTIFIER)
                if st & b)
        p = start = end - n
        if start < body:
            raise RewriteError("record at %#x too small for its sample_id trailer" % body)
        sw = self.sw
        if st & S_TID:
            p = sw.sw(buf, p, 4, 2)
        for b in (S_TIME, S_ID, S_STREAM_ID):
            if st & b:
                p = sw.sw(buf, p, 8)
        if st & S_CPU:
            p = sw.sw(buf, p, 4, 2)
        if st & S_IDENTIFIER:
            p = sw.sw(buf, p, 8)
        return start

    # ---- records
    def swap_sample(self, buf, off, end):
        a = self.sample_attr(buf, off, end)
        st, sw = a.sample_type, self.sw
        p = off + 8
        if st & S_IDENTIFIER:
            p = sw.sw(buf, p, 8)
        if st & S_IP:
            p = sw.sw(buf, p, 8)
        if st & S_TID:
            p = sw.sw(buf, p, 4, 2)
        for b in (S_TIME, S_ADDR, S_ID, S_STREAM_ID):
            if st & b:
                p = sw.sw(buf, p, 8)
        if st & S_CPU:
            p = sw.sw(buf, p, 4, 2)
        if st & S_PERIOD:
            p = sw.sw(buf, p, 8)
        if st & S_READ:
            p = self.swap_read_values(buf, p, off, a.read_format)
        if st & S_CALLCHAIN:
            need(buf, p, 8, "callchain")
            nr = u64(buf, p)
            if p + 8 + nr * 8 > end:
                raise RewriteError("sample at %#x: callchain of %d past the end" % (off, nr))
            p = sw.sw(buf, p, 8, 1 + nr)
        if st & S_RAW:
            p = self.swap_raw(buf, p, a)
        if st & S_BRANCH_STACK:
            p = self.swap_branch_stack(buf, p, a)
        if st & S_REGS_USER:
            p = self.swap_regs(buf, p, a.regs_user, "regs_user")
        if st & S_STACK_USER:
            p = self.swap_stack_user(buf, p, off)
        if st & (S_WEIGHT | S_WEIGHT_STRUCT):
            p = sw.sw(buf, p, 8)
        if st & S_DATA_SRC:
            p = sw.sw(buf, p, 8)
        if st & S_TRANSACTION:
            p = sw.sw(buf, p, 8)
        if st & S_REGS_INTR:
            p = self.swap_regs(buf, p, a.regs_intr, "regs_intr")
        for b in (S_PHYS_ADDR, S_CGROUP, S_DATA_PAGE_SIZE, S_CODE_PAGE_SIZE):
            if st & b:
                p = sw.sw(buf, p, 8)
        if st & S_AUX:
            need(buf, p, 8, "aux")
            size = u64(buf, p)
            p = sw.sw(buf, p, 8)
            p += size
        if p != end:
            raise RewriteError("sample at %#x: %d bytes, its sample_type accounts for %d"
                               % (off, end - off, p - off))

    def swap_read_values(self, buf, p, off, rf):
        """Swap a sample's PERF_SAMPLE_READ values at P; return their end."""
        sw = self.sw
        times = bool(rf & R_TOTAL_TIME_ENABLED) + bool(rf & R_TOTAL_TIME_RUNNING)
        per = 1 + bool(rf & R_ID) + bool(rf & R_LOST)
        if rf & R_GROUP:
            need(buf, p, 8, "sample read")
            nr = u64(buf, p)
            if nr > 0xffff:
                raise RewriteError("sample at %#x: read group of %d" % (off, nr))
            return sw.sw(buf, p, 8, 1 + times + nr * per)
        return sw.sw(buf, p, 8, times + per)

    def swap_raw(self, buf, p, a):
        """Swap a sample's RAW data at P (a tracepoint's field by field); return its end."""
        need(buf, p, 4, "raw")
        size = u32(buf, p)
        p = self.sw.sw(buf, p, 4)
        need(buf, p, size, "raw data")
        if self.be and size:
            if self.tracing is None:
                raise RewriteError("sample with RAW data before the tracing data")
            if a.type == 2:                 # PERF_TYPE_TRACEPOINT
                self.tracing.swap_payload(buf, p, size)
        return p + size

    def swap_branch_stack(self, buf, p, a):
        """Swap a sample's branch stack at P; return its end."""
        sw = self.sw
        need(buf, p, 8, "branch stack")
        nr = u64(buf, p)
        p = sw.sw(buf, p, 8)
        if a.branch_sample_type & BRANCH_HW_INDEX:
            p = sw.sw(buf, p, 8)
        need(buf, p, nr * 24, "branch stack")
        for _ in range(nr):
            p = sw.sw(buf, p, 8, 2)
            p = sw.bits(buf, p, BRANCH_FLAG_WIDTHS)
        return p

    def swap_regs(self, buf, p, mask, what):
        """Swap a sample's registers at P (abi, a u64 per bit of MASK); return their end."""
        need(buf, p, 8, what)
        abi = u64(buf, p)
        p = self.sw.sw(buf, p, 8)
        if abi:
            p = self.sw.sw(buf, p, 8, bin(mask).count("1"))
        return p

    def swap_stack_user(self, buf, p, off):
        """Swap a sample's user stack copy at P; return its end."""
        sw = self.sw
        need(buf, p, 8, "stack_user")
        size = u64(buf, p)
        p = sw.sw(buf, p, 8)
        if size % 8:
            raise RewriteError("sample at %#x: user stack of %d bytes" % (off, size))
        p = sw.sw(buf, p, 8, size // 8)    # stack slots as u64 words
        if size:
            p = sw.sw(buf, p, 8)           # dyn_size
        return p

    def swap_record(self, buf, off, end, rtype):
        """Swap the record at OFF (header already read); False to drop it."""
        sw = self.sw
        body = off + 8
        if rtype == REC_SAMPLE:
            self.swap_sample(buf, off, end)
        elif rtype == REC_MMAP:
            sw.sw(buf, body, 4, 2)
            sw.sw(buf, body + 8, 8, 3)
            self.swap_trailer(buf, body + 32, end)
        elif rtype == REC_MMAP2:
            misc = u16(buf, off + 4)
            p = sw.sw(buf, body, 4, 2)
            p = sw.sw(buf, p, 8, 3)
            if misc & MISC_MMAP_BUILD_ID:
                p += 24                        # build id size, bytes: untouched
            else:
                p = sw.sw(buf, p, 4, 2)        # maj, min
                p = sw.sw(buf, p, 8, 2)        # ino, ino_generation
            p = sw.sw(buf, p, 4, 2)            # prot, flags
            self.swap_trailer(buf, p, end)
        elif rtype == REC_CGROUP:
            sw.sw(buf, body, 8)
            self.swap_trailer(buf, body + 8, end)
        elif rtype == REC_COMM:
            sw.sw(buf, body, 4, 2)
            self.swap_trailer(buf, body + 8, end)
        elif rtype in (REC_FORK, REC_EXIT):
            sw.sw(buf, body, 4, 4)
            sw.sw(buf, body + 16, 8)
            self.swap_trailer(buf, body + 24, end)
        elif rtype == REC_LOST:
            sw.sw(buf, body, 8, 2)
            self.swap_trailer(buf, body + 16, end)
        elif rtype == REC_LOST_SAMPLES:
            sw.sw(buf, body, 8)
            self.swap_trailer(buf, body + 8, end)
        elif rtype in (REC_THROTTLE, REC_UNTHROTTLE):
            sw.sw(buf, body, 8, 3)
            self.swap_trailer(buf, body + 24, end)
        elif rtype == REC_READ:
            sw.sw(buf, body, 4, 2)
            start = self.swap_trailer(buf, body + 8, end)
            if (start - body - 8) % 8:
                raise RewriteError("READ record at %#x: odd size" % off)
            sw.sw(buf, body + 8, 8, (start - body - 8) // 8)
        else:
            return self.swap_perf_record(buf, off, end, rtype)
        return True

    def swap_perf_record(self, buf, off, end, rtype):
        """Swap a record perf writes itself (not the kernel); False to drop it."""
        sw = self.sw
        body = off + 8
        if rtype in (REC_FINISHED_ROUND, REC_FINISHED_INIT):
            pass
        elif rtype == REC_ID_INDEX:
            if (end - body) % 8:
                raise RewriteError("ID_INDEX at %#x: odd size" % off)
            sw.sw(buf, body, 8, (end - body) // 8)
        elif rtype == REC_THREAD_MAP:
            nr = u64(buf, body)
            p = sw.sw(buf, body, 8)
            for _ in range(nr):
                sw.sw(buf, p, 8)
                p += 24
            if p != end:
                raise RewriteError("THREAD_MAP at %#x: bad size" % off)
        elif rtype == REC_EVENT_UPDATE:
            need(buf, body, 16, "EVENT_UPDATE")
            kind = u64(buf, body)
            if kind not in (0, 1, 2):          # UNIT, SCALE, NAME (not CPUS)
                return False
            sw.sw(buf, body, 8, 2)
            if kind == 1:
                sw.sw(buf, body + 16, 8)
        elif rtype == REC_HEADER_ATTR:
            need(buf, body, 8, "HEADER_ATTR")
            size = u32(buf, body + 4)
            if size < 64 or body + size > end or (end - body - size) % 8:
                raise RewriteError("HEADER_ATTR at %#x: attr size %d" % (off, size))
            ids = struct.unpack_from("<%dQ" % ((end - body - size) // 8), buf, body + size)
            self.add_attr(bytes(buf[body:body + size]), ids)
            swap_attr(sw, buf, body, size)
            sw.sw(buf, body + size, 8, len(ids))
        elif rtype == REC_HEADER_FEATURE:
            need(buf, body, 8, "HEADER_FEATURE")
            feat = u64(buf, body)
            if feat >= F_LAST and end == body + 8:
                sw.sw(buf, body, 8)            # end-of-features marker
                return True
            data = self.rewrite_feature(feat, bytes(buf[body + 8:end]))
            if data is None:
                return False
            if len(data) != end - body - 8:
                raise RewriteError("HEADER_FEATURE %d changed size" % feat)
            sw.sw(buf, body, 8)
            buf[body + 8:end] = data
        elif rtype in (REC_COMPRESSED, REC_COMPRESSED2):
            raise RewriteError("compressed records (perf record -z) are not supported: "
                               "python has no zstd; record without -z")
        else:
            return False
        return True

    # ---- features
    def rewrite_feature(self, feat, data):
        """Return the rewritten feature section, or None to drop it."""
        if feat == F_TRACING_DATA:
            self.tracing = TracingData(data, self.be, self.long32)
            return self.tracing.data + data[self.tracing.consumed:]
        if not self.be:
            return data
        buf = bytearray(data)
        sw = self.sw
        p = 0

        def string(p):
            need(buf, p, 4, "feature string")
            n = u32(buf, p)
            sw.sw(buf, p, 4)
            need(buf, p + 4, n, "feature string")
            return p + 4 + n

        if feat in (F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH, F_CPUDESC, F_CPUID):
            p = string(0)
        elif feat == F_NRCPUS:
            p = sw.sw(buf, 0, 4, 2)
        elif feat in (F_TOTAL_MEM, F_CLOCKID):
            p = sw.sw(buf, 0, 8)
        elif feat == F_SAMPLE_TIME:
            p = sw.sw(buf, 0, 8, 2)
        elif feat == F_CLOCK_DATA:
            p = sw.sw(buf, 0, 4, 2)
            p = sw.sw(buf, p, 8, 2)
        elif feat == F_CMDLINE:
            nr = u32(buf, 0)
            p = sw.sw(buf, 0, 4)
            for _ in range(nr):
                p = string(p)
        elif feat == F_EVENT_DESC:
            nre, sz = u32(buf, 0), u32(buf, 4)
            p = sw.sw(buf, 0, 4, 2)
            for _ in range(nre):
                swap_attr(sw, buf, p, sz)
                p += sz
                nr = u32(buf, p)
                p = sw.sw(buf, p, 4)
                p = string(p)
                p = sw.sw(buf, p, 8, nr)
        elif feat == F_GROUP_DESC:
            nr = u32(buf, 0)
            p = sw.sw(buf, 0, 4)
            for _ in range(nr):
                p = string(p)
                p = sw.sw(buf, p, 4, 2)
        else:
            return None
        if p != len(buf) and feat != F_CMDLINE:
            warn("feature %d: %d bytes after its content left as they are"
                 % (feat, len(buf) - p))
        return bytes(buf)

    # ---- file mode
    def file_mode(self):
        src = self.src
        need(src, 0, 104, "file header")
        hsize, attr_size = u64(src, 8), u64(src, 16)
        a_off, a_size, d_off, d_size, e_off, e_size = struct.unpack_from("<6Q", src, 24)
        feats = struct.unpack_from("<4Q", src, 72)
        bitmap = sum(w << (64 * i) for i, w in enumerate(feats))
        if hsize != 104:
            raise RewriteError("file header size %d, expected 104" % hsize)
        if attr_size < 80 or a_size % attr_size:
            raise RewriteError("attr section: entry size %d, section size %d"
                               % (attr_size, a_size))
        if e_size:
            warn("event_types section (old perf) copied as it is")
        need(src, d_off, d_size, "data section")
        out = bytearray(src[:d_off])
        self.file_attrs(out, a_off, a_size, attr_size, d_off)
        new_sections = self.file_features(bitmap, d_off + d_size)

        # records
        if self.be:
            data = self.records(src, d_off, d_off + d_size, pipe=False)
        else:
            data = src[d_off:d_off + d_size]
        out.extend(data)
        kept = self.append_features(out, new_sections, d_off + len(data))

        # header
        new_bitmap = sum(1 << f for f in kept)
        struct.pack_into("<Q", out, 48, len(data))
        struct.pack_into("<4Q", out, 72, *[(new_bitmap >> (64 * i)) & (2**64 - 1)
                                          for i in range(4)])
        if self.be:
            out[0:8] = PERF_MAGIC[::-1]
            self.sw.sw(out, 8, 8, 12)
        return bytes(out)

    def file_attrs(self, out, a_off, a_size, attr_size, d_off):
        """Take the attrs and their ids of the attr section; swap them in OUT."""
        src, sw = self.src, self.sw
        for off in range(a_off, a_off + a_size, attr_size):
            need(src, off, attr_size, "attr section")
            ids_off, ids_size = struct.unpack_from("<QQ", src, off + attr_size - 16)
            need(src, ids_off, ids_size, "attr ids")
            if ids_off + ids_size > d_off:
                raise RewriteError("attr ids at %#x are not before the data" % ids_off)
            ids = struct.unpack_from("<%dQ" % (ids_size // 8), src, ids_off)
            self.add_attr(src[off:off + attr_size - 16], ids)
            swap_attr(sw, out, off, attr_size - 16)
            sw.sw(out, off + attr_size - 16, 8, 2)
            sw.sw(out, ids_off, 8, len(ids))

    def file_features(self, bitmap, feat_off):
        """The kept feature sections, rewritten, the tracing data first (records need it)."""
        src = self.src
        nr = bin(bitmap).count("1")
        need(src, feat_off, 16 * nr, "feature table")
        sections = {}
        for i, feat in enumerate(f for f in range(FEATURE_BITS) if bitmap >> f & 1):
            s_off, s_size = struct.unpack_from("<QQ", src, feat_off + 16 * i)
            need(src, s_off, s_size, "feature %d" % feat)
            sections[feat] = src[s_off:s_off + s_size]
        new_sections = {}
        if F_TRACING_DATA in sections:
            new_sections[F_TRACING_DATA] = self.rewrite_feature(
                F_TRACING_DATA, sections[F_TRACING_DATA])
        for feat, data in sections.items():
            if feat != F_TRACING_DATA:
                new = self.rewrite_feature(feat, data)
                if new is not None:
                    new_sections[feat] = new
        return new_sections

    def append_features(self, out, sections, feat_off):
        """Append the feature table at FEAT_OFF and SECTIONS to OUT; return those kept."""
        kept = sorted(sections)
        table = bytearray()
        pos = feat_off + 16 * len(kept)
        for feat in kept:
            table += struct.pack("<QQ", pos, len(sections[feat]))
            pos += len(sections[feat])
        self.sw.sw(table, 0, 8, 2 * len(kept))
        out.extend(table)
        for feat in kept:
            out.extend(sections[feat])
        return kept

    # ---- records of a data section or a pipe
    def records(self, src, off, end, pipe):
        out = bytearray()
        while off < end:
            if off + 8 > end:
                raise RewriteError("truncated record header at %#x" % off)
            rtype, misc, size = struct.unpack_from("<IHH", src, off)
            if size < 8 or off + size > end:
                raise RewriteError("record at %#x: type %d, bad size %d" % (off, rtype, size))
            buf = bytearray(src[off:off + size])
            extra = b""
            if rtype == REC_HEADER_TRACING_DATA:
                if not pipe:
                    raise RewriteError("HEADER_TRACING_DATA record in a file-mode file")
                tsize = u32(buf, 8)
                need(src, off + size, tsize, "HEADER_TRACING_DATA payload")
                payload = src[off + size:off + size + tsize]
                self.tracing = TracingData(payload, self.be, self.long32)
                tdata = self.tracing.data
                pad = (-len(tdata)) % 8
                extra = tdata + b"\0" * pad
                struct.pack_into("<I", buf, 8, len(extra))
                if self.be:
                    self.sw.sw(buf, 8, 4)
                keep = True
                next_off = off + size + tsize
            else:
                keep = True if not self.be else self.swap_record(buf, 0, size, rtype)
                next_off = off + size
            if keep:
                if self.be:
                    self.sw.sw(buf, 0, 4)
                    self.sw.sw(buf, 4, 2, 2)
                out += buf
                out += extra
            else:
                self.dropped[rtype] = self.dropped.get(rtype, 0) + 1
            off = next_off
        return bytes(out)

    # ---- pipe mode
    def pipe_mode(self):
        src = self.src
        if u64(src, 8) != 16:
            raise RewriteError("pipe header size %d, expected 16" % u64(src, 8))
        self.pipe = True
        out = bytearray(src[:16])
        if self.be:
            out[0:8] = PERF_MAGIC[::-1]
            self.sw.sw(out, 8, 8)
        out += self.records(src, 16, len(src), pipe=True)
        return bytes(out)

    def run(self):
        src = self.src
        if len(src) < 16:
            raise RewriteError("too short for a perf.data header")
        if src[:8] == PERF_MAGIC[::-1]:
            raise RewriteError("input is already big-endian")
        if src[:8] != PERF_MAGIC:
            raise RewriteError("not a perf.data file (magic %r)" % src[:8])
        if u64(src, 8) == 16:
            return self.pipe_mode()
        return self.file_mode()


def pipe_sections(src, e):
    """The records of a pipe-mode perf.data of byte order E, sorted out:
    ([(attr, ids)], {feature: section}, the other records)."""
    attrs, features, data = [], {}, bytearray()
    off = 16
    while off < len(src):
        need(src, off, 8, "record header")
        rtype, _, size = struct.unpack_from(e + "IHH", src, off)
        if size < 8:
            raise RewriteError("record at %#x: bad size %d" % (off, size))
        need(src, off, size, "record")
        nxt = off + size
        if rtype == REC_HEADER_ATTR:
            asize = struct.unpack_from(e + "I", src, off + 12)[0]
            attrs.append((src[off + 8:off + 8 + asize], src[off + 8 + asize:nxt]))
        elif rtype == REC_HEADER_TRACING_DATA:
            tsize = struct.unpack_from(e + "I", src, off + 8)[0]
            need(src, nxt, tsize, "tracing data")
            features[F_TRACING_DATA] = src[nxt:nxt + tsize]
            nxt += tsize
        elif rtype == REC_HEADER_FEATURE:
            feat = struct.unpack_from(e + "Q", src, off + 8)[0]
            if feat < F_LAST:
                features[feat] = src[off + 16:nxt]
        else:
            data += src[off:nxt]
        off = nxt
    return attrs, features, data


def pipe_to_file(src):
    """Re-frame a pipe-mode perf.data (either byte order) as a file-mode one.

    Nothing is swapped: HEADER_ATTR records become the attr section (and the
    id arrays), HEADER_TRACING_DATA and HEADER_FEATURE records become feature
    sections, every other record goes to the data section unchanged. This
    lets perf read a pipe-mode twin in file mode (perf 6.1 cannot read a
    pipe of the other byte order).
    """
    if src[:8] == PERF_MAGIC:
        e = "<"
    elif src[:8] == PERF_MAGIC[::-1]:
        e = ">"
    else:
        raise RewriteError("not a perf.data file (magic %r)" % src[:8])
    if struct.unpack_from(e + "Q", src, 8)[0] != 16:
        raise RewriteError("--to-file: not a pipe-mode file")
    attrs, features, data = pipe_sections(src, e)
    if not attrs or len({len(a) for a, _ in attrs}) != 1:
        raise RewriteError("--to-file: no attrs, or attrs of different sizes")
    attr_size = len(attrs[0][0]) + 16
    out = bytearray(104)
    id_offs = []
    for _, ids in attrs:
        id_offs.append((len(out), len(ids)))
        out += ids
    a_off = len(out)
    for (attr, _), (ioff, isize) in zip(attrs, id_offs):
        out += attr + struct.pack(e + "QQ", ioff, isize)
    d_off = len(out)
    out += data
    kept = sorted(features)
    pos = len(out) + 16 * len(kept)
    for feat in kept:
        out += struct.pack(e + "QQ", pos, len(features[feat]))
        pos += len(features[feat])
    for feat in kept:
        out += features[feat]
    bitmap = sum(1 << f for f in kept)
    out[0:8] = src[0:8]
    struct.pack_into(e + "QQ6Q4Q", out, 8, 104, attr_size,
                     a_off, len(attrs) * attr_size, d_off, len(data), 0, 0,
                     *[(bitmap >> (64 * i)) & (2**64 - 1) for i in range(4)])
    return bytes(out)


def flip_clockid(src, index):
    """Flip the use_clockid bit (25 of the flags word) of the INDEX-th event
    attribute of a little-endian file-mode perf.data: a recording whose
    attributes disagree on the clock, as one damaged bit makes it."""
    if src[:8] != PERF_MAGIC or u64(src, 8) != 104:
        raise RewriteError("--flip-clockid: not a little-endian file-mode perf.data")
    attr_size = u64(src, 16)
    a_off, a_size = struct.unpack_from("<QQ", src, 24)
    if index < 0 or attr_size < ATTR_FLAGS_OFF + 24 or (index + 1) * attr_size > a_size:
        raise RewriteError("--flip-clockid: no attr %d" % index)
    out = bytearray(src)
    out[a_off + index * attr_size + ATTR_FLAGS_OFF + 25 // 8] ^= 1 << (25 % 8)
    return bytes(out)


def off_cpu_main(args):
    """--off-cpu MS (perf_offcpu.py, next to this file)"""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import perf_offcpu

    if args.big_endian or args.long32 or args.to_file or args.flip_clockid is not None or \
            (args.off_cpu is not None and args.off_cpu_old):
        print("perf-rewrite: --off-cpu and --off-cpu-old go alone", file=sys.stderr)
        return 2
    try:
        with open(args.input, "rb") as f:
            data = f.read()
        out, batch = perf_offcpu.off_cpu(data, int((args.off_cpu or 0) * 1000000), TracingData,
                                         args.off_cpu_old)
        with open(args.output, "wb") as f:
            f.write(out)
    except (perf_offcpu.OffCpuError, RewriteError, struct.error, ValueError, OSError) as e:
        print("perf-rewrite: %s: %s" % (args.input, e), file=sys.stderr)
        return 1
    if args.verbose:
        print("perf-rewrite: %d end-of-run samples" % batch, file=sys.stderr)
    return 0


def arg_parser():
    """The command line of perf-rewrite.py."""
    ap = argparse.ArgumentParser(
        description="Rewrite a little-endian perf.data into its big-endian "
                    "and/or 32-bit twin (a test tool for perf.data readers).")
    ap.add_argument("--big-endian", action="store_true",
                    help="write the file a big-endian machine would have written")
    ap.add_argument("--long32", action="store_true",
                    help="describe a 32-bit kernel's ring buffer (long size 4)")
    ap.add_argument("--to-file", action="store_true",
                    help="write a pipe-mode input as a file-mode perf.data "
                         "(after the other options; input may be big-endian)")
    ap.add_argument("--flip-clockid", type=int, metavar="N",
                    help="flip the use_clockid bit of the N-th attr (from 0) of a "
                         "little-endian file-mode input, before the other options")
    ap.add_argument("--off-cpu", type=float, metavar="MS",
                    help="the perf record --off-cpu twin of a sched_switch recording, "
                         "threshold MS milliseconds (alone)")
    ap.add_argument("--off-cpu-old", action="store_true",
                    help="the same in the layout of perf 5.19 to 6.15 (alone)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="tell which record types were dropped")
    ap.add_argument("input", help="perf.data to read ('-' for standard input)")
    ap.add_argument("output", help="file to write ('-' for standard output)")
    return ap


def main(argv=None):
    ap = arg_parser()
    args = ap.parse_args(argv)
    if args.off_cpu is not None or args.off_cpu_old:
        return off_cpu_main(args)
    if not (args.big_endian or args.long32 or args.to_file or args.flip_clockid is not None):
        ap.error("give --big-endian, --long32, --to-file, --flip-clockid or --off-cpu")
    try:
        if os.path.isdir(args.input):
            raise RewriteError("directory recordings (perf record --threads) "
                               "are not supported")
        if args.input == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.input, "rb") as f:
                data = f.read()
        if args.flip_clockid is not None:
            data = flip_clockid(data, args.flip_clockid)
        rw = Rewriter(data, args.big_endian, args.long32)
        result = data
        if args.big_endian or args.long32:
            result = rw.run()
        if args.to_file:
            result = pipe_to_file(result)
    except (RewriteError, struct.error, ValueError) as e:
        print("perf-rewrite: %s: %s" % (args.input, e), file=sys.stderr)
        return 1
    except OSError as e:
        print("perf-rewrite: %s" % e, file=sys.stderr)
        return 1
    if args.verbose and rw.dropped:
        print("perf-rewrite: dropped records: " +
              ", ".join("type %d x%d" % kv for kv in sorted(rw.dropped.items())),
              file=sys.stderr)
    try:
        if args.output == "-":
            sys.stdout.buffer.write(result)
            sys.stdout.buffer.flush()
        else:
            with open(args.output, "wb") as f:
                f.write(result)
    except OSError as e:
        print("perf-rewrite: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
