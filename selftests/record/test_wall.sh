#!/usr/bin/env bash
# -e offcpu and --wall from the kernel's context switches, on a native
# program and a JVM (JDK 17, 25) with known waits on known paths (sleep, a
# pipe/socket read, a contended lock), each timed by the program itself:
# off-CPU time by path (native: function; JVM: its thread, named by the
# agent) within 5 pp of the program's truth, each wait in its own state for
# most of its time (a busy machine adds runnable time inside the call); a
# thread blocked since it started shows its whole wait (on a JVM, with its
# Java frames, and the walk does not wake it); the JVM's waits carry the
# Java methods above the call that blocked; --wall adds on-CPU time and
# covers each thread's whole timeline from when it is followed; --state
# filters. The program's own timings are the truth: off-CPU time is
# recorded whole, not sampled.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

if ! "$PJ_BIN" list tracepoint 2>/dev/null | grep -q 'sched:sched_switch'; then
	skip "off-CPU time" "the sched:sched_switch tracepoint is not available here"
	exit 0
fi

# shares FOLDED LABEL FIELD NAME:STATE...: for each NAME:STATE, the share of
# off-CPU time (collapsed --total) of stacks holding frame NAME (field 1 with
# --threads: a thread label) whose leaf is [off-cpu: STATE] (* for any),
# among them all
shares() {
	local f=$1; shift
	awk -v specs="$*" '
	BEGIN { n = split(specs, sp, " ") }
	{
		w = $NF; k = split($0, fr, ";"); st = fr[k]; sub(/ [0-9]+$/, "", st)
		for (i = 1; i <= n; i++) {
			split(sp[i], ns, ":")
			if (ns[2] != "*" && st != "[off-cpu: " ns[2] "]") continue
			for (j = 1; j <= k; j++) {
				g = fr[j]; sub(/_\[[0-9a-z]\]$/, "", g); sub(/ tid=[0-9]+\]$/, "", g)
				if (g == ns[1]) { c[i] += w; tot += w; break }
			}
		}
	}
	END { for (i = 1; i <= n; i++) { split(sp[i], ns, ":"); printf "%s %.2f\n", ns[1], tot ? 100 * c[i] / tot : 0 } }' "$f"
}
# javashare FOLDED: per Waits thread, the share of its off-CPU time whose
# stack has the Java method of its wait above the call that blocked
# (sleeper: Waits.waitSleep over Thread.sleep, reader: Waits.waitIo over a
# read0 native, locker: Waits.waitLock over a futex); for the idler, the
# weight of its longest stack with Waits.idle over Thread.sleep (ns)
javashare() {
	awk '
	{
		w = $NF; split($0, f, ";"); t = f[1]; sub(/^\[/, "", t); sub(/ tid=.*/, "", t)
		tot[t] += w
		if ((t == "sleeper" && $0 ~ /Waits\.waitSleep(_\[[0-9a-z]\])?;([^;]*;)*java\.lang\.Thread\.sleep/) ||
		    (t == "reader" && $0 ~ /Waits\.waitIo(_\[[0-9a-z]\])?;([^;]*;)*[A-Za-z.]*read0(_\[[0-9a-z]\])?;/) ||
		    (t == "locker" && $0 ~ /Waits\.waitLock(_\[[0-9a-z]\])?;([^;]*;)*[^;]*futex/))
			m[t] += w
		if (t == "idler" && $0 ~ /Waits\.idle(_\[[0-9a-z]\])?;([^;]*;)*java\.lang\.Thread\.sleep/ && w > idle)
			idle = w
	}
	END {
		for (t in m) printf "%s %.1f\n", t, 100 * m[t] / tot[t]
		printf "idler %.0f\n", idle
	}' "$1"
}
# within LABEL OUT SHARES PREFIX NAME...: checks each NAME's share against
# the program's "truth PREFIXNAME pct" line (off-CPU time is recorded
# whole: the tolerance is the method's, 5 pp)
within() {
	local label=$1 out=$2 sh=$3 prefix=$4 name truth got; shift 4
	for name in "$@"; do
		truth=$(awk -v f="$prefix$name" '$1 == "truth" && $2 == f { print $3 }' "$out")
		got=$(awk -v f="$name" '$1 == f { print $2 }' "$sh")
		echo "# $label: $name truth $truth% measured $got%"
		check_share "$label: $name off-CPU time" "$got" - "$truth" 5
	done
}
# recorded DATA: "START END" of the recording (ns, CLOCK_MONOTONIC)
recorded() {
	"$PJ_BIN" report -i "$1" --format meta |
		awk '$2 == "start_ns" { s = $3 } $2 == "duration_ns" { d = $3 } END { printf "%.0f %.0f\n", s, s + d }'
}

"$PJ_BIN" record -q -e offcpu -o "$TMP/w.data" -- "$PROGS/waits" 3 >"$TMP/w.out" 2>"$TMP/w.err"
check "record -e offcpu -- waits: exit 0" [ $? -eq 0 ]
"$PJ_BIN" report -i "$TMP/w.data" --format collapsed --total >"$TMP/w.folded"
# each wait's time in its call, whatever the state (the program times the call)
shares "$TMP/w.folded" 'wait_sleep:*' 'wait_io:*' 'wait_lock:*' >"$TMP/w.share"
within native "$TMP/w.out" "$TMP/w.share" "" wait_sleep wait_io wait_lock
for f in wait_sleep:sleep wait_io:io wait_lock:lock; do
	own=$(awk -v f="${f%%:*}" -v st="[off-cpu: ${f#*:}]" '$0 ~ "(^|;)" f "(;| )" {
		k = split($0, fr, ";"); s = fr[k]; sub(/ [0-9]+$/, "", s); t += $NF; if (s == st) m += $NF }
		END { printf "%.1f", t ? 100 * m / t : 0 }' "$TMP/w.folded")
	check "native: ${f%%:*} waits in state ${f#*:} for most of its off-CPU time ($own%)" \
		awk -v p="$own" 'BEGIN { exit !(p > 50) }'
done
read -r rec_start rec_end < <(recorded "$TMP/w.data")
nstart=$(awk '$1 == "life" && $2 == "never" { print $3 }' "$TMP/w.out")
# (the program's other threads' last end: it exits right after, and its
# never-woken thread's wait with it, whenever the recording's end comes)
nend=$(awk '$1 == "life" && $4 ~ /^[0-9]+$/ && $4 > e { e = $4 } END { printf "%.0f", e }' "$TMP/w.out")
"$PJ_BIN" report -i "$TMP/w.data" --format collapsed --total --threads --state io >"$TMP/io.folded"
# the never-woken thread: one wait, io, from its start (the program's own
# time of it) to the end of the recording, or of the program when that
# comes first (sums printed whole: sort -n reads no exponent)
never=$(awk '{ t = substr($0, 1, index($0, ";")); w[t] += $NF; n[t]++ } END { for (t in w) if (n[t] <= 2) printf "%.0f\n", w[t] }' "$TMP/io.folded" | sort -n | tail -1)
life=$(awk -v s="${nstart:-0}" -v a="$rec_start" -v b="$rec_end" -v e="${nend:-0}" \
	'BEGIN { if (e > 0 && e < b) b = e; printf "%.0f", b - (s > a ? s : a) }')
awk -v a="${never:-0}" -v d="$life" 'BEGIN { exit !(a >= 0.9 * d && a <= 1.05 * d) }'
whole=$?
check "a thread that never wakes shows its whole wait (${never:-0} of its $life ns)" [ $whole -eq 0 ]
[ $whole -ne 0 ] && "$PJ_BIN" report -i "$TMP/w.data" --format collapsed --total --threads |
	awk '{ k = split($0, f, ";"); t = f[1] " " f[k]; sub(/ [0-9]+$/, "", t); w[t] += $NF; n[t]++ }
	END { for (t in w) printf "# %s: %d stacks, %.0f ns\n", t, n[t], w[t] }' | sort
"$PJ_BIN" report -i "$TMP/w.data" >"$TMP/w.txt"
check "text report: offcpu counts time, the state is the leaf frame" \
	eval 'grep -q "^Event *: offcpu: time off CPU" "$TMP/w.txt" && grep -qE "^ +[0-9]+ +[0-9.]+% +[0-9]+  \[off-cpu: sleep\]" "$TMP/w.txt"'
"$PJ_BIN" report -i "$TMP/w.data" --state sleep --format collapsed >"$TMP/sl.folded"
check "--state sleep: only sleeping stacks" \
	eval '[ -s "$TMP/sl.folded" ] && ! grep -v "\[off-cpu: sleep\] [0-9]*$" "$TMP/sl.folded" | grep -q .'
"$PJ_BIN" report -i "$TMP/w.data" --state nap 2>"$TMP/st.err"
rc=$?
check "--state nap: exit 2, names the states" eval '[ $rc -eq 2 ] && grep -q "runnable" "$TMP/st.err"'

"$PJ_BIN" record -q --wall -o "$TMP/wall.data" -- "$PROGS/waits" 2 >"$TMP/wall.out" 2>&1
"$PJ_BIN" report -i "$TMP/wall.data" >"$TMP/wall.txt"
total=$(awk '/^Total/ { print $3 }' "$TMP/wall.txt")
check "--wall: on-CPU and off-CPU together" grep -q "^Event *: wall: on-CPU and off-CPU" "$TMP/wall.txt"
# each thread's timeline, from the start of its first record to the end
# of its last, is whole: its records' times add up to that span (the least
# of the threads' shares, and how many threads). A wait's record is at its
# start (the switch out), a CPU sample's at its end.
read -r cover nthreads < <("$PJ_BIN" report -i "$TMP/wall.data" --format script | awk '
	/^[^\t]/ { tid = ""; for (i = 1; i <= NF; i++) {
			if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, p, "/"); tid = p[2] }
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; w = $(i + 1) / 1e9; ev = $(i + 2) } }
		if (tid == "") next
		if (ev == "offcpu:") { a = t; b = t + w } else { a = t - w; b = t }
		if (!(tid in first) || a < first[tid]) first[tid] = a
		if (b > last[tid]) last[tid] = b
		sum[tid] += w }
	END { m = 100; for (k in sum) { n++; span = last[k] - first[k]
			c = span > 0 ? 100 * sum[k] / span : 100; if (c < m) m = c }
		printf "%.1f %d\n", m, n }')
