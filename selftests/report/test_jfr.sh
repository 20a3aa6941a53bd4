#!/usr/bin/env bash
# JFR in and out, against the real consumers and producers.
#
# Out: a JVM recorded by perfjava (CPU: Workload; wall: Waits) written as
# JFR (report -o F.jfr) and read back by the JDK's jfr tool of every JDK
# (summary: the sample counts; print --json: every sample's stack, frame by
# frame, and its thread, against report --format collapsed --threads; view
# on JDK 21+) and by the JDK's consumer API (selftests/java/src/
# JfrRead.java, RecordingFile) on every JDK; and back into perfjava (the
# same collapsed stacks as the original file).
# In: a JFR of async-profiler (-o jfr, CPU and wall) and of the JDK's
# Flight Recorder (-XX:StartFlightRecording) read by perfjava report: the
# collapsed stacks equal async-profiler's converter's (jfrconv, folded by
# selftests/report/jfr_fold.py as it folds); every format and --diff read
# them; damaged files give one line.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

java_suite "JFR in and out"
FOLD=$PJ_TOP/selftests/report/jfr_fold.py
JSON=$PJ_TOP/selftests/report/jfr_json.py
JDK=${JDKS[0]}
export LC_ALL=C

# collapsed OUT DATA EVENT: perfjava's stacks by thread, sorted
collapsed() { "$PJ_BIN" report -i "$2" --format collapsed --threads --raw-names --event "$3" | sort >"$1"; }
samples() { awk '{ n += $NF } END { print n + 0 }' "$1"; }
# same A B: whether files A and B are the same; when not, their first
# differing lines (a consumer's reading, perfjava's) as comments
same() {
	cmp -s "$1" "$2" && return 0
	diff "$1" "$2" | head -6 | cut -c1-200 | sed 's/^/# /'
	return 1
}
# summary_count JDK FILE TYPE: the count `jfr summary` gives TYPE
summary_count() { "$1/bin/jfr" summary "$2" | awk -v t="$3" '$1 == t { print $2 }'; }

"$PJ_BIN" record -q -e cpu-clock -o "$TMP/c.data" -- "$JDK/bin/java" -cp "$CLASSES" Workload 2 2 \
	>"$TMP/c.out" 2>"$TMP/c.err"
check "record a JVM's CPU samples: exit 0" [ $? -eq 0 ]
"$PJ_BIN" record -q --wall -o "$TMP/w.data" -- "$JDK/bin/java" -cp "$CLASSES" Waits 2 \
	>"$TMP/w.out" 2>"$TMP/w.err"
