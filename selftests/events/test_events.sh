#!/usr/bin/env bash
# Events for real on this machine: software events, a tracepoint with decoded
# fields, a hardware breakpoint, several events at once with per-event reports,
# per-event periods; the errors of events this machine cannot open; and
# `perfjava list`. The hardware paths are covered by the unit tests
# test_events, test_multievent and test_lbr on synthesized input.
. "$(dirname "$0")/../lib.sh"

# start_mix SECONDS: runs ev_mix, sets PID, ADDR (&watched) and FIRED (the
# hits of ev_mix's own breakpoint for 10 writes: 0 where the machine's
# breakpoints never fire, -1 where the kernel refuses one)
start_mix() {
	"$PROGS/ev_mix" "$1" >"$TMP/mix.out" 2>&1 &
	PID=$!
	track $PID
	wait_for 10 grep -qs '^ready' "$TMP/mix.out" || return 1
	read -r _ _ ADDR FIRED < <(grep '^ready' "$TMP/mix.out")
}

# share FOLDED FUNC: % of the weight whose stack holds FUNC
share() {
	awk -v fn="$2" '{
		w = $NF; tot += w; line = $0; sub(/ [0-9]+$/, "", line)
		n = split(line, fr, ";")
		for (i = 1; i <= n; i++) if (fr[i] == fn) { hit += w; break }
	} END { printf "%.1f", tot ? 100 * hit / tot : 0 }' "$1"
}
total() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# record NAME ARGS...: records ev_mix into $TMP/NAME.data
record() {
	local n=$1; shift
	"$PJ_BIN" record -q -p "$PID" -o "$TMP/$n.data" "$@" 2>"$TMP/$n.err"
}
folded() {
	local n=$1; shift
	"$PJ_BIN" report -i "$TMP/$n.data" --format collapsed "$@" >"$TMP/$n.folded"
}