check "--wall: each of the 7 threads' timelines whole from when it was followed ($nthreads threads, the least covered ${cover:-0}%)" \
	awk -v c="${cover:-0}" -v n="${nthreads:-0}" 'BEGIN { exit !(n == 7 && c >= 95) }'
# (what a thread lived before the recorder followed it is not in it: the
# program's own times of its threads' lives, beside the recording's)
read -r rec_start rec_end < <(recorded "$TMP/wall.data")
lives=$(awk -v a="$rec_start" -v b="$rec_end" 'BEGIN { t = b - a }
	$1 == "life" { s = $3 > a ? $3 : a; e = ($4 == "-" || $4 > b) ? b : $4; if (e > s) t += e - s }
	END { printf "%.0f", t }' "$TMP/wall.out")
echo "# --wall: $total ns of the threads' $lives ns (their lives within the recording)"

java_suite "off-CPU time of a JVM"
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	"$PJ_BIN" record -q -e offcpu -o "$TMP/$J.data" -- "$jdk/bin/java" -cp "$CLASSES" Waits 3 \
		>"$TMP/$J.out" 2>"$TMP/$J.err"
	check "$J: record -e offcpu -- java Waits: exit 0" [ $? -eq 0 ]
	"$PJ_BIN" report -i "$TMP/$J.data" --format collapsed --total --threads >"$TMP/$J.folded"
	# (a JVM sleeps and waits for monitors on the same futex: by thread)
	shares "$TMP/$J.folded" '[sleeper:*' '[reader:*' '[locker:*' |
		sed 's/^\[sleeper/waitSleep/; s/^\[reader/waitIo/; s/^\[locker/waitLock/' >"$TMP/$J.share"
	sed 's/^/# /' "$TMP/$J.share"
	within "$J" "$TMP/$J.out" "$TMP/$J.share" Waits. waitSleep waitIo waitLock
	check "$J: the socket reads' waits are io" \
		grep -qE '^\[reader tid=[0-9]+\];.*\[off-cpu: io\] [0-9]+$' "$TMP/$J.folded"
	# the Java frames of each wait, above the native call that blocked
	javashare "$TMP/$J.folded" >"$TMP/$J.java"
	sed 's/^/# Java frames: /' "$TMP/$J.java"
	for t in sleeper reader locker; do
		got=$(awk -v t="$t" '$1 == t { print $2 }' "$TMP/$J.java")
		check "$J: the $t's waits carry their Java frames (${got:-0}% of its off-CPU time, >= 70%)" \
			awk -v g="${got:-0}" 'BEGIN { exit !(g >= 70) }'
		# a miss shows the heaviest of that thread's waits and the walks' counts
		awk -v g="${got:-0}" 'BEGIN { exit !(g < 70) }' || continue
		grep "^\[$t " "$TMP/$J.folded" | awk "{ print \$NF, \$0 }" | sort -rn | head -4 | cut -c1-600 | sed "s/^/# miss: /"
		"$PJ_BIN" report -i "$TMP/$J.data" --format meta | grep offcpu_java_ | sed 's/^/# miss: /'
	done
	slept=$(awk 'index($0, "[sleeper ") == 1 { t += $NF; if ($0 ~ /\[off-cpu: sleep\] [0-9]+$/) s += $NF }
		END { printf "%.1f", t ? 100 * s / t : 0 }' "$TMP/$J.folded")
	check "$J: Thread.sleep is sleep, from the thread's JVMTI state ($slept% of the sleeper's off-CPU time, >= 70%)" \
		awk -v g="$slept" 'BEGIN { exit !(g >= 70) }'
	# the idler sleeps from before "asleep" to the end: one wait, from when
	# the recorder saw it (its events may open after it fell asleep: 75%),
	# with its Java frames; the JVM's start is the rest of the recording
	read -r _ itid v0 v1 < <(grep '^idler ' "$TMP/$J.out")
	secs=$(awk '$1 == "idler" { print $2 / 1e9 }' "$TMP/$J.java")
	itot=$(awk 'index($0, "[idler ") == 1 { t += $NF } END { print t / 1e9 }' "$TMP/$J.folded")
	read -r rec_start rec_end < <(recorded "$TMP/$J.data")
	dur=$(awk -v s="$(awk '$1 == "asleep" { print $2 }' "$TMP/$J.out")" -v a="$rec_start" -v b="$rec_end" \
		'BEGIN { s = s > a ? s : a; printf "%.2f", (b - s) / 1e9 }')
	check "$J: a thread that never wakes shows its whole wait with its Java frames (one stack of ${secs:-0} s of its ${itot:-0} s off CPU, asleep $dur s of the recording)" \
		awk -v s="${secs:-0}" -v t="${itot:-0}" -v d="${dur:-0}" 'BEGIN { exit !(d > 0 && s >= 0.9 * t && s >= 0.75 * d) }'
	[ "${secs:-0}" = 0 ] && grep '^\[idler ' "$TMP/$J.folded" | cut -c1-300 | sed 's/^/# idler: /' &&
		grep -E '^(ready|idler)' "$TMP/$J.out" | sed 's/^/# /' &&
		"$PJ_BIN" report -i "$TMP/$J.data" --format meta | grep offcpu_java | tr '\n' ' ' | sed 's/^/# /'
	check "$J: asking for its stack did not wake it (voluntary switches $v0 -> $v1)" \
		eval '[ -n "$v0" ] && [ "$v0" != "?" ] && [ "$v0" = "$v1" ] && [ "${secs:-0}" != 0 ]'
done
