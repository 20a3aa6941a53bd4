#!/usr/bin/env bash
# The attacks of issue 14 against a root recording, each by the user who could
# make it (users created here), against a process that looks like a HotSpot
# JVM (selftests/progs/hostile_jvm.c): root's files stay untouched, the
# recorder ends cleanly with one line about Java frames, and nothing of the
# attacker's bytes reaches the terminal raw.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

LIBJVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
if [ "$(id -u)" -ne 0 ]; then
	skip "attacks on a root recording" "needs root (creates users)"
	exit 0
fi
if [ ! -r "$LIBJVM" ]; then
	skip "attacks on a root recording" "no JDK 17 libjvm.so at $LIBJVM"
	exit 0
fi
fifo=/tmp/pj-sec-fifo$$
OWNER=pjsec-owner$$
THIRD=pjsec-third$$
for u in "$OWNER" "$THIRD"; do
	useradd -M -N -d / -s /usr/sbin/nologin "$u" || exit 1
done
_sec_cleanup() {
	_pj_cleanup # the processes it started, by pid
	userdel "$OWNER" 2>/dev/null; userdel "$THIRD" 2>/dev/null
	rm -rf /tmp/hsperfdata_"$OWNER" /tmp/hsperfdata_"$THIRD"
	rm -f /etc/pj-sec-victim$$ "$fifo"
}
trap _sec_cleanup EXIT
chmod 711 "$TMP"
BIN=$TMP/bin
mkdir -m 755 "$BIN"
cp "$PROGS/hostile_jvm" "$BIN/"
as_user() { local u=$1; shift; setpriv --reuid="$u" --regid=nogroup --clear-groups --no-new-privs "$@"; }
esc=$(printf '\033')

# start_as USER DIR MODE ARGS...: the hostile JVM, run by USER in DIR; its pid
# in HJ, its stdout in $TMP/hj.out
start_as() {
	local u=$1 d=$2; shift 2
	: >"$TMP/hj.out"
	(cd "$d" && exec setpriv --reuid="$u" --regid=nogroup --clear-groups \
		--no-new-privs "$BIN/hostile_jvm" "$LIBJVM" "$@") >"$TMP/hj.out" 2>&1 &
	HJ=$!
	track "$HJ"
	wait_for 10 grep -q '^ready' "$TMP/hj.out"
	# (an attach socket a JVM killed earlier left for this pid, root's in
	# sticky /tmp, would fail its listen: pid_max 32768 wraps in a run)
	rm -f "/tmp/.java_pid$HJ"
}
stop_hj() { kill -9 "$HJ" 2>/dev/null; wait "$HJ" 2>/dev/null; }
# record: 1 s of the hostile JVM as root; rc in RC, stderr in $TMP/err
record() {
	"$PJ_BIN" record -p "$HJ" -d 1 -q -o "$TMP/out.data" 2>"$TMP/err" >"$TMP/stdout"
	RC=$?
}
no_escapes() { ! grep -q "$esc" "$TMP/err" "$TMP/stdout" "$@"; }
java_lines() { grep -c 'java frames unavailable' "$TMP/err"; }

# 1. .attach_pid<pid> planted as a symlink to a root-only file
home=$TMP/home; mkdir -m 755 "$home"; chown "$OWNER" "$home"
victim=$TMP/victim; echo secret >"$victim"; chmod 600 "$victim"
before=$(stat -c '%u:%g %a %s' "$victim")
start_as "$OWNER" "$home" symlink "$victim"
record
check "trigger symlinked to a root file: root's file untouched" \
	test "$(stat -c '%u:%g %a %s' "$victim")" = "$before" -a "$(cat "$victim")" = secret
check "trigger symlinked: the links stay links, nothing created through them" \
	test -L "$home/.attach_pid$HJ" -a -L "/tmp/.attach_pid$HJ"
check "trigger symlinked: the recorder ends cleanly (rc $RC) with one line ($(java_lines))" \
	test "$RC" -eq 0 -a "$(java_lines)" -eq 1
sed 's/^/# /' "$TMP/err"
stop_hj; rm -f "/tmp/.attach_pid$HJ"

# 2. the JVM's owner speaks the agent protocol itself
for case in "0 0" "0x7fffffff 0" "0xffffffff 0" "64 2000"; do
	set -- $case
	start_as "$OWNER" "$home" agent "$1" "$2"
	record
	if [ "$1" = 64 ]; then
		check "HELLO of $((24 + $2)) bytes: the recorder survives (rc $RC) and takes it" \
			test "$RC" -eq 0 -a "$(java_lines)" -eq 0
		"$PJ_BIN" report -i "$TMP/out.data" --format collapsed >"$TMP/rep" 2>&1
		check "hostile method and thread names reach no terminal raw" \
			no_escapes "$TMP/rep"
		"$PJ_BIN" report -i "$TMP/out.data" --format text --threads >"$TMP/rep" 2>&1
		check "and no report either" no_escapes "$TMP/rep"
	else
		check "HELLO with depth $1: refused, the recorder survives (rc $RC) with one line" \
			all test "$RC" -eq 0 -a "$(java_lines)" -eq 1 -- grep -q 'frames per walk' "$TMP/err"
	fi
	sed 's/^/# /' "$TMP/err"
	stop_hj
done

