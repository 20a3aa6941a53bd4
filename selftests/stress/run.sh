#!/usr/bin/env bash
# make stress: minutes, not part of make check. Each part ends with one
# verdict line ("stress <part>: PASS|FAIL ...figures") and the script's exit
# status says whether all passed.
#
#   attach   STRESS_CYCLES (100) attach/record/detach cycles per JDK (17, 25)
#            against a JVM that churns threads and allocates
#   soak     STRESS_SOAK seconds (600) at 1 kHz of a JVM starting
#            STRESS_RATE (2000) short threads a second, each named anew
#            (issue 19, attack 12), the reader's RSS printed every 10 s;
#            passes when it grows by at most 3 MB after the first 10 s
#   churn    a native target making threads as fast as it can for
#            STRESS_CHURN seconds (60): the reader's bytes per thread, about 0
#   kill     STRESS_KILLS (30) SIGKILLs of the recorder at random moments:
#            the JVM lives on, the next attach works, no socket is left
#   jvmkill  SIGKILL of the JVM mid-walk, 5 times: the recorder ends cleanly
#   allday   a JVM profiled all day (issue 49), per JDK (17, 25): one JVM
#            (AllDay, under its own load) gets STRESS_ALLDAY (100) rounds of
#            a session of every mode (cpu, wall, lock, alloc) by perfjava and
#            by async-profiler in turn (perfjava alone where async-profiler
#            cannot be built), STRESS_ALLDAY_SECS (2) s each; passes when
#            every perfjava cpu session has Java frames on >= 99% of its
#            Java threads' samples, the JVM's threads are as many at the
#            end as after the first round, its RSS grew by at most 32 MB,
#            and every session of either ended well within its time + 30 s
#
#   selftests/stress/run.sh [attach] [soak] [churn] [kill] [jvmkill] [allday]
#   (STRESS_JDK=17 or 25: that JDK only)
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
. "$PJ_TOP/selftests/java/allday.sh"

cycles=${STRESS_CYCLES:-100}
soak=${STRESS_SOAK:-600}
rate=${STRESS_RATE:-2000}
churn_secs=${STRESS_CHURN:-60}
kills=${STRESS_KILLS:-30}
allday_rounds=${STRESS_ALLDAY:-100}
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(attach soak churn kill jvmkill allday)
if [ -n "${STRESS_JDK:-}" ]; then
	only=()
	for j in "${JDKS[@]}"; do
		[[ $(jdk_name "$j") == *-"$STRESS_JDK"* ]] && only+=("$j")
	done
	JDKS=("${only[@]}")
