#!/usr/bin/env bash
# Attach without side effects: -XX:+DisableAttachMechanism given through an
# @argfile, JDK_JAVA_OPTIONS or -XX:Flags= is seen (from the JVM's perf
# data) before any signal, so the JVM prints no thread dump; without perf
# data and with arguments from elsewhere perfjava says plainly why it does not
# attach; a JVM without the flag still gets the agent.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

if [ ${#JDKS[@]} -eq 0 ]; then
	skip "attach flags" "no JDK 17 or 25 installed"
	exit 0
fi
compile_java || { not_ok "javac"; exit 1; }
echo '-XX:+DisableAttachMechanism' >"$TMP/args.txt"
echo '+DisableAttachMechanism' >"$TMP/flags.txt"

# attempt JDK HOW: a JVM with the flag given HOW, then one recording
attempt() {
	local jdk=$1 how=$2 out=$TMP/jvm.out
	case $how in
	argfile) start_jvm "$jdk" "$out" "@$TMP/args.txt" -- Workload 20 1 ;;
	env) JDK_JAVA_OPTIONS=-XX:+DisableAttachMechanism start_jvm "$jdk" "$out" -- Workload 20 1 ;;
	flags) start_jvm "$jdk" "$out" "-XX:Flags=$TMP/flags.txt" -- Workload 20 1 ;;
	noperf) start_jvm "$jdk" "$out" -XX:-UsePerfData "@$TMP/args.txt" -- Workload 20 1 ;;
	none) start_jvm "$jdk" "$out" -- Workload 20 1 ;;
	esac
	"$PJ_BIN" record -p "$JPID" -d 0.5 -q -o "$TMP/x.data" 2>"$TMP/err"
	RC=$?
	kill "$JPID" 2>/dev/null; wait "$JWAIT" 2>/dev/null
	DUMP=$(cat "$out" "$out.err" | grep -c 'Full thread dump')
}
for jdk in "${JDKS[@]}"; do
	n=$(jdk_name "$jdk")
	for how in argfile env flags; do
		attempt "$jdk" "$how"
		check "$n: attach disabled through $how: seen, no signal (rc $RC, $DUMP thread dumps)" \
			all test "$RC" -eq 0 -a "$DUMP" -eq 0 -- grep -q 'started with -XX:+DisableAttachMechanism' "$TMP/err"
	done
	attempt "$jdk" noperf
	check "$n: no perf data and an @argfile: says why it does not attach ($DUMP thread dumps)" \
		all test "$RC" -eq 0 -a "$DUMP" -eq 0 -- grep -q 'cannot be known' "$TMP/err"
	sed 's/^/# /' "$TMP/err"
	attempt "$jdk" none
	check "$n: a JVM without the flag gets the agent" \
		all test "$RC" -eq 0 -a "$DUMP" -eq 0 -- not_grep 'java frames unavailable' "$TMP/err"
done
echo "1..$_tap_n"
