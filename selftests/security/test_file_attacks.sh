#!/usr/bin/env bash
# Issue 19, attacks through the files a root recorder reads of its target
# (each target run by an unprivileged user, its files planted by it):
#   3  a .gnu_debuglink to a sparse 1 TB file: record -d 2 ends in time,
#      a SIGKILLed recorder leaves chunks that report, and report --format
#      pprof of the recording (which reads the binary again) within 5 s;
#   4  a .symtab claiming 2 GB at the end of a sparse binary, run from disk
#      and from a memfd: the recorder's RSS stays under 300 MB;
#   6  a container (user and mount namespace, a root of its own) with a
#      build-id debug path linked to an absolute path naming a root-only
#      file of the host, then holding another binary's debug file: neither
#      is read; a right debug file inside the container still is.
# times the recorder and the report to the second, with room for the
# tests beside it (its bounds held beside another make check)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

OWNER=pjsec-o$$
if ! sec_users "$OWNER"; then
	skip "attacks through the target's files" "needs root (creates users)"
	exit 0
fi
for t in objcopy strip readelf; do
	command -v $t >/dev/null || { skip "attacks through the target's files" "no $t"; exit 0; }
done
home=$TMP/home; mkdir -m 755 "$home"; chown "$OWNER" "$home"
as_owner() { (cd "$home" && exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups --no-new-privs "$@"); }
# start_as_owner ARGS...: runs ARGS as the owner; its pid in HN
start_as_owner() {
	: >"$TMP/hn.out"
	as_owner "$@" >"$TMP/hn.out" 2>&1 &
	HN=$!; track "$HN"
	wait_for 30 grep -qs '^ready' "$TMP/hn.out"
	HN=$(awk '/^ready/ { print $2; exit }' "$TMP/hn.out")
	track "$HN"
}
# timed CMD...: RC, SECS (from its "recording" line when it says one),
# and HWM (the peak RSS in MB, polled)
timed() {
	local t0 t1=0; t0=$(date +%s%N) HWM=0
	"$@" 2>"$TMP/err" &
	local p=$!
	# each poll notes the start and the peak RSS so far; done once it exits
	gone() {
		[ "$t1" = 0 ] && grep -qs recording "$TMP/err" && t1=$(date +%s%N)
		peak_until_gone "$p"
	}
	wait_for 120 gone || kill -9 "$p"
	wait "$p"; RC=$?
	[ "$t1" = 0 ] && t1=$t0
	SECS=$(seconds_since "$t1")
}
samples() { "$PJ_BIN" report -i "$1" --format collapsed 2>/dev/null | awk '{ n += $NF } END { print n + 0 }'; }

# 3: a debuglink to a sparse terabyte
# (a debug file of its own without a build-id, so that only the CRC could
# tell, made a terabyte long)
cp "$PROGS/hostile_native" "$home/dl"
strip -s "$home/dl"
objcopy --only-keep-debug --remove-section=.note.gnu.build-id \
	"$PROGS/hostile_native" "$home/dl.debug"
(cd "$home" && objcopy --add-gnu-debuglink=dl.debug dl)
truncate -s 1T "$home/dl.debug"
chown -R "$OWNER" "$home"
start_as_owner "$home/dl" spin 60
timed "$PJ_BIN" record -p "$HN" -d 2 -o "$TMP/dl.data"
n=$(samples "$TMP/dl.data")
check "a debuglink to a sparse 1 TB file: record -d 2 ended $SECS s after its start (<= 3), rc $RC, $n samples, peak RSS $HWM MB" \
	all test "$RC" -eq 0 -a "$n" -gt 0 -- le "$SECS" 3 -- le "$HWM" 300
sed 's/^/# /' "$TMP/err"
timed "$PJ_BIN" report -i "$TMP/dl.data" --format pprof -o "$TMP/dl.pb.gz"
check "report --format pprof of it (the binary read again): $SECS s (<= 5), rc $RC" \
	all test "$RC" -eq 0 -a -s "$TMP/dl.pb.gz" -- le "$SECS" 5
"$PJ_BIN" record -p "$HN" -q -o "$TMP/k.data" 2>/dev/null &
rp=$!
wait_for 10 size_over "$TMP/k.data" 1000
# a chunk or more written after the first bytes, then the kill
first=$(stat -c %s "$TMP/k.data")
wait_for 10 size_over "$TMP/k.data" "$first"
kill -9 "$rp"; wait "$rp" 2>/dev/null
n=$(samples "$TMP/k.data")
check "a recorder SIGKILLed meanwhile leaves chunks that report ($n samples)" test "$n" -gt 0
kill -9 "$HN"

