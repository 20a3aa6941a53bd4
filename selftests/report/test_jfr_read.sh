#!/usr/bin/env bash
# Issue 48, the reader's half: JFR files of a real application (H2's SQL
# engine: selftests/java/src/H2Loop.java on Debian's libh2-java; Workload
# where it is missing) made by the JDK (17, 25: -XX:StartFlightRecording
# settings=profile) and by async-profiler (cpu, alloc; lock and wall on
# Blocking), read by perfjava report against the real consumers:
# - async-profiler's converter (jfrconv, built from ../shared/peers): the
#   same collapsed stacks (folded as it folds, its class leaf's _[i]/_[k]
#   aside: selftests/report/jfr_compare.py), the same counts, the same
#   --total (alloc within 5 %: the issue's goal; lock's ns);
# - the JDK's jfr print --json: the allocation weight of every sample;
# and --event cpu|wall|alloc|lock on each producer's file (perfjava's own
# JFR too), allocated arrays named as Java names them (byte[]).
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

java_suite "JFR files of the JDK and async-profiler read as their converter reads them"
CMP=$PJ_TOP/selftests/report/jfr_compare.py
JDK=${JDKS[0]}
export LC_ALL=C JAVA_HOME=$JDK
# (a second of the application's loop: every check reads one file two
# ways, and the producers sample it thousands of times, the JDK's hundreds)
if h2_jar; then
	APP=(H2Loop 1) APPNAME=H2
else # (Workload allocates too little for the alloc checks: Garbage)
	APP=(Garbage 2) APPNAME=Garbage
	echo "# no $H2JAR (Debian's libh2-java: $(tail -1 "$TMP/apt.log")): Garbage instead"
fi
# the helpers' python (-S: they need no site-packages; run.sh puts
# python3 itself first in PATH, not a version manager's shim)
py() { python3 -S "$@"; }
# total FILE: the sum of the counts of a collapsed file
total() { awk '{ n += $NF } END { printf "%.0f\n", n }' "$1"; }
# pj OUT FILE ARGS...: perfjava's collapsed stacks (raw names, as jfrconv)
pj() { local o=$1 f=$2; shift 2; "$PJ_BIN" report -i "$f" --format collapsed --raw-names "$@" >"$o" 2>"$o.err"; }
# same DESC JC PJ [--class-leaf]: the two collapsed files are the same
# profile: every stack and count (the comparison's line in DESC)
same() {
	local line jcf=$2
	line=$(py "$CMP" ${4:-} "$2" "$3" 2>&1)
	check "$1: $line" eval '[ -s "$jcf" ] && grep -q "100.0% of stacks, 100.0% of samples" <<<"$line"'
}
# within5 A B: |A - B| <= 5 % of A (A > 0)
within5() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a / 20) }'; }

# perfjava's own JFR: --event cpu is its cpu-clock, alloc its alloc
"$PJ_BIN" record -q -e cpu-clock,alloc -o "$TMP/p.data" -- "$JDK/bin/java" -cp "$CLASSES" "${APP[@]}" \
	>/dev/null 2>"$TMP/p.err"
"$PJ_BIN" report -i "$TMP/p.data" -o "$TMP/p.jfr" 2>>"$TMP/p.err"
for e in cpu:cpu-clock alloc:alloc; do
	pj "$TMP/p.$e.a" "$TMP/p.data" --event "${e#*:}" --total
	pj "$TMP/p.$e.b" "$TMP/p.jfr" --event "${e%%:*}" --total
	# (a Java method declared native is typed as compiled code in JFR, as
	# async-profiler types it, and reads back so, as its converter reads
	# it: _[j], where perfjava's own file gives it no suffix)
	sed 's/_\[j\]//g' "$TMP/p.$e.a" >"$TMP/p.$e.a1"
	sed 's/_\[j\]//g' "$TMP/p.$e.b" >"$TMP/p.$e.b1"
	check "perfjava's JFR of $APPNAME: --event ${e%%:*} gives its ${e#*:} stacks and weights ($(total "$TMP/p.$e.a") in all)" \
		eval '[ -s "$TMP/p.$e.a" ] && cmp -s "$TMP/p.$e.a1" "$TMP/p.$e.b1"'
done

if ! asprof_build || [ ! -x "${ASPROF%/asprof}/jfrconv" ]; then
	skip "JFR files against async-profiler's converter" "${ASPROF_WHY:-no jfrconv in the async-profiler build}"
	echo "1..$_tap_n"
	exit 0
fi
AP=${ASPROF%/bin/asprof}
JC=$AP/bin/jfrconv
# the converter's JVM lean: it reads a few files and exits (C1 alone, one
# GC thread); it passes -J options on
LEAN=(-J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -J-XX:-UsePerfData)
# jc DIR ARGS... -- FILE...: the converter's collapsed stacks of each FILE
# with ARGS, in $TMP/DIR/ (FILE's name .collapsed): one run for them all,
# one JVM, whose start is most of a conversion's CPU
jc() {
	local d=$TMP/$1 opts=()
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	mkdir -p "$d"
	"$JC" "${LEAN[@]}" --dot -o collapsed "${opts[@]}" "$@" "$d" >/dev/null 2>"$d.err"
}

# async-profiler's own JFR: cpu and alloc of the application in one file
# (apc), lock and wall of Blocking in another (apl: threads waiting on a
# monitor, parked, sleeping; a second of it: hundreds of waits, thousands
# of wall samples); each event read alone, by its option
aprec() { "$JDK/bin/java" -agentpath:"$AP/lib/libasyncProfiler.so=start,$1,file=$TMP/$2.jfr,jfr" \
	-cp "$CLASSES" "${@:3}" >/dev/null 2>>"$TMP/ap.err"; }
