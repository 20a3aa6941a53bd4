#!/usr/bin/env bash
# The cost of -e alloc and -e lock on a real allocating and locking
# application, beside async-profiler 4.5 at the same interval (issue 47):
# the H2 database (Debian's /usr/share/java/h2.jar) running SQL on THREADS
# threads at once (selftests/java/src/H2Loop.java: selects and updates),
# each on its own connection for -e alloc, all on one for -e lock (H2's
# session runs one command at a time: its monitor is contended, as a
# shared connection's is in an application), which prints its rounds
# every 100 ms. In one JVM per JDK and event, after
# a warm-up, phases of SECONDS each in turn: none, perfjava (record -e
# alloc/period=524288/ or -e lock/period=10000/), async-profiler (asprof
# start -e alloc --alloc 524288, or -e lock --lock 10000), ROUNDS times;
# each phase's rate is the program's rounds a second over its window (the
# recording's own, from its file's start_ns and duration_ns; from after
# asprof start to before asprof stop). Printed: each profiler's rate as a
# ratio to the mean of the phases without one, what each recorded (its
# bytes as a share of those the JVM's own counters gave the program's
# threads over the window its samples cover; the seconds waited a second),
# and, per phase, the rates. Figures only: it never fails on a timing.
# PJ_BENCH_H2EV_SECONDS (5), PJ_BENCH_H2EV_ROUNDS (3),
# PJ_BENCH_H2EV_THREADS (4), PJ_BENCH_H2EV_EVENTS ("alloc lock"),
# PJ_BENCH_JDKS (one JDK's home; both JDKs without it).
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
H2=$H2JAR
h2_jar || { echo "no $H2 (libh2-java: $(tail -1 "$TMP/apt.log")): skipped"; exit 0; }
compile_java >/dev/null 2>&1 || { echo "javac failed"; exit 1; }
secs=${PJ_BENCH_H2EV_SECONDS:-5}
rounds=${PJ_BENCH_H2EV_ROUNDS:-3}
threads=${PJ_BENCH_H2EV_THREADS:-4}
asprof_build >/dev/null || echo "# $ASPROF_WHY: perfjava alone"
ALLOC=524288 LOCK=10000

# rate OUT A B: the program's rounds a second between monotonic ns A and B
# (its ticks at or after A to the last at or before B), and over A..B at
# that pace the seconds, and the bytes its threads allocated (the JVM's
# own counters)
rate() {
	awk -v a="$2" -v b="$3" '$1 == "tick" && $2 >= a && $2 <= b {
		if (t0 == "") { t0 = $2; r0 = $3; b0 = $4 } t1 = $2; r1 = $3; b1 = $4 }
		END { if (t1 > t0) { s = (t1 - t0) / 1e9
			printf "%.2f %.3f %.0f", (r1 - r0) / s, (b - a) / 1e9, (b1 - b0) / s * (b - a) / 1e9 }
			else print "- 0 0" }' "$1"
}

# weight FOLDED: samples and weight of a collapsed --total file
weight() { awk '{ n++; w += $NF } END { printf "%d %.0f", n, w }' "$1" 2>/dev/null; }

# ratio X BASE...: X over the mean of the BASE rates ("-" when none)
ratio() {
	local x=$1; shift
	echo "$@" | awk -v x="$x" '{ for (i = 1; i <= NF; i++) if ($i != "-") { s += $i; n++ } }
		END { if (n && s > 0 && x != "-") printf "%.3f", x / (s / n); else print "-" }'
}

# add3 A B C D E F: "A+D B+E C+F"
add3() { awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" -v e="$5" -v f="$6" \
	'BEGIN { printf "%.3f %.0f %.0f", a + d, b + e, c + f }'; }

# mean RATE...: the mean, or "-"
mean() { echo "$@" | awk '{ for (i = 1; i <= NF; i++) if ($i != "-") { s += $i; n++ } }
	END { if (n) printf "%.2f", s / n; else print "-" }'; }

# phase_none OUT: a phase without a profiler; prints its rate, rounds
phase_none() {
	local a b
	a=$(mono)
	sleep "$secs" # the phase's length: the program runs meanwhile
	b=$(mono)
	rate "$1" "$a" "$b"
}

# phase_perfjava OUT EVENT DATA: perfjava records EVENT; prints its rate
# over the recording's window, the rounds over the window its samples
# cover (its events come on a moment after the recording starts, and the
# last ones still in the agent's ring at the stop are not moved), then its
# samples and weight
phase_perfjava() {
	local a d f l
	"$PJ_BIN" record -q -p "$JPID" -e "$2" -d "$secs" -o "$3" 2>/dev/null
	read -r a d <<<"$("$PJ_BIN" report -i "$3" --format meta 2>/dev/null |
		awk '$2 == "start_ns" { a = $3 } $2 == "duration_ns" { d = $3 } END { print a, d }')"
	[ -n "$a" ] && [ -n "$d" ] || { echo "- 0 0 0"; return; }
	read -r f l <<<"$("$PJ_BIN" report -i "$3" --format script 2>/dev/null | awk '
		/^[^\t]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			t = sprintf("%.0f", $i * 1e9); if (f == "") f = t; l = t } }
		END { print f, l }')"
	"$PJ_BIN" report -i "$3" --total --format collapsed >"$3.folded" 2>/dev/null
	echo "$(rate "$1" "$a" $((a + d)) | cut -d' ' -f1) $(rate "$1" "${f:-0}" "${l:-0}" |
		cut -d' ' -f2,3) $(weight "$3.folded")"
}

