#!/usr/bin/env bash
# make demo: profile a bundled program for a few seconds and write reports.
# The Java workload when a JDK is installed (Java frames through the agent),
# the native one otherwise.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=$build/demo
bin=$build/perfjava
mkdir -p "$out"
jdk=""
for j in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/default-java; do
	[ -x "$j/bin/javac" ] && { jdk=$j; break; }
done

if [ -n "$jdk" ]; then
	mkdir -p "$build/java-classes"
	"$jdk/bin/javac" --release 17 -d "$build/java-classes" "$top"/selftests/java/src/Workload.java "$top"/selftests/java/src/Truth.java
	"$jdk/bin/java" -cp "$build/java-classes" Workload 6 2 >"$out/program.out" 2>"$out/program.err" &
	what="the Java program Workload ($jdk)"
else
	"$build/progs/cpusplit" 6 2 >"$out/program.out" &
	what="the native program cpusplit (no JDK found)"
fi
child=$!
trap 'kill $child 2>/dev/null || true' EXIT
for _ in $(seq 200); do grep -q '^ready' "$out/program.out" && break; sleep 0.05; done
pid=$(awk '/^ready/ { print $2; exit }' "$out/program.out")
echo "demo: profiling $what, pid $pid, for 3 s"
"$bin" record -p "$pid" -d 3 -o "$out/demo.data"
"$bin" report -i "$out/demo.data" -o "$out/report.txt"
"$bin" report -i "$out/demo.data" --format collapsed -o "$out/demo.collapsed"
if "$bin" report -i "$out/demo.data" -o "$out/flame.html" 2>/dev/null; then
	flame="$out/flame.html, "
else
	flame=""
fi
wait $child || true
echo
sed -n '1,60p' "$out/report.txt"
echo "..."
echo
echo "demo: the program's own measurement of its CPU split (thread CPU clock):"
grep '^truth' "$out/program.out"
echo "demo: wrote $out/demo.data, $out/report.txt, ${flame}$out/demo.collapsed"
