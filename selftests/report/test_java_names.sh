#!/usr/bin/env bash
# Java method signatures, recorded from a real JVM (JDK 17 and 25): the
# default report names a method without its signature, --sig shows its
# parameters as Java types (Workload.methodA(long)), --simple shortens them
# too (Workload.methodC(Deflater, byte[], byte[])); no JVM descriptor
# syntax reaches the report.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
java_suite "java names"

for jdk in "${JDKS[@]}"; do
	v=$(basename "$jdk")
	D=$TMP/$v
	mkdir -p "$D"
	"$PJ_BIN" record -q -o "$D/w.data" -- "$jdk/bin/java" -cp "$CLASSES" \
		Workload 2 >"$D/out" 2>"$D/err"
	if [ ! -s "$D/w.data" ] || ! grep -q '^ops' "$D/out"; then
		not_ok "$v: record -- java Workload ($(head -c 300 "$D/err"))"
		continue
	fi
	rep() { "$PJ_BIN" report -i "$D/w.data" --format collapsed "$@" | tr ';' '\n' | sed 's/ [0-9]*$//' | sort -u; }
	rep >"$D/plain"
	rep --sig >"$D/sig"
	rep --sig --simple >"$D/simple"
	java_frame='_\[[ji01]\]$'
	check "$v: by default Java frames carry no signature ($(grep -c "$java_frame" "$D/plain") Java frames)" \
		eval '[ "$(grep "$java_frame" "$D/plain" | grep -c "(")" -eq 0 ] && grep -q "^Workload.work_\[" "$D/plain"'
	check "$v: --sig: Workload.methodA(long), java.lang.Thread.run()" \
		eval 'grep -q "^Workload.methodA(long)_\[" "$D/sig" && grep -q "^java.lang.Thread.run()_\[" "$D/sig"'
	check "$v: --sig: no JVM descriptor syntax (java/lang/, [B, a return type) in any Java frame" \
		eval '! grep "$java_frame" "$D/sig" | grep -qE "\\([^)]*(/|\\[[A-Z])|\\)[A-Z[]"'
	check "$v: --sig --simple: Thread.run(), parameters simple" \
		eval 'grep -q "^Thread.run()_\[" "$D/simple" && ! grep "$java_frame" "$D/simple" | grep -q "(java\.lang\."'
done
