# SPDX-License-Identifier: GPL-2.0-or-later
"""perf_offcpu.py - perf-rewrite.py --off-cpu: a `perf record --off-cpu`
recording made from a real `perf record -g -a -e sched:sched_switch` one.

Debian's perf is built without BPF skeletons and cannot record --off-cpu.
This rewrites a real little-endian file-mode recording of sched_switch
samples with call chains into the file perf (6.16 and later: the
--off-cpu-thresh series) writes for the same scheduling, in the layout
perf's source defines (tools/perf/util/bpf_skel/off_cpu.bpf.c,
tools/perf/util/bpf_off_cpu.c, tools/perf/util/off_cpu.h):

  * the sched:sched_switch attr becomes the "offcpu-time" event: type
    PERF_TYPE_SOFTWARE, config PERF_COUNT_SW_BPF_OUTPUT, sample_type masked
    with OFFCPU_SAMPLE_TYPES (IDENTIFIER IP TID TIME ID CPU PERIOD RAW
    CGROUP: no CALLCHAIN), inherit 0, named "offcpu-time" in EVENT_DESC
    (same ids, so every sample_id stays valid);
  * the BPF program's bookkeeping is replayed on the sched_switch samples:
    a task switched out in state S (prev_state 1) or D (2) with a user call
    chain (perf's program skips kernel threads, which have none) is off
    CPU until a sched_switch runs it again; its user frames (at most 32,
    MAX_STACKS) are the stack;
  * an off-CPU time of at least the threshold becomes a direct sample, as
    bpf_perf_event_output() writes it at the switch-in: that sample's
    IDENTIFIER, IP, TID (the task switching out, the one running the BPF
    program), TIME and CPU, PERIOD 1, and RAW (u32 size n*8+4, the payload,
    4 bytes of padding) holding off_cpu_dump()'s payload: u64 tgid << 32 |
    tid, u64 off-CPU ns, u64 nr, PERF_CONTEXT_USER and the nr-1 user
    frames, u64 cgroup id (0: perf records it only with --all-cgroups);
  * a shorter one is summed by (tid, tgid, stack, state) as the BPF map
    sums it, and written after the data as off_cpu_write() writes the map
    at the end of the run: misc PERF_RECORD_MISC_USER, IDENTIFIER, IP 0,
    TID 0, TIME OFF_CPU_TIMESTAMP (~0 << 32) + i, CPU 0, PERIOD 0 and RAW
    holding u64 tid << 32 | tgid (note: the other way round from the
    direct payload's word), the sum, the chain and the cgroup id;
  * the sched_switch samples themselves are dropped; the other records
    (COMM, MMAP, FORK, EXIT, ...) and the features are kept as they are.

With old=True (perf-rewrite.py --off-cpu-old), the layout of perf 5.19 to
6.15 instead (the same files, before the --off-cpu-thresh series): the
event's sample_type has CALLCHAIN and no RAW; every off-CPU time goes to
the end-of-run batch, whose samples carry IP (the first user frame), TID
(pid tgid, tid), TIME OFF_CPU_TIMESTAMP + i, CPU 0, PERIOD (the sum) and
CALLCHAIN (PERF_CONTEXT_USER, the user frames) in the ordinary fields.

The recording should be made with a tracepoint filter on the workload's
tasks, or it grows with every other task of the machine.
"""

import struct

OFF_CPU_TIMESTAMP = (~0 << 32) & (2**64 - 1)
PERF_CONTEXT_USER = 2**64 - 512
PERF_CONTEXT_MAX = 2**64 - 4095
MAX_STACKS = 32
PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT = 1, 10
MISC_USER = 2
REC_SAMPLE = 9
F_TRACING_DATA, F_EVENT_DESC = 1, 12

S_IP, S_TID, S_TIME, S_CALLCHAIN = 1 << 0, 1 << 1, 1 << 2, 1 << 5
S_ID, S_CPU, S_PERIOD, S_RAW = 1 << 6, 1 << 7, 1 << 8, 1 << 10
S_IDENTIFIER, S_CGROUP = 1 << 16, 1 << 21
OFFCPU_SAMPLE_TYPES = (S_IDENTIFIER | S_IP | S_TID | S_TIME | S_ID | S_CPU |
                       S_PERIOD | S_RAW | S_CGROUP)
