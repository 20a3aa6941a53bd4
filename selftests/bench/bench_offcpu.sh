#!/usr/bin/env bash
# The cost of the Java frames of off-CPU stacks: `record -e offcpu` on a JVM
# running Waits (sleep, socket and monitor waits: ~600 off-CPU intervals a
# second), attached with -p, on JDK 17 and 25, three ways: the Java stacks
# asked of the agent, the agent attached but asked nothing
# (PERFJAVA_OFFCPU_JAVA=0) and --no-java (native frames only). Per JDK:
#   - the agent thread's CPU (schedstat) per 1,000 off-CPU intervals and per
#     1,000 stacks asked, over the recording once the agent's CPU has
#     settled (the attach and the replay of code and threads are left out);
#   - GetStackTrace's time per walk, measured in the agent (wall time);
#   - the reader's CPU per 1,000 intervals, with Java stacks and without
#     (no agent), over the same window, and their ratio;
#   - how many intervals got their Java frames, woke before the walk, ...;
#   - the sleeping idler's voluntary switches across the recording (the
#     attach's probe for thread ids wakes it once; the walks do not).
# Per-1000 figures count the window's intervals at the recording's rate.
# Figures only: it never fails on a timing. PJ_BENCH_WINDOW (4 s) changes
# the length.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
win=${PJ_BENCH_WINDOW:-4}

if ! "$PJ_BIN" list tracepoint 2>/dev/null | grep -q 'sched:sched_switch'; then
	echo "skip: the sched:sched_switch tracepoint is not available here"
	exit 0
fi

# task_cpu PID COMM: CPU ns (schedstat) of the thread named COMM, or empty
task_cpu() {
	local t
	for t in /proc/"$1"/task/*; do
		if [ "$(cat "$t/comm" 2>/dev/null)" = "$2" ]; then
			cut -d' ' -f1 "$t/schedstat"
			return
		fi
	done
}

# jvm_cpu PID: CPU ns (schedstat) of all of JVM PID's threads
jvm_cpu() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'
}

# agent_in PID: the agent's thread is running in JVM PID
agent_in() { [ -n "$(task_cpu "$1" perfjava-agent)" ]; }

# agent_quiet PID: the agent's thread used under 2 ms of CPU since the last
# call (20 ms apart under wait_for: the attach's replay keeps it busier)
agent_quiet() {
	local c
	c=$(task_cpu "$1" perfjava-agent)
	[ -n "$c" ] && [ -n "${_agent_cpu:-}" ] && [ $((c - _agent_cpu)) -lt 2000000 ] && return 0
	_agent_cpu=$c
	return 1
}

# idler_vcs PID: the voluntary context switches of Waits' idler thread
idler_vcs() {
	awk '/^Name:/ { n = $2 } /^voluntary_ctxt_switches/ && n == "idler" { print $2 }' \
		/proc/"$1"/task/*/status 2>/dev/null
}

# stat FILE KEY: a STATS value of a recording
stat_of() { "$PJ_BIN" report -i "$1" --format meta | awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }'; }

