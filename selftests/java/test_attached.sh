#!/usr/bin/env bash
# A native thread that attaches to the JVM, runs Java code, detaches and
# runs native code, 80 times over (JDK 17 and 25), sampled at 1 kHz at the
# sample's instant: the agent's handler takes its thread for a Java thread
# exactly while it is attached (agent/curenv.c reads HotSpot's own thread
# key, which DetachCurrentThread clears). The JVM completes every cycle;
# the native half is sampled without Java frames, the Java half with them.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "a thread that attaches and detaches"
LIB=$PROGS/libpjstubs.so
[ -f "$LIB" ] || { skip "a thread that attaches and detaches" "no $LIB (make)"; exit 0; }

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	if ! start_jvm "$jdk" "$D/a.out" -Dstubs.lib="$LIB" -- Attached 80 40; then
		not_ok "$J: the Attached program starts"
		continue
	fi
	"$PJ_BIN" record -p "$JPID" -F 1000 -d 4 -o "$D/a.data" 2>"$D/a.err"
	rc=$?
	check "$J: record exits 0 ($rc)" [ "$rc" -eq 0 ]
	[ "$rc" -eq 0 ] || sed 's/^/# /' "$D/a.err"
	wait "$JWAIT"
	rc=$?
	check "$J: the JVM completes its 80 attach cycles under the walk at the sample (rc $rc)" \
		grep -qx done "$D/a.out"
	grep -qx done "$D/a.out" || tail -5 "$D/a.out.err" | sed 's/^/# /'
	"$PJ_BIN" report -i "$D/a.data" --format collapsed --threads |
		grep '^\[attached-native' >"$D/a.folded"
	read -r nat jav both all < <(awk '{ n = $NF; t += n
		if ($0 ~ /;attached_native_spin/) a += n
		if ($0 ~ /;Attached\.javaSpin/) b += n
		if ($0 ~ /attached_native_spin/ && $0 ~ /Attached\./) c += n }
		END { print a + 0, b + 0, c + 0, t + 0 }' "$D/a.folded")
	echo "# $J: $all samples of the attached thread: $nat native, $jav Java, $both both"
	check "$J: the detached half is sampled ($nat of $all)" \
		awk -v a="$nat" -v t="$all" 'BEGIN { exit !(t > 0 && a >= 0.25 * t) }'
	check "$J: ... without a Java frame ($both with one)" [ "$both" -eq 0 ]
	check "$J: the attached half is walked ($jav of $all under Attached.javaSpin)" \
		awk -v a="$jav" -v t="$all" 'BEGIN { exit !(t > 0 && a >= 0.25 * t) }'
done
