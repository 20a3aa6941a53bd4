#!/usr/bin/env bash
# The Java walk's cost in the whole program, measured faster than the host
# drifts. One recording at 1 kHz with PERFJAVA_AGENT_BENCH=alt: the agent
# walks in the even 400 ms periods of CLOCK_MONOTONIC and returns from its
# handler at once in the odd ones, so the two halves differ by the walk
# itself (the handler's walk, the ring, the pump, the reader's match), not
# by the kernel's sampling or its signal. The Workload's ticks (System.nanoTime,
# the same clock) give each period's rounds per worker CPU second; each walk
# period is compared with the two signal-only periods around it.
#
# The same analysis of a --no-java recording, whose periods differ by
# nothing, is the null: its mean should be 0 within its error. Recordings
# alternate (alt, nojava) in chunks of PJ_BENCH_ALT_CHUNK seconds (20), each
# cut 1 s short at both ends; the error is the spread of the chunks' means
# (the periods next to each other are not independent).
# Figures only: it never fails on a timing. PJ_BENCH_ALT_CHUNKS (8 of each)
# changes the length: about 6 minutes per JDK; PJ_BENCH_ALT_NULL=0 leaves
# the null out.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
chunk=${PJ_BENCH_ALT_CHUNK:-20}
chunks=${PJ_BENCH_ALT_CHUNKS:-8}
period=400000000 # PJA_BENCH_ALT_NS

mono() { python3 -c 'import time; print(time.monotonic_ns())'; }

# window TAG: one recording of a chunk, its span in $res
window() {
	local tag=$1 f=$D/$1 pid s
	local -a env=() opt=()
	case ${tag%%.*} in
	alt) env=(PERFJAVA_AGENT_BENCH=alt) ;;
	nojava) opt=(--no-java) ;;
	esac
	env "${env[@]}" "$PJ_BIN" record -p "$JPID" -c 1000000 -d $((chunk + 1)) \
		-o "$f.data" "${opt[@]}" 2>"$f.err" &
	pid=$!
	wait_for 10 grep -q '^perfjava: recording' "$f.err"
	s=$(($(mono) + 1000000000)) # the first second left out
	sleep $((chunk - 1))
	echo "$tag $s $(mono)" >>"$res"
	wait "$pid"
	rm -f "$f.data"
}

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/alt.$J
	mkdir -p "$D"
	res=$D/res
	: >"$res"
	start_jvm "$jdk" "$D/out" -- Workload $((chunks * 2 * (chunk + 4) + 30)) 2 "$D/go" ticks || continue
	touch "$D/go"
	# warm-up: 3 s of work (the ticks start with it, one each 100 ms)
	wait_for 20 awk '$1 == "tick" { n++ } END { exit n < 30 }' "$D/out"
	for r in $(seq "$chunks"); do
		if [ "${PJ_BENCH_ALT_NULL:-1}" = 0 ]; then
			window "alt.$r"
		elif [ $((r % 2)) -eq 1 ]; then
			window "alt.$r"
			window "nojava.$r"
		else
			window "nojava.$r"
			window "alt.$r"
		fi
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
			for (x in cn) {
				mm = cs[x] / cn[x]
				v = cn[x] > 1 ? (cq[x] - cn[x] * mm * mm) / (cn[x] - 1) : 0
				pm = all[x] / alln[x]
				pv = alln[x] > 1 ? (allq[x] - alln[x] * pm * pm) / (alln[x] - 1) : 0
				printf "%s: %s, even periods against odd ones: %+.2f +- %.2f pp over %d chunks (%d pairs, +- %.2f if independent)\n",
					J, x == "alt" ? "the walk (alt)" : "the null (--no-java)",
					mm, sqrt(v > 0 ? v : 0) / sqrt(cn[x]), cn[x], alln[x], sqrt(pv > 0 ? pv / alln[x] : 0)
			}
		}' "$D/out" "$res"
done
