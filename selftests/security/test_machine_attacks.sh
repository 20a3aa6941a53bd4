#!/usr/bin/env bash
# Issue 44, attacks on a root `record -a` (and the agents' memory) by
# unprivileged users, each made by the users the test creates:
#   1  three processes that map libjvm.so, catch SIGQUIT and never open an
#      attach socket, started during -a -d 3: the recording ends a few
#      seconds after -d (it took 30 s to a minute), keeps >= 70% of the
#      samples of the same recording without them, says each in one line;
#      SIGINT during their attach is honoured at once;
#   2  agents that flood method names (1 KiB each, 70,000 an agent), two
#      for each of three users: the reader's peak RSS stays <= 400 MB (the
#      agents' budget, 192 MiB, is reached); three of one user do not take
#      another user's JVM's Java frames (its share, 96 MiB);
#   6  one user keeps more processes alive than its share of -a's process
#      table (PERFJAVA_MACHINE_PROCS=256: 64; the machine's other users
#      have theirs): another user's process that comes later is named,
#      command line and user frames, and the file says whose were not;
#   9  a JVM with -XX:+DisableAttachMechanism and an agent of another
#      protocol version, started during -a: each said in one line with
#      its reason before the recording ends.
# PERFJAVA_JVM_MATCH keeps the machine's other JVMs out of it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

LIBJVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
OWNER=pjsec-o$$ U2=pjsec-p$$ U3=pjsec-q$$ VICTIM=pjsec-v$$
if ! sec_users "$OWNER" "$U2" "$U3" "$VICTIM"; then
	skip "attacks on record -a" "needs root (creates users)"
	exit 0
fi
if [ ! -r "$LIBJVM" ]; then
	skip "attacks on record -a" "no JDK 17 libjvm.so at $LIBJVM"
	exit 0
fi
BIN=$TMP/bin home=$TMP/home
mkdir -m 755 "$BIN" "$home"; chmod 1777 "$home"
cp "$PROGS/hostile_jvm" "$PROGS/hostile_native" "$PROGS/waits" "$BIN/"
export PERFJAVA_JVM_MATCH=$TMP

# hj USER OUT MODE ARGS...: a hostile JVM run by USER (stdout in OUT); its
# pid in HJ once it is ready
hj() {
	local u=$1 out=$2; shift 2
	: >"$out"
	(cd "$home" && exec setpriv --reuid="$u" --regid=nogroup --clear-groups \
		--no-new-privs "$BIN/hostile_jvm" "$LIBJVM" "$@") >"$out" 2>&1 &
	HJ=$!; track "$HJ"
	wait_for 30 grep -qs '^ready' "$out"
}
# hj_bg USER OUT MODE ARGS...: as hj, not waiting for it
hj_bg() {
	local u=$1 out=$2; shift 2
	: >"$out"
	(cd "$home" && exec setpriv --reuid="$u" --regid=nogroup --clear-groups \
		--no-new-privs "$BIN/hostile_jvm" "$LIBJVM" "$@") >"$out" 2>&1 &
	HJ=$!; track "$HJ"
}
# hwm_until_gone PID: peak_until_gone (lib.sh) in builtins only: no process
# per poll beside the ones under test
hwm_until_gone() {
	local k='' v='' _
	while read -r k v _; do
		[ "$k" = VmHWM: ] && break
	done 2>/dev/null <"/proc/$1/status"
	[ "$k" = VmHWM: ] && [ $((v / 1024)) -gt "${HWM:-0}" ] && HWM=$((v / 1024))
	! kill -0 "$1" 2>/dev/null
}
# lines_at LINE FILE...: N set to how many FILEs have a line starting with
# LINE (builtins only, as wait_for's condition)
lines_at() {
	local line=$1 f l; shift
	N=0
	for f in "$@"; do
		while read -r l; do
			[[ "$l" == "$line"* ]] && { N=$((N + 1)); break; }
		done 2>/dev/null <"$f"
	done
}
stat_of() { "$PJ_BIN" report -i "$1" --format meta 2>/dev/null | awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }'; }
# bg_record NAME ARGS...: record -a ARGS into $TMP/NAME.data, in the
# background ($REC), returning once it records; T0 then (date +%s%N)
bg_record() {
	local n=$1; shift
	"$PJ_BIN" record -a "$@" -o "$TMP/$n.data" 2>"$TMP/$n.err" &
	REC=$!; track "$REC"
	wait_for 60 grep -qs '^perfjava: recording' "$TMP/$n.err"
	T0=$(date +%s%N)
}
# wait_rec: waits (bounded) for $REC to end; RC, SECS since T0, HWM (MB)
wait_rec() {
	HWM=0
	wait_for 300 hwm_until_gone "$REC" || kill -9 "$REC"
	wait "$REC"; RC=$?
	SECS=$(seconds_since "$T0")
}

