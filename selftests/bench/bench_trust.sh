#!/usr/bin/env bash
# Attribution against the program's own CPU truth, perfjava and
# async-profiler 4.5 on the Trust workload (selftests/java/src/Trust.java:
# megamorphic calls, String.intern, an interpreted loop on one thread;
# Thread.sleep and blocking pipe writes on another), each in a fresh JVM,
# 6 s at 1 kHz, on JDK 17 and 25. Printed per phase: its share of the
# threads' CPU over the profiled window (Trust's CPU-clock timeline), of
# perfjava's samples, of perfjava's time (report --total: each sample
# weighs its clock's time and its switches, pipeline/switchcost.h), and of
# async-profiler's samples (-e cpu -i 1ms); then the largest difference
# from the truth of each column, pp.
# Figures only: it never fails on a timing.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
secs=6
ASPROF=$PJ_BUILD/async-profiler-4.5/build/bin/asprof
[ -x "$ASPROF" ] || echo "no $ASPROF (make bench's bench_walk.sh builds it): perfjava alone"
PHASES="Trust.mega Trust.intern Trust.interp Trust.sleeps Trust.pipe"
trust_flags=(-Dtruth.every=50 -XX:CompileCommand=quiet -XX:CompileCommand=exclude,Trust::interp)
mono_s() { python3 -c 'import time; print("%.6f" % (time.monotonic_ns() / 1e9))'; }

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	start_jvm "$jdk" "$D/pj.out" "${trust_flags[@]}" -- Trust $((secs + 3)) || continue
	"$PJ_BIN" record -q -p "$JPID" -F 997 -d "$secs" -o "$D/pj.data" 2>"$D/pj.err"
	wait "$JWAIT"
	"$PJ_BIN" report -i "$D/pj.data" --format collapsed >"$D/pj.n"
	"$PJ_BIN" report -i "$D/pj.data" --format collapsed --total >"$D/pj.t"
	win=$(sample_window "$D/pj.data" 'Trust\.(mega|intern|interp|sleeps|pipe) ')
	window_truth "$D/pj.out" ${win:-0 0} Trust mega intern interp sleeps pipe >"$D/pj.truth"
	stack_share "$D/pj.n" $PHASES >"$D/pj.ns"
	stack_share "$D/pj.t" $PHASES >"$D/pj.ts"
	: >"$D/ap.truth"
	: >"$D/ap.ns"
	if [ -x "$ASPROF" ] && start_jvm "$jdk" "$D/ap.out" "${trust_flags[@]}" -- Trust $((secs + 3)); then
		a=$(mono_s)
		"$ASPROF" start -e cpu -i 1ms "$JPID" >"$D/ap.err" 2>&1
		sleep "$secs" # the profiled window
		"$ASPROF" stop -o collapsed -f "$D/ap.folded" "$JPID" >>"$D/ap.err" 2>&1
		b=$(mono_s)
		wait "$JWAIT"
		window_truth "$D/ap.out" "$a" "$b" Trust mega intern interp sleeps pipe >"$D/ap.truth"
		stack_share "$D/ap.folded" $PHASES >"$D/ap.ns"
	fi
	echo "# $J: share of the phases' CPU, %"
	awk 'FNR == 1 { f++ } { v[f, $1] = $2; if (f == 1) k[++n] = $1 }
		function d(t, x) { x = t - x; return x < 0 ? -x : x }
		END {
			printf "  %-13s %6s %10s %10s %7s %9s\n", "phase", "truth", "pj samples", "pj time", "truth", "ap samples"
			for (i = 1; i <= n; i++) {
				p = k[i]
				printf "  %-13s %6.2f %10.2f %10.2f %7s %9s\n", p, v[1, p], v[2, p], v[3, p],
					(4, p) in v ? sprintf("%.2f", v[4, p]) : "-", (5, p) in v ? sprintf("%.2f", v[5, p]) : "-"
				if (d(v[1, p], v[2, p]) > m2) m2 = d(v[1, p], v[2, p])
				if (d(v[1, p], v[3, p]) > m3) m3 = d(v[1, p], v[3, p])
				if ((5, p) in v && d(v[4, p], v[5, p]) > m5) m5 = d(v[4, p], v[5, p])
			}
			printf "  largest difference from the truth: perfjava samples %.2f pp, perfjava time %.2f pp, async-profiler samples %s\n",
				m2, m3, (5, k[1]) in v ? sprintf("%.2f pp", m5) : "-"
		}' "$D/pj.truth" "$D/pj.ns" "$D/pj.ts" "$D/ap.truth" "$D/ap.ns"
done