# perf 5.19 to 6.15: the chain in the sample, no RAW
OLD_SAMPLE_TYPES = (OFFCPU_SAMPLE_TYPES & ~S_RAW) | S_CALLCHAIN
# what the input's sched_switch samples must carry
SWITCH_TYPES = S_IDENTIFIER | S_IP | S_TID | S_TIME | S_CPU | S_PERIOD | S_CALLCHAIN | S_RAW


class OffCpuError(Exception):
    """The input cannot be rewritten."""


def _u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


def _u64(b, o):
    return struct.unpack_from("<Q", b, o)[0]


def _string(name):
    """perf's do_write_string(): u32 length, then NUL-padded to 64 bytes"""
    size = (len(name) + 1 + 63) // 64 * 64
    return struct.pack("<I", size) + name.encode() + b"\0" * (size - len(name))


def _event_desc(data):
    """EVENT_DESC -> attr size, [(attr bytes, name, ids)]"""
    nr, size = _u32(data, 0), _u32(data, 4)
    p, out = 8, []
    for _ in range(nr):
        attr = data[p:p + size]
        p += size
        nids, slen = _u32(data, p), _u32(data, p + 4)
        name = data[p + 8:p + 8 + slen].split(b"\0")[0].decode()
        p += 8 + slen
        ids = struct.unpack_from("<%dQ" % nids, data, p)
        p += 8 * nids
        out.append((attr, name, ids))
    return size, out


def _offcpu_attr(attr, old):
    a = bytearray(attr)
    if old:
        st = _u64(a, 24) & OLD_SAMPLE_TYPES
    else:
        st = (_u64(a, 24) & OFFCPU_SAMPLE_TYPES) | S_RAW
    struct.pack_into("<I", a, 0, PERF_TYPE_SOFTWARE)
    struct.pack_into("<Q", a, 8, PERF_COUNT_SW_BPF_OUTPUT)
    struct.pack_into("<Q", a, 24, st)
    struct.pack_into("<Q", a, 40, _u64(a, 40) & ~2)      # inherit = 0
    return bytes(a), st


def _user_chain(ips):
    """the user part of a call chain (after PERF_CONTEXT_USER), at most MAX_STACKS"""
    out, user = [], False
    for ip in ips:
        if ip >= PERF_CONTEXT_MAX:
            user = ip == PERF_CONTEXT_USER
        elif user:
            out.append(ip)
    return out[:MAX_STACKS]


def _raw(words):
    """PERF_SAMPLE_RAW of u64 words: u32 size, the words, padding to 8 bytes"""
    body = struct.pack("<%dQ" % len(words), *words)
    return struct.pack("<I", len(body) + 4) + body + b"\0" * 4


def _sample(misc, st, sid, ip, pid, tid, ts, cpu, period, tail):
    """a sample record; @tail: its CALLCHAIN or RAW field (whichever @st has)"""
    b = b""
    if st & S_IDENTIFIER:
        b += struct.pack("<Q", sid)
    if st & S_IP:
        b += struct.pack("<Q", ip)
    if st & S_TID:
        b += struct.pack("<II", pid, tid)
    if st & S_TIME:
        b += struct.pack("<Q", ts)
    if st & S_CPU:
        b += struct.pack("<II", cpu, 0)
    if st & S_PERIOD:
        b += struct.pack("<Q", period)
    b += tail
    if len(b) + 8 > 0xffff:
        raise OffCpuError("a sample of %d bytes" % (len(b) + 8))
    return struct.pack("<IHH", REC_SAMPLE, misc, len(b) + 8) + b


