#!/usr/bin/env bash
# What profiling costs the whole program, measured faster than the host
# drifts: one JVM's Workload alternates, every 400 ms of CLOCK_MONOTONIC,
# between being profiled as shipped (the even periods) and being profiled
# without a part, or not at all (the odd ones). Its ticks (System.nanoTime,
# the same clock) give each period's rounds per worker CPU second; each even
# period is compared with the two odd periods around it. Kinds of chunk:
#   whole    PERFJAVA_BENCH=alt-all at 1 kHz: perfjava against no profiler
#            (the reader and the agent's thread sleep through the odd
#            periods: their wake-ups count)
#   whole100 the same at 100 Hz
#   wholefp  the same at 1 kHz with -g fp
#   nj, nj100  PERFJAVA_BENCH=alt-all --no-java at 1 kHz, 100 Hz: the
#            kernel's sampling and the reader, against no profiler
#   nj100fp  the same at 100 Hz with -g fp (no stack copy, no CFI)
#   perf, perf100  perf record -g at 1 kHz, 100 Hz (enabled and disabled
#            through its --control fifo, selftests/bench/perf_alt.py): the
#            kernel's floor on this host
#   ap, ap100  async-profiler -e cpu at 1 ms, 10 ms, started and stopped
#            in the JVM by its Java API (selftests/java/src/ApAlt.java): the
#            peer against no profiler
#   nojava   PERFJAVA_BENCH=alt at 1 kHz: in the odd periods the clock
#            event's twin samples without the signal, and no walk is asked:
#            perfjava against its own --no-java
#   walk     PERFJAVA_AGENT_BENCH=alt: the agent's handler returns at once
#            in the odd periods: the walk (the handler's walk, the ring, the
#            pump, the reader's match) against the signal alone
#   nojava100, walk100  nojava and walk at 100 Hz
#   null     --no-java, whose periods differ by nothing: its mean should be
#            0 within its error
# The kinds take turns in chunks of PJ_BENCH_ALT_CHUNK seconds (20) in the
# same JVM, each cut 1 s short at both ends; the error is the spread of the
# chunks' means (periods next to each other are not independent).
# Figures only: it never fails on a timing. PJ_BENCH_ALT_CHUNKS (3 of each)
# and PJ_BENCH_ALT_KINDS ("whole whole100 nj100 wholefp perf perf100 ap
# ap100 nojava null") change the length: about 12 minutes per JDK.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
chunk=${PJ_BENCH_ALT_CHUNK:-20}
chunks=${PJ_BENCH_ALT_CHUNKS:-3}
period=400000000 # PJA_BENCH_ALT_NS
kinds=()
asprof_build >/dev/null || echo "$ASPROF_WHY: no async-profiler figures"
for k in ${PJ_BENCH_ALT_KINDS:-whole whole100 nj100 wholefp perf perf100 ap ap100 nojava null}; do
	case $k in ap*) [ -z "$ASPROF" ] && continue ;; esac
	case $k in perf*) command -v perf >/dev/null || { echo "no perf: no $k figures"; continue; } ;; esac
	kinds+=("$k")
done
APLIB=
case " ${kinds[*]} " in
*" ap "* | *" ap100 "*) APLIB=$(dirname "$(dirname "$ASPROF")")/lib/libasyncProfiler.so ;;
esac

