#!/usr/bin/env bash
# -e alloc and -e lock against sites of known weight (JvmEvents.java: the
# program measures its own allocated bytes and lock waits, over time): every
# site within 3 pp of its truth over the recorded window (or three standard
# errors, when fewer samples make that wider: of samples of unequal weight,
# weighted_n's), the class as the leaf; platform threads on every JDK,
# virtual threads on JDK 21+ (where a blocked synchronized no longer pins
# its carrier on 24+). Then the JVM is left as it was: after a recording
# of allocations, the next session finds no event posted in between.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "alloc and lock events"

# site_shares FOLDED SITE...: each SITE's share of the weight (collapsed
# with --total) among the samples that hold any of them
site_shares() { stack_share "$@"; }

# check_sites LABEL OUT DATA FOLDED SITE...: each site within tolerance of
# the program's truth over the window the recording's samples cover (its
# "cum" timeline): the phase's first moments are unlike the rest, and the
# recording starts after them
check_sites() {
	local label=$1 out=$2 data=$3 folded=$4 m truth got n ne win whole; shift 4
	n=$(wc -l <"$folded.samples")
	site_shares "$folded" "${@/#/JvmEvents.}" >"$folded.share"
	weighted_n "$folded.script" "${@/#/JvmEvents.}" >"$folded.n"
	win=$(sample_window "$data" 'JvmEvents\.(alloc|lock)')
	window_truth "$out" ${win:-0 0} JvmEvents "$@" >"$folded.truth"
	for m in "$@"; do
		truth=$(awk -v f="JvmEvents.$m" '$1 == f { print $2 }' "$folded.truth")
		whole=$(awk -v s="$m" '$1 == "truth" && $2 == s { print $3 }' "$out")
		got=$(awk -v f="JvmEvents.$m" '$1 == f { print $2 }' "$folded.share")
		ne=$(awk -v f="JvmEvents.$m" '$1 == f { print $2 }' "$folded.n")
		# (none read from the script: the count, the stricter)
		[ "${ne:-0}" -gt 0 ] 2>/dev/null || ne=$n
		echo "# $label $m truth ${truth:-?}% perfjava ${got:-?}% ($n samples, telling it as closely as ${ne:-?} of one weight; window $win s; whole run ${whole:-?}%)"
		check_share "$label: $m, of the program's own," "$got" "$ne" "$truth" 3
	done
}

# How long each kind is recorded (the JVM spins on every core meanwhile):
# allocations sampled every 128 KB (four times the default rate) for 1 s
# give as many samples as the default gave in 4; lock waits come no
# faster: 3 s (a thousand and more). The tolerance follows the count
# (check_share).
ALLOC=alloc/period=131072/ ALLOC_SECS=1 LOCK_SECS=3

