#!/usr/bin/env bash
# The include rule of ARCHITECTURE.md ("Folders"), as selftests/docs/
# layers.txt states it: each #include of user/ and agent/ stays within the
# folders its own may use (no include running back up, none without its
# folder), the rule itself runs one way, and no files of user/ call each
# other in a circle (read from the built objects with nm: A calls B when A
# uses a symbol that B alone defines). The debts layers.txt lists are
# allowed while they last; one that is gone fails, to be struck from it.
set -u
top=${PJ_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${PJ_BUILD:-$top/build}
if ! command -v python3 >/dev/null; then
	echo "ok 1 - include rules # SKIP python3 is missing"
	exit 0
fi
exec python3 - "$top" "$build" <<'PY'
import os, re, subprocess, sys

top, build = sys.argv[1], sys.argv[2]
rules_path = "selftests/docs/layers.txt"
n = fails = 0

def tap(ok, desc, why=()):
    global n, fails
    n += 1
    if not ok:
        fails += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, desc))
    for w in why:
        print("#   " + w)

# --- the rules
rules, exceptions, circles = {}, set(), []
for lineno, line in enumerate(open(os.path.join(top, rules_path)), 1):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    w = line.split()
    if w[0] == "exception" and len(w) == 3:
        exceptions.add((w[1], w[2]))
    elif w[0] == "circle" and len(w) >= 3:
        circles.append(frozenset(w[1:]))
    elif w[0].endswith(":"):
        rules[w[0][:-1]] = set(w[1:])
    else:
        tap(False, "%s:%d reads as a rule" % (rules_path, lineno), [line])

def folder_of(path):
    """The rule's name of a source file's folder, or None."""
    parts = path.split("/")
    if parts[0] == "user":
        return "main" if len(parts) == 2 else parts[1]
    if parts[0] == "agent" and len(parts) == 2:
        return "agent"
    return None

# every folder of user/ has a rule, every rule a folder
folders = {d for d in os.listdir(os.path.join(top, "user"))
           if os.path.isdir(os.path.join(top, "user", d))
           and any(f.endswith((".c", ".h")) for f in os.listdir(os.path.join(top, "user", d)))}
known = folders | {"main", "perfjava", "agent"}
tap(folders <= set(rules), "every folder of user/ has its line in " + rules_path,
    ["no line: user/%s/" % d for d in sorted(folders - set(rules))])
stale = [r for r in rules if r not in known] + \
    [u for r in rules for u in rules[r] if u not in known]
tap(not stale, "every folder " + rules_path + " names exists",
    ["no such folder: %s" % s for s in sorted(set(stale))])

# the rule runs one way: no circle among the folders
def find_cycle(graph):
    state, path = {}, []
    def visit(v):
        state[v] = 1
        path.append(v)
        for w in sorted(graph.get(v, ())):
            if w == v:
                continue
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                c = visit(w)
                if c:
                    return c
        path.pop()
        state[v] = 2
        return None
    for v in sorted(graph):
        if v not in state:
            c = visit(v)
            if c:
                return c
    return None
cyc = find_cycle(rules)
tap(cyc is None, "the rule runs one way (no circle among the folders)",
    [" -> ".join(cyc)] if cyc else [])

# --- the includes
inc_re = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<(perfjava/[^>]+)>)')
bad, used_exc, bare = [], set(), []
sources = []
for d in ["user", "agent"]:
    for root, _, files in os.walk(os.path.join(top, d)):
        for f in files:
            if f.endswith((".c", ".h")):
                sources.append(os.path.relpath(os.path.join(root, f), top))
for src in sorted(sources):
    me = folder_of(src)
    if me is None:
        continue
    for i, line in enumerate(open(os.path.join(top, src), errors="replace"), 1):
        m = inc_re.match(line)
        if not m:
            continue
        inc = m.group(1) or m.group(2)
        if "/" not in inc:
            # agent/ names its own headers bare (-Iagent); user/ names the folder
            if me != "agent":
                bare.append("%s:%d: #include \"%s\" (name its folder)" % (src, i, inc))
            continue
        to = inc.split("/")[0]
        if to == me or to in rules.get(me, ()):
            continue
        if (src, to) in exceptions:
            used_exc.add((src, to))
            continue
        bad.append("%s:%d: %s includes %s (%s may use: %s)" %
                   (src, i, me, inc, me, " ".join(sorted(rules.get(me, ()))) or "nothing"))
tap(not bare, "each include of user/ names its folder", bare)
tap(not bad, "no include runs against " + rules_path + " (back up, or sideways)", bad)
gone = sorted(exceptions - used_exc)
tap(not gone, "each exception in " + rules_path + " is still there",
    ["undone, strike it: exception %s %s" % e for e in gone])

# --- circles of files calling each other, from the objects
objs = {}
for src in sources:
    if src.startswith("user/") and src.endswith(".c"):
        o = os.path.join(build, src[:-2] + ".o")
        if os.path.exists(o):
            objs[src] = o
missing = [s for s in sources if s.startswith("user/") and s.endswith(".c") and s not in objs]
if missing or not objs:
    tap(True, "no circle of files calling each other # SKIP not built (make): %s"
        % (missing[0] if missing else "no objects in " + build))
else:
    try:
        out = subprocess.run(["nm", "-f", "posix"] + list(objs.values()),
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        out = None
        tap(True, "no circle of files calling each other # SKIP nm: %s" % e)
    if out is not None:
        by_obj = {o: s for s, o in objs.items()}
        defs, uses, cur = {}, {}, None
        for line in out.splitlines():
            if line.endswith(":") and line[:-1] in by_obj:
                cur = by_obj[line[:-1]]
                continue
            w = line.split()
            if cur is None or len(w) < 2:
                continue
            if w[1] == "U":
                uses.setdefault(cur, set()).add(w[0])
            elif w[1] in "TDBRVWGSC" and w[1] != "":
                defs.setdefault(w[0], set()).add(cur)
        graph = {s: set() for s in objs}
        for s, names in uses.items():
            for name in names:
                d = defs.get(name, ())
                if len(d) == 1 and s not in d:
                    graph[s] |= d
        # strongly connected components (Tarjan, iterative)
        index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
        for root in sorted(graph):
            if root in index:
                continue
            work = [(root, iter(sorted(graph[root])))]
            index[root] = low[root] = counter[0]; counter[0] += 1
            stack.append(root); on.add(root)
            while work:
                v, it = work[-1]
                w = next(it, None)
                if w is not None:
                    if w not in index:
                        index[w] = low[w] = counter[0]; counter[0] += 1
                        stack.append(w); on.add(w)
                        work.append((w, iter(sorted(graph[w]))))
                    elif w in on:
                        low[v] = min(low[v], index[w])
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop(); on.discard(w); comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        comps.append(frozenset(comp))
        new = [c for c in comps if c not in circles]
        why = []
        for c in new:
            why.append("circle: " + " ".join(sorted(c)))
            for a in sorted(c):
                for b in sorted(graph[a] & c):
                    names = sorted(x for x in uses.get(a, ()) if defs.get(x) == {b})
                    why.append("  %s -> %s: %s" % (a, b, ", ".join(names[:6])))
        tap(not new, "no circle of files calling each other but those %s lists" % rules_path, why)
        gone = [c for c in circles if c not in comps]
        tap(not gone, "each circle in " + rules_path + " is still there (whole)",
            ["undone or changed, strike or fix it: circle " + " ".join(sorted(c)) for c in gone])
print("1..%d" % n)
sys.exit(1 if fails else 0)
PY
