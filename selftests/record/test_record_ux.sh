#!/usr/bin/env bash
# What record says: -F above kernel.perf_event_max_sample_rate is clamped
# with a warning (perf's way); several
# events are counted each; "1 thread" in the singular; the bytes written are
# the file's final size; no kptr_restrict hint when kernel frames were never
# recorded (non-root); as root on a process it still cannot read (pid 1 in a
# container), no advice to "run as root".
. "$(dirname "$0")/../lib.sh"

start_prog "$TMP/cs.out" "$PROGS/cpusplit" 30 1
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
"$PJ_BIN" record -p "$PID" -e cpu-clock,page-faults -F $((max * 10)) -d 1 -o "$TMP/f.data" 2>"$TMP/f.err"
rc=$?
check "-F above the kernel's limit: recorded anyway (exit $rc)" [ $rc -eq 0 ]
check "-F above the limit: a warning naming kernel.perf_event_max_sample_rate" \
	grep -q "warning: cpu-clock at $((max * 10)) Hz is above kernel.perf_event_max_sample_rate; sampling at $max Hz" "$TMP/f.err"
check "two events: counted each in the summary, adding up to the total" \
	awk '/samples \(/ { t = $2; gsub(/[(),]/, " "); n = 0; for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+$/ && $(i+1) ~ /^(cpu-clock|page-faults)$/) n += $i; ok = (n == t && t > 0) } END { exit !ok }' "$TMP/f.err"
check "one thread: '1 thread', not '1 threads'" \
	eval 'grep -q "from 1 thread," "$TMP/f.err" && grep -q "(1 thread)" "$TMP/f.err"'
size=$(stat -c %s "$TMP/f.data")
check "wrote N bytes is the final file size ($size)" grep -q "wrote $TMP/f.data: $size bytes" "$TMP/f.err"
"$PJ_BIN" report -i "$TMP/f.data" >"$TMP/f.txt"
check "text report: samples per recorded event" \
	grep -qE '^Recorded events +: cpu-clock [0-9]+ samples?, page-faults [0-9]+ samples?' "$TMP/f.txt"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "non-root hints" "needs root and setpriv to run as another user"
elif [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -lt 2 ]; then
	skip "non-root hints" "perf_event_paranoid < 2: kernel frames are recorded"
else
	nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
	out=$(mktemp -d /tmp/pj-nobody.XXXXXX)
	chown 65534:65534 "$out"
	$nob "$PROGS/syscalls" 3 >"$out/o" 2>&1 &
	np=$!
	track $np
	wait_for 10 grep -q '^ready' "$out/o"
	$nob "$PJ_BIN" record -p "$np" -d 1 -o "$out/n.data" 2>"$out/err"
	check "non-root, kernel frames not recorded: no kptr_restrict hint" \
		eval '[ -s "$out/n.data" ] && ! grep -q kptr_restrict "$out/err"'
	rm -rf "$out"
fi

if [ "$(id -u)" -eq 0 ] && ! cat /proc/1/maps >/dev/null 2>&1; then
	"$PJ_BIN" record -p 1 -d 1 -o "$TMP/one.data" 2>"$TMP/one.err"
	rc=$?
	check "root on an unreadable pid 1: exit 1, no 'run as root' advice" \
		eval '[ $rc -eq 1 ] && grep -q "even as root" "$TMP/one.err" && ! grep -q "or as root" "$TMP/one.err"'
else
	skip "root on an unreadable process" "pid 1 is readable here (or not root)"
fi
