#!/usr/bin/env bash
# What the targets start, recorded from its first instruction as perf record
# does (issue 46), side by side with perf record -F 100 -g on the same run
# (skipped where perf cannot record): a program's 20 threads of 50 ms one
# after another; a script's 20 programs of 0.1 s, each named with its
# command line, a fork named as its parent, --pid on one of them, the
# recording ending with the script; eight threads switching on every CPU
# at once, their samples there to the end; -p of a shell that starts them
# after the recording began; --no-inherit; -a with programs and threads that live
# a few milliseconds. perfjava's samples in their code are at least 90% of
# perf's, within three standard errors of perf's count (the machine is
# shared: both count the same run).
# alone: it records the whole machine (-a), whose other tests' programs
# would be counted with its own
. "$(dirname "$0")/../lib.sh"

PERF=
perf_can_record && PERF=perf

# side LABEL FUNC FOLDED PERFDATA: perfjava's samples in FUNC (of the
# collapsed FOLDED) at least 90% of perf's (in PERFDATA)
side() {
	local pj pf
	pj=$(pj_with "$3" "$2")
	if [ -z "$PERF" ]; then
		echo "# $1: samples in $2: perfjava $pj"
		skip "$1: perfjava's samples in $2 >= 90% of perf's" "$PERF_WHY"
		return
	fi
	pf=$(perf_with "$4" "$2")
	echo "# $1: samples in $2: perf record $pf, perfjava $pj"
	check "$1: perfjava's samples in $2 ($pj) >= 90% of perf record's ($pf)" \
		at_least_of "$pj" "$pf" 0.9
}

# roots FOLDED REGEX: the processes or threads (a collapsed report's root
# frames) with a stack that matches REGEX
roots() { grep -E "$2" "$1" | cut -d';' -f1 | sort -u | wc -l; }

# a row of report --processes' table, up to the process
ROW=' +[0-9]+ +[0-9.]+% +[0-9]+  '

# perf_on CTL ACK: perf record started with -D -1 --control: enabled (its
# ack read)
perf_on() {
	timeout 20 sh -c "echo enable >'$1' && read a <'$2'"
}

# --- a program that runs 20 threads of 50 ms, one after another
beside_perf "$TMP/t.perf" "$PJ_BIN" record -q -F 100 -o "$TMP/t.data" -- \
	"$PROGS/spawner" /dev/null 20 50 >/dev/null 2>"$TMP/t.err"
"$PJ_BIN" report -i "$TMP/t.data" --format collapsed --threads >"$TMP/t.folded"
n=$(roots "$TMP/t.folded" '^\[late-[0-9]+ tid=[0-9]+\];.*late_worker')
check "20 threads of 50 ms: each is sampled, by its name ($n of 20)" [ "$n" -eq 20 ]
side "20 threads of 50 ms" late_worker "$TMP/t.folded" "$TMP/t.perf"

# --- eight threads that switch thousands of times a second on every CPU
# at once: the records of the tasks a thread's events are inherited by keep
# coming to the end (each CPU writes its own ring: a ring written from two
# at once lost its head for good, every record gone after 0.1-3 s)
# halves DATA: the records of each half second of the first 3 s
halves() {
	"$PJ_BIN" report -i "$1" --format script | awk '/^[^ \t]/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				t = $i + 0; if (!s) s = t; c[int((t - s) * 2)]++
			}
	} END { for (k = 0; k < 6; k++) printf "%d ", c[k] }'
}
for ev in offcpu "cpu-clock -F 999"; do
	"$PJ_BIN" record -q -e $ev -o "$TMP/pp.data" -- "$PROGS/pingpong" 3 \
		>/dev/null 2>"$TMP/pp.err"
	h=$(halves "$TMP/pp.data")
	check "-e $ev, 8 threads switching on every CPU: their samples in each half second of 3 s ($h)" \
		awk -v h="$h" 'BEGIN { n = split(h, c, " "); for (k = 1; k <= 6; k++) if (c[k] + 0 < 1) exit 1; exit n != 6 }'
done

