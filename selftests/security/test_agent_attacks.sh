#!/usr/bin/env bash
# Issue 19, attacks by a JVM's owner who speaks the agent protocol itself
# (selftests/progs/hostile_jvm.c), against a root recorder:
#   5  160,000 method ids chosen to collide in an unseeded table: -d 10 ends
#      within 1 s of its time, the reader's CPU bounded;
#   9  an agent that never reads its socket: it costs its own walks, never
#      the native samples;
#   11 a HELLO that stops halfway: said as such, not as another protocol.
# times the recorder to the second, and its CPU, with room for the tests
# beside it (its bounds held beside another make check)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

LIBJVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
OWNER=pjsec-o$$
if ! sec_users "$OWNER"; then
	skip "agent attacks on a root recording" "needs root (creates users)"
	exit 0
fi
if [ ! -r "$LIBJVM" ]; then
	skip "agent attacks on a root recording" "no JDK 17 libjvm.so at $LIBJVM"
	exit 0
fi
BIN=$TMP/bin home=$TMP/home
mkdir -m 755 "$BIN" "$home"; chown "$OWNER" "$home"
cp "$PROGS/hostile_jvm" "$BIN/"
# start_as MODE ARGS...: the hostile JVM run by the owner; its pid in HJ
start_as() {
	: >"$TMP/hj.out"
	(cd "$home" && exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups \
		--no-new-privs "$BIN/hostile_jvm" "$LIBJVM" "$@") >"$TMP/hj.out" 2>&1 &
	HJ=$!; track "$HJ"
	wait_for 10 grep -qs '^ready' "$TMP/hj.out"
	# (an attach socket a JVM killed earlier left for this pid, root's in
	# sticky /tmp, would fail its listen: pid_max 32768 wraps in a run)
	rm -f "/tmp/.java_pid$HJ"
}
# stop_hj: kills it; one that had exited by itself says how, and what it
# printed (it lives 120 s otherwise)
stop_hj() {
	local rc
	if ! kill -0 "$HJ" 2>/dev/null; then
		wait "$HJ" 2>/dev/null
		rc=$?
		echo "# the hostile JVM had exited by itself: status $rc; it printed:"
		sed 's/^/#   /' "$TMP/hj.out"
		return
	fi
	kill -9 "$HJ" 2>/dev/null
	wait "$HJ" 2>/dev/null
}
# cpu_to_CPU PID: CPU set to PID's CPU seconds (user and system, 2
# decimals), left as it was once PID is gone (builtins only: no process per
# poll beside the recorder)
cpu_to_CPU() {
	local s a t
	read -r s 2>/dev/null <"/proc/$1/stat" || return 0
	read -ra a <<<"${s##*) }"
	t=$((a[11] + a[12]))
	printf -v CPU '%d.%02d' $((t / 100)) $((t % 100))
}
# delay_to VAR PID: VAR set to the ns PID has waited for a CPU (its
# schedstat), left as it was once PID is gone (builtins only)
delay_to() {
	local -n v=$1
	local a
	read -ra a 2>/dev/null <"/proc/$2/schedstat" && v=${a[1]}
}
# record_timed ARGS... (with -d D): RC, SECS (from "recording" to the end),
# CPU (the reader's CPU seconds, read just before it ends), WAITED (the
# seconds the reader and this shell waited for a CPU from D s after the
# start on: on a loaded machine, the stop comes late by that much)
record_timed() {
	local t0=0 d=0 a at=-1 r0=0 r1=0 s0=0 s1=0
	for a in "$@"; do
		[ "$d" = next ] && d=$a
		[ "$a" = -d ] && d=next
	done
	d=$(awk -v d="$d" 'BEGIN { print int(d * 1000000) }') # us
	: >"$TMP/err" # (read by the first poll, which may come before it)
	"$PJ_BIN" record "$@" 2>"$TMP/err" &
	local p=$!
	CPU=0
	# shellcheck disable=SC2317 # (called by wait_for)
	gone() {
		[ "$t0" = 0 ] && [[ $(<"$TMP/err") == *recording* ]] && t0=$(date +%s%N)
		cpu_to_CPU "$p"
		delay_to r1 "$p"
		if [ "$at" = -1 ] && [ "$t0" != 0 ] && [ $((${EPOCHREALTIME/./} - t0 / 1000)) -ge "$d" ]; then
			at=0 r0=$r1
			delay_to s0 "$BASHPID"
		fi
		! kill -0 "$p" 2>/dev/null
	}
	wait_for 300 gone || kill -9 "$p"
	wait "$p"; RC=$?
	[ "$t0" = 0 ] && t0=$(date +%s%N)
	SECS=$(seconds_since "$t0")
	delay_to s1 "$BASHPID"
	[ "$at" = -1 ] && r0=$r1 s0=$s1
	WAITED=$(awk -v r=$((r1 - r0 + s1 - s0)) 'BEGIN { printf "%.2f", r / 1e9 }')
}
# le_late SECS D: SECS is at most D + 1 + WAITED
le_late() { le "$1" "$(awk -v d="$2" -v w="$WAITED" 'BEGIN { print d + 1 + w }')"; }
stat_of() { "$PJ_BIN" report -i "$1" --format meta 2>/dev/null | awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }'; }

