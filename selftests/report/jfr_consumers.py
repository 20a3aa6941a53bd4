#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What test_jfr_consumers.sh asks of the JDK's jfr tool and of perfjava.

    jfr_consumers.py json [REGEX] < `jfr print --json` output
        "count TYPE N" per event type, "weight TYPE BYTES" (the allocation
        events' weight or allocationSize), "duration TYPE NS" (summed);
        with REGEX, "vthreads N VIRTUAL NAMED": of the jdk.ExecutionSample
        events with a frame whose "Class.method" matches REGEX, how many
        have a virtual sampled thread, and how many of those a Java name.
    jfr_consumers.py view < `jfr view` output
        its rows, one a line: the first column, a tab, the others (a
        column is two or more spaces apart).
    jfr_consumers.py top < collapsed stacks (perfjava, --raw-names; with
        --signatures, a method's overloads apart)
        "leaf NAME" and "site NAME": the leaf frame, and the frame below
        it, that weigh the most (type suffixes dropped).
    jfr_consumers.py monitor < `perfjava report --format script --event lock`
        "monitor CLASS SITE NS": the longest wait that did not park (no
        LockSupport.park, Unsafe.park or VirtualThread.park in its stack):
        its class, the frame below it and its length; "monitors N".
"""
import json
import re
import signal
import sys

SUFFIX = re.compile(r"_\[[ji01k]\]$")


def ns(iso):
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?", iso)
    if not m:
        return 0
    h, mi, s, frac = m.groups()
    frac = (frac or "").ljust(9, "0")[:9]
    return ((int(h or 0) * 60 + int(mi or 0)) * 60 + int(s or 0)) * 10**9 + int(frac)


def name(m):
    cls = ((m.get("type") or {}).get("name") or "").replace("/", ".")
    return (cls + "." if cls else "") + (m.get("name") or "")


def cmd_json(args):
    want = re.compile(args[0]) if args else None
    count, weight, dur = {}, {}, {}
    vt = [0, 0, 0]
    for e in json.load(sys.stdin)["recording"]["events"]:
        t, v = e["type"], e["values"]
        count[t] = count.get(t, 0) + 1
        for f in ("weight", "allocationSize"):
            if f in v:
                weight[t] = weight.get(t, 0) + int(v[f])
                break
        if isinstance(v.get("duration"), str):
            dur[t] = dur.get(t, 0) + ns(v["duration"])
        if want and t == "jdk.ExecutionSample":
            frames = (v.get("stackTrace") or {}).get("frames") or []
            if any(want.search(name(f["method"])) for f in frames):
                th = v.get("sampledThread") or {}
                vt[0] += 1
                if th.get("virtual"):
                    vt[1] += 1
                    vt[2] += bool(th.get("javaName"))
    for t in sorted(count):
        print("count", t, count[t])
    for t in sorted(weight):
        print("weight", t, weight[t])
    for t in sorted(dur):
        print("duration", t, dur[t])
    if want:
        print("vthreads", *vt)


def cmd_view(args):
    rows = False
    for line in sys.stdin:
        line = line.rstrip("\n")
        if re.fullmatch(r"-+( -+)*", line.strip()):
            rows = True
            continue
        if not rows or not line.strip():
            continue
        cols = re.split(r"\s{2,}", line.strip())
        print(cols[0] + "\t" + " ".join(cols[1:]))


def cmd_top(args):
    leaf, site = {}, {}
    for line in sys.stdin:
        line = line.rstrip("\n")
        if " " not in line:
            continue
        stack, n = line.rsplit(" ", 1)
        frames = [SUFFIX.sub("", f) for f in stack.split(";")]
        leaf[frames[-1]] = leaf.get(frames[-1], 0) + int(n)
        if len(frames) > 1:
            site[frames[-2]] = site.get(frames[-2], 0) + int(n)
    if leaf:
        print("leaf", max(leaf, key=leaf.get))
    if site:
        print("site", max(site, key=site.get))


def cmd_monitor(args):
    best, n, cur = None, 0, None

    def end():
        nonlocal best, n
        if cur and len(cur[1]) > 1 and not any(
                re.search(r"LockSupport\.park|Unsafe\.park|VirtualThread\.park", f)
                for f in cur[1]):
            n += 1
            if not best or cur[0] > best[0]:
                best = (cur[0], cur[1][0], cur[1][1])

    for line in sys.stdin:
        m = re.search(r": (\d+) lock:$", line.rstrip("\n"))
        if m:
            end()
            cur = (int(m.group(1)), [])
        elif line.startswith("\t") and cur:
            f = line.split(None, 1)[1].rsplit(" (", 1)[0]
            cur[1].append(f)
    end()
    if best:
        print("monitor", best[1], best[2], best[0])
    print("monitors", n)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head: no traceback
    {"json": cmd_json, "view": cmd_view, "top": cmd_top,
     "monitor": cmd_monitor}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
