#!/usr/bin/env bash
# The reader's cost at -a against perf's own recorder (issues 26, 50), in
# one run: a JVM (Workload, two threads, its agent attached), 10 native
# processes of 4 busy threads (progs/cpusplit) and a churn of short
# processes (about 90 a second: a true and a sleep) are recorded for
# PJ_BENCH_MACHINE_SECS (8) seconds at 99 Hz by `perfjava record -a` and
# by `perf record -a -g`, in
# turn, PJ_BENCH_MACHINE_ROUNDS (5) times each (who goes first alternates).
# For each: the recorder's CPU time (user + system, from its start to its
# file written: perf's build-id pass included), per 1000 samples the
# kernel took (each recorder's own included, as perf counts them), and its
# peak RSS; the median of the rounds with their spread, and perfjava's
# over perf's. Then the same 10 native processes named with -p A,B,...
#
# Figures only: it never fails on a timing.
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
secs=${PJ_BENCH_MACHINE_SECS:-8}
rounds=${PJ_BENCH_MACHINE_ROUNDS:-5}
# (a machine shared with others' JVMs: -a attaches this one only)
export PERFJAVA_JVM_MATCH=bench-machine-$$

pids=()
for i in $(seq 10); do
	"$PROGS/cpusplit" 600 4 >"$TMP/c$i.out" &
	pids+=($!)
	track $!
