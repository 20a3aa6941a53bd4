#!/usr/bin/env bash
# A JVM profiled all day (issue 49), against JDK 17 and 25:
# - a session leaves the JVM as it found it: its threads, its signal
#   dispositions (but the agent's SIGTRAP and real-time signal, caught, and
#   SIGIO, ignored: ARCHITECTURE's exceptions), every JVMTI event the JVM
#   posts and capability it has on (but CompiledMethodLoad), the heap
#   sampling interval; after cpu, wall, lock and alloc sessions alike;
# - a second copy of the agent (another build's, another path) does not take
#   the first one's signals: the issue's evidence (every sample "thread did
#   not answer"); one session at a time among copies;
# - a JVM whose SIGTRAP handler is replaced during a recording: the
#   recording says so in one warning line with the cause, and so does
#   report's header; the next recording walks by the agent's own signal;
# - a JVM whose first attach fails lives on (JDK 17 unloads such an agent);
# - walks keep coming while the agent replays a long code map.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"
. "$(dirname "$0")/allday.sh"

java_suite "a JVM profiled all day"
# a thread set that stays as it is: no compiler or GC threads that come
# and go
STABLE=(-XX:+UseSerialGC -XX:-UseDynamicNumberOfCompilerThreads -Xmx256m -Dallday.busy=25)
# (AllDay with one worker busy a quarter of the time: ~100 samples of its
# threads in a 2 s session, and the cores left to the sessions and to the
# test beside this one, not burnt between the sessions for 100 s)

