#!/usr/bin/env bash
# perfjava record -- CMD ARGS: the command profiled from its first
# instruction (its page faults in ld.so's _dl_start are sampled), its threads
# as they appear, its exit status (or 128+signal) is perfjava's, a SIGINT
# or SIGTERM sent to perfjava reaches it and the file is complete; a command that cannot
# run is one line and 127; JVMs (JDK 17, 25) have the agent from the start
# (-agentpath): Java frames, attribution within 5 pp, and no dynamic-agent
# warning; a launched JVM recorded with -e cpu-clock --wall (two clocks)
# keeps Java frames on >= 90% of its workers' cpu-clock samples.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

"$PJ_BIN" record -q -o "$TMP/cs.data" -- "$PROGS/cpusplit" 2 2 >"$TMP/cs.out" 2>"$TMP/cs.err"
check "launch cpusplit: exit 0" [ $? -eq 0 ]
"$PJ_BIN" report -i "$TMP/cs.data" --format collapsed --threads >"$TMP/cs.folded"
check "its worker threads, started after the exec, are sampled" \
	eval '[ "$(cut -d";" -f1 "$TMP/cs.folded" | sort -u | wc -l)" -ge 2 ] && grep -q "start_thread;.*work_a" "$TMP/cs.folded"'

"$PJ_BIN" record -q -e page-faults -c 1 -o "$TMP/pf.data" -- "$PROGS/cpusplit" 0.1 1 >/dev/null 2>&1
"$PJ_BIN" report -i "$TMP/pf.data" --format collapsed >"$TMP/pf.folded"
check "from the first instruction: page faults in ld.so's _dl_start" \
	grep -qE '(^|;)_dl_start(_final)?(;|_\[|$| )' "$TMP/pf.folded"

"$PJ_BIN" record -q -o "$TMP/x7.data" -- sh -c 'exit 7' 2>/dev/null
check "the command's exit status is perfjava's (7)" [ $? -eq 7 ]
"$PJ_BIN" record -q -o "$TMP/k9.data" -- sh -c 'kill -9 $$' 2>/dev/null
check "killed by SIGKILL: 137" [ $? -eq 137 ]

# (a background job of a script ignores SIGINT: SIGTERM goes the same way)
"$PJ_BIN" record -o "$TMP/int.data" -- "$PROGS/cpusplit" 30 1 >"$TMP/int.out" 2>"$TMP/int.err" &
rec=$!
track $rec
wait_for 30 grep -q '^ready' "$TMP/int.out"
child=$(awk '/^ready/ { print $2 }' "$TMP/int.out")
kill -TERM $rec
wait $rec
rc=$?
check "SIGTERM to perfjava reaches the command: it dies of it, perfjava exits 143 ($rc)" [ $rc -eq 143 ]
check "and the command is gone" bash -c "! kill -0 $child 2>/dev/null"
# Ctrl-C at a terminal (a pty): the command gets it from the terminal,
# perfjava records until the command has ended, and exits as it did (130)
if command -v python3 >/dev/null; then
	python3 - "$PJ_BIN" "$TMP/cc.data" "$PROGS/cpusplit" >"$TMP/cc.out" 2>&1 <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], ["perfjava", "record", "-o", sys.argv[2], "--", sys.argv[3], "30", "1"])
out, end = b"", time.time() + 60  # a bound: a busy machine starts slowly
def read_until(cond):
    global out
    while not cond() and time.time() < end:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                d = os.read(fd, 4096)
            except OSError:
                return
            if not d:
                return
            out += d
read_until(lambda: b"Ctrl-C to stop" in out and b"ready" in out)
os.write(fd, b"\x03")
read_until(lambda: False)
_, st = os.waitpid(pid, 0)
print(out.decode(errors="replace"))
print("exit", os.waitstatus_to_exitcode(st))
PY
	check "Ctrl-C at a terminal: the command dies of it, perfjava exits 130, file complete" \
		eval 'grep -q "^exit 130" "$TMP/cc.out" && grep -q "target exited" "$TMP/cc.out" && "$PJ_BIN" report -i "$TMP/cc.data" >/dev/null 2>"$TMP/cc.rerr" && [ ! -s "$TMP/cc.rerr" ]'