# phase_asprof OUT ARGS... FOLDED: async-profiler records with ARGS;
# prints its rate and rounds over its window, then its samples and weight
phase_asprof() {
	local out=$1 folded=${*: -1} a b
	set -- "${@:2:$#-2}"
	"$ASPROF" start "$@" "$JPID" >/dev/null 2>&1
	a=$(mono)
	sleep "$secs" # async-profiler records meanwhile
	b=$(mono)
	"$ASPROF" stop -o collapsed --total -f "$folded" "$JPID" >/dev/null 2>&1
	echo "$(rate "$out" "$a" "$b") $(weight "$folded")"
}

# seen W S B: what a profiler recorded, W, over S seconds in which the
# program allocated B bytes: alloc, W as a share of B (the JVM's own count:
# 1.00 is exact); lock, the seconds waited a second
seen() {
	awk -v w="$1" -v s="$2" -v b="$3" -v k="$what" 'BEGIN {
		if (k == "alloc") { if (b > 0) printf "%.3f of the JVM'"'"'s own bytes", w / b; else print "-" }
		else if (s > 0) printf "%.2f s waited a second", w / 1e9 / s; else print "-" }'
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	for what in ${PJ_BENCH_H2EV_EVENTS:-alloc lock}; do
		D=$TMP/$J-$what
		mkdir -p "$D"
		# allocations: each thread on its own connection; locks: on one
		# (H2 runs one command of a session at a time: they contend)
		if [ $what = alloc ]; then
			pj="alloc/period=$ALLOC/" ap=(-e alloc --alloc "$ALLOC") shared=false
		else
			pj="lock/period=$LOCK/" ap=(-e lock --lock "$LOCK") shared=true
		fi
		# it runs until killed below (an hour at most)
		start_jvm "$jdk" "$D/w.out" -Dh2.jar="$H2" -Dh2.shared=$shared -- \
			H2Loop 3600 "$threads" ticks || continue
		wait_for 120 grep -q '^warm' "$D/w.out" || echo "# $J: H2Loop not warm in 120 s"
		none=() pjr=() apr=() pjn=0 apn=0
		pj_sum="0 0 0" ap_sum="0 0 0" # seconds, bytes, weight
		for r in $(seq "$rounds"); do
			read -r x k <<<"$(phase_none "$D/w.out")"
			none+=("$x")
			read -r x k b n w <<<"$(phase_perfjava "$D/w.out" "$pj" "$D/pj$r.data")"
			pjr+=("$x") pjn=$((pjn + ${n:-0}))
			pj_sum=$(add3 $pj_sum "${k:-0}" "${b:-0}" "${w:-0}")
			if [ -n "${ASPROF:-}" ]; then
				read -r x k b n w <<<"$(phase_asprof "$D/w.out" "${ap[@]}" "$D/ap$r.folded")"
				apr+=("$x") apn=$((apn + ${n:-0}))
				ap_sum=$(add3 $ap_sum "${k:-0}" "${b:-0}" "${w:-0}")
			fi
		done
		kill "$JPID" 2>/dev/null
		wait "$JWAIT" 2>/dev/null
		echo "# $J $what ($threads threads, $rounds x $secs s each): rounds/s none $(mean "${none[@]}")" \
			"perfjava $(mean "${pjr[@]}") async-profiler $(mean "${apr[@]:-}")"
		echo "# $J $what: throughput with / without: perfjava $(ratio "$(mean "${pjr[@]}")" "${none[@]}")" \
			"async-profiler $(ratio "$(mean "${apr[@]:-}")" "${none[@]}")"
		# what each recorded
		read -r k b w <<<"$pj_sum"
		x="perfjava $(seen "$w" "$k" "$b") ($pjn stacks)"
		read -r k b w <<<"$ap_sum"
		echo "# $J $what: recorded: $x, async-profiler $(seen "$w" "$k" "$b") ($apn stacks)"
		echo "#   phases: none ${none[*]} | perfjava ${pjr[*]} | async-profiler ${apr[*]:-}"
	done
done