# record_java LABEL DATA ERR [OPTIONS...]: records JPID for 2 s; checks
# >= 90% of its Java threads' samples have Java frames
record_java() {
	local label=$1 data=$2 err=$3 share n
	shift 3
	# the last session's agent thread ends after its reader: until then
	# the JVM is busy for another copy's session
	wait_for 10 agent_gone "$JPID"
	"$PJ_BIN" record -p "$JPID" -d 2 "$@" -o "$data" 2>"$err"
	read -r share n <<<"$(java_share "$data")"
	# at least 10 samples; 90% less three standard errors for the count (a
	# JVM starved beside another make check had 17 samples in 2 s)
	if [ "${n:-0}" -lt 10 ]; then
		not_ok "$label: Java frames on the Java threads' samples: ${n:-0} samples, 10 needed"
	else
		check_share_min "$label: Java frames on the Java threads' samples" "$share" "$n" 90 && return
	fi
	grep -h 'java\|warning\|busy' "$err" | sed 's/^/# /'
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D/copy"
	start_jvm "$jdk" "$D/a.out" "${STABLE[@]}" -- AllDay 600 1 "$D/go" || {
		not_ok "$J: the JVM starts"
		continue
	}
	"$jdk/bin/jcmd" "$JPID" VM.version >/dev/null 2>&1 # its Attach Listener
	wait_for 10 grep -q 'Attach Listener' /proc/"$JPID"/task/*/comm
	jvm_state "$JPID" >"$D/s0"

	# --- as found, after one session and after every mode
	record_java "$J: cpu" "$D/c.data" "$D/c.err"
	signo=$(grep -o 'signal [0-9]*' "$D/c.err" | head -1 | cut -d' ' -f2)
	wait_for 10 agent_gone "$JPID"
	jvm_state "$JPID" >"$D/s1"
	state_diff "$D/s0" "$D/s1" >"$D/d1"
	sed 's/^/# after one session: /' "$D/d1"
	c0=$(awk '$1 == "sigcgt" { print $2 }' "$D/s0")
	c1=$(awk '$1 == "sigcgt" { print $2 }' "$D/s1")
	added=$(sig_bits "$(printf %x $((0x$c1 & ~0x$c0)))" | paste -sd,)
	check "$J: the signals caught since are SIGTRAP and the agent's ($added; its signal $signo)" \
		[ "$added" = "5,$signo" ]
	check "$J: no signal handler was taken away" [ $((0x$c0 & ~0x$c1)) -eq 0 ]
	i0=$(awk '$1 == "sigign" { print $2 }' "$D/s0")
	i1=$(awk '$1 == "sigign" { print $2 }' "$D/s1")
	check "$J: the one signal ignored since is SIGIO" \
		[ "$(sig_bits "$(printf %x $((0x$i1 ^ 0x$i0)))" | paste -sd,)" = 29 ]
	check "$J: its threads are those it had (count and names)" \
		bash -c "! grep -q '^threads\|^names' '$D/d1'"
	# the JVM's own flags that any agent's first capability sets (what it
	# could then be asked) stay, as after any agent's attach
	check "$J: the JVMTI events and capabilities on are those it had, but CompiledMethodLoad" \
		bash -c "! grep '^jvmti' '$D/d1' | grep -v '_should_post_compiled_method_loadE 0->1' |
			grep -vq '_can_\(hotswap_or_post_breakpoint\|modify_any_class\|walk_any_space\)E 0->1'"
	check "$J: the heap sampling interval is what it was ($(awk '$1 == "interval" { print $2 }' "$D/s1"))" \
		bash -c "! grep -q '^interval' '$D/d1'"
	for mode in wall lock alloc; do
		# shellcheck disable=SC2046
		"$PJ_BIN" record -q -p "$JPID" -d 2 $(pj_mode $mode) -o "$D/m.data" 2>"$D/$mode.err"
		check "$J: a $mode session ends well" [ $? -eq 0 ]
	done
	wait_for 10 agent_gone "$JPID"
	jvm_state "$JPID" >"$D/s2"
	state_diff "$D/s1" "$D/s2" >"$D/d2"
	sed 's/^/# after wall, lock and alloc: /' "$D/d2"
	check "$J: after wall, lock and alloc sessions the JVM is as after the first" [ ! -s "$D/d2" ]

	# --- SIGTRAP's handler replaced during a recording
	"$PJ_BIN" record -p "$JPID" -d 4 -o "$D/r.data" 2>"$D/r.err" &
	rec=$!
	track $rec
	wait_for 30 grep -q 'java frames on' "$D/r.err"
	touch "$D/go"
	wait_for 10 grep -q '^replaced' "$D/a.out"
	wait $rec
	grep -h 'warning' "$D/r.err" | sed 's/^/# /'
	check "$J: the recording warns in one line: SIGTRAP's handler became the JVM's own Java handler" \
		grep -q "^perfjava: warning: .*SIGTRAP handler became libjvm.so's during the recording" "$D/r.err"
	w=$(sed -n 's/^perfjava: warning: //p' "$D/r.err")
	"$PJ_BIN" report -i "$D/r.data" >"$D/r.txt" 2>&1
	check "$J: report's header says the same" grep -qF -- "Java warning        : $w" "$D/r.txt"
	record_java "$J: the next recording" "$D/n.data" "$D/n.err"
	# --- a second copy of the agent, from another path
	cp "$PJ_BUILD/libperfjava-agent.so" "$D/copy/"
	record_java "$J: through a second copy of the agent" "$D/k.data" "$D/k.err" \
		--agent="$D/copy/libperfjava-agent.so"
	record_java "$J: through the first copy again, the second one's handlers in front" \
		"$D/k2.data" "$D/k2.err"
	check "$J: ... which takes its own signal, not SIGTRAP" \
		bash -c "grep -q 'walks at the sample' '$D/k2.err' && ! grep -q 'by SIGTRAP' '$D/k2.err'"
	"$PJ_BIN" record -p "$JPID" -d 120 -o "$D/b1.data" 2>"$D/b1.err" &
	rec=$!
	track $rec
	wait_for 30 grep -q 'java frames on' "$D/b1.err"
	"$PJ_BIN" record -p "$JPID" -d 1 --agent="$D/copy/libperfjava-agent.so" \
		-o "$D/b2.data" 2>"$D/b2.err"
	kill -INT $rec
	wait $rec
	check "$J: one session at a time among copies: the second one is told the JVM is busy" \
		grep -q 'being recorded by another perfjava' "$D/b2.err"

	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null

	# --- the first attach fails: the JVM lives on
	start_jvm "$jdk" "$D/f.out" "${STABLE[@]}" -- AllDay 300 1 || continue
	"$jdk/bin/jcmd" "$JPID" JVMTI.agent_load "$PJ_BUILD/libperfjava-agent.so" >"$D/f.jcmd" 2>&1
	for i in 1 2 3; do "$jdk/bin/jcmd" "$JPID" GC.run >/dev/null 2>&1; done
	check "$J: a JVM whose first attach failed (no sock=) lives through three safepoints" \
		kill -0 "$JPID"
	record_java "$J: ... and is recorded after" "$D/f.data" "$D/f.err"
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null

	# --- a replay of the code map as long as the recording
	PERFJAVA_AGENT_TESTREPLAY=3000 start_jvm "$jdk" "$D/p.out" "${STABLE[@]}" -- AllDay 300 1 ||
		continue
	record_java "$J: while the agent replays its code map for 3 s" "$D/p.data" "$D/p.err"
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true # (the JVM's own end: 143)
done
