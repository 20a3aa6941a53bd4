#!/usr/bin/env bash
# Where the CPU was, side by side with async-profiler 4.5, on real
# applications: H2 running SQL in a loop (Debian's h2.jar, H2Loop) and javac
# compiling java.base's java.io from the JDK's own src.zip (JavacLoop), on
# JDK 17 and 25, each recorded PJ_BENCH_LEAVES_SECONDS (15) at 1 kHz by
# perfjava, then on the same JVM (its code compiled alike; perfjava's agent
# idle once its reader has gone) by async-profiler (-e cpu -i 1ms). Printed per profiler: samples, the share whose leaf is JVM
# code that is no Java method (vtable/itable stubs, arraycopy and other
# stubs, adapters, the interpreter) with the commonest of them, the share
# with an [unknown] frame, the ten leaves with the most self time (Java
# frames without perfjava's _[x] marks and with dots, to compare), and
# perfjava's own share
# (its agent's thread and signal handler, labelled [perfjava: ...]).
# Figures only: it never fails on a timing.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
secs=${PJ_BENCH_LEAVES_SECONDS:-15}
asprof_build || echo "$ASPROF_WHY: perfjava alone"
H2=$H2JAR
h2_jar || echo "no $H2 (libh2-java: $(tail -1 "$TMP/apt.log")): H2 skipped"

# JVM code that is no Java method, by the names the JVM gives it
STUB='(^|[ _])stub($|[ _])|[Ss]tub |arraycopy|adapters|^Interpreter$|Blob$|_Java$|^StubRoutines|^call_stub$'

# figures FOLDED TOOL: the lines described above
figures() {
	awk -v tool="$2" -v stub="$STUB" '{ n = $NF; sub(/ [0-9]+$/, ""); t += n
		k = split($0, f, ";"); leaf = f[k]; gsub(/_\[[a-z0-9]\]$/, "", leaf)
		if (leaf ~ /^[A-Za-z_$][A-Za-z0-9_$]*\/[^ ]*\.[^ ]*$/) gsub("/", ".", leaf) # Java, with dots
		self[leaf] += n
		if ($0 ~ /\[perfjava: /) own += n
		else if (leaf ~ stub) { s += n; sn[leaf] += n }
		if ($0 ~ /\[unknown\]/) { u += n; if ($0 ~ /\[perfjava: /) ou += n } }
	END {
		if (!t) { printf "  %-10s no samples\n", tool; exit }
		printf "  %-10s %6d samples; stub leaves %5.2f%%; [unknown] %5.2f%%", tool, t, 100 * s / t, 100 * u / t
		if (tool == "perfjava")
			printf "; its own %5.2f%% ([unknown] %5.2f%% of all outside it)", 100 * own / t, 100 * (u - ou) / t
		printf "\n"
		for (i = 0; i < 4; i++) { b = ""; for (x in sn) if (b == "" || sn[x] > sn[b]) b = x
			if (b == "") break; printf "             stub %5.2f%% %s\n", 100 * sn[b] / t, b; delete sn[b] }
		for (i = 1; i <= 10; i++) { b = ""; for (x in self) if (b == "" || self[x] > self[b]) b = x
			if (b == "") break; printf "      top %2d  %5.2f%% %s\n", i, 100 * self[b] / t, substr(b, 1, 110); delete self[b] }
	}' "$1"
}

# run WHAT: starts the workload WHAT and profiles it by perfjava, then on
# the same JVM (its code compiled alike) by async-profiler, into
# $TMP/$J.WHAT.TOOL.folded
run() {
	local what=$1 out=$TMP/$J.$1
	case $what in
	h2)
		start_jvm "$jdk" "$out.out" -Dh2.jar="$H2" -- H2Loop $((2 * secs + 60)) || return 1
		wait_for 60 grep -q '^warm' "$out.out" || echo "# $J: H2Loop not warm in 60 s"
		;;
	javac)
		start_jvm "$jdk" "$out.out" -Xmx1g -- JavacLoop "$SRC/java.base/java/io" $((2 * secs + 60)) \
			"$TMP/classes" --patch-module "java.base=$SRC/java.base" || return 1
		# its rounds are compiled from about the third on
		wait_for 60 bash -c "[ \$(ls '$TMP/classes/java.base/java/io' 2>/dev/null | wc -l) -gt 50 ]"
		;;
	esac
	"$PJ_BIN" record -p "$JPID" -F 1000 -d "$secs" -o "$out.data" 2>"$out.err"
	"$PJ_BIN" report -i "$out.data" --format collapsed >"$out.perfjava.folded"
	figures "$out.perfjava.folded" perfjava
	if [ -n "$ASPROF" ]; then
		"$ASPROF" -d "$secs" -e cpu -i 1ms -o collapsed -f "$out.ap.folded" "$JPID" >"$out.ap.err" 2>&1
		figures "$out.ap.folded" async-prof
	fi
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	SRC=$TMP/$J.src
	if zip=$(jdk_src_zip "$jdk") && command -v unzip >/dev/null; then
		unzip -q -o "$zip" 'java.base/java/io/*' -d "$SRC"
	else
		echo "# $J: no src.zip: javac skipped"
	fi
	for what in h2 javac; do
		[ "$what" = h2 ] && [ ! -f "$H2" ] && continue
		[ "$what" = javac ] && [ ! -d "$SRC/java.base" ] && continue
		echo "# $J: $what, ${secs} s at 1 kHz, perfjava then async-profiler on one JVM"
		rm -rf "$TMP/classes"
		run "$what" || echo "  the workload did not start"
	done
done
