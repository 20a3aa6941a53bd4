#!/usr/bin/env bash
# make demo: profile a bundled program for a few seconds and write reports.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$build/demo
mkdir -p "$out"
bin=$build/perfjava

"$build/progs/cpusplit" 6 2 >"$out/program.out" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q '^ready' "$out/program.out" && break; sleep 0.05; done
echo "demo: profiling the native program cpusplit (pid $pid) for 3 s"
"$bin" record -p "$pid" -d 3 -o "$out/demo.data"
"$bin" report -i "$out/demo.data" -o "$out/report.txt"
"$bin" report -i "$out/demo.data" --format collapsed -o "$out/demo.collapsed"
wait $pid || true
echo
head -n 40 "$out/report.txt"
echo "..."
echo
echo "demo: the program's own measurement of its CPU split:"
grep '^truth' "$out/program.out"
echo "demo: written $out/demo.data, $out/report.txt, $out/demo.collapsed"
