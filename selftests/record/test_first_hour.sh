#!/usr/bin/env bash
# A newcomer's first hour (issue 28), typed as a user would: help that tells
# everything, one line per mistake, -c in time units, the right words.
. "$(dirname "$0")/../lib.sh"

"$PJ_BIN" --help >"$TMP/help"
check "perfjava --help shows record -- CMD" grep -q 'record \[options\] -- CMD' "$TMP/help"

"$PJ_BIN" list >"$TMP/list" 2>&1
check "perfjava list shows offcpu and wall" \
	eval 'grep -qE "^  offcpu +(yes|no: )" "$TMP/list" && grep -qE "^  wall( OR --wall)? +(yes|no: )" "$TMP/list"'

"$PJ_BIN" record --pidd 1 -d 1 -o "$TMP/typo.data" 2>"$TMP/typo.err"
rc=$?
check "a typo'd record flag: one line naming it, exit non-zero ($rc)" \
	eval '[ $rc -ne 0 ] && [ "$(wc -l <"$TMP/typo.err")" -eq 1 ] && grep -q "'"'"'--pidd'"'"'" "$TMP/typo.err"'

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "non-root -e offcpu" "needs root and setpriv to run as another user"
elif [ "$(stat -c %a /sys/kernel/tracing 2>/dev/null)" != 700 ]; then
	skip "non-root -e offcpu" "tracefs here is not root-only"
else
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PJ_BIN" record -e offcpu -o /dev/null -- true 2>"$TMP/nr.err"
	check "non-root -e offcpu: tracefs is root-only, not 'not mounted'" \
		eval 'grep -q "root only" "$TMP/nr.err" && ! grep -q "not mounted" "$TMP/nr.err"'
fi

# Nothing recorded is lost by a mistake: a failed launch leaves the previous
# recording byte for byte, named by -o or the default perfjava.data.
"$PJ_BIN" record -q -e cpu-clock -o "$TMP/keep.data" -- "$PROGS/cpusplit" 1 1 >/dev/null 2>&1
sum=$(md5sum <"$TMP/keep.data")
"$PJ_BIN" record -o "$TMP/keep.data" -- /nonexistent/cmd 2>"$TMP/launch.err"
rc=$?
check "record -o x.data -- /nonexistent/cmd: fails ($rc), x.data byte-identical" \
	eval '[ $rc -ne 0 ] && [ -s "$TMP/keep.data" ] && [ "$(md5sum <"$TMP/keep.data")" = "$sum" ]'
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$PJ_BIN" record -q -e cpu-clock -- "$PROGS/cpusplit" 1 1 >/dev/null 2>&1)
sum=$(md5sum <"$TMP/cwd/perfjava.data")
(cd "$TMP/cwd" && "$PJ_BIN" record -- /nonexistent/cmd 2>/dev/null)
rc=$?
check "record -- /nonexistent/cmd: fails ($rc), the default perfjava.data byte-identical" \
	eval '[ $rc -ne 0 ] && [ -s "$TMP/cwd/perfjava.data" ] && [ "$(md5sum <"$TMP/cwd/perfjava.data")" = "$sum" ]'

# -c as asprof and perf users write intervals: a time for clock events.
for c in 1ms 250us; do
	"$PJ_BIN" record -q -e cpu-clock -c $c -o "$TMP/c.data" -- "$PROGS/cpusplit" 1 1 >/dev/null 2>"$TMP/c.err"
	rc=$?
	"$PJ_BIN" report -i "$TMP/c.data" >"$TMP/c.txt" 2>&1
	want=$([ $c = 1ms ] && echo "every 1 ms" || echo "every 250 us")
	check "record -e cpu-clock -c $c: recorded, the report says '$want'" \
		eval '[ $rc -eq 0 ] && grep -q "^Event *: cpu-clock $want$" "$TMP/c.txt"'
done
"$PJ_BIN" record -e page-faults -c 1ms -o "$TMP/pf.data" -- true 2>"$TMP/pf.err"
rc=$?
check "-c 1ms on page-faults: one line saying -c counts its events ($rc)" \
	eval '[ $rc -ne 0 ] && [ "$(wc -l <"$TMP/pf.err")" -eq 1 ] && grep -q "page-faults is sampled every N of its events: give -c N" "$TMP/pf.err" && [ ! -e "$TMP/pf.data" ]'
