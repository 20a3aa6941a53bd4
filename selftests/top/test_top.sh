#!/usr/bin/env bash
# perfjava top as a person uses it: in a terminal (tmux: send-keys to type,
# capture-pane to read) on a JVM with a known split, its leaf method shown
# within 10 pp (or three standard errors) of the program's own measurement,
# the view refreshed, its keys (s, /, Enter, t, p, q), the terminal and the
# JVM left as they were (after q, and after a crash of the view); as a
# table when stdout is no terminal; at -a, processes named by their
# command lines.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../java/jvm.sh"

# --- without a terminal: one table at the end of -d, errors in one line
"$PJ_BIN" top >"$TMP/none.out" 2>"$TMP/none.err"
rc=$?
check "top without a target: exit 2, one line saying what to give" \
	eval '[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/none.err")" -eq 1 ] && grep -q -- "-p PID" "$TMP/none.err"'
"$PJ_BIN" top -p 1 -e offcpu >/dev/null 2>"$TMP/off.err"
rc=$?
check "top -e offcpu: exit 2, says it is record's" \
	eval '[ $rc -eq 2 ] && grep -q "perfjava record -e offcpu" "$TMP/off.err"'

# --- -a: the processes by their command lines (no agent: the other JVMs
# on the machine are left alone)
start_prog "$TMP/split.out" "$PROGS/cpusplit" 41 1
"$PJ_BIN" top -a --no-java -F 499 -d 3 -n 1000 >"$TMP/a.out" 2>"$TMP/a.err"
check "top -a -d 3 | cat: exit 0" [ $? -eq 0 ] || sed 's/^/# /' "$TMP/a.err"
check "top -a: one table, headed by every process" \
	eval '[ "$(grep -c "^perfjava top  every process" "$TMP/a.out")" -eq 1 ]'
grep -E "^ *[0-9.]+ +[0-9]+ +$PID  " "$TMP/a.out" | sed 's/^/# /'
check "top -a: a process named by its command line ($PROGS/cpusplit 41 1)" \
	grep -qE "^ *[0-9.]+ +[0-9]+ +$PID  $PROGS/cpusplit 41 1\$" "$TMP/a.out"
kill "$PID" 2>/dev/null

# --- a native program's known split, shown as record would count it: two
# threads spinning for top's 3 s (thousands of samples at 997 Hz, hundreds
# on a loaded machine), then stopped; the program's truth from its own
# timeline (cum lines every 100 ms), over its run
start_prog "$TMP/c.out" "$PROGS/cpusplit" 300 2 100
"$PJ_BIN" top -p "$PID" -F 997 -w 3 -d 3 -n 40 >"$TMP/c.top" 2>"$TMP/c.err"
rc=$?
check "top -p (native) -d 3 | cat: exit 0, one table" \
	eval '[ $rc -eq 0 ] && [ "$(grep -c "^perfjava top  pid $PID" "$TMP/c.top")" -eq 1 ]'
kill "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
window_truth "$TMP/c.out" 0 1e12 x work_a work_b work_c >"$TMP/c.truth"
n=$(awk '$4 ~ /^work_[abc]$/ { n += $3 } END { print n + 0 }' "$TMP/c.top")
for f in work_a work_b work_c; do
	truth=$(awk -v f=x.$f '$1 == f { print $2 }' "$TMP/c.truth")
	got=$(awk -v f=$f '$4 ~ /^work_[abc]$/ { t += $3; if ($4 == f) m = $3 }
		END { printf "%.2f", t ? 100 * m / t : 0 }' "$TMP/c.top")
	check_share "native: $f's self share of work_a/b/c, the program's own" "$got" "$n" "$truth" 5
done

# --- no terminal, no -d: a table each second (at most -n frames), until
# stdout is closed: read until a table counts more samples since the start
# than the first (the header's third line, 8th word), 60 tables at most.
# Read a line at a time, as it comes: mawk (Debian's awk) reads a pipe a
# full buffer at a time, some ten tables, and would hold the reader (and
# the target spinning) 10 s.
read_tables() {
	local line n=0 l=0 first=0 more='' w
	while IFS= read -r line; do
		case $line in "perfjava top"*) n=$((n + 1)) l=0 ;; esac
		l=$((l + 1))
		printf '%s\n' "$line"
		if [ $l -eq 3 ]; then
			read -ra w <<<"$line"
			if [ $n -eq 1 ]; then
				first=${w[7]:-0}
			elif [ "${w[7]:-0}" -gt "$first" ] 2>/dev/null; then
				more=1
			fi
		fi
		if [ -z "$line" ] && { [ -n "$more" ] || [ $n -ge 60 ]; }; then
			return 0
		fi
	done
}
start_prog "$TMP/p.out" "$PROGS/cpusplit" 300 1
timeout 120 "$PJ_BIN" top -p "$PID" -n 2 2>"$TMP/p.err" | read_tables >"$TMP/p.top"
rc=${PIPESTATUS[0]}
sed 's/^/# /' "$TMP/p.top" | tail -9
sed 's/^/# stderr: /' "$TMP/p.err"
check "top -p | a reader that goes: top ends (status $rc), a stop asked for (not said)" \
	eval '[ $rc -eq 0 ] && ! grep -q "top stopped" "$TMP/p.err"'
