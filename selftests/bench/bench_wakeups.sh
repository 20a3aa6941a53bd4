#!/usr/bin/env bash
# How often a profiler makes the sampled threads give up their CPU: the
# Workload's two workers on a 2-CPU machine are switched out each time a
# profiler's thread wakes (the recorder's drain, the agent's pump), and
# their caches are refilled after it. Counted from the kernel, per second
# over 100 of the Workload's ticks (10 s of its own clock): the workers'
# nonvoluntary_ctxt_switches in /proc, the voluntary ones of the recorder
# and of the agent's thread, and the recorder's CPU time from
# /proc/PID/stat; unprofiled, perf record -g, and perfjava at 100 Hz and
# 1 kHz, with and without Java walks. The unprofiled row counts the
# Workload's ticker thread and the wait's tail, each woken once a tick:
# compare the rows with it. Counts, not timings: a quiet machine gives the
# same within a few. Figures only: it never fails.
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

# ticks_pass N: waits for the Workload's next N ticks (one each 100 ms of
# its own clock; 60 s at most), woken by each tick written (tail -f: no
# polling, whose processes would run on the CPUs being counted)
ticks_pass() {
	local have
	have=$(grep -c '^tick' "$D/out")
	timeout 60 tail -n +1 -f "$D/out" |
		awk -v n=$((have + $1)) '$1 == "tick" && ++c >= n { exit }'
}

# one LABEL [COMMAND...]: the counts per second over the Workload's next
# 100 ticks (10 s) while COMMAND records
one() {
	local label=$1 pid= w0 w1 r0=0 r1=0 a0=0 a1=0 c0=0 c1=0 t0 t1 agent
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
		ticks_pass 10 # its first drains: not counted
	fi
	agent=$(tids perfjava)
	w0=$(switches nonvoluntary_ctxt_switches $workers)
	[ -n "$pid" ] && r0=$(switches voluntary_ctxt_switches "$pid") c0=$(proc_cpu_ticks "$pid")
	[ -n "$agent" ] && a0=$(switches voluntary_ctxt_switches $agent)
	t0=$(mono)
	ticks_pass 100
	t1=$(mono)
	w1=$(switches nonvoluntary_ctxt_switches $workers)
	[ -n "$pid" ] && r1=$(switches voluntary_ctxt_switches "$pid") c1=$(proc_cpu_ticks "$pid")
	[ -n "$agent" ] && a1=$(switches voluntary_ctxt_switches $agent)
	if [ -n "$pid" ]; then
		kill -INT "$pid" 2>/dev/null
		wait "$pid"
	fi
	awk -v j="$J" -v l="$label" -v s="$(((t1 - t0) / 1000000))" -v hz="$(getconf CLK_TCK)" \
		-v w=$((w1 - w0)) -v r=$((r1 - r0)) -v c=$((c1 - c0)) -v a=$((a1 - a0)) 'BEGIN {
		s = s > 0 ? s / 1000 : 1
		printf "%s: %-30s workers switched out %4d/s; recorder woken %4d/s, its CPU %4.1f %%; agent thread woken %3d/s\n",
			j, l, w / s, r / s, 100 * c / hz / s, a / s }'
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/wake.$J
	mkdir -p "$D"
	start_jvm "$jdk" "$D/out" -- Workload 200 2 "$D/go" ticks || continue
	touch "$D/go"
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