# --- 1: never-answering "JVMs" started during -a -d 3, in two rounds each
# beside the same recording without them (the machine is shared: its
# load moves)
base=0 deaf=0 base_secs=0 deaf_secs=0 found=0 said=0 rcs=0
for round in 1 2; do
	bg_record "base$round" -F 99 -m 1024 -d 3
	wait_rec
	k=$(stat_of "$TMP/base$round.data" samples); base=$((base + ${k:-0}))
	le "$SECS" "$base_secs" || base_secs=$SECS
	rcs=$((rcs + RC))
	bg_record "deaf$round" -F 99 -m 1024 -d 3
	pids=()
	for i in 1 2 3; do hj_bg "$OWNER" "$TMP/deaf$round-$i.out" plain; pids+=("$HJ"); done
	wait_rec
	kill -9 "${pids[@]}" 2>/dev/null # (spinning: they have done their part)
	k=$(stat_of "$TMP/deaf$round.data" samples); deaf=$((deaf + ${k:-0}))
	le "$SECS" "$deaf_secs" || deaf_secs=$SECS
	rcs=$((rcs + RC))
	# each JVM found is given up on in one line with a reason
	n=$(sed -n 's/.* \([0-9]*\) JVMs: .*/\1/p' "$TMP/deaf$round.err")
	found=$((found + ${n:-0}))
	for p in "${pids[@]}"; do
		[ "$(grep -c "java frames unavailable for JVM $p: ." "$TMP/deaf$round.err")" -eq 1 ] && said=$((said + 1))
	done
	sed 's/^/# /' "$TMP/deaf$round.err"
done
check "1: three never-answering JVMs started during -a -d 3: it ends ${deaf_secs} s after its start at the latest (<= 7; ${base_secs} s without them), rc $rcs" \
	all test "$rcs" -eq 0 -- le "$deaf_secs" 7
check "1: ... keeps $deaf samples, >= 70% of the $base of the same recording without them" \
	test "$((deaf * 100))" -ge "$((base * 70))"
check "1: ... each found ($found of 6) given up on once, in one line with a reason ($said)" \
	test "$found" -ge 1 -a "$said" -eq "$found"

# SIGINT while their attaches wait: at once, not when they give up
bg_record int -F 99
pids=() outs=()
for i in 1 2 3; do hj_bg "$OWNER" "$TMP/int$i.out" plain; pids+=("$HJ"); outs+=("$TMP/int$i.out"); done
asked() { lines_at sigquit "${outs[@]}"; [ "$N" -ge 1 ]; }
wait_for 60 asked
T0=$(date +%s%N)
kill -INT "$REC"
wait_rec
kill -9 "${pids[@]}" 2>/dev/null
check "1: SIGINT while a never-answering JVM's attach waits: ends ${SECS} s later (<= 4), rc $RC" \
	all asked -- test "$RC" -eq 0 -- le "$SECS" 4

# --- 2: agents that flood names: three users, two agents each, 70,000
# names an agent (82 MB as the reader charges them: two agents are past
# their user's share, six past the 400 MB, so that a reader that kept them
# all would fail)
pids=() outs=()
for u in "$OWNER" "$U2" "$U3"; do
	for i in 1 2; do
		hj "$u" "$TMP/flood-$u-$i.out" names 70000 1024
		pids+=("$HJ"); outs+=("$TMP/flood-$u-$i.out")
	done
