#!/usr/bin/env bash
# The leaf is the code the CPU was executing (JDK 17 and 25): the Stubs
# workload spends known CPU time in megamorphic virtual and interface calls
# (vtable and itable stubs), in System.arraycopy (an arraycopy stub) and in a
# JNI call into a library without frame pointers whose leaf keeps text in
# the frame-pointer register. Each is the leaf within 3 pp (or three
# standard errors) of the program's own CPU truth over the recorded window;
# the stubs, whose time the program cannot measure apart from their
# callers', within 3 pp of async-profiler's share on the same JVM (recorded
# right after). The JNI function is named between the native method and the
# leaf.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "stubs and JNI as leaves"
LIB=$PROGS/libpjstubs.so
[ -f "$LIB" ] || { skip "stubs and JNI as leaves" "no $LIB (make)"; exit 0; }
asprof_build
W='^\[stubs-worker'

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	if ! start_jvm "$jdk" "$D/s.out" -Dtruth.every=50 -Dstubs.lib="$LIB" -- Stubs 40 ||
		! wait_for 60 grep -q '^warm' "$D/s.out"; then
		not_ok "$J: the Stubs workload starts and warms up"
		continue
	fi
	"$PJ_BIN" record -p "$JPID" -F 1000 -d 4 -o "$D/s.data" 2>"$D/s.err"
	check "$J: record exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/s.err"
	"$PJ_BIN" report -i "$D/s.data" --format collapsed --threads >"$D/s.folded"
	n=$(awk -v th="$W" '{ if ($0 ~ th) n += $NF } END { print n + 0 }' "$D/s.folded")
	win=$(sample_window "$D/s.data" 'Stubs\.')
	window_truth "$D/s.out" ${win:-0 0} Stubs vtable itable arraycopy jni >"$D/truth"
	echo "# $J: $n worker samples; truth over $win: $(tr '\n' ' ' <"$D/truth")"
	truth() { awk -v f="Stubs.$1" '$1 == f { print $2 }' "$D/truth"; }

	# arraycopy: the stub is the leaf, above the Java frame that called it
	got=$(leaf_share "$D/s.folded" "$W" 'arraycopy' ';Stubs\.copies')
	check_share "$J: arraycopy stub is the leaf for the arraycopy phase" "$got" "$n" "$(truth arraycopy)" 3
	# JNI: the library's leaf under its JNI function under the native method
	got=$(leaf_share "$D/s.folded" "$W" '^stubs_leaf$')
	check_share "$J: the JNI leaf in a library without frame pointers" "$got" "$n" "$(truth jni)" 3
	named=$(leaf_share "$D/s.folded" "$W" '^stubs_leaf$' ';Stubs\.nativeSpin;Java_Stubs_nativeSpin;stubs_leaf$')
	check "$J: ... with Stubs.nativeSpin;Java_Stubs_nativeSpin above it ($named% of $got%)" \
		awk -v a="$named" -v b="$got" 'BEGIN { exit !(b > 0 && a >= 0.97 * b) }'
	for s in vtable itable; do
		eval "pj_$s=$(leaf_share "$D/s.folded" "$W" "^$s stub\$" ";Stubs\\.${s:0:1}calls[^;]*;$s stub\$")"
	done
	# (there at all: their shares, a few % each, are set against
	# async-profiler's below; a loaded machine gave 5 of 508 samples)
	check "$J: the vtable stub is the leaf above Stubs.vcalls ($pj_vtable% of $n samples)" \
		awk -v p="$pj_vtable" 'BEGIN { exit !(p > 0) }'
	check "$J: the itable stub is the leaf above Stubs.icalls ($pj_itable% of $n samples)" \
		awk -v p="$pj_itable" 'BEGIN { exit !(p > 0) }'

	if [ -z "$ASPROF" ]; then
		skip "$J: stubs' shares against async-profiler's" "$ASPROF_WHY"
	else
		"$ASPROF" -d 4 -e cpu -i 1ms -t -o collapsed -f "$D/ap.folded" "$JPID" >"$D/ap.err" 2>&1
		apn=$(awk -v th="$W" '{ if ($0 ~ th) n += $NF } END { print n + 0 }' "$D/ap.folded")
		for s in vtable itable; do
			eval "ap_$s=$(leaf_share "$D/ap.folded" "$W" "^$s stub\$")"
			eval "pj=\$pj_$s ap=\$ap_$s"
			shares_agree "$J: $s stub's share, perfjava's and async-profiler's," "$pj" "$n" "$ap" "$apn" 3
		done
		apc=$(leaf_share "$D/ap.folded" "$W" 'arraycopy')
		echo "# $J: async-profiler: arraycopy stub $apc%, JNI leaf $(leaf_share "$D/ap.folded" "$W" '^stubs_leaf$')%"
	fi
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true
done
