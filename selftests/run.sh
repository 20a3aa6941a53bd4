#!/usr/bin/env bash
# Runs every test of selftests/: the unit binaries built from selftests/unit/
# and every executable selftests/<part>/test_*.sh. Each prints TAP lines
# ("ok", "not ok", "ok ... # SKIP reason"); this script renumbers them into one
# TAP stream, each test's lines together as it ends, and ends with the
# summary line "N passed, N failed, N skipped".
# Select tests with T=<substring> (e.g. `make check T=ring`), or several
# substrings separated by commas (T=selftests/test_,selftests/record/);
# TX=<substrings> leaves those out. PJ_KEEP=1 keeps each test's temporary
# directory (/tmp/pj-test.*) and names it.
#
# Tests run PJ_JOBS at a time (default: the cores). A test whose file has a
# line "# alone: REASON" runs with no other test of this run beside it: those
# that record the whole machine (-a, which the others would join) and the
# heaviest (spinners on every core, thread churn); tests timed to the second
# leave room for a neighbour instead. The others start longest first, by the
# times of the last run ($BUILD/.selftests-times: a test's wall and CPU
# seconds), or of a quiet run on 2 cores (selftests/times) in a new checkout.
# One more test than PJ_JOBS may run while the machine has CPU idle (a
# tenth of it or more since the last look, over a second at least) and the
# CPU shares of the running ones and its own, by those times, come to at
# most half a core more than PJ_JOBS cores: a test that waits (on a browser,
# a JVM's attach, a timeout) leaves its core idle meanwhile, and a share
# measured beside another test is below what the test would take alone.
# Beside another make check the machine has no idle CPU: no more than
# PJ_JOBS run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
export PJ_TOP=$top PJ_BUILD=$build PJ_BIN=$build/perfjava
per_test_timeout=${PJ_TEST_TIMEOUT:-900}
jobs=${PJ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || jobs=1
times_file=$build/.selftests-times
known_times=$times_file
[ -s "$known_times" ] || known_times=$top/selftests/times

# picked NAME: whether T and TX select the test
picked() {
	local sub want
	if [ -n "${T:-}" ]; then
		want=0
		IFS=, read -ra subs <<<"$T"
		for sub in "${subs[@]}"; do [[ "$1" == *"$sub"* ]] && want=1; done
		[ "$want" -eq 1 ] || return 1
	fi
	if [ -n "${TX:-}" ]; then
		IFS=, read -ra subs <<<"$TX"
		for sub in "${subs[@]}"; do [[ "$1" == *"$sub"* ]] && return 1; done
	fi
	return 0
}

alone=() pool=()
for t in "$build"/selftests/test_* "$top"/selftests/*/test_*.sh; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	name=${t#"$top"/}; name=${name#"$build"/}
	picked "$name" || continue
	if [ "$jobs" -gt 1 ] && [[ "$t" == *.sh ]] && grep -q '^# alone:' "$t"; then
		alone+=("$t")
	else
		pool+=("$t")
	fi
done
# the pool longest first, by the known times (unknown ones first: new), and
# each test's share of the cores while it runs: its CPU seconds over its
# wall seconds, in hundredths (100, a core, when not known)
declare -A share=()
if [ "$jobs" -gt 1 ] && [ -s "$known_times" ] && [ ${#pool[@]} -gt 1 ]; then
	mapfile -t pool < <(for t in "${pool[@]}"; do
		name=${t#"$top"/}; name=${name#"$build"/}
		awk -v n="$name" -v t="$t" '$1 == n && s == "" { s = $2; c = $3 }
			END { w = 100; if (s > 0 && c != "") w = 100 * c / s
				if (s == "") s = 999999
				printf "%s\t%d\t%s\n", s, w, t }' "$known_times"
	done | sort -t$'\t' -k1,1nr -s | cut -f2-)
	for i in "${!pool[@]}"; do
		share[${pool[$i]#*$'\t'}]=${pool[$i]%%$'\t'*}
		pool[$i]=${pool[$i]#*$'\t'}
	done
fi

pass=0 fail=0 skip=0 n=0 cpu_total=0
start=$(date +%s)
work=$(mktemp -d /tmp/pj-run.XXXXXX)
# python3 as PATH names it, without a version manager's shim in front
# (pyenv's, a shell script, costs half a second of CPU a call)
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ] && mkdir "$work/bin" && ln -s "$py" "$work/bin/python3"; then
	export PATH="$work/bin:$PATH"
fi
declare -A running=() # slot id -> test path
new_times=()
_run_cleanup() {
	local id
	for id in "${!running[@]}"; do
		[ -s "$work/$id.pid" ] && kill -TERM "$(cat "$work/$id.pid")" 2>/dev/null
	done
	rm -rf "$work"
}
trap _run_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# launch ID TEST: the test in the background, its output in $work/ID.out,
# its status in $work/ID.rc and its seconds in $work/ID.secs once it ends:
# wall time, and the CPU time of its processes (those it waited for), which
# the load of the machine changes less
launch() {
	local id=$1 t=$2
	running[$id]=$t
	(
		t0=$(date +%s)
		cd "$top" && timeout -k 10 "$per_test_timeout" "$t" >"$work/$id.out" 2>&1 &
		echo $! >"$work/$id.pid"
		wait $!
		rc=$?
		times >"$work/$id.times" # (in this shell: its children's)
		cpu=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) {
			split($i, a, /[ms]/); s += a[1] * 60 + a[2] }; printf "%.1f", s }' "$work/$id.times")
		echo "$(($(date +%s) - t0)) $cpu" >"$work/$id.secs"
		echo "$rc" >"$work/$id.rc.tmp" && mv "$work/$id.rc.tmp" "$work/$id.rc"
	) &
}

# finish ID: prints the test's lines, renumbered, and counts them
finish() {
	local id=$1 t=${running[$1]} name rc seen=0 line desc secs cpu
	name=${t#"$top"/}; name=${name#"$build"/}
	rc=$(cat "$work/$id.rc")
	read -r secs cpu <"$work/$id.secs"
	unset "running[$id]"
	echo "# $name"
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "*)
			seen=$((seen + 1)); n=$((n + 1))
			desc=$(sed -E 's/^(not )?ok [0-9]* *-? *//' <<<"$line")
			if [[ "$line" == "not ok"* ]]; then
				fail=$((fail + 1)); echo "not ok $n - $name: $desc"
			elif [[ "$line" =~ \#\ *[Ss][Kk][Ii][Pp] ]]; then
				skip=$((skip + 1)); echo "ok $n - $name: $desc"
			else
				pass=$((pass + 1)); echo "ok $n - $name: $desc"
			fi ;;
		"1.."*) ;;
		*) echo "#   $line" ;;
		esac
	done <"$work/$id.out"
	if [ "$rc" -ne 0 ]; then
		n=$((n + 1)); fail=$((fail + 1))
		why="exited with $rc"; [ "$rc" -eq 124 ] && why="timed out after ${per_test_timeout}s"
		echo "not ok $n - $name: $why"
	elif [ "$seen" -eq 0 ]; then
		n=$((n + 1)); fail=$((fail + 1))
		echo "not ok $n - $name: printed no test result"
	fi
	echo "# $name took ${secs}s (${cpu}s of CPU)"
	new_times+=("$name $secs $cpu")
	cpu_total=$(awk -v a="$cpu_total" -v b="$cpu" 'BEGIN { print a + b }')
	rm -f "$work/$id".*
}

