#!/usr/bin/env bash
# Native stacks without frame pointers: -g dwarf (CFI over an 8 KiB stack
# copy), the default (CFI over 1 KiB joined with the frame-pointer chain) and
# -g fp on a program and library built -O2 -fomit-frame-pointer; a thread
# sleeping in clock_nanosleep, seen by a clock, a period-sampled event and a
# tracepoint; the -g option's errors.
. "$(dirname "$0")/../lib.sh"

# share PATTERN FOLDED: percentage of samples whose stack matches PATTERN
share() {
	awk -v re="$1" '{ n = $NF; t += n; $NF = ""; if ($0 ~ re) m += n }
		END { printf "%.1f", t ? 100 * m / t : 0 }' "$2"
}

chain='(^|;)main;nofp_a;nofp_lib_b;nofp_lib_c;nofp_d;nofp_leaf'
whole="$chain( |;)"
start_prog "$TMP/nofp.out" "$PROGS/nofp" 60
for mode in dwarf default fp; do
	g=(-g "$mode"); [ "$mode" = default ] && g=()
	"$PJ_BIN" record -p "$PID" "${g[@]}" -c 2000000 -d 2 -o "$TMP/$mode.data" 2>"$TMP/$mode.err"
	check "record -g $mode on nofp exits 0" [ $? -eq 0 ]
	"$PJ_BIN" report -i "$TMP/$mode.data" --format collapsed >"$TMP/$mode.folded"
	eval "pct_$mode=$(share "$whole" "$TMP/$mode.folded")"
	sed 's/^/#   /' "$TMP/$mode.err"
done
echo "# nofp stacks main;nofp_a;nofp_lib_b;nofp_lib_c;nofp_d;nofp_leaf:" \
	"dwarf $pct_dwarf%, default $pct_default%, fp $pct_fp%"
# Samples the kernel could not copy a stack for (it happens when the
# sample is taken while the thread is switched in, often on a busy
# machine) cannot be unwound by anyone: they are counted apart.
total=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/dwarf.folded")
nocopy=$(sed -nE 's/.*, ([0-9]+) without a stack copy.*/\1/p' "$TMP/dwarf.err")
copied=$(awk -v p="$pct_dwarf" -v t="$total" -v n="${nocopy:-0}" \
	'BEGIN { printf "%.1f", (t > n ? p * t / (t - n) : 0) }')
echo "# -g dwarf: $nocopy of $total samples without a stack copy; $copied% of the others whole"
check "-g dwarf: >= 95% of copied stacks down to main, names in order ($copied%)" \
	awk -v p="$copied" 'BEGIN { exit !(p >= 95) }'
check "-g dwarf: the summary counts complete, cut and no-CFI stacks" \
	grep -qE 'dwarf: [0-9]+ stacks complete, [0-9]+ cut by the 8192-byte stack copy.*[0-9]+ stopped for lack of CFI' "$TMP/dwarf.err"
check "-g fp: the summary names the object without frame pointers" \
	grep -q "of stacks end in .*/nofp, which keeps no frame pointers; -g dwarf" "$TMP/fp.err"
check "default mode: more whole stacks than -g fp ($pct_default% vs $pct_fp%)" \
	awk -v a="$pct_default" -v b="$pct_fp" 'BEGIN { exit !(a > b) }'
"$PJ_BIN" record -q -p "$PID" -g dwarf,1024 -c 2000000 -d 1 -o "$TMP/small.data"
check "-g dwarf,1024 records" [ $? -eq 0 ]
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null

# --- a leaf in the [vdso] (clock_gettime in a loop): its CFI is read from
# the target's memory
start_prog "$TMP/clk.out" "$PROGS/nofp" 60 clock
"$PJ_BIN" record -p "$PID" -g dwarf -c 2000000 -d 1.5 -o "$TMP/clk.data" 2>"$TMP/clk.err"
"$PJ_BIN" report -i "$TMP/clk.data" --format collapsed >"$TMP/clk.folded"
total=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/clk.folded")
nocopy=$(sed -nE 's/.*, ([0-9]+) without a stack copy.*/\1/p' "$TMP/clk.err")
pct=$(share "$chain"';clock_gettime;__vdso_clock_gettime' "$TMP/clk.folded")
copied=$(awk -v p="$pct" -v t="$total" -v n="${nocopy:-0}" \
	'BEGIN { printf "%.1f", (t > n ? p * t / (t - n) : 0) }')
check "-g dwarf from a leaf in the vdso: $copied% of copied stacks down to main" \
	awk -v p="$copied" 'BEGIN { exit !(p >= 80) }'
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null

# --- CFI from a separate debug file: the program's own functions have no
# .eh_frame, their .debug_frame sits in the file its .gnu_debuglink names
src=$PJ_TOP/selftests/progs/nofp
mkdir -p "$TMP/dbg"
if command -v objcopy >/dev/null && command -v strip >/dev/null &&
	cc -O2 -g -fomit-frame-pointer -fno-inline -fno-optimize-sibling-calls \
		-fno-asynchronous-unwind-tables -fno-unwind-tables \
		-o "$TMP/dbg/nofpd" "$src/nofp.c" "$src/nofp_lib.c" &&
	objcopy --only-keep-debug "$TMP/dbg/nofpd" "$TMP/dbg/nofpd.debug" &&
	strip --strip-debug "$TMP/dbg/nofpd" &&
	objcopy --add-gnu-debuglink="$TMP/dbg/nofpd.debug" "$TMP/dbg/nofpd"; then
	start_prog "$TMP/dbg.out" "$TMP/dbg/nofpd" 60
	"$PJ_BIN" record -p "$PID" -g dwarf -c 2000000 -d 1.5 -o "$TMP/dbg.data" 2>"$TMP/dbg.err"
	"$PJ_BIN" report -i "$TMP/dbg.data" --format collapsed >"$TMP/dbg.folded"
	total=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/dbg.folded")
	nocopy=$(sed -nE 's/.*, ([0-9]+) without a stack copy.*/\1/p' "$TMP/dbg.err")
	pct=$(share "$whole" "$TMP/dbg.folded")
	copied=$(awk -v p="$pct" -v t="$total" -v n="${nocopy:-0}" \
		'BEGIN { printf "%.1f", (t > n ? p * t / (t - n) : 0) }')
	check ".debug_frame of a separate debug file: $copied% of copied stacks down to main" \
		awk -v p="$copied" 'BEGIN { exit !(p >= 90) }'
	kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null
