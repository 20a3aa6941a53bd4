#!/usr/bin/env bash
# perfjava next to the JVM's own SIGPROF user (an application handler, or a
# profiler such as async-profiler): while perfjava records at 1 ms and walks
# Java stacks, every SIGPROF sent to the JVM still reaches the handler that
# was there before, and the recording has Java frames. (The agent signals
# with a real-time signal of its own, never SIGPROF.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "coexistence with a SIGPROF handler"

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	start_jvm "$jdk" "$D/p.out" -- ProfSignal 20
	if [ -z "$JPID" ]; then
		not_ok "$J: the SIGPROF JVM starts"
		continue
	fi
	"$PJ_BIN" record -p "$JPID" -c 1000000 -d 30 -o "$D/p.data" 2>"$D/p.err" &
	rec=$!
	track $rec
	wait_for 15 grep -q 'java frames on' "$D/p.err"
	got=0
	for i in $(seq 20); do
		kill -PROF "$JPID" 2>/dev/null || break
		wait_for 5 grep -qx "prof $i" "$D/p.out" || break
		got=$i
	done
	check "$J: 20 SIGPROFs sent while recording reach the JVM's handler ($got/20)" [ "$got" -eq 20 ]
	kill -INT "$rec" 2>/dev/null
	wait "$rec"
	check "$J: record exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/p.err"
	"$PJ_BIN" report -i "$D/p.data" --format collapsed >"$D/p.folded"
	check "$J: the recording has Java frames of the busy thread" grep -q 'ProfSignal' "$D/p.folded"
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true
done
