#!/usr/bin/env bash
# Every wait with its Java stack on a busy machine (issue 21): spinners on
# every core, a JVM (JDK 17, 25) whose threads each wait in one known
# method (Blocking.java: sleeps of 1 and 20 ms, parks, monitor waits and
# entries, a SynchronousQueue hand-off of microsecond waits, a socket read
# blocked since before the recording), recorded with -e offcpu and --wall
# attached with -p (the JDKs' JVMs at once). For each waiting thread, at
# least 99 % of its off-CPU time (weighted) carries its own method; the
# socket reader blocked from the start shows its user frames under its Java
# ones; no thread's time exceeds the recording; threads carry their Java
# names. And a native program's thread blocked since before the recording
# shows its user frames.
# alone: spinners on every core
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

if ! "$PJ_BIN" list tracepoint 2>/dev/null | grep -q 'sched:sched_switch'; then
	skip "waits on a busy machine" "the sched:sched_switch tracepoint is not available here"
	exit 0
fi
java_suite "waits on a busy machine"

# busy: spinners on every core (cpusplit, a thread a core) while the
# recordings run, stopped between (the JVMs' start and the reports need no
# busy machine)
busy() { start_prog "$TMP/spin.out" "$PROGS/cpusplit" 600 "$(nproc)"; SPIN=$PID; }
idle() { kill "$SPIN" 2>/dev/null; wait "$SPIN" 2>/dev/null || true; }

