#!/usr/bin/env bash
# Native frames without frame pointers in JVMs (JDK 17 and 25): the JNI
# function and zlib's frames between Deflater.deflateBytesBytes and the leaf,
# in the default mode and with -g dwarf (-g fp printed beside); the JVM's
# compiler and GC threads unwound deeper, named, with -g dwarf than with
# -g fp, recorded at the same time. The -g dwarf recordings run in the
# unwinder's check mode (PERFJAVA_UNWIND_CHECK): each stack unwound by the
# fast path is unwound again by libdw alone, and none may differ. The
# Workload ticks (every 100 ms, its worker's CPU time on its stdout): its
# recordings last as much of its work as the checks need, whatever the
# load, and no more of its spinning.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "JNI and JVM stacks without frame pointers"

# jni FOLDED: "ALL GOOD ZLIB" over the stacks (no [java: marker) that have
# a frame below the Java frame Deflater.deflateBytesBytes: GOOD have the
# JNI function right below it, ZLIB also a user frame below that one
jni() {
	awk '!/\[java:/ {
		n = $NF; $NF = ""; sub(/ +$/, ""); k = split($0, f, ";")
		for (i = 1; i < k; i++)
			if (f[i] ~ /^java\.util\.zip\.Deflater\.deflateBytesBytes(_\[.\])?$/)
				break
		if (i >= k) next
		all += n
		if (f[i + 1] != "Java_java_util_zip_Deflater_deflateBytesBytes") next
		good += n
		if (i + 2 <= k && f[i + 2] !~ /_\[k\]$/) zlib += n
	} END { printf "%d %d %d\n", all, good, zlib }' "$1"
}

# checked DATA: "CHECKED DIFFER", the check mode's counts in a recording
checked() {
	"$PJ_BIN" report -i "$1" --format meta 2>/dev/null | awk '
		$2 == "unwind_checked" { c = $3 } $2 == "unwind_differ" { d = $3 }
		END { printf "%d %d\n", c, d }'
}