# --- a script that runs 20 programs of 0.1 s, then one that forks
cat >"$TMP/s20.sh" <<EOF
#!/bin/sh
i=0
while [ \$i -lt 20 ]; do "$PROGS/burn" 100; i=\$((i + 1)); done
"$PROGS/burn" 100 fork
exit 3
EOF
chmod +x "$TMP/s20.sh"
beside_perf "$TMP/s.perf" "$PJ_BIN" record -F 100 -o "$TMP/s.data" -- "$TMP/s20.sh" 2>"$TMP/s.err"
rc=$?
check "a script: its exit status is perfjava's ($rc)" [ "$rc" -eq 3 ]
"$PJ_BIN" report -i "$TMP/s.data" --format collapsed --processes >"$TMP/s.folded"
"$PJ_BIN" report -i "$TMP/s.data" --processes --top 1000 >"$TMP/s.txt"
n=$(roots "$TMP/s.folded" '^\[burn pid=[0-9]+\];.*burn_work')
check "a script: its 22 programs' samples, to the last ($n)" [ "$n" -eq 22 ]
# named with their command line, read while they live, else (gone when the
# reader came to them: the summary counts them) by their program's path;
# the fork and its child as the fork's command line (the child named as
# its parent), or both by the path when the parent was gone when read
named=$(grep -cE "^$ROW\[burn pid=[0-9]+\]  .*/burn 100$" "$TMP/s.txt")
bare=$(grep -cE "^$ROW\[burn pid=[0-9]+\]  .*/burn$" "$TMP/s.txt")
forks=$(grep -cE "^$ROW\[burn pid=[0-9]+\]  .*/burn 100 fork$" "$TMP/s.txt")
gone=$(grep -oE '\(([0-9]+) gone when read' "$TMP/s.err" | grep -oE '[0-9]+')
check "a script: its programs named with their command line ($named of 20, the fork's $forks of 2), or their path when gone ($bare, ${gone:-0} gone)" \
	eval '[ $((named + bare + forks)) -eq 22 ] && [ "$bare" -le "${gone:-0}" ]'
check "a script: the fork named as its parent (burn 100 fork, twice; or both by the path, gone: $forks)" \
	eval '[ "$forks" -eq 2 ] || { [ "$forks" -eq 0 ] && [ "$bare" -ge 2 ] && [ "${gone:-0}" -ge 2 ]; }'
check "a script: the summary says how many processes it started" \
	grep -qE '^perfjava: 2[2-9] processes started by the target' "$TMP/s.err"
side "a script's programs" burn_work "$TMP/s.folded" "$TMP/s.perf"
one=$(grep -oE '^\[burn pid=[0-9]+\]' "$TMP/s.folded" | head -1 | grep -oE '[0-9]+')
"$PJ_BIN" report -i "$TMP/s.data" --pid "$one" --format collapsed --processes >"$TMP/one.folded"
want=$(grep -F "[burn pid=$one];" "$TMP/s.folded" | awk '{ n += $NF } END { print n + 0 }')
got=$(awk '{ n += $NF } END { print n + 0 }' "$TMP/one.folded")
check "--pid of one of them: its samples alone ($got of $want)" \
	eval '[ "$got" -eq "$want" ] && [ "$got" -gt 0 ] && ! grep -vqF "[burn pid=$one];" "$TMP/one.folded"'

# --- --no-inherit: the script alone
cat >"$TMP/s3.sh" <<EOF
#!/bin/sh
"$PROGS/burn" 100; "$PROGS/burn" 100; "$PROGS/burn" 100
EOF
chmod +x "$TMP/s3.sh"
"$PJ_BIN" record -q --no-inherit -o "$TMP/ni.data" -- "$TMP/s3.sh"
"$PJ_BIN" report -i "$TMP/ni.data" --format collapsed --processes >"$TMP/ni.folded"
check "--no-inherit: the programs the script starts are not recorded" \
	[ "$(pj_with "$TMP/ni.folded" burn_work)" -eq 0 ]

# --- -p of a shell that starts those programs after the recording began
rm -f "$TMP/go"
cat >"$TMP/p20.sh" <<EOF
echo ready \$\$
n=0
while [ ! -e "$TMP/go" ] && [ \$n -lt 600 ]; do sleep 0.05; n=\$((n + 1)); done
i=0
while [ \$i -lt 20 ]; do "$PROGS/burn" 100; i=\$((i + 1)); done
EOF
start_prog "$TMP/p20.out" sh "$TMP/p20.sh"
SH=$PID
pp=
if [ -n "$PERF" ]; then
	mkfifo "$TMP/ctl" "$TMP/ack"
	perf record -q -F 100 -g -D -1 --control "fifo:$TMP/ctl,$TMP/ack" -p "$SH" \
		-o "$TMP/p.perf" 2>"$TMP/p.perr" &
	pp=$!
	track $pp
