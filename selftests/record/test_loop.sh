#!/usr/bin/env bash
# --loop SECONDS -o 'X-%t.data' --keep N: one complete file per interval,
# each one reports on its own, no gap between them (each starts where the
# last ended), the oldest deleted beyond N; report merges several files
# (the sum of their samples; --from/--to across them); a JVM keeps one agent
# (Java frames in every file, one dynamic-agent warning on JDK 21+).
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

mkdir -p "$TMP/l"
"$PJ_BIN" record --loop 1 --keep 3 -o "$TMP/l/app-%t.data" -- "$PROGS/cpusplit" 5 2 >/dev/null 2>"$TMP/l.err"
check "record --loop 1 --keep 3: exit 0" [ $? -eq 0 ]
n=$(ls "$TMP/l" | grep -c '^app-[0-9]\{8\}-[0-9]\{6\}\(-[0-9]*\)\?\.data$')
check "--keep 3: three files named by their time ($n)" [ "$n" -eq 3 ] ||
	sed 's/^/# /' "$TMP/l.err"
ok_each=1 sum=0 gaps=""
prev_end=""
# in the order they were recorded: two files started in one second under
# load are named X and X-1, which sort the other way round
: >"$TMP/starts"
for f in "$TMP"/l/app-*.data; do
	"$PJ_BIN" report -i "$f" --format meta >"$TMP/m" 2>"$TMP/m.err" || ok_each=0
	[ -s "$TMP/m.err" ] && ok_each=0
	s=$(awk '$1 == "stat" && $2 == "samples" { print $3 }' "$TMP/m")
	st=$(awk '$1 == "meta" && $2 == "start_ns" { print $3 }' "$TMP/m")
	d=$(awk '$1 == "stat" && $2 == "duration_ns" { print $3 }' "$TMP/m")
	sum=$((sum + ${s:-0}))
	echo "${st:-0} ${d:-0}" >>"$TMP/starts"
done
while read -r st d; do
	[ -n "$prev_end" ] && gaps="$gaps $((st - prev_end))"
	prev_end=$((st + d))
done < <(sort -n "$TMP/starts")
check "each file reports on its own, complete" [ "$ok_each" -eq 1 ]
echo "# gaps between files (ns):$gaps"
check "no gap between consecutive files (< 1 ms:$gaps)" \
	awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); for (i = 1; i <= n; i++) if (a[i] < 0 || a[i] > 1000000) exit 1; exit !(n == 2) }'
merged=$("$PJ_BIN" report "$TMP"/l/app-*.data --format collapsed | awk '{ n += $NF } END { print n + 0 }')
check "report of the three files merges them: $merged samples = $sum" [ "$merged" -eq "$sum" ]
"$PJ_BIN" report "$TMP"/l/app-*.data --from 1 --format collapsed >"$TMP/from.folded" 2>/dev/null
late=$(awk '{ n += $NF } END { print n + 0 }' "$TMP/from.folded")
# the samples of the first second from the earliest file's start, by their
# times (script's, in the clock of start_ns, to the microsecond)
t0=$(sort -n "$TMP/starts" | awk 'NR == 1 { print $1 }')
early=$("$PJ_BIN" report "$TMP"/l/app-*.data --format script 2>/dev/null | awk -v t0="${t0:-0}" '
	/^[^\t]/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { if ($i * 1e9 < t0 + 1e9) n++; break } }
	END { print n + 0 }')
if [ "$early" -eq 0 ]; then
	# (a starved program: nothing in the first second of the files kept)
	skip "--from 1 across the files" "no sample in the first second of the files kept ($merged in all)"
else
	check "--from 1 across the files: the $early samples of the first second left out ($late of $merged)" \
		eval '[ "$late" -lt "$merged" ] && [ $((merged - early - late)) -le 1 ] && [ $((merged - early - late)) -ge -1 ]'
fi
# (the files given latest first: --from counts from the earliest start,
# not from the first path's; two files of one second sort the other way)
mapfile -t rev < <(ls "$TMP"/l/app-*.data | sort -r)
late_rev=$("$PJ_BIN" report "${rev[@]}" --from 1 --format collapsed 2>/dev/null | awk '{ n += $NF } END { print n + 0 }')
check "--from 1 across the files given latest first: the same samples ($late_rev, $late)" \
	[ "$late_rev" -eq "$late" ]
"$PJ_BIN" record -q --loop 1 -o "$TMP/l/no-time.data" -- true 2>"$TMP/nt.err"
rc=$?
check "--loop without %t in -o: exit 2, says so" eval '[ $rc -eq 2 ] && grep -q "%t" "$TMP/nt.err"'

java_suite "--loop on a JVM"
jdk=${JDKS[$((${#JDKS[@]} - 1))]}
J=$(jdk_name "$jdk")
mkdir -p "$TMP/j"
start_jvm "$jdk" "$TMP/w.out" -- Workload 60 2
"$PJ_BIN" record -q -p "$JPID" --loop 1 -d 3.5 -o "$TMP/j/w-%t.data" 2>"$TMP/j.err"
check "$J: record -p --loop 1 -d 3.5: exit 0" [ $? -eq 0 ]
withjava=0 files=0
for f in "$TMP"/j/w-*.data; do
	files=$((files + 1))
	"$PJ_BIN" report -i "$f" --format collapsed 2>/dev/null | grep -q 'Workload\.method[ABC]' && withjava=$((withjava + 1))
done
check "$J: Java frames in every full file ($withjava of $files)" \
	eval '[ "$files" -ge 3 ] && [ "$withjava" -ge $((files - 1)) ]'
# each attach maps a copy of the agent of its own (jvm/rendezvous.c)
copies=$(grep -oE '[^ /]*perfjava-agent[^ /]*\.so' "/proc/$JPID/maps" 2>/dev/null | sort -u | wc -l)
kill "$JPID" 2>/dev/null
wait "$JWAIT" 2>/dev/null
check "$J: the agent was attached once ($copies copies mapped)" [ "$copies" -eq 1 ]
