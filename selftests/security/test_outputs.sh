#!/usr/bin/env bash
# Issue 19, attack 1: root writes record -o, report -o and --loop files into
# a directory another user can write, where that user planted symbolic links
# (to a root file, dangling to where a root file would be made, a directory
# link). No root file is written, created or chmodded; each refusal is one
# line, within 5 s; a plain name there still works, and a failed launch
# leaves an older output as it was.
# times each refusal to the second, with room for the tests beside it (its
# bounds held beside another make check)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

OWNER=pjsec-o$$ THIRD=pjsec-t$$
if ! sec_users "$OWNER" "$THIRD"; then
	skip "outputs in another user's directory" "needs root (creates users)"
	exit 0
fi
victim=/etc/pj-sec-victim$$ made=/etc/pj-sec-made$$
SEC_FILES+=("$victim" "$made" "$made.txt" /etc/pj-sec-sub$$.txt)
echo "root's own" >"$victim"; chmod 644 "$victim"
before=$(fingerprint "$victim")
d=$TMP/third; mkdir -m 755 "$d"; chown "$THIRD" "$d"

(cd "$TMP" && exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups \
	--no-new-privs "$PROGS/cpusplit" 60) >"$TMP/tgt.out" 2>&1 &
tgt=$!; track "$tgt"
wait_for 10 grep -qs '^ready' "$TMP/tgt.out"
"$PJ_BIN" record -p "$tgt" -d 0.3 -q --no-java -o "$TMP/good.data" 2>/dev/null

# refused CMD...: runs CMD as root; RC, ERR (stderr), SECS
refused() {
	local t0; t0=$(date +%s%N)
	"$@" >/dev/null 2>"$TMP/err"
	RC=$? SECS=$(seconds_since "$t0") ERR=$(cat "$TMP/err")
}
one_line() { [ "$RC" -ne 0 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && le "$SECS" 5; }
untouched() { [ "$(fingerprint "$victim")" = "$before" ] && [ ! -e "$made" ] && [ ! -e "$made.txt" ]; }

as_user "$THIRD" ln -s "$victim" "$d/out.data"
refused "$PJ_BIN" record -p "$tgt" -d 0.3 -q --no-java -o "$d/out.data"
check "record -o through a planted link to a root file: refused in one line ($SECS s)" one_line
check "and the root file is not written or chmodded" untouched
echo "# $ERR"

as_user "$THIRD" ln -s "$made" "$d/new.data"
refused "$PJ_BIN" record -p "$tgt" -d 0.3 -q --no-java -o "$d/new.data"
check "record -o through a dangling link: refused ($SECS s), nothing made" \
	all one_line -- untouched

as_user "$THIRD" ln -s "$made.txt" "$d/rep.txt"
refused "$PJ_BIN" report -i "$TMP/good.data" -o "$d/rep.txt"
check "report -o through a dangling link: refused ($SECS s), nothing made" \
	all one_line -- untouched
echo "# $ERR"
as_user "$THIRD" ln -s "$victim" "$d/rep.html"
refused "$PJ_BIN" report -i "$TMP/good.data" -o "$d/rep.html"
check "a flame graph page through a link to a root file: refused, file untouched" \
	all one_line -- untouched

as_user "$THIRD" ln -s /etc "$d/sub"
refused "$PJ_BIN" report -i "$TMP/good.data" -o "$d/sub/pj-sec-sub$$.txt"
check "report -o under the other user's link to /etc: refused ($SECS s)" \
	all one_line -- test ! -e /etc/pj-sec-sub$$.txt
echo "# $ERR"

as_user "$THIRD" mkfifo "$d/fifo.txt"
refused timeout 10 "$PJ_BIN" report -i "$TMP/good.data" -o "$d/fifo.txt"
check "report -o onto the other user's FIFO: refused at once ($SECS s)" one_line

# --loop: links planted for the names of the next seconds
for s in 0 1 2 3 4 5; do
	as_user "$THIRD" ln -s "$made" "$d/loop-$(date -d "+$s sec" +%Y%m%d-%H%M%S).data"
done
"$PJ_BIN" record -p "$tgt" -d 2.5 --loop 1 -q --no-java -o "$d/loop-%t.data" 2>"$TMP/err"
rc=$?
n=$(find "$d" -maxdepth 1 -name 'loop-*.data' -type f -user root | wc -l)
check "--loop around planted links: rc $rc, $n files of root's, nothing through a link" \
	all test "$rc" -eq 0 -a "$n" -ge 2 -- untouched

# a plain name in that directory: root's file, 0600, reports
"$PJ_BIN" record -p "$tgt" -d 0.3 -q --no-java -o "$d/plain.data" 2>"$TMP/err"
check "a plain name in the other user's directory: root's 0600 file" \
	test "$(stat -c '%U %a' "$d/plain.data" 2>/dev/null)" = "root 600"
"$PJ_BIN" report -i "$d/plain.data" -o "$d/plain.txt" 2>"$TMP/err"
check "and a report of it there" test -s "$d/plain.txt" -a ! -L "$d/plain.txt"

# a failed launch leaves an older output byte for byte (issue 28)
cp "$TMP/good.data" "$TMP/keep.data"
b=$(md5sum <"$TMP/keep.data")
"$PJ_BIN" record -q -o "$TMP/keep.data" -- /nonexistent/cmd 2>"$TMP/err"
check "a failed launch leaves the older output as it was" \
	test "$(md5sum <"$TMP/keep.data")" = "$b" -a ! -e "$TMP/keep.data.old"
check "and no temporary file" test -z "$(ls -A "$TMP" | grep '^\.keep')"
echo "1..$_tap_n"
