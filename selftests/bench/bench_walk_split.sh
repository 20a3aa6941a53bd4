#!/usr/bin/env bash
# Where each microsecond of a sample goes in the sampled thread: the Gaps
# program (selftests/java/src/Gaps.java) reads the clock in a tight loop at
# the bottom of a recursion (shallow: none; deep: 200 calls) and keeps every
# step longer than 1 us, a gap: time taken from it. Each sample of perfjava
# falls inside the gap it cost, so the gap that holds a sample's time is that
# sample's whole cost to the thread (the kernel's interrupt and sample, the
# signal, the agent's handler and the return). In one JVM per JDK (17, 25)
# and depth, windows of PJ_BENCH_WINDOW (3) s at 1 kHz (a sample every
# PJ_BENCH_SPLIT_MS ms: 10 for the default rate, 100 Hz), PJ_BENCH_ROUNDS (2)
# rounds of:
#   nojava   perfjava --no-java (the kernel's sample alone)
#   nojavafp perfjava --no-java -g fp
#   pj       perfjava (the default call graph)
#   pjfp     perfjava -g fp
#   ap       async-profiler 4.5 -e cpu -i 1ms, or the same period (its samples carry no time:
#            its cost is the thread's excess gap time over the idle windows
#            around it, per sample it took of the thread)
# Printed per JDK and depth: each configuration's median and mean gap per
# sample (us; the mean leaves out gaps over 1 ms, preemptions), then the
# split of perfjava's (medians: a loaded machine preempts some samples):
# the kernel's sample (the --no-java gap), the signal and its return (what
# is left), the handler's parts as the agent times them (entry, the walk,
# recoveries, frame typing, ring write; their means too) and the agent
# thread's CPU time per walk (not in the sampled thread: on another CPU,
# but the target's all the same).
# Last, the floor under it (selftests/progs/sigfloor.c): the same event
# sampling a C thread, alone and with its SIGTRAP to a handler that
# returns at once, PJ_BENCH_FLOOR_ROUNDS (5) rounds: the signal's delivery
# and return that any walk at the sample pays on this machine.
# Figures only: it never fails on a timing.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
win=${PJ_BENCH_WINDOW:-3}
rounds=${PJ_BENCH_ROUNDS:-2}
ms=${PJ_BENCH_SPLIT_MS:-1}
[[ "$ms" =~ ^[1-9][0-9]*$ ]] || { echo "PJ_BENCH_SPLIT_MS: a whole number of ms"; exit 1; }
rate="$((1000 / ms)) Hz"
[ "$ms" = 1 ] && rate="1 kHz"
edge=300000000 # windows lose 0.3 s at each end (attach, detach)
ASPROF=$PJ_BUILD/async-profiler-4.5/build/bin/asprof
[ -x "$ASPROF" ] || { echo "no $ASPROF (make bench's bench_walk.sh builds it): perfjava alone"; ASPROF=; }

# window NAME CMD...: runs CMD, appends "NAME START END" (monotonic ns)
window() {
	local name=$1 s e
	shift
	s=$(mono)
	"$@"
	e=$(mono)
	echo "$name $s $e" >>"$res"
}
pj_window() { # pj_window TAG [record options]: a sample every $ms ms
	local f=$D/$1
	shift
	"$PJ_BIN" record -p "$JPID" -c $((ms * 1000000)) -d "$win" -o "$f.data" "$@" 2>"$f.err"
	# the times (ns) of the Gaps thread's samples
	"$PJ_BIN" report -i "$f.data" --format script 2>/dev/null |
		awk '$1 == "gaps" { sub(/:$/, "", $4); printf "%.0f\n", $4 * 1e9 }' >"$f.times"
	"$PJ_BIN" report -i "$f.data" --format meta >"$f.meta" 2>/dev/null
}
ap_window() {
	local f=$D/$1
	"$ASPROF" start -e cpu -i "${ms}ms" "$JPID" >/dev/null 2>&1
	sleep "$win"
	"$ASPROF" stop -o collapsed -f "$f.folded" "$JPID" >/dev/null 2>&1
}
idle_window() { sleep "$win"; }