# depth FOLDED GROUP: "SAMPLES MEAN-DEPTH UNNAMED-PCT" of the user frames of
# the threads whose name matches GROUP (report --threads)
depth() {
	awk -v g="$2" '{
		th = $0; sub(/ tid=.*/, "", th); if (th !~ g) next
		n = $NF; $NF = ""; k = split($0, f, ";"); d = 0; u = 0
		for (i = 2; i <= k; i++) {
			if (f[i] ~ /_\[k\] *$/) continue
			d++; if (f[i] ~ /^\[/) u++
		}
		c += n; dep += d * n; un += u * n
	} END { printf "%d %.2f %.1f\n", c, c ? dep / c : 0, dep ? 100 * un / dep : 0 }' "$1"
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J; mkdir -p "$D"
	touch "$D/go"
	if ! start_jvm "$jdk" "$D/wl.out" -- Workload 60 1 "$D/go" ticks; then
		not_ok "$J: Workload did not start"
		continue
	fi
	for mode in default dwarf fp; do
		g=(-g "$mode"); [ "$mode" = default ] && g=()
		# a second recording when the first had too few such stacks
		# (a busy machine can delay the JIT or the attach). Each at 1 kHz
		# for 0.4 s of the worker's CPU (its ticks say it): some 400
		# samples, 100 of them in zlib, whatever the load
		for try in 1 2; do
			: >"$D/$mode.err"
			PERFJAVA_UNWIND_CHECK=1 "$PJ_BIN" record -p "$JPID" "${g[@]}" -c 1000000 \
				-o "$D/$mode.data" 2>"$D/$mode.err" &
			rec=$!
			said "$D/$mode.err" "$rec" '^perfjava: recording'
			worked "$D/wl.out" "$JPID" 400
			kill -TERM "$rec" 2>/dev/null
			wait "$rec"
			"$PJ_BIN" report -i "$D/$mode.data" --format collapsed >"$D/$mode.folded"
			read -r all good zlib <<<"$(jni "$D/$mode.folded")"
			[ "$all" -ge 10 ] && break
			sed 's/^/#   /' "$D/$mode.err"
		done
		echo "# $J $mode: of $all stacks below Deflater.deflateBytesBytes, $good have the JNI function under it, $zlib zlib frames under that"
		eval "all_$mode=$all good_$mode=$good zlib_$mode=$zlib"
	done
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	for mode in default dwarf; do
		eval "all=\$all_$mode good=\$good_$mode zlib=\$zlib_$mode"
		check "$J $mode: Java_java_util_zip_Deflater_deflateBytesBytes under Deflater.deflateBytesBytes ($good of $all)" \
			awk -v a="$all" -v g="$good" 'BEGIN { exit !(a >= 10 && g >= 0.8 * a) }'
		check "$J $mode: zlib frames under the JNI function ($zlib of $good)" \
			awk -v g="$good" -v z="$zlib" 'BEGIN { exit !(g > 0 && z >= 0.5 * g) }'
	done
	# zlib's static functions are named by their start, not [libz.so...]
	if grep -q 'libz\.so' "$D/default.folded"; then
		check "$J: no frame named just [libz.so...]" \
			bash -c "! grep -q '\[libz\.so[^];]*\]' '$D/default.folded' '$D/dwarf.folded'"
	fi

	# --- the JVM's own threads: compiler threads from the start (-Xcomp
	# compiles every method at its first call), then GC threads collecting
	# what the program allocates, in a JVM of their own (without -Xcomp:
	# its seconds of compiling before "ready" are not waited for); -g fp
	# and -g dwarf at the same time, 1 s (hundreds of samples of either)
	for part in Compiler GC; do
		xcomp=-Xcomp; [ $part = GC ] && xcomp=
		"$jdk/bin/java" $xcomp -Xmx64m -cp "$CLASSES" Garbage 30 >"$D/$part.out" 2>&1 &
		P=$!
		track $P
		[ $part = GC ] && wait_for 30 grep -q '^ready' "$D/$part.out"
		"$PJ_BIN" record -q --no-java -p "$P" -g fp -c 1000000 -d 1 -o "$D/$part-fp.data" &
		r1=$!
		PERFJAVA_UNWIND_CHECK=1 "$PJ_BIN" record -q --no-java -p "$P" \
			-g dwarf -c 1000000 -d 1 -o "$D/$part-dw.data"
		wait "$r1"
		kill "$P" 2>/dev/null; wait "$P" 2>/dev/null
		for m in fp dw; do
			"$PJ_BIN" report -i "$D/$part-$m.data" --threads --format collapsed >"$D/$part-$m.folded"
		done
	done
	for data in default dwarf Compiler-dw GC-dw; do
		read -r ck df <<<"$(checked "$D/$data.data")"
		check "$J $data: the fast unwind gives libdw's frames ($df of $ck stacks differ)" \
			awk -v c="$ck" -v d="$df" 'BEGIN { exit !(c >= 20 && d == 0) }'
	done
	for group in Compiler GC; do
		re='^\[(C1 |C2 |)CompilerThre'; [ $group = GC ] && re='^\[(GC Thread|G1 )'
		read -r nf df uf <<<"$(depth "$D/$group-fp.folded" "$re")"
		read -r nd dd ud <<<"$(depth "$D/$group-dw.folded" "$re")"
		echo "# $J $group threads: fp $nf samples, $df frames deep ($uf% unnamed); dwarf $nd samples, $dd frames deep ($ud% unnamed)"
		if [ "$nf" -lt 20 ] || [ "$nd" -lt 20 ]; then
			skip "$J: $group threads deeper with -g dwarf" "too few samples ($nf, $nd)"
			continue
		fi
		check "$J: $group threads deeper with -g dwarf ($dd vs $df frames)" \
			awk -v a="$dd" -v b="$df" 'BEGIN { exit !(a > b) }'
		check "$J: $group threads' frames named with -g dwarf ($ud% unnamed)" \
			awk -v u="$ud" 'BEGIN { exit !(u <= 5) }'
	done
done
echo "1..$_tap_n"
