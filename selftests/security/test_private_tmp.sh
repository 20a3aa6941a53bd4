#!/usr/bin/env bash
# Issue 19, attack 8: a JVM with a private /tmp (systemd's PrivateTmp: a
# mount namespace whose / is the host's, a tmpfs over /tmp), run by an
# unprivileged user, with our agent library in a directory under the
# host's /tmp. Whether the JVM reaches the library is decided for its path,
# not by its root: it is copied into the JVM's own /tmp, and the recording
# has Java frames. A JVM that does see it loads it where it is.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

OWNER=pjsec-o$$
if [ ${#JDKS[@]} -eq 0 ]; then
	skip "a JVM with a private /tmp" "no JDK 17 or 25 installed"
	exit 0
fi
if ! sec_users "$OWNER"; then
	skip "a JVM with a private /tmp" "needs root (creates users, mount namespaces)"
	exit 0
fi
compile_java || { not_ok "javac"; exit 1; }
sec_classes || { not_ok "the test classes copied to /var/tmp"; exit 1; }
classes=$SEC_CLASSES
lib=$TMP/agentdir/libperfjava-agent.so
mkdir -m 755 "$TMP/agentdir"; cp "$PJ_BUILD/libperfjava-agent.so" "$lib"; chmod 644 "$lib"
jdk=${JDKS[0]}

# start_private: the JVM as the owner, in a namespace with its own /tmp
start_private() {
	: >"$TMP/jvm.out"
	unshare --mount --propagation private sh -c "
		mount -t tmpfs -o mode=1777 none /tmp &&
		cd / && exec setpriv --reuid=$OWNER --regid=nogroup --clear-groups \
			--no-new-privs $jdk/bin/java -cp $classes Workload 30 1" \
		>"$TMP/jvm.out" 2>"$TMP/jvm.err" &
	JW=$!; track "$JW"
	wait_for 60 grep -qs '^ready' "$TMP/jvm.out"
	JPID=$(awk '/^ready/ { print $2; exit }' "$TMP/jvm.out")
	track "$JPID"
}
start_private
check "the JVM's /tmp is its own (our library's directory is not there)" \
	test -n "$JPID" -a ! -e "/proc/$JPID/root$TMP/agentdir"
"$PJ_BIN" record -p "$JPID" -d 1 --agent "$lib" -o "$TMP/p.data" 2>"$TMP/err"
rc=$?
"$PJ_BIN" report -i "$TMP/p.data" --format collapsed >"$TMP/p.col" 2>&1
copy=$(ls -a "/proc/$JPID/root/tmp/" 2>/dev/null | grep '^\.perfjava-agent-.*\.so$' | head -1)
check "a private /tmp: the agent copied in ($copy, the JVM user's) and Java frames recorded (rc $rc)" \
	all test "$rc" -eq 0 -a -n "$copy" -- not_grep 'java frames unavailable' "$TMP/err" -- \
	grep -q 'Workload\.method' "$TMP/p.col" -- \
	test "$(stat -c %U "/proc/$JPID/root/tmp/$copy" 2>/dev/null)" = "$OWNER"
sed 's/^/# /' "$TMP/err"
kill -9 "$JPID" "$JW" 2>/dev/null; wait "$JW" 2>/dev/null

# the library where the JVM sees it: loaded from there, no copy
lib2=$classes/libperfjava-agent.so
cp "$lib" "$lib2"; chmod 644 "$lib2"
start_private
"$PJ_BIN" record -p "$JPID" -d 1 --agent "$lib2" -o "$TMP/q.data" 2>"$TMP/err"
rc=$?
check "a library the JVM reaches at its path: loaded there, not copied (rc $rc)" \
	all test "$rc" -eq 0 -- not_grep 'java frames unavailable' "$TMP/err" -- \
	grep -q "$lib2" "/proc/$JPID/maps" -- \
	test -z "$(ls -a "/proc/$JPID/root/tmp/" | grep '^\.perfjava-agent-')"
kill -9 "$JPID" "$JW" 2>/dev/null; wait "$JW" 2>/dev/null
echo "1..$_tap_n"
