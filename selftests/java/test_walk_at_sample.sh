#!/usr/bin/env bash
# Java walks taken at the sample: the kernel signals the sampled thread, the
# agent's handler walks it and leaves the walk in shared memory, the reader
# matches it to its sample. Events that do not sample a running thread keep
# the request path (the fallback), alone or next to a sampling event.
# The Workloads tick (every 100 ms, their time and their workers' CPU
# time on their stdout): a recording lasts as much of their work as its
# checks need, whatever the load, and no more of their spinning.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "walks at the sample"

# matched_share ERRFILE: matched walks per 100 samples, from the summary
matched_share() {
	awk '/ samples/ && !s { for (i = 1; i <= NF; i++) if ($(i+1) == "samples") { s = $i; break } }
		/walks at the sample/ { for (i = 1; i <= NF; i++) if ($(i+1) == "matched,") m = $i }
		END { printf "%d", s ? 100 * m / s : 0 }' "$1"
}

# rec_work MS CPU_MS ERR ARGS...: perfjava record -p $JPID ARGS (stderr in
# ERR) until the Workload (stdout $D/w.out) has ticked MS ms and CPU_MS ms
# of its workers' CPU since the recording began, then SIGTERM (its file
# complete, as at -d); record's status
rec_work() {
	local ms=$1 cpu=$2 err=$3 rec
	shift 3
	: >"$err" # (there for tail at once)
	"$PJ_BIN" record -p "$JPID" "$@" 2>"$err" &
	rec=$!
	said "$err" "$rec" '^perfjava: recording'
	worked "$D/w.out" "$JPID" "$cpu" "$ms"
	kill -TERM "$rec" 2>/dev/null
	wait "$rec"
}