done
# (-p: the reader's own memory, not the machine's processes' symbols)
"$PJ_BIN" record -p "$(IFS=,; echo "${pids[*]}")" -F 99 -o "$TMP/flood.data" 2>"$TMP/flood.err" &
REC=$!; track "$REC"
T0=$(date +%s%N)
all_sent() { # (or the recorder gone)
	hwm_until_gone "$REC" && return 0
	lines_at 'hello sent' "${outs[@]}"
	[ "$N" -eq ${#outs[@]} ]
}
HWM=0
wait_for 300 all_sent
kill -INT "$REC"
hwm=$HWM
wait_rec
kill -9 "${pids[@]}" 2>/dev/null
[ "$HWM" -lt "$hwm" ] && HWM=$hwm
over=$(stat_of "$TMP/flood.data" agent_over_budget)
check "2: six agents of three users flooding names: the reader's peak RSS $HWM MB (<= 400), the budget reached (${over:-0} messages dropped), rc $RC" \
	all test "$RC" -eq 0 -a "$HWM" -le 400 -a "${over:-0}" -gt 0 -- \
	test "$(grep -l '^hello sent' "${outs[@]}" | wc -l)" -eq 6
sed 's/^/# /' "$TMP/flood.err"

# one user's three agents, and another user's JVM: its Java frames kept
# (the three agents' 246 MB are past the budget as well: without the shares
# they would take it all)
if [ ${#JDKS[@]} -gt 0 ] && compile_java; then
	classes=$(mktemp -d /var/tmp/pj-classes.XXXXXX)
	SEC_FILES+=("$classes")
	cp -r "$CLASSES"/. "$classes/"; chmod -R a+rX "$classes"
	: >"$TMP/victim.out"
	(cd "$home" && exec setpriv --reuid="$VICTIM" --regid=nogroup --clear-groups \
		--no-new-privs "${JDKS[0]}/bin/java" "-Dtag=$TMP" -cp "$classes" Workload 300 1) \
		>"$TMP/victim.out" 2>&1 &
	track $!
	wait_for 60 grep -qs '^ready' "$TMP/victim.out"
	victim=$(awk '/^ready/ { print $2; exit }' "$TMP/victim.out"); track "$victim"
	pids=() outs=()
	for i in 1 2 3; do
		hj "$OWNER" "$TMP/share$i.out" names 70000 1024
		pids+=("$HJ"); outs+=("$TMP/share$i.out")
	done
	"$PJ_BIN" record -p "$(IFS=,; echo "${pids[*]}"),$victim" -F 99 -o "$TMP/share.data" 2>"$TMP/share.err" &
	REC=$!; track "$REC"
	T0=$(date +%s%N)
	wait_for 300 all_sent
	kill -INT "$REC"
	wait_rec
	kill -9 "${pids[@]}" "$victim" 2>/dev/null
	"$PJ_BIN" report -i "$TMP/share.data" --pid "$victim" --format collapsed >"$TMP/share.col" 2>&1
	j=$(awk '/Workload\.method/ { j += $NF } { n += $NF } END { printf "%d of %d", j, n }' "$TMP/share.col")
	check "2: three agents of one user past its share: another user's JVM keeps its Java frames ($j samples), rc $RC" \
		all test "$RC" -eq 0 -- grep -q 'Workload\.method' "$TMP/share.col" -- \
		test "$(stat_of "$TMP/share.data" agent_over_budget)" -gt 0
	sed 's/^/# /' "$TMP/share.err"
	if ! grep -q 'Workload\.method' "$TMP/share.col"; then
		# (why the victim went: its output, a crash file in its cwd)
		tail -n 20 "$TMP/victim.out" | sed 's/^/# victim: /'
		for f in "$home"/hs_err_pid*.log; do
			[ -f "$f" ] && head -n 40 "$f" | sed 's/^/# hs_err: /'
		done
	fi
else
	skip "2: another user's JVM beside one user's flooding agents" "no JDK, or javac failed"
fi

# --- 6: one user's processes past its share of the process table
: >"$TMP/procs.out"
(cd "$home" && exec setpriv --reuid="$OWNER" --regid=nogroup --clear-groups \
	--no-new-privs "$BIN/hostile_native" procs 100 60) >"$TMP/procs.out" 2>&1 &
NP=$!; track "$NP"
wait_for 30 grep -qs '^ready' "$TMP/procs.out"
PERFJAVA_MACHINE_PROCS=256 bg_record table -e offcpu -d 4
: >"$TMP/waits.out"
(cd "$home" && exec setpriv --reuid="$VICTIM" --regid=nogroup --clear-groups \
	--no-new-privs "$BIN/waits" 3) >"$TMP/waits.out" 2>&1 &
W=$!; track "$W"
wait_rec
"$PJ_BIN" report -i "$TMP/table.data" --processes --top 100000 >"$TMP/table.txt" 2>&1
"$PJ_BIN" report -i "$TMP/table.data" --pid "$W" --format collapsed >"$TMP/table.col" 2>&1
# (named: its command line after it; unnamed ones show their comm; one
# pass over the table, not a grep for each of the 101)
mine=$({ echo "$NP"; pgrep -P "$NP"; } | awk '
	NR == FNR { want[$1] = 1; next }
	{ s = $0
	  while (match(s, /\[hostile_native pid=[0-9]+\]  ./)) {
		c = substr(s, RSTART + 20, RLENGTH - 24)
		if ((c in want) && !(c in seen)) { seen[c] = 1; n++ }
		s = substr(s, RSTART + RLENGTH) } }
	END { print n + 0 }' - "$TMP/table.txt")
kill -9 "$NP" 2>/dev/null # (its children with it: PR_SET_PDEATHSIG)
uid=$(id -u "$OWNER")
# (procs_unnamed_uids: "UID PROCS SAMPLES,...")
theirs=$("$PJ_BIN" report -i "$TMP/table.data" --format meta 2>/dev/null |
	awk -v u="$uid" '$2 == "procs_unnamed_uids" { $1 = $2 = ""; n = split($0, e, ",")
		for (i = 1; i <= n; i++) { split(e[i], f, " "); if (f[1] == u) print f[2] } }')
named=0 frames=0
grep -q "\[waits pid=$W\]  .*waits 3" "$TMP/table.txt" && named=1
grep -q 'wait_sleep' "$TMP/table.col" && frames=1
check "6: 100 processes of one user, a table of 256: another user's process later is named, command line and user frames (rc $RC)" \
	test "$RC" -eq 0 -a "$named" -eq 1 -a "$frames" -eq 1
[ "$named" -eq 1 ] ||
	echo "# 6: waits (pid $W) not named so: '$(grep -m1 "pid=$W\]" "$TMP/table.txt" | cut -c1-160)'"
[ "$frames" -eq 1 ] ||
	{ echo "# 6: no wait_sleep under pid $W; its stacks:"; head -5 "$TMP/table.col" | cut -c1-200 | sed 's/^/#   /'; }
check "6: ... the first user has at most its share (64) named ($mine), the rest counted for its uid (${theirs:-none})" \
	test "$mine" -le 64 -a "${theirs:-0}" -ge 1
grep 'processes (' "$TMP/table.err" | sed 's/^/# /'

# --- 9: JVMs that refuse the attach, started during -a
if [ ${#JDKS[@]} -gt 0 ] && compile_java; then
	bg_record refuse -F 99
	start_jvm "${JDKS[0]}" "$TMP/dis.out" -XX:+DisableAttachMechanism "-Dtag=$TMP" -- Workload 60 1
	dis=$JPID
	hj "$OWNER" "$TMP/ver.out" version 3
	ver=$HJ
	said() {
		grep -q "java frames unavailable for JVM $dis: .*DisableAttachMechanism" "$TMP/refuse.err" &&
			grep -q "java frames unavailable for JVM $ver: .*another protocol version" "$TMP/refuse.err"
	}
	wait_for 60 said
	kill -INT "$REC"
	wait_rec
	check "9: -XX:+DisableAttachMechanism and another protocol version under -a: each said in one line, with its reason, while it records (rc $RC)" \
		all test "$RC" -eq 0 -- said -- \
		test "$(grep -c "java frames unavailable for JVM \($dis\|$ver\)" "$TMP/refuse.err")" -eq 2 -- \
		not_grep 'Full thread dump' "$TMP/dis.out"
	sed 's/^/# /' "$TMP/refuse.err"
	kill -9 "$dis" "$ver" 2>/dev/null
else
	skip "9: JVMs that refuse the attach under -a" "no JDK, or javac failed"
fi
echo "1..$_tap_n"
