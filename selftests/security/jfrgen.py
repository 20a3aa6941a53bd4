#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Small JDK Flight Recorder files, valid or hostile, made for the tests
(never committed): one chunk with its metadata (the JDK's types a profile
needs), a checkpoint of constant pools (threads, stack traces, methods,
classes, symbols) and events.

    jfrgen.py valid OUT        one CPU sample (Main.main -> Main.work)
    jfrgen.py nested OUT [W D] a sample event with a field of a class of W
                               fields (default 1000) nested D levels deep
                               (default 4), the last an empty class: a
                               value of it takes no byte
    jfrgen.py samples OUT [N C] N (default 1000) wall-clock events, each
                               claiming C samples (default 100000)
    jfrgen.py sparse OUT [GB]  a valid chunk, then a hole up to GB
                               (default 3) gigabytes (a sparse file)
    jfrgen.py bigchunk OUT [GB] a chunk whose header claims GB gigabytes,
                               a hole, its metadata at the end
    jfrgen.py leafstacks OUT [F C] one stack of F frames (default 60000)
                               and C classes (default 20000), one
                               allocation at that stack of each class:
                               C stacks of F frames each, if made
    jfrgen.py cycle OUT        a class with a field of itself and a byte,
                               a sample event with a field of it
"""
import struct
import sys


def uv(v):
    """A JFR varint: 7 bits a byte, least significant first, the 9th
    byte whole."""
    out = bytearray()
    for _ in range(8):
        b, v = v & 0x7F, v >> 7
        if not v:
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)
    out.append(v & 0xFF)
    return bytes(out)


def utf8(s):
    b = s.encode()
    return b"\x03" + uv(len(b)) + b


def event(type_id, body):
    """An event: its size (itself included, as a 4-byte padded varint so
    that the size does not depend on itself) and type."""
    payload = uv(type_id) + body
    n = len(payload) + 4
    size = bytes([(n & 0x7F) | 0x80, ((n >> 7) & 0x7F) | 0x80, ((n >> 14) & 0x7F) | 0x80, (n >> 21) & 0x7F])
    return size + payload


class Meta:
    """The metadata event's string table and element tree."""

    def __init__(self):
        self.strings, self.index = [], {}
        self.classes = []  # (id, name, super, [(name, class id, cpool, array)])
        self.next_id = 100
        self.ids = {}

    def s(self, text):
        if text not in self.index:
            self.index[text] = len(self.strings)
            self.strings.append(text)
        return self.index[text]

    def cls(self, name, fields=(), super_type=None):
        cid = self.ids.get(name)
        if cid is None:
            cid = self.ids[name] = self.next_id
            self.next_id += 1
        self.classes.append((cid, name, super_type, list(fields)))
        return cid

    def declare(self, name):
        """An id for a class defined later (fields may refer to it)."""
        if name not in self.ids:
            self.ids[name] = self.next_id
            self.next_id += 1
        return self.ids[name]

    def element(self, name, attrs, children):
        out = uv(self.s(name)) + uv(len(attrs))
        for k, v in attrs:
            out += uv(self.s(k)) + uv(self.s(v))
        out += uv(len(children))
        for c in children:
            out += c
        return out

    def encode(self):
        classes = []
        for cid, name, sup, fields in self.classes:
            attrs = [("id", str(cid)), ("name", name)]
            if sup:
                attrs.append(("superType", sup))
            fl = []
            for fname, fcls, cpool, array in fields:
                fa = [("name", fname), ("class", str(fcls))]
                if cpool:
                    fa.append(("constantPool", "true"))
                if array:
                    fa.append(("dimension", "1"))
                fl.append(self.element("field", fa, []))
            classes.append(self.element("class", attrs, fl))
        root = self.element("root", [], [self.element("metadata", [], classes)])
        body = uv(0) + uv(0) + uv(1)  # start, duration, metadata id
        strs = uv(len(self.strings)) + b"".join(utf8(t) for t in self.strings)
        return event(0, body + strs + root)