# period_counts DATA: samples with Java frames from a walk in the even
# 400 ms periods of CLOCK_MONOTONIC, then in the odd ones (but their last
# 2 ms), then all the odd ones' samples; GRACE (seconds, 0 if not given)
# leaves out the first moments of each odd period: the reader turns its
# rings in its poll loop, which a loaded machine schedules late (the agent
# turns in its own handler, on time)
period_counts() {
	"$PJ_BIN" report -i "$1" --format script 2>/dev/null | awk -v grace="${2:-0}" '
		function end() {
			if (!n) return
			p = int(t / 0.4); d = t - p * 0.4
			if (p % 2 == 0) even += hit
			else if (d >= grace) { all++; if (d < 0.398) odd += hit }
			hit = n = 0 }
		/^[^\t]/ { end(); n = 1; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = $i + 0 }
		/^\t/ && /Thread\.run/ { hit = 1 }
		END { end(); print even + 0, odd + 0, all + 0 }'
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	# (one worker: its ticker, asleep between ticks, has the context
	# switches below with Java frames on an idle machine too)
	touch "$D/go"
	start_jvm "$jdk" "$D/w.out" -- Workload 300 1 "$D/go" ticks # killed at the end
	if [ -z "$JPID" ]; then
		not_ok "$J: the JVM starts"
		continue
	fi

	# --- cpu-clock at 1 ms: every sample has a walk from its own signal
	# (some 600 samples: 0.6 s of the worker's CPU)
	rec_work 0 600 "$D/a.err" -c 1000000 --native-base -o "$D/a.data"
	check "$J: record exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/a.err"
	grep 'walks at the sample\|walk latency' "$D/a.err" | sed 's/^/# /'
	check "$J: the summary says walks were taken at the sample" \
		grep -qE 'java walks at the sample \(signal [0-9]+ routed' "$D/a.err"
	share=$(matched_share "$D/a.err")
	check "$J: >= 95% of samples matched a walk from their signal ($share%)" [ "$share" -ge 95 ]
	# Linux 5.13+ signals the sampled thread itself (attr.sigtrap)
	if [ "$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')" -ge 5013 ]; then
		check "$J: ... by the kernel's SIGTRAP at the sample, every thread" \
			grep -qE 'routed to ([0-9]+) threads, \1 of them by SIGTRAP' "$D/a.err"
	else
		skip "$J: ... by the kernel's SIGTRAP at the sample" "Linux $(uname -r) has no attr.sigtrap"
	fi
	"$PJ_BIN" report -i "$D/a.data" --format collapsed >"$D/a.folded"
	check "$J: ... and the walks are Java stacks (Workload.method, JIT)" \
		grep -qE 'Workload.method[ABC]_\[j\]' "$D/a.folded"
	check "$J: ... under the thread's native entry (--native-base)" \
		grep -qE '^(start_thread|clone3?);.*Workload.method' "$D/a.folded"
	"$PJ_BIN" report -i "$D/a.data" --format collapsed --threads >"$D/at.folded"
	one_base "$D/at.folded" '^\[worker-' >"$D/base"
	sed 's/^/# one native base: /' "$D/base"
	# (its first samples, before the chain first reached the thread's
	# entry, have no base yet)
	check "$J: --native-base: each worker's stacks start at one frame, >= 95% ($(head -1 "$D/base" | cut -d' ' -f1)%)" \
		awk '{ n++; if ($1 < 95) bad++ } END { exit !(n && !bad) }' "$D/base"

	# --- an event that does not sample a running thread: walks on request
	"$PJ_BIN" record -p "$JPID" -e context-switches -d 0.5 -o "$D/c.data" 2>"$D/c.err"
	check "$J: context-switches alone: walks on request, and says why" \
		grep -q 'java walks on request: no event samples a running thread' "$D/c.err"
	"$PJ_BIN" report -i "$D/c.data" --format collapsed >"$D/c.folded"
	check "$J: ... with Java frames" grep -q 'Workload' "$D/c.folded"

	# --- both in one recording: each event its own path
	"$PJ_BIN" record -p "$JPID" -e cpu-clock,context-switches -d 0.5 -o "$D/m.data" 2>"$D/m.err"
	check "$J: cpu-clock + context-switches: at the sample, on request for context switches" \
		grep -q 'at the sample.*on request for tracepoints and context switches' "$D/m.err"
	for ev in cpu-clock context-switches; do
		"$PJ_BIN" report -i "$D/m.data" --event "$ev" --format collapsed >"$D/m-$ev.folded" 2>/dev/null
		check "$J: ... $ev samples have Java frames" grep -q 'Workload' "$D/m-$ev.folded"
	done

	# --- the kernel's fallback when our signal's queue overflows is SIGIO,
	# whose default action would end the JVM: the agent ignores it
	sigign=$(awk '/^SigIgn:/ { print $2 }' "/proc/$JPID/status")
	check "$J: the agent has the JVM ignore SIGIO (the kernel's fallback for a full signal queue)" \
		[ $((0x${sigign:-0} >> 28 & 1)) -eq 1 ]
	kill -IO "$JPID" 2>/dev/null
	"$PJ_BIN" record -p "$JPID" -d 0.5 -o "$D/io.data" 2>"$D/io.err"
	"$PJ_BIN" report -i "$D/io.data" --format collapsed >"$D/io.folded" 2>/dev/null
	check "$J: ... and after a SIGIO the JVM is still recorded with Java frames" \
		grep -q 'Workload' "$D/io.folded"

	# --- make bench's split of the walk (bench_walk_parts.sh): the agent
	# returns from its handler at once, or drops the walks it took; any
	# other value passes nothing on (some 300 samples each)
	for b in 'signal,sock=/x' signal walk; do
		PERFJAVA_AGENT_BENCH=$b rec_work 0 300 "$D/b.err" -c 1000000 -o "$D/b.data"
		matched=$(grep -oE '[0-9]+ matched' "$D/b.err" | grep -oE '[0-9]+')
		if [ "$b" = signal ] || [ "$b" = walk ]; then
			check "$J: PERFJAVA_AGENT_BENCH=$b: signals routed, no walk matched (${matched:-none})" \
				[ "${matched:-x}" = 0 ]
		else
			share=$(matched_share "$D/b.err")
			check "$J: PERFJAVA_AGENT_BENCH=$b (no such split): walks as usual (${share}% of its samples matched)" \
				[ "$share" -ge 90 ]
		fi
	done
	# bench=alt (bench_walk_alt.sh): walks at the sample in the even 400 ms
	# periods of the monotonic clock only (a sample in the last 2 ms of an
	# odd one may have its handler run in the next; the reader's requested
	# walks, a few, come in any). Each of these recordings lasts 1.2 s (two
	# whole periods, one of each, a third of the time at least in either)
	# and 1.3 s of the worker's CPU: some 430 samples in either at least,
	# 320 past the odd ones' first 100 ms, however loaded the machine
	PERFJAVA_AGENT_BENCH=alt rec_work 1200 1300 "$D/b.err" -c 1000000 -o "$D/b.data"
	read -r even odd _ < <(period_counts "$D/b.data")
	check "$J: PERFJAVA_AGENT_BENCH=alt: walks in the even periods (${even:-0} samples), under 5% as many in the odd ones (${odd:-?})" \
		[ "${even:-0}" -ge 200 -a $((${odd:-9999} * 20)) -lt "${even:-0}" ]
	# the reader's (PERFJAVA_BENCH=alt): the signal itself in turns, the
	# odd periods sampled by its twin without (and no walk requested); it
	# turns within a few ms of each period's start on a quiet machine, up
	# to tens of ms late on a loaded one (the first 100 ms of each odd
	# period are not counted: the CI's run, two tests at a time beside
	# their JVMs, had the reader turn more than 50 ms late)
	PERFJAVA_BENCH=alt rec_work 1200 1300 "$D/b.err" -c 1000000 -o "$D/b.data"
	read -r even odd nodd < <(period_counts "$D/b.data" 0.1)
	check "$J: PERFJAVA_BENCH=alt: walks in the even periods (${even:-0} samples), under 5% as many in the odd ones (${odd:-?})" \
		[ "${even:-0}" -ge 200 -a $((${odd:-9999} * 20)) -lt "${even:-0}" ]
	check "$J: ... whose samples are taken all the same (${nodd:-0})" [ "${nodd:-0}" -ge 200 ]
	grep -q '^perfjava: PERFJAVA_BENCH=alt: a benchmark' "$D/b.err"
	check "$J: ... and the recorder says it is a benchmark's recording" [ $? -eq 0 ]
	# PERFJAVA_BENCH=alt-all: no samples at all in the odd periods (but
	# their first 100 ms, as above)
	PERFJAVA_BENCH=alt-all rec_work 1200 1300 "$D/b.err" -c 1000000 -o "$D/b.data"
	read -r even _ nodd < <(period_counts "$D/b.data" 0.1)
	check "$J: PERFJAVA_BENCH=alt-all: samples with walks in the even periods (${even:-0}), under 5% as many samples in the odd ones (${nodd:-?})" \
		[ "${even:-0}" -ge 200 -a $((${nodd:-9999} * 20)) -lt "${even:-0}" ]
	# (a share: at load 10 the JVM's workers had 199 samples in 1 s; here
	# some 300, whatever the load)
	rec_work 0 300 "$D/b.err" -c 1000000 -o "$D/b.data"
	share=$(matched_share "$D/b.err")
	check "$J: ... and the next session walks again (${share}% of its samples matched)" [ "$share" -ge 90 ]
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true

	# --- a launched JVM: its events open before the agent exists (before
	# its exec); once its agent connects, its threads get rings of their
	# own that SIGTRAP them at the sample, as a -p target's. Its work ends
	# (-Dstop.file) after 0.5 s of its worker's CPU: some 500 samples
	record_launched "$jdk" "$D/l" "$D/l.err" 500 -c 1000000
	grep 'walks at the sample' "$D/l.err" | sed 's/^/# /'
	# (the samples before the JVM's agent connects have no walk)
	matched=$(grep -oE '[0-9]+ matched' "$D/l.err" | grep -oE '[0-9]+')
	check "$J: record -- java: walks at the sample by SIGTRAP once its agent is in (${matched:-0} matched)" \
		bash -c "grep -qE 'java walks at the sample \(signal [0-9]+ routed to ([0-9]+) threads, \\1 of them by SIGTRAP' '$D/l.err' && [ ${matched:-0} -ge 200 ]"

	# --- threads that end between their open and their routing (2,000 a
	# second) have not refused the signal: the summary says no refusal
	"$PJ_BIN" record -c 1000000 -o "$D/t.data" -- "$jdk/bin/java" -Xmx256m \
		-cp "$CLASSES" Threads 2 8 2000 >/dev/null 2>"$D/t.err"
	grep 'walks at the sample' "$D/t.err" | sed 's/^/# /'
	check "$J: record -- java, 2,000 threads/s: routed, no thread counted as refusing" \
		grep -qE 'java walks at the sample \(signal [0-9]+ routed to [0-9]+ threads(, [0-9]+ of them by SIGTRAP from the sample)?\)' "$D/t.err"
done
