#!/usr/bin/env bash
# perfjava against async-profiler 4.5 on the same JVM workload, round-robin
# inside one JVM (so that JIT decisions cancel out), at 1 ms and 10 ms, on
# JDK 17 and 25. The Workload (two worker threads, three methods with a known
# CPU split) prints its progress and its workers' CPU time every 100 ms;
# each profiled window is compared with the unprofiled windows around it,
# over the profiler's steady state alone (win s from its start to its
# stop: no attach, detach or output in it).
# Configurations: perfjava (the default call graph), perfjava -g fp,
# perfjava --no-java (the kernel's sampling and the reader alone) at 1 kHz,
# perfjava and perfjava --no-java at 100 Hz, async-profiler -e cpu at 1 ms
# and 10 ms, perf record -g at 100 Hz (the kernel's own sampling with a frame
# pointer call chain, no reader of ours: what any profiler that samples with
# perf events pays on this machine before its own work), and a control: no
# profiler, measured as a profiled window
# (its ratio is 1 but for the run's noise: the machine's other load, the
# JIT, GC). Printed per JDK and configuration, as
# medians over the rounds (of an even count, the mean of the middle two):
#   - throughput ratio per worker CPU second (rounds per CPU second of the
#     workers, profiled over unprofiled: the cost in the sampled threads
#     themselves, 1.000 = none) with its lowest and highest round, and per
#     wall second (which also counts the CPU the profiler's other threads
#     take from the workers);
#   - the reader's CPU per 1,000 samples (perfjava's own process);
#   - the JVM's CPU outside its worker threads (ms per s; the unprofiled
#     windows' figure is the JVM's own background);
#   - perfjava's walk delay (sample -> walk, median and p99) and the share of
#     walks whose first compiled frame is the JIT code the kernel sampled;
#   - the attribution of the three methods against the Workload's CPU-clock
#     truth (largest difference, pp);
# then the verdict per JDK (per worker CPU second: perfjava at 1 kHz
# within 0.5 pp of its --no-java and >= 1 pp ahead of async-profiler, -g fp
# not costing more than the default, 100 Hz no lower than async-profiler at
# 10 ms and within 0.3 pp of its --no-java), with the noise it is
# read through: each comparison's difference round by round (the windows
# of a round are minutes apart at most), their mean and its standard error,
# and the control's (no profiler: the noise alone), and coexistence:
# async-profiler's samples at 1 ms alone and with perfjava recording the
# same JVM at the same time.
# async-profiler is built from ../shared/peers into build/ when missing.
# Figures only: it never fails on a timing. PJ_BENCH_ROUNDS (5),
# PJ_BENCH_WINDOW (3 s) change the length.
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
compile_java >/dev/null || { echo "javac failed"; exit 1; }
win=${PJ_BENCH_WINDOW:-3}
rounds=${PJ_BENCH_ROUNDS:-5}
gap=300000000 # a window without a span loses 0.3 s at each end
# mono: CLOCK_MONOTONIC in ns from bash's own clock and one offset taken
# now; lib.sh's mono starts python3, which on two busy cores took up to
# half a second, after its reading and before the window's next step
_off=$(python3 -c 'import time; print(time.monotonic_ns() - time.time_ns())')
mono() { echo $((${EPOCHREALTIME/./}000 + _off)); }

asprof_build || echo "$ASPROF_WHY: perfjava alone"
PERF=$(command -v perf)
[ -n "$PERF" ] && "$PERF" --version >/dev/null 2>&1 || {
	PERF=
	echo "no perf here (linux-perf): no row for the kernel's own sampling"
}

# rate OUT FROM_NS TO_NS: "rounds per second, rounds per worker CPU
# second" between two monotonic times
rate() {
	awk -v a="$2" -v b="$3" '$1 == "tick" && $2 >= a && $2 <= b {
		if (!t0) { t0 = $2; r0 = $3; c0 = $4 } t1 = $2; r1 = $3; c1 = $4 }
		END { if (t1 > t0 && c1 > c0) printf "%.3f %.3f", (r1 - r0) * 1e9 / (t1 - t0), (r1 - r0) * 1e9 / (c1 - c0)
			else print "0 0" }' "$1"
}

