#!/usr/bin/env bash
# The limit of cpu-clock sampling with short runs between waits, on a native
# program (progs/bursts: no JVM, no agent). Its thread alternates a 5 ms run
# with 100 pipe round trips of N us of CPU each and measures both with its
# own thread CPU clock; perfjava samples it every 1 ms of CPU. Prints, per N,
# the samples of each function against its CPU time in ms (1.00 when every
# sample due arrives), then its time in report --total (each sample weighs
# its clock's time since the thread's previous sample and the switches
# between: pipeline/switchcost.h) against its CPU time. (async-profiler's -e
# cpu reads the Trust workload's pipe phase short the same way as the
# sample counts; README, Events.)
#
# Figures only: it never fails on a timing.
. "$PJ_TOP/selftests/lib.sh"

for us in 20 100 500; do
	out=$TMP/b$us.out
	"$PROGS/bursts" 0.5 3 "$us" >"$out" &
	pid=$!
	wait_for 10 grep -q '^ready' "$out"
	"$PJ_BIN" record -q -p "$pid" -c 1000000 -o "$TMP/b$us.data" 2>"$TMP/b$us.err"
	wait "$pid"
	"$PJ_BIN" report -i "$TMP/b$us.data" --format collapsed >"$TMP/b$us.folded" 2>/dev/null
	"$PJ_BIN" report -i "$TMP/b$us.data" --format collapsed --total >"$TMP/b$us.time" 2>/dev/null
	read -r _ _ lms _ sms <<<"$(grep '^cpu ' "$out")"
	awk -v us="$us" -v lms="${lms:-0}" -v sms="${sms:-0}" '
		FNR == 1 { f++ }
		/(^|;)long_run(;| )/ { l[f] += $NF } /(^|;)short_runs(;| )/ { s[f] += $NF }
		END { printf "runs of %3d us between waits: long_run %d samples for %.0f ms of CPU (%.2f), short_runs %d for %.0f ms (%.2f); time: long_run %.3f, short_runs %.3f\n",
			us, l[1], lms, lms ? l[1] / lms : 0, s[1], sms, sms ? s[1] / sms : 0,
			lms ? l[2] / 1e6 / lms : 0, sms ? s[2] / 1e6 / sms : 0 }' "$TMP/b$us.folded" "$TMP/b$us.time"
done