# window TAG: one chunk of its kind, its span in $res
window() {
	local tag=$1 f=$D/$1 pid= tp= s
	local -a env=() opt=(-c 1000000)
	case ${tag%%.*} in
	whole) env=(PERFJAVA_BENCH=alt-all) ;;
	whole100) env=(PERFJAVA_BENCH=alt-all) opt=(-c 10000000) ;;
	wholefp) env=(PERFJAVA_BENCH=alt-all) opt+=(-g fp) ;;
	nj) env=(PERFJAVA_BENCH=alt-all) opt+=(--no-java) ;;
	nj100) env=(PERFJAVA_BENCH=alt-all) opt=(-c 10000000 --no-java) ;;
	nj100fp) env=(PERFJAVA_BENCH=alt-all) opt=(-c 10000000 --no-java -g fp) ;;
	nojava) env=(PERFJAVA_BENCH=alt) ;;
	walk) env=(PERFJAVA_AGENT_BENCH=alt) ;;
	nojava100) env=(PERFJAVA_BENCH=alt) opt=(-c 10000000) ;;
	walk100) env=(PERFJAVA_AGENT_BENCH=alt) opt=(-c 10000000) ;;
	null) opt+=(--no-java) ;;
	esac
	if [ "${tag%%.*}" = ap ]; then
		: >"$D/ap.on"
	elif [ "${tag%%.*}" = ap100 ]; then
		echo 10000000 >"$D/ap.on"
	elif [ "${tag%%.*}" = perf ] || [ "${tag%%.*}" = perf100 ]; then
		rm -f "$D/ctl" "$D/ack"
		mkfifo "$D/ctl" "$D/ack"
		[ "${tag%%.*}" = perf100 ] && opt=(-c 10000000)
		perf record -q -g -e cpu-clock "${opt[@]}" -p "$JPID" -D -1 \
			--control "fifo:$D/ctl,$D/ack" -o "$f.data" 2>"$f.err" &
		pid=$!
		python3 "$PJ_TOP/selftests/bench/perf_alt.py" "$D/ctl" "$D/ack" "$chunk" &
		tp=$!
		wait_for 10 test -s "$f.data"
	else
		env "${env[@]}" "$PJ_BIN" record -p "$JPID" -d $((chunk + 1)) \
			-o "$f.data" "${opt[@]}" 2>"$f.err" &
		pid=$!
		wait_for 10 grep -qs '^perfjava: recording' "$f.err"
	fi
	s=$(($(mono) + 1000000000)) # the first second left out
	sleep $((chunk - 1))
	echo "$tag $s $(mono)" >>"$res"
	rm -f "$D/ap.on"
	if [ -n "$tp" ]; then
		wait "$tp"
		kill -INT "$pid"
	fi
	[ -n "$pid" ] && wait "$pid"
	rm -f "$f.data"
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/alt.$J
	mkdir -p "$D"
	res=$D/res
	: >"$res"
	secs=$((chunks * ${#kinds[@]} * (chunk + 4) + 30))
	rm -f "$D/ap.on"
	if [ -n "$APLIB" ]; then
		start_jvm "$jdk" "$D/out" -- ApAlt "$APLIB" cpu 1000000 "$D/ap.on" \
			Workload $secs 2 "$D/go" ticks || continue
	else
		start_jvm "$jdk" "$D/out" -- Workload $secs 2 "$D/go" ticks || continue
	fi
	touch "$D/go"
	# warm-up: 3 s of work (the ticks start with it, one each 100 ms)
	wait_for 20 awk '$1 == "tick" { n++ } END { exit n < 30 }' "$D/out"
	for r in $(seq "$chunks"); do # each kind first in turn
		for k in $(seq 0 $((${#kinds[@]} - 1))); do
			window "${kinds[$(((r + k) % ${#kinds[@]}))]}.$r"
		done
	done
	kill "$JPID" 2>/dev/null
	wait "$JWAIT" 2>/dev/null

	# each period wholly inside a chunk: its rate over its first and last
	# tick; each even period against the odd ones around it
	awk -v P=$period -v J="$J" '
		FNR == NR { if ($1 == "tick") { n++; t[n] = $2; r[n] = $3; c[n] = $4 } next }
		{ name[FNR] = $1; s[FNR] = $2; e[FNR] = $3; m = FNR }
		END {
			for (w = 1; w <= m; w++) {
				split(name[w], k, ".")
				delete rt
				for (i = 1; i <= n; i++) {
					if (t[i] < s[w] || t[i] > e[w])
						continue
					p = int(t[i] / P)
					if (!(p in i0)) i0[p] = i
					i1[p] = i
				}
				for (p in i0) {
					a = i0[p]; b = i1[p]
					if (b > a && c[b] > c[a])
						rt[p] = (r[b] - r[a]) / (c[b] - c[a])
				}
				sum = 0; cnt = 0
				for (p in rt)
					if (p % 2 == 0 && (p - 1) in rt && (p + 1) in rt) {
						d = 100 * (rt[p] / ((rt[p - 1] + rt[p + 1]) / 2) - 1)
						sum += d; cnt++
						all[k[1]] += d; allq[k[1]] += d * d; alln[k[1]]++
					}
				delete i0; delete i1
				if (cnt) {
					cm = sum / cnt
					cs[k[1]] += cm; cq[k[1]] += cm * cm; cn[k[1]]++
				}
			}
			what["whole"] = "perfjava at 1 kHz against no profiler (PERFJAVA_BENCH=alt-all)"
			what["whole100"] = "perfjava at 100 Hz against no profiler (goal: ratio >= 0.997)"
			what["wholefp"] = "perfjava at 1 kHz -g fp against no profiler"
			what["nj"] = "perfjava --no-java at 1 kHz against no profiler (the kernel sampling and the reader)"
			what["nj100"] = "perfjava --no-java at 100 Hz against no profiler"
			what["nj100fp"] = "perfjava --no-java -g fp at 100 Hz against no profiler"
			what["perf"] = "perf record -g at 1 kHz against no profiler (the kernel floor)"
			what["perf100"] = "perf record -g at 100 Hz against no profiler"
			what["ap"] = "async-profiler -e cpu -i 1ms against no profiler"
			what["ap100"] = "async-profiler -e cpu -i 10ms against no profiler"
			what["nojava"] = "perfjava against its --no-java at 1 kHz, the signal and the walk (PERFJAVA_BENCH=alt; goal: within 0.5 pp)"
			what["nojava100"] = "perfjava against its --no-java at 100 Hz"
			what["walk100"] = "the walk against the signal alone at 100 Hz"
			what["walk"] = "the walk against the signal alone (PERFJAVA_AGENT_BENCH=alt)"
			what["null"] = "the null (--no-java throughout: 0 within its error)"
			no = split("whole whole100 wholefp nj nj100 nj100fp perf perf100 ap ap100 nojava nojava100 walk walk100 null", order, " ")
			for (o = 1; o <= no; o++) {
				x = order[o]
				if (!(x in cn))
					continue
				mm[x] = cs[x] / cn[x]
				v = cn[x] > 1 ? (cq[x] - cn[x] * mm[x] * mm[x]) / (cn[x] - 1) : 0
				se[x] = sqrt(v > 0 ? v : 0) / sqrt(cn[x])
				pm = all[x] / alln[x]
				pv = alln[x] > 1 ? (allq[x] - alln[x] * pm * pm) / (alln[x] - 1) : 0
				printf "%s: %s: %+.2f +- %.2f pp, ratio %.4f, over %d chunks (%d pairs, +- %.2f if independent)\n",
					J, what[x], mm[x], se[x], 1 + mm[x] / 100, cn[x], alln[x], sqrt(pv > 0 ? pv / alln[x] : 0)
			}
			if (("whole" in cn) && ("ap" in cn))
				printf "%s: perfjava ahead of async-profiler at 1 kHz: %+.2f +- %.2f pp (goal >= 1)\n",
					J, mm["whole"] - mm["ap"], sqrt(se["whole"] ^ 2 + se["ap"] ^ 2)
			if (("whole100" in cn) && ("ap100" in cn))
				printf "%s: perfjava against async-profiler at 100 Hz: %+.2f +- %.2f pp (goal >= 0)\n",
					J, mm["whole100"] - mm["ap100"], sqrt(se["whole100"] ^ 2 + se["ap100"] ^ 2)
			if (("whole100" in cn) && ("nj100" in cn))
				printf "%s: perfjava against its --no-java at 100 Hz: %+.2f +- %.2f pp (goal >= -0.3)\n",
					J, mm["whole100"] - mm["nj100"], sqrt(se["whole100"] ^ 2 + se["nj100"] ^ 2)
			# what the agent and the reader add to what the kernel
			# costs on this host (perf record -g): at 100 Hz a floor
			# below -0.3 pp leaves the goal nothing
			if (("whole" in cn) && ("perf" in cn))
				printf "%s: perfjava beyond perf record -g at 1 kHz: %+.2f +- %.2f pp\n",
					J, mm["whole"] - mm["perf"], sqrt(se["whole"] ^ 2 + se["perf"] ^ 2)
			if (("whole100" in cn) && ("perf100" in cn))
				printf "%s: perfjava beyond perf record -g at 100 Hz: %+.2f +- %.2f pp (the floor %s the 100 Hz goal)\n",
					J, mm["whole100"] - mm["perf100"], sqrt(se["whole100"] ^ 2 + se["perf100"] ^ 2),
					mm["perf100"] + se["perf100"] < -0.3 ? "alone misses" : "leaves room for"
			if (("whole" in cn) && ("wholefp" in cn))
				printf "%s: -g fp against the default at 1 kHz: %+.2f +- %.2f pp (goal: not below 0 beyond its error)\n",
					J, mm["wholefp"] - mm["whole"], sqrt(se["whole"] ^ 2 + se["wholefp"] ^ 2)
		}' "$D/out" "$res"
	# what async-profiler's own turns cost the thread that takes them
	awk '$1 == "apalt" && $2 != "error" && seen++ { n++; a += $3; b += $4 }
		END { if (n) printf "%s: async-profiler'"'"'s turns: start %.0f us, stop %.0f us (means, on their own thread)\n", J, a / n, b / n }' J="$J" "$D/out"
	grep '^apalt error' "$D/out"
done
