#!/usr/bin/env bash
# Several targets in one recording (issue 26): two JVMs (JDK 17 and 25)
# and a native program running known CPU splits at once, recorded with
# -p A,B,C: each process's split attributed within 5 pp of its own truth,
# Java frames for both JVMs (each its own agent); a JVM whose agent cannot
# attach leaves the others theirs; -t of one thread records it alone.
# The targets run until they are killed (a loaded machine can take many
# seconds to start the next JVM); their truth is their timeline's over the
# window the recording covers.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

java_suite "several targets"
jdk_a=${JDKS[0]} jdk_b=${JDKS[${#JDKS[@]} - 1]}
echo "# JVMs: $(jdk_name "$jdk_a") and $(jdk_name "$jdk_b")"

start_jvm "$jdk_a" "$TMP/a.out" -Dtruth.every=50 -- Workload 300 2 || exit 0
A=$JPID AW=$JWAIT
start_jvm "$jdk_b" "$TMP/b.out" -Dtruth.every=50 -- Workload 300 2 || exit 0
B=$JPID BW=$JWAIT
start_prog "$TMP/c.out" "$PROGS/cpusplit" 300 2 50
C=$PID

"$PJ_BIN" record -p "$A,$B" -p "$C" -F 499 -d 4 -o "$TMP/m.data" 2>"$TMP/m.err"
check "record -p A,B -p C: exit 0" [ $? -eq 0 ]
check "... three processes, java frames on for both JVMs" \
	grep -q 'recording 3 processes (.*java frames on for 2 JVMs' "$TMP/m.err"
# (how the JVMs were walked: at the sample, on request, lost; for a split
# that misses its truth)
grep -E 'java walks|stacks walked|lost their walk|no Java frames' "$TMP/m.err" | sed 's/^/# /'
kill "$A" "$B" "$C" 2>/dev/null
wait "$AW" "$BW" "$C" 2>/dev/null
"$PJ_BIN" report -i "$TMP/m.data" --processes >"$TMP/m.txt"
check "the report's header names the three targets" \
	bash -c "grep -c '^Target  *: pid \($A\|$B\|$C\) ' '$TMP/m.txt' | grep -qx 3"
check "--processes: each process with its command line" \
	bash -c "grep -q '\[java pid=$A\]  .*Workload 300 2' '$TMP/m.txt' &&
		grep -q '\[java pid=$B\]  .*Workload 300 2' '$TMP/m.txt' &&
		grep -q '\[cpusplit pid=$C\]  .*cpusplit 300 2' '$TMP/m.txt'"
jvm_in_many "$jdk_a" "with two others" "$TMP/a.out" "$TMP/m.data" "$A"
jvm_in_many "$jdk_b" "with two others" "$TMP/b.out" "$TMP/m.data" "$B"
"$PJ_BIN" report -i "$TMP/m.data" --pid "$C" --format collapsed >"$TMP/c.folded"
native_split "cpusplit (pid $C, with two JVMs): " "$TMP/c.out" "$TMP/c.folded" 5 "$TMP/m.data"
check "no JVM's frame in the native process's stacks" \
	bash -c "! grep -q 'Workload\|_\[j\]' '$TMP/c.folded'"

# --- an agent that cannot attach leaves the other JVM its Java frames
start_jvm "$jdk_a" "$TMP/d.out" -XX:+DisableAttachMechanism -- Workload 300 1 || exit 0
D=$JPID DW=$JWAIT
start_jvm "$jdk_b" "$TMP/e.out" -- Workload 300 1 || exit 0
E=$JPID EW=$JWAIT
"$PJ_BIN" record -p "$D,$E" -d 1.5 -o "$TMP/de.data" 2>"$TMP/de.err"
check "a JVM refusing the agent: exit 0, said in one line" \
	bash -c "[ $? -eq 0 ] && grep -c 'java frames unavailable for one JVM: .*$D' '$TMP/de.err' | grep -qx 1"
"$PJ_BIN" report -i "$TMP/de.data" --pid "$E" --format collapsed >"$TMP/e.folded"
"$PJ_BIN" report -i "$TMP/de.data" --pid "$D" --format collapsed >"$TMP/d.folded"
check "... the other JVM has its Java frames" grep -q 'Workload\.method[ABC]_\[[j0i1]\]' "$TMP/e.folded"
check "... and the refusing one its native samples" test -s "$TMP/d.folded"
kill "$D" "$E" 2>/dev/null
wait "$DW" "$EW" 2>/dev/null

# --- -t: one thread alone, of a native program and of a JVM
start_prog "$TMP/t.out" "$PROGS/cpusplit" 300 2
T=$(ls "/proc/$PID/task" | grep -vx "$PID" | head -1)
"$PJ_BIN" record -q -t "$T" -d 1.5 -o "$TMP/t.data"
check "-t TID: exit 0" [ $? -eq 0 ]
"$PJ_BIN" report -i "$TMP/t.data" --format script >"$TMP/t.script"
tids=$(awk '/^[^\t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, a, "/"); print a[2] } }' \
	"$TMP/t.script" | sort -u | tr '\n' ' ')
check "-t TID: that thread's samples alone ($tids)" [ "$tids" = "$T " ]
kill "$PID" 2>/dev/null
start_jvm "$jdk_b" "$TMP/u.out" -- Workload 300 2 || exit 0
# (its workers are named once running: after its 'ready' on a busy machine)
wait_for 10 bash -c "grep -qx worker-0 /proc/$JPID/task/*/comm"
U=$(grep -lx 'worker-0' /proc/"$JPID"/task/*/comm | head -1 | cut -d/ -f5)
"$PJ_BIN" record -q -t "$U" -d 1.5 -o "$TMP/u.data"
"$PJ_BIN" report -i "$TMP/u.data" --threads --format collapsed >"$TMP/u.folded"
check "-t of a JVM's thread: its samples alone, with their Java frames" \
	bash -c "[ -s '$TMP/u.folded' ] && ! grep -qv '^\[worker-0 tid=$U\];' '$TMP/u.folded' &&
		grep -q 'Workload\.method[ABC]_\[[j0i1]\]' '$TMP/u.folded'"
check "-t: the header names the thread" \
	bash -c "'$PJ_BIN' report -i '$TMP/u.data' | grep -q '^Target  *: threads $U$'"
