#!/usr/bin/env bash
# -e lock is contention, not idle pools (issue 47): a JVM with idle pools
# (threads polling a queue, a scheduled pool, Object.wait, sleep, a latch,
# a future, a hand-off, all waking every 20 ms) beside three contended
# sites (LockIdle.java, which measures its own time to acquire each):
# - the idle Condition waits (ConditionObject.await*) are at most 5% of the
#   lock time, and nothing of the idle threads is there;
# - each contended site within 5 pp of the program's own share (or three
#   standard errors, when fewer samples make that wider);
# - a ReentrantLock's wait names the thread that held it (owner=lk-N);
# - after an async-profiler lock session in the same JVM (which binds
#   Unsafe.park to its own hook), perfjava's next -e lock still sees the
#   java.util.concurrent sites (or says in one line why not), and while one
#   runs both see them; HotSpot prints no warning for binding park again.
# JDK 17 and 25.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "lock contention beside idle pools"
SITES="lockMonitor lockReentrant lockSemaphore"

# shares FOLDED: "WHAT PCT" of the weight (collapsed --total) for the idle
# Condition waits, the idle threads' stacks, and each site
shares() {
	awk '{ n = $NF; t += n
		if ($0 ~ /ConditionObject\.await/) c += n
		if ($0 ~ /LockIdle\.(idle|lambda\$idle)/) i += n
		if ($0 ~ /LockIdle\.lockMonitor/) m += n
		if ($0 ~ /LockIdle\.lockReentrant/) r += n
		if ($0 ~ /LockIdle\.lockSemaphore/) s += n }
		END { p = t ? 100 / t : 0
		printf "condition %.2f\nidle %.2f\n", c * p, i * p
		s3 = m + r + s; q = s3 ? 100 / s3 : 0
		printf "LockIdle.lockMonitor %.2f\nLockIdle.lockReentrant %.2f\nLockIdle.lockSemaphore %.2f\n", m * q, r * q, s * q }' "$1"
}

# record_lock LABEL D NAME SECONDS: records -e lock into D/NAME.data, its
# collapsed (weight and sample counts) and shares beside it
record_lock() {
	local label=$1 d=$2 name=$3 secs=$4
	"$PJ_BIN" record -p "$JPID" -e lock -d "$secs" -o "$d/$name.data" 2>"$d/$name.err"
	check "$label: record exits 0" [ $? -eq 0 ] || sed 's/^/# /' "$d/$name.err"
	grep -E '^perfjava: lock' "$d/$name.err" | sed 's/^/# /'
	"$PJ_BIN" report -i "$d/$name.data" --total --format collapsed >"$d/$name.folded"
	"$PJ_BIN" report -i "$d/$name.data" --format collapsed >"$d/$name.count"
	shares "$d/$name.folded" >"$d/$name.share"
}