# run JDK MODE: one recording of a fresh Waits JVM; MODE java or nojava.
# Leaves "agent_ns window_ns reader_ns idler_vcs_before idler_vcs_after"
# in $TMP/MODE.res, and $TMP/MODE.data.
run() {
	local jdk=$1 mode=$2 pid rpid a0 a1 j0 j1 t0 t1 i v0 v1 r flags=()
	[ "$mode" = nojava ] && flags=(--no-java)
	[ "$mode" = noask ] && export PERFJAVA_OFFCPU_JAVA=0
	"$jdk/bin/java" -cp "$CLASSES" Waits $((win + 30)) >"$TMP/$mode.out" 2>&1 &
	pid=$!
	wait_for 10 grep -q '^ready' "$TMP/$mode.out"
	"$PJ_BIN" record -q -e offcpu "${flags[@]}" -p "$pid" -o "$TMP/$mode.data" 2>"$TMP/$mode.err" &
	rpid=$!
	unset PERFJAVA_OFFCPU_JAVA
	v0=$(idler_vcs "$pid")
	[ "$mode" = nojava ] || wait_for 10 agent_in "$pid"
	_agent_cpu=
	[ "$mode" = nojava ] || wait_for 10 agent_quiet "$pid" # replay done
	a0=$(task_cpu "$pid" perfjava-agent)
	j0=$(jvm_cpu "$pid")
	r=$(cut -d' ' -f1 /proc/$rpid/schedstat 2>/dev/null)
	t0=$(date +%s%N)
	sleep "$win"
	a1=$(task_cpu "$pid" perfjava-agent)
	j1=$(jvm_cpu "$pid")
	r=$(($(cut -d' ' -f1 /proc/$rpid/schedstat 2>/dev/null) - r))
	t1=$(date +%s%N)
	kill -TERM "$rpid"
	wait "$rpid"
	v1=$(idler_vcs "$pid")
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	# the JVM's CPU without its agent thread: its threads' own, the
	# kernel's copies at their switch-outs included
	echo "$((${a1:-0} - ${a0:-0})) $((t1 - t0)) ${r:-0} ${v0:-?} ${v1:-?} $((j1 - j0 - (${a1:-0} - ${a0:-0})))" >"$TMP/$mode.res"
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	run "$jdk" java
	run "$jdk" nojava
	run "$jdk" noask
	read -r ag w rj v0 v1 jj <"$TMP/java.res"
	read -r _ wn rn _ _ jn <"$TMP/nojava.res"
	read -r aq wq rq _ _ jq <"$TMP/noask.res"
	dn=$(stat_of "$TMP/nojava.data" duration_ns)
	nn=$("$PJ_BIN" report -i "$TMP/nojava.data" --format meta | awk '$1 == "stat" && $2 == "samples" { print $3 }')
	dq=$(stat_of "$TMP/noask.data" duration_ns)
	nq=$("$PJ_BIN" report -i "$TMP/noask.data" --format meta | awk '$1 == "stat" && $2 == "samples" { print $3 }')
	dur=$(stat_of "$TMP/java.data" duration_ns)
	n=$(stat_of "$TMP/java.data" offcpu_java_intervals)
	asked=$(stat_of "$TMP/java.data" offcpu_java_asked)
	answered=$(stat_of "$TMP/java.data" offcpu_java_answered)
	acc=$(stat_of "$TMP/java.data" offcpu_java_accepted)
	woke=$(stat_of "$TMP/java.data" offcpu_java_woke)
	notj=$(stat_of "$TMP/java.data" offcpu_java_not_java)
	wns=$(stat_of "$TMP/java.data" offcpu_java_walk_ns)
	copies=$(stat_of "$TMP/java.data" offcpu_java_copies_answered)
	cns=$(stat_of "$TMP/java.data" offcpu_java_copy_walk_ns)
	awk -v J="$J" -v ag="$ag" -v w="$w" -v dur="$dur" -v n="$n" -v asked="$asked" \
		-v answered="$answered" -v acc="$acc" -v woke="$woke" -v notj="$notj" -v wns="$wns" \
		-v rj="$rj" -v rn="$rn" -v nn="$nn" -v dn="$dn" -v wn="$wn" -v aq="$aq" -v wq="$wq" -v rq="$rq" -v dq="$dq" -v nq="$nq" -v v0="$v0" -v v1="$v1" -v jj="$jj" -v jn="$jn" -v copies="$copies" -v cns="$cns" 'BEGIN {
		nw = n * w / dur; aw = asked * w / dur # in the window, at the run'"'"'s rate
		printf "%s: %d off-CPU intervals in %.1f s, %d asked, %d with Java frames, %d woke before the walk, %d not Java\n", J, n, dur / 1e9, asked, acc, woke, notj
		nqw = nq * wq / dq
		printf "%s: agent CPU %.1f ms per 1000 intervals, %.1f ms per 1000 stacks asked (%.1f ms per 1000 intervals when none is asked)\n", J, nw ? ag / 1e6 / nw * 1000 : 0, aw ? ag / 1e6 / aw * 1000 : 0, nqw ? aq / 1e6 / nqw * 1000 : 0
		printf "%s: GetStackTrace %.1f us per walk (wall, in the agent)\n", J, (answered - copies > 0) ? wns / 1e3 / (answered - copies) : 0
		# the cost per wait to the target: its agent thread, and its
		# other threads (the kernel copying 8 KiB of stack at each
		# switch-out runs on them) against the same run without the agent
		pj = nw ? jj / 1e3 / nw : 0
		pn = (dn && nn) ? jn / 1e3 / (nn * wn / dn) : 0
		printf "%s: cost per wait to the target: %.2f us of its agent thread (a walk in a stack copy %.2f us, wall); its other threads %.2f us per wait with Java stacks, %.2f us without the agent (difference %.2f us)\n", J, nw ? ag / 1e3 / nw : 0, copies ? cns / 1e3 / copies : 0, pj, pn, pj - pn
		nnw = nn * wn / dn
		printf "%s: reader CPU per 1000 intervals: %.1f ms with Java stacks, %.1f ms with the agent asked nothing, %.1f ms without the agent (ratios %.2f, %.2f)\n", J, nw ? rj / 1e6 / nw * 1000 : 0, nqw ? rq / 1e6 / nqw * 1000 : 0, nnw ? rn / 1e6 / nnw * 1000 : 0, (nqw && nw && rq) ? (rj / nw) / (rq / nqw) : 0, (nnw && nw && rn) ? (rj / nw) / (rn / nnw) : 0
		printf "%s: the sleeping idler'"'"'s voluntary switches over the recording: %s -> %s (the attach'"'"'s probe wakes it once)\n", J, v0, v1
	}'
done