else
	skip ".debug_frame of a separate debug file" "cc, objcopy or strip failed"
fi

# --- a thread sleeping in doze() -> clock_nanosleep (libc keeps no frame
# pointer, so the frame-pointer chain skips doze)
start_prog "$TMP/sl.out" "$PROGS/sleeper" 60
for mode in default fp dwarf; do
	g=(-g "$mode"); [ "$mode" = default ] && g=()
	"$PJ_BIN" record -q -p "$PID" "${g[@]}" -e context-switches -F 500 -d 1 -o "$TMP/sl-$mode.data"
	"$PJ_BIN" report -i "$TMP/sl-$mode.data" --format collapsed >"$TMP/sl-$mode.folded"
	eval "sl_$mode=$(share '(^|;)main;doze;clock_nanosleep(;| )' "$TMP/sl-$mode.folded")"
done
echo "# sleeper stacks main;doze;clock_nanosleep: default $sl_default%, dwarf $sl_dwarf%, fp $sl_fp%"
check "default mode: doze is kept above clock_nanosleep ($sl_default%)" \
	awk -v p="$sl_default" 'BEGIN { exit !(p >= 90) }'
# off-CPU samples (the stack where a thread blocked) copy the stack too
if "$PJ_BIN" record -q -p "$PID" -e offcpu -d 1 -o "$TMP/sl-off.data" 2>"$TMP/sl-off.err"; then
	"$PJ_BIN" report -i "$TMP/sl-off.data" --format collapsed >"$TMP/sl-off.folded"
	off=$(share '(^|;)main;doze;clock_nanosleep(;| )' "$TMP/sl-off.folded")
	check "-e offcpu, default mode: doze kept above clock_nanosleep ($off% of the time)" \
		awk -v p="$off" 'BEGIN { exit !(p >= 90) }'
else
	skip "-e offcpu, default mode: doze kept" "$(head -1 "$TMP/sl-off.err")"
fi
# every event kind copies the stack: events sampled every N occurrences
# and tracepoints (whose callchain is the task's at the event) keep doze too
"$PJ_BIN" record -q -p "$PID" -e context-switches -d 1 -o "$TMP/sl-period.data"
"$PJ_BIN" report -i "$TMP/sl-period.data" --format collapsed >"$TMP/sl-period.folded"
cg=$("$PJ_BIN" report -i "$TMP/sl-period.data" --format meta | awk '$2 == "callgraph" { print $3 }')
pct=$(share '(^|;)main;doze;clock_nanosleep(;| )' "$TMP/sl-period.folded")
check "default mode with a period-sampled event: CFI too ($cg), doze kept ($pct%)" \
	awk -v p="$pct" -v cg="$cg" 'BEGIN { exit !(p >= 90 && cg == "fp+cfi") }'
if "$PJ_BIN" record -q -p "$PID" -e sched:sched_switch -d 1 -o "$TMP/sl-tp.data" 2>"$TMP/sl-tp.err"; then
	"$PJ_BIN" report -i "$TMP/sl-tp.data" --format collapsed >"$TMP/sl-tp.folded"
	pct=$(share '(^|;)main;doze;clock_nanosleep(;| )' "$TMP/sl-tp.folded")
	check "-e sched:sched_switch, default mode: doze kept above clock_nanosleep ($pct%)" \
		awk -v p="$pct" 'BEGIN { exit !(p >= 90) }'
else
	skip "-e sched:sched_switch, default mode: doze kept" "$(head -1 "$TMP/sl-tp.err")"
fi
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null

# --- the option's errors: one line, what to do, non-zero exit
for bad in dwarf,0 dwarf,65536 dwarf,x dwarfy frame; do
	"$PJ_BIN" record -p $$ -g "$bad" -d 1 -o "$TMP/bad.data" 2>"$TMP/bad.err"
	rc=$?
	check "-g $bad refused in one line (exit $rc)" \
		test $rc -ne 0 -a "$(wc -l <"$TMP/bad.err")" -eq 1
done
grep -q 'use -g fp, -g lbr or -g dwarf' "$TMP/bad.err"
check "the message says which modes exist" [ $? -eq 0 ]
# a ring that cannot hold one sample would get none, silently
"$PJ_BIN" record -p $$ -g dwarf -m 2 -d 1 -o "$TMP/bad.data" 2>"$TMP/bad.err"
rc=$?
check "-g dwarf -m 2 refused in one line that says how many pages (exit $rc)" \
	test $rc -ne 0 -a "$(wc -l <"$TMP/bad.err")" -eq 1 -a -n "$(grep -- '-m 8 or more' "$TMP/bad.err")"
echo "1..$_tap_n"
