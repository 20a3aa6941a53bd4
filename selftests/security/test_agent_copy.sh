#!/usr/bin/env bash
# Issue 44, the agent library copied into a JVM's /tmp (when the JVM, with
# its user's rights, does not reach ours at its path), against a root
# recorder:
#   7  a third user first makes, in the shared /tmp, every name the copy
#      used to take (.perfjava-agent-SIZE-MTIME.so, and -PID.so for every
#      pid): the JVM still gets its Java frames (a random name, O_EXCL),
#      from a copy that is its user's own file; a second recording loads
#      the copy the JVM has already, no other;
#   8  a JVM whose private /tmp is full, then read-only: the copy fails in
#      one line with the real cause (no space, read-only), not "No such
#      file or directory"; the recording goes on with native frames.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

OWNER=pjsec-o$$ THIRD=pjsec-t$$
if [ ${#JDKS[@]} -eq 0 ]; then
	skip "the agent's copy in a JVM's /tmp" "no JDK 17 or 25 installed"
	exit 0
fi
if ! sec_users "$OWNER" "$THIRD"; then
	skip "the agent's copy in a JVM's /tmp" "needs root (creates users, mount namespaces)"
	exit 0
fi
compile_java || { not_ok "javac"; exit 1; }
sec_classes || { not_ok "the test classes copied to /var/tmp"; exit 1; }
classes=$SEC_CLASSES
# our library where the JVM's user cannot reach it: a copy is made
lib=$TMP/agentdir/libperfjava-agent.so
mkdir -m 700 "$TMP/agentdir"; cp "$PJ_BUILD/libperfjava-agent.so" "$lib"
jdk=${JDKS[0]}
# copies: the JVM's user's agent copies in DIR (regular files)
copies() { find "$1" -maxdepth 1 -type f -user "$OWNER" -name '.perfjava-agent-*.so' 2>/dev/null; }

# --- 7: every old name squatted in the shared /tmp
pid_max=$(cat /proc/sys/kernel/pid_max)
[ "$pid_max" -gt 65536 ] && pid_max=65536
stem=/tmp/.perfjava-agent-$(stat -c %s "$lib")-$(stat -c %Y "$lib")
squat=$TMP/squat.list
{ echo "$stem.so"; seq 1 "$pid_max" | sed "s|^|$stem-|; s|$|.so|"; } >"$squat"
chmod 644 "$squat"
t0=$(date +%s%N)
as_user "$THIRD" sh -c "xargs touch <'$squat'"
_agent_copy_cleanup() {
	xargs rm -f <"$squat" 2>/dev/null
	for c in $(copies /tmp); do rm -f "$c"; done
	_sec_cleanup
}
trap _agent_copy_cleanup EXIT
made=$(find /tmp -maxdepth 1 -user "$THIRD" -name '.perfjava-agent-*' | wc -l)
echo "# the third user made $made names in $(seconds_since "$t0") s"
before=$(copies /tmp | sort)
: >"$TMP/jvm.out"
(cd / && exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups --no-new-privs \
	"$jdk/bin/java" -cp "$classes" Workload 60 1) >"$TMP/jvm.out" 2>"$TMP/jvm.err" &
track $!
wait_for 60 grep -qs '^ready' "$TMP/jvm.out"
JPID=$(awk '/^ready/ { print $2; exit }' "$TMP/jvm.out"); track "$JPID"
"$PJ_BIN" record -p "$JPID" -d 1 --agent "$lib" -o "$TMP/s.data" 2>"$TMP/err"
rc=$?
"$PJ_BIN" report -i "$TMP/s.data" --format collapsed >"$TMP/s.col" 2>&1
new=$(comm -13 <(echo "$before") <(copies /tmp | sort))
check "7: $made names squatted by a third user: Java frames still (rc $rc), from a copy of the JVM's user ($(basename "${new:-none}"))" \
	all test "$rc" -eq 0 -a "$(echo "$new" | grep -c .)" -eq 1 -- \
	not_grep 'java frames unavailable' "$TMP/err" -- grep -q 'Workload\.method' "$TMP/s.col" -- \
	grep -q "$new" "/proc/$JPID/maps"
sed 's/^/# /' "$TMP/err"
"$PJ_BIN" record -p "$JPID" -d 3 --agent "$lib" -o "$TMP/s2.data" 2>"$TMP/err2"
rc=$?
"$PJ_BIN" report -i "$TMP/s2.data" --format collapsed >"$TMP/s2.col" 2>&1
check "7: a second recording loads the copy the JVM has (no other made, one mapped; rc $rc)" \
	all test "$rc" -eq 0 -- grep -q 'Workload\.method' "$TMP/s2.col" -- \
	test "$(comm -13 <(echo "$before") <(copies /tmp | sort) | grep -c .)" -eq 1 -- \
	test "$(grep '\.perfjava-agent-' "/proc/$JPID/maps" | awk '{ print $6 }' | sort -u | wc -l)" -eq 1
grep -q 'Workload\.method' "$TMP/s2.col" ||
	{ sed 's/^/# /' "$TMP/err2"; grep '\.perfjava-agent-' "/proc/$JPID/maps" | sed 's/^/# maps: /'; }
kill -9 "$JPID" 2>/dev/null

# --- 8: a private /tmp, full, then read-only
: >"$TMP/jvm.out"
unshare --mount --propagation private sh -c "
	mount -t tmpfs -o size=2m,mode=1777 none /tmp &&
	cd / && exec setpriv --reuid=$OWNER --regid=nogroup --clear-groups \
		--no-new-privs $jdk/bin/java -cp $classes Workload 60 1" \
	>"$TMP/jvm.out" 2>"$TMP/jvm.err" &
JW=$!; track "$JW"
wait_for 60 grep -qs '^ready' "$TMP/jvm.out"
JPID=$(awk '/^ready/ { print $2; exit }' "$TMP/jvm.out"); track "$JPID"
dd if=/dev/zero of="/proc/$JPID/root/tmp/fill" bs=64k 2>/dev/null
"$PJ_BIN" record -p "$JPID" -d 0.5 --agent "$lib" -o "$TMP/f.data" 2>"$TMP/err"
rc=$?
check "8: a full private /tmp: the copy's failure says so (rc $rc)" \
	all test "$rc" -eq 0 -- grep -q 'cannot copy the agent library.*No space left on device' "$TMP/err" -- \
	not_grep 'No such file or directory' "$TMP/err" -- \
	test "$(grep -c 'java frames unavailable' "$TMP/err")" -eq 1
sed 's/^/# /' "$TMP/err"
kill -9 "$JPID" "$JW" 2>/dev/null; wait "$JW" 2>/dev/null
# a read-only one (no perf data: the JVM writes nothing there)
: >"$TMP/jvm.out"
unshare --mount --propagation private sh -c "
	mount -t tmpfs -o size=2m,mode=1777 none /tmp && mount -o remount,ro /tmp &&
	cd / && exec setpriv --reuid=$OWNER --regid=nogroup --clear-groups \
		--no-new-privs $jdk/bin/java -XX:-UsePerfData -cp $classes Workload 60 1" \
	>"$TMP/jvm.out" 2>"$TMP/jvm.err" &
JW=$!; track "$JW"
wait_for 60 grep -qs '^ready' "$TMP/jvm.out"
JPID=$(awk '/^ready/ { print $2; exit }' "$TMP/jvm.out"); track "$JPID"
"$PJ_BIN" record -p "$JPID" -d 0.5 --agent "$lib" -o "$TMP/r.data" 2>"$TMP/err"
rc=$?
check "8: a read-only private /tmp: the copy's failure says so (rc $rc)" \
	all test -n "$JPID" -a "$rc" -eq 0 -- \
	grep -q 'cannot copy the agent library.*Read-only file system' "$TMP/err" -- \
	test "$(grep -c 'java frames unavailable' "$TMP/err")" -eq 1
sed 's/^/# /' "$TMP/err"
kill -9 "$JPID" "$JW" 2>/dev/null; wait "$JW" 2>/dev/null
echo "1..$_tap_n"
