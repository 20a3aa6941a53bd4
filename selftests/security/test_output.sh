#!/usr/bin/env bash
# The profile file holds the target's command line: mode 0600 whatever the
# umask, also when it replaces a file that was world-readable; a disk that is
# full before the first write leaves no empty file behind, and says so in one
# line; the target's control characters do not reach the file's header.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

"$PROGS/cpusplit" 30 >/dev/null 2>&1 &
tgt=$!; track "$tgt"
(umask 000; "$PJ_BIN" record -p "$tgt" -d 0.3 -q --no-java -o "$TMP/a.data" 2>"$TMP/err")
check "output is 0600 under umask 000 ($(stat -c %a "$TMP/a.data"))" \
	test "$(stat -c %a "$TMP/a.data")" = 600
touch "$TMP/b.data"; chmod 644 "$TMP/b.data"
"$PJ_BIN" record -p "$tgt" -d 0.3 -q --no-java -o "$TMP/b.data" 2>"$TMP/err"
check "a world-readable file it replaces becomes 0600 ($(stat -c %a "$TMP/b.data"))" \
	test "$(stat -c %a "$TMP/b.data")" = 600

if [ "$(id -u)" -ne 0 ] || ! mkdir -p "$TMP/full" ||
	! mount -t tmpfs -o size=4k none "$TMP/full" 2>/dev/null; then
	skip "a full disk leaves no empty file" "cannot mount a tmpfs here (needs root)"
else
	dd if=/dev/zero of="$TMP/full/fill" bs=4k count=4 2>/dev/null
	"$PJ_BIN" record -p "$tgt" -d 0.3 -q --no-java -o "$TMP/full/c.data" 2>"$TMP/err"
	rc=$?
	check "full disk: fails (rc $rc) with one line" \
		test "$rc" -ne 0 -a "$(wc -l <"$TMP/err")" -eq 1
	sed 's/^/# /' "$TMP/err"
	check "full disk: no empty file left behind" test ! -e "$TMP/full/c.data"
	umount "$TMP/full"
fi

# a thread name with escape sequences (prctl PR_SET_NAME from the target)
if command -v python3 >/dev/null; then
	python3 -c '
import ctypes, time, sys
ctypes.CDLL(None).prctl(15, b"\x1b[2Jx\x1b]0;t\x07", 0, 0, 0)
sys.stdout.write("named\n"); sys.stdout.flush()
t = time.time()
while time.time() - t < 20: pass' >"$TMP/py.out" &
	py=$!; track "$py"
	wait_for 10 grep -q named "$TMP/py.out"
	"$PJ_BIN" record -p "$py" -d 0.5 -q --no-java -o "$TMP/d.data" 2>"$TMP/err"
	"$PJ_BIN" report -i "$TMP/d.data" --threads >"$TMP/rep" 2>&1
	check "a thread name's escape sequences do not reach the report" \
		all grep -q '?\[2Jx?\]0;t?' "$TMP/rep" -- not_grep $'\033' "$TMP/rep"
else
	skip "hostile thread names" "no python3"
fi
echo "1..$_tap_n"