else
	skip "Ctrl-C at a terminal" "python3 is missing"
fi
"$PJ_BIN" report -i "$TMP/int.data" >"$TMP/int.txt" 2>"$TMP/int.rerr"
check "the file is complete (report without warnings)" \
	eval '[ -s "$TMP/int.txt" ] && [ ! -s "$TMP/int.rerr" ]'

"$PJ_BIN" record -q -o "$TMP/no.data" -- /nonexistent/command arg 2>"$TMP/no.err"
rc=$?
check "a command that cannot run: exit 127, one line, no file" \
	eval '[ $rc -eq 127 ] && [ "$(wc -l <"$TMP/no.err")" -eq 1 ] && grep -q "cannot run /nonexistent/command: No such file" "$TMP/no.err" && [ ! -e "$TMP/no.data" ]'
"$PJ_BIN" record -p $$ -- true 2>"$TMP/both.err"
rc=$?
check "-p and a command: exit 2, says so" eval '[ $rc -eq 2 ] && grep -q "not both" "$TMP/both.err"'

java_suite "launch a JVM"
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	# (a sample every 2 ms: enough of them on a busy machine)
	"$PJ_BIN" record -c 2000000 -o "$TMP/$J.data" -- "$jdk/bin/java" -Dtruth.every=50 -cp "$CLASSES" Workload 4 2 \
		>"$TMP/$J.out" 2>"$TMP/$J.err"
	check "$J: launch java: exit 0" [ $? -eq 0 ]
	check "$J: no dynamic-agent warning, no agent error" \
		bash -c "! grep -qE 'loaded dynamically|perfjava agent:|java frames unavailable' '$TMP/$J.err'"
	"$PJ_BIN" report -i "$TMP/$J.data" --format collapsed >"$TMP/$J.folded"
	check_split "$J launched" "$TMP/$J.out" "$TMP/$J.data" "$TMP/$J.folded"
	# (C2's _[j] or C1's _[1]: beside another make check the 4 s run may
	# end before C2 has compiled them)
	check "$J: JIT frames from the agent loaded at start" grep -q 'Workload.method[AB]_\[[j1]\]' "$TMP/$J.folded" ||
		grep -o 'Workload\.method[ABC]_\[[a-z0-9]\]' "$TMP/$J.folded" | sort | uniq -c | sed 's/^/# /'
done

# --wall beside -e cpu-clock: two clocks of each thread that overflow
# together. SIGTRAP is not queued: when both sent it, one of the pair was
# dropped and its sample lost its walk (half the Java threads' samples
# without Java frames once the launched JVM's rings were promoted).
jdk=${JDKS[0]}
J=$(jdk_name "$jdk")
"$PJ_BIN" record -c 2000000 -e cpu-clock --wall -o "$TMP/$J.wall.data" -- "$jdk/bin/java" -cp "$CLASSES" Workload 4 2 \
	>/dev/null 2>"$TMP/$J.wall.err"
check "$J: launch java with -e cpu-clock --wall: exit 0" [ $? -eq 0 ]
echo "# $J --wall: $(grep -E 'java walks' "$TMP/$J.wall.err")"
wj=$("$PJ_BIN" report -i "$TMP/$J.wall.data" --format collapsed --threads --event cpu-clock |
	awk '/^\[worker-/ { t += $NF; if ($0 ~ /_\[[j0i1]\]/) j += $NF }
		END { printf "%.1f %d", t ? 100 * j / t : 0, t }')
echo "# $J --wall: $wj (% of the worker threads' cpu-clock samples with Java frames, samples)"
check "$J --wall: >= 90% of its worker samples have Java frames (${wj% *}% of ${wj#* })" \
	awk -v p="${wj% *}" -v n="${wj#* }" 'BEGIN { exit !(n > 0 && p >= 90) }'
