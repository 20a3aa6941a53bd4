#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Two collapsed profiles compared method by method.

Each method's share of its profile's weight (the stacks it is in, once
per stack, over the total), from frame names without their type suffix
(_[j], _[i], _[0], _[1], _[k]), without a native frame's trailing
parameter list or a trailing '.' (an unknown method), so that perfjava's collapsed output (--raw-names) and
async-profiler's converter's (jfrconv --dot) name methods alike.

    jfr_methods.py A B [N]

prints "MAXDIFF METHOD SHARE_A SHARE_B" (percentage points, the method
whose shares differ most), then the N (default 0) largest methods of A
with both shares. "MAXDIFF" is 100 when one of them is empty.
"""
import re
import sys

SUFFIX = re.compile(r"_\[[ji01k]\]$")


def method(frame):
    frame = SUFFIX.sub("", frame)
    # a Java frame of an unknown method: perfjava "[unknown class].", the
    # converter its class alone
    return re.sub(r"\([^()]*\)$", "", frame).rstrip(".")


def shares(path):
    total, incl = 0, {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or " " not in line:
                continue
            stack, count = line.rsplit(" ", 1)
            try:
                n = int(count)
            except ValueError:
                continue
            total += n
            for m in {method(fr) for fr in stack.split(";")}:
                incl[m] = incl.get(m, 0) + n
    return {m: 100.0 * v / total for m, v in incl.items()} if total else {}


def main():
    a, b = shares(sys.argv[1]), shares(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    if not a or not b:
        print("100 - %d %d" % (len(a), len(b)))
        return
    worst = max(set(a) | set(b), key=lambda m: abs(a.get(m, 0) - b.get(m, 0)))
    print("%.2f %s %.2f %.2f" % (abs(a.get(worst, 0) - b.get(worst, 0)),
                                 worst.replace(" ", "_"), a.get(worst, 0),
                                 b.get(worst, 0)))
    for m in sorted(a, key=lambda m: -a[m])[:top]:
        print("  %6.2f %6.2f %s" % (a[m], b.get(m, 0), m))


if __name__ == "__main__":
    main()