# cpu_ns PID: CPU time (ns, from schedstat) of the JVM's threads other than
# its workers, and of its workers
cpu_ns() {
	local t other=0 work=0 c
	for t in /proc/"$1"/task/*; do
		c=$(cut -d' ' -f1 "$t/schedstat" 2>/dev/null) || continue
		if grep -q '^worker-' "$t/comm" 2>/dev/null; then
			work=$((work + c))
		else
			other=$((other + c))
		fi
	done
	echo "$other $work"
}

# window NAME CMD...: runs one window; appends "name rate_ratio_inputs..."
# to $res: name, start, end, JVM CPU outside workers (ms/s)
window() {
	local name=$1 s e o0 o1 w0 w1
	shift
	read -r o0 w0 <<<"$(cpu_ns "$JPID")"
	s=$(mono)
	"$@"
	e=$(mono)
	read -r o1 w1 <<<"$(cpu_ns "$JPID")"
	echo "$name $s $e $(awk -v c=$((o1 - o0)) -v d=$((e - s)) \
		'BEGIN { printf "%.1f", c / 1e6 / (d / 1e9) }') $((w1 - w0))" >>"$res"
}

# steady F: the profiler's steady state, win s from now, its span (monotonic
# ns) in F.span: the throughput is taken there, as long as an idle window;
# the profiler's attach, stop and output are left out (before: the whole
# window less 0.3 s at each end, which held part of perfjava's start and
# its report, unprofiled time that made its cost look smaller)
steady() {
	local s
	s=$(mono)
	sleep "$win"
	echo "$s $(mono)" >"$1.span"
}
pj_window() { # pj_window TAG PERIOD_NS [OPTIONS]: the reader's CPU in its steady state
	local tag=$1 f=$TMP/$J.$1 p=$2 pid c0 c1
	shift 2
	# -d: the steady window and 2 s to spare, so that the reader is there
	# to be read at its end
	"$PJ_BIN" record -p "$JPID" -c "$p" -d $((win + 2)) -o "$f.data" "$@" 2>"$f.err" &
	pid=$!
	wait_for 10 grep -q '^perfjava: recording' "$f.err"
	c0=$(cut -d' ' -f1 /proc/$pid/schedstat 2>/dev/null)
	steady "$f"
	c1=$(cut -d' ' -f1 /proc/$pid/schedstat 2>/dev/null)
	wait "$pid"
	# none when the reader was not there at both ends (its figure left out)
	if [ -n "$c0" ] && [ -n "$c1" ]; then echo "$((c1 - c0))"; else echo "$J $tag: the reader's CPU not read" >&2; fi >"$f.cpu"
	"$PJ_BIN" report -i "$f.data" --format collapsed >"$f.folded" 2>/dev/null
}
ap_window() { # ap_window TAG INTERVAL
	local f=$TMP/$J.$1
	"$ASPROF" start -e cpu -i "$2" "$JPID" >/dev/null 2>&1
	steady "$f"
	"$ASPROF" stop -o collapsed -f "$f.folded" "$JPID" >/dev/null 2>&1
}
perf_window() { # perf_window TAG PERIOD_NS: perf record -g, its steady state
	local f=$TMP/$J.$1 pid
	rm -f "$f.ctl" "$f.ack"
	mkfifo "$f.ctl" "$f.ack"
	# its events enabled once it has read the process's maps (-D -1 and
	# the control fifo): the steady state starts at its ack
	"$PERF" record -q -D -1 --control "fifo:$f.ctl,$f.ack" -e cpu-clock \
		-c "$2" -g -p "$JPID" -o "$f.perf" 2>"$f.err" &
	pid=$!
	timeout 20 bash -c 'echo enable >"$1"; read -r _ <"$2"' _ "$f.ctl" "$f.ack" ||
		echo "$J: perf record did not start: $(head -c 200 "$f.err")"
	steady "$f"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	# its sample count, as a one-line stack for samples_of
	echo "perf $("$PERF" script -i "$f.perf" -F tid 2>/dev/null | wc -l)" >"$f.folded"
}
idle_window() { sleep "$win"; }
ctl_window() { steady "$TMP/$J.$1"; } # no profiler, timed as one
both_window() { # perfjava and async-profiler at 1 ms at once
	local f=$TMP/$J.$1
	"$ASPROF" start -e cpu -i 1ms "$JPID" >/dev/null 2>&1
	"$PJ_BIN" record -p "$JPID" -c 1000000 -d "$win" -o "$f.data" 2>"$f.err"
	"$ASPROF" stop -o collapsed -f "$f.folded" "$JPID" >/dev/null 2>&1
}

samples_of() { awk '{ s += $NF } END { print s + 0 }' "$1" 2>/dev/null || echo 0; }

for jdk in "${PJ_BENCH_JDKS[@]:-${JDKS[@]}}"; do
	J=$(jdk_name "$jdk")
	out=$TMP/$J.out
	res=$TMP/$J.res
	: >"$res"
	: >"$TMP/$J.verdict"
	# long enough for every window with its attach and detach; the
	# Workload's truth (its own CPU clock per method) comes when it ends
	# it works until told to stop (a bound of an hour): its length cannot
	# be reckoned from the windows', whose attach and output vary
	rm -f "$TMP/stop.$J"
	start_jvm "$jdk" "$out" -Dtruth.every=50 -Dstop.file="$TMP/stop.$J" -- Workload 3600 2 "$TMP/go.$J" ticks || continue
	touch "$TMP/go.$J"
	sleep "$win" # warm-up
	window idle0 idle_window
	for r in $(seq "$rounds"); do
		window "ctl.$r" ctl_window "ctl.$r"
		window "idle.g$r" idle_window
		window "pj1k.$r" pj_window "pj1k.$r" 1000000
		window "idle.a$r" idle_window
		window "nojava1k.$r" pj_window "nojava1k.$r" 1000000 --no-java
		window "idle.e$r" idle_window
		window "pjfp1k.$r" pj_window "pjfp1k.$r" 1000000 -g fp
		window "idle.f$r" idle_window
		window "pj100.$r" pj_window "pj100.$r" 10000000
		window "idle.b$r" idle_window
		window "nojava100.$r" pj_window "nojava100.$r" 10000000 --no-java
		window "idle.h$r" idle_window
		if [ -n "$ASPROF" ]; then
			window "ap1k.$r" ap_window "ap1k.$r" 1ms
			window "idle.c$r" idle_window
			window "ap100.$r" ap_window "ap100.$r" 10ms
			window "idle.d$r" idle_window
		fi
		if [ -n "$PERF" ]; then
			window "perf100.$r" perf_window "perf100.$r" 10000000
			window "idle.p$r" idle_window
		fi
	done
	[ -n "$ASPROF" ] && window both both_window both
	kill -0 "$JPID" 2>/dev/null ||
		echo "$J: the Workload ended before the last window: figures are partial"
	touch "$TMP/stop.$J"
	wait "$JWAIT" 2>/dev/null # its truth comes at its end

	# ratio of each profiled window to the mean of its neighbours
	mapfile -t lines <"$res"
	rt=()
	for i in "${!lines[@]}"; do
		read -r name ws we _ <<<"${lines[$i]}"
		if [ -s "$TMP/$J.$name.span" ]; then
			read -r ws we <"$TMP/$J.$name.span"
		elif [ "${name#idle}" = "$name" ]; then
			ws=$((ws + gap)) we=$((we - gap))
		fi
		rt[$i]=$(rate "$out" "$ws" "$we")
	done
	# "NAME WALL_RATIO OTHER_CPU CPU_RATIO" per window
	: >"$TMP/$J.ratios"
	for i in "${!lines[@]}"; do
		read -r name _ _ other _ <<<"${lines[$i]}"
		case $name in
		idle*) echo "idle 0 $other 0" >>"$TMP/$J.ratios" ;;
		both) ;;
		*) awk -v n="$name" -v p="${rt[$i]}" -v a="${rt[$((i - 1))]:-0 0}" -v b="${rt[$((i + 1))]:-0 0}" -v o="$other" \
			'BEGIN { split(p, P, " "); split(a, A, " "); split(b, B, " ")
				m = (A[1] + B[1]) / 2; c = (A[2] + B[2]) / 2
				printf "%s %.4f %s %.4f\n", n, m ? P[1] / m : 0, o, c ? P[2] / c : 0 }' >>"$TMP/$J.ratios" ;;
		esac
	done
	truth() { awk -v m="Workload.$1" '$1 == "truth" && $2 == m { print $3 }' "$out"; }
	attrib() { # attrib FOLDED WINDOW: largest |share - truth| over the
		# three methods, pp, the truth over that window (Truth's timeline)
		local se
		se=$(awk -v w="$2" '$1 == w { printf "%.6f %.6f", $2 / 1e9, $3 / 1e9 }' "$res")
		window_truth "$out" ${se:-0 0} Workload methodA methodB methodC >"$1.truth"
		stack_share "$1" Workload.methodA Workload.methodB Workload.methodC |
			while read -r m v; do
				t=$(awk -v f="$m" '$1 == f { print $2 }' "$1.truth")
				awk -v a="$v" -v b="${t:-0}" 'BEGIN { d = a - b; printf "%.2f\n", d < 0 ? -d : d }'
			done | sort -g | tail -1
	}
	echo "$J: truth (whole run) A $(truth methodA)% B $(truth methodB)% C $(truth methodC)%; attribution against the truth of each window; medians over $rounds rounds of ${win} s"
	for tag in ctl pj1k pjfp1k nojava1k ap1k pj100 nojava100 ap100 perf100; do
		[ -n "$ASPROF" ] || [ "${tag#ap}" = "$tag" ] || continue
		[ -n "$PERF" ] || [ "$tag" != perf100 ] || continue
		ratio=$(awk -v t="$tag" '$1 ~ "^" t "\\." { print $2 }' "$TMP/$J.ratios" | median)
		other=$(awk -v t="$tag" '$1 ~ "^" t "\\." { print $3 }' "$TMP/$J.ratios" | median)
		cpur=$(awk -v t="$tag" '$1 ~ "^" t "\\." { print $4 }' "$TMP/$J.ratios" | median)
		span=$(awk -v t="$tag" '$1 ~ "^" t "\\." { print $4 }' "$TMP/$J.ratios" | sort -g |
			awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }')
		echo "$tag $cpur" >>"$TMP/$J.verdict"
		if [ "$tag" = ctl ]; then
			echo "$J: control (no profiler, measured as a profiled window) ratio per worker CPU second $cpur (rounds $span), per wall second $ratio, JVM CPU outside workers $other ms/s: the run's noise"
			continue
		fi
		att=-
		case $tag in nojava* | perf*) ;; *) att=$(for r in $(seq "$rounds"); do attrib "$TMP/$J.$tag.$r.folded" "$tag.$r"; done | median) ;; esac
		smp=$(for f in "$TMP/$J.$tag".*.folded; do samples_of "$f"; done | median)
		line="$J: ${tag%%[0-9]*} $( [ "${tag#*1k}" != "$tag" ] && echo '1 ms ' || echo '10 ms') ratio per worker CPU second $cpur (rounds $span), per wall second $ratio, JVM CPU outside workers $other ms/s, $smp samples, attribution off by $att pp"
		if [ "$tag" != nojava1k ] && [ "${tag#pj}" != "$tag" ]; then
			# reader CPU in the steady window per 1000 samples taken in it
			cpu=$(for r in $(seq "$rounds"); do
				f=$TMP/$J.$tag.$r
				n=$(grep -oE '^perfjava: [0-9]+ samples' "$f.err" | grep -oE '[0-9]+' | head -1)
				awk -v n="${n:-0}" -v w="$win" '{ if (n) printf "%.2f\n", $1 / 1e6 * 1000 / (n * w / (w + 2)) }' "$f.cpu"
			done | median)
			pct=$(for r in $(seq "$rounds"); do
				awk -v w="$win" '{ printf "%.2f\n", $1 / 1e7 / w }' "$TMP/$J.$tag.$r.cpu"
			done | median)
			d50=$(for r in $(seq "$rounds"); do grep -oE 'latency median [0-9]+' "$TMP/$J.$tag.$r.err" | grep -oE '[0-9]+$'; done | median)
			d99=$(for r in $(seq "$rounds"); do grep -oE 'p99 [0-9]+ us' "$TMP/$J.$tag.$r.err" | sed -E 's/p99 ([0-9]+) us/\1/'; done | median)
			agree=$(for r in $(seq "$rounds"); do grep -oE '[0-9.]+% of [0-9]+ walks name' "$TMP/$J.$tag.$r.err" | grep -oE '^[0-9.]+'; done | median)
			line="$line, reader ${cpu} ms CPU per 1000 samples (${pct}% of a core), walk delay median ${d50} us p99 ${d99} us, ${agree}% name the sampled JIT code"
		fi
		echo "$line"
	done
	echo "$J: idle JVM CPU outside workers $(awk '$1 == "idle" { print $3 }' "$TMP/$J.ratios" | median) ms/s"
	# the goals, per worker CPU second
	awk -v j="$J" '{ r[$1] = $2 } END {
		pj = r["pj1k"]; nj = r["nojava1k"]; fp = r["pjfp1k"]; ap = r["ap1k"]; h = r["pj100"]
		hn = r["nojava100"]; ha = r["ap100"]; hp = r["perf100"]; ctl = r["ctl"]
		v1 = (nj - pj <= 0.005) ? "met" : "NOT met"
		v2 = (pj - ap >= 0.01) ? "met" : "NOT met"
		v3 = (fp >= pj - 0.002) ? "not below" : "BELOW"
		v4 = (ha == "" || h >= ha) && hn - h <= 0.003 ? "met" : "NOT met"
		printf "%s: verdict (per worker CPU second): 1 kHz perfjava %.3f, --no-java %.3f: %.1f pp apart (goal <= 0.5) %s", j, pj, nj, 100 * (nj - pj), v1
		if (ap != "") printf "; async-profiler %.3f: perfjava %.1f pp ahead (goal >= 1) %s", ap, 100 * (pj - ap), v2
		printf "; -g fp %.3f: %s the default; 100 Hz %.3f (goal: >= async-profiler at 10 ms, within 0.3 pp of --no-java) %s", fp, v3, h, v4
		printf " (--no-java %.3f%s%s); control %.3f (the noise of the run)\n", hn, ha != "" ? sprintf(", async-profiler %.3f", ha) : "", hp != "" ? sprintf(", perf record -g %.3f", hp) : "", ctl }' "$TMP/$J.verdict"
	# the verdict's comparisons round by round (column 4: per worker CPU
	# second)
	for p in "pj1k nojava1k perfjava - --no-java at 1 kHz" \
		"pj1k ap1k perfjava - async-profiler at 1 kHz" \
		"pjfp1k pj1k -g fp - default at 1 kHz" \
		"pj100 nojava100 perfjava - --no-java at 100 Hz" \
		"pj100 ap100 perfjava - async-profiler at 100 Hz" \
		"pj100 1 perfjava at 100 Hz - 1" \
		"ctl 1 control - 1 (no profiler)"; do
		read -r a b what <<<"$p"
		grep -q "^$a\." "$TMP/$J.ratios" &&
			{ [ "$b" = 1 ] || grep -q "^$b\." "$TMP/$J.ratios"; } &&
			paired_diff "$TMP/$J.ratios" 4 "$a" "$b" "$J: noise: $what"
	done
	if [ -n "$ASPROF" ]; then
		# async-profiler's samples per millisecond of worker CPU: 1.00
		# when every 1 ms sample of the workers arrives
		per_ms() { # per_ms WINDOW FOLDED
			awk -v n="$(samples_of "$2")" -v w="$1" '$1 == w { printf "%.2f\n", $5 ? n / ($5 / 1e6) : 0 }' "$res"
		}
		alone=$(for r in $(seq "$rounds"); do per_ms "ap1k.$r" "$TMP/$J.ap1k.$r.folded"; done | median)
		with=$(per_ms both "$TMP/$J.both.folded")
		pjs=$(grep -oE '^perfjava: [0-9]+ samples' "$TMP/$J.both.err" | grep -oE '[0-9]+' | head -1)
		echo "$J: coexistence at 1 ms: async-profiler's samples per ms of worker CPU $alone alone, $with while perfjava records the same JVM ($(samples_of "$TMP/$J.both.folded") samples; perfjava ${pjs:-0} meanwhile)"
	fi
done