# 3. a third user binds /tmp/.java_pid<pid> before the first attach
start_as "$OWNER" "$home" plain
jvm=$HJ; hjout=$(cat "$TMP/hj.out")
: >"$TMP/sq.out"
(exec setpriv --reuid="$THIRD" --regid=nogroup --clear-groups --no-new-privs \
	"$BIN/hostile_jvm" "$LIBJVM" squat "$jvm") >"$TMP/sq.out" 2>&1 &
sq=$!; track "$sq"
wait_for 10 grep -q '^ready' "$TMP/sq.out"
HJ=$jvm
record
check "squatted attach socket: not used (the squatter saw no connection)" \
	not_grep accepted "$TMP/sq.out"
check "squatted attach socket: one line (rc $RC, $(java_lines)), no escapes on the terminal" \
	all test "$RC" -eq 0 -a "$(java_lines)" -eq 1 -- no_escapes
sed 's/^/# /' "$TMP/err"
kill -9 "$sq" "$jvm" 2>/dev/null; wait "$sq" "$jvm" 2>/dev/null

# 4. a rootless container (user namespace, a root of its own, a private /tmp)
#    with a dangling absolute symlink where the agent library was copied to
#    (its name was predictable; a random one now)
if ! as_user "$OWNER" unshare -Ur --mount true 2>/dev/null; then
	skip "rootless container attacks" "unprivileged user namespaces are disabled here"
	exit 0
fi
so=$PJ_BUILD/libperfjava-agent.so
name=.perfjava-agent-$(stat -c %s "$so")-$(stat -L -c %Y "$so").so
croot=$TMP/croot; mkdir -m 755 "$croot"; chown "$OWNER" "$croot"
cat >"$BIN/container.sh" <<EOS
set -e
mount -t tmpfs none "$croot"
mkdir -p "$croot/usr" "$croot/tmp" "$croot/etc"
chmod 1777 "$croot/tmp"
mount --rbind /usr "$croot/usr"
ln -s usr/lib "$croot/lib"; ln -s usr/lib64 "$croot/lib64"
cp "$BIN/hostile_jvm" "$croot/"
cd "$croot"
exec chroot "$croot" /hostile_jvm "$LIBJVM" agent 64 0 "/tmp/$name" /etc/pj-sec-victim$$
EOS
chmod 755 "$BIN/container.sh"
: >"$TMP/hj.out"
(exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups --no-new-privs \
	unshare -Ur --mount sh "$BIN/container.sh") >"$TMP/hj.out" 2>&1 &
HJ=$!; track "$HJ"
wait_for 10 grep -q '^ready' "$TMP/hj.out"
jvm=$(awk '/^ready/ { print $2; exit }' "$TMP/hj.out")
HJ=$jvm; track "$jvm"
record
check "container: no file at the host path its symlink named" \
	test ! -e /etc/pj-sec-victim$$
check "container: Java attach works (rc $RC, $(java_lines) java error lines)" \
	all test "$RC" -eq 0 -a "$(java_lines)" -eq 0 -- grep -q 'hello sent' "$TMP/hj.out"
# (its name is random: the link's old name is not it; a regular file)
copy=$(find "/proc/$jvm/root/tmp/" -maxdepth 1 -type f -name '.perfjava-agent-*.so' -printf '%f\n' | head -1)
check "container: the agent copy is the container user's file ($copy)" \
	test -n "$copy" -a "$(stat -c %U "/proc/$jvm/root/tmp/$copy" 2>/dev/null)" = "$OWNER"
check "container: no socket of the reader left behind" \
	test -z "$(ls -a "/proc/$jvm/root/tmp/" | grep '\.sock$')"
sed 's/^/# /' "$TMP/err" "$TMP/hj.out"
kill -9 "$jvm" 2>/dev/null

# 5. in its own mount namespace, the target covers the directory of its
#    mapped binary and leaves there a link to a FIFO of the host: reading its
#    symbols as root must not open it (a FIFO blocks; a device could act)
mkfifo -m 600 "$fifo"
d=$TMP/cover; mkdir -m 755 "$d"; cp "$BIN/hostile_jvm" "$d/"; chown -R "$OWNER" "$d"
cat >"$BIN/cover.sh" <<EOS
"$d/hostile_jvm" "$LIBJVM" plain &
# (exec'd: the child's /proc entry exists before its exec; 10 s at most)
i=0
while [ "\$(readlink /proc/\$!/exe)" != "$d/hostile_jvm" ] && [ \$i -lt 10000 ]; do i=\$((i + 1)); done
mount -t tmpfs none "$d"
ln -s "$fifo" "$d/hostile_jvm"
echo "covered \$!"
wait
EOS
: >"$TMP/cover.out"
(exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups --no-new-privs \
	unshare -Ur --mount sh "$BIN/cover.sh") >"$TMP/cover.out" 2>&1 &
track $!
wait_for 10 grep -q '^covered' "$TMP/cover.out"
HJ=$(awk '/^covered/ { print $2 }' "$TMP/cover.out"); track "$HJ"
timeout -k 5 20 "$PJ_BIN" record -p "$HJ" -d 1 -q --no-java -o "$TMP/out.data" 2>"$TMP/err"
RC=$?
check "a link to a FIFO over the target's binary: not opened, no hang (rc $RC)" \
	test "$RC" -eq 0
sed 's/^/# /' "$TMP/err"
"$PJ_BIN" report -i "$TMP/out.data" --format collapsed >"$TMP/rep" 2>&1
check "and its samples are still there" test -s "$TMP/rep"
kill -9 "$HJ" 2>/dev/null
rm -f "$fifo"
echo "1..$_tap_n"
