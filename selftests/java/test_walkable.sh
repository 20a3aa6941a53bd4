#!/bin/bash
# Every Java sample walked (issue 11), on the Walkable workload: C2 code
# comparing strings, where the compare intrinsic moves the stack pointer and
# AsyncGetCallTrace refuses the frame (-5). The agent steps out of the
# compiled frame by the code blob's frame size, tags the walk and counts it.
# And frames below the top typed by how they ran, not by whether their method
# has compiled code: an activation that stays interpreted while another
# thread gets its method compiled (no OSR) is interpreted, _[0]. And calls
# from the interpreter into the VM (-Xint, allocating): AsyncGetCallTrace
# will not walk them (the last Java frame has no pc until the JVM sets it),
# the agent walks the physical frames itself, without writing the JVM's
# memory.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "every Java sample walked"
# These are AsyncGetCallTrace's recoveries: the agent's own walk, which
# takes these threads first (test_vmwalk.sh), is left out here.
export PERFJAVA_AGENT_WALKER=asgct

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	# (it works until told to end, after the recording: a loaded machine
	# can take seconds to attach)
	start_jvm "$jdk" "$D/w.out" -XX:-UseOnStackReplacement -Dstop.file="$D/w.stop" -- Walkable 300
	"$PJ_BIN" record -p "$JPID" -F 997 -d 5 -o "$D/w.data" 2>"$D/w.err"
	check "$J: record the Walkable workload exits 0" [ $? -eq 0 ]
	touch "$D/w.stop"
	wait "$JWAIT"
	check "$J: the workload finishes normally while profiled" [ $? -eq 0 ]
	"$PJ_BIN" report -i "$D/w.data" --format meta >"$D/w.meta"
	"$PJ_BIN" report -i "$D/w.data" --format collapsed --threads >"$D/w.folded"
	echo "# $J: $(grep -oE 'java: [0-9]+ stacks walked[^;]*' "$D/w.err")"

	comp=$(awk '$2 == "walk_recovered_compiled" { print $3 }' "$D/w.meta")
	check "$J: walks out of compiled frames recovered and counted (${comp:-0})" \
		[ "${comp:-0}" -gt 0 ]
	check "$J: the summary names the compiled-frame recoveries" \
		grep -qE "[1-9][0-9]* compiled frames" "$D/w.err"

	# the compare thread: Java frames on >= 99% of its samples, the
	# compiled method the sample was in as the Java leaf
	share=$(awk '/^\[walkable-compare / { t += $NF; if ($0 !~ /\[java:/ && $0 ~ /_\[[j0i1]\]/) j += $NF }
		END { printf "%.1f", t ? 100 * j / t : 0 }' "$D/w.folded")
	check "$J: >= 99% of the compare thread's samples have Java frames ($share%)" \
		awk -v p="$share" 'BEGIN { exit !(p >= 99) }'
	check "$J: its stacks reach the workload's own methods" \
		grep -q '^\[walkable-compare .*Walkable\.compare_\[[j01i]\];java\.util\.TreeMap\.merge_' "$D/w.folded"

	# outer stays interpreted on walkable-interp, compiled on walkable-warm
	read -r interp all < <(awk '/^\[walkable-interp / && /Walkable\.outer_\[.\];Walkable\.inner_/ {
		a += $NF; if (/Walkable\.outer_\[0\];Walkable\.inner_/) i += $NF }
		END { print i + 0, a + 0 }' "$D/w.folded")
	echo "# $J: $interp of $all samples under the interpreted outer typed _[0]"
	check "$J: an interpreted frame below the top is _[0] though its method is compiled ($interp of $all)" \
		awk -v i="$interp" -v a="$all" 'BEGIN { exit !(a > 0 && i >= 0.95 * a) }'
	check "$J: the compiled activations of the same method are not _[0]" \
		grep -qE '^\[walkable-warm .*Walkable\.outer_\[[j1]\]' "$D/w.folded"

	start_jvm "$jdk" "$D/g.out" -Xint -- Garbage 300
	"$PJ_BIN" record -p "$JPID" -F 997 -d 3 -o "$D/g.data" 2>"$D/g.err"
	check "$J: -Xint: record exits 0" [ $? -eq 0 ]
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	"$PJ_BIN" report -i "$D/g.data" --format meta >"$D/g.meta"
	"$PJ_BIN" report -i "$D/g.data" --format collapsed --threads --lines >"$D/g.folded"
	echo "# $J: -Xint: $(grep -oE 'java: [0-9]+ stacks walked[^;]*' "$D/g.err")"
	vm=$(awk '$2 == "walk_recovered_vm" { print $3 }' "$D/g.meta")
	check "$J: -Xint: walks in the VM walked and counted (${vm:-0})" [ "${vm:-0}" -gt 0 ]
	share=$(awk '/^\[main / { t += $NF; if ($0 !~ /\[java:/ && $0 ~ /_\[[j0i1]\]/) j += $NF }
		END { printf "%.1f", t ? 100 * j / t : 0 }' "$D/g.folded")
	check "$J: -Xint: >= 99% of the main thread's samples have Java frames ($share%)" \
		awk -v p="$share" 'BEGIN { exit !(p >= 99) }' ||
		awk '{ t = $0; sub(/;.*/, "", t); sub(/ tid=.*/, "", t); n[t] += $NF }
			END { for (t in n) print n[t], t }' "$D/g.folded" | sort -rn | head -5 | sed 's/^/# threads: /'
	check "$J: -Xint: the allocation in the VM under its Java line (Garbage.java:24)" \
		grep -q 'Garbage\.main:24_\[0\];InterpreterRuntime::' "$D/g.folded"
done
