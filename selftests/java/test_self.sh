#!/usr/bin/env bash
# perfjava never in its own profile (issue 47): in a JVM with many threads,
# contention and allocations (LockIdle.java), the agent's thread
# (perfjava-agent) and the agent's code on the application's threads
# ([perfjava: ...] markers) are at most 1% of a -e cpu-clock,alloc (each
# event), a --wall and a -e lock profile, and of the JFR file made from
# the wall one (read by the JDK's own jfr); the summary still gives
# perfjava's share of the CPU samples. --self keeps them: the agent's
# thread is there in --wall (it waits all along). JDK 17 and 25.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "perfjava out of its own profiles"

# own_share FOLDED: the percentage of the weight (collapsed --threads
# --total) on perfjava's thread or under a [perfjava: ...] marker
own_share() {
	awk '{ n = $NF; t += n; if ($0 ~ /^\[perfjava-agent |\[perfjava: /) m += n }
		END { printf "%.2f\n", t ? 100 * m / t : 0 }' "$1"
}

# check_own LABEL DATA [EVENT]: perfjava's share <= 1% of DATA (of EVENT)
check_own() {
	local label=$1 data=$2 ev=${3:-} f=$TMP/own.$RANDOM share n
	"$PJ_BIN" report -i "$data" ${ev:+--event "$ev"} --threads --total \
		--format collapsed >"$f" 2>/dev/null
	share=$(own_share "$f")
	n=$(awk '{ n += $NF } END { print n + 0 }' "$f")
	check "$label: perfjava's own threads and code <= 1% of it ($share% of $n)" \
		awk -v p="$share" -v n="$n" 'BEGIN { exit !(n > 0 && p <= 1) }'
}

# The four recordings back to back, then the JVM ended before their
# reports and the JDK's jfr: its contention spins on every core, and
# nothing after the recordings needs it. Seconds each: enough for
# hundreds of CPU samples and thousands of waits and lock events; what
# the agent leaks would be a share, not a count.
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	start_jvm "$jdk" "$D/w.out" -- LockIdle 4 120000
	if [ -z "$JPID" ]; then
		not_ok "$J: the JVM starts"
		continue
	fi
	"$PJ_BIN" record -p "$JPID" -e cpu-clock,alloc -c 1ms -d 2 -o "$D/ca.data" 2>"$D/ca.err"
	rc_ca=$?
	"$PJ_BIN" record -p "$JPID" --wall -o "$D/w.jfr" -d 2 2>"$D/wall.err"
	rc_wall=$?
	"$PJ_BIN" record -p "$JPID" -e lock -d 1 -o "$D/l.data" 2>"$D/l.err"
	"$PJ_BIN" record -p "$JPID" --wall --self -d 1 -o "$D/s.data" 2>"$D/s.err"
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null

	check "$J cpu-clock,alloc: record exits 0" [ $rc_ca -eq 0 ] || sed 's/^/# /' "$D/ca.err"
	check_own "$J cpu-clock" "$D/ca.data" cpu-clock
	check_own "$J alloc" "$D/ca.data" alloc
	grep "own threads" "$D/ca.err" | sed 's/^/# /'
	check "$J cpu-clock,alloc: the summary gives perfjava's own share of the CPU samples" \
		grep -qE "perfjava's own threads and code: [0-9.]+% of the cpu-clock samples .* left out" "$D/ca.err"

	check "$J --wall: record exits 0" [ $rc_wall -eq 0 ] || sed 's/^/# /' "$D/wall.err"
	check_own "$J --wall" "$D/w.jfr"
	grep "own threads" "$D/wall.err" | sed 's/^/# /'
	"$jdk/bin/jfr" print --events WallClockSample,ExecutionSample "$D/w.jfr" >"$D/w.txt" 2>"$D/w.txt.err"
	total=$(grep -c 'startTime = ' "$D/w.txt")
	own=$(grep -c 'perfjava-agent' "$D/w.txt")
	check "$J --wall -o F.jfr: the JDK's jfr reads none of perfjava's thread's events ($own of $total)" \
		[ "${total:-0}" -gt 0 ] && [ "${own:-1}" -eq 0 ]

	check_own "$J lock" "$D/l.data"

	"$PJ_BIN" report -i "$D/s.data" --threads --total --format collapsed >"$D/s.folded"
	share=$(own_share "$D/s.folded")
	check "$J --wall --self: perfjava's thread is kept, labelled ($share%)" \
		grep -q '^\[perfjava-agent .*\[perfjava: agent thread\]' "$D/s.folded"
	check "$J --wall --self: the summary says they were kept" \
		grep -q "kept (--self)" "$D/s.err"
done
