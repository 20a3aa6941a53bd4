#!/bin/bash
# The agent's own walk (agent/vmwalk.c) against AsyncGetCallTrace on the
# same samples: with PERFJAVA_AGENT_WALKCHECK in the JVM's environment, each
# walk the agent takes itself at a sample is taken again by
# AsyncGetCallTrace in the same signal handler, and the two, named, are
# compared frame by frame (methods and bcis) wherever AsyncGetCallTrace
# walked without a recovery. On JDK 17 and 25: the Workload (compiled loops,
# JNI into zlib), Trust (megamorphic calls through vtable and itable stubs,
# String.intern in the VM, an interpreted method), Recurse (200 frames deep)
# and Walkable (C2's string compare moving the stack pointer; the
# interpreter calling into the VM under -Xint). And the walks it takes
# itself: the share of all walks, and Java frames on the samples; the
# Workload also in a JVM that record launches (the agent loaded at its
# start).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "the agent's own walk"

stat() { awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }' "$1"; }

# run TAG MIN_OWN_PCT [JVM flags] -- CLASS ARGS: record 1.5 s at 1 kHz
# with the check on (1500 walks a busy thread), then check; 3 s more when
# it had fewer than 400 walks of the agent (a loaded machine gives the JVM
# less: the few walks AsyncGetCallTrace takes at the start, up to 35,
# would weigh too much)
run() {
	local tag=$1 min=$2 f=$D/$1 d timed
	shift 2
	PERFJAVA_AGENT_WALKCHECK=1 start_jvm "$jdk" "$f.out" "$@" || {
		not_ok "$J $tag: the JVM starts"
		return
	}
	wait_for 20 grep -q . "$f.out" # its first lines: warming up
	for d in 1.5 3; do
		"$PJ_BIN" record -p "$JPID" -c 1000000 -d $d -o "$f.data" 2>"$f.err"
		"$PJ_BIN" report -i "$f.data" --format meta >"$f.meta"
		timed=$(stat "$f.meta" walk_agent_timed)
		[ "${timed:-0}" -ge 400 ] && break
		echo "# $J $tag: ${timed:-no} walks in $d s, recording 3 s more"
	done
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null
	judge "$tag" "$min" "$f"
}

# judge TAG MIN_OWN_PCT FILE-PREFIX: the checks on a recording
judge() {
	local tag=$1 min=$2 f=$3 checked same own timed

	"$PJ_BIN" report -i "$f.data" --format meta >"$f.meta"
	checked=$(stat "$f.meta" walk_check_walks)
	same=$(stat "$f.meta" walk_check_same)
	own=$(stat "$f.meta" walk_agent_own)
	timed=$(stat "$f.meta" walk_agent_timed)
	grep -A2 'walk check: thread' "$f.out.err" | head -6 | sed 's/^/# /'
	check "$J $tag: its walks name the frames AsyncGetCallTrace names, >= 99% (${same:-0} of ${checked:-0})" \
		awk -v s="${same:-0}" -v c="${checked:-0}" 'BEGIN { exit !(c >= 100 && s >= 0.99 * c) }'
	check "$J $tag: the agent walked >= $min% of the walks itself (${own:-0} of ${timed:-0})" \
		awk -v o="${own:-0}" -v t="${timed:-0}" -v m="$min" 'BEGIN { exit !(t > 0 && 100 * o >= m * t) }'
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	# (each killed once recorded: a loaded machine can take seconds to attach)
	run workload 90 -- Workload 300 1
	run trust 70 -Dtruth.every=50 -XX:CompileCommand=quiet -XX:CompileCommand=exclude,Trust::interp -- Trust 300
	run recurse 90 -- Recurse 300 200
	run walkable 70 -XX:-UseOnStackReplacement -- Walkable 300
	run xint 50 -Xint -- Walkable 300
	# the JVM launched by record: the agent from its start (-agentpath),
	# before the JVM generates the call stub its walk needs (the 75-95
	# walks of its first moments are AsyncGetCallTrace's, whatever the
	# load; a loaded machine halves the rest: 679 of 774 in CI, so 80%).
	# Its work ends (-Dstop.file) after 1 s of its worker's CPU (its ticks
	# say it): 1000 walks of its own against those, whatever the load
	PERFJAVA_AGENT_WALKCHECK=1 record_launched "$jdk" "$D/launch" "$D/launch.out.err" 1000 -c 1000000
	judge launched 80 "$D/launch"
done