check "record a JVM's wall-clock (--wall): exit 0" [ $? -eq 0 ]
check "report -o c.jfr writes JFR" eval '"$PJ_BIN" report -i "$TMP/c.data" -o "$TMP/c.jfr" && [ "$(head -c 4 "$TMP/c.jfr" | od -An -c | tr -d " ")" = "FLR\0" ]'
check "report --format jfr -o w.jfr" "$PJ_BIN" report -i "$TMP/w.data" --format jfr -o "$TMP/w.jfr"
collapsed "$TMP/c.cpu" "$TMP/c.data" cpu-clock
collapsed "$TMP/w.cpu" "$TMP/w.data" cpu-clock
collapsed "$TMP/w.off" "$TMP/w.data" offcpu # weighs ns
"$PJ_BIN" report -i "$TMP/w.data" --format collapsed --event offcpu --threads >/dev/null
nc=$(samples "$TMP/c.cpu")
nw=$("$PJ_BIN" report -i "$TMP/w.data" --format script --event offcpu | grep -c ' offcpu:')
nwc=$(samples "$TMP/w.cpu")
echo "# perfjava: $nc CPU samples (Workload), $nw off-CPU and $nwc CPU samples (Waits --wall)"

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	got=$(summary_count "$jdk" "$TMP/c.jfr" jdk.ExecutionSample)
	check "$J jfr summary: $got jdk.ExecutionSample, perfjava's $nc CPU samples" [ "${got:-0}" = "$nc" ]
	got=$(summary_count "$jdk" "$TMP/w.jfr" profiler.WallClockSample)
	got2=$(summary_count "$jdk" "$TMP/w.jfr" jdk.ExecutionSample)
	check "$J jfr summary: $got profiler.WallClockSample and $got2 jdk.ExecutionSample, perfjava's $nw off-CPU and $nwc CPU samples" \
		[ "${got:-0}" = "$nw" ] && [ "${got2:-0}" = "$nwc" ]
	for f in c w; do
		"$jdk/bin/jfr" print --json --stack-depth 100000 --events ExecutionSample,WallClockSample \
			"$TMP/$f.jfr" >"$TMP/$J.$f.json" 2>"$TMP/$J.$f.json.err"
		rc=$?
		check "$J jfr print --json $f.jfr: exit 0, nothing on stderr" eval '[ $rc -eq 0 ] && [ ! -s "$TMP/$J.$f.json.err" ]'
	done
	python3 "$JSON" jdk.ExecutionSample <"$TMP/$J.c.json" 2>/dev/null | sort >"$TMP/$J.c.cpu"
	python3 "$JSON" profiler.WallClockSample time <"$TMP/$J.w.json" 2>/dev/null | sort >"$TMP/$J.w.off"
	python3 "$JSON" jdk.ExecutionSample <"$TMP/$J.w.json" 2>/dev/null | sort >"$TMP/$J.w.cpu"
	for x in c.cpu w.off w.cpu; do
		check "$J jfr print --json $x: every stack frame by frame and its thread as report --format collapsed --threads ($(wc -l <"$TMP/$x") stacks)" \
			same "$TMP/$J.$x" "$TMP/$x"
	done
	"$jdk/bin/java" -cp "$CLASSES" JfrRead "$TMP/c.jfr" jdk.ExecutionSample 2>"$TMP/$J.rf.err" | sort >"$TMP/$J.rf.c.cpu"
	"$jdk/bin/java" -cp "$CLASSES" JfrRead "$TMP/w.jfr" profiler.WallClockSample time 2>>"$TMP/$J.rf.err" | sort >"$TMP/$J.rf.w.off"
	"$jdk/bin/java" -cp "$CLASSES" JfrRead "$TMP/w.jfr" jdk.ExecutionSample 2>>"$TMP/$J.rf.err" | sort >"$TMP/$J.rf.w.cpu"
	for x in c.cpu w.off w.cpu; do
		check "$J RecordingFile $x: the same stacks and threads" same "$TMP/$J.rf.$x" "$TMP/$x"
	done
	check "$J RecordingFile: the same sample counts ($nc, $nw, $nwc)" \
		eval '[ "$(awk "/^events/ { printf \"%s \", \$2 }" "$TMP/$J.rf.err")" = "$nc $nw $nwc " ]'
	if "$jdk/bin/jfr" help view >/dev/null 2>&1; then
		"$jdk/bin/jfr" view hot-methods "$TMP/c.jfr" >"$TMP/$J.view" 2>&1
		rc=$?
		check "$J jfr view hot-methods: Workload's methods on top" \
			eval '[ $rc -eq 0 ] && head -12 "$TMP/$J.view" | grep -q "Workload.method[AB]"'
		"$jdk/bin/jfr" view jvm-information "$TMP/c.jfr" >"$TMP/$J.jvm" 2>&1
		rc=$?
		check "$J jfr view jvm-information: the JVM's command line" \
			eval '[ $rc -eq 0 ] && grep -q "Workload 2 2" "$TMP/$J.jvm"'
	else
		skip "$J jfr view" "no jfr view before JDK 21"
	fi
done

# samples of other events (hardware counters where the CPU has a PMU;
# page faults here): perfjava.EventSample, declared in the file
"$PJ_BIN" record -q -e cpu-clock,page-faults -o "$TMP/pf.data" -- "$PROGS/churn" 1 >/dev/null 2>&1
"$PJ_BIN" report -i "$TMP/pf.data" -o "$TMP/pf.jfr"
npf=$("$PJ_BIN" report -i "$TMP/pf.data" --format collapsed --event page-faults | awk '{ n += $NF } END { print n + 0 }')
got=$(summary_count "$JDK" "$TMP/pf.jfr" perfjava.EventSample)
check "page-faults samples: $got perfjava.EventSample for perfjava's $npf, named and weighed" \
	eval '[ "$npf" -gt 0 ] && [ "$got" = "$npf" ] && "$JDK/bin/jfr" print --events perfjava.EventSample "$TMP/pf.jfr" | grep -q "event = \"page-faults\""'
collapsed "$TMP/pf.a" "$TMP/pf.data" page-faults
collapsed "$TMP/pf.b" "$TMP/pf.jfr" page-faults
check "page-faults samples read back: the same stacks" cmp -s "$TMP/pf.a" "$TMP/pf.b"