# check_sites LABEL D NAME [SITE...]: the sites' shares (among them) within
# 5 pp of the program's truth over the window the recording covers: the
# waits that began and ended in it (wait_truth; a loaded machine stops the
# JVM for seconds, and a wait begun before the recording, which no
# profiler that times waits has, would weigh all its length at the start)
check_sites() {
	local label=$1 d=$2 name=$3 s truth got n tol win; shift 3
	[ $# -gt 0 ] || set -- $SITES
	n=$(awk '/LockIdle\.lock(Monitor|Reentrant|Semaphore)/ { n += $NF } END { print n + 0 }' "$d/$name.count")
	win=$(wait_window "$d/$name.data" 'LockIdle\.lock(Monitor|Reentrant|Semaphore)')
	wait_truth "$d/w.out" ${win:-0 0 0} LockIdle $SITES >"$d/$name.truth"
	check "$label: enough samples of the sites to compare ($n >= 100)" [ "$n" -ge 100 ]
	for s in "$@"; do
		truth=$(awk -v f="LockIdle.$s" '$1 == f { print $2 }' "$d/$name.truth")
		got=$(awk -v f="LockIdle.$s" '$1 == f { print $2 }' "$d/$name.share")
		tol=$(share_tol "${truth:-0}" "$n" 5)
		echo "# $label $s truth ${truth:-?}% perfjava ${got:-?}% ($n samples, window $win)"
		check "$label: $s within $tol pp of the program's own (truth $truth, got $got)" \
			awk -v a="${truth:-0}" -v b="${got:-100}" -v t="$tol" \
				'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
	done
}

asprof_build || true
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	# it runs until killed below (two minutes at most)
	start_jvm "$jdk" "$D/w.out" -- LockIdle 4 120000
	if [ -z "$JPID" ]; then
		not_ok "$J: the JVM starts"
		continue
	fi

	# --- alone: contention, not the idle pools
	record_lock "$J" "$D" alone 4
	cond=$(awk '$1 == "condition" { print $2 }' "$D/alone.share")
	idle=$(awk '$1 == "idle" { print $2 }' "$D/alone.share")
	echo "# $J: idle Condition waits ${cond}% of the lock time, idle threads' stacks ${idle}%"
	check "$J: idle Condition waits <= 5% of -e lock's time (${cond}%)" \
		awk -v p="${cond:-100}" 'BEGIN { exit !(p <= 5) }'
	check "$J: the idle threads' waits (poll, sleep, wait, latch, future, hand-off) <= 5% (${idle}%)" \
		awk -v p="${idle:-100}" 'BEGIN { exit !(p <= 5) }'
	check_sites "$J" "$D" alone
	check "$J: a ReentrantLock's wait names its owner (owner=lk-N)" \
		bash -c "'$PJ_BIN' report -i '$D/alone.data' --format script | grep -qE 'lock: owner=lk-[0-9]'"
	check "$J: the summary counts the waits by kind" \
		grep -qE 'entering a monitor .* parked to acquire a java.util.concurrent lock' "$D/alone.err"

	if [ -z "${ASPROF:-}" ]; then
		skip "$J: beside async-profiler" "$ASPROF_WHY"
		continue
	fi
	# --- after an async-profiler lock session: it bound Unsafe.park to
	# its own hook, over perfjava's
	"$ASPROF" start -e lock "$JPID" >"$D/ap1.log" 2>&1
	"$ASPROF" stop -o collapsed -f "$D/ap1.folded" "$JPID" >>"$D/ap1.log" 2>&1
	record_lock "$J after async-profiler" "$D" after 3
	if grep -q 'java.util.concurrent waits not seen' "$D/after.err"; then
		ok "$J after async-profiler: perfjava says why it sees no java.util.concurrent wait: $(grep 'not seen' "$D/after.err")"
	else
		check_sites "$J after async-profiler" "$D" after lockReentrant lockSemaphore
		check "$J after async-profiler: the summary says the hook was bound again" \
			grep -q 'bound again' "$D/after.err"
	fi

	# --- while async-profiler records locks too: both see the parks
	"$ASPROF" start -e lock "$JPID" >"$D/ap2.log" 2>&1
	record_lock "$J with async-profiler" "$D" with 3
	"$ASPROF" stop -o collapsed --total -f "$D/ap2.folded" "$JPID" >>"$D/ap2.log" 2>&1
	check_sites "$J with async-profiler" "$D" with lockReentrant lockSemaphore
	# (its session is longer than perfjava's, its window its own: said)
	shares "$D/ap2.folded" | awk '/^LockIdle/ { sub(/LockIdle\.lock/, ""); printf " %s %s%%", $1, $2 }
		END { print "" }' | sed "s/^/# $J: async-profiler's own lock session, time waited by site:/"
	apr=$(awk '/LockIdle\.lockReentrant/ { n += $NF } END { printf "%.0f\n", n }' "$D/ap2.folded" 2>/dev/null)
	check "$J with async-profiler: ... and async-profiler still sees the ReentrantLock (${apr:-0} ns)" \
		[ "${apr:-0}" -gt 0 ]
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null || true
	check "$J: the JVM printed nothing of ours" [ -z "$(jvm_own_stderr "$D/w.out.err")" ]
	# park bound again over async-profiler's, from the boot class: HotSpot
	# warns on stdout when a boot class's native is bound from outside it
	check "$J: ... nor any JVM warning on its stdout after binding park again" \
		[ -z "$(grep '\[warning\]' "$D/w.out")" ]
done
