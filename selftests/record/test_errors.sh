#!/usr/bin/env bash
# Every error a user can cause: one line naming it, non-zero exit, nothing
# left behind.
. "$(dirname "$0")/../lib.sh"

# expect DESC RC PATTERN CMD...: CMD exits with RC and its stderr matches
expect() {
	local d=$1 rc=$2 pat=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	local got=$?
	if [ "$got" -eq "$rc" ] && grep -qiE "$pat" "$TMP/err"; then
		ok "$d"
	else
		not_ok "$d (exit $got, stderr: $(head -c 300 "$TMP/err"))"
	fi
}

"$PROGS/cpusplit" 30 1 >"$TMP/t.out" &
PID=$!
track $PID
wait_for 10 grep -q '^ready' "$TMP/t.out"

expect "no such pid" 1 '^perfjava: no process with pid 999999$' \
	"$PJ_BIN" record -p 999999 -d 1 -o "$TMP/x.data"
check "no file left for a failed record" [ ! -e "$TMP/x.data" ]
expect "record without -p: usage, exit 2" 2 'needs -p PID' "$PJ_BIN" record
expect "bad pid: exit 2" 2 "bad pid list 'abc'" "$PJ_BIN" record -p abc
expect "a pid list with a hole: exit 2" 2 "bad pid list '1,,2'" "$PJ_BIN" record -p 1,,2
expect "one of several pids missing: refused, nothing recorded (exit 1)" 1 \
	'^perfjava: no process with pid 999999$' \
	"$PJ_BIN" record -p "$PID,999999" -d 1 -o "$TMP/x.data"
check "... in one line, no file" [ "$(wc -l <"$TMP/err")" -eq 1 -a ! -e "$TMP/x.data" ]
expect "-p and a command: refused (exit 2)" 2 '^perfjava: give one of -p PID, -t TID, -a .* not both; the command is true$' \
	"$PJ_BIN" record -p "$PID" -- true
expect "-C of a CPU not online: refused (exit 2)" 2 '^perfjava: CPU 4095 is not online' \
	"$PJ_BIN" record -C 4095 -d 1 -o "$TMP/x.data"
expect "unknown option: named, exit 2" 2 "^perfjava record: unknown option '--bogus'" \
	"$PJ_BIN" record -p "$PID" --bogus
expect "unknown command: exit 2" 2 "unknown command 'bogus'" "$PJ_BIN" bogus
expect "-F and -c together" 2 'not both' "$PJ_BIN" record -p "$PID" -F 99 -c 1000
if [ -e /sys/bus/event_source/devices/cpu ]; then
	skip "cycles without a PMU" "this machine has a hardware PMU"
else
	expect "-e cycles without a PMU names the reason and suggests cpu-clock" 1 \
		'no hardware PMU.*-e cpu-clock' \
		"$PJ_BIN" record -p "$PID" -e cycles -d 1 -o "$TMP/c.data"
	check "no file left after the failed open" [ ! -e "$TMP/c.data" ]
fi
expect "unknown event" 1 "unknown event 'nosuchevent'" \
	"$PJ_BIN" record -p "$PID" -e nosuchevent -d 1 -o "$TMP/e.data"
expect "bad modifier" 1 "bad modifier 'z'" \
	"$PJ_BIN" record -p "$PID" -e cpu-clock:z -d 1 -o "$TMP/e.data"
expect "unwritable output" 1 '^perfjava: cannot create /nonexistent/dir/x.data: No such file or directory$' \
	"$PJ_BIN" record -p "$PID" -d 1 -o /nonexistent/dir/x.data
expect "a device as the output: refused" 1 'refusing to write /dev/full: it is not a regular file' \
	"$PJ_BIN" record -q -p "$PID" -d 1 -o /dev/full
check "the target survives all of it" kill -0 "$PID"

if ! command -v setpriv >/dev/null; then
	skip "not permitted" "setpriv is missing"
elif [ "$(id -u)" -ne 0 ]; then
	skip "not permitted" "needs root to run a probe as another user"
else
	nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
	expect "another user's process: not permitted, says what to do" 1 \
		'not permitted to read process [0-9]+ .*run as its user or as root' \
		$nob "$PJ_BIN" record -p "$PID" -d 1 -o /tmp/pj-nobody.data
	rm -f /tmp/pj-nobody.data
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	if [ "$paranoid" -ge 2 ]; then
		# An unprivileged user profiling its own process: user frames only,
		# and the setting that forbids kernel frames is named.
		out=$(mktemp -d /tmp/pj-nobody.XXXXXX)
		chown 65534:65534 "$out"
		$nob "$PROGS/cpusplit" 3 1 >"$out/o" 2>&1 &
		np=$!
		track $np
		wait_for 10 grep -q '^ready' "$out/o"
		expect "perf_event_paranoid named when kernel frames are refused" 0 \
			'kernel.perf_event_paranoid=[0-9].*CAP_PERFMON' \
			$nob "$PJ_BIN" record -p "$np" -d 1 -o "$out/n.data"
		expect "ring buffers over the mlock limit: says to use a smaller -m" 1 \
			'cannot map the ring buffers .*try a smaller -m' \
			$nob "$PJ_BIN" record -p "$np" -m 4096 -d 1 -o "$out/m.data"
		"$PJ_BIN" report -i "$out/n.data" --format collapsed >"$out/n.folded"
		check "its user stacks are recorded" grep -q 'work_a' "$out/n.folded"
		check "and no kernel frames" bash -c "! grep -q '_\[k\]' '$out/n.folded'"
		expect "-a as a user: refused, naming the setting -a needs" 1 \
			'watch every process: .*perf_event_paranoid=0' \
			$nob "$PJ_BIN" record -a -d 1 -o "$out/a.data"
		rm -rf "$out"
	else
		skip "perf_event_paranoid fallback" "perf_event_paranoid is $paranoid here"
	fi
fi

# report errors
printf 'hello world, not a profile at all\n' >"$TMP/bad.data"
expect "report of a file that is not a profile" 1 'cannot read .*not a perfjava profile' \
	"$PJ_BIN" report -i "$TMP/bad.data"
expect "report of a missing file" 1 'cannot read .*No such file' \
	"$PJ_BIN" report -i "$TMP/missing.data"
expect "report with a bad option" 2 'usage' "$PJ_BIN" report --bogus
