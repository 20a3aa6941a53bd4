#!/usr/bin/env bash
# Part of bench_report.sh: how fast the flame graph page loads in headless
# Chromium against async-profiler's page of the same data. The data: javac
# compiling async-profiler's converter sources in a loop, recorded for 8 s at
# 999 Hz; perfjava writes its flame graph, async-profiler's jfrconv writes its
# own from perfjava's collapsed output. Figures: the median load time of each
# page (navigation to the end of the load event, 7 runs after a warm-up) and
# their ratio. Builds async-profiler under build/ when it is not there yet.
# Never fails on a timing.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
ap=$PJ_BUILD/async-profiler-4.5
nodedir=$PJ_TOP/build/node
if [ ! -x /usr/bin/chromium ] || [ ! -d "$nodedir/node_modules/playwright-core" ]; then
	echo "flame page load: skip: run selftests/browser/test_pages.sh once (it installs chromium and playwright-core)"
	exit 0
fi
if ! asprof_build || [ ! -x "$ap/build/bin/jfrconv" ]; then
	echo "flame page load: skip: no async-profiler's jfrconv: ${ASPROF_WHY:-not built}"
	exit 0
fi
compile_java >/dev/null 2>&1 || { echo "flame page load: javac failed"; exit 0; }
mkdir -p "$TMP/classes"
start_jvm "${JDKS[0]}" "$TMP/javac.out" -- JavacLoop "$ap/src/converter" 20 "$TMP/classes" ||
	{ echo "flame page load: the javac workload did not start"; exit 0; }
"$PJ_BIN" record -q -p "$JPID" -d 8 -F 999 -o "$TMP/javac.data" ||
	{ echo "flame page load: record failed"; exit 0; }
kill "$JPID" 2>/dev/null
"$PJ_BIN" report -i "$TMP/javac.data" --format flame -o "$TMP/perfjava.html"
"$PJ_BIN" report -i "$TMP/javac.data" --format collapsed -o "$TMP/javac.collapsed"
"$ap/build/bin/jfrconv" "$TMP/javac.collapsed" "$TMP/async-profiler.html" >/dev/null 2>&1 ||
	{ echo "flame page load: jfrconv failed"; exit 0; }
nodes=$(($("$PJ_BIN" report -i "$TMP/javac.data" --format tree | wc -l) - 1))
NODE_PATH=$nodedir/node_modules timeout 300 node "$PJ_TOP/selftests/bench/page_load.js" 7 \
	perfjava="$TMP/perfjava.html" async-profiler="$TMP/async-profiler.html" >"$TMP/load" ||
	{ echo "flame page load: the browser run failed"; exit 0; }
awk -v nodes="$nodes" -v b1="$(stat -c %s "$TMP/perfjava.html")" -v b2="$(stat -c %s "$TMP/async-profiler.html")" '
	{ ms[$1] = $2 }
	END {
		printf "flame page load, javac profile (%d frames): perfjava %d ms (%.2f MB), async-profiler %d ms (%.2f MB), ratio %.2f (below 1: perfjava loads faster)\n",
			nodes, ms["perfjava"], b1 / 1e6, ms["async-profiler"], b2 / 1e6,
			ms["async-profiler"] ? ms["perfjava"] / ms["async-profiler"] : 0
	}' "$TMP/load"
