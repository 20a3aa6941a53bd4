#!/usr/bin/env bash
# End to end on native processes: perfjava record -p PID / perfjava report.
. "$(dirname "$0")/../lib.sh"

# --- attribution on a program with a known CPU split (1 worker: reaches
# main), its truth over the window the recording covers (its timeline)
start_prog "$TMP/cs.out" "$PROGS/cpusplit" 4 1 50
"$PJ_BIN" record -q -p "$PID" -c 1000000 -d 3 -o "$TMP/cs.data"
check "record cpusplit exits 0" [ $? -eq 0 ]
wait "$PID"
"$PJ_BIN" report -i "$TMP/cs.data" --format collapsed >"$TMP/cs.folded"
check "report collapsed exits 0" [ $? -eq 0 ]
native_split "" "$TMP/cs.out" "$TMP/cs.folded" 5 "$TMP/cs.data"
echo "# max attribution error $MAXERR pp"
total=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/cs.folded")
main=$(awk '/(^|;)main(;| )/ { s += $NF } END { print s + 0 }' "$TMP/cs.folded")
pct=$(awk -v a="$main" -v b="$total" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }')
echo "# $main of $total samples reach main ($pct%)"
check "at least 95% of stacks reach main ($pct%)" awk -v p="$pct" 'BEGIN { exit !(p >= 95) }'
# one sample per 1 ms of the CPU time its work took over the recorded
# window (its timeline: within 50 ms at each end)
read -r first last < <(sample_window "$TMP/cs.data" '(^|[[:space:]])work_[abc]( |$)')
want=$(awk -v a="${first:-0}" -v b="${last:-0}" '$1 == "cum" { t = $2 / 1e9
		if (!nlo || t <= a) { nlo = 1; lo = $3 + $4 + $5 }
		if (!done) hi = $3 + $4 + $5
		if (t >= b) done = 1 }
	END { printf "%d", (hi - lo) / 1e6 }' "$TMP/cs.out")
check "one sample per 1 ms of CPU time ($total samples, $want expected)" \
	awk -v n="$total" -v w="$want" 'BEGIN { exit !(n >= 0.85 * w && n <= 1.05 * w + 2) }'
bytes=$(stat -c %s "$TMP/cs.data")
echo "# $bytes bytes for $total samples"

# one start: the header, the statistics and --from/--to count from when the
# events were enabled, and no sample comes before it
"$PJ_BIN" report -i "$TMP/cs.data" --format meta >"$TMP/cs.meta"
meta_start=$(awk '$1 == "meta" && $2 == "start_ns" { print $3 }' "$TMP/cs.meta")
stat_start=$(awk '$1 == "stat" && $2 == "start_ns" { print $3 }' "$TMP/cs.meta")
check "one start_ns: header $meta_start, statistics $stat_start" \
	[ -n "$meta_start" ] && [ "$meta_start" = "$stat_start" ]
first_us=$("$PJ_BIN" report -i "$TMP/cs.data" --format script |
	awk '/^[^\t]/ { t = $4; sub(/:$/, "", t); sub(/\./, "", t); if (m == "" || t + 0 < m + 0) m = t } END { print m }')
check "no sample before start_ns (first at ${first_us} us)" \
	awk -v f="$first_us" -v s="$meta_start" 'BEGIN { exit !(f != "" && f * 1000 >= s - s % 1000) }'
from_n=$("$PJ_BIN" report -i "$TMP/cs.data" --format collapsed --from 0 | awk '{ s += $NF } END { print s + 0 }')
check "--from 0 keeps every sample ($from_n of $total)" [ "$from_n" -eq "$total" ]

"$PJ_BIN" report -i "$TMP/cs.data" >"$TMP/cs.txt"
check "text report has async-profiler stack headers" \
	grep -qE '^--- [0-9]+ ns \([0-9.]+%\), [0-9]+ samples?$' "$TMP/cs.txt"
check "text report lists frames leaf first" grep -qE '^  \[ 0\] work_[abc]$' "$TMP/cs.txt"

# --- a syscall-heavy process shows named kernel frames
start_prog "$TMP/sc.out" "$PROGS/syscalls" 300
"$PJ_BIN" record -p "$PID" -d 1.5 -o "$TMP/sc.data" 2>"$TMP/sc.err"
"$PJ_BIN" report -i "$TMP/sc.data" --format collapsed >"$TMP/sc.folded"
check "kernel write path named (ksys_write/vfs_write _[k])" \
	grep -qE '(ksys_write|vfs_write|__x64_sys_write)_\[k\]' "$TMP/sc.folded"
check "the summary says kallsyms named the kernel frames" \
	grep -qx 'perfjava: kernel frames named by /proc/kallsyms' "$TMP/sc.err"
