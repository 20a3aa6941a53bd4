#!/usr/bin/env bash
# The whole machine (issue 26): two JVMs (JDK 17 and 25) and a native
# program running known CPU splits at once, recorded with -a: each
# process's split attributed within 5 pp of its own truth, Java frames for
# both JVMs; a JVM started during the recording gets its Java frames; -C
# records the CPUs given alone. The machine is shared with other JVMs:
# PERFJAVA_JVM_MATCH leaves those alone (record/machine.c). The targets
# run until they are killed (a loaded machine can take many seconds to
# start the next JVM); their truth is their timeline's over the window the
# recording covers.
# alone: it records the whole machine (-a)
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

java_suite "the whole machine"

# bg_record NAME ARGS...: record -a ARGS into $TMP/NAME.data in the
# background ($rec), returning once it records
bg_record() {
	local n=$1; shift
	"$PJ_BIN" record -a "$@" -o "$TMP/$n.data" 2>"$TMP/$n.err" &
	rec=$!
	track $rec
	wait_for 30 grep -q '^perfjava: recording' "$TMP/$n.err"
}
jdk_a=${JDKS[0]} jdk_b=${JDKS[${#JDKS[@]} - 1]}
tag=pjmachine$$
export PERFJAVA_JVM_MATCH=$tag

start_jvm "$jdk_a" "$TMP/a.out" -Dtruth.every=50 -Dtag=$tag -- Workload 300 2 || exit 0
A=$JPID AW=$JWAIT
start_jvm "$jdk_b" "$TMP/b.out" -Dtruth.every=50 -Dtag=$tag -- Workload 300 2 || exit 0
B=$JPID BW=$JWAIT
start_prog "$TMP/c.out" "$PROGS/cpusplit" 300 2 50
C=$PID

"$PJ_BIN" record -a -F 499 -d 4 -o "$TMP/m.data" 2>"$TMP/m.err"
check "record -a: exit 0" [ $? -eq 0 ] || sed 's/^/# /' "$TMP/m.err"
check "... every process, java frames on for both JVMs" \
	grep -q 'recording every process (.*java frames on for 2 JVMs' "$TMP/m.err"
kill "$A" "$B" "$C" 2>/dev/null
wait "$AW" "$BW" "$C" 2>/dev/null
"$PJ_BIN" report -i "$TMP/m.data" --processes --top 1000 >"$TMP/m.txt"
check "--processes: the three, each with its command line" \
	bash -c "grep -q '\[java pid=$A\]  .*Workload 300 2' '$TMP/m.txt' &&
		grep -q '\[java pid=$B\]  .*Workload 300 2' '$TMP/m.txt' &&
		grep -q '\[cpusplit pid=$C\]  .*cpusplit 300 2' '$TMP/m.txt'"
check "the header: every process, every CPU" \
	grep -q '^Target  *: every process, every CPU$' "$TMP/m.txt"
check "the idle tasks and kernel threads as such" \
	bash -c "grep -q '\[idle\]' '$TMP/m.txt' || grep -q ' kernel\]' '$TMP/m.txt'"
# (how the JVMs' samples were walked: at the sample, or asked after)
echo "# $("$PJ_BIN" report -i "$TMP/m.data" --format meta 2>/dev/null | awk '$1 == "stat" &&
	$2 ~ /^walk_(ok|at_sample_(matched|missed|orphans)|timeout|lost|not_java)$/ { printf "%s %s ", $2, $3 }')"
jvm_in_many "$jdk_a" "at -a" "$TMP/a.out" "$TMP/m.data" "$A"
jvm_in_many "$jdk_b" "at -a" "$TMP/b.out" "$TMP/m.data" "$B"
"$PJ_BIN" report -i "$TMP/m.data" --pid "$C" --format collapsed >"$TMP/c.folded"
native_split "cpusplit at -a (pid $C): " "$TMP/c.out" "$TMP/c.folded" 5 "$TMP/m.data"
check "no JVM's frame in the native process's stacks" \
	bash -c "! grep -q 'Workload\|_\[j\]' '$TMP/c.folded'"

# --- a JVM that starts during the recording gets its Java frames
bg_record s -F 199 -d 30
start_jvm "$jdk_b" "$TMP/s.out" -Dtag=$tag -- Workload 4 1 || exit 0
S=$JPID
wait "$JWAIT"
# (and a native program exec'd meanwhile, gone before the end: its frames
# named by what its exec's records say; that its maps are not read from
# /proc is test_usym's)
"$PROGS/cpusplit" 1 1 >"$TMP/sp.out" &
SP=$!
wait $SP
kill -INT "$rec"
wait "$rec"
check "a JVM started during -a: exit 0" [ $? -eq 0 ] || sed 's/^/# /' "$TMP/s.err"
"$PJ_BIN" report -i "$TMP/s.data" --pid "$SP" --format collapsed >"$TMP/sp.folded"
read -r named all < <(awk '{ n += $NF; if ($0 ~ /(^|;)work_[abc](;| )/) k += $NF } END { print k + 0, n + 0 }' "$TMP/sp.folded")
check "a native program exec'd during -a and gone: its work named in >= 90% of its samples ($named of $all)" \
	awk -v k="$named" -v n="$all" 'BEGIN { exit !(n >= 10 && k >= 0.9 * n) }'
"$PJ_BIN" report -i "$TMP/s.data" --pid "$S" --format collapsed >"$TMP/s.folded"
check "... its samples have Java frames" grep -q 'Workload\.method[ABC]_\[[j0i1]\]' "$TMP/s.folded"
check "... and the file names it a JVM" \
	bash -c "'$PJ_BIN' report -i '$TMP/s.data' --processes --top 1000 | grep -q '\[java pid=$S\]'"

# --- the JVM's own events at -a: a JVM's allocations with their sites
start_jvm "$jdk_b" "$TMP/e.out" -Dtag=$tag -- JvmEvents alloc 4 300000 "" || exit 0
E=$JPID
"$PJ_BIN" record -q -a -e cpu-clock,alloc -d 2 -o "$TMP/e.data"
check "-a -e cpu-clock,alloc: exit 0" [ $? -eq 0 ]
"$PJ_BIN" report -i "$TMP/e.data" --event alloc --pid "$E" --format collapsed >"$TMP/e.folded"
check "... the JVM's allocations, the class at the leaf (long[] under allocLarge)" \
	grep -qE 'JvmEvents.allocLarge[^;]*;long\[\] ' "$TMP/e.folded"
kill "$E" 2>/dev/null

# --- off-CPU time at -a: a native program's waits by path (it runs until
# killed, past the recording: a loaded machine can take seconds to start it)
start_prog "$TMP/w.out" "$PROGS/waits" 300 50
W=$PID
"$PJ_BIN" record -q -a -e offcpu -d 2.5 -o "$TMP/w.data" 2>"$TMP/w.err"
check "-a -e offcpu: exit 0" [ $? -eq 0 ] || sed 's/^/# /' "$TMP/w.err"
kill "$W" 2>/dev/null
wait "$W" 2>/dev/null
"$PJ_BIN" report -i "$TMP/w.data" --pid "$W" --format collapsed --total >"$TMP/w.folded"
# (each kind's share among the three, as the program's truth over the
# window the recording's waits of it cover; off-CPU time is recorded whole)
win=$(sample_window "$TMP/w.data" '(^|[[:space:]])wait_(sleep|io|lock)( |$)')
window_truth "$TMP/w.out" ${win:-0 0} x wait_sleep wait_io wait_lock >"$TMP/w.truth"
echo "# -a -e offcpu: truth over the recorded window $win (s)"
for f in wait_sleep wait_io wait_lock; do
	truth=$(awk -v f="x.$f" '$1 == f { print $2 }' "$TMP/w.truth")
	got=$(awk -v f="$f" '{ w = $NF; if ($0 ~ /(^|;)wait_(sleep|io|lock)(;| )/) t += w
			if ($0 ~ "(^|;)" f "(;| )") m += w }
		END { printf "%.2f", t ? 100 * m / t : 0 }' "$TMP/w.folded")
	check_share "-a -e offcpu: $f off-CPU time" "$got" - "$truth" 5
done

# --- -C: those CPUs alone
"$PJ_BIN" record -q -C 0 -F 199 -d 1 -o "$TMP/c0.data"
check "-C 0: exit 0" [ $? -eq 0 ]
cpus=$("$PJ_BIN" report -i "$TMP/c0.data" --format script |
	awk '/^[^\t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) print $i }' | sort -u | tr '\n' ' ')
check "-C 0: samples of CPU 0 alone ($cpus)" [ "$cpus" = "[000] " ]
check "-C 0: the header says so" \
	bash -c "'$PJ_BIN' report -i '$TMP/c0.data' | grep -q '^Target  *: every process, CPUs 0$'"

# --- processes by the thousand: each counted, the exited ones forgotten
# (recorded until the last has run: at load 10, 3 s saw 68 of them)
bg_record ch -F 999
for i in $(seq 1000); do /bin/true; done
kill -INT "$rec"
wait "$rec"
check "1000 short processes at -a: exit 0" [ $? -eq 0 ] || sed 's/^/# /' "$TMP/ch.err"
n=$(awk '/^perfjava: [0-9]+ processes/ { print $2 }' "$TMP/ch.err")
check "... counted ($n processes seen)" [ "${n:-0}" -ge 1000 ]
check "-C 4096: refused in one line" \
	bash -c "! '$PJ_BIN' record -C 4096 -d 1 -o '$TMP/x.data' 2>'$TMP/x.err' && [ \$(wc -l <'$TMP/x.err') -eq 1 ]"
