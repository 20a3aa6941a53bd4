#!/bin/bash
# A JVM whose JDK was removed under it (libjvm.so "(deleted)" in its maps,
# as after a JDK upgrade) is still a JVM, with symbols from map_files; a
# second recorder on a JVM that is being recorded says who has the agent and
# never takes it away from the first; attaching prints nothing into the
# JVM's output (JDK 21+ warns of dynamically loaded agents, agent/quiet.c).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "attach cases"

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"

	# --- a copy of the JDK, deleted once its JVM runs. Hard links when
	# on the same file system (no 300 MB copy), a copy otherwise.
	C=$D/jdk-copy
	mkdir -p "$C"
	for part in bin lib conf release; do
		[ -e "$jdk/$part" ] || continue
		cp -al "$jdk/$part" "$C/" 2>/dev/null || cp -a "$jdk/$part" "$C/"
	done
	touch "$D/d.go"
	start_jvm "$C" "$D/d.out" -- Workload 300 1 "$D/d.go" ticks # (killed below)
	# its worker computing (the libraries it needs loaded) before the JDK
	# goes: it says ready before it starts its worker, and beside another
	# make check the rm came first
	worked "$D/d.out" "$JPID" 50 || echo "# $J: the copied JDK's JVM did no work in 120 s"
	rm -rf "$C"
	check "$J: the copied JDK's libjvm.so shows as deleted" \
		grep -q 'libjvm.so (deleted)' "/proc/$JPID/maps"
	"$PJ_BIN" record -p "$JPID" -d 1.5 --native-base -o "$D/d.data" 2>"$D/d.err"
	check "$J: deleted JDK: record exits 0" [ $? -eq 0 ] ||
		{ sed 's/^/# /' "$D/d.err"; tail -n 5 "$D/d.out.err" | sed 's/^/# the JVM: /'; }
	check "$J: deleted JDK: still a JVM, java frames on" grep -q 'java frames on' "$D/d.err"
	"$PJ_BIN" report -i "$D/d.data" --format collapsed >"$D/d.folded"
	check "$J: deleted JDK: Java frames" grep -q 'Workload.method[ABC]_\[[j0i]\]' "$D/d.folded"
	check "$J: deleted JDK: libjvm symbols read through map_files" \
		grep -q 'JavaCalls::call_helper' "$D/d.folded"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null

	# --- a second recorder while the first records
	start_jvm "$jdk" "$D/s.out" -- Workload 300 1 # (killed below)
	"$PJ_BIN" record -p "$JPID" -d 4 -o "$D/s1.data" 2>"$D/s1.err" &
	first=$!
	track $first
	wait_for 30 grep -q 'recording' "$D/s1.err"
	"$PJ_BIN" record -p "$JPID" -d 1 -o "$D/s2.data" 2>"$D/s2.err"
	if check "$J: second recorder: names the first one's pid in one line" \
		grep -q "being recorded by another perfjava (pid $first" "$D/s2.err"; then
		grep 'being recorded' "$D/s2.err" | sed 's/^/# /'
	else # what each said, the first one so far
		sed 's/^/# second: /' "$D/s2.err"
		sed 's/^/# first: /' "$D/s1.err"
	fi
	check "$J: second recorder: says nothing more of Java walks" \
		bash -c "! grep -Eq 'java: [0-9]+ stacks walked|java walks at the sample' '$D/s2.err'"
	wait "$first"
	check "$J: second recorder: the first one exits 0" [ $? -eq 0 ]
	check "$J: second recorder: the first one kept its agent" \
		bash -c "! grep -q 'agent disconnected' '$D/s1.err'"
	"$PJ_BIN" report -i "$D/s1.data" --format meta >"$D/s1.meta"
	lost=$(awk '$2 == "walk_lost" { print $3 }' "$D/s1.meta")
	check "$J: second recorder: no walk of the first one lost (${lost:-?})" [ "${lost:-1}" -eq 0 ]
	"$PJ_BIN" report -i "$D/s1.data" --format collapsed >"$D/s1.folded"
	check "$J: second recorder: the first one has Java frames" \
		grep -q 'Workload.method[ABC]_\[[j0i]\]' "$D/s1.folded"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null

	# --- quiet attach: nothing of ours in the application's output (JDK
	# 21+ prints its dynamic-agent warning unless the flag says a tool
	# was meant to attach: the agent says so for its own load)
	# (it works until told to end, after them: a loaded machine attaches slowly)
	start_jvm "$jdk" "$D/q.out" -Dstop.file="$D/q.stop" -- Workload 300 1
	for i in 1 2; do
		"$PJ_BIN" record -q -p "$JPID" -d 0.5 -o "$D/q$i.data" 2>"$D/q$i.err"
	done
	"$jdk/bin/jcmd" "$JPID" VM.flags -all >"$D/q.flags" 2>&1
	touch "$D/q.stop"
	wait "$JWAIT"
	sed 's/^/# stderr: /' "$D/q.out.err" | head -5
	check "$J: quiet attach: two attaches print nothing on the JVM's stderr" \
		[ ! -s "$D/q.out.err" ]
	extra=$(grep -vcE '^(ready [0-9]+|truth Workload\.method[ABC] [0-9.]+|ops [0-9]+)$' "$D/q.out")
	check "$J: quiet attach: ... nor on its stdout ($extra extra lines)" [ "$extra" -eq 0 ]
	check "$J: quiet attach: EnableDynamicAgentLoading keeps its value and origin" \
		grep -qE 'bool EnableDynamicAgentLoading += true .*\{default\}' "$D/q.flags"
done
exit 0
