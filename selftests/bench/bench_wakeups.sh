#!/usr/bin/env bash
# How often a profiler makes the sampled threads give up their CPU: the
# Workload's two workers on a 2-CPU machine are switched out each time a
# profiler's thread wakes (the recorder's drain, the agent's pump), and
# their caches are refilled after it. Counted from the kernel, per second
# of 10 s (nonvoluntary_ctxt_switches of the workers in /proc, and the
# voluntary ones of the recorder and of the agent's thread, and the
# recorder's CPU time from /proc/PID/stat): unprofiled,
# perf record -g, and perfjava at 100 Hz and 1 kHz, with and without Java
# walks. Counts, not timings: a quiet machine gives the same within a few.
# Figures only: it never fails.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }

# switches FIELD TID...: the sum of that /proc status field
switches() {
	local f=$1 t
	shift
	for t in "$@"; do
		if [ -d "/proc/$JPID/task/$t" ]; then
			cat "/proc/$JPID/task/$t/status"
		else
			cat "/proc/$t/status"
		fi 2>/dev/null
	done | awk -v f="$f:" '$1 == f { s += $2 } END { print s + 0 }'
}

# tids NAME: the JVM's threads whose name starts so
tids() {
	local t
	for t in /proc/$JPID/task/*; do
		grep -q "^$1" "$t/comm" 2>/dev/null && echo "${t##*/}"
	done
}

# one LABEL [COMMAND...]: the counts over 10 s while COMMAND records
one() {
	local label=$1 pid= w0 w1 r0=0 r1=0 a0=0 a1=0 c0=0 c1=0 agent
	shift
	if [ $# -gt 0 ]; then
		rm -f "$D/p.data"
		"$@" >"$D/rec.out" 2>&1 &
		pid=$!
		if [ "$1" = perf ]; then
			wait_for 10 test -s "$D/p.data"
		else
			wait_for 20 grep -q '^perfjava: recording' "$D/rec.out"
		fi
		sleep 1 # its first drains: not counted
	fi
	agent=$(tids perfjava)
	w0=$(switches nonvoluntary_ctxt_switches $workers)
	[ -n "$pid" ] && r0=$(switches voluntary_ctxt_switches "$pid") c0=$(proc_cpu_ticks "$pid")
	[ -n "$agent" ] && a0=$(switches voluntary_ctxt_switches $agent)
	sleep 10
	w1=$(switches nonvoluntary_ctxt_switches $workers)
	[ -n "$pid" ] && r1=$(switches voluntary_ctxt_switches "$pid") c1=$(proc_cpu_ticks "$pid")
	[ -n "$agent" ] && a1=$(switches voluntary_ctxt_switches $agent)
	if [ -n "$pid" ]; then
		kill -INT "$pid" 2>/dev/null
		wait "$pid"
	fi
	printf '%s: %-30s workers switched out %4d/s; recorder woken %4d/s, its CPU %4.1f %%; agent thread woken %3d/s\n' \
		"$J" "$label" $(((w1 - w0) / 10)) $(((r1 - r0) / 10)) \
		"$(awk -v t=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" 'BEGIN { print 100 * t / hz / 10 }')" $(((a1 - a0) / 10))
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/wake.$J
	mkdir -p "$D"
	start_jvm "$jdk" "$D/out" -- Workload 200 2 || continue
	wait_for 10 bash -c "grep -q '^worker' /proc/$JPID/task/*/comm"
	workers=$(tids worker)
	one "unprofiled"
	if command -v perf >/dev/null; then
		one "perf record -g at 100 Hz" perf record -q -g -e cpu-clock -c 10000000 -p "$JPID" -o "$D/p.data"
		one "perf record -g at 1 kHz" perf record -q -g -e cpu-clock -c 1000000 -p "$JPID" -o "$D/p.data"
	fi
	for hz in 100 1000; do
		c=$((1000000000 / hz))
		one "perfjava at $hz Hz" "$PJ_BIN" record -p "$JPID" -c $c -o "$D/j.data"
		one "perfjava --no-java at $hz Hz" "$PJ_BIN" record -p "$JPID" -c $c --no-java -o "$D/j.data"
	done
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null
done
