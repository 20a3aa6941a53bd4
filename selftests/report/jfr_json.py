#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The events of one type of `jfr print --json` (stdin) as collapsed stacks,
printed as selftests/java/src/JfrRead.java prints them from the consumer
API (see there): "[thread tid=N];root;...;leaf COUNT", sorted; "events N"
on stderr.

    jfr print --json --stack-depth 100000 F.jfr | jfr_json.py EVENT [time]
"""
import json
import re
import sys

SUFFIX = {"Interpreted": "_[0]", "JIT compiled": "_[j]", "Inlined": "_[i]",
          "C1 compiled": "_[1]", "Kernel": "_[k]"}


def ns(iso):
    """An ISO-8601 duration as jfr prints it (PT1M2.003S) in ns."""
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?", iso)
    if not m:
        raise ValueError(iso)
    h, mi, s, frac = m.groups()
    frac = (frac or "").ljust(9, "0")[:9]
    return ((int(h or 0) * 60 + int(mi or 0)) * 60 + int(s or 0)) * 10**9 + int(frac)


def frame(f):
    m = f["method"]
    cls, d = (m["type"]["name"] or "").replace("/", "."), m["descriptor"] or ""
    native = not cls or d in ("()L;", "(Lk;)L;")
    s = (m["name"] if native else cls + "." + m["name"]).replace(";", ",")
    if not native and m.get("modifiers", 0) & 0x100:
        return s  # a Java method declared native (async-profiler: JIT)
    return s + SUFFIX.get(f["type"], "")


def main():
    want, time = sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "time"
    out, n = {}, 0
    for e in json.load(sys.stdin)["recording"]["events"]:
        if e["type"] != want:
            continue
        n += 1
        v = e["values"]
        t = v["sampledThread"]
        name = t.get("javaName") or t.get("osName") or ""
        line = "[%s tid=%d]" % (name, t["osThreadId"]) if name else "[tid=%d]" % t["osThreadId"]
        frames = v["stackTrace"]["frames"]
        line += "".join(";" + frame(f) for f in reversed(frames))
        out[line] = out.get(line, 0) + (ns(v["timeSpan"]) if time else 1)
    for line in sorted(out):
        print(line, out[line])
    print("events", n, file=sys.stderr)


if __name__ == "__main__":
    main()
