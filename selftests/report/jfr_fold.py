#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Collapsed stacks as async-profiler's converter (jfrconv) prints them.

perfjava's collapsed output gives each frame its own type suffix; jfrconv
merges a Java method's interpreted, C1, inlined and JIT frames of the same
call path into one node and names its type by majority (inlined if a third
or more of its samples, else C1 or interpreted if half or more, else JIT).
This applies that rule to perfjava's output (stdin), so that the two can be
compared line by line; both sides are printed sorted. A native frame's
parameter lists are dropped on both sides as perfjava's reports drop
C++ parameter lists ("I2C/C2I adapters(0xb)" is "I2C/C2I adapters",
"f()::Local::g(int)" is "f::Local::g"); jfrconv prints names as
async-profiler wrote them.

    jfr_fold.py < perfjava.collapsed    # perfjava's, folded as jfrconv does
    jfr_fold.py < jfrconv.txt           # jfrconv's own: the same, sorted
    jfr_fold.py --class-leaf < F        # allocations, locks: the leaf is
                                        # the class, its suffix dropped

jfrconv marks the class allocated or locked, the leaf of --alloc and --lock
stacks, as an inlined frame (_[i]: in a new TLAB, or a lock) or a kernel
one (_[k]: outside a TLAB); perfjava names it a class, without a suffix.
"""
import re
import sys

SUFFIX = {"_[j]": "j", "_[i]": "i", "_[0]": "0", "_[1]": "1", "_[k]": "k"}


def drop_params(name):
    """A C++ name's parameter lists dropped as perfjava's reports drop them
    (user/report/shape.c): the last one and every one followed by "::"
    (f()::Local::g(int) is f::Local::g); what is inside <> or {},
    "(anonymous namespace)" and operator() stay."""
    out, i, depth = [], 0, 0
    while i < len(name):
        c = name[i]
        if c in "<{":
            depth += 1
        elif c in ">}" and depth:
            depth -= 1
        if c != "(" or depth:
            out.append(c)
            i += 1
            continue
        if name.startswith("(anonymous namespace)", i):
            out.append("(anonymous namespace)")
            i += len("(anonymous namespace)")
            continue
        if "".join(out[-8:]) == "operator" and name.startswith("()", i):
            out.append("()")
            i += 2
            continue
        level, j = 0, i
        while j < len(name):
            level += {"(": 1, ")": -1}.get(name[j], 0)
            if not level:
                break
            j += 1
        if j == len(name):
            break
        i = j + 1
        if not name.startswith("::", i):
            break
    return "".join(out)


def split(frame):
    for sfx, t in SUFFIX.items():
        if frame.endswith(sfx):
            return frame[: -len(sfx)], t
    return drop_params(frame), ""


class Node:
    __slots__ = ("kids", "total", "self", "inl", "c1", "interp", "kind")

    def __init__(self, kind):
        self.kids = {}
        self.total = self.self = self.inl = self.c1 = self.interp = 0
        self.kind = kind

    def suffix(self):
        if self.inl * 3 >= self.total and self.inl:
            return "_[i]"
        if self.c1 * 2 >= self.total and self.c1:
            return "_[1]"
        if self.interp * 2 >= self.total and self.interp:
            return "_[0]"
        return {"j": "_[j]", "k": "_[k]"}.get(self.kind, "")


def fold(lines, class_leaf=False):
    root = Node("")
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        n = int(count)
        node = root
        frames = stack.split(";")
        if class_leaf:
            frames[-1] = re.sub(r"_\[[ik]\]$", "", frames[-1])
        for i, frame in enumerate(frames):
            if class_leaf and i == len(frames) - 1:
                node.total += n
                node = node.kids.setdefault((frame, "c"), Node("c"))
                continue
            title, t = split(frame)
            kind = "j" if t in ("j", "i", "0", "1") else t
            node.total += n
            node = node.kids.setdefault((title, kind), Node(kind))
            if t == "i":
                node.inl += n
            elif t == "1":
                node.c1 += n
            elif t == "0":
                node.interp += n
        node.total += n
        node.self += n
    out = []

    def walk(node, path):
        for (title, _), kid in node.kids.items():
            p = path + [title + kid.suffix()]
            if kid.self:
                out.append(";".join(p) + " " + str(kid.self))
            walk(kid, p)

    walk(root, [])
    return out


def main():
    lines = sys.stdin.readlines()
    # jfrconv's own output folds to itself: its frames already carry the
    # type of their node
    out = fold(lines, "--class-leaf" in sys.argv[1:])
    for l in sorted(out):
        print(l)


if __name__ == "__main__":
    main()