class _Switch:
    def __init__(self, tracing, tracing_cls):
        td = tracing_cls(tracing, False, False)
        ev = [e for e in td.events.values() if e.name == "sched_switch"]
        if len(ev) != 1:
            raise OffCpuError("the tracing data has no sched_switch format")
        self.id = ev[0].id
        self.f = {f.name: (f.offset, f.size) for f in ev[0].fields}
        for n in ("prev_pid", "prev_state", "next_pid"):
            if n not in self.f:
                raise OffCpuError("sched_switch has no field %s" % n)

    def get(self, raw, name, signed=False):
        off, size = self.f[name]
        return int.from_bytes(raw[off:off + size], "little", signed=signed)


def _parse_switch(rec):
    """a sched_switch sample (SWITCH_TYPES) -> its fields"""
    p = 8
    sid, ip = struct.unpack_from("<QQ", rec, p)
    pid, tid = struct.unpack_from("<II", rec, p + 16)
    ts = _u64(rec, p + 24)
    cpu = _u32(rec, p + 32)
    p += 48
    nr = _u64(rec, p)
    ips = struct.unpack_from("<%dQ" % nr, rec, p + 8)
    p += 8 + 8 * nr
    size = _u32(rec, p)
    return sid, ip, pid, tid, ts, cpu, ips, rec[p + 4:p + 4 + size]


def _replay(data, sw, ids, st, thresh_ns):
    """the data section with the switch samples replaced; the end-of-run map

    The BPF program sees the switches in time order; the file has them per
    CPU buffer, flushed in rounds: they are replayed sorted by time, and a
    direct sample takes the place of the switch-in sample it is written at.
    """
    recs, switches = [], []
    off = 0
    while off < len(data):
        rtype, misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8 or off + size > len(data):
            raise OffCpuError("record at data+%#x: bad size %d" % (off, size))
        rec = data[off:off + size]
        off += size
        if rtype == REC_SAMPLE:
            if _u64(rec, 8) not in ids:
                raise OffCpuError("a sample of another event than sched_switch")
            switches.append((_parse_switch(rec), misc, len(recs)))
            rec = None
        recs.append(rec)
    pending, batch = {}, {}
    for (sid, ip, pid, tid, ts, cpu, ips, raw), misc, at in \
            sorted(switches, key=lambda s: (s[0][4], s[2])):
        prev, state, nxt = (sw.get(raw, "prev_pid"), sw.get(raw, "prev_state"),
                            sw.get(raw, "next_pid"))
        user = _user_chain(ips)
        if state in (1, 2) and user and prev == tid:
            pending[prev] = (ts, state, user, pid)
        if nxt not in pending:
            continue
        t0, nstate, nuser, tgid = pending.pop(nxt)
        delta = ts - t0
        if delta >= thresh_ns:
            words = [tgid << 32 | nxt, delta, len(nuser) + 1, PERF_CONTEXT_USER] + nuser + [0]
            recs[at] = _sample(misc, st, sid, ip, pid, tid, ts, cpu, 1, _raw(words))
        else:
            key = (nxt, tgid, tuple(nuser), nstate)
            batch[key] = batch.get(key, 0) + delta
    return bytearray(b"".join(r for r in recs if r)), batch


def _batch(batch, st, sid, old):
    out = bytearray()
    for i, ((tid, tgid, user, _), ns) in enumerate(batch.items()):
        chain = [len(user) + 1, PERF_CONTEXT_USER] + list(user)
        ts = OFF_CPU_TIMESTAMP + i
        if old:
            tail = struct.pack("<%dQ" % len(chain), *chain)
            out += _sample(MISC_USER, st, sid, user[0], tgid, tid, ts, 0, ns, tail)
        else:
            words = [tid << 32 | tgid, ns] + chain + [0]
            out += _sample(MISC_USER, st, sid, 0, 0, 0, ts, 0, 0, _raw(words))
    return out


def _features(src, feat_off):
    """the header's feature bits, the table at @feat_off -> [feature], {feature: section}"""
    bitmap = sum(w << (64 * i) for i, w in enumerate(struct.unpack_from("<4Q", src, 72)))
    feats = [f for f in range(256) if bitmap >> f & 1]
    sections = {}
    for i, f in enumerate(feats):
        s_off, s_size = struct.unpack_from("<QQ", src, feat_off + 16 * i)
        sections[f] = src[s_off:s_off + s_size]
    return feats, sections


