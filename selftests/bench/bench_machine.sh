#!/usr/bin/env bash
# The reader's cost at -a (issue 26): 20 processes of 10 busy threads each
# (progs/cpusplit), recorded with -a at 99 Hz for 8 s, then the same 20
# named with -p A,B,...; prints the reader's CPU time (user + system, and
# as a share of the recording's wall time), its peak RSS, the samples and
# processes recorded, for each.
#
# Figures only: it never fails on a timing.
. "$PJ_TOP/selftests/lib.sh"
# (a machine shared with others' JVMs: -a leaves them alone)
export PERFJAVA_JVM_MATCH=bench-machine-$$

pids=()
for i in $(seq 20); do
	"$PROGS/cpusplit" 120 10 >"$TMP/c$i.out" &
	pids+=($!)
	track $!
done
for i in $(seq 20); do wait_for 30 grep -q '^ready' "$TMP/c$i.out"; done
for mode in "-a" "-p"; do
	# (-p: those still running)
	[ "$mode" = -p ] && mode="-p $(for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && printf '%s,' "$p"; done | sed 's/,$//')"
	name=${mode%% *}
	/usr/bin/time -f '%U %S %e %M' -o "$TMP/time$name" \
		"$PJ_BIN" record $mode -F 99 -d 8 -o "$TMP/r$name.data" 2>"$TMP/r$name.err"
	read -r u s e m <"$TMP/time$name"
	[ -s "$TMP/r$name.data" ] || { echo "# record $name failed: $(tail -1 "$TMP/r$name.err")"; continue; }
	samples=$(awk '/^perfjava: [0-9]+ samples/ { print $2; exit }' "$TMP/r$name.err")
	procs=$("$PJ_BIN" report -i "$TMP/r$name.data" --processes --top 100000 |
		grep -o 'pid=[0-9]*' | sort -u | wc -l)
	awk -v n="$name" -v u="$u" -v s="$s" -v e="$e" -v m="$m" -v smp="$samples" -v p="$procs" \
		'BEGIN { printf "record %s at 99 Hz, 200 busy threads in 20 processes: reader CPU %.2f s (user %.2f, sys %.2f; %.1f%% of one CPU over %.1f s), peak RSS %.1f MiB, %s samples of %d processes\n",
			n, u + s, u, s, e ? 100 * (u + s) / e : 0, e, m / 1024, smp, p }'
done
kill "${pids[@]}" 2>/dev/null
wait 2>/dev/null
