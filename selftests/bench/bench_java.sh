#!/usr/bin/env bash
# The target's slowdown while profiled: throughput (rounds of the Workload's
# three methods in a fixed time, two threads) unprofiled vs profiled at 100 Hz
# and 1 kHz, measured in one run, alternating, and printed as ratios; plus the
# walk latency the recorder measured (sample time -> walk time).
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
secs=${PJ_BENCH_SECS:-4}
rounds=${PJ_BENCH_ROUNDS:-2}

# run_once JDK MODE: prints the workload's ops; MODE is none or a period in ns
run_once() {
	local jdk=$1 mode=$2 go=$TMP/go.$RANDOM out=$TMP/run.$RANDOM
	start_jvm "$jdk" "$out" -- Workload "$secs" 2 "$go" || return 1
	if [ "$mode" != none ]; then
		"$PJ_BIN" record -p "$JPID" -c "$mode" -d 60 -o "$out.data" 2>"$out.rec" &
		local rec=$!
		wait_for 20 grep -q 'recording' "$out.rec"
	fi
	touch "$go"
	wait "$JWAIT"
	[ "$mode" != none ] && wait "$rec"
	awk '/^ops/ { print $2 }' "$out"
	[ "$mode" != none ] && grep -oE 'walk latency median [0-9]+ us, p99 [0-9]+ us' "$out.rec" >>"$TMP/lat.$mode"
	return 0
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	declare -A sum=([none]=0 [10000000]=0 [1000000]=0)
	rm -f "$TMP"/lat.*
	for r in $(seq "$rounds"); do
		for mode in none 10000000 1000000; do
			ops=$(run_once "$jdk" "$mode")
			sum[$mode]=$((${sum[$mode]} + ${ops:-0}))
		done
	done
	base=${sum[none]}
	for mode in 10000000 1000000; do
		hz=$((1000000000 / mode))
		awk -v j="$J" -v hz="$hz" -v b="$base" -v p="${sum[$mode]}" 'BEGIN {
			printf "%s: %4d Hz: throughput profiled/unprofiled %.3f (slowdown %.1f%%), ops %d vs %d\n",
				j, hz, b ? p / b : 0, b ? 100 * (1 - p / b) : 0, p, b }'
		echo "$J: $hz Hz: $(tr '\n' ';' <"$TMP/lat.$mode" 2>/dev/null)"
	done
done