# counted NAME ARGS...: records as record does; sets CPU_NS, FAULTS and NAPS
# to what ev_mix did over the window its samples in NAME.data cover (its
# "cum" lines: CPU time, faults that read no file, voluntary switches),
# whatever the load made of -d
counted() {
	local n=$1 rc win; shift
	record "$n" "$@"
	rc=$?
	win=$(sample_window "$TMP/$n.data" 'round_once')
	read -r FAULTS NAPS CPU_NS < <(awk -v a="${win%% *}" -v b="${win##* }" '
	$1 == "cum" && a != "" {
		t = $2 / 1e9
		if (!nlo || t <= a) { nlo = 1; for (i = 3; i <= 5; i++) lo[i] = $i }
		if (!done) for (i = 3; i <= 5; i++) hi[i] = $i
		if (t >= b) done = 1
	}
	END { print hi[3] - lo[3], hi[4] - lo[4], hi[5] - lo[5] }' "$TMP/mix.out")
	return $rc
}

# expect_fail DESC PATTERN ARGS...: record fails with one line matching PATTERN
expect_fail() {
	local d=$1 pat=$2; shift 2
	rm -f "$TMP/fail.data"
	"$PJ_BIN" record -q -p "$PID" -d 1 -o "$TMP/fail.data" "$@" >"$TMP/fail.out" 2>"$TMP/fail.err"
	local rc=$? lines
	lines=$(wc -l <"$TMP/fail.err")
	if [ $rc -ne 0 ] && [ "$lines" -eq 1 ] && grep -qE -- "$pat" "$TMP/fail.err" &&
		[ ! -e "$TMP/fail.data" ]; then
		ok "$d: $(cat "$TMP/fail.err")"
	else
		not_ok "$d (rc $rc, $lines lines, file left: $([ -e "$TMP/fail.data" ] && echo yes || echo no)): $(cat "$TMP/fail.err")"
	fi
}

start_mix 900 || { not_ok "ev_mix did not start"; exit 0; }

# count_ok N E: N events recorded of E that happened over the window of the
# recording's samples (the window's edges: a round on each side), within what
# sampling a clock in short runs misses (bench_cpuclock.sh: 15%)
count_ok() { awk -v n="$1" -v e="$2" 'BEGIN { exit !(e > 0 && n >= 0.6 * e - 5 && n <= 1.2 * e + 5) }'; }
# rate_ok N HZ NS: N samples match HZ per second of the NS of CPU the
# program used meanwhile
rate_ok() { count_ok "$1" "$(awk -v hz="$2" -v t="$3" 'BEGIN { print t / 1e9 * hz }')"; }
cpu_s() { awk -v t="$1" 'BEGIN { printf "%.2f", t / 1e9 }'; }

# --- software events, each landing in its own function (spin_cpu's share
# of ev_mix's CPU is ~60% on a quiet machine, its page touching's kernel
# work the rest; that grows under load: at least 40% says it dominates)
SPIN_MIN=40
counted clock -e cpu-clock -d 1.5
check "cpu-clock records (exit 0)" [ $? -eq 0 ]
t=$CPU_NS
folded clock
s=$(share "$TMP/clock.folded" spin_cpu); n=$(total "$TMP/clock.folded")
check_share_min "cpu-clock: spin_cpu dominates" "$s" "$n" $SPIN_MIN
check "cpu-clock: 100 samples per second on CPU ($n in $(cpu_s "$t") s of CPU)" \
	rate_ok "$n" 100 "$t"

record task -e task-clock -d 1.5
folded task
s=$(share "$TMP/task.folded" spin_cpu); n=$(total "$TMP/task.folded")
check_share_min "task-clock: spin_cpu dominates" "$s" "$n" $SPIN_MIN
folded task --total
w=$(total "$TMP/task.folded")
check "task-clock --total weighs ns: ~10 ms per sample ($w ns / $n)" \
	awk -v w="$w" -v n="$n" 'BEGIN { exit !(n && w / n > 5e6 && w / n < 2e7) }'

counted pf -e page-faults -d 1.5
folded pf
s=$(share "$TMP/pf.folded" touch_fresh_pages); n=$(total "$TMP/pf.folded")
check_share_min "page-faults: touch_fresh_pages dominates" "$s" "$n" 90
check "page-faults: one sample per fault ($n of the $FAULTS the kernel counted)" count_ok "$n" "$FAULTS"

# voluntary switches: stacks that are not a preemption, which a loaded
# machine makes anywhere: on return from an interrupt or a fault
# (irqentry_exit), at a system call's end (exit_to_user_mode_loop) or at a
# point of a long one that offers the CPU (__cond_resched: munmap's)
voluntary() {
	grep -v 'irqentry_exit\|asm_sysvec\|exit_to_user_mode_loop\|_cond_resched\|preempt_schedule' "$1" >"$1.vol"
}
counted cs -e context-switches -d 1.5
v=$NAPS
folded cs
voluntary "$TMP/cs.folded"
s=$(share "$TMP/cs.folded.vol" nap_in_known_place); n=$(total "$TMP/cs.folded.vol")
check_share_min "context-switches: voluntary ones in nap_in_known_place" "$s" "$n" 90
check "context-switches: one per nap ($n of the $v voluntary switches the kernel counted)" count_ok "$n" "$v"

# --- a tracepoint: off-CPU stacks with decoded prev_state
counted sw -e sched:sched_switch -d 1.5
check "sched:sched_switch records (exit 0)" [ $? -eq 0 ]
"$PJ_BIN" report -i "$TMP/sw.data" --format script >"$TMP/sw.script"
sleeping=$(awk 'BEGIN { RS = "" } /prev_state=S / && /nap_in_known_place/ && /round_once/ && /do_nanosleep/ { n++ } END { print n + 0 }' "$TMP/sw.script")
all=$(grep -c 'sched:sched_switch:' "$TMP/sw.script")
check "sched_switch: $sleeping of $all samples (of $NAPS naps) sleep (prev_state=S) in main;round_once;nap_in_known_place;...do_nanosleep" \
	count_ok "$sleeping" "$NAPS"
check "every sched_switch sample carries its decoded fields" \
	[ "$(grep 'sched:sched_switch:' "$TMP/sw.script" | grep -vc 'prev_comm=ev_mix prev_pid=[0-9]* prev_prio=[0-9]* prev_state=')" -eq 0 ]
echo "# $(grep -m1 'prev_state=S' "$TMP/sw.script")"

# tracefs mounted on demand: in a private mount namespace without it
if command -v unshare >/dev/null && [ "$(id -u)" -eq 0 ]; then
	unshare -m --propagation private sh -c \
		'umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null
		 ! test -e /sys/kernel/tracing/events || exit 3
		 exec "$0" record -q -p "$1" -e sched:sched_switch -d 0.5 -o "$2"' \
		"$PJ_BIN" "$PID" "$TMP/mnt.data" 2>"$TMP/mnt.err"
	rc=$?
	if [ $rc -eq 3 ]; then
		skip "tracefs mounted on demand" "cannot unmount tracefs in a private namespace"
	else
		check "without tracefs, record mounts it and says so (rc $rc): $(cat "$TMP/mnt.err")" \
			grep -q 'mounted tracefs on /sys/kernel/tracing' "$TMP/mnt.err"
	fi
else
	skip "tracefs mounted on demand" "needs root and unshare"
fi

# --- a hardware breakpoint on a known variable
record bp -e "mem:$ADDR:w" -d 1.5
rc=$?
if [ $rc -ne 0 ] && grep -q 'refuses' "$TMP/bp.err"; then
	skip "breakpoint on watched" "kernel refuses: $(cat "$TMP/bp.err")"
elif [ "$FIRED" = 0 ]; then
	check "mem:ADDR:w records (exit $rc)" [ $rc -eq 0 ]
	skip "breakpoint hits in bump_watched" "this machine's breakpoints never fire: ev_mix's own write breakpoint counted 0 of 10 writes (a hypervisor that does not deliver debug exceptions)"
else
	folded bp
	s=$(share "$TMP/bp.folded" bump_watched); n=$(total "$TMP/bp.folded")
	check_share_min "mem:$ADDR:w: every hit in bump_watched" "$s" "$n" 99
	check "mem:...:w: ten hits per round ($n)" at_least "$n" 200
fi
record bp8 -e "mem:$ADDR/8" -d 0.5
rc=$?
folded bp8
n=$(total "$TMP/bp8.folded")
if [ "$FIRED" = 0 ]; then
	check "mem:ADDR/8 (read or write, 8 bytes) records (exit $rc): $(cat "$TMP/bp8.err")" [ $rc -eq 0 ]
else
	check "mem:ADDR/8 (read or write, 8 bytes) records hits (exit $rc, $n hits): $(cat "$TMP/bp8.err")" \
		eval '[ $rc -eq 0 ] && [ "$n" -gt 0 ]'
fi

# --- several events at once, one report per event
record multi -e cpu-clock,page-faults,context-switches -d 2
check "three events in one recording (exit 0)" [ $? -eq 0 ]
for pair in cpu-clock:spin_cpu:$SPIN_MIN page-faults:touch_fresh_pages:90 \
	context-switches:nap_in_known_place:90; do
	IFS=: read -r ev fn min <<<"$pair"
	folded multi --event "$ev"
	voluntary "$TMP/multi.folded"
	[ "$ev" = context-switches ] && mv "$TMP/multi.folded.vol" "$TMP/multi.folded"
	s=$(share "$TMP/multi.folded" "$fn"); n=$(total "$TMP/multi.folded")
	check_share_min "report --event $ev: $fn dominates" "$s" "$n" "$min"
done
for ev in cpu-clock page-faults context-switches; do
	n=$("$PJ_BIN" report -i "$TMP/multi.data" --format script --event "$ev" |
		awk -v e="$ev:" '$6 == e { n++ } END { print n + 0 }')
	m=$("$PJ_BIN" report -i "$TMP/multi.data" --format collapsed --event "$ev" | awk '{ s += $NF } END { print s + 0 }')
	check "script --event $ev: its samples, named ($n, report's $m)" eval '[ "$n" -gt 0 ] && [ "$n" = "$m" ]'
done

# per-event periods and -e repeated
counted per -e cpu-clock/period=2000000/ -e page-faults/period=4/ -d 1.5
check "per-event periods record (exit 0)" [ $? -eq 0 ]
t=$CPU_NS f=$FAULTS
"$PJ_BIN" report -i "$TMP/per.data" --format script \
	--event page-faults/period=4/ >"$TMP/per.script"
pf4=$(awk '$6 == "page-faults/period=4/:" { n++; if ($5 != 4) bad++ } END { print n + 0, bad + 0 }' "$TMP/per.script")
check "page-faults/period=4/: every sample has period 4 ($pf4: samples, others)" \
	awk -v s="$pf4" 'BEGIN { split(s, a, " "); exit !(a[1] > 50 && a[2] == 0) }'
# a sample every 4 faults: a quarter of the faults the kernel counted for
# the program meanwhile (minflt: the recording's window is within that one)
got=$(awk -v s="$pf4" 'BEGIN { split(s, a, " "); print a[1] }')
check "page-faults/period=4/ samples one fault in 4 ($got samples for $f faults)" \
	count_ok "$got" "$((f / 4))"
folded per --event cpu-clock/period=2000000/
n=$(total "$TMP/per.folded")
check "cpu-clock/period=2000000/: 500 samples per second on CPU ($n in $(cpu_s "$t") s of CPU)" \
	rate_ok "$n" 500 "$t"

# --- what cannot open here: one line, non-zero exit, no file left
expect_fail "unknown event" "unknown event 'nosuchevent'" -e nosuchevent
expect_fail "bad modifier" "bad modifier 'z'" -e cpu-clock:z
expect_fail "tracepoint that does not exist" "no tracepoint sched:no_such_tp" -e sched:no_such_tp
expect_fail "tracepoint subsystem that does not exist" "no tracepoint subsystem 'nosys'" -e nosys:x
expect_fail "unknown PMU" "no PMU 'nopmu'" -e nopmu/event=1/
expect_fail "x86 cannot watch reads only" "reads only" -e "mem:$ADDR:r"
expect_fail "misaligned breakpoint" "aligned" -e "mem:$((ADDR + 1))/8:w"
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	skip "hardware events without a PMU" "this machine has a CPU PMU"
else
	expect_fail "cycles without a PMU" "no hardware PMU.*-e cpu-clock" -e cycles
	expect_fail "a cache event without a PMU" "no hardware PMU" -e L1-dcache-load-misses
	expect_fail "a raw event without a PMU" "no hardware PMU" -e r003c
	expect_fail "pmu syntax without a cpu PMU" "no PMU 'cpu'.*no hardware PMU" -e cpu/event=0x3c,umask=0x0/
	expect_fail "a hardware event among software ones" "cannot open instructions: no hardware PMU" \
		-e cpu-clock,instructions
	expect_fail "-g lbr without a PMU" "-g lbr needs .*no hardware PMU.*-g fp" -g lbr -e cpu-clock
	"$PJ_BIN" record -p "$PID" -d 0.3 -o "$TMP/def.data" 2>"$TMP/def.err"
	check "no -e: cpu-clock with a notice: $(head -1 "$TMP/def.err")" \
		grep -q 'no hardware PMU (cycles); sampling cpu-clock instead' "$TMP/def.err"
fi
if [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
	expect_fail "msr/tsc/ counts but cannot sample" "the msr PMU counts but cannot sample" -e msr/tsc/
fi
expect_fail "-g lbr with a software event" "-g lbr" -g lbr -e cpu-clock

# --- perfjava list: every kind, probed
"$PJ_BIN" list >"$TMP/list.txt" 2>"$TMP/list.err"
check "perfjava list exits 0" [ $? -eq 0 ]
for re in '^  cpu-clock +yes$' '^  page-faults OR faults +yes$' \
	'^  sched:sched_switch +yes$' '^  mem:ADDR\[/LEN\]\[:rwx\] +yes$' \
	'^  L1-dcache-load-misses ' '^  rNNNN' '^  lbr ' \
	'^  kernel frames +named by /proc/kallsyms$'; do
	check "list: /$re/" grep -qE "$re" "$TMP/list.txt"
done
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	check "list: cycles cannot open here, with the reason" \
		grep -qE '^  cycles OR cpu-cycles +no: no hardware PMU' "$TMP/list.txt"
fi
awk '{ $1 = "0000000000000000"; print }' /proc/kallsyms >"$TMP/kallsyms.hidden"
PERFJAVA_KALLSYMS=$TMP/kallsyms.hidden "$PJ_BIN" list ksym >"$TMP/ksym.txt"
check "list ksym, kallsyms hidden: kallsyms 'no' with the reason" \
	grep -qE '^  /proc/kallsyms +no: .* (shows no|hides) addresses' "$TMP/ksym.txt"
check "list ksym, kallsyms hidden: the module's state and the verdict" \
	eval "grep -qE '^  perfjava_ksym module +no: perfjava_ksym is not loaded$' '$TMP/ksym.txt' &&
		grep -qE '^  kernel frames +unnamed: ' '$TMP/ksym.txt'"
n=$("$PJ_BIN" list tracepoint | grep -c '^  [a-z0-9_]*:[a-zA-Z0-9_]*$')
check "list tracepoint names them all ($n)" at_least "$n" 100
"$PJ_BIN" list nonsense 2>"$TMP/le.err"
check "list with an unknown kind fails in one line" \
	[ $? -ne 0 -a "$(wc -l <"$TMP/le.err")" -eq 1 ]

kill "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
exit 0
