#!/usr/bin/env bash
# perfjava next to the JVM's own SIGPROF user (an application handler, or a
# profiler such as async-profiler): while perfjava records at 1 ms and walks
# Java stacks, every SIGPROF sent to the JVM still reaches the handler that
# was there before, and the recording has Java frames. (The agent signals
# with SIGTRAP from the perf event or a real-time signal of its own, never
# SIGPROF.) And async-profiler 4.5 in the same JVM at the same time: neither
# loses its samples, perfjava's walks come whole even when its signal lands
# in async-profiler's handler.
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

	# --- async-profiler in the same JVM at the same time, both at 1 ms:
	# perfjava's signal may come while async-profiler's handler runs on
	# the thread (and the reverse); the walk is taken from the Java code
	# under that handler, not lost. A 300-frame stack, whose walk keeps
	# async-profiler's handler longest (without the agent's look under a
	# handler, 0.7-0.9% of the samples were lost here)
	if [ -z "${ASPROF:-}" ] && ! asprof_build; then
		skip "$J: async-profiler in the same JVM" "$ASPROF_WHY"
		continue
	fi
	start_jvm "$jdk" "$D/a.out" -- Recurse 15 300
	"$ASPROF" start -e cpu -i 1ms "$JPID" >"$D/ap.err" 2>&1
	"$PJ_BIN" record -p "$JPID" -c 1000000 -d 5 -o "$D/a.data" 2>"$D/a.err"
	"$ASPROF" stop -o collapsed -f "$D/ap.folded" "$JPID" >>"$D/ap.err" 2>&1
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null
	"$PJ_BIN" report -i "$D/a.data" --format collapsed >"$D/a.folded"
	read -r total lost <<<"$(awk '{ t += $NF; if ($0 ~ /\[java: not walkable\]/) m += $NF } END { print t + 0, m + 0 }' "$D/a.folded")"
	apn=$(awk '{ t += $NF } END { print t + 0 }' "$D/ap.folded" 2>/dev/null)
	grep -oE '\[java: [^]]*\]' "$D/a.folded" | sort | uniq -c | sed 's/^/# /'
	check "$J: with async-profiler at 1 ms too: [java: not walkable] on <= 0.5% of perfjava's samples ($lost of $total)" \
		awk -v t="$total" -v m="$lost" 'BEGIN { exit !(t >= 500 && m * 200 <= t) }'
	check "$J: ... and async-profiler still samples the JVM (${apn:-0} samples)" [ "${apn:-0}" -ge 1000 ]
done