# own FOLDED MODE: per waiting thread, "NAME PCT MISSING_NS" (its off-CPU
# time under its own method, in percent), then "longest NS NAME": the
# thread whose time adds up to the most (on and off CPU in --wall)
own() {
	awk '
	BEGIN {
		m["sleep1"] = "Blocking.sleep1"; m["sleep20"] = "Blocking.sleep20"
		m["parker"] = "Blocking.parkLoop"; m["waiter"] = "Blocking.monitorWait"
		m["entrant"] = "Blocking.monitorEnter"; m["taker"] = "Blocking.handoffTake"
		m["putter"] = "Blocking.handoffPut"; m["sockreader"] = "Blocking.readForever"
	}
	{
		w = $NF; t = $0; sub(/;.*/, "", t); all[t] += w
		sub(/^\[/, "", t); sub(/ tid=.*/, "", t)
		if (!(t in m) || $0 !~ /\[off-cpu: [a-z]+\] [0-9]+$/) next
		tot[t] += w
		if (index($0, ";" m[t] "_[")) got[t] += w
	}
	END {
		for (t in m) printf "%s %.2f %.0f\n", t, tot[t] ? 100 * got[t] / tot[t] : 0, tot[t] - got[t]
		for (t in all) if (all[t] > max) { max = all[t]; who = t }
		printf "longest %.0f %s\n", max, who
	}' "$1"
}

# The JVMs (JDK 17, 25) recorded at once, each by a perfjava of its own,
# on the busy machine (the other JVM and its recorder make it busier
# still): the spinners' seconds, most of the test's CPU, are halved. Then
# the JVMs ended (their hand-offs spin too) before the reports.
declare -A jpid=() jwait=() rc=()
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	start_jvm "$jdk" "$TMP/$J.out" -- Blocking 600 || { not_ok "$J: Blocking started"; continue; }
	jpid[$J]=$JPID jwait[$J]=$JWAIT
done
busy
for mode in offcpu wall; do
	flag=(-e offcpu)
	[ $mode = wall ] && flag=(--wall)
	recs=()
	for J in "${!jpid[@]}"; do
		"$PJ_BIN" record "${flag[@]}" -p "${jpid[$J]}" -d 4 -o "$TMP/$J.$mode.data" 2>"$TMP/$J.$mode.err" &
		recs+=("$J:$!")
	done
	for r in "${recs[@]}"; do
		wait "${r#*:}"
		rc[${r%%:*}.$mode]=$?
	done
done
idle
for J in "${!jwait[@]}"; do
	kill "${jwait[$J]}" 2>/dev/null
	wait "${jwait[$J]}" 2>/dev/null
done

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	[ -n "${jpid[$J]:-}" ] || continue
	for mode in offcpu wall; do
		check "$J $mode: record -p exits 0" [ "${rc[$J.$mode]}" -eq 0 ]
		"$PJ_BIN" report -i "$TMP/$J.$mode.data" --format collapsed --total --threads >"$TMP/$J.$mode.folded"
		own "$TMP/$J.$mode.folded" >"$TMP/$J.$mode.own"
		sed 's/^/# /' "$TMP/$J.$mode.own"
		while read -r t pct miss; do
			[ "$t" = longest ] && continue
			check "$J $mode: $t's off-CPU time carries its own method ($pct % >= 99 %)" \
				awk -v p="$pct" 'BEGIN { exit !(p >= 99) }'
		done <"$TMP/$J.$mode.own"
		if ! awk '$1 != "longest" && $2 < 99 { bad = 1 } END { exit !bad }' "$TMP/$J.$mode.own"; then :; else
			grep -v "Blocking\." "$TMP/$J.$mode.folded" | grep -E '^\[(sleep|parker|waiter|entrant|taker|putter|sockreader)' |
				sort -t' ' -k2 -rn | head -5 | cut -c1-400 | sed 's/^/# miss: /'
			grep -E "off-CPU Java|lost" "$TMP/$J.$mode.err" | sed 's/^/# /'
			"$PJ_BIN" report -i "$TMP/$J.$mode.data" --format meta | grep offcpu_java | tr '\n' ' ' | sed 's/^/# /'
		fi
		dur=$("$PJ_BIN" report -i "$TMP/$J.$mode.data" --format meta | awk '$2 == "duration_ns" { print $3 }')
		read -r _ most who < <(grep '^longest' "$TMP/$J.$mode.own")
		check "$J $mode: no thread's time exceeds the recording ($who: $most of $dur ns)" \
			awk -v a="${most:-0}" -v d="${dur:-0}" 'BEGIN { exit !(d > 0 && a <= d) }'
		check "$J $mode: the socket reader blocked from the start shows its user frames" \
			grep -qE '^\[sockreader tid=[0-9]+\];.*Blocking\.readForever_\[.\];.*read0;[^;]*;read;.*\[off-cpu: io\] [0-9]+$' "$TMP/$J.$mode.folded"
		check "$J $mode: threads blocked all along carry their Java names" \
			eval 'grep -q "^\[Reference Handler tid=" "$TMP/$J.$mode.folded" && grep -q "^\[main tid=" "$TMP/$J.$mode.folded"'
	done
done

# a native thread blocked before the recording (waits' wait_never reads a
# pipe nobody writes)
"$PROGS/waits" 60 >/dev/null 2>&1 &
wp=$!
track $wp
wait_for 10 eval "grep -qs pipe_read /proc/$wp/task/*/stack || grep -qs anon_pipe_read /proc/$wp/task/*/stack"
busy
"$PJ_BIN" record -q -e offcpu -p "$wp" -d 1 -o "$TMP/native.data"
"$PJ_BIN" report -i "$TMP/native.data" --format collapsed --threads >"$TMP/native.folded"
check "native: the thread blocked from the start shows its user frames" \
	grep -qE ';start_thread;never;wait_never;read;' "$TMP/native.folded"
kill $wp 2>/dev/null

# records lost off CPU: why, and what to do
"$PJ_BIN" record -e offcpu -m 1 -o "$TMP/lost.data" -- "$PROGS/bursts" 0 1 1 >/dev/null 2>"$TMP/lost.err"
if grep -q ' 0 lost' "$TMP/lost.err"; then
	skip "off-CPU records lost: why and what to do" "no one-page ring filled here"
else
	check "off-CPU records lost: the summary says the rings filled at so many switch-outs a second, and to give more pages" \
		grep -qE '^perfjava: [0-9]+ samples lost: the rings \(1 page, 4 KiB a thread\) filled faster than the reader emptied them \([0-9]+ switch-outs a second\); give more pages per thread \(-m 4\)$' "$TMP/lost.err"
fi
idle
