#!/usr/bin/env bash
# The walk at the sample in a JVM that perfjava launches (record -- java)
# against one it attaches to (record -p): the two load the agent at
# different times (-agentpath before the JVM has generated its code, the
# attach API after), and a difference between them went unseen once (the
# agent's own walk never ran in a launched JVM, 3x the handler's cost).
# Each run is a fresh Workload JVM (2 threads) whose work starts
# once the recording is on, so that both modes record the same warm-up and
# steady state; PJ_BENCH_LAUNCH_ROUNDS (3) rounds, each of
#   attach    perfjava record -p, at 100 Hz then 1 kHz
#   launched  perfjava record -- java, at 100 Hz then 1 kHz
# for every installed JDK. Printed per JDK, mode and rate: the handler's
# parts as the agent times them (us per walk, the recordings' medians
# averaged: entry, the walk, recoveries, frame typing, ring write; and the
# mean of their sum), and the share of walks the agent's own walker took
# (the rest went to AsyncGetCallTrace). No throughput: separate JVMs differ
# by 2-3 pp from run to run here (their JIT decisions, the host), more than
# the walk costs; bench_walk_alt.sh compares inside one JVM.
# Figures only: it never fails on a timing.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
rounds=${PJ_BENCH_LAUNCH_ROUNDS:-3}
secs=8 # of work; the recording takes the first 6

# run MODE PERIOD TAG: one JVM, recorded as MODE says
run() {
	local mode=$1 period=$2 f=$D/$3 pid
	case $mode in
	attach)
		start_jvm "$jdk" "$f.out" -- Workload $secs 2 "$f.go" || return
		"$PJ_BIN" record -p "$JPID" -c "$period" -d 6 -o "$f.data" 2>"$f.err" &
		pid=$!
		wait_for 20 grep -q '^perfjava: recording' "$f.err"
		touch "$f.go"
		wait "$pid"
		kill "$JPID" 2>/dev/null
		wait "$JWAIT" 2>/dev/null
		;;
	launched)
		"$PJ_BIN" record -c "$period" -d 6 -o "$f.data" -- "$jdk/bin/java" \
			-cp "$CLASSES" Workload $secs 2 "$f.go" >"$f.out" 2>"$f.err" &
		pid=$!
		track $pid
		wait_for 60 grep -q '^ready' "$f.out"
		touch "$f.go"
		wait "$pid"
		# the JVM outlives the recording: its end, before the next run
		wait_for 20 grep -q '^ops' "$f.out"
		;;
	esac
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/launch.$J
	mkdir -p "$D"
	for r in $(seq "$rounds"); do
		for p in 10000000 1000000; do
			# the two modes' order alternates from round to round
			if [ $((r % 2)) -eq 1 ]; then
				run attach $p "attach.$p.$r"
				run launched $p "launched.$p.$r"
			else
				run launched $p "launched.$p.$r"
				run attach $p "attach.$p.$r"
			fi
		done
	done
	for p in 10000000 1000000; do
		hz=$((1000000000 / p))
		for m in attach launched; do
			for f in "$D/$m.$p".*.data; do
				[ -s "$f" ] && "$PJ_BIN" report -i "$f" --format meta 2>/dev/null
			done | awk -v J="$J" -v m="$m" -v hz="$hz" '$1 == "stat" { v[$2] += $3; c[$2]++ }
				END {
					n = v["walk_agent_timed"]
					if (!n) { printf "%s: %s at %d Hz: the agent timed no walk\n", J, m, hz; exit }
					printf "%s: %-8s at %4d Hz: us per walk, medians: ", J, m, hz
					split("entry walk recover type ring", p, " ")
					for (i = 1; i <= 5; i++) {
						k = "walk_agent_" p[i]
						printf "%s %.2f ", p[i], c[k "_med_ns"] ? v[k "_med_ns"] / c[k "_med_ns"] / 1000 : 0
						sum += v[k "_ns"]
					}
					printf "(mean of the sum %.2f); own walks %.1f %% of %d\n",
						sum / n / 1000, 100 * v["walk_agent_own"] / n, n
				}'
		done
	done
done