# 4: a .symtab claiming 2 GB, sparse on disk and in a memfd
as_owner "$PROGS/hostile_native" bigsymtab "$home/big" || { not_ok "bigsymtab"; exit 1; }
start_as_owner "$home/big" spin 60
timed "$PJ_BIN" record -p "$HN" -d 2 -o "$TMP/big.data"
n=$(samples "$TMP/big.data")
check "a .symtab claiming 2 GB of a sparse binary: peak RSS $HWM MB (< 300), -d 2 ended after $SECS s, rc $RC, $n samples" \
	all test "$RC" -eq 0 -a "$n" -gt 0 -- le "$HWM" 300 -- le "$SECS" 3
kill -9 "$HN"
start_as_owner "$PROGS/hostile_native" memexec "$home/big" hostile_native spin 60
timed "$PJ_BIN" record -p "$HN" -d 2 -o "$TMP/mem.data"
n=$(samples "$TMP/mem.data")
check "the same run from a memfd: peak RSS $HWM MB (< 300), -d 2 ended after $SECS s, rc $RC, $n samples" \
	all test "$RC" -eq 0 -a "$n" -gt 0 -- le "$HWM" 300 -- le "$SECS" 3 -- \
	grep -q memfd "/proc/$HN/maps"
kill -9 "$HN"

# 6: a container's build-id path, linked out of it
if ! as_owner unshare -Ur --mount true 2>/dev/null; then
	skip "a container's build-id link" "unprivileged user namespaces are disabled here"
	echo "1..$_tap_n"
	exit 0
fi
secret=/etc/pj-sec-secret$$.debug
SEC_FILES+=("$secret")
cp "$PROGS/hostile_native" "$secret"; chmod 600 "$secret"
cp "$PROGS/hostile_native" "$home/hn"; strip -s "$home/hn"
bid=$(readelf -n "$home/hn" | awk '/Build ID/ { print $3 }')
croot=$TMP/croot; mkdir -m 755 "$croot"; chown "$OWNER" "$croot" "$home/hn"
cat >"$TMP/container.sh" <<EOS
set -e
mount -t tmpfs none "$croot"
mkdir -p "$croot/lib/x86_64-linux-gnu" "$croot/lib64" "$croot/usr/lib/debug/.build-id/${bid:0:2}"
cp /lib/x86_64-linux-gnu/libc.so.6 "$croot/lib/x86_64-linux-gnu/"
cp /lib64/ld-linux-x86-64.so.2 "$croot/lib64/"
cp "$home/hn" "$croot/hn"
ln -s "$secret" "$croot/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug"
exec chroot "$croot" /hn spin 60
EOS
chmod 755 "$TMP/container.sh"
start_as_owner unshare -Ur --mount sh "$TMP/container.sh"
dbg=/proc/$HN/root/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
"$PJ_BIN" record -p "$HN" -d 1 -q -o "$TMP/c1.data" 2>"$TMP/err"
"$PJ_BIN" report -i "$TMP/c1.data" --format collapsed >"$TMP/c1.col" 2>&1
check "container: its build-id link to a root-only host file is not followed out (no spin_here; $(samples "$TMP/c1.data") samples)" \
	all test -L "$dbg" -a -s "$TMP/c1.col" -- not_grep -E "(^|;)spin_(here|bogus)[;_ ]" "$TMP/c1.col"
# another program's debug file, without a build-id (nothing to compare):
# the container's files are its user's (the host's root maps to nobody)
objcopy --only-keep-debug --remove-section=.note.gnu.build-id \
	"$PROGS/cpusplit" "$home/other.debug"
chown "$OWNER" "$home/other.debug"
as_owner rm -f "$dbg"; as_owner cp "$home/other.debug" "$dbg"
"$PJ_BIN" record -p "$HN" -d 1 -q -o "$TMP/c2.data" 2>"$TMP/err"
"$PJ_BIN" report -i "$TMP/c2.data" --format collapsed >"$TMP/c2.col" 2>&1
nm --defined-only "$PROGS/cpusplit" | awk '$2 ~ /^[tT]$/ { print $3 }' >"$TMP/other.names"
tr ';' '\n' <"$TMP/c2.col" | sed 's/ [0-9]*$//' | sort -u >"$TMP/c2.names"
check "container: a debug file without the build-id at its build-id path is not taken (no name of that program: $(grep -cxFf "$TMP/other.names" "$TMP/c2.names"))" \
	all test -s "$TMP/c2.col" -- not_grep -xFf "$TMP/other.names" "$TMP/c2.names"
cp "$PROGS/hostile_native" "$home/hn.debug"; chown "$OWNER" "$home/hn.debug"
as_owner rm -f "$dbg"; as_owner cp "$home/hn.debug" "$dbg"
"$PJ_BIN" record -p "$HN" -d 1 -q -o "$TMP/c3.data" 2>"$TMP/err"
"$PJ_BIN" report -i "$TMP/c3.data" --format collapsed >"$TMP/c3.col" 2>&1
check "container: its own right debug file there is read (spin_here named)" \
	grep -q spin_here "$TMP/c3.col"
kill -9 "$HN"
echo "1..$_tap_n"