fi
[ ${#JDKS[@]} -eq 0 ] && { echo "stress: no JDK ${STRESS_JDK:-17 or 25} installed"; exit 1; }
compile_java >/dev/null 2>&1 || { echo "stress: javac failed"; exit 1; }
failed=0
verdict() { # verdict PASS|FAIL PART TEXT
	echo "stress $2: $1 $3"
	[ "$1" = PASS ] || failed=1
}
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
alive() { kill -0 "$1" 2>/dev/null; }
# churning JVM: Threads SECS STEADY (new threads all the time, each
# allocating its stack and objects)
churn_jvm() { start_jvm "$1" "$TMP/jvm.out" -Xmx256m -- Threads "$2" 8; }

part_attach() {
	local jdk n i ok crash t0 rc
	for jdk in "${JDKS[@]}"; do
		n=$(jdk_name "$jdk")
		churn_jvm "$jdk" 100000
		ok=0 crash=0 t0=$(date +%s)
		for ((i = 0; i < cycles; i++)); do
			"$PJ_BIN" record -p "$JPID" -d 0.2 -q -o "$TMP/a.data" 2>"$TMP/a.err"
			rc=$?
			[ "$rc" -ge 128 ] && crash=$((crash + 1))
			if [ "$rc" -eq 0 ] && ! grep -q 'java frames unavailable' "$TMP/a.err"; then
				ok=$((ok + 1))
			else # why, with numbers out, to count alike reasons
				{ echo "rc $rc"; grep -i 'unavailable\|error\|cannot' "$TMP/a.err"; } |
					sed -E 's/[0-9]+/N/g' | paste -sd ' ' >>"$TMP/a.fails"
			fi
			alive "$JPID" || break
		done
		local jvm_ok=yes; alive "$JPID" || jvm_ok=no
		local v=PASS; [ "$ok" -eq "$cycles" ] && [ "$crash" -eq 0 ] && [ $jvm_ok = yes ] || v=FAIL
		verdict $v "attach $n" "$ok/$cycles cycles with Java frames, $crash recorder crashes, JVM alive: $jvm_ok, $(($(date +%s) - t0)) s"
		[ -s "$TMP/a.fails" ] && sort "$TMP/a.fails" | uniq -c | sed 's/^/  /'
		rm -f "$TMP/a.fails"
		kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	done
}

part_soak() {
	local jdk=${JDKS[0]} pj t first= last= max=0 r samples cpu=0
	start_jvm "$jdk" "$TMP/jvm.out" -Xmx256m -- Threads $((soak + 5)) 8 "$rate"
	"$PJ_BIN" record -p "$JPID" -F 1000 -d "$soak" -q -o "$TMP/soak.data" 2>"$TMP/soak.err" &
	pj=$!
	local start; start=$(date +%s)
	for ((t = 10; t <= soak; t += 10)); do
		# until t seconds in, or the recorder ended
		wait_for 12 bash -c "[ \$(date +%s) -ge $((start + t)) ] || ! kill -0 $pj 2>/dev/null"
		alive "$pj" || break
		r=$(rss_kb "$pj")
		[ -z "$first" ] && first=$r # after start-up
		last=$r; [ "$r" -gt "$max" ] && max=$r
		cpu=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pj/stat" 2>/dev/null || echo "$cpu")
		echo "  soak t=${t}s reader RSS ${r} kB (+$((r - first))), CPU $((cpu / 100)) s, JVM threads $(ls /proc/$JPID/task 2>/dev/null | wc -l)"
	done
	wait "$pj"; r=$?
	samples=$("$PJ_BIN" report -i "$TMP/soak.data" 2>/dev/null | awk -F: '/^Samples/ { gsub(/ /, "", $2); print $2 }')
	wait_for 30 grep -q '^done' "$TMP/jvm.out"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	local made; made=$(awk '/^done/ { print $2 }' "$TMP/jvm.out")
	first=${first:-0}; last=${last:-0}
	local v=PASS growth=$((max - first))
	{ [ "$r" -eq 0 ] && [ "$growth" -le 3072 ]; } || v=FAIL
	verdict $v soak "${soak} s at 1 kHz, ${made:-?} threads started in $((soak + 5)) s: reader RSS ${first} kB at 10 s, ${last} kB at the end, growth ${growth} kB (<= 3072) at most, reader CPU $((cpu / 100)) s ($((cpu / soak)) %), ${samples:-0} samples, recorder rc $r"
}

# a native target making threads as fast as it can: the reader's bytes per
# thread created, between 10 s in and the end
part_churn() {
	local secs=$churn_secs pj a b n
	"$PROGS/churn" $((secs + 5)) >"$TMP/churn.out" &
	track $!
	wait_for 10 grep -q '^ready' "$TMP/churn.out"
	local tgt; tgt=$(awk '/^ready/ { print $2 }' "$TMP/churn.out")
	"$PJ_BIN" record -p "$tgt" -F 1000 -q --no-java -d "$secs" -o "$TMP/churn.data" 2>/dev/null &
	pj=$!
	local start; start=$(date +%s)
	wait_for 15 bash -c "[ \$(date +%s) -ge $((start + 10)) ]"
	a=$(rss_kb "$pj"); n=$(ls "/proc/$tgt/task" | wc -l)
	wait_for $((secs + 10)) bash -c "[ \$(date +%s) -ge $((start + secs - 1)) ]"
	b=$(rss_kb "$pj")
	wait "$pj"
	wait_for 10 grep -q '^done' "$TMP/churn.out"
	n=$(awk '/^done/ { print $2 }' "$TMP/churn.out")
	# threads made in the measured span, about: all of them times its share
	local made=$(( ${n:-0} * (secs - 11) / (secs + 5) ))
	local per=$(( made > 0 ? (b - a) * 1024 / made : 0 ))
	local v=PASS; [ "$per" -le 8 ] || v=FAIL
	verdict $v churn "${n:-0} native threads made in $((secs + 5)) s: reader RSS ${a} kB at 10 s, ${b} kB at $((secs - 1)) s, ${per} bytes per thread"
}

part_kill() {
	local jdk=${JDKS[0]} i pj ok=0 left
	churn_jvm "$jdk" 100000
	for ((i = 0; i < kills; i++)); do
		"$PJ_BIN" record -p "$JPID" -q -o "$TMP/k.data" 2>/dev/null &
		pj=$!
		# a random moment: 0 to 1.5 s in
		sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", r % 1500 / 1000 }')" # the moment of the kill, not a wait
		kill -9 "$pj" 2>/dev/null; wait "$pj" 2>/dev/null
		alive "$JPID" || break
		ok=$((ok + 1))
	done
	"$PJ_BIN" record -p "$JPID" -d 0.3 -q -o "$TMP/k.data" 2>"$TMP/k.err"
	local after=$? jvm_ok=yes
	alive "$JPID" || jvm_ok=no
	# sockets of readers that are gone (live ones may be other runs')
	left=0
	for f in "/proc/$JPID/root/tmp/".perfjava-*.sock; do
		[ -S "$f" ] || continue
		f=${f##*/.perfjava-}
		alive "${f%%-*}" || left=$((left + 1))
	done
	local v=PASS
	{ [ "$ok" -eq "$kills" ] && [ $jvm_ok = yes ] && [ "$after" -eq 0 ] &&
		! grep -q 'java frames unavailable' "$TMP/k.err" && [ "$left" -eq 0 ]; } || v=FAIL
	verdict $v kill "$ok/$kills recorder SIGKILLs survived by the JVM, next attach rc $after with Java frames: $(grep -q unavailable "$TMP/k.err" && echo no || echo yes), $left stale sockets left"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
}

part_jvmkill() {
	local jdk=${JDKS[0]} i pj rc good=0 n=5
	for ((i = 0; i < n; i++)); do
		start_jvm "$jdk" "$TMP/jvm.out" -- Workload 60 4
		"$PJ_BIN" record -p "$JPID" -F 1000 -o "$TMP/j.data" 2>"$TMP/j.err" &
		pj=$!
		# recording (agent attached), and walks going on
		wait_for 30 grep -q 'recording' "$TMP/j.err"
		wait_for 10 size_over "$TMP/j.data" 8192
		kill -9 "$JPID"; wait "$JWAIT" 2>/dev/null
		# the recorder notices the target's exit and ends by itself
		wait_for 20 bash -c "! kill -0 $pj 2>/dev/null"
		if alive "$pj"; then kill -9 "$pj"; fi
		wait "$pj"; rc=$?
		if [ "$rc" -eq 0 ] && "$PJ_BIN" report -i "$TMP/j.data" >/dev/null 2>"$TMP/j.rerr"; then
			good=$((good + 1))
		else
			echo "  recorder rc $rc: $(tail -1 "$TMP/j.err"); report: $(head -1 "$TMP/j.rerr" 2>/dev/null)"
		fi
	done
	local v=PASS; [ "$good" -eq "$n" ] || v=FAIL
	verdict $v jvmkill "$good/$n JVMs killed mid-walk: the recorder ended by itself (rc 0) with a readable profile"
}

# perfjava and async-profiler taking turns on one JVM, all modes, under
# load: soak_round (selftests/java/allday.sh) per round
part_allday() {
	local jdk n dir i f v
	asprof_build >/dev/null 2>&1 || echo "  allday: async-profiler not built ($ASPROF_WHY): perfjava alone"
	export SOAK_SECS=${STRESS_ALLDAY_SECS:-2}
	for jdk in "${JDKS[@]}"; do
		n=$(jdk_name "$jdk")
		dir=$TMP/allday-$n
		mkdir -p "$dir"
		start_jvm "$jdk" "$dir/jvm.out" -Xmx256m -- AllDay 360000 2 || {
			verdict FAIL "allday $n" "the JVM did not start"
			continue
		}
		for ((i = 0; i < allday_rounds; i++)); do
			soak_round "$jdk" "$JPID" "$dir" "$i" cpu wall lock alloc
			alive "$JPID" || break
		done
		read -r -a f <<<"$(soak_figures "$dir/rounds")"
		v=PASS
		awk -v m="${f[1]}" -v n="${f[0]}" -v r="$allday_rounds" -v t1="${f[3]}" -v t2="${f[4]}" \
			-v r1="${f[5]}" -v r2="${f[6]}" -v pj="${f[7]}" -v ap="${f[8]}" -v bad="${f[9]}" \
			-v lim=$(((SOAK_SECS + 30) * 1000)) -v jvm="$(alive "$JPID" && echo 1 || echo 0)" \
			'BEGIN { exit !(jvm && n == r && m >= 99 && t1 == t2 && r2 - r1 <= 32768 &&
				pj <= lim && ap <= lim && bad == 0) }' || v=FAIL
		verdict $v "allday $n" "${f[0]} perfjava cpu sessions (of $allday_rounds rounds of cpu, wall, lock, alloc by perfjava${ASPROF:+ and async-profiler} in turn): Java frames min ${f[1]}%, median ${f[2]}%; JVM threads ${f[3]} -> ${f[4]}; RSS $((f[5] / 1024)) -> $((f[6] / 1024)) MB; longest session ${f[7]} ms (async-profiler ${f[8]} ms, limit $(((SOAK_SECS + 30) * 1000)) ms); ${f[9]} failed"
		[ -s "$dir/notes" ] && sed 's/[0-9][0-9]*/N/g' "$dir/notes" | sort | uniq -c | sed 's/^/  /' | head -20
		kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	done
}

for p in "${parts[@]}"; do
	"part_$p"
done
exit $failed
