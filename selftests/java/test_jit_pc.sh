#!/usr/bin/env bash
# The methods a sample's pc in C2 code stands for. With the agent loaded
# before the JIT compiles (CompiledMethodLoad enabled), C2 records debug
# information at every instruction that changes the inlined scope, at the
# instruction's end; the sample is named from the record at its pc (the
# instruction just completed), as async-profiler does, not from the next
# one as AsyncGetCallTrace does, which gave the last instruction of
# Workload's inlined loops to the getCurrentThreadCpuTime call after them
# (10 % of the samples on Temurin 25). On JDK 17 and 25, the agent's own walk
# and AsyncGetCallTrace's (PERFJAVA_AGENT_WALKER=asgct, renamed at the top
# by the same rule): each method within 2 pp of the Workload's own CPU
# truth over the recorded window, and getCurrentThreadCpuTime, which costs
# little and shows in its native callee, under 2 % as a Java leaf.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "the methods at a sample's pc in C2 code"

# work() compiled by C2 (its loop, on stack): in the JVM's code list
compiled() {
	"$jdk/bin/jcmd" "$JPID" Compiler.codelist 2>/dev/null |
		grep -q 'Workload\.work('
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	for walker in own asgct; do
		D=$TMP/$J.$walker
		mkdir -p "$D"
		if [ $walker = asgct ]; then
			export PERFJAVA_AGENT_WALKER=asgct
		else
			unset PERFJAVA_AGENT_WALKER
		fi
		# C2 alone, so that work() and the methods it inlines are
		# compiled within seconds of the start
		start_jvm "$jdk" "$D/w.out" -Dtruth.every=50 -XX:-TieredCompilation \
			-- Workload 300 2 "$D/go" # (killed below)
		unset PERFJAVA_AGENT_WALKER
		if [ -z "$JPID" ]; then
			not_ok "$J $walker: the JVM starts"
			continue
		fi
		# the agent in before the Workload's code is compiled
		"$PJ_BIN" record -p "$JPID" -d 0.5 -o "$D/early.data" 2>"$D/early.err"
		check "$J $walker: a first recording loads the agent" [ $? -eq 0 ]
		touch "$D/go"
		# (jcmd starts a JVM: asked once a second; a loaded machine
		# compiles late)
		_pj_poll=1 wait_for 90 compiled
		check "$J $walker: work() compiled by C2" compiled
		"$PJ_BIN" record -p "$JPID" -c 1000000 -d 3 -o "$D/w.data" 2>"$D/w.err"
		check "$J $walker: record exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/w.err"
		kill "$JPID" 2>/dev/null
		wait "$JWAIT" 2>/dev/null
		"$PJ_BIN" report -i "$D/w.data" --format collapsed >"$D/w.folded"
		check_split "$J $walker" "$D/w.out" "$D/w.data" "$D/w.folded" 2
		leaf=$(awk '{ n = $NF; t += n; sub(/ [0-9]+$/, "")
			if ($0 ~ /getCurrentThreadCpuTime_\[[^;]*$/) g += n }
			END { printf "%.2f", t ? 100 * g / t : 100 }' "$D/w.folded")
		check "$J $walker: getCurrentThreadCpuTime as a Java leaf < 2% ($leaf%)" \
			awk -v p="$leaf" 'BEGIN { exit !(p < 2) }'
	done
done
