#!/usr/bin/env bash
# Issue 19, attack 10: files another user plants where root runs report -i:
# a FIFO, a link to /dev/zero, a sparse 16 GB "profile" that only starts
# like one, and a crafted profile with 240,000 EVENTS entries. Each gives
# one line (or its report) within 5 s, and reads no more than it must.
# times the report to the second, with room for the tests beside it (its
# bounds held beside another make check)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

THIRD=pjsec-t$$
if ! sec_users "$THIRD"; then
	skip "report inputs planted by another user" "needs root (creates users)"
	exit 0
fi
d=$TMP/third; mkdir -m 755 "$d"; chown "$THIRD" "$d"
as_third() { setpriv --reuid="$THIRD" --regid=nogroup --clear-groups --no-new-privs "$@"; }
# report_timed ARGS...: perfjava report as root, at most 60 s: RC, SECS,
# ERR (its one line), HWM (peak RSS, MB)
report_timed() {
	local t0; t0=$(date +%s%N) HWM=0
	"$PJ_BIN" report "$@" >/dev/null 2>"$TMP/err" &
	local p=$!
	wait_for 60 peak_until_gone "$p" || kill -9 "$p"
	wait "$p"; RC=$? SECS=$(seconds_since "$t0") ERR=$(head -c 300 "$TMP/err")
}
one_line() { [ "$RC" -ne 0 ] && [ "$RC" -lt 128 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && le "$SECS" 5; }

as_third mkfifo "$d/fifo.data"
report_timed -i "$d/fifo.data"
check "report -i a FIFO: refused in $SECS s (rc $RC): $ERR" one_line
as_third ln -s /dev/zero "$d/zero.data"
report_timed -i "$d/zero.data"
check "report -i a link to /dev/zero: refused in $SECS s (rc $RC, $HWM MB): $ERR" \
	all one_line -- le "$HWM" 100

# a real recording's first chunks, then a hole up to 16 GB
"$PROGS/cpusplit" 5 >"$TMP/c.out" 2>&1 &
c=$!; track "$c"
wait_for 10 grep -qs '^ready' "$TMP/c.out"
"$PJ_BIN" record -p "$c" -d 0.3 -q --no-java -o "$TMP/good.data" 2>/dev/null
as_third cp "$TMP/good.data" "$d/sparse.data" 2>/dev/null || cp "$TMP/good.data" "$d/sparse.data"
truncate -s 16G "$d/sparse.data"
report_timed -i "$d/sparse.data"
check "report -i a 16 GB sparse file that starts as a profile: one line in $SECS s (rc $RC, peak RSS $HWM MB): $ERR" \
	all one_line -- le "$HWM" 100 -- grep -q 'damaged at offset' "$TMP/err"

# 240,000 EVENTS entries: distinct indexes (the table is bounded: refused
# at once) and the same few indexes again and again (taken in O(n))
if ! command -v python3 >/dev/null; then
	skip "a profile of 240,000 events" "no python3 to craft it"
	echo "1..$_tap_n"
	exit 0
fi
# events FILE DISTINCT: a header and one EVENTS chunk of 240,000 entries
events() {
	python3 - "$1" "$2" <<'PY'
import struct, sys, zlib
def uv(v):
    out = bytearray()
    while True:
        b = v & 0x7f; v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v: return bytes(out)
def st(s): return uv(len(s)) + s
distinct = sys.argv[2] == "1"
body = b"".join(uv(i if distinct else i % 4) + st(b"ev%d" % i) + st(b"ns") + uv(1) + uv(0) + uv(1000) + uv(0)
                for i in range(240000))
hdr = b"PJAVAPRF" + struct.pack("<IIQQ", 2, 32, 0, 0)
chunk = struct.pack("<IHHII", 0x4b434a50, 7, 0, len(body), zlib.crc32(body))
open(sys.argv[1], "wb").write(hdr + chunk + body)
PY
}
events "$d/ev1.data" 1; events "$d/ev2.data" 0
report_timed -i "$d/ev1.data"
check "240,000 events of distinct indexes: one line in $SECS s (rc $RC): $ERR" \
	all one_line -- grep -q 'out of range' "$TMP/err"
report_timed -i "$d/ev2.data" --format meta
check "240,000 definitions of four events: read in $SECS s (<= 5, rc $RC)" \
	all test "$RC" -eq 0 -- le "$SECS" 5
echo "1..$_tap_n"