# record -o FILE.jfr: recorded as perfjava's file, converted at the end
"$PJ_BIN" record -q -o "$TMP/r.jfr" -- "$JDK/bin/java" -cp "$CLASSES" Workload 1 1 >/dev/null 2>"$TMP/r.err"
rc=$?
check "record -o r.jfr: exit 0, a JFR file the JDK reads, no r.jfr.data left" \
	eval '[ $rc -eq 0 ] && [ ! -e "$TMP/r.jfr.data" ] && [ "$(summary_count "$JDK" "$TMP/r.jfr" jdk.ExecutionSample)" -gt 0 ]'
start_jvm "$JDK" "$TMP/k.out" -- Workload 30 1
"$PJ_BIN" record -q -p "$JPID" -o "$TMP/k.jfr" 2>"$TMP/k.err" &
rec=$!
track $rec
wait_for 20 size_over "$TMP/k.jfr.data" 4096
kill -9 $rec
wait $rec 2>/dev/null
check "record -o k.jfr killed with SIGKILL: the recording is in k.jfr.data and reports" \
	eval '[ ! -e "$TMP/k.jfr" ] && "$PJ_BIN" report -i "$TMP/k.jfr.data" --format collapsed 2>/dev/null | grep -q Workload'

# perfjava reads its own JFR back: a Java method declared native comes
# back JIT compiled (async-profiler's type for it, which the JFR keeps),
# and a wait as its wall-clock samples, each weighing its share of the
# wait to the ns below (under 1 ppm lost)
same_stacks() {
	python3 - "$1" "$2" <<'PY'
import sys
def load(path):
    d = {}
    for line in open(path):
        s, n = line.rstrip("\n").rsplit(" ", 1)
        s = s.replace("_[j]", "")
        d[s] = d.get(s, 0) + int(n)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
ok = a.keys() == b.keys() and all(abs(a[k] - b[k]) <= b[k] // 10**6 + 1 for k in a)
sys.exit(0 if ok and a else 1)
PY
}
for x in c.cpu:c:cpu-clock w.cpu:w:cpu-clock w.off:w:offcpu; do
	IFS=: read -r name f ev <<<"$x"
	collapsed "$TMP/rt.$name" "$TMP/$f.jfr" "$ev"
	check "perfjava reads its JFR back: $name stacks and threads equal" same_stacks "$TMP/rt.$name" "$TMP/$name"
done
"$PJ_BIN" report -i "$TMP/w.jfr" >"$TMP/w.jfr.txt"
check "a --wall file's JFR reports on-CPU and off-CPU together" grep -q '^Event *: wall: on-CPU and off-CPU' "$TMP/w.jfr.txt"
check "--state on a JFR: the sleeps of Waits" eval '"$PJ_BIN" report -i "$TMP/w.jfr" --state sleep --format collapsed | grep -q "Waits.waitSleep"'

# In: async-profiler's and the JDK's JFR files
if asprof_build && [ -x "${ASPROF%/asprof}/jfrconv" ]; then
	export JAVA_HOME=$JDK
	AP=${ASPROF%/bin/asprof}
	"$JDK/bin/java" -agentpath:"$AP/lib/libasyncProfiler.so=start,event=cpu,interval=1ms,file=$TMP/ap.jfr,jfr" \
		-cp "$CLASSES" Workload 2 2 >/dev/null 2>"$TMP/ap.err"
	"$JDK/bin/java" -agentpath:"$AP/lib/libasyncProfiler.so=start,wall=10ms,file=$TMP/apw.jfr,jfr" \
		-cp "$CLASSES" Waits 2 >/dev/null 2>>"$TMP/ap.err"
	for f in ap apw; do
		"$AP/bin/jfrconv" --dot -o collapsed "$TMP/$f.jfr" "$TMP/$f.jc" >/dev/null 2>&1
		python3 "$FOLD" <"$TMP/$f.jc" >"$TMP/$f.jcs"
		"$PJ_BIN" report -i "$TMP/$f.jfr" --format collapsed --raw-names 2>"$TMP/$f.pj.err" |
			python3 "$FOLD" >"$TMP/$f.pjs"
		check "async-profiler's $f.jfr: perfjava's collapsed stacks equal jfrconv's ($(samples "$TMP/$f.jcs") samples, $(wc -l <"$TMP/$f.jcs") stacks)" \
			eval '[ -s "$TMP/$f.jcs" ] && cmp -s "$TMP/$f.jcs" "$TMP/$f.pjs"'
	done
	check "async-profiler's JFR: native and kernel frames kept" \
		eval 'grep -q "_\[k\]" "$TMP/ap.pjs" && grep -qE "(^|;)(Java_java_util_zip_Deflater|deflate)" "$TMP/ap.pjs"'
	for fmt in text collapsed flame tree heatmap pprof script meta; do
		"$PJ_BIN" report -i "$TMP/ap.jfr" --format "$fmt" -o "$TMP/ap.$fmt" 2>"$TMP/ap.$fmt.err"
		rc=$?
		check "async-profiler's JFR: --format $fmt" eval '[ $rc -eq 0 ] && [ -s "$TMP/ap.$fmt" ]'
	done
	# (every frame: the rows that changed most need not be Workload's)
	"$PJ_BIN" report -i "$TMP/c.data" --diff "$TMP/ap.jfr" --top 100000 >"$TMP/diff.txt" 2>&1
	rc=$?
	check "--diff perfjava's file against async-profiler's JFR" eval '[ $rc -eq 0 ] && grep -q "Workload.methodA" "$TMP/diff.txt"'
	"$PJ_BIN" report -i "$TMP/c.data" --diff "$TMP/ap.jfr" --format flame -o "$TMP/diff.html"
	check "--diff flame graph against a JFR" [ -s "$TMP/diff.html" ]
	for jdk in "${JDKS[@]}"; do
		J=$(jdk_name "$jdk")
		"$jdk/bin/java" -XX:StartFlightRecording=filename="$TMP/$J.jdk.jfr",settings=profile \
			-cp "$CLASSES" Workload 2 2 >/dev/null 2>&1
		"$AP/bin/jfrconv" --dot -o collapsed "$TMP/$J.jdk.jfr" "$TMP/$J.jdk.jc" >/dev/null 2>&1
		python3 "$FOLD" <"$TMP/$J.jdk.jc" >"$TMP/$J.jdk.jcs"
		# jfrconv takes the JDK's native-method samples with its CPU samples
		{ "$PJ_BIN" report -i "$TMP/$J.jdk.jfr" --format collapsed --raw-names --event jdk.ExecutionSample
		  "$PJ_BIN" report -i "$TMP/$J.jdk.jfr" --format collapsed --raw-names --event jdk.NativeMethodSample 2>/dev/null
		} | python3 "$FOLD" >"$TMP/$J.jdk.pjs"
		check "$J -XX:StartFlightRecording: perfjava's collapsed stacks equal jfrconv's ($(samples "$TMP/$J.jdk.jcs") samples)" \
			eval '[ -s "$TMP/$J.jdk.jcs" ] && cmp -s "$TMP/$J.jdk.jcs" "$TMP/$J.jdk.pjs"'
		"$PJ_BIN" report -i "$TMP/$J.jdk.jfr" >"$TMP/$J.jdk.txt"
		"$PJ_BIN" report -i "$TMP/$J.jdk.jfr" --format meta >"$TMP/$J.jdk.meta"
		check "$J -XX:StartFlightRecording: the report names the JVM's command line and Workload.methodA" \
			eval 'grep -q "^meta cmdline java .*Workload 2 2" "$TMP/$J.jdk.meta" && grep -q "Workload.methodA" "$TMP/$J.jdk.txt"'
	done
else
	skip "async-profiler's and the JDK's JFR against jfrconv" "${ASPROF_WHY:-no jfrconv in the async-profiler build}"
fi

# Damaged and hostile files: one line, never a crash
size=$(stat -c %s "$TMP/c.jfr")
head -c $((size / 2)) "$TMP/c.jfr" >"$TMP/half.jfr"
"$PJ_BIN" report -i "$TMP/half.jfr" >/dev/null 2>"$TMP/half.err"
rc=$?
check "a JFR cut in half: exit 1, one line ($(head -1 "$TMP/half.err"))" \
	eval '[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/half.err")" -eq 1 ] && grep -q "incomplete JFR" "$TMP/half.err"'
python3 - "$TMP/c.jfr" "$TMP/bad.jfr" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
meta = int.from_bytes(b[24:32], "big")
for i in range(meta + 40, min(meta + 4000, len(b)), 7):
    b[i] ^= 0x5a
open(sys.argv[2], "wb").write(b)
EOF
"$PJ_BIN" report -i "$TMP/bad.jfr" >/dev/null 2>"$TMP/bad.err"
rc=$?
check "a JFR with damaged metadata: exit 1, one line ($(head -1 "$TMP/bad.err"))" \
	eval '[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/bad.err")" -eq 1 ] && grep -q "cannot read" "$TMP/bad.err"'
echo "1..$_tap_n"
