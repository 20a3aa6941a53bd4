#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""How close two collapsed profiles of one JFR file are: async-profiler's
converter's (jfrconv) and perfjava's, both folded as jfrconv folds
(selftests/report/jfr_fold.py). One line:

    stacks A/B equal (P% of stacks, Q% of samples); max per-method
    difference D pp (METHOD); totals X and Y

"stacks equal": lines with the same stack and count in both (of the
union); "% of samples": the sum over stacks of the smaller count, of the
larger total. A method's share is the part of all samples whose stack
holds it (inclusive); the line gives the largest difference of a method's
share between the two, in percentage points.

    jfr_compare.py [--class-leaf] JFRCONV.collapsed PERFJAVA.collapsed
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jfr_fold import fold  # noqa: E402


def load(path, class_leaf):
    with open(path) as f:
        out = {}
        for line in fold(f.readlines(), class_leaf):
            stack, n = line.rsplit(" ", 1)
            out[stack] = out.get(stack, 0) + int(n)
        return out


def shares(stacks):
    total = sum(stacks.values()) or 1
    incl = {}
    for stack, n in stacks.items():
        for m in set(re.sub(r"_\[[0-9a-z]\]$", "", f) for f in stack.split(";")):
            incl[m] = incl.get(m, 0) + n
    return {m: 100.0 * n / total for m, n in incl.items()}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    class_leaf = "--class-leaf" in sys.argv
    a, b = load(args[0], class_leaf), load(args[1], class_leaf)
    keys = set(a) | set(b)
    equal = sum(1 for k in keys if a.get(k) == b.get(k))
    ta, tb = sum(a.values()), sum(b.values())
    common = sum(min(a.get(k, 0), b.get(k, 0)) for k in keys)
    sa, sb = shares(a), shares(b)
    worst, method = 0.0, "-"
    for m in set(sa) | set(sb):
        d = abs(sa.get(m, 0.0) - sb.get(m, 0.0))
        if d > worst:
            worst, method = d, m
    print("stacks %d/%d equal (%.1f%% of stacks, %.1f%% of samples); "
          "max per-method difference %.2f pp (%s); totals %d and %d"
          % (equal, len(keys), 100.0 * equal / max(len(keys), 1),
             100.0 * common / max(ta, tb, 1), worst, method[:80], ta, tb))


if __name__ == "__main__":
    main()
