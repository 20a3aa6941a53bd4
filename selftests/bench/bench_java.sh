#!/usr/bin/env bash
# The target's slowdown while profiled, measured inside one JVM so that JIT
# decisions, which differ from one JVM run to the next, cancel out: the
# Workload (two threads, its three methods) prints its progress every 100 ms;
# the benchmark records it for 3 s at 100 Hz, pauses, records 3 s at 1 kHz,
# and compares the rate of rounds inside each recording with the unprofiled
# windows around it. Also prints the walk latency the recorder measured
# (sample time -> walk time). Figures only: it never fails on a timing.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
win=${PJ_BENCH_WINDOW:-3}

# rate OUT FROM_NS TO_NS: rounds per second between two monotonic times,
# from the tick lines closest inside the window
rate() {
	awk -v a="$2" -v b="$3" '$1 == "tick" && $2 >= a && $2 <= b {
		if (!t0) { t0 = $2; r0 = $3 } t1 = $2; r1 = $3 }
		END { if (t1 > t0) printf "%.2f", (r1 - r0) * 1e9 / (t1 - t0); else print 0 }' "$1"
}

# window DATA: "start end" of a recording (monotonic ns) from its summary
window() {
	"$PJ_BIN" report -i "$1" --format meta | awk '
		$1 == "meta" && $2 == "start_ns" { s = $3 }
		$1 == "stat" && $2 == "duration_ns" { d = $3 }
		END { printf "%.0f %.0f\n", s, s + d }'
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	out=$TMP/$J.out
	start_jvm "$jdk" "$out" -- Workload $((4 * win + 8)) 2 "$TMP/go.$J" ticks || continue
	touch "$TMP/go.$J"
	sleep "$win" # warm-up and the first unprofiled window
	"$PJ_BIN" record -p "$JPID" -c 10000000 -d "$win" -o "$TMP/$J.100.data" 2>"$TMP/$J.100.err"
	sleep "$win" # unprofiled
	"$PJ_BIN" record -p "$JPID" -c 1000000 -d "$win" -o "$TMP/$J.1k.data" 2>"$TMP/$J.1k.err"
	sleep "$win" # unprofiled
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null
	read -r s1 e1 <<<"$(window "$TMP/$J.100.data")"
	read -r s2 e2 <<<"$(window "$TMP/$J.1k.data")"
	gap=300000000 # keep 0.3 s away from attach and detach
	b1=$(rate "$out" $((s1 - win * 1000000000 + gap)) $((s1 - gap)))
	p1=$(rate "$out" "$s1" "$e1")
	b2=$(rate "$out" $((e1 + gap)) $((s2 - gap)))
	p2=$(rate "$out" "$s2" "$e2")
	b3=$(rate "$out" $((e2 + gap)) $((e2 + win * 1000000000 - gap)))
	for hz in 100 1000; do
		if [ $hz = 100 ]; then p=$p1 ba=$b1 bb=$b2 f=100; else p=$p2 ba=$b2 bb=$b3 f=1k; fi
		awk -v j="$J" -v hz=$hz -v p="$p" -v a="$ba" -v b="$bb" 'BEGIN {
			base = (a + b) / 2
			printf "%s: %4d Hz: rounds/s profiled %.1f, unprofiled %.1f and %.1f: ratio %.3f (slowdown %.1f%%)\n",
				j, hz, p, a, b, base ? p / base : 0, base ? 100 * (1 - p / base) : 0 }'
		echo "$J: $hz Hz: $(grep -oE 'walk latency median [0-9]+ us, p99 [0-9]+ us' "$TMP/$J.$f.err")"
	done
done