# matched TAG: "median mean count" of the gaps (us) that hold a sample of
# the window's recording (the gap's start up to 2 us after its end: the
# script's times are in us)
matched() {
	awk 'NR == FNR { t[++n] = $1; next }
		$1 == "gap" { gs[++g] = $2; gl[g] = $3 }
		END {
			j = 1
			for (i = 1; i <= n; i++) {
				while (j <= g && gs[j] + gl[j] + 2000 < t[i]) j++
				if (j <= g && gs[j] <= t[i] + 1000) print gl[j] / 1000
			}
		}' "$D/$1.times" "$out" | sort -g | awk '
		{ v[++n] = $1; if ($1 < 1000) { s += $1; m++ } }
		END { if (n) printf "%.1f %.1f %d\n", v[int((n + 1) / 2)], m ? s / m : 0, n; else print "- - 0" }'
}

# excess NAME SAMPLES: async-profiler's cost per sample, us: the gap time
# (under 1 ms each) of its window beyond the idle windows' rate, per sample
excess() {
	awk -v w="$1" -v n="$2" -v edge="$edge" '
		NR == FNR { nm[NR] = $1; s[NR] = $2 + edge; e[NR] = $3 - edge; k = NR; next }
		$1 == "gap" && $3 < 1e6 { for (i = 1; i <= k; i++) if ($2 >= s[i] && $2 < e[i]) t[i] += $3 }
		END {
			for (i = 1; i <= k; i++) {
				if (nm[i] != w) continue
				b = 0; c = 0
				for (j = i - 1; j <= i + 1; j += 2)
					if (j >= 1 && j <= k && nm[j] ~ /^idle/) { b += t[j] / (e[j] - s[j]); c++ }
				if (!c || !n) { print "-"; exit }
				x = t[i] - b / c * (e[i] - s[i])
				printf "%.1f\n", x / n / 1000 * (e[i] - s[i]) / (e[i] - s[i] + 2 * edge)
			}
		}' "$res" "$out"
}

stat() { awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }' "$1"; }