done
for i in $(seq 10); do wait_for 30 grep -q '^ready' "$TMP/c$i.out"; done
if [ ${#JDKS[@]} -gt 0 ] && compile_java >/dev/null; then
	start_jvm "${JDKS[0]}" "$TMP/jvm.out" "-Dtag=$PERFJAVA_JVM_MATCH" -- Workload 600 2 &&
		pids+=("$JPID")
else
	echo "# no JDK: native processes only"
fi
(while :; do /bin/true; sleep 0.02; done) &
churn=$!
track $churn

# one TOOL ROUND: a recording by TOOL; "USER SYS RSS_KB SAMPLES" in $TMP/res.TOOL.ROUND
one() {
	local t=$1 r=$2 u s e m n
	if [ "$t" = perfjava ]; then
		/usr/bin/time -f '%U %S %e %M' -o "$TMP/time" "$PJ_BIN" record -a -F 99 \
			-d "$secs" -o "$TMP/pj.data" 2>"$TMP/pj.err"
		# (the samples the kernel took: perf's count holds its own
		# too, perfjava's summary leaves its own out and says of how
		# many)
		n=$(awk '/^perfjava: [0-9]+ samples/ && !n { n = $2 }
			/own threads and code: .*left out/ { match($0, /of [0-9]+\)/)
				n = substr($0, RSTART + 3, RLENGTH - 4) }
			END { print n }' "$TMP/pj.err")
	else
		/usr/bin/time -f '%U %S %e %M' -o "$TMP/time" perf record -a -g -F 99 \
			-o "$TMP/perf.data" -- sleep "$secs" >/dev/null 2>"$TMP/perf.err"
		n=$(grep -oE '\(([0-9]+) samples\)' "$TMP/perf.err" | tr -dc 0-9)
	fi
	read -r u s e m <"$TMP/time"
	[ -n "$n" ] || echo "# $t round $r: no sample count: $(tail -n 1 "$TMP/${t/perfjava/pj}.err")"
	echo "$u $s $m ${n:-0}" >"$TMP/res.$t.$r"
	awk -v t="$t" -v r="$r" -v u="$u" -v s="$s" -v m="$m" -v n="${n:-0}" 'BEGIN {
		printf "#   round %d, %s: CPU %.2f s, peak RSS %.1f MiB, %d samples\n", r + 1, t, u + s, m / 1024, n }'
	# (an outlier said with its cause)
	[ "$t" = perfjava ] && [ "$m" -gt 40000 ] && sed 's/^/#     /' "$TMP/pj.err" | tail -n 12
	return 0
}

perf_ok=1
perf record -a -g -F 99 -o "$TMP/probe.data" -- true >/dev/null 2>"$TMP/probe.err" || {
	perf_ok=0
	echo "# perf record -a -g cannot run here: $(tail -n 1 "$TMP/probe.err"); perfjava alone"
}
for ((r = 0; r < rounds; r++)); do
	if [ $((r % 2)) -eq 0 ]; then order="perfjava perf"; else order="perf perfjava"; fi
	for t in $order; do
		[ "$t" = perf ] && [ $perf_ok = 0 ] && continue
		one "$t" "$r"
	done
done

# summary TOOL: "CPU_MED CPU_MIN CPU_MAX PER1K_MED PER1K_MIN PER1K_MAX RSS_MED RSS_MIN RSS_MAX SAMPLES_MED"
summary() {
	cat "$TMP/res.$1".* 2>/dev/null | awk '
	function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	{ n++; c[n] = $1 + $2; k[n] = $4 ? 1000 * ($1 + $2) / $4 : 0; m[n] = $3 / 1024; s[n] = $4 }
	END { if (!n) exit
		printf "%.2f %.2f %.2f ", med(c, n), c[1], c[n]
		printf "%.3f %.3f %.3f ", med(k, n), k[1], k[n]
		printf "%.1f %.1f %.1f %d\n", med(m, n), m[1], m[n], med(s, n) }'
}
read -r pc pc0 pc1 pk pk0 pk1 pm pm0 pm1 ps <<<"$(summary perfjava)"
printf "record -a -F 99 -d %s, a JVM, 40 busy threads in 10 processes, a churn of short processes, %d rounds: perfjava: reader CPU %s s (%s-%s), %s s per 1000 samples (%s-%s), peak RSS %s MiB (%s-%s), %s samples\n" \
	"$secs" "$rounds" "$pc" "$pc0" "$pc1" "$pk" "$pk0" "$pk1" "$pm" "$pm0" "$pm1" "$ps"
if [ $perf_ok = 1 ]; then
	read -r fc fc0 fc1 fk fk0 fk1 fm fm0 fm1 fs <<<"$(summary perf)"
	printf "  same, perf record -a -g: CPU %s s (%s-%s), %s s per 1000 samples (%s-%s), peak RSS %s MiB (%s-%s), %s samples\n" \
		"$fc" "$fc0" "$fc1" "$fk" "$fk0" "$fk1" "$fm" "$fm0" "$fm1" "$fs"
	awk -v a="$pk" -v b="$fk" -v c="$pm" -v d="$fm" 'BEGIN {
		printf "  perfjava / perf: CPU per 1000 samples %.2f, peak RSS %.2f\n", b ? a / b : 0, d ? c / d : 0 }'
fi

# (-p: the native processes, named)
list=$(for p in "${pids[@]:0:10}"; do kill -0 "$p" 2>/dev/null && printf '%s,' "$p"; done | sed 's/,$//')
/usr/bin/time -f '%U %S %e %M' -o "$TMP/timep" \
	"$PJ_BIN" record -p "$list" -F 99 -d "$secs" -o "$TMP/rp.data" 2>"$TMP/rp.err"
read -r u s e m <"$TMP/timep"
n=$(awk '/^perfjava: [0-9]+ samples/ { print $2; exit }' "$TMP/rp.err")
awk -v u="$u" -v s="$s" -v e="$e" -v m="$m" -v n="${n:-0}" 'BEGIN {
	printf "record -p (the 10 native processes) at 99 Hz: reader CPU %.2f s (%.1f%% of one CPU over %.1f s), %.3f s per 1000 samples, peak RSS %.1f MiB, %d samples\n",
		u + s, e ? 100 * (u + s) / e : 0, e, n ? 1000 * (u + s) / n : 0, m / 1024, n }'
kill "${pids[@]}" "$churn" 2>/dev/null
wait 2>/dev/null
