#!/usr/bin/env bash
# Issue 19, attack 12: a JVM of an unprivileged user that starts 2,000
# short threads a second, each named anew, recorded by root at 1 kHz. The
# reader keeps nothing per thread once it is gone: its RSS grows by at most
# 3 MB from 4 s in to the end of a 14 s recording, 20,000 threads between
# (make stress runs the same for 10 minutes), and -d is honoured.
# alone: the reader's memory and -d to the second
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

OWNER=pjsec-o$$
# (the reader's RSS is at its level a second in: its rings, and tables for
# the 90 threads alive at once. 10 s of churn after FROM, 20,000 threads:
# a leak of 157 bytes a thread reaches the 3 MB, a third of a ring's
# struct (440 bytes) kept by mistake; make stress's 10 minutes find smaller
# ones. The test runs alone: each second here is a second of make check)
SECS=14 FROM=4
if [ ${#JDKS[@]} -eq 0 ]; then
	skip "thread churn against a root recorder" "no JDK 17 or 25 installed"
	exit 0
fi
if ! sec_users "$OWNER"; then
	skip "thread churn against a root recorder" "needs root (creates users)"
	exit 0
fi
compile_java || { not_ok "javac"; exit 1; }
classes=$(mktemp -d /var/tmp/pj-classes.XXXXXX)
SEC_FILES+=("$classes")
cp -r "$CLASSES"/. "$classes/"; chmod -R a+rX "$classes"

(cd / && exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups --no-new-privs \
	"${JDKS[0]}/bin/java" -Xmx256m -cp "$classes" Threads $((SECS + 3)) 8 2000) \
	>"$TMP/jvm.out" 2>"$TMP/jvm.err" &
JW=$!; track "$JW"
wait_for 60 grep -qs '^ready' "$TMP/jvm.out"
JPID=$(awk '/^ready/ { print $2 }' "$TMP/jvm.out")
[ -n "$JPID" ] || { not_ok "the churning JVM did not start: $(head -c 300 "$TMP/jvm.err")"; exit 1; }
track "$JPID"

# rss_from PID: as wait_for's condition, PID's RSS (kB) read at each
# poll from FROM s after t0 on, the first in first, the highest in max;
# succeeds once PID is gone (builtins only: no process per poll beside the
# recording)
rss_from() {
	local k='' v='' _ # (set: the reader may be gone before the read)
	kill -0 "$1" 2>/dev/null || return 0
	[ $((${EPOCHREALTIME/./} - t0 / 1000)) -ge $((FROM * 1000000)) ] || return 1
	while read -r k v _; do
		[ "$k" = VmRSS: ] && break
	done 2>/dev/null <"/proc/$1/status"
	if [ "$k" = VmRSS: ] && [ -n "$v" ]; then
		[ -z "$first" ] && first=$v
		[ "$v" -gt "$max" ] && max=$v
	fi
	return 1
}
"$PJ_BIN" record -p "$JPID" -F 1000 -d "$SECS" -o "$TMP/c.data" 2>"$TMP/err" &
pj=$!
wait_for 30 grep -qs recording "$TMP/err"
t0=$(date +%s%N)
first= max=0
wait_for $((SECS + 60)) rss_from "$pj"
wait "$pj"; RC=$?
SECS_TAKEN=$(seconds_since "$t0")
wait_for 30 grep -qs '^done' "$TMP/jvm.out"
made=$(awk '/^done/ { print $2 }' "$TMP/jvm.out")
first=${first:-0}
growth=$((max - first))
per=$(( ${made:-0} > 0 ? growth * 1024 / made : 0 ))
check "2,000 threads/s ($made made in $((SECS + 3)) s) at 1 kHz: reader RSS $first kB at $FROM s, +$growth kB at most after (<= 3072), $per bytes per thread; -d $SECS ended after $SECS_TAKEN s, rc $RC" \
	all test "$RC" -eq 0 -a "${made:-0}" -ge $((SECS * 500)) -a "$first" -gt 0 -- \
	test "$growth" -le 3072 -- le "$SECS_TAKEN" $((SECS + 1))
sed 's/^/# /' "$TMP/err"
echo "1..$_tap_n"
