#!/usr/bin/env bash
# Native unwinding (user/unwind/) on one busy thread without frame pointers
# (selftests/progs/nofp):
# - the target's throughput while recorded at 1 kHz with -g fp, the default
#   (1 KiB stack copy + CFI) and -g dwarf (8 KiB), in one run of the target:
#   its rate of calls inside each recording against the unprofiled windows
#   around it, and each mode against -g fp;
# - the recorder's CPU time per 1,000 samples in each mode;
# - the largest sample rate -g dwarf keeps up with, without lost records.
# Figures only: it never fails on a timing.
set -u
. "$PJ_TOP/selftests/lib.sh"
win=${PJ_BENCH_WINDOW:-3}

# rate FROM_NS TO_NS: calls per second between two monotonic times
rate() {
	awk -v a="$1" -v b="$2" '$1 == "tick" && $2 >= a && $2 <= b {
		if (!t0) { t0 = $2; r0 = $3 } t1 = $2; r1 = $3 }
		END { if (t1 > t0) printf "%.1f", (r1 - r0) * 1e9 / (t1 - t0); else print 0 }' "$TMP/nofp.out"
}

# window DATA: "start end" of a recording (monotonic ns)
window() {
	"$PJ_BIN" report -i "$1" --format meta | awk '
		$1 == "meta" && $2 == "start_ns" { s = $3 }
		$1 == "stat" && $2 == "duration_ns" { d = $3 }
		END { printf "%.0f %.0f\n", s, s + d }'
}

# record MODE DATA ARGS...: records, prints "CPU-SECONDS SAMPLES LOST"
record() {
	local mode=$1 data=$2; shift 2
	local g=(-g "$mode") t0 t1
	[ "$mode" = default ] && g=()
	t0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
	TIMEFORMAT='%U %S'
	{ time "$PJ_BIN" record -p "$PID" "${g[@]}" "$@" -o "$data" 2>"$data.err"; } 2>"$data.time"
	awk -v f="$data.err" '{ cpu = $1 + $2 } END {
		while ((getline l < f) > 0) {
			if (match(l, /: [0-9]+ samples/)) { s = substr(l, RSTART + 2, RLENGTH - 10) + 0 }
			if (match(l, /, [0-9]+ lost/)) { x = substr(l, RSTART + 2, RLENGTH - 7) + 0 }
		}
		printf "%.3f %d %d\n", cpu, s, x }' "$data.time"
}

start_prog "$TMP/nofp.out" "$PROGS/nofp" $((8 * win + 30)) ticks
sleep "$win" # warm-up and the first unprofiled window
declare -A cpu samples lost start end
for mode in fp default dwarf; do
	read -r c s l <<<"$(record "$mode" "$TMP/$mode.data" -c 1000000 -d "$win")"
	cpu[$mode]=$c samples[$mode]=$s lost[$mode]=$l
	read -r a b <<<"$(window "$TMP/$mode.data")"
	start[$mode]=$a end[$mode]=$b
	sleep "$win" # unprofiled
done
gap=300000000 # keep 0.3 s away from the recorder's start and stop
prev=$((start[fp] - win * 1000000000))
declare -A ratio
for mode in fp default dwarf; do
	before=$(rate $((prev + gap)) $((start[$mode] - gap)))
	after=$(rate $((end[$mode] + gap)) $((end[$mode] + win * 1000000000 - gap)))
	in=$(rate "${start[$mode]}" "${end[$mode]}")
	prev=${end[$mode]}
	ratio[$mode]=$(awk -v p="$in" -v a="$before" -v b="$after" 'BEGIN { base = (a + b) / 2; printf "%.3f", base ? p / base : 0 }')
	awk -v m="$mode" -v p="$in" -v a="$before" -v b="$after" -v r="${ratio[$mode]}" -v c="${cpu[$mode]}" -v s="${samples[$mode]}" -v l="${lost[$mode]}" 'BEGIN {
		printf "nofp 1 kHz %-7s: calls/s profiled %.1f, unprofiled %.1f and %.1f: ratio %.3f; recorder %.3f s CPU for %d samples, %d lost\n",
			m, p, a, b, r, c, s, l }'
done
awk -v f="${ratio[fp]}" -v d="${ratio[default]}" -v w="${ratio[dwarf]}" 'BEGIN {
	printf "target throughput against -g fp: default %.3f, -g dwarf %.3f\n", f ? d / f : 0, f ? w / f : 0 }'

# --- the largest rate -g dwarf keeps up with on one busy thread (default
# ring size); the recorder's CPU per 1,000 samples from the difference
# between the first rate and the one that gave the most samples, so that
# its fixed cost (reading symbols, attaching) cancels out
best=0
for hz in 1000 2000 5000 10000 20000 50000; do
	read -r c s l <<<"$(record dwarf "$TMP/r$hz.data" -c $((1000000000 / hz)) -d 2)"
	echo "-g dwarf at $hz Hz asked: $s samples in 2 s ($((s / 2))/s), $l lost, recorder ${c} s CPU"
	[ "$l" -eq 0 ] && [ "$s" -gt 0 ] && best=$hz
	[ -z "${c0:-}" ] && c0=$c s0=$s
	[ "$s" -gt "${s1:-0}" ] && c1=$c s1=$s
done
echo "-g dwarf keeps up without lost records up to $best Hz asked (one busy thread; the kernel may sample less than asked)"
awk -v a="${c0:-0}" -v b="${c1:-0}" -v m="${s0:-0}" -v n="${s1:-0}" 'BEGIN {
	if (n > m) printf "recorder CPU per 1,000 -g dwarf samples: %.1f ms (%d to %d samples: %.3f to %.3f s)\n", 1e6 * (b - a) / (n - m), m, n, a, b
	else print "recorder CPU per 1,000 -g dwarf samples: not measured (one rate only)" }'
kill "$PID" 2>/dev/null
