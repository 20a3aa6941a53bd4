#!/usr/bin/env bash
# perfjava record on real JVMs (JDK 17 and 25), started with no special flags:
# mixed kernel/native/Java stacks, attribution, JNI, -Xint, deep recursion,
# many and short-lived threads, JVM exit, SIGKILLed recorder, re-attach.
# The JVMs work until told to end (-Dstop.file, selftests/java/src/Stop.java)
# or killed, or start their timed work once the recording is on (GOFILE):
# a loaded machine can take seconds to attach.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "java recording"

# churn_seen FOLDED: how many churn-N threads have samples, and how many
# were started from the first of them to the last (N counts them)
churn_seen() {
	grep -oE '^\[churn-[0-9]+ ' "$1" | tr -dc '0-9\n' | sort -un |
		awk 'NR == 1 { lo = $1 } { n++; hi = $1 } END { print n + 0, n ? hi - lo + 1 : 0 }'
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"

	# --- attribution on a known CPU split, two threads, one method via JNI
	# (1 kHz for 2.8 s of the workers' CPU, which their ticks say: about
	# 2800 samples whatever the load, a standard error under 1 pp, three
	# of them within the 3 pp asked); it works until told to end, after
	# the recording
	touch "$D/w.go"
	start_jvm "$jdk" "$D/w.out" -Dtruth.every=50 -Dstop.file="$D/w.stop" -- Workload 300 2 "$D/w.go" ticks
	: >"$D/w.err"
	"$PJ_BIN" record -p "$JPID" -F 997 -o "$D/w.data" 2>"$D/w.err" &
	rec=$!
	said "$D/w.err" "$rec" '^perfjava: recording'
	worked "$D/w.out" "$JPID" 2800
	kill -TERM "$rec" 2>/dev/null
	wait "$rec"
	check "$J: record a JVM exits 0" [ $? -eq 0 ]
	check "$J: java frames on" grep -q 'java frames on' "$D/w.err"
	touch "$D/w.stop"
	wait "$JWAIT"
	check "$J: the JVM finishes normally while profiled" [ $? -eq 0 ]
	"$PJ_BIN" report -i "$D/w.data" --format collapsed >"$D/w.folded"
	check_split "$J" "$D/w.out" "$D/w.data" "$D/w.folded"
	"$PJ_BIN" report -i "$D/w.data" --format collapsed --threads >"$D/wt.folded"
	wj=$(awk '/^\[worker-/ { t += $NF; if ($0 ~ /_\[[j0i1]\]/) j += $NF }
		END { printf "%.1f", t ? 100 * j / t : 0 }' "$D/wt.folded")
	echo "# $J: $wj% of the worker threads' samples have Java frames"
	check "$J: >= 95% of worker samples have Java frames ($wj%)" \
		awk -v p="$wj" 'BEGIN { exit !(p >= 95) }'
	check "$J: JNI: native zlib frames under Deflater's native method" \
		grep -qE 'Deflater\.deflateBytes[A-Za-z]*(_\[[a-z0-9]\])?;(Java_java_util_zip_[A-Za-z_]*;)?(\[libz[^;]*\]|deflate|adler32|longest_match|fill_window)' "$D/w.folded"
	# one base per thread: a worker's walked stacks all start at its first
	# Java frame, none at start_thread (the native part is cut short at
	# times); stacks whose walk failed ([java: ...] at the root, counted
	# by test_walkable) have none
	grep -v '^\[[^;]*;\[java: ' "$D/wt.folded" >"$D/walked"
	one_base "$D/walked" '^\[worker-' >"$D/base"
	sed 's/^/# one base: /' "$D/base"
	echo "# of all their samples: $(one_base "$D/wt.folded" '^\[worker-' | cut -d' ' -f1 | tr '\n' ' ')"
	check "$J: one base: each worker's walked stacks start at one frame, >= 99% ($(head -1 "$D/base" | cut -d' ' -f1)%)" \
		awk '{ n++; if ($1 < 99) bad++ } END { exit !(n && !bad) }' "$D/base"
	check "$J: ... Thread.run, no native base by default" \
		bash -c "grep -qE '^java.lang.Thread.run[^;]*;.*Workload' '$D/w.folded' && ! grep -qE '^(start_thread|clone3?);.*Workload' '$D/w.folded'"
	check "$J: JIT frames annotated _[j]" grep -q 'Workload.method[ABC]_\[j\]' "$D/w.folded"
	lat=$(grep -oE 'walk latency median [0-9]+ us, p99 [0-9]+ us' "$D/w.err")
	echo "# $J: $lat"
	"$PJ_BIN" report -i "$D/w.data" --lines --format collapsed >"$D/wl.folded"
	check "$J: --lines shows Class.method:line" grep -qE 'Workload\.method[AB]:[0-9]+' "$D/wl.folded"

	# --- interpreted frames are named (-Xint); each JVM below ends once
	# recorded, before the checks
	start_jvm "$jdk" "$D/x.out" -Xint -- Workload 300 1
	"$PJ_BIN" record -q -p "$JPID" -d 1 -o "$D/x.data"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	"$PJ_BIN" report -i "$D/x.data" --format collapsed >"$D/x.folded"
	check "$J: -Xint: interpreted frames named _[0]" grep -q 'Workload.methodA_\[0\]' "$D/x.folded"
	check "$J: -Xint: no JIT frames" bash -c "! grep -q 'Workload.method[AB]_\[j\]' '$D/x.folded'"

	# --- recursion 1500 deep is not truncated
	start_jvm "$jdk" "$D/r.out" -- Recurse 300 1500
	"$PJ_BIN" record -q -p "$JPID" -d 0.5 -o "$D/r.data"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	"$PJ_BIN" report -i "$D/r.data" --format collapsed >"$D/r.folded"
	deep=$(awk '{ n = gsub(/Recurse\.down/, "&"); if (n > m) m = n } END { print m + 0 }' "$D/r.folded")
	check "$J: recursion 1500 deep kept whole ($deep frames of Recurse.down)" [ "$deep" -ge 1500 ]
	check "$J: ... down to the thread's own entry (Recurse.lambda)" grep -q 'Recurse.lambda' "$D/r.folded"

	# --- 200 threads, and threads started and ended while recording
	start_jvm "$jdk" "$D/t.out" -- Threads 300 200
	"$PJ_BIN" record -p "$JPID" -c 1000000 -d 2.5 -o "$D/t.data" 2>"$D/t.err" ||
		sed 's/^/# /' "$D/t.err"
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	opened=$(grep -oE 'from [0-9]+ threads' "$D/t.err" | grep -oE '[0-9]+')
	check "$J: 200 threads: recorder followed >= 200 threads ($opened)" [ "${opened:-0}" -ge 200 ]
	"$PJ_BIN" report -i "$D/t.data" --format collapsed --threads >"$D/t.folded"
	steady=$(grep -oE '^\[steady-[0-9]+ ' "$D/t.folded" | sort -u | wc -l)
	# the threads of 30 ms started while recording, one after another:
	# each has some 30 samples at 1 kHz, so every one from the first
	# sampled to the last (span) is seen; a loaded machine runs fewer of
	# them in the window (2 beside another make check, 20 to 80 alone)
	read -r churn span < <(churn_seen "$D/t.folded")
	echo "# $J: samples from $steady steady threads and $churn short-lived threads (of $span between the first and the last)"
	check "$J: samples from >= 150 of 200 steady threads ($steady)" [ "$steady" -ge 150 ]
	check "$J: samples from threads started while recording: $churn, every one from the first to the last but one in ten ($span), at least 2" \
		[ "$churn" -ge 2 -a "$((10 * churn))" -ge "$((9 * span))" ]
	check "$J: kernel frames annotated _[k] (in either recording)" \
		grep -qh '_\[k\]' "$D/w.folded" "$D/t.folded"
	check "$J: churn threads have Java frames" grep -qE '^\[churn-[0-9]+ [^;]*;.*Threads.churnWork' "$D/t.folded"

	# --- at the default 10 ms, threads of 30 ms of CPU each, one after
	# another: their creator's ring is drained every 200 ms, so they are
	# seen because the agent says each started (record/run.c,
	# thread_started); 2 s: some 60 of them on a quiet machine, 4 s more
	# when that saw fewer than 15 (4 s: 25 of them at a load of 10 on 2
	# cores)
	start_jvm "$jdk" "$D/c.out" -- Threads 300 1
	for d in 2 4; do
		"$PJ_BIN" record -p "$JPID" -d $d -o "$D/c.data" 2>"$D/c.err" ||
			sed 's/^/# /' "$D/c.err"
		"$PJ_BIN" report -i "$D/c.data" --format collapsed --threads >"$D/c.folded"
		# of the threads from the first sampled to the last, how many were
		read -r seen span < <(churn_seen "$D/c.folded")
		[ "$span" -ge 15 ] && break
		[ "$d" = 2 ] && echo "# $J: $span threads of 30 ms in 2 s, recording 4 s more"
	done
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	echo "# $J: at 100 Hz, samples from $seen of $span threads of 30 ms"
	check "$J: at 100 Hz, most threads of 30 ms have samples ($seen of $span, of at least 10)" \
		[ "$span" -ge 10 -a "$((2 * seen))" -ge "$span" ]

	# --- a JVM exiting mid-recording: file complete, recorder exits cleanly
	# (its 0.5 s of work starts once the recording is on: on a loaded
	# machine it could otherwise end during the attach)
	start_jvm "$jdk" "$D/e.out" -- Workload 0.5 1 "$D/e.go"
	: >"$D/e.err"
	"$PJ_BIN" record -p "$JPID" -d 30 -o "$D/e.data" 2>"$D/e.err" &
	rec=$!
	said "$D/e.err" "$rec" '^perfjava: recording'
	touch "$D/e.go"
	wait "$rec"
	check "$J: JVM exit: recorder exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/e.err"
	check "$J: JVM exit: summary says so" grep -q 'target exited' "$D/e.err"
	"$PJ_BIN" report -i "$D/e.data" >/dev/null 2>"$D/e.rerr"
	check "$J: JVM exit: the file is complete" [ $? -eq 0 -a ! -s "$D/e.rerr" ]

	# --- recorder killed with SIGKILL: the JVM goes on; a new record
	# attaches; then, on the same JVM (one start less), ten record cycles
	# in a row, each until the worker has had 50 ms of CPU (a fixed 0.2 s
	# held no sample of it twice beside another make check: the loaded
	# JVM's own start of a session); it is told to end after them, then
	# their files are read
	touch "$D/k.go"
	start_jvm "$jdk" "$D/k.out" -Dstop.file="$D/k.stop" -- Workload 300 1 "$D/k.go" ticks
	"$PJ_BIN" record -q -p "$JPID" -o "$D/k1.data" &
	rec=$!
	wait_for 10 size_over "$D/k1.data" 1500
	kill -9 "$rec"; wait "$rec" 2>/dev/null
	"$PJ_BIN" record -q -p "$JPID" -d 0.5 -o "$D/k2.data" 2>"$D/k2.err"
	check "$J: after a SIGKILLed recorder, a new record works" [ $? -eq 0 ] ||
		sed 's/^/# /' "$D/k2.err"
	"$PJ_BIN" report -i "$D/k2.data" --format collapsed >"$D/k2.folded"
	check "$J: ... and has Java frames again" grep -q 'Workload.method' "$D/k2.folded"
	rcs=()
	for i in $(seq 10); do
		# (its stderr there before said reads it: else said returns at
		# once and the SIGINT can reach the shell forked for the
		# recorder before its exec, which then runs this test's EXIT
		# trap: seen once beside another make check)
		: >"$D/c$i.err"
		"$PJ_BIN" record -p "$JPID" -F 997 -o "$D/c$i.data" 2>"$D/c$i.err" &
		rec=$!
		said "$D/c$i.err" "$rec" '^perfjava: recording' && worked "$D/k.out" "$JPID" 50
		kill -INT "$rec" 2>/dev/null
		wait "$rec"
		rcs+=($?)
	done
	touch "$D/k.stop"
	wait "$JWAIT"
	rc=$?
	good=0
	for i in $(seq 10); do
		if [ "${rcs[i - 1]}" -eq 0 ] &&
			"$PJ_BIN" report -i "$D/c$i.data" --format collapsed | grep -q 'Workload.method'; then
			good=$((good + 1))
		else
			echo "# cycle $i: record exited ${rcs[i - 1]}; $("$PJ_BIN" report -i "$D/c$i.data" \
				--format collapsed 2>&1 | awk '{ n += $NF } END { print n + 0 }') samples"
			sed 's/^/#   /' "$D/c$i.err"
		fi
	done
	check "$J: 10 record cycles in a row all have Java frames ($good/10)" [ "$good" -eq 10 ]
	check "$J: the JVM finishes with correct results (exit $rc)" \
		bash -c "[ $rc -eq 0 ] && grep -c '^truth Workload' '$D/k.out' | grep -qx 3 && grep -q '^ops [1-9]' '$D/k.out'"
	extra=$(grep -vcE '^(ready [0-9]+|tick [0-9 ]+|truth Workload\.method[ABC] [0-9.]+|ops [0-9]+)$' "$D/k.out")
	check "$J: the JVM's own output is unchanged after 10 attaches ($extra extra lines)" [ "$extra" -eq 0 ]
	errs=$(jvm_own_stderr "$D/k.out.err" | wc -l)
	check "$J: and nothing on its stderr, the JDK's dynamic-agent warning included ($errs lines)" [ "$errs" -eq 0 ]
done
