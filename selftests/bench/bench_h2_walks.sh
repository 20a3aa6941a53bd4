#!/usr/bin/env bash
# Every Java sample walked, on a real application: the H2 database running
# SQL in a loop (selftests/java/src/H2Loop.java, Debian's h2.jar), recorded
# 15 s at 1 kHz after a 3 s warm-up by perfjava, then in a fresh JVM by
# async-profiler 4.5 (-e cpu -i 1ms), on JDK 17 and 25. Printed per
# profiler: samples, the share with Java frames, samples whose Java walk
# failed (perfjava's [java: ...] markers, async-profiler's error frames) by
# reason, and samples with an [unknown] frame (async-profiler's orphan
# roots where its walker lost the caller). perfjava's walk recoveries by how.
# Figures only: it never fails on a timing. PJ_BENCH_H2_SECONDS (15).
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
H2=$H2JAR
h2_jar || { echo "no $H2 (libh2-java: $(tail -1 "$TMP/apt.log")): skipped"; exit 0; }
compile_java >/dev/null || { echo "javac failed"; exit 1; }
secs=${PJ_BENCH_H2_SECONDS:-15}
ASPROF=$PJ_BUILD/async-profiler-4.5/build/bin/asprof
[ -x "$ASPROF" ] || echo "no $ASPROF (make bench's bench_walk.sh builds it): perfjava alone"

# shares FOLDED TOOL: one line of figures, then the failures by reason
shares() {
	awk -v tool="$2" '{ n = $NF; t += n
		if ($0 ~ /_\[[j0i1]\]/) j += n
		re = tool == "perfjava" ? "\\[java: [^];]*\\]" : \
			"\\[(break_[a-z_]*|unknown_[A-Za-z_]*|not_walkable_[A-Za-z_]*|GC_active|thread_exit|deopt|safepoint|unknown_state|no_Java_frame)\\]"
		if (match($0, re)) { u += n; r[substr($0, RSTART, RLENGTH)] += n }
		if ($0 ~ /\[unknown\]/) k += n }
		END { if (!t) { print "  no samples"; exit }
		printf "  %-9s %6d samples, %5.1f%% with Java frames, %5.2f%% walk failed, %5.2f%% with [unknown]\n",
			tool, t, 100 * j / t, 100 * u / t, 100 * k / t
		for (x in r) printf "            %6d %s\n", r[x], x }' "$1"
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	echo "# $J: H2 SQL loop, ${secs} s at 1 kHz"
	start_jvm "$jdk" "$TMP/$J.out" -Dh2.jar="$H2" -- H2Loop $((secs + 8))
	# the figures are for compiled code
	wait_for 60 grep -q '^warm' "$TMP/$J.out" || echo "# $J: H2Loop not warm in 60 s"
	"$PJ_BIN" record -p "$JPID" -F 1000 -d "$secs" -o "$TMP/$J.data" 2>"$TMP/$J.err"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	"$PJ_BIN" report -i "$TMP/$J.data" --format collapsed >"$TMP/$J.folded"
	shares "$TMP/$J.folded" perfjava
	grep -oE '\([0-9]+ recovered[^)]*\)' "$TMP/$J.err" | sed 's/^/            /'
	[ -x "$ASPROF" ] || continue
	start_jvm "$jdk" "$TMP/$J.ap.out" -Dh2.jar="$H2" -- H2Loop $((secs + 8))
	wait_for 60 grep -q '^warm' "$TMP/$J.ap.out" || echo "# $J: H2Loop not warm in 60 s"
	"$ASPROF" start -e cpu -i 1ms "$JPID" >"$TMP/$J.ap.err" 2>&1
	sleep "$secs"
	"$ASPROF" stop -o collapsed --ann -f "$TMP/$J.ap.folded" "$JPID" >>"$TMP/$J.ap.err" 2>&1
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	shares "$TMP/$J.ap.folded" async-prof
done