# 5: a method table flood
# (the table's longest probe says whether the seed spread them: all in
# one run of slots would be 160000; the reader's CPU, 1.2-2 s alone, read
# 3.6-5.9 s beside another make check's JVMs, so it is held to 10 s, a
# bound for a catastrophe rather than the measure)
start_as flood 160000
record_timed -p "$HJ" -d 10 -o "$TMP/f.data"
stop_hj # (spinning: it has done its part)
probe=$(stat_of "$TMP/f.data" agent_methods_probe_max)
check "160000 colliding method ids: all taken in, the method table's longest probe $probe slots (<= 100), -d 10 honoured ($SECS s after the start, <= 11 + $WAITED s waited for a CPU after 10), reader CPU $CPU s (<= 10), rc $RC" \
	all test "$RC" -eq 0 -- le "${probe:-999999}" 100 -- le_late "$SECS" 10 -- le "$CPU" 10 -- grep -q "hello sent" "$TMP/hj.out"
sed 's/^/# /' "$TMP/err"

# 9: an agent that stops reading its socket, against 2 kHz sampling of
# four spinning threads (more requests than its socket holds: it takes
# 2,000, full in the first second on two cores; 2 kHz for 4 s asks more
# walks than 1 kHz for 6 s did, for 2/3 of the spinning): the samples are
# all kept (the lost ones are the kernel's, a few), the walks it never got
# asked are counted
start_as deaf 4
record_timed -p "$HJ" -c 500000 -d 4 -o "$TMP/d.data"
stop_hj
n=$(stat_of "$TMP/d.data" samples) lost=$(stat_of "$TMP/d.data" lost)
nowalk=$(($(stat_of "$TMP/d.data" walk_timeout) + $(stat_of "$TMP/d.data" walk_lost)))
unsent=$(stat_of "$TMP/d.data" walk_not_sent)
check "an agent that stops reading: $n samples kept, $lost lost (<= 5%), each one's walk counted as not answered ($nowalk, $unsent of them not even asked), -d 4 honoured ($SECS s, <= 5 + $WAITED s waited for a CPU after 4)" \
	all test "${n:-0}" -ge 1000 -a "$nowalk" -eq "${n:-0}" -- \
	le "${lost:-1}" "$(awk -v n="${n:-0}" 'BEGIN { print n * 0.05 }')" -- le_late "$SECS" 4
sed 's/^/# /' "$TMP/err"

# 11: a HELLO that stops halfway, past the reader's 5 s; then one that
# comes after 2 s, in time
start_as slowhello 7
record_timed -p "$HJ" -d 1 -o "$TMP/s.data"
stop_hj
check "a HELLO stopped halfway: said so, not 'another protocol version' (rc $RC)" \
	all test "$RC" -eq 0 -- grep -q 'did not send its HELLO within 5 s' "$TMP/err" -- \
	not_grep 'protocol version' "$TMP/err"
sed 's/^/# /' "$TMP/err"
start_as slowhello 2
record_timed -p "$HJ" -d 1 -o "$TMP/s2.data"
stop_hj
check "a HELLO that takes 2 s is taken (rc $RC)" \
	all test "$RC" -eq 0 -- not_grep 'java frames unavailable' "$TMP/err" ||
	sed 's/^/# /' "$TMP/err" "$TMP/hj.out"
echo "1..$_tap_n"
