#!/usr/bin/env bash
# The time of cpu-clock samples (pipeline/switchcost.h), on a native program
# whose thread alternates a long run with short runs between pipe round
# trips (progs/bursts, 20 us of CPU between waits), against the program's
# own thread-CPU clock: report --total gives each function its CPU time,
# where the sample count alone falls short on the short runs here. Also:
# the counts and weights the file keeps, and recordings the accounting
# does not apply to (two events, -e wall).
. "$(dirname "$0")/../lib.sh"

# bursts SETTLE SECONDS US: starts progs/bursts; sets PID
bursts() {
	: >"$TMP/b.out" # (the last one's "ready" is no answer: as start_jvm)
	"$PROGS/bursts" "$@" >"$TMP/b.out" &
	PID=$!
	track $PID
	wait_for 30 grep -qs '^ready' "$TMP/b.out"
}

# (its 3 s start once the recording is on: the truth is the recording's)
bursts "$TMP/b.go" 3 20
"$PJ_BIN" record -p "$PID" -c 1000000 -o "$TMP/b.data" 2>"$TMP/b.err" &
rec=$!
wait_for 30 grep -q '^perfjava: recording' "$TMP/b.err"
touch "$TMP/b.go"
wait "$rec"
check "record a program that blocks every 20 us exits 0" [ $? -eq 0 ]
wait "$PID"
read -r _ _ lms _ sms <<<"$(grep '^cpu ' "$TMP/b.out")"
"$PJ_BIN" report -i "$TMP/b.data" --format collapsed >"$TMP/n.folded"
"$PJ_BIN" report -i "$TMP/b.data" --format collapsed --total >"$TMP/t.folded"
"$PJ_BIN" report -i "$TMP/b.data" --format meta >"$TMP/meta"
stat() { awk -v k="$1" '$1 == "stat" && $2 == k { print $3 }' "$TMP/meta"; }

# per function: samples, time (ms), against its CPU time (ms)
read -r ln lt sn st <<<"$(awk '
	FNR == 1 { f++ }
	/(^|;)long_run(;| )/ { l[f] += $NF } /(^|;)short_runs(;| )/ { s[f] += $NF }
	END { print l[1] + 0, l[2] / 1e6, s[1] + 0, s[2] / 1e6 }' "$TMP/n.folded" "$TMP/t.folded")"
echo "# long_run: CPU ${lms:-?} ms, $ln samples, $lt ms of time"
echo "# short_runs: CPU ${sms:-?} ms, $sn samples, $st ms of time"
echo "# clock event $(stat clock_sampled_ns) ns for $(stat clock_nominal_ns) ns of nominal periods;" \
	"switch cost $(stat switch_cost_ps) ps over $(stat switch_cost_switches) switches"
# each thread's own (signed: the scheduler's time can be the smaller)
echo "# per thread (ps a switch): $(awk '$1 == "stat" && $2 ~ /^switch_cost_ps\./ {
	v = $3; if (v >= 2^63) v -= 2^64; printf "%s%s %.0f", s, substr($2, 16), v; s = ", " }' "$TMP/meta")"

check "every sample carries its clock's time (clock_sampled_ns)" [ -n "$(stat clock_sampled_ns)" ]
check "the switches were counted and their cost measured ($(stat switch_cost_switches) switches)" \
	[ "$(stat switch_cost_switches)" -gt 1000 ]
# neff FUNC: the samples of FUNC as a count of equal ones, (sum w)^2 / sum
# w^2 over their weights w (each the clock's time since the thread's
# previous sample): a time summed from unequal weights varies more than
# their count says (short runs' samples weigh from under 1 ms to several)
"$PJ_BIN" report -i "$TMP/b.data" --format script >"$TMP/b.script"
neff() {
	awk -v fn="$1" 'BEGIN { RS = "" } {
		split($0, ln, "\n"); split(ln[1], h, " ")
		if ($0 ~ ("\t *[0-9a-f]+ " fn " \\(")) { w = h[5]; s += w; q += w * w }
	} END { printf "%.0f", (q > 0 ? s * s / q : 0) }' "$TMP/b.script"
}
lne=$(neff long_run) sne=$(neff short_runs)
echo "# as counts of equal samples: long_run $lne, short_runs $sne"
# within 5%, or three standard errors of n equal samples when that is wider
within() {
	awk -v got="$1" -v want="$2" -v n="$3" 'BEGIN {
		tol = 3 / sqrt(n > 0 ? n : 1); if (tol < 0.05) tol = 0.05
		exit !(want > 0 && got / want >= 1 - tol && got / want <= 1 + tol) }'
}
check "long_run: its time is its CPU time ($lt ms for ${lms:-?} ms, $lne equal samples)" within "$lt" "${lms:-0}" "$lne"
check "short_runs: its time is its CPU time ($st ms for ${sms:-?} ms, $sne equal samples)" within "$st" "${sms:-0}" "$sne"
samples=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/n.folded")
check "sample counts stay counts ($samples, stat $(stat samples))" [ "$samples" = "$(stat samples)" ]

# record_bursts NAME ARGS...: bursts for 1 s from the moment perfjava
# record ARGS records it (however long a loaded machine makes that take);
# sets rc
record_bursts() {
	local n=$1 r; shift
	rm -f "$TMP/b.go"
	bursts "$TMP/b.go" 1 20
	"$PJ_BIN" record -p "$PID" "$@" -o "$TMP/$n.data" 2>"$TMP/$n.err" &
	r=$!
	wait_for 60 grep -q '^perfjava: recording' "$TMP/$n.err"
	touch "$TMP/b.go"
	wait "$r"
	rc=$?
	wait "$PID"
}

# two events: no group read, nothing to account; the record works as before
record_bursts two -e cpu-clock,page-faults
"$PJ_BIN" report -i "$TMP/two.data" --format meta >"$TMP/meta"
check "two events: recorded (exit $rc), no clock accounting" \
	[ "$rc" -eq 0 -a -z "$(stat clock_sampled_ns)" -a -n "$(stat samples)" ]

# --wall: off-CPU intervals already hold the switches' time
record_bursts wall --wall
if grep -q tracefs "$TMP/wall.err"; then
	skip "--wall: no clock accounting" "$(head -1 "$TMP/wall.err")"
else
	"$PJ_BIN" report -i "$TMP/wall.data" --format meta >"$TMP/meta"
	check "--wall: recorded (exit $rc), no clock accounting" \
		[ "$rc" -eq 0 -a -z "$(stat switch_cost_switches)" ]
fi
echo "1..$_tap_n"