# reap: prints every test that has ended; waits for one when none has
reap() {
	local id done=0
	while :; do
		for id in "${!running[@]}"; do
			[ -e "$work/$id.rc" ] && { finish "$id"; done=1; }
		done
		[ "$done" -eq 1 ] || [ ${#running[@]} -eq 0 ] && return
		wait -n 2>/dev/null || sleep 0.1 # (a child has ended: look again)
	done
}

next=0
for t in "${alone[@]}"; do
	launch $next "$t"; next=$((next + 1))
	while [ ${#running[@]} -gt 0 ]; do reap; done
done
# idle_look: idle, the percentage of the machine's CPU time idle since the
# last look that was a second or more before (from /proc/stat; 0 unknown)
idle=0 cpu_then=''
cores=$(nproc 2>/dev/null || echo 1)
idle_look() {
	local cpu u n s i w q sq st now
	read -r cpu u n s i w q sq st _ </proc/stat 2>/dev/null || return
	[ "$cpu" = cpu ] || return
	now="$((u + n + s + i + w + q + sq + st)) $((i + w))"
	if [ -z "$cpu_then" ]; then
		cpu_then=$now
		return
	fi
	set -- $cpu_then $now
	# (USER_HZ is 100: a second is 100 ticks of each core)
	[ $(($3 - $1)) -ge $((100 * cores)) ] || return
	idle=$((100 * ($4 - $2) / ($3 - $1)))
	cpu_then=$now
}

# fits: the index in pending of the next test to start now, if any
fits() {
	local id used=0 i
	if [ ${#running[@]} -lt "$jobs" ]; then
		echo 0
		return
	fi
	[ "$jobs" -gt 1 ] && [ ${#running[@]} -eq "$jobs" ] && [ "$idle" -ge 10 ] || return 1
	for id in "${!running[@]}"; do used=$((used + ${share[${running[$id]}]:-100})); done
	for i in "${!pending[@]}"; do
		if [ $((used + ${share[${pending[$i]}]:-100})) -le $((100 * jobs + 50)) ]; then
			echo "$i"
			return
		fi
	done
	return 1
}

pending=("${pool[@]}")
while [ ${#pending[@]} -gt 0 ]; do
	idle_look
	if ! i=$(fits); then
		reap
		continue
	fi
	launch $next "${pending[$i]}"; next=$((next + 1))
	unset "pending[$i]"
	pending=("${pending[@]}")
done
while [ ${#running[@]} -gt 0 ]; do reap; done

# the times of this run, for the next one's order (the tests not run keep theirs)
if [ ${#new_times[@]} -gt 0 ] && mkdir -p "$build" 2>/dev/null; then
	{
		printf '%s\n' "${new_times[@]}"
		[ -f "$times_file" ] && cat "$times_file"
	} | awk '!seen[$1]++' >"$times_file.tmp" && mv "$times_file.tmp" "$times_file"
fi
echo "1..$n"
echo "# total time $(($(date +%s) - start))s, $cpu_total s of CPU, $jobs at a time"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