# run JDK LABEL WHAT EVENT MODE SITES...
run() {
	local jdk=$1 label=$2 what=$3 ev=$4 mode=$5 D=$TMP/$2 secs=$LOCK_SECS; shift 5
	[ "$what" = alloc ] && secs=$ALLOC_SECS
	mkdir -p "$D"
	# (its phase lasts until it is told to end, after the recording: a
	# loaded machine can take seconds to attach)
	start_jvm "$jdk" "$D/w.out" -Dstop.file="$D/stop" -- JvmEvents "$what" 4 300000 "$mode"
	if [ -z "$JPID" ]; then
		not_ok "$label: the JVM starts"
		return
	fi
	"$PJ_BIN" record -p "$JPID" -e "$ev" -d "$secs" -o "$D/r.data" 2>"$D/r.err"
	check "$label: record exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/r.err"
	grep -E '^perfjava: (alloc|lock)' "$D/r.err" | sed 's/^/# /'
	touch "$D/stop"
	wait_for 30 grep -q '^done' "$D/w.out"
	check "$label: the JVM ran to its end" grep -q '^done' "$D/w.out"
	"$PJ_BIN" report -i "$D/r.data" --event "${ev%%/*}" --total --format collapsed >"$D/r.folded"
	"$PJ_BIN" report -i "$D/r.data" --event "${ev%%/*}" --format collapsed >"$D/r.samples.folded"
	awk '{ for (i = 0; i < $NF; i++) print }' "$D/r.samples.folded" >"$D/r.folded.samples"
	"$PJ_BIN" report -i "$D/r.data" --event "${ev%%/*}" --format script >"$D/r.folded.script"
	check_sites "$label" "$D/w.out" "$D/r.data" "$D/r.folded" "$@"
	LAST=$D
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	ver=$("$jdk/bin/java" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print v[1]; exit }')

	run "$jdk" "$J alloc" alloc "$ALLOC" "" allocSmall allocLarge allocBytes
	check "$J alloc: the allocated class is the leaf (long[] under allocLarge)" \
		grep -qE 'JvmEvents.allocLarge[^;]*;long\[\] ' "$LAST/r.folded"
	check "$J alloc: int[] under allocSmall" \
		grep -qE 'JvmEvents.allocSmall[^;]*;int\[\] ' "$LAST/r.folded"

	run "$jdk" "$J lock" lock lock "" lockMonitor lockReentrant
	check "$J lock: the monitor's class is the leaf" \
		grep -qE 'JvmEvents.lockMonitor[^;]*;java.lang.Object ' "$LAST/r.folded"
	check "$J lock: the ReentrantLock's sync is the leaf" \
		grep -qE 'JvmEvents.lockReentrant[^;]*;.*ReentrantLock\$NonfairSync ' "$LAST/r.folded"
	LOCKDATA=$LAST/r.data

	if [ "${ver:-0}" -ge 21 ]; then
		run "$jdk" "$J virtual alloc" alloc "$ALLOC" virtual allocSmall allocLarge allocBytes
		run "$jdk" "$J virtual lock" lock lock virtual lockMonitor lockReentrant
		check "$J virtual lock: the waits of unpinned virtual threads on a ReentrantLock are there" \
			grep -qE 'VirtualThread.run[^;]*;.*JvmEvents.lockReentrant[^;]*;.*ReentrantLock\$NonfairSync ' "$LAST/r.folded"
	else
		skip "$J virtual threads" "JDK $ver has none"
	fi

	# --- left as it was: allocations recorded, then a second session (one
	# allocating thread: it needs samples, not a share)
	D=$TMP/$J-again
	mkdir -p "$D"
	start_jvm "$jdk" "$D/w.out" -Dstop.file="$D/stop" -- JvmEvents alloc 1 300000
	"$PJ_BIN" record -p "$JPID" -e cpu-clock,alloc -d 1 -o "$D/a.data" 2>"$D/a.err"
	check "$J: alloc beside cpu-clock in one recording" \
		grep -qE 'cpu-clock [0-9]+ samples, alloc [0-9]+ samples' \
		<("$PJ_BIN" report -i "$D/a.data" 2>&1)
	"$PJ_BIN" record -p "$JPID" -e cpu-clock,lock -d 1 -o "$D/b.data" 2>"$D/b.err"
	stray=$("$PJ_BIN" report -i "$D/b.data" --format meta | awk '$2 == "jevents_stray" { print $3 }')
	check "$J: after the alloc session no sampled allocation reached the agent (stray ${stray:-?})" \
		[ "${stray:-1}" = 0 ]
	touch "$D/stop"
	wait_for 30 grep -q '^done' "$D/w.out"
	check "$J: the JVM ran on to its end" grep -q '^done' "$D/w.out"
	check "$J: ... and printed nothing of ours" [ -z "$(jvm_own_stderr "$D/w.out.err")" ]
	# HotSpot warns on stdout when a boot class's native (park, for lock)
	# is bound from outside the boot loader
	check "$J: ... nor any JVM warning on its stdout" [ -z "$(grep '\[warning\]' "$D/w.out")" ] ||
		grep '\[warning\]' "$D/w.out" | head -3 | sed 's/^/# /'
done

# --- pprof: the sample types Go and Pyroscope name
"$PJ_BIN" report -i "$D/a.data" --event alloc --format pprof -o "$TMP/a.pb.gz" 2>/dev/null
check "pprof of alloc: alloc_objects/count and alloc_space/bytes" \
	bash -c "zcat '$TMP/a.pb.gz' | grep -qa alloc_objects && zcat '$TMP/a.pb.gz' | grep -qa alloc_space"
"$PJ_BIN" report -i "$LOCKDATA" --event lock --format pprof -o "$TMP/b.pb.gz" 2>/dev/null
check "pprof of lock: contentions/count and delay/nanoseconds" \
	bash -c "zcat '$TMP/b.pb.gz' | grep -qa contentions && zcat '$TMP/b.pb.gz' | grep -qa delay"
check "perfjava list shows alloc and lock" \
	bash -c "'$PJ_BIN' list | grep -q '^  alloc' && '$PJ_BIN' list | grep -q '^  lock'"
