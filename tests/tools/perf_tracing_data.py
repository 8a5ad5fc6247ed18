# SPDX-License-Identifier: GPL-2.0-or-later
"""perf_tracing_data - the TRACING_DATA feature of a perf.data (ftrace's
event formats) for perf-rewrite.py: the fields of each event, to swap a
tracepoint's payload field by field."""

import re

from perf_abi import (LONG_TYPES, RewriteError, Swapper, TYPE_SIZES, cstring, need, u16, u32, warn)

# ------------------------------------------------------------------ tracing data
class Field:
    def __init__(self, decl, offset, size):
        self.offset, self.size = offset, size
        self.dyn = None                       # "data_loc" / "rel_loc"
        decl = decl.strip()
        for kind in ("__data_loc", "__rel_loc"):
            if decl.startswith(kind + " "):
                self.dyn = kind[2:]
                decl = decl[len(kind) + 1:].strip()
        m = re.match(r"^(.*?)\s*(\w+)\s*(\[([^\]]*)\])?$", decl)
        if not m:
            raise RewriteError("cannot parse format field %r" % decl)
        self.type, self.name = m.group(1).strip(), m.group(2)
        self.array = m.group(3) is not None
        self.count = None
        if self.array and m.group(4) and m.group(4).isdigit():
            self.count = int(m.group(4))
        if self.type.endswith("[]"):          # "__data_loc char[] name"
            self.type = self.type[:-2].strip()
            self.array = True

    def fixed_endian(self):
        """__be32 / __le16 ...: stored in one byte order on every machine."""
        return re.search(r"\b(__)?(be|le)(16|32|64)\b", self.type) is not None

    def is_char(self):
        """char, char arrays and strings (not pointers to char)."""
        return re.search(r"\bchar\b", self.type) is not None and "*" not in self.type


def elem_size(typ, long_size):
    t = " ".join(typ.replace("const ", "").replace("volatile ", "").split())
    if "*" in t:
        return long_size
    if t in TYPE_SIZES:
        return TYPE_SIZES[t]
    if t in LONG_TYPES:
        return long_size
    return None


class Event:
    def __init__(self, system, text):
        self.system = system
        m = re.search(r"^name:\s*(\S+)", text, re.M)
        self.name = m.group(1) if m else "?"
        m = re.search(r"^ID:\s*(\d+)", text, re.M)
        if not m:
            raise RewriteError("event format without ID: %s" % text[:60])
        self.id = int(m.group(1))
        self.fields = []
        for m in re.finditer(r"field:([^;]*);\s*offset:(\d+);\s*size:(\d+);", text):
            self.fields.append(Field(m.group(1), int(m.group(2)), int(m.group(3))))


class Reader:
    """A cursor over the tracing data that copies what it reads to out, its
    numbers swapped (SWAP) as read_tracing_data() reads them."""

    def __init__(self, buf, p, swap):
        self.buf, self.p, self.swap = buf, p, swap
        self.sw = Swapper(swap)
        self.out = bytearray(buf[:p])

    def take(self, n):
        need(self.buf, self.p, n, "tracing data")
        chunk = bytearray(self.buf[self.p:self.p + n])
        self.p += n
        return chunk

    def number(self, size):
        chunk = self.take(size)
        val = int.from_bytes(chunk, "little")
        self.sw.sw(chunk, 0, size)
        self.out.extend(chunk)
        return val

    def text_block(self, size_bytes, edit=None):
        n = self.number(size_bytes)
        text = self.take(n)
        if edit is None:
            self.out.extend(text)
            return text
        new = edit(bytes(text))
        # rewrite the size we just wrote
        del self.out[-size_bytes:]
        self.out.extend(len(new).to_bytes(size_bytes, "big" if self.swap else "little"))
        self.out.extend(new)
        return new


