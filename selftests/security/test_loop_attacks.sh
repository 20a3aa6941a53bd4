#!/usr/bin/env bash
# Issue 19, attacks on the reader's loop, by an unprivileged target against
# a root recorder:
#   2  thousands of memfd mappings and a return address in no mapping (every
#      sample asks for the maps again): -d and SIGINT honoured within 1 s,
#      the samples written;
#   7  the target exits and another user's process gets its pid: the
#      recording ends at the exit and holds nothing of the other process;
#   11 the target execs a set-user-ID program: said so, not "target exited".
# times the recorder to the second, and its memory, with room for the
# tests beside it (its bounds held beside another make check)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

OWNER=pjsec-o$$ THIRD=pjsec-t$$
if ! sec_users "$OWNER" "$THIRD"; then
	skip "attacks on the reader's loop" "needs root (creates users)"
	exit 0
fi
BIN=$TMP/bin
mkdir -m 755 "$BIN"
cp "$PROGS/hostile_native" "$PROGS/cpusplit" "$BIN/"

# start_as USER ARGS...: hostile_native as USER; its pid in HN (NNP= lets
# it gain privileges through a set-user-ID exec)
start_as() {
	local u=$1; shift
	: >"$TMP/hn.out"
	(cd "$TMP" && exec setpriv --reuid="$u" --regid=nogroup --clear-groups \
		${NNP-"--no-new-privs"} "$BIN/hostile_native" "$@") >"$TMP/hn.out" 2>&1 &
	HN=$!; track "$HN"
	wait_for 30 grep -qs '^ready' "$TMP/hn.out"
}
# record_bg ARGS...: perfjava record in the background (pid RP, stderr in
# $TMP/rec.err), returns once it says it records; T0 then
record_bg() {
	: >"$TMP/rec.err" # (the last one's "recording" is no answer: as start_jvm)
	"$PJ_BIN" record "$@" 2>"$TMP/rec.err" &
	RP=$!; track "$RP"
	wait_for 60 grep -qs 'recording' "$TMP/rec.err"
	T0=$(date +%s%N)
}
# wait_end: waits for RP; RC, SECS since T0, HWM its peak RSS (MB)
wait_end() {
	HWM=0
	wait_for 60 peak_until_gone "$RP" || kill -9 "$RP"
	wait "$RP"; RC=$? SECS=$(seconds_since "$T0")
}
samples() { "$PJ_BIN" report -i "$1" --format collapsed 2>/dev/null | awk '{ n += $NF } END { print n + 0 }'; }

# 2: 3000 memfds, -d 5 at 1 kHz
start_as "$OWNER" maps 3000 60
record_bg -p "$HN" -c 1000000 -d 5 -o "$TMP/m.data"
wait_end
n=$(samples "$TMP/m.data")
check "3000 memfd mappings and a bogus return address: -d 5 ends after $SECS s (<= 6), rc $RC, $n samples, peak RSS $HWM MB" \
	all test "$RC" -eq 0 -a "$n" -gt 100 -- le "$SECS" 6 -- le "$HWM" 300
sed 's/^/# /' "$TMP/rec.err"
kill -9 "$HN"; wait "$HN" 2>/dev/null

# 2: 10000 of them, stopped by SIGINT
start_as "$OWNER" maps 10000 60
record_bg -p "$HN" -c 1000000 -o "$TMP/i.data"
wait_for 10 size_over "$TMP/i.data" 2000
hwm=$(rss_peak "$RP")
t=$(date +%s%N); kill -INT "$RP"; T0=$t
wait_end
[ "$HWM" -ge "$hwm" ] || HWM=$hwm
n=$(samples "$TMP/i.data")
check "10000 memfd mappings: SIGINT honoured after $SECS s (<= 1), rc $RC, $n samples, peak RSS $HWM MB" \
	all test "$RC" -eq 0 -a "$n" -gt 0 -- le "$SECS" 1 -- le "$HWM" 300
