#!/usr/bin/env bash
# -e alloc and -e lock beside async-profiler 4.5 on the same workload
# (JvmEvents.java: sites of known weight, measured by the program itself):
# per site, perfjava's share and async-profiler's, each beside the program's
# truth over the window that profiler recorded (each run its own); and
# the throughput each costs the program (its loops done while recorded, as
# a ratio to a run without a profiler), all in one run. JDK 17 and 25,
# platform threads, and virtual threads where the JDK has them. Prints;
# never fails on a figure. PJ_BENCH_JEV_MS: each run's measured phase.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../java/jvm.sh"

java_suite "bench_jevents"
MS=${PJ_BENCH_JEV_MS:-6000}
asprof_build || echo "# $ASPROF_WHY: async-profiler's columns are empty"
AP=$PJ_BUILD/async-profiler-4.5/build/bin/asprof

# shares FOLDED SITE...: "SITE PCT" of the weight among the sites
shares() { stack_share "$@"; }

# one JDK WHAT MODE PROF: runs JvmEvents under PROF (none, perfjava,
# asprof); leaves OUT and FOLDED
one() {
	local jdk=$1 what=$2 mode=$3 prof=$4 D=$TMP/$(jdk_name "$1")-$2-$3-$4
	mkdir -p "$D"
	OUT=$D/w.out FOLDED=$D/r.folded
	: >"$FOLDED"
	start_jvm "$jdk" "$OUT" -- JvmEvents "$what" 4 "$MS" $mode || return
	case $prof in
	perfjava)
		"$PJ_BIN" record -p "$JPID" -e "$what" -d $((MS / 1000 - 1)) -o "$D/r.data" 2>"$D/r.err"
		"$PJ_BIN" report -i "$D/r.data" --event "$what" --total --format collapsed >"$FOLDED" 2>/dev/null
		;;
	asprof)
		local t0=$(date +%s) a b
		"$AP" start -e "$what" "$JPID" >"$D/ap.log" 2>&1
		a=$(awk '{ print $1 }' /proc/uptime)
		# the same time as perfjava's -d (a duration, not an event)
		wait_for $((MS / 1000 + 5)) bash -c "[ \$(date +%s) -ge $((t0 + MS / 1000 - 1)) ]"
		b=$(awk '{ print $1 }' /proc/uptime)
		"$AP" stop -o collapsed --total -f "$FOLDED" "$JPID" >>"$D/ap.log" 2>&1
		echo "$a $b" >"$D/window"
		;;
	esac
	wait_for $((MS / 1000 + 30)) grep -q '^done' "$OUT"
	if [ "$prof" = perfjava ]; then
		sample_window "$D/r.data" 'JvmEvents\.(alloc|lock)' >"$D/window"
	fi
}

# truth SITE...: the program's truth (OUT) over the window the profiler
# recorded (the phase starts unlike the rest: test_jevents.sh), as "SITE PCT"
truth() {
	local win
	win=$(cat "$(dirname "$OUT")/window" 2>/dev/null)
	window_truth "$OUT" ${win:-0 0} JvmEvents "$@"
}

printf "# %-26s %-14s %7s %9s %7s %9s\n" "workload" "site" "truth" "perfjava" "truth" "asprof"
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	ver=$("$jdk/bin/java" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print v[1]; exit }')
	modes="platform"
	[ "${ver:-0}" -ge 21 ] && modes="platform virtual"
	for mode in $modes; do
		m=""; [ "$mode" = virtual ] && m=virtual
		for what in alloc lock; do
			sites="allocSmall allocLarge allocBytes"
			[ $what = lock ] && sites="lockMonitor lockReentrant"
			one "$jdk" $what "$m" none; base=$(awk '/^ops/ { print $2 }' "$OUT")
			one "$jdk" $what "$m" perfjava; pj_ops=$(awk '/^ops/ { print $2 }' "$OUT")
			truth $sites >"$TMP/pj.truth"
			shares "$FOLDED" $(for s in $sites; do echo "JvmEvents.$s"; done) >"$TMP/pj.share"
			one "$jdk" $what "$m" asprof; ap_ops=$(awk '/^ops/ { print $2 }' "$OUT")
			truth $sites >"$TMP/ap.truth"
			shares "$FOLDED" $(for s in $sites; do echo "JvmEvents.$s"; done) >"$TMP/ap.share"
			for s in $sites; do
				printf "# %-26s %-14s %6s%% %8s%% %6s%% %8s%%\n" "$J $mode $what" "$s" \
					"$(awk -v s=JvmEvents.$s '$1 == s { print $2 }' "$TMP/pj.truth")" \
					"$(awk -v s=JvmEvents.$s '$1 == s { print $2 }' "$TMP/pj.share")" \
					"$(awk -v s=JvmEvents.$s '$1 == s { print $2 }' "$TMP/ap.truth")" \
					"$(awk -v s=JvmEvents.$s '$1 == s { print $2 }' "$TMP/ap.share")"
			done
			echo "# $J $mode $what throughput (loops while recorded / without): perfjava $(awk -v a="$pj_ops" -v b="$base" 'BEGIN { printf "%.3f", b ? a / b : 0 }') async-profiler $(awk -v a="$ap_ops" -v b="$base" 'BEGIN { printf "%.3f", b ? a / b : 0 }')"
		done
	done
done
ok "bench_jevents printed its tables"
