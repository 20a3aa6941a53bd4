#!/usr/bin/env bash
# What perfjava's own threads and code take of the target at the default
# rate: the H2 database running SQL in a loop on one thread
# (selftests/java/src/H2Loop.java, Debian's h2.jar), recorded 15 s at 100 Hz
# with --self after its warm-up, PJ_BENCH_OWN_ROUNDS (3) fresh JVMs per
# JDK. Printed per round and as medians: the share of the target's samples
# in perfjava's threads and code (the goal: at most 0.5 %), and the agent
# thread's CPU moving the walks (its pumps, from the recording's
# statistics), in ms per second recorded. async-profiler has no thread of
# its own in the target at -e cpu: its reference is none.
# Figures only: it never fails on a timing. PJ_BENCH_OWN_SECONDS (15).
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
H2=$H2JAR
h2_jar || { echo "no $H2 (libh2-java: $(tail -1 "$TMP/apt.log")): skipped"; exit 0; }
compile_java >/dev/null || { echo "javac failed"; exit 1; }
secs=${PJ_BENCH_OWN_SECONDS:-15}
rounds=${PJ_BENCH_OWN_ROUNDS:-3}

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	echo "# $J: H2 SQL loop, 1 thread, ${secs} s at 100 Hz, $rounds rounds"
	: >"$TMP/$J.shares"
	: >"$TMP/$J.pumps"
	for r in $(seq "$rounds"); do
		start_jvm "$jdk" "$TMP/$J.out" -Dh2.jar="$H2" -- H2Loop $((secs + 30)) 1
		wait_for 60 grep -q '^warm' "$TMP/$J.out" || echo "# $J: H2Loop not warm in 60 s"
		"$PJ_BIN" record -p "$JPID" -F 100 -d "$secs" --self -o "$TMP/$J.data" 2>"$TMP/$J.err"
		kill "$JPID" 2>/dev/null
		wait "$JWAIT" 2>/dev/null
		own=$(sed -n 's/.*own threads and code: .* (\([0-9]*\) of \([0-9]*\)).*/\1 \2/p' "$TMP/$J.err")
		pump=$("$PJ_BIN" report -i "$TMP/$J.data" --format meta 2>/dev/null |
			awk '$2 == "walk_agent_pump_ns" { print $3 }')
		if [ -z "$own" ] || [ -z "$pump" ]; then
			echo "  round $r: no figures ($(head -c 300 "$TMP/$J.err" | tr '\n' ' '))"
			continue
		fi
		set -- $own
		awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b ? 100 * a / b : 0 }' >>"$TMP/$J.shares"
		awk -v p="$pump" -v s="$secs" 'BEGIN { printf "%.2f\n", p / 1e6 / s }' >>"$TMP/$J.pumps"
		printf "  round %d: own %d of %d samples (%s %%), agent thread's pumps %s ms/s\n" \
			"$r" "$1" "$2" "$(tail -1 "$TMP/$J.shares")" "$(tail -1 "$TMP/$J.pumps")"
	done
	[ -s "$TMP/$J.shares" ] || continue
	echo "$J: perfjava's own threads and code at 100 Hz: $(median <"$TMP/$J.shares") % of the target's samples (goal <= 0.5; async-profiler: no thread of its own), agent thread's pumps $(median <"$TMP/$J.pumps") ms/s (medians of $(wc -l <"$TMP/$J.shares") rounds)"
done
