#!/usr/bin/env bash
# Issue 44, rows 3 to 5: JDK Flight Recorder files made to exhaust the
# reader that root runs on them (report -i), each made here by
# selftests/security/jfrgen.py, each read within 300 MB of address space
# and 5 s of CPU (ulimit: a reader that needs more is killed, and fails
# the test), reported or refused in one line:
#   3  classes of 1,000 fields of classes of 1,000 fields, 4 deep, the last
#      empty (10^12 visits of values that take no byte), and a class that
#      holds itself (nested without end)
#   4  1,000 wall-clock events each claiming samples=100000: one sample
#      each, weighing the 100,000
#   5  a valid chunk, then a 3 GB hole (a sparse file); a chunk whose
#      header claims 3 GB over a hole
# and their neighbour: 20,000 allocations of distinct classes at one stack
# of 60,000 frames (a leaf stack made for each would be 1.2 G frames).
# Each line says the time and peak RSS measured (/usr/bin/time).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sec.sh"

GEN=$PJ_TOP/selftests/security/jfrgen.py
if ! command -v python3 >/dev/null; then
	skip "hostile JFR files" "no python3 to make them"
	exit 0
fi
# bounded ARGS...: perfjava report ARGS in 300 MB of address space and 5 s
# of CPU (60 s of wall time, should it hang): RC, ERR (its first line),
# LINES (of stderr), USED ("S s, M MB" measured, when /usr/bin/time is)
bounded() {
	local timer=()
	[ -x /usr/bin/time ] && timer=(/usr/bin/time -f "%e s, %M" -o "$TMP/time")
	rm -f "$TMP/time"
	(
		ulimit -v 307200 && ulimit -t 5 &&
			exec "${timer[@]}" timeout 60 "$PJ_BIN" report "$@"
	) >"$TMP/out" 2>"$TMP/err"
	RC=$?
	ERR=$(head -1 "$TMP/err" | head -c 200) LINES=$(wc -l <"$TMP/err")
	# time's last line (before it: "Command exited with non-zero status")
	USED=$(awk 'END { printf "%s s, %d MB", $1, $3 / 1024 }' "$TMP/time" 2>/dev/null)
}
# refused: exit 1 (not killed by a limit), one line
refused() { [ "$RC" -eq 1 ] && [ "$LINES" -eq 1 ]; }

python3 "$GEN" valid "$TMP/valid.jfr"
bounded -i "$TMP/valid.jfr" --format collapsed
check "a small valid JFR made by jfrgen.py reads ($USED): $(head -1 "$TMP/out")" \
	all test "$RC" -eq 0 -- grep -q '^Main.main_\[0\];Main.work_\[0\] 1$' "$TMP/out"

# row 3
python3 "$GEN" nested "$TMP/nested.jfr" 1000 4
bounded -i "$TMP/nested.jfr" --event test.Nested --format collapsed
check "row 3: $(stat -c %s "$TMP/nested.jfr") bytes of classes of 1,000 fields nested 4 deep, the last empty: reported ($USED, rc $RC)" \
	all test "$RC" -eq 0 -- grep -q ' 10$' "$TMP/out"
python3 "$GEN" cycle "$TMP/cycle.jfr"
bounded -i "$TMP/cycle.jfr" --event test.Cycle
check "row 3: a class that holds itself: refused in one line ($USED): $ERR" \
	all refused -- grep -q 'nested deeper than' "$TMP/err"

# row 4
python3 "$GEN" samples "$TMP/samples.jfr" 1000 100000
bounded -i "$TMP/samples.jfr" --event wall --format collapsed
check "row 4: $(stat -c %s "$TMP/samples.jfr") bytes of 1,000 events claiming samples=100000: 100,000,000 samples reported, one stored per event ($USED, rc $RC)" \
	all test "$RC" -eq 0 -- grep -q ' 100000000$' "$TMP/out"

# row 5
python3 "$GEN" sparse "$TMP/sparse.jfr" 3
bounded -i "$TMP/sparse.jfr"
check "row 5: a valid chunk then a 3 GB hole ($(du -k "$TMP/sparse.jfr" | cut -f1) KB on disk): refused in one line ($USED): $ERR" \
	all refused -- grep -q 'no chunk header' "$TMP/err"
python3 "$GEN" bigchunk "$TMP/bigchunk.jfr" 3
bounded -i "$TMP/bigchunk.jfr"
check "row 5: a chunk claiming 3 GB over a hole: refused in one line ($USED): $ERR" \
	all refused -- grep -q 'hole' "$TMP/err"

# a stack made for each class allocated at one deep stack
python3 "$GEN" leafstacks "$TMP/leaf.jfr" 60000 20000
bounded -i "$TMP/leaf.jfr" --event alloc
check "20,000 classes allocated at one stack of 60,000 frames ($(stat -c %s "$TMP/leaf.jfr") bytes): refused in one line ($USED): $ERR" \
	all refused -- grep -q 'steps a byte' "$TMP/err"
python3 "$GEN" leafstacks "$TMP/leaf2.jfr" 60 2000
bounded -i "$TMP/leaf2.jfr" --event alloc --format collapsed
check "2,000 classes allocated at one stack of 60 frames: read, one stack each ($USED, rc $RC)" \
	all test "$RC" -eq 0 -- test "$(wc -l <"$TMP/out")" -eq 2000
echo "1..$_tap_n"