# tables_grow FILE: tables of pid $PID, each of at most 2 frames, the last
# of more samples since the start than the first, and of a frame
tables_grow() {
	[ "$(grep -c "^perfjava top  pid $PID: $PROGS/cpusplit 300 1\$" "$1")" -ge 2 ] &&
		awk '/^perfjava top/ { t++; l = 0 } { l++ } l == 3 { s[t] = $8 }
			/^ +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +[0-9]+  [^ ]/ { f[t]++; if (f[t] > 2) bad = 1 }
			END { exit !(t >= 2 && !bad && f[t] >= 1 && s[t] > s[1]) }' "$1"
}
check "... $(grep -c '^perfjava top' "$TMP/p.top") tables, at most 2 frames each (-n 2), the count since the start grows" tables_grow "$TMP/p.top"
check "... the target runs on" kill -0 "$PID"
kill "$PID" 2>/dev/null

if ! command -v tmux >/dev/null; then
	apt-get install -y --no-install-recommends tmux >"$TMP/apt.log" 2>&1 ||
		{ apt-get update >>"$TMP/apt.log" 2>&1 &&
			apt-get install -y --no-install-recommends tmux >>"$TMP/apt.log" 2>&1; }
fi
if ! command -v tmux >/dev/null; then
	skip "perfjava top in a terminal" "no tmux, and it could not be installed: $(tail -1 "$TMP/apt.log")"
	exit 0
fi

