#!/usr/bin/env bash
# A newcomer's first hour (issue 28), on the report side: options that would
# do nothing either work or say why in one line, and the right words.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

"$PJ_BIN" record -q -e cpu-clock -o "$TMP/a.data" -- "$PROGS/cpusplit" 1 1 >/dev/null 2>&1
"$PJ_BIN" record -q -e cpu-clock -o "$TMP/b.data" -- "$PROGS/syscalls" 1 >/dev/null 2>&1

# one_line FILE PATTERN: FILE is one line matching PATTERN
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -qE "$2" "$1"; }

"$PJ_BIN" report -i "$TMP/a.data" --format collapsed --minwidth 5 >"$TMP/mw" 2>"$TMP/mw.err"
rc=$?
check "--minwidth on collapsed: one line, it is for flame and tree ($rc)" \
	eval '[ $rc -ne 0 ] && one_line "$TMP/mw.err" "minwidth is for --format flame and tree"'
"$PJ_BIN" report -i "$TMP/a.data" --state sleep >/dev/null 2>"$TMP/st.err"
rc=$?
check "--state sleep on a cpu-clock recording: not an off-CPU recording ($rc)" \
	eval '[ $rc -ne 0 ] && one_line "$TMP/st.err" "is not an off-CPU recording"'
"$PJ_BIN" report -i "$TMP/a.data" --threads --include '^\[cpusplit tid=' --format collapsed >"$TMP/th" 2>&1
check "--threads --include NAME matches the thread root" \
	eval '[ -s "$TMP/th" ] && ! grep -qv "^\[cpusplit tid=[0-9]*\];" "$TMP/th"'
"$PJ_BIN" report -i "$TMP/a.data" --threads --exclude '^\[cpusplit tid=' --format collapsed >"$TMP/thx" 2>&1
check "--threads --exclude NAME drops the thread's stacks" grep -q "matches the filters" "$TMP/thx"
"$PJ_BIN" report "$TMP/a.data" "$TMP/b.data" >"$TMP/two.txt"
check "report a.data b.data of two targets names both" \
	eval 'grep -q "^Target *: pid [0-9]* (cpusplit)" "$TMP/two.txt" && grep -q "^Target *: pid [0-9]* (syscalls)" "$TMP/two.txt"'

# Native frames of a -g build carry their source line (work_a's spin loop).
line=$(awk '/^__attribute__.*void work_a\(/ { f = 1 } f && /SPIN\(n\);/ { print NR; exit }' "$PJ_TOP/selftests/progs/cpusplit.c")
"$PJ_BIN" report -i "$TMP/a.data" --lines >"$TMP/lines.txt"
check "text --lines: a -g binary's native frame has its line (work_a:$line)" \
	eval 'grep -q "\] work_a:$line$" "$TMP/lines.txt" && grep -q "\] __libc_start_main$" "$TMP/lines.txt"'

"$PJ_BIN" record -q --wall -o "$TMP/w.data" -- "$PROGS/waits" 1 >/dev/null 2>&1
"$PJ_BIN" report -i "$TMP/w.data" -o "$TMP/w.html"
check "a wall recording's flame graph is titled wall, not cpu-clock" \
	eval 'grep -q "<title>Flame graph (wall: on-CPU and off-CPU time)</title>" "$TMP/w.html"'

java_suite "pprof of a JVM"
export HOME=${HOME:-/root} PPROF_TMPDIR=$TMP GOCACHE=$TMP/gocache GOTOOLCHAIN=local
command -v go >/dev/null || apt_install "$TMP/apt.log" golang-go
GO=$(command -v go)
if [ -z "$GO" ]; then
	skip "pprof's main binary of a JVM" "cannot install golang-go"
else
	start_jvm "${JDKS[0]}" "$TMP/j.out" -- Workload 30 2
	"$PJ_BIN" record -q -p "$JPID" -d 2 -o "$TMP/j.data" 2>/dev/null
	"$PJ_BIN" report -i "$TMP/j.data" -o "$TMP/j.pb.gz"
	"$GO" tool pprof -top "$TMP/j.pb.gz" 2>/dev/null | head -3 >"$TMP/j.top"
	check "pprof of a JVM: the main binary is java, not the kernel or a library ($(head -1 "$TMP/j.top"))" \
		grep -qx "File: java" "$TMP/j.top"
	"$PJ_BIN" report -i "$TMP/a.data" -o "$TMP/a.pb.gz"
	"$GO" tool pprof -lines -top "$TMP/a.pb.gz" 2>/dev/null >"$TMP/a.top"
	check "pprof -lines: a -g binary's native frame has its file and line" \
		grep -qE " work_a .*cpusplit\.c:$line$" "$TMP/a.top"
fi