def jdk_types(m):
    """The JDK's types a CPU or wall sample needs; their ids by name."""
    t = {}
    for prim in ("long", "int", "boolean", "java.lang.String"):
        t[prim] = m.cls(prim)
    t["Symbol"] = m.cls("jdk.types.Symbol", [("string", t["java.lang.String"], False, False)])
    t["Class"] = m.cls("java.lang.Class", [("name", t["Symbol"], True, False)])
    t["FrameType"] = m.cls("jdk.types.FrameType", [("description", t["java.lang.String"], False, False)])
    t["State"] = m.cls("jdk.types.ThreadState", [("name", t["java.lang.String"], False, False)])
    t["Method"] = m.cls("jdk.types.Method", [("type", t["Class"], True, False), ("name", t["Symbol"], True, False),
                                             ("descriptor", t["Symbol"], True, False)])
    t["Frame"] = m.cls("jdk.types.StackFrame", [("method", t["Method"], True, False), ("lineNumber", t["int"], False, False),
                                                ("type", t["FrameType"], True, False)])
    t["Stack"] = m.cls("jdk.types.StackTrace", [("truncated", t["boolean"], False, False),
                                                ("frames", t["Frame"], False, True)])
    t["Thread"] = m.cls("java.lang.Thread", [("osName", t["java.lang.String"], False, False),
                                             ("osThreadId", t["long"], False, False),
                                             ("javaName", t["java.lang.String"], False, False),
                                             ("javaThreadId", t["long"], False, False)])
    sample = [("startTime", t["long"], False, False), ("sampledThread", t["Thread"], True, False),
              ("stackTrace", t["Stack"], True, False), ("state", t["State"], True, False)]
    t["cpu"] = m.cls("jdk.ExecutionSample", sample, "jdk.jfr.Event")
    t["wall"] = m.cls("profiler.WallClockSample", sample + [("samples", t["int"], False, False)],
                      "jdk.jfr.Event")
    return t


def pools(t):
    """A checkpoint: one thread, one stack of two Java frames."""
    def pool(cls, entries):
        return uv(cls) + uv(len(entries)) + b"".join(uv(k) + v for k, v in entries)

    body = uv(0) + uv(0) + uv(0) + b"\x01" + uv(6)
    body += pool(t["Symbol"], [(1, utf8("Main")), (2, utf8("main")), (3, utf8("work")),
                               (4, utf8("()V"))])
    body += pool(t["Class"], [(1, uv(1))])
    body += pool(t["Method"], [(1, uv(1) + uv(2) + uv(4)), (2, uv(1) + uv(3) + uv(4))])
    body += pool(t["FrameType"], [(1, utf8("Interpreted"))])
    frames = uv(2) + uv(2) + uv(10) + uv(1) + uv(1) + uv(5) + uv(1)  # leaf first
    body += pool(t["Stack"], [(1, b"\x00" + frames)])
    body += pool(t["Thread"], [(1, utf8("main") + uv(4242) + utf8("main") + uv(1))])
    return event(1, body)


def chunk(meta, events, claimed=None, meta_last=False):
    """Header, events, then metadata: a chunk of version 2.0, compressed
    integers, ticks in ns."""
    body = b"".join(events)
    hdr_size = 68
    md = meta.encode()
    meta_off = hdr_size + len(body)
    size = claimed or hdr_size + len(body) + len(md)
    if meta_last and claimed:
        meta_off = claimed - len(md)
    cp_off = hdr_size  # the first checkpoint is the first event
    hdr = b"FLR\x00" + struct.pack(">HHQQQQQQQI", 2, 0, size, cp_off, meta_off, 1_700_000_000_000_000_000,
                                   1_000_000_000, 0, 1_000_000_000, 1)
    return hdr, body, md, meta_off


def cpu_event(t, time=1000):
    return event(t["cpu"], uv(time) + uv(1) + uv(1) + uv(0))


def write(path, parts):
    with open(path, "wb") as f:
        for off, data in parts:
            if off is not None:
                f.seek(off)
            f.write(data)


def valid(path):
    m = Meta()
    t = jdk_types(m)
    hdr, body, md, _ = chunk(m, [pools(t), cpu_event(t)])
    write(path, [(None, hdr + body + md)])