fi
"$PJ_BIN" record -F 100 -p "$SH" -o "$TMP/p.data" 2>"$TMP/p.err" &
rec=$!
wait_for 20 grep -q '^perfjava: recording' "$TMP/p.err"
[ -n "$pp" ] && { perf_on "$TMP/ctl" "$TMP/ack" || echo "# perf record did not start"; }
touch "$TMP/go"
wait "$rec"
check "-p of a shell: recording ends with it (exit 0)" [ $? -eq 0 ]
if [ -n "$pp" ]; then
	kill -INT "$pp" 2>/dev/null
	wait "$pp"
fi
"$PJ_BIN" report -i "$TMP/p.data" --format collapsed --processes >"$TMP/p.folded"
n=$(roots "$TMP/p.folded" '^\[burn pid=[0-9]+\];.*burn_work')
check "-p of a shell: the 20 programs it started are sampled ($n)" [ "$n" -eq 20 ]
side "-p of a shell's programs" burn_work "$TMP/p.folded" "$TMP/p.perf"

# --- -a: programs and threads that live a few milliseconds
# (their pids noted: -a also sees the burn programs of other tests)
cat >"$TMP/a20.sh" <<EOF
#!/bin/sh
i=0
while [ \$i -lt 20 ]; do "$PROGS/burn" 15 & echo \$! >>"$TMP/a.pids"; wait \$!; i=\$((i + 1)); done
"$PROGS/spawner" /dev/null 20 5
EOF
chmod +x "$TMP/a20.sh"
pp=
if [ -n "$PERF" ]; then
	rm -f "$TMP/ctl" "$TMP/ack"
	mkfifo "$TMP/ctl" "$TMP/ack"
	perf record -q -a -F 100 -g -D -1 --control "fifo:$TMP/ctl,$TMP/ack" \
		-o "$TMP/a.perf" 2>"$TMP/a.perr" &
	pp=$!
	track $pp
fi
# (other JVMs on this machine are left alone)
"$PJ_BIN" record -a --no-java -F 100 -o "$TMP/a.data" 2>"$TMP/a.err" &
rec=$!
track $rec
wait_for 20 grep -q '^perfjava: recording' "$TMP/a.err"
[ -n "$pp" ] && { perf_on "$TMP/ctl" "$TMP/ack" || echo "# perf record did not start"; }
"$TMP/a20.sh" >/dev/null
kill -INT "$rec"
wait "$rec"
if [ -n "$pp" ]; then
	kill -INT "$pp" 2>/dev/null
	wait "$pp"
fi
"$PJ_BIN" report -i "$TMP/a.data" --format collapsed --processes >"$TMP/a.folded"
"$PJ_BIN" report -i "$TMP/a.data" --processes --top 100000 >"$TMP/a.txt"
"$PJ_BIN" report -i "$TMP/a.data" --format collapsed --threads >"$TMP/at.folded"
# the script's own: their rows, and those named
ours() {
	awk 'NR == FNR { p[$1]; next }
		match($0, /\[burn pid=[0-9]+\]/) && substr($0, RSTART + 10, RLENGTH - 11) in p' "$TMP/a.pids" "$TMP/a.txt"
}
n=$(ours | grep -cE "^$ROW\[burn pid=[0-9]+\]")
named=$(ours | grep -cE "^$ROW\[burn pid=[0-9]+\]  .*/burn( 15)?$")
check "-a: programs of 15 ms named with their command line or program ($named of $n)" \
	eval '[ "$named" -eq "$n" ] && [ "$n" -gt 0 ]' || ours | grep -vE "  .*/burn( 15)?$" | sed 's/^/# /'
n=$(roots "$TMP/at.folded" '^\[late-[0-9]+ tid=[0-9]+ pid=[0-9]+\];.*late_worker')
t=$(roots "$TMP/at.folded" 'late_worker')
check "-a: threads of 5 ms named ($n of $t sampled)" eval '[ "$n" -eq "$t" ] && [ "$t" -gt 0 ]' ||
	grep 'late_worker' "$TMP/at.folded" | grep -vE '^\[late-[0-9]+ tid=[0-9]+ pid=[0-9]+\];' |
	cut -c1-300 | sed 's/^/# not named: /'
side "-a: programs of 15 ms" burn_work "$TMP/a.folded" "$TMP/a.perf"
side "-a: threads of 5 ms" late_worker "$TMP/a.folded" "$TMP/a.perf"
