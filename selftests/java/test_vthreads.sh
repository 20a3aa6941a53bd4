#!/usr/bin/env bash
# Virtual threads as threads (JDK 21+): named and unnamed virtual threads
# computing in known chains (VThreads.java: vt-a-N run vtEntryA ->
# vtMiddleA -> vtComputeA, unnamed ones the B chain): once the agent's
# mount events are on, >= 95% of their CPU samples name the right virtual
# thread (--threads: "[vt-a-3 #41 virtual, on CARRIER tid=N]", "[#42
# virtual, ...]"), >= 99% keep the chain;
# --vthreads=merge folds them into one root; with --wall, their time parked
# against computing within 5 pp of the program's own timing; a million
# short-lived virtual threads a minute leave the reader's memory flat
# (within 3 MB).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "virtual threads"

n=0
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	ver=$("$jdk/bin/java" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print v[1]; exit }')
	[ "${ver:-0}" -ge 21 ] || continue
	n=$((n + 1))
	D=$TMP/$J
	mkdir -p "$D"
	# (each run works until told to end, after its recording: a loaded
	# machine can take seconds to attach)
	start_jvm "$jdk" "$D/v.out" -Dstop.file="$D/v.stop" -- VThreads 4 300000
	"$PJ_BIN" record -p "$JPID" -e cpu-clock -c 2ms -d 3 -o "$D/v.data" 2>"$D/v.err"
	check "$J: record exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/v.err"
	touch "$D/v.stop"
	"$PJ_BIN" report -i "$D/v.data" --threads --format collapsed >"$D/v.folded"
	echo "# $J: the whole recording: $(awk -f "$PJ_TOP/selftests/java/vthreads_check.awk" "$D/v.folded")"
	# the naming starts once the agent's mount events are on (0.1-0.5 s
	# in: the carrier's name alone before, README): the first 0.1 s
	# that names a virtual thread, and the shares from the next on
	on=''
	for t in $(seq 0 0.1 2); do
		"$PJ_BIN" report -i "$D/v.data" --threads --format collapsed --from "$t" --to "$(awk -v t="$t" 'BEGIN { print t + 0.1 }')" 2>/dev/null |
			grep -qE '^\[(vt-a-[0-9]+ )?#[0-9]+ virtual' && { on=$t; break; }
	done
	from=$(awk -v t="${on:-2}" 'BEGIN { print t + 0.1 }')
	"$PJ_BIN" report -i "$D/v.data" --threads --format collapsed --from "$from" >"$D/v.on.folded"
	line=$(awk -f "$PJ_TOP/selftests/java/vthreads_check.awk" "$D/v.on.folded")
	echo "# $J: from $from s on (named from ${on:-(none by 2)} s): $line"
	right=$(echo "$line" | awk '{ sub(/%/, "", $4); print int($4) }')
	chain=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "chain") { sub(/%/, "", $(i + 1)); print int($(i + 1)) } }')
	check "$J: >= 95% of the virtual threads' samples name the right one, once named ($right%)" [ "${right:-0}" -ge 95 ]
	check "$J: >= 99% keep the chain vtEntry;vtMiddle;vtCompute ($chain%)" [ "${chain:-0}" -ge 99 ]
	check "$J: a named one shows its name, id and carrier" \
		grep -qE '^\[vt-a-[0-9]+ #[0-9]+ virtual, on ForkJoinPool-[0-9]+-worker-[0-9]+ tid=[0-9]+\]' "$D/v.folded"
	"$PJ_BIN" report -i "$D/v.data" --vthreads=merge --format collapsed --from "$from" >"$D/m.folded"
	merged=$(awk '/vtCompute/ { t += $NF; if ($0 ~ /^\[virtual threads\];/) m += $NF }
		END { print t ? int(100 * m / t) : 0 }' "$D/m.folded")
	check "$J: --vthreads=merge: one root for them all, once named ($merged% of their samples)" \
		[ "$merged" -ge 95 ]
	grep vtCompute "$D/v.folded" | grep -vE 'vtEntry[AB][^;]*;[^;]*vtMiddle' | head -3 | sed 's/^/# not whole: /' | cut -c1-400
	wait_for 30 grep -q '^done' "$D/v.out"

	# --- --wall: a virtual thread's park (unmount to mount) is a wait
	start_jvm "$jdk" "$D/w.out" -Dstop.file="$D/w.stop" -- VThreads 4 300000
	"$PJ_BIN" record -p "$JPID" --wall -d 2 -o "$D/w.data" 2>"$D/w.err"
	touch "$D/w.stop"
	"$PJ_BIN" report -i "$D/w.data" --event offcpu --total --format collapsed >"$D/w.folded"
	check "$J: --wall: a parked virtual thread's wait, with the stack where it parked" \
		grep -qE 'vtEntryA[^;]*;[^;]*nap[^;]*;.*;\[off-cpu: virtual thread parked\] ' "$D/w.folded"
	wait_for 30 grep -q '^done' "$D/w.out"
	# their time computing and napping (on-CPU and parked together) against
	# the program's own timing over the recorded window
	"$PJ_BIN" report -i "$D/w.data" --total --format collapsed >"$D/wt.folded"
	win=$(sample_window "$D/w.data" 'VThreads\.vtEntry')
	window_truth "$D/w.out" ${win:-0 0} VThreads work nap >"$D/w.truth"
	truth=$(awk '$1 == "VThreads.nap" { print $2 }' "$D/w.truth")
	got=$(awk '/vtEntry[AB]/ { if (/VThreads\.nap/) p += $NF; else if (/vtMiddle[AB]/) w += $NF }
		END { if (p + w) printf "%.2f", 100 * p / (p + w) }' "$D/wt.folded")
	# (the samples and waits behind that share: the on-CPU part is sampled)
	nw=$("$PJ_BIN" report -i "$D/w.data" --format collapsed |
		awk '/vtEntry[AB]/ && (/VThreads\.nap/ || /vtMiddle[AB]/) { n += $NF } END { print n + 0 }')
	echo "# $J: --wall: virtual threads napping ${got:-?}% of their time, truth ${truth:-?}% over $win s"
	check_share "$J: --wall: virtual threads' parks, of the program's timing," "$got" "$nw" "$truth" 5

	# --- churn: short-lived virtual threads as fast as they start
	start_jvm "$jdk" "$D/c.out" -- VThreads 1 16000 churn
	"$PJ_BIN" record -p "$JPID" -e cpu-clock -d 12 -o "$D/c.data" 2>"$D/c.err" &
	rp=$!
	track $rp
	wait_for 20 grep -q 'recording' "$D/c.err"
	t0=$EPOCHSECONDS
	wait_for 10 reached $((t0 + 3)) # a time, not an event
	r1=$(awk '/^VmRSS/ { print $2 }' "/proc/$rp/status")
	wait_for 15 reached $((t0 + 10))
	r2=$(awk '/^VmRSS/ { print $2 }' "/proc/$rp/status")
	wait $rp
	wait_for 30 grep -q '^done' "$D/c.out"
	started=$(awk '/^started/ { print $2 }' "$D/c.out")
	echo "# $J: churn: $started virtual threads in 16 s ($((${started:-0} * 60 / 16)) a minute); reader RSS $r1 KB at 3 s, $r2 KB at 10 s"
	check "$J: churn: the reader's memory stays flat (within 3 MB: $r1 -> $r2 KB)" \
		[ $((${r2:-999999} - ${r1:-0})) -le 3072 ]
	check "$J: churn: at least a million virtual threads a minute (${started:-0} in 16 s)" \
		[ "${started:-0}" -ge 266667 ]
done
[ "$n" -gt 0 ] || skip "virtual threads" "no JDK 21+ here"
