#!/usr/bin/env bash
# The heatmap page (report --format heatmap) in headless Chromium, used as a
# person uses it, on recordings with a phase change: selftests/progs/phases
# (phase_a then phase_b; CPU and off-CPU, recorded by perfjava) and
# selftests/java/src/Phases.java (phaseA then phaseB; recorded by perfjava
# with -e cpu-clock,alloc,lock --wall, and as JFR by the JDK's Flight
# Recorder and by async-profiler). Each page: no console errors, no
# request; a hovered cell says its time and count; a search marks each
# phase's cells and none of the other's (the program's own bounds); a click
# on a start and an end cell, and a drag, show that range's flame graph with
# its phase's function only, and its command line reports the same total.
# A 10-minute recording of 8 threads at 1 kHz (test_report_big --make-long)
# gives the page's size and load time. Screenshots are kept in
# build/selftests/heatmap/ for a person to look at.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

if [ ! -x "$PJ_BIN" ] || [ ! -x "$PROGS/phases" ]; then
	skip "heatmap pages in Chromium" "build $PJ_BIN and $PROGS/phases first"
	exit 0
fi
. "$PJ_TOP/selftests/browser/chromium.sh"
chromium_setup "heatmap pages in Chromium" || exit 0
shots=$PJ_BUILD/selftests/heatmap
mkdir -p "$shots"
spec=$TMP/spec.json
margin=0.05
echo '[' >"$spec"

# page LABEL DATA OUT CLOCK A B MIN SHOT [report options...]: the heatmap of
# DATA in cells of 50 ms (whatever the rate, 20 a phase), and its entry in
# the spec: the phases of OUT (the program's lines "phase X MONO0 MONO1
# EPOCH0 EPOCH1") in seconds from the recording's start, in its CLOCK (mono
# or epoch). An event without samples (a JVM starved on a loaded machine)
# is a skip. $margin seconds (50 ms unless set) are left off each end of a
# phase.
page() {
	local label=$1 data=$2 out=$3 clock=$4 a=$5 b=$6 min=$7 shot=$8 start col
	shift 8
	"$PJ_BIN" report -i "$data" --format heatmap --row 0.05 -o "$TMP/$label.html" "$@" 2>"$TMP/$label.err"
	if grep -q "has no samples of event" "$TMP/$label.err"; then
		skip "$label heatmap" "$(head -1 "$TMP/$label.err")"
		return
	fi
	if [ ! -s "$TMP/$label.html" ]; then
		not_ok "$label: report --format heatmap${*:+ $*} writes a page"
		sed 's/^/# /' "$TMP/$label.err"
		return
	fi
	ok "$label: report --format heatmap${*:+ $*} writes a page"
	start=$("$PJ_BIN" report -i "$data" --format meta | awk '$1 == "meta" && $2 == "start_ns" { print $3 }')
	col=3
	[ "$clock" = epoch ] && col=5
	awk -v s="${start:-0}" -v c=$col -v l="$label" -v f="$TMP/$label.html" -v a="$a" -v b="$b" \
		-v m="$min" -v shot="$shot" -v g="$margin" '
		$1 == "phase" { t[$2] = sprintf("[%.6f, %.6f]", ($c - s) / 1e9, ($(c + 1) - s) / 1e9) }
		END { printf "{\"label\": \"%s\", \"file\": \"%s\", \"a\": \"%s\", \"b\": \"%s\", \"min\": %s, \"margin\": %s, \"shot\": \"%s\", \"phases\": {\"a\": %s, \"b\": %s}},\n",
			l, f, a, b, m, g, shot, t["a"], t["b"] }' "$out" >>"$spec"
}

# Phases of 1 s: 20 cells each, some 16 well inside (the checks want 4,
# and 5 samples: the JDK's Flight Recorder, every 10 ms, gave 14 on a
# machine loaded twelvefold); the programs' timed phases are most of the
# test's wall time, and phase_b waits through half of it
"$PJ_BIN" record -q -e cpu-clock -F 1000 -o "$TMP/p.data" -- "$PROGS/phases" 1 >"$TMP/p.out" 2>"$TMP/p.err"
check "record phases (phase_a 1 s, then phase_b 1 s)" grep -q '^phase b' "$TMP/p.out"
page cpu "$TMP/p.data" "$TMP/p.out" mono phase_a phase_b 0.5 "$shots/phases-cpu"
"$PJ_BIN" record -q -e offcpu -o "$TMP/o.data" -- "$PROGS/phases" 1 >"$TMP/o.out" 2>"$TMP/o.err"
check "record phases' waits off CPU (-e offcpu)" grep -q '^phase b' "$TMP/o.out"
page offcpu "$TMP/o.data" "$TMP/o.out" mono phase_a phase_b 0 ""