record_bg -p "$HN" -c 1000000 -o "$TMP/t.data"
wait_for 10 size_over "$TMP/t.data" 2000 # recording, not only started
t=$(date +%s%N); kill -TERM "$RP"; T0=$t
wait_end
check "and SIGTERM after $SECS s (<= 1)" all test "$RC" -eq 0 -- le "$SECS" 1
kill -9 "$HN"; wait "$HN" 2>/dev/null

# 7: the target exits; the next process given its pid is another user's.
# ns_last_pid makes the kernel give that pid next (hostile_native pidat).
# Six rounds: the recorder's own rescans come every 500 ms.
reused=0 good=0 secs_max=0
for try in 1 2 3 4 5 6; do
	start_as "$OWNER" spin 60
	victim=$HN
	record_bg -p "$victim" -c 1000000 -d 4 -o "$TMP/p.data"
	wait_for 10 size_over "$TMP/p.data" 1000
	kill -9 "$victim"; wait "$victim" 2>/dev/null
	other=$("$PROGS/hostile_native" pidat "$victim" "$(id -u "$THIRD")" \
		"$BIN/cpusplit" 10 2>/dev/null | awk '{ print $2 }')
	wait_end
	# (the recording's own length: the recorder may have ended while
	# pidat was still going round the pids, slow on a loaded machine)
	SECS=$("$PJ_BIN" report -i "$TMP/p.data" --format meta 2>/dev/null |
		awk '$2 == "duration_ns" { printf "%.2f", $3 / 1e9 }')
	[ -n "$SECS" ] || SECS=99
	if [ "${other:-0}" -eq "$victim" ]; then
		reused=$((reused + 1))
		"$PJ_BIN" report -i "$TMP/p.data" --format collapsed >"$TMP/p.col" 2>&1
		if [ "$RC" -eq 0 ] && le "$SECS" 3 && grep -q 'target exited' "$TMP/rec.err" &&
			grep -q spin_here "$TMP/p.col" && not_grep -E 'work_[abc]|cpusplit' "$TMP/p.col"; then
			good=$((good + 1))
		else
			sed 's/^/# /' "$TMP/rec.err"
		fi
		le "$SECS" "$secs_max" || secs_max=$SECS
		kill -9 "$other"
	fi
done
if [ "$reused" -eq 0 ]; then
	skip "a reused pid is not recorded" "could not give a target's pid to another process"
else
	check "the target killed, its pid given to another user's process ($reused times): each recording ends at the exit (at most $secs_max s long, -d 4) with nothing of the other process ($good/$reused)" \
		test "$good" -eq "$reused"
fi

# 11: the target execs a set-user-ID program
cp "$PROGS/cpusplit" "$BIN/suid_cpusplit"; chmod 4755 "$BIN/suid_cpusplit"
NNP= start_as "$OWNER" exec "$BIN/suid_cpusplit" 5
record_bg -p "$HN" -d 4 -o "$TMP/s.data"
kill -USR1 "$HN"
wait_end
check "an exec of a set-user-ID program: said so in one line, not 'target exited' (rc $RC, $SECS s)" \
	all test "$RC" -eq 0 -- grep -q "executed $BIN/suid_cpusplit, a set-user-ID program" "$TMP/rec.err" -- \
	not_grep 'target exited' "$TMP/rec.err" -- le "$SECS" 2
sed 's/^/# /' "$TMP/rec.err"
kill -9 "$HN" 2>/dev/null; wait "$HN" 2>/dev/null
start_as "$OWNER" exec "$BIN/cpusplit" 5
record_bg -p "$HN" -d 4 -o "$TMP/e.data"
kill -USR1 "$HN"
wait_end
check "an exec of another program: the recording ends, said so (rc $RC, $SECS s)" \
	all test "$RC" -eq 0 -- grep -q "executed $BIN/cpusplit, another program" "$TMP/rec.err" -- le "$SECS" 2
kill -9 "$HN" 2>/dev/null; wait "$HN" 2>/dev/null
echo "1..$_tap_n"
