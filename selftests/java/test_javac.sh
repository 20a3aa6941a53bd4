#!/usr/bin/env bash
# javac compiling the JDK's own sources (java.base's java.io, from each
# JDK's lib/src.zip; JDK 17's comes from Debian's openjdk-17-source package,
# fetched, not installed) at 1 kHz: where a JNI function is (open0's
# Java_sun_nio_fs_UnixNativeDispatcher_open0 under libc's open, which keeps
# the path in the frame-pointer register) it is named, [unknown] stays at
# most 0.5 % of the samples (the profiler's own, labelled, counted apart;
# its own stacks named, [unknown] in at most 0.3 %), and javac's thread has one base: its walked stacks all start at its first
# Java frame.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "javac on the JDK's sources"

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D/out"
	if ! zip=$(jdk_src_zip "$jdk") || ! command -v unzip >/dev/null; then
		skip "$J: javac on the JDK's own sources" "no src.zip for $jdk (apt-get download openjdk-17-source failed) or no unzip"
		continue
	fi
	unzip -q -o "$zip" 'java.base/java/io/*' -d "$D/src"
	if ! start_jvm "$jdk" "$D/j.out" -Xmx1g -- JavacLoop "$D/src/java.base/java/io" 30 "$D/out" \
		--patch-module "java.base=$D/src/java.base"; then
		not_ok "$J: JavacLoop starts"
		continue
	fi
	"$PJ_BIN" record -p "$JPID" -F 1000 -d 6 -o "$D/j.data" 2>"$D/j.err"
	check "$J: record javac exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$D/j.err"
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true
	"$PJ_BIN" report -i "$D/j.data" --format collapsed --threads >"$D/j.folded"
	# the profiler's own samples (labelled [perfjava: ...], the agent's
	# thread and signal handler) are counted apart: not the application's
	read -r unk own ownunk < <(awk '{ n = $NF; t += n; mine = /\[perfjava: /
		if (mine) o += n; if ($0 ~ /\[unknown\]/) { if (mine) ou += n; else u += n } }
		END { printf "%.2f %.2f %.2f\n", t ? 100 * u / t : 100, t ? 100 * o / t : 0, t ? 100 * ou / t : 0 }' "$D/j.folded")
	echo "# $J: [unknown] in $unk% of the application's samples; the profiler's own: $own% of all, $ownunk% with [unknown]"
	check "$J: [unknown] in <= 0.5% of samples, the profiler's own apart ($unk%)" \
		awk -v p="$unk" 'BEGIN { exit !(p <= 0.5) }'
	# the agent keeps its name buffers off the stack, so that a sample's
	# stack copy reaches its callers (JVM frames under JVMTI calls may not)
	check "$J: the profiler's own stacks are named: [unknown] in <= 0.3% of samples ($ownunk%)" \
		awk -v p="$ownunk" 'BEGIN { exit !(p <= 0.3) }'
	# (of the stacks that go on below open0: a loaded machine gives javac
	# few samples there, some in the Java method's own wrapper)
	if grep -q 'UnixNativeDispatcher\.open0;' "$D/j.folded"; then
		check "$J: open0's JNI function is named under it, above libc's open where the stack goes on" \
			grep -qE 'UnixNativeDispatcher\.open0;Java_sun_nio_fs_UnixNativeDispatcher_open0(;(open|open64|__libc_open64)(;| )| )' "$D/j.folded" ||
			grep -oE 'UnixNativeDispatcher\.open0;.*' "$D/j.folded" | head -3 | cut -c1-200 | sed 's/^/#   /'
		check "$J: ... never an [unknown] in its place" \
			bash -c "! grep -q 'UnixNativeDispatcher\.open0;\[unknown\]' '$D/j.folded'"
	else
		skip "$J: open0's JNI function is named" "javac opened no file while recorded"
	fi
	# one base: the walked stacks of javac's thread all start at one frame;
	# stacks whose walk failed ([java: ...] at their root) have none
	grep -E '^\[main ' "$D/j.folded" | grep -v '^\[main [^;]*;\[java: ' >"$D/walked"
	one_base "$D/walked" '^\[main ' >"$D/base"
	all=$(one_base "$D/j.folded" '^\[main ' | cut -d' ' -f1)
	echo "# $J: javac's thread: $(cat "$D/base") (of all its samples: ${all:-0}%)"
	check "$J: javac's thread: one base for >= 99% of its walked stacks ($(cut -d' ' -f1 "$D/base")%)" \
		awk '{ n++; if ($1 < 99) bad++ } END { exit !(n == 1 && !bad) }' "$D/base"
done