class TracingData:
    """Parse (and rewrite) perf's tracing data: read_tracing_data() layout."""

    def __init__(self, data, swap, long32):
        self.events = {}
        self.warned = set()
        buf = bytearray(data)
        sw = Swapper(swap)
        if not buf.startswith(b"\x17\x08Dtracing"):
            raise RewriteError("tracing data: bad magic")
        version, p = cstring(buf, 10, len(buf), "tracing data")
        self.version = version.decode("ascii", "replace")
        need(buf, p, 2, "tracing data")
        if buf[p] != 0:
            raise RewriteError("tracing data is already big-endian")
        if swap:
            buf[p] = 1
        self.long_size = buf[p + 1]
        if long32:
            buf[p + 1] = 4
        p += 2
        self.page_size = u32(buf, p)
        p = sw.sw(buf, p, 4, what="tracing data")
        r = Reader(buf, p, swap)
        self.read_sections(r, long32)
        self.consumed = r.p
        self.data = bytes(r.out)

    def read_sections(self, r, long32):
        """The sections after the page size: header_page and header_event, the
        event formats, kallsyms, printk formats and saved_cmdlines."""
        for name in (b"header_page\0", b"header_event\0"):
            got = r.take(len(name))
            if bytes(got) != name:
                raise RewriteError("tracing data: %r expected" % name)
            r.out.extend(got)
            edit = None
            if long32 and name == b"header_page\0":
                edit = self.header_page_32
            r.text_block(8, edit)
        for _ in range(r.number(4)):                    # ftrace formats
            self.add_event("ftrace", r.text_block(8))
        for _ in range(r.number(4)):                    # event systems
            system, q = cstring(r.buf, r.p, len(r.buf), "tracing data")
            r.out.extend(r.take(q - r.p))
            for _ in range(r.number(4)):
                self.add_event(system.decode("ascii", "replace"), r.text_block(8))
        r.text_block(4)                                 # kallsyms
        r.text_block(4)                                 # printk formats
        if float(self.version) >= 0.6:
            r.text_block(8)                             # saved_cmdlines

    def header_page_32(self, text):
        s = text.decode("ascii")
        s, n1 = re.subn(r"(field: local_t commit;\s*offset:\d+;\s*size:)\d+", r"\g<1>4", s)
        data_size = self.page_size - 12
        s, n2 = re.subn(r"(field: char data;\s*offset:)\d+(;\s*size:)\d+",
                        r"\g<1>12\g<2>%d" % data_size, s)
        if n1 != 1 or n2 != 1:
            raise RewriteError("header_page: unexpected text %r" % text[:200])
        return s.encode("ascii")

    def add_event(self, system, text):
        ev = Event(system, bytes(text).decode("utf-8", "replace"))
        self.events[ev.id] = ev

    def swap_payload(self, buf, off, size):
        """Swap a tracepoint payload (PERF_SAMPLE_RAW) field by field."""
        if size < 2:
            return
        etype = u16(buf, off)
        ev = self.events.get(etype)
        if ev is None:
            if etype not in self.warned:
                warn("no format for common_type %d: payload not swapped" % etype)
                self.warned.add(etype)
            return
        swaps = []                            # (offset, element size, count)
        for f in ev.fields:
            if f.offset + f.size > size:
                raise RewriteError("%s:%s field %s past the payload (%d bytes)"
                                   % (ev.system, ev.name, f.name, size))
            if f.dyn:
                word = u32(buf, off + f.offset)
                swaps.append((f.offset, 4, 1))
                doff, dlen = word & 0xffff, word >> 16
                if f.dyn == "rel_loc":
                    doff += f.offset + f.size
                if f.is_char() or f.fixed_endian() or dlen == 0:
                    continue
                es = elem_size(f.type, self.long_size)
                if es is None:
                    self.unknown(ev, f)
                    continue
                if doff + dlen > size or dlen % es:
                    raise RewriteError("%s:%s %s: dynamic data %d+%d outside payload"
                                       % (ev.system, ev.name, f.name, doff, dlen))
                swaps.append((doff, es, dlen // es))
                continue
            if f.is_char() or f.fixed_endian() or f.size < 2:
                continue
            if f.array:
                if f.count:
                    es = f.size // f.count
                else:
                    es = elem_size(f.type, self.long_size)
                if not es or f.size % es:
                    self.unknown(ev, f)
                    continue
                swaps.append((f.offset, es, f.size // es))
            elif f.size in (2, 4, 8):
                swaps.append((f.offset, f.size, 1))
            else:
                self.unknown(ev, f)
        sw = Swapper(True)
        for foff, es, n in swaps:
            sw.sw(buf, off + foff, es, n, what="payload")

    def unknown(self, ev, f):
        key = (ev.id, f.name)
        if key not in self.warned:
            warn("%s:%s field '%s %s' (size %d) left as it is"
                 % (ev.system, ev.name, f.type, f.name, f.size))
            self.warned.add(key)