"$PJ_BIN" record --help >"$TMP/rh"
check "record --help says which unit -c takes for which event" \
	eval 'grep -q "for cpu-clock and task-clock" "$TMP/rh" && grep -q "1ms, 250us" "$TMP/rh"'

# Options that would do nothing say so.
"$PJ_BIN" record -e offcpu -F 99 -o "$TMP/off.data" -- true 2>"$TMP/off.err"
rc=$?
check "-e offcpu -F 99: one line, -F applies to no event ($rc)" \
	eval '[ $rc -ne 0 ] && [ "$(wc -l <"$TMP/off.err")" -eq 1 ] && grep -q "^perfjava: -F applies to no event here: offcpu records every wait" "$TMP/off.err"'

# The right words.
"$PJ_BIN" record -g dwarf,65528 -m 64 -e cpu-clock -o "$TMP/dw.data" -- "$PROGS/cpusplit" 1 1 >/dev/null 2>"$TMP/dw.err"
check "-g dwarf,65528: no advice to give -g dwarf,SIZE" \
	eval 'grep -q "65528-byte stack copy (the most a sample holds" "$TMP/dw.err" && ! grep -q "try -g dwarf,SIZE" "$TMP/dw.err"'
# (rings of one page at 10 kHz, and the reader stopped while the program
# spins 0.2 s of CPU, 50 times what fills a ring: not a rate that starves
# the reader of CPU, which on a loaded machine starves the program and the
# test for a minute)
# cpu_past PID TICKS: PID has used TICKS of CPU, or is gone
cpu_past() { [ ! -e "/proc/$1" ] || [ "$(proc_cpu_ticks "$1" 2>/dev/null || echo "$2")" -ge "$2" ]; }
"$PJ_BIN" record -e cpu-clock -c 100us -m 1 -o "$TMP/fast.data" -- "$PROGS/cpusplit" 1.5 1 >/dev/null 2>"$TMP/fast.err" &
pj=$!
wait_for 10 grep -q '^perfjava: recording' "$TMP/fast.err"
prog=$(pgrep -P "$pj" | head -1)
kill -STOP "$pj"
[ -n "$prog" ] && wait_for 10 cpu_past "$prog" $(($(proc_cpu_ticks "$prog" 2>/dev/null || echo 0) + 20))
kill -CONT "$pj"
wait "$pj"
if grep -q ' 0 lost' "$TMP/fast.err"; then
	skip "lost samples: advice" "no ring filled at 10 kHz with -m 1 and the reader stopped for 0.2 s of the program's CPU"
else
	check "lost samples at a high rate: raise -m or sample less often, not 'short runs'" \
		eval 'grep -q "samples lost: the rings (1 page, 4 KiB a thread) filled faster than the reader emptied them; give more pages per thread (-m 4) or sample less often" "$TMP/fast.err" && ! grep -q "short runs between waits" "$TMP/fast.err"'
fi
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "set-user-ID exec" "needs root to make a set-user-ID program and setpriv"
else
	su=$(mktemp -d /tmp/pj-suid.XXXXXX)
	chmod 755 "$su"
	cp /bin/sleep "$su/suid-sleep" && chmod 4755 "$su/suid-sleep"
	mkdir "$su/out" && chown 65534 "$su/out"
	(cd "$su/out" && setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PJ_BIN" record -e cpu-clock -- "$su/suid-sleep" 2 2>"$TMP/su.err")
	check "exec of a set-user-ID program: said so, not 'target exited'" \
		eval 'grep -q "executed a set-user-ID program" "$TMP/su.err" && ! grep -q "target exited" "$TMP/su.err"'
	rm -rf "$su"
fi

# make demo builds only what the demo runs (no test), on every core.
make -n -C "$PJ_TOP" demo BUILD="$TMP/demo-build" >"$TMP/demo.n" 2>&1
check "make demo: perfjava and the agent with -j$(nproc), no test compiled" \
	eval 'grep -q -- "-j$(nproc) .*/perfjava .*libperfjava-agent.so" "$TMP/demo.n" && grep -q "^cc .*-o $TMP/demo-build/perfjava " "$TMP/demo.n" && ! grep -q "selftests/unit/" "$TMP/demo.n"'