if [ ${#JDKS[@]} -gt 0 ] && compile_java; then
	JDK=${JDKS[0]}
	"$PJ_BIN" record -q -e cpu-clock,alloc,lock --wall -o "$TMP/j.data" -- \
		"$JDK/bin/java" -cp "$CLASSES" Phases 1 2 >"$TMP/j.out" 2>"$TMP/j.err"
	check "record a JVM's phases: cpu-clock, alloc, lock, --wall" grep -q '^phase b' "$TMP/j.out"
	page java-cpu "$TMP/j.data" "$TMP/j.out" mono Phases.phaseA Phases.phaseB 0.5 "" --event cpu-clock
	page java-alloc "$TMP/j.data" "$TMP/j.out" mono Phases.phaseA Phases.phaseB 0 "" --event alloc
	page java-lock "$TMP/j.data" "$TMP/j.out" mono Phases.phaseA Phases.phaseB 0 "" --event lock
	page java-wall "$TMP/j.data" "$TMP/j.out" mono Phases.phaseA Phases.phaseB 0 "$shots/java-wall"
	"$JDK/bin/java" -XX:StartFlightRecording=filename="$TMP/jdk.jfr",settings=profile \
		-cp "$CLASSES" Phases 1 2 >"$TMP/jdk.out" 2>"$TMP/jdk.err"
	check "the JDK's Flight Recorder records the phases" [ -s "$TMP/jdk.jfr" ]
	# (the JDK's sampler takes threads in Java that wait for a CPU too: on
	# a loaded machine a worker keeps phaseA's frame while it waits, past
	# the phase's end by the program's clock, over 100 ms beside another
	# make check)
	margin=0.25
	page jdk-jfr "$TMP/jdk.jfr" "$TMP/jdk.out" epoch Phases.phaseA Phases.phaseB 0.5 "$shots/jdk-jfr"
	margin=0.05
	if asprof_build; then
		AP=${ASPROF%/bin/asprof}
		"$JDK/bin/java" -agentpath:"$AP/lib/libasyncProfiler.so=start,event=cpu,interval=1ms,file=$TMP/ap.jfr,jfr" \
			-cp "$CLASSES" Phases 1 2 >"$TMP/ap.out" 2>"$TMP/ap.err"
		check "async-profiler records the phases as JFR" [ -s "$TMP/ap.jfr" ]
		page ap-jfr "$TMP/ap.jfr" "$TMP/ap.out" epoch Phases.phaseA Phases.phaseB 0.5 ""
	else
		skip "async-profiler's JFR heatmap" "$ASPROF_WHY"
	fi
else
	skip "JVM heatmaps (perfjava's events, the JDK's and async-profiler's JFR)" "no JDK, or javac failed"
fi

long=$PJ_BUILD/selftests/test_report_big
# long_pages: its heatmap and flame graph pages, the two reports at once
# (each a core's seconds)
long_pages() {
	local f
	[ -x "$long" ] && "$long" --make-long "$TMP/long.data" || return 1
	"$PJ_BIN" report -i "$TMP/long.data" --format flame -o "$TMP/long-flame.html" &
	f=$!
	"$PJ_BIN" report -i "$TMP/long.data" --format heatmap -o "$TMP/long.html" || { wait $f; return 1; }
	wait $f
}
if long_pages; then
	echo "{\"label\": \"10 minutes, 8 threads at 1 kHz\", \"long\": true, \"file\": \"$TMP/long.html\", \"flame\": \"$TMP/long-flame.html\", \"shot\": \"$shots/long\"}," >>"$spec"
else
	not_ok "write the 10-minute heatmap"
fi
echo '{"label": "end", "skip": true}]' >>"$spec"

PJ_BIN=$PJ_BIN NODE_PATH=$NODEDIR/node_modules timeout 600 node "$PJ_TOP/selftests/browser/check_heatmap.js" "$spec"
[ $? -eq 0 ] || echo "# some browser checks failed"
echo "# screenshots: $(ls "$shots"/*.png 2>/dev/null | tr '\n' ' ')"
exit 0