# parts TAG: the agent's figures per walk (us): the median walk's entry
# walk recover type ring, the same as means, and the session thread's CPU
# per walk
parts() {
	local m=$D/$1.meta t p
	t=$(stat "$m" walk_agent_timed)
	# a round without the agent's figures (none timed) is left out of
	# the medians, not counted as zeros
	if [ "${t:-0}" -le 0 ]; then
		echo "# $J $1: no agent figures ($(grep -c '^stat walk' "$m") walk stats; $(grep -oE '^perfjava: java[^;]*' "$D/$1.err" | head -1))" >&2
		return 0
	fi
	for p in entry walk recover type ring; do
		awk -v v="$(stat "$m" walk_agent_${p}_med_ns)" 'BEGIN { printf "%.2f ", v / 1000 }'
	done
	for p in entry walk recover type ring; do
		awk -v v="$(stat "$m" walk_agent_${p}_ns)" -v n="${t:-0}" \
			'BEGIN { printf "%.2f ", n ? v / n / 1000 : 0 }'
	done
	awk -v v="$(stat "$m" walk_agent_pump_ns)" -v n="$(stat "$m" walk_agent_pumped)" \
		'BEGIN { printf "%.2f\n", n ? v / n / 1000 : 0 }'
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	for depth in ${PJ_BENCH_DEPTHS:-0 200}; do
		D=$TMP/$J.$depth
		mkdir -p "$D"
		out=$D/out
		res=$D/res
		: >"$res"
		per_round=9
		[ -n "$ASPROF" ] || per_round=7
		start_jvm "$jdk" "$out" -- Gaps $((rounds * per_round * (win + 10) + 30)) "$depth" "$D/go" "$D/stop" || continue
		wait_for 60 grep -q '^warm' "$out" || { echo "$J: Gaps not warm in 60 s"; continue; }
		touch "$D/go"
		window idle0 idle_window
		for r in $(seq "$rounds"); do
			window "nojava.$r" pj_window "nojava.$r" --no-java
			window "nojavafp.$r" pj_window "nojavafp.$r" --no-java -g fp
			window "pj.$r" pj_window "pj.$r"
			window "idle.a$r" idle_window
			window "pjfp.$r" pj_window "pjfp.$r" -g fp
			window "idle.b$r" idle_window
			if [ -n "$ASPROF" ]; then
				window "ap.$r" ap_window "ap.$r"
				window "idle.c$r" idle_window
			fi
		done
		touch "$D/stop"
		wait_for 60 grep -q '^end' "$out" ||
			{ echo "$J depth $depth: Gaps did not end"; continue; }
		what=shallow
		[ "$depth" = 0 ] || what="deep ($depth calls)"
		echo "# $J, $what: gap per sample in the sampled thread, us (median, mean), medians over $rounds rounds of $win s at $rate"
		for tag in nojava nojavafp pj pjfp; do
			for r in $(seq "$rounds"); do matched "$tag.$r"; done >"$D/$tag.m"
			printf "%s: %-7s median %5s mean %5s (%s samples)\n" "$J" "$tag" \
				"$(cut -d' ' -f1 "$D/$tag.m" | median)" "$(cut -d' ' -f2 "$D/$tag.m" | median)" \
				"$(cut -d' ' -f3 "$D/$tag.m" | median)"
		done
		if [ -n "$ASPROF" ]; then
			for r in $(seq "$rounds"); do
				n=$(awk '/Gaps\.spin/ { s += $NF } END { print s + 0 }' "$D/ap.$r.folded" 2>/dev/null)
				excess "ap.$r" "${n:-0}"
			done >"$D/ap.m"
			echo "$J: ap      excess $(median <"$D/ap.m") us per sample (its samples carry no time)"
		fi
		for tag in pj pjfp; do
			base=nojava
			[ "$tag" = pj ] || base=nojavafp
			for r in $(seq "$rounds"); do parts "$tag.$r"; done >"$D/$tag.parts"
			p=$(for c in $(seq 11); do cut -d' ' -f$c "$D/$tag.parts" | median; done | tr '\n' ' ')
			awk -v j="$J" -v t="$tag" -v p="$p" -v k="$(cut -d' ' -f1 "$D/$base.m" | median)" \
				-v g="$(cut -d' ' -f1 "$D/$tag.m" | median)" 'BEGIN {
				split(p, v, " ")
				h = v[1] + v[2] + v[3] + v[4] + v[5]
				printf "%s: %-7s split (us per sample, medians): kernel sample %.1f (its --no-java), signal and return %.1f, handler %.2f (entry %.2f, walk %.2f, recoveries %.2f, frame typing %.2f, ring write %.2f; means %.2f %.2f %.2f %.2f %.2f); agent thread CPU %.2f per walk; over its --no-java %.1f\n",
					j, t, k, g - k - h, h, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], g - k }'
		done
	done
done

# the floor: the kernel's sample and its signal without a JVM
floor=$PJ_BUILD/progs/sigfloor
if [ -x "$floor" ]; then
	"$floor" "$win" "${PJ_BENCH_FLOOR_ROUNDS:-5}" >"$TMP/floor" 2>"$TMP/floor.err" ||
		echo "sigfloor failed: $(head -c 200 "$TMP/floor.err")"
	fl() { awk -v w="$1" -v c="$2" '$1 == w && $5 > 0 { print $c }' "$TMP/floor" | median; }
	awk -v sm="$(fl sample 3)" -v sa="$(fl sample 4)" -v tm="$(fl trap 3)" -v ta="$(fl trap 4)" \
		-v n="$(awk '$1 == "trap" && $5 > 0' "$TMP/floor" | wc -l)" 'BEGIN {
		if (sm == "-" || tm == "-") { print "# the floor: no samples matched"; exit }
		printf "# the floor (a C thread, no JVM; the same event at 1 kHz; medians over %d rounds): kernel sample median %.1f mean %.1f us; with its SIGTRAP to a handler that returns at once median %.1f mean %.1f; the signal'"'"'s delivery and return %.1f (mean %.1f) us per sample, %.2f pp at 1 kHz\n",
			n, sm, sa, tm, ta, tm - sm, ta - sa, (tm - sm) / 10 }'
else
	echo "no $floor (make): no floor"
fi