def _attrs(src, a_off, a_size, attr_size):
    """the attr section -> [[attr bytes, ids]]"""
    attrs = []
    for off in range(a_off, a_off + a_size, attr_size):
        ids_off, ids_size = struct.unpack_from("<QQ", src, off + attr_size - 16)
        attrs.append([src[off:off + attr_size - 16],
                      struct.unpack_from("<%dQ" % (ids_size // 8), src, ids_off)])
    return attrs


def _offcpu_desc(desc_size, desc, ids, old):
    """EVENT_DESC with the event of @ids made the "offcpu-time" one"""
    new_desc = struct.pack("<II", len(desc), desc_size)
    for attr, name, dids in desc:
        if set(dids) == ids:
            attr, name = _offcpu_attr(attr, old)[0], "offcpu-time"
        new_desc += attr + struct.pack("<I", len(dids)) + _string(name) + \
            struct.pack("<%dQ" % len(dids), *dids)
    return new_desc


def _file(src, attrs, attr_size, data, feats, sections):
    """the file-mode perf.data of @attrs, the data section @data and the feature
    sections @feats (the header's first 24 bytes and feature bits from @src)"""
    out = bytearray(104)
    id_offs = []
    for _, aids in attrs:
        id_offs.append((len(out), 8 * len(aids)))
        out += struct.pack("<%dQ" % len(aids), *aids)
    new_a_off = len(out)
    for (attr, _), (ioff, isize) in zip(attrs, id_offs):
        out += attr + struct.pack("<QQ", ioff, isize)
    new_d_off = len(out)
    out += data
    pos = len(out) + 16 * len(feats)
    for f in feats:
        out += struct.pack("<QQ", pos, len(sections[f]))
        pos += len(sections[f])
    for f in feats:
        out += sections[f]
    out[0:24] = src[0:24]
    struct.pack_into("<6Q", out, 24, new_a_off, len(attrs) * attr_size, new_d_off, len(data),
                     0, 0)
    out[72:104] = src[72:104]
    return bytes(out)


def off_cpu(src, thresh_ns, tracing_cls, old=False):
    """Return the --off-cpu twin of the recording @src (bytes), and how many
    end-of-run samples it has; @old: the layout of perf 5.19 to 6.15 (no
    direct samples: @thresh_ns is not used)"""
    if src[:8] != b"PERFILE2" or _u64(src, 8) != 104:
        raise OffCpuError("not a little-endian file-mode perf.data")
    attr_size = _u64(src, 16)
    a_off, a_size, d_off, d_size = struct.unpack_from("<4Q", src, 24)
    feats, sections = _features(src, d_off + d_size)
    if F_EVENT_DESC not in sections or F_TRACING_DATA not in sections:
        raise OffCpuError("no EVENT_DESC or no tracing data")
    sw = _Switch(sections[F_TRACING_DATA], tracing_cls)
    desc_size, desc = _event_desc(sections[F_EVENT_DESC])
    attrs = _attrs(src, a_off, a_size, attr_size)
    switch = [a for a in attrs if _u32(a[0], 0) == 2 and _u64(a[0], 8) == sw.id]
    if len(switch) != 1 or len(attrs) != len(desc):
        raise OffCpuError("expected one sched:sched_switch event, and a name for each event")
    if _u64(switch[0][0], 24) & SWITCH_TYPES != SWITCH_TYPES or \
            _u64(switch[0][0], 24) & ~SWITCH_TYPES:
        raise OffCpuError("sched_switch samples need exactly IDENTIFIER IP TID TIME CPU"
                          " PERIOD CALLCHAIN RAW (perf record -g -a with another event)")
    switch[0][0], st = _offcpu_attr(switch[0][0], old)
    ids = set(switch[0][1])
    data, batch = _replay(src[d_off:d_off + d_size], sw, ids, st,
                          2**64 if old else thresh_ns)
    data += _batch(batch, st, switch[0][1][0], old)
    sections[F_EVENT_DESC] = _offcpu_desc(desc_size, desc, ids, old)
    return _file(src, attrs, attr_size, data, feats, sections), len(batch)
