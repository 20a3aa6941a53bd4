#!/usr/bin/env bash
# `perfjava report` through the real binary: the collapsed output parsed back
# by an independent (awk) parser and checked against the text report of the
# same profile; exit codes of user errors.
. "$(dirname "$0")/../lib.sh"

gen=$PJ_BUILD/selftests/test_report
if [ ! -x "$PJ_BIN" ] || [ ! -x "$gen" ]; then
	skip "collapsed output parsed back" "build $PJ_BIN and $gen first"
	exit 0
fi
"$gen" --make-profile "$TMP/p.data" || { not_ok "write the test profile"; exit 0; }

"$PJ_BIN" report -i "$TMP/p.data" --format collapsed -o "$TMP/c.txt"
check "report --format collapsed exits 0" test $? -eq 0

# Folded format: frames separated by ';', one space, a positive count.
check "every line is 'frame;...;frame count'" \
	awk '!/^[^; ][^;]*(;[^;]+)* [1-9][0-9]*$/ { bad = 1 } END { exit bad || NR == 0 }' "$TMP/c.txt"
total=$(awk '{ n += $NF } END { print n }' "$TMP/c.txt")
check "collapsed counts add up to the 12 samples ($total)" test "$total" = 12

# The text report's stacks, folded by awk (leaf-first lines reversed),
# must be the collapsed stacks with the Java suffixes removed.
"$PJ_BIN" report -i "$TMP/p.data" -o "$TMP/t.txt"
awk '
/^--- [0-9]+ [a-z]+ \(/ { n = $(NF - 1); depth = 0; next }
/^  \[ *[0-9]+\] / { sub(/^  \[ *[0-9]+\] /, ""); gsub(/;/, ","); f[depth++] = $0; next }
/^$/ && depth {
	s = f[depth - 1]
	for (i = depth - 2; i >= 0; i--) s = s ";" f[i]
	print s, n; depth = 0
}' "$TMP/t.txt" | sort >"$TMP/from_text.txt"
sed -E 's/_\[[ji01]\]//g' "$TMP/c.txt" | sort >"$TMP/from_collapsed.txt"
check "collapsed stacks equal the text report's stacks" \
	cmp -s "$TMP/from_text.txt" "$TMP/from_collapsed.txt"

"$PJ_BIN" report -i "$TMP/p.data" --threads --format collapsed >"$TMP/th.txt"
check "--threads: every stack starts at a thread" \
	awk '!/^\[(main|worker) tid=1[01]\];/ { bad = 1 } END { exit bad || NR != 4 }' "$TMP/th.txt"

"$PJ_BIN" report --no-such-option >/dev/null 2>"$TMP/err"
rc=$?
check "unknown option exits 2 with a usage line" \
	eval '[ $rc -eq 2 ] && grep -q "^usage: perfjava report" "$TMP/err"'
"$PJ_BIN" report -i "$TMP/missing.data" >/dev/null 2>"$TMP/err"
rc=$?
check "a missing file exits 1 with one line" \
	eval '[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "cannot read" "$TMP/err"'