# A terminal of our own: a private tmux server, 160x50, a plain shell.
TM=(tmux -L "pjtop$$" -f /dev/null)
trap '"${TM[@]}" kill-server 2>/dev/null; _pj_cleanup' EXIT
"${TM[@]}" new-session -d -s t -x 160 -y 50 "env PS1='pj\$ ' TERM=xterm bash --norc --noprofile -i"
pane() { "${TM[@]}" capture-pane -t t -p; }
# keys KEY...: typed into the terminal (tmux key names: Enter, Escape, Down)
keys() { "${TM[@]}" send-keys -t t "$@"; }
# run CMD: typed at the prompt, its exit status into $TMP/rc
run() { rm -f "$TMP/rc"; keys "$1; echo \$? >$TMP/rc" Enter; }
# the header's third line: "N samples in the last W s, M since the start"
held() { pane | sed -n 3p | awk '{ print $1 }'; }
since() { pane | sed -n 3p | awk '{ print $8 }'; }
# frame rows: "SELF% TOTAL% SAMPLES +|- NAME"
self_of() { pane | awk -v f="$1" '$4 ~ /^[-+]$/ && $5 == f { print $1; exit }'; }
total_of() { pane | awk -v f="$1" '$4 ~ /^[-+]$/ && $5 == f { print $2; exit }'; }
grown() { local n; n=$(since); [ "${n:-0}" -gt "$1" ]; }
cum_lines() { grep -c '^cum ' "$1"; }
cum_over() { [ "$(cum_lines "$1")" -ge "$2" ]; }
# no thread of the JVM named perfjava-agent: its session ended
no_agent() { ! grep -qx perfjava-agent /proc/"$1"/task/*/comm 2>/dev/null; }
shell_back() { pane | grep -q '^pj\$ *$' && [ -s "$TMP/rc" ]; }

run "stty -a >$TMP/stty.before"
wait_for 10 test -s "$TMP/rc"
# stty_same NAME: stty -a now (into $TMP/stty.NAME) is as before
stty_same() {
	run "stty -a >$TMP/stty.$1"
	wait_for 10 test -s "$TMP/rc" && cmp -s "$TMP/stty.before" "$TMP/stty.$1"
}

# --- the target's end, Ctrl-C, SIGTERM: the terminal given back each time
# (the target a sleeper, waking each ms: these look at the terminal, not
# at the samples)
start_prog "$TMP/n.out" "$PROGS/sleeper" 300
run "$PJ_BIN top -p $PID"
wait_for 30 eval 'pane | grep -q "^perfjava top  pid $PID"'
kill "$PID"
check "the target's end ends top: the shell's screen back, status 0, said why" \
	eval 'wait_for 30 shell_back && [ "$(cat "$TMP/rc")" = 0 ] && pane | grep -q "top stopped: target exited"'
check "... stty -a as before" stty_same end
start_prog "$TMP/n.out" "$PROGS/sleeper" 300
run "$PJ_BIN top -p $PID"
wait_for 30 eval 'pane | grep -q "^perfjava top  pid $PID"'
keys C-c
check "Ctrl-C ends top: the shell's screen back, status 0" \
	eval 'wait_for 30 shell_back && [ "$(cat "$TMP/rc")" = 0 ] && ! pane | grep -q "^perfjava top"'
check "... stty -a as before" stty_same ctrlc
run "$PJ_BIN top -p $PID"
wait_for 30 eval 'pane | grep -q "^perfjava top  pid $PID"'
pkill -TERM -f "^$PJ_BIN top -p $PID\$"
check "SIGTERM ends top: the shell's screen back, status 0" \
	eval 'wait_for 30 shell_back && [ "$(cat "$TMP/rc")" = 0 ] && ! pane | grep -q "^perfjava top"'
check "... stty -a as before" stty_same term
kill "$PID" 2>/dev/null

java_suite "perfjava top on a JVM"

jdk=${JDKS[0]}
J=$(jdk_name "$jdk")
# one worker: its 3 s window at 997 Hz is thousands of samples (the 10 pp
# wider than three standard errors down to a few hundred, a loaded machine's)
start_jvm "$jdk" "$TMP/w.out" -Dtruth.every=100 -- Workload 600 1
W=3
run "$PJ_BIN top -p $JPID -F 997 -w $W"
wait_for 60 eval 'pane | grep -q "^perfjava top  pid $JPID" && [ "$(held)" -gt 0 ] 2>/dev/null'
check "$J: top -p shows its header (pid $JPID)" eval 'pane | grep -q "^perfjava top  pid $JPID: .*Workload 600 1"'
# a few seconds of samples: a whole window once the JIT is done (its
# split settles within the first second: the window starts after 2 s)
s0=$(since)
wait_for 30 eval 'grown $((${s0:-0} + 0)) && [ "$(cum_lines "$TMP/w.out")" -ge 20 ]'
c0=$(cum_lines "$TMP/w.out")
wait_for 30 cum_over "$TMP/w.out" $((c0 + 10 * (W + 1)))
pane >"$TMP/p1.txt"
last=$(awk '$1 == "cum" { t = $2 } END { printf "%.3f", t / 1e9 }' "$TMP/w.out")
first=$(awk -v l="$last" -v w=$W 'BEGIN { printf "%.3f", l - w - 1 }')
window_truth "$TMP/w.out" "$first" "$last" Workload methodA methodB methodC >"$TMP/truth"
truth=$(awk '$1 == "Workload.methodA" { print $2 }' "$TMP/truth")
got=$(awk '$4 ~ /^[-+]$/ && $5 == "Workload.methodA" { print $1; exit }' "$TMP/p1.txt")
n=$(sed -n 3p "$TMP/p1.txt" | awk '{ print $1 }')
sed -n '1,12p' "$TMP/p1.txt" | sed 's/^/# pane: /'
echo "# $J: Workload.methodA self ${got:-?}% in top's window of $n samples; its own measurement $truth% over $first..$last s"
check_share "$J: the leaf method Workload.methodA shown, the program's own share (10 pp, the issue's)" "$got" "${n:-0}" "$truth" 10
a=$(awk '$4 ~ /^[-+]$/ && $5 == "Workload.methodA" { print $2; exit }' "$TMP/p1.txt")
echo "# $J: methodA total ${a:-?}% of all the JVM's samples"

# --- it refreshes: the count since the start grows
s1=$(since)
check "$J: the view refreshes: the samples since the start grow (from $s1)" wait_for 15 grown "${s1:-0}"

# --- s: sorted by total share
keys s
check "$J: s: sort by total" wait_for 10 eval 'pane | sed -n 3p | grep -q "sort: total"'
pane >"$TMP/p2.txt"
check "$J: ... the rows by total share, highest first, Thread.run near the top" \
	eval 'awk "\$4 ~ /^[-+]\$/ { if (n && \$2 > last + 0.001) bad = 1; last = \$2; n++ } END { exit !(n > 3 && !bad) }" "$TMP/p2.txt" &&
		sed -n 5,10p "$TMP/p2.txt" | grep -q "java.lang.Thread.run"'
sed -n '4,9p' "$TMP/p2.txt" | sed 's/^/# pane: /'
keys s
wait_for 10 eval 'pane | sed -n 3p | grep -q "sort: self"'

# --- Enter: the first frame opened into its callers
keys Home Enter
check "$J: Enter opens the frame into its callers" \
	wait_for 10 eval 'pane | sed -n 5p | grep -qE "^ +[0-9.]+ +[0-9.]+ +[0-9]+  - " && pane | sed -n 6p | grep -qE "^ +[0-9.]+ +[0-9]+    [-+] [^ ]"'
pane | sed -n '4,8p' | sed 's/^/# pane: /'
keys Enter
wait_for 10 eval 'pane | sed -n 5p | grep -qE "^ +[0-9.]+ +[0-9.]+ +[0-9]+  \+ "'

# --- / filter
keys / m e t h o d B Enter
check "$J: / filters the frames (methodB: every row has it)" \
	wait_for 10 eval 'pane | sed -n 3p | grep -q "filter: methodB" &&
		pane | awk "\$4 ~ /^[-+]\$/ { n++; if (\$5 !~ /methodB/) bad = 1 } END { exit !(n >= 1 && !bad) }"'
keys Escape
wait_for 10 eval '! pane | sed -n 3p | grep -q filter'

# --- t: the threads
keys t
check "$J: t shows the threads, the worker first" \
	wait_for 10 eval 'pane | sed -n 4p | grep -q THREAD && pane | sed -n 5p | grep -q "worker-0"'
keys t

# --- p: paused, the count stops (while the program runs on), then goes on
keys p
wait_for 10 eval 'pane | sed -n 1p | grep -q "\[paused\]"'
p0=$(since)
c0=$(cum_lines "$TMP/w.out")
wait_for 30 cum_over "$TMP/w.out" $((c0 + 25)) # 2.5 s of the program
p1=$(since)
check "$J: p pauses: the count stays ($p0, then $p1 2.5 s later)" [ "$p0" = "$p1" ]
keys p
check "$J: p again: it goes on" wait_for 15 grown "${p1:-0}"

# --- q: the terminal and the JVM as they were
keys q
check "$J: q exits top (status 0), the shell's screen back" \
	eval 'wait_for 30 shell_back && [ "$(cat "$TMP/rc")" = 0 ] && ! pane | grep -q "^perfjava top"'
pane | grep -v '^$' | tail -3 | sed 's/^/# pane after q: /'
check "$J: stty -a the same before and after" stty_same after ||
	diff "$TMP/stty.before" "$TMP/stty.after" | sed 's/^/# /'
check "$J: the JVM runs on" kill -0 "$JPID"
check "$J: ... its agent's session ended (no perfjava-agent thread)" wait_for 10 no_agent "$JPID"
"$PJ_BIN" record -p "$JPID" -d 1 -o "$TMP/after.data" 2>"$TMP/after.err"
check "$J: ... a new record attaches and has Java frames" \
	eval 'grep -q "java frames on" "$TMP/after.err" && "$PJ_BIN" report -i "$TMP/after.data" --format collapsed | grep -q "Workload.method"'

# --- a crash of the view (SIGSEGV): the terminal given back all the same
run "$PJ_BIN top -p $JPID"
wait_for 60 eval 'pane | grep -q "^perfjava top  pid $JPID"'
tpid=$(pgrep -f "^$PJ_BIN top -p $JPID\$" | head -1)
kill -SEGV "$tpid" 2>/dev/null
check "$J: SIGSEGV in top: the shell's screen back (status $(cat "$TMP/rc" 2>/dev/null))" \
	eval 'wait_for 30 shell_back && [ "$(cat "$TMP/rc")" -ge 128 ]'
check "$J: ... stty -a as before" stty_same segv
check "$J: ... the JVM runs on, its agent's session ended" \
	eval 'kill -0 "$JPID" && wait_for 10 no_agent "$JPID"'

extra=$(grep -vcE '^(ready [0-9]+|cum [0-9 ]+)$' "$TMP/w.out")
check "$J: the JVM's output is its own ($extra other lines), nothing on its stderr" \
	eval '[ "$extra" -eq 0 ] && [ ! -s "$TMP/w.out.err" ]'
kill "$JPID" 2>/dev/null
exit 0