"$PJ_BIN" report -i "$TMP/sc.data" >"$TMP/sc.txt"
check "the report says kallsyms" grep -qE '^Kernel symbols +: kallsyms$' "$TMP/sc.txt"
check "user part kept under kernel frames (main;...;write)" \
	grep -qE 'main;.*write;.*_\[k\]' "$TMP/sc.folded"
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true

# --- threads started while recording are profiled, with their names
rm -f "$TMP/go"
start_prog "$TMP/sp.out" "$PROGS/spawner" "$TMP/go" 3
"$PJ_BIN" record -p "$PID" -d 20 -o "$TMP/sp.data" 2>"$TMP/sp.err" &
rec=$!
# the threads start once the recorder's events are open (its file can
# exist before; a slow recorder, as under ASan, could miss all three)
wait_for 30 grep -q '^perfjava: recording' "$TMP/sp.err"
touch "$TMP/go"
wait "$rec"
check "recorder stops when the target exits (exit 0)" [ $? -eq 0 ]
"$PJ_BIN" report -i "$TMP/sp.data" --format collapsed --threads >"$TMP/sp.folded"
late=$(grep -oE '^\[late-[0-9]+ tid=[0-9]+\]' "$TMP/sp.folded" | sort -u | wc -l)
check "samples from all 3 threads started while recording ($late)" [ "$late" -eq 3 ]
check "late threads run late_worker" grep -q 'late_worker' "$TMP/sp.folded"

# --- a process that exits mid-recording leaves a complete file (it ends
# once the recording is on: a loaded machine can take a second to attach)
start_prog "$TMP/ex.out" "$PROGS/cpusplit" 300 1
"$PJ_BIN" record -p "$PID" -d 30 -o "$TMP/ex.data" 2>"$TMP/ex.err" &
rec=$!
wait_for 30 grep -q '^perfjava: recording' "$TMP/ex.err"
c0=$(proc_cpu_ticks "$PID") # (then 0.2 s of its CPU, recorded)
wait_for 30 eval '[ "$(proc_cpu_ticks "$PID")" -ge $((c0 + $(getconf CLK_TCK) / 5)) ]'
kill "$PID"
wait "$rec"
check "recorder exits 0 when the target exits" [ $? -eq 0 ]
check "summary says the target exited" grep -q 'target exited' "$TMP/ex.err"
"$PJ_BIN" report -i "$TMP/ex.data" >"$TMP/ex.txt" 2>"$TMP/ex.rerr"
check "report of it succeeds without warnings" [ $? -eq 0 -a ! -s "$TMP/ex.rerr" ]

# --- recorder killed with SIGKILL: the complete chunks still report
start_prog "$TMP/k.out" "$PROGS/cpusplit" 300 1
"$PJ_BIN" record -q -p "$PID" -o "$TMP/k.data" &
rec=$!
# chunks are flushed every 100 ms; wait until some samples are on disk
wait_for 10 size_over "$TMP/k.data" 2000
kill -9 "$rec"; wait "$rec" 2>/dev/null
"$PJ_BIN" report -i "$TMP/k.data" >"$TMP/k.txt" 2>"$TMP/k.err"
check "report of a SIGKILLed recording exits 0" [ $? -eq 0 ]
check "it warns that the recording did not finish" grep -qi 'warning' "$TMP/k.err"
check "it shows the samples that were written" grep -q 'work_a' "$TMP/k.txt"
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true

# --- kallsyms hiding addresses (kptr_restrict): said once, user part kept
awk '{ $1 = "0000000000000000"; print }' /proc/kallsyms >"$TMP/kallsyms.hidden"
start_prog "$TMP/h.out" "$PROGS/syscalls" 300
PERFJAVA_KALLSYMS=$TMP/kallsyms.hidden "$PJ_BIN" record -p "$PID" -d 1 -o "$TMP/h.data" 2>"$TMP/h.err"
check "hidden kallsyms: record still succeeds" [ $? -eq 0 ]
n=$(grep -c 'kernel frames unnamed.*kptr_restrict' "$TMP/h.err")
check "hidden kallsyms: said once, naming kptr_restrict ($n)" [ "$n" -eq 1 ]
check "hidden kallsyms: and that perfjava_ksym is not loaded" \
	grep -q 'kernel frames unnamed: .*, and perfjava_ksym is not loaded; load perfjava_ksym' "$TMP/h.err"
"$PJ_BIN" report -i "$TMP/h.data" >"$TMP/h.txt"
check "hidden kallsyms: the report says why too" \
	grep -qE '^Kernel symbols +: none: kernel frames unnamed: .*kptr_restrict' "$TMP/h.txt"
"$PJ_BIN" report -i "$TMP/h.data" --format collapsed >"$TMP/h.folded"
check "hidden kallsyms: kernel part is one [kernel] frame" grep -qE ';\[kernel\]_\[k\] [0-9]+$' "$TMP/h.folded"
check "hidden kallsyms: the user part of those stacks is kept" grep -qE 'main;.*write;\[kernel\]_\[k\]' "$TMP/h.folded"
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true
