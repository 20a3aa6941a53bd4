#!/usr/bin/env bash
# The leaf is the code the CPU was executing (JDK 17 and 25): the Stubs
# workload spends known CPU time in megamorphic virtual and interface calls
# (vtable and itable stubs), in System.arraycopy (an arraycopy stub) and in a
# JNI call into a library without frame pointers whose leaf keeps text in
# the frame-pointer register. Each is the leaf within 3 pp (or three
# standard errors) of the program's own CPU truth over the recorded window;
# the stubs, whose time the program cannot measure apart from their
# callers', take the share of their call phase's samples (those under
# Stubs.vcalls or Stubs.icalls) that async-profiler gives them in the same
# window (a second recording, both profilers at once), within three standard
# errors: from one window to the next that split moves by more than that (20%
# against 39% of the phase's samples, quiet), and the phases' lengths with the
# machine's load. The JNI function is named between the native method and the
# leaf.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "stubs and JNI as leaves"
LIB=$PROGS/libpjstubs.so
[ -f "$LIB" ] || { skip "stubs and JNI as leaves" "no $LIB (make)"; exit 0; }
asprof_build
W='^\[stubs-worker'
# in_phase FOLDED S: "M N %", of the worker's N samples under Stubs.Scalls
# (S v or i), the M with the S-table stub as their leaf just above it
in_phase() {
	awk -v th="$W" -v ph=";Stubs[.]$2calls" -v st=";Stubs[.]$2calls[^;]*;$2table stub\$" '{
		n = $NF; sub(/ [0-9]+$/, ""); if ($0 !~ th || $0 !~ ph) next
		t += n; if ($0 ~ st) m += n }
		END { printf "%d %d %.2f\n", m, t, t ? 100 * m / t : 0 }' "$1"
}

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
	pj_vtable=$(leaf_share "$D/s.folded" "$W" '^vtable stub$' ';Stubs[.]vcalls[^;]*;vtable stub$')
	pj_itable=$(leaf_share "$D/s.folded" "$W" '^itable stub$' ';Stubs[.]icalls[^;]*;itable stub$')
	# (there at all: their shares, a few % each, are set against
	# async-profiler's below; a loaded machine gave 5 of 508 samples)
	check "$J: the vtable stub is the leaf above Stubs.vcalls ($pj_vtable% of $n samples)" \
		awk -v p="$pj_vtable" 'BEGIN { exit !(p > 0) }'
	check "$J: the itable stub is the leaf above Stubs.icalls ($pj_itable% of $n samples)" \
		awk -v p="$pj_itable" 'BEGIN { exit !(p > 0) }'

	if [ -z "$ASPROF" ]; then
		skip "$J: stubs' shares against async-profiler's" "$ASPROF_WHY"
	else
		# both at once: the phases' inner split moves between windows
		"$ASPROF" start -e cpu -i 1ms -t "$JPID" >"$D/ap.err" 2>&1
		"$PJ_BIN" record -p "$JPID" -F 1000 -d 4 -o "$D/both.data" 2>"$D/both.err"
		check "$J: record beside async-profiler exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/both.err"
		"$ASPROF" stop -t -o collapsed -f "$D/ap.folded" "$JPID" >>"$D/ap.err" 2>&1
		"$PJ_BIN" report -i "$D/both.data" --format collapsed --threads >"$D/both.folded"
		for s in v i; do
			read -r pm pn pp <<<"$(in_phase "$D/both.folded" $s)"
			read -r am an ap <<<"$(in_phase "$D/ap.folded" $s)"
			if [ "$pn" -eq 0 ] || [ "$an" -eq 0 ]; then
				not_ok "$J: Stubs.${s}calls sampled by both (perfjava $pn, async-profiler $an samples)"
				sed 's/^/# /' "$D/ap.err"
				continue
			fi
			shares_agree "$J: ${s}table stub's share of Stubs.${s}calls' samples, perfjava's ($pm of $pn) and async-profiler's ($am of $an)," \
				"$pp" "$pn" "$ap" "$an" 5
		done
		apc=$(leaf_share "$D/ap.folded" "$W" 'arraycopy')
		echo "# $J: async-profiler: arraycopy stub $apc%, JNI leaf $(leaf_share "$D/ap.folded" "$W" '^stubs_leaf$')%"
	fi
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true
done
