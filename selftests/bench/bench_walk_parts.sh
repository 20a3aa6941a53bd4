#!/usr/bin/env bash
# Where the Java walk's cost goes, in the whole program: the Workload's
# throughput per worker CPU second at 1 kHz, round-robin inside one JVM,
# with four recordings that differ by one part each:
#   full    perfjava as shipped (walks at the sample, moved, matched)
#   walk    the walks taken in the handler, then dropped by the agent's
#           pump (PERFJAVA_AGENT_BENCH=walk): no moving, no matching
#   signal  the kernel's signal to a handler that returns at once
#           (PERFJAVA_AGENT_BENCH=signal)
#   nojava  --no-java: the kernel's sampling and the reader alone
# Each window is compared with the unprofiled windows around it; the order
# of the four is reversed every other round (so that a window's place in
# the round cancels out), and each part is the difference of two windows of
# the same round, pp: signal - nojava (the signal and its return), walk -
# signal (the walk in the handler), full - walk (moving the walks: the
# agent's pump, the reader's match), full - nojava (the whole walk), with
# the mean over the rounds and its standard error; then the agent's own
# timing of its handler in the full windows (us per walk: the mean, and
# each recording's median averaged:
# entry, the walk, the ring write), which bench_walk_split measures on the
# Gaps program too.
# Figures only: it never fails on a timing. PJ_BENCH_PARTS_ROUNDS (12),
# PJ_BENCH_WINDOW (3 s) change the length: about 1 minute for 2 rounds.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
win=${PJ_BENCH_WINDOW:-3}
rounds=${PJ_BENCH_PARTS_ROUNDS:-12}
configs="full walk signal nojava"

# pj_window TAG: one recording at 1 kHz, its steady span in $res
pj_window() {
	local tag=$1 f=$D/$1 pid s e
	local -a env=() opt=()
	case ${tag%%.*} in
	walk | signal) env=(PERFJAVA_AGENT_BENCH="${tag%%.*}") ;;
	nojava) opt=(--no-java) ;;
	esac
	env "${env[@]}" "$PJ_BIN" record -p "$JPID" -c 1000000 -d $((win + 1)) \
		-o "$f.data" "${opt[@]}" 2>"$f.err" &
	pid=$!
	wait_for 10 grep -q '^perfjava: recording' "$f.err"
	s=$(mono)
	sleep "$win"
	e=$(mono)
	echo "$tag $s $e" >>"$res"
	wait "$pid"
}
idle_window() {
	local s
	s=$(mono)
	sleep "$win"
	echo "idle $s $(mono)" >>"$res"
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/parts.$J
	mkdir -p "$D"
	res=$D/res
	: >"$res"
	start_jvm "$jdk" "$D/out" -- Workload $((rounds * 8 * (win + 3) + 30)) 2 "$D/go" ticks || continue
	touch "$D/go"
	sleep "$win" # warm-up
	for r in $(seq "$rounds"); do
		order=$configs
		[ $((r % 2)) -eq 0 ] && order=$(echo "$configs" | tr ' ' '\n' | tac | tr '\n' ' ')
		for c in $order; do
			idle_window
			pj_window "$c.$r"
		done
	done
	idle_window
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null

	# each window's rate (rounds per worker CPU ns) over its span, then
	# each recording's over the mean of its two idle neighbours
	awk 'FNR == NR { if ($1 == "tick") { n++; t[n] = $2; r[n] = $3; c[n] = $4 } next }
		function rate(a, b,   i, i0, i1) {
			for (i = 1; i <= n; i++)
				if (t[i] >= a && t[i] <= b) { if (!i0) i0 = i; i1 = i }
			return i1 > i0 && c[i1] > c[i0] ? (r[i1] - r[i0]) / (c[i1] - c[i0]) : 0
		}
		{ name[FNR] = $1; rt[FNR] = rate($2, $3); m = FNR }
		END {
			for (i = 2; i < m; i++)
				if (name[i] != "idle" && rt[i - 1] && rt[i + 1])
					printf "%s %.6f\n", name[i], rt[i] / ((rt[i - 1] + rt[i + 1]) / 2)
		}' "$D/out" "$res" >"$D/ratios"
	echo "$J: throughput per worker CPU second at 1 kHz against the idle windows around, mean over $rounds rounds of ${win} s +- standard error:"
	awk '{ split($1, k, "."); s[k[1]] += $2; q[k[1]] += $2 * $2; n[k[1]]++ }
		END { for (c in n) { m = s[c] / n[c]; v = n[c] > 1 ? (q[c] - n[c] * m * m) / (n[c] - 1) : 0
			printf "%s  %-7s %.4f +- %.4f\n", J, c, m, sqrt(v > 0 ? v : 0) / sqrt(n[c]) } }' \
		J="$J" "$D/ratios" | sort -k2
	# the parts: differences of two windows of one round
	for p in "signal nojava the kernel's signal and its return (empty handler)" \
		"walk signal the walk in the handler" \
		"full walk moving the walks (the agent's pump, the reader's match)" \
		"full nojava the whole Java walk"; do
		read -r a b what <<<"$p"
		paired_diff "$D/ratios" 2 "$a" "$b" "$J: $what ($a - $b)"
	done
	# the agent's timing of its handler in the full windows
	for f in "$D"/full.*.data; do
		"$PJ_BIN" report -i "$f" --format meta 2>/dev/null
	done | awk -v J="$J" '$1 == "stat" { v[$2] += $3; c[$2]++ }
		END {
			n = v["walk_agent_timed"]
			if (!n) { printf "%s: the agent timed no walk\n", J; exit }
			printf "%s: the handler as the agent times it, us per walk, mean (median):", J
			split("entry walk ring", p, " ")
			for (i = 1; i <= 3; i++)
				printf " %s %.2f (%.2f)", p[i], v["walk_agent_" p[i] "_ns"] / n / 1000,
					v["walk_agent_" p[i] "_med_ns"] / c["walk_agent_" p[i] "_med_ns"] / 1000
			printf "; %d walks\n", n
		}'
done