def nested(path, width=1000, depth=4):
    m = Meta()
    t = jdk_types(m)
    ids = [m.declare("Nest%d" % i) for i in range(depth + 1)]
    for i in range(depth):
        m.cls("Nest%d" % i, [("f%d" % j, ids[i + 1], False, False) for j in range(width)])
    m.cls("Nest%d" % depth)  # no fields: a value of it takes no byte
    hostile = m.cls("test.Nested", [("startTime", t["long"], False, False),
                                    ("sampledThread", t["Thread"], True, False),
                                    ("stackTrace", t["Stack"], True, False),
                                    ("nest", ids[0], False, False)], "jdk.jfr.Event")
    evs = [pools(t), cpu_event(t)] + [event(hostile, uv(1000) + uv(1) + uv(1)) for _ in range(10)]
    hdr, body, md, _ = chunk(m, evs)
    write(path, [(None, hdr + body + md)])


def samples(path, n=1000, claim=100000):
    m = Meta()
    t = jdk_types(m)
    evs = [pools(t)] + [event(t["wall"], uv(1000 + i) + uv(1) + uv(1) + uv(0) + uv(claim)) for i in range(n)]
    hdr, body, md, _ = chunk(m, evs)
    write(path, [(None, hdr + body + md)])


def sparse(path, gb=3):
    valid(path)
    with open(path, "r+b") as f:
        f.truncate(gb << 30)


def bigchunk(path, gb=3):
    m = Meta()
    t = jdk_types(m)
    size = gb << 30
    hdr, body, md, meta_off = chunk(m, [pools(t), cpu_event(t)], claimed=size, meta_last=True)
    write(path, [(None, hdr + body), (meta_off, md)])


def leafstacks(path, nframes=60000, nclasses=20000):
    m = Meta()
    t = jdk_types(m)
    alloc = m.cls("jdk.ObjectAllocationSample", [("startTime", t["long"], False, False),
                                                 ("eventThread", t["Thread"], True, False),
                                                 ("stackTrace", t["Stack"], True, False),
                                                 ("objectClass", t["Class"], True, False),
                                                 ("weight", t["long"], False, False)], "jdk.jfr.Event")

    def pool(cls, entries):
        return uv(cls) + uv(len(entries)) + b"".join(uv(k) + v for k, v in entries)

    body = uv(0) + uv(0) + uv(0) + b"\x01" + uv(6)
    body += pool(t["Symbol"], [(1, utf8("C")), (2, utf8("m")), (3, utf8("()V"))] +
                 [(k + 3, utf8("C%d" % k)) for k in range(1, nclasses + 1)])
    body += pool(t["Class"], [(k, uv(k + 3)) for k in range(1, nclasses + 1)])
    body += pool(t["Method"], [(1, uv(1) + uv(2) + uv(3))])
    body += pool(t["FrameType"], [(1, utf8("Interpreted"))])
    body += pool(t["Stack"], [(1, b"\x00" + uv(nframes) + (uv(1) + uv(1) + uv(1)) * nframes)])
    body += pool(t["Thread"], [(1, utf8("main") + uv(4242) + utf8("main") + uv(1))])
    evs = [event(1, body)] + [event(alloc, uv(1000) + uv(1) + uv(1) + uv(k) + uv(4096))
                              for k in range(1, nclasses + 1)]
    hdr, body, md, _ = chunk(m, evs)
    write(path, [(None, hdr + body + md)])


def cycle(path):
    m = Meta()
    t = jdk_types(m)
    ring = m.declare("Ring")
    m.cls("Ring", [("next", ring, False, False), ("b", m.cls("byte"), False, False)])
    ev = m.cls("test.Cycle", [("startTime", t["long"], False, False), ("stackTrace", t["Stack"], True, False),
                              ("ring", ring, False, False)], "jdk.jfr.Event")
    evs = [pools(t), cpu_event(t), event(ev, uv(1000) + uv(1) + b"\x01" * 64)]
    hdr, body, md, _ = chunk(m, evs)
    write(path, [(None, hdr + body + md)])


def main():
    kind, path = sys.argv[1], sys.argv[2]
    args = [int(a) for a in sys.argv[3:]]
    {"valid": valid, "nested": nested, "samples": samples, "sparse": sparse, "bigchunk": bigchunk,
     "leafstacks": leafstacks, "cycle": cycle}[kind](path, *args)


if __name__ == "__main__":
    main()