aprec event=cpu,interval=1ms,alloc apc "${APP[@]}"
aprec lock=0,wall=10ms apl Blocking 1
# the JDK's own JFR (settings=profile)
JFRS=()
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	"$jdk/bin/java" -XX:StartFlightRecording=filename="$TMP/$J.jfr",settings=profile \
		-cp "$CLASSES" "${APP[@]}" >/dev/null 2>&1
	JFRS+=("$TMP/$J.jfr")
done
# (jfrconv takes the JDK's native-method samples with its CPU samples)
jc cpu -- "$TMP/apc.jfr" "${JFRS[@]}"
for t in "" --total; do
	jc "alloc$t" --alloc $t -- "$TMP/apc.jfr" "${JFRS[@]}"
	jc "lock$t" --lock $t -- "$TMP/apl.jfr"
done
jc wall --wall -- "$TMP/apl.jfr"

pj "$TMP/apc.pj" "$TMP/apc.jfr" --event cpu
same "async-profiler cpu, $APPNAME: --event cpu as jfrconv" "$TMP/cpu/apc.collapsed" "$TMP/apc.pj"
for t in "" --total; do
	pj "$TMP/apa$t.pj" "$TMP/apc.jfr" --event alloc $t
	same "async-profiler alloc, $APPNAME: --event alloc $t as jfrconv --alloc $t" \
		"$TMP/alloc$t/apc.collapsed" "$TMP/apa$t.pj" --class-leaf
	pj "$TMP/apl$t.pj" "$TMP/apl.jfr" --event lock $t
	same "async-profiler lock, Blocking: --event lock $t as jfrconv --lock $t" \
		"$TMP/lock$t/apl.collapsed" "$TMP/apl$t.pj" --class-leaf
done
a=$(total "$TMP/alloc--total/apc.collapsed") b=$(total "$TMP/apa--total.pj")
check "async-profiler alloc: --event alloc --total $b bytes, jfrconv's $a (within 5 %)" within5 "$a" "$b"
pj "$TMP/apw.pj" "$TMP/apl.jfr" --event wall
same "async-profiler wall, Blocking: --event wall as jfrconv --wall (batches of samples counted)" \
	"$TMP/wall/apl.collapsed" "$TMP/apw.pj"
check "allocated arrays named as Java names them (byte[] ...), never [B" \
	eval 'grep -qE ";[a-zA-Z.\$]+(\[\])+ [0-9]+$" "$TMP/apa.pj" && ! grep -qE ";\[+[BCDFIJSZL][^;]* [0-9]+$" "$TMP/apa.pj"'
check "the allocated class is a class frame, not an inlined one (_[i])" \
	eval '! grep -qE "_\[i\] [0-9]+$" "$TMP/apa.pj"'

# the JDK's own JFR against the converter
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	# jfrconv takes the JDK's native-method samples with its CPU samples
	pj "$TMP/$J.cpu.a" "$TMP/$J.jfr" --event cpu
	pj "$TMP/$J.cpu.b" "$TMP/$J.jfr" --event jdk.NativeMethodSample
	cat "$TMP/$J.cpu.a" "$TMP/$J.cpu.b" >"$TMP/$J.cpu.pj"
	same "$J -XX:StartFlightRecording, $APPNAME: --event cpu and jdk.NativeMethodSample as jfrconv" \
		"$TMP/cpu/$J.collapsed" "$TMP/$J.cpu.pj"
	for t in "" --total; do
		pj "$TMP/$J.alloc$t.pj" "$TMP/$J.jfr" --event alloc $t
		same "$J -XX:StartFlightRecording, $APPNAME: --event alloc $t as jfrconv --alloc $t" \
			"$TMP/alloc$t/$J.collapsed" "$TMP/$J.alloc$t.pj" --class-leaf
	done
	want=$("$jdk/bin/jfr" "${LEAN[@]}" print --json --events jdk.ObjectAllocationSample "$TMP/$J.jfr" |
		py -c 'import json, sys
print(sum(e["values"]["weight"] for e in json.load(sys.stdin)["recording"]["events"]
          if e["values"].get("stackTrace")))')
	got=$(total "$TMP/$J.alloc--total.pj")
	check "$J: --event alloc --total $got bytes, the weight of the samples jfr print --json shows $want" \
		eval '[ "${want:-0}" -gt 0 ] && [ "$got" = "$want" ]'
	check "$J: arrays named as Java names them, the JDK's jdk.ExecutionSample still picks cpu" \
		eval 'grep -qE ";[a-zA-Z.\$]+(\[\])+ [0-9]+$" "$TMP/$J.alloc.pj" && ! grep -qE ";\[+[BCDFIJSZL][^;]* [0-9]+$" "$TMP/$J.alloc.pj" &&
			"$PJ_BIN" report -i "$TMP/$J.jfr" --event jdk.ExecutionSample | grep -q "^Event *: cpu"'
	"$PJ_BIN" report -i "$TMP/$J.jfr" --event wall >/dev/null 2>"$TMP/$J.wall.err"
	check "$J: --event wall on a file without wall-clock samples: one line ($(head -1 "$TMP/$J.wall.err"))" \
		eval '[ "$(wc -l <"$TMP/$J.wall.err")" -eq 1 ]'
done
echo "1..$_tap_n"
