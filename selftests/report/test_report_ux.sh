#!/usr/bin/env bash
# The report's user-facing edges on the known profile of
# selftests/unit/test_report.c: --help has a line for every option the parser
# knows, an -o extension that names no format is an error naming the formats,
# filters that match nothing say so (exit 1, nothing written), the text
# header shows no raw start_ns, and --format meta gives the raw values.
. "$(dirname "$0")/../lib.sh"

gen=$PJ_BUILD/selftests/test_report
if [ ! -x "$PJ_BIN" ] || [ ! -x "$gen" ]; then
	skip "report ux" "build $PJ_BIN and $gen first"
	exit 0
fi
"$gen" --make-profile "$TMP/p.data" || { not_ok "write the test profile"; exit 0; }
rep() { "$PJ_BIN" report -i "$TMP/p.data" "$@"; }

"$PJ_BIN" report --help >"$TMP/help" 2>&1
opts=$(grep -oE '^	\{ "[a-z-]+"' "$PJ_TOP/user/report/options.c" | sed -E 's/.*"(.*)"/\1/')
missing=""
for o in $opts; do grep -qE -- "--$o\b" "$TMP/help" || missing="$missing --$o"; done
check "report --help: a line for each of the $(wc -w <<<"$opts") long options${missing:+ (missing:$missing)}" \
	eval '[ -z "$missing" ] && [ -n "$opts" ]'

rep -o "$TMP/out.svg" 2>"$TMP/svg.err"; rc=$?
check "-o out.svg: exit 2, one line naming the formats, no file" \
	eval '[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/svg.err")" -eq 1 ] && grep -q "pprof" "$TMP/svg.err" && [ ! -e "$TMP/out.svg" ]'
rep -o "$TMP/out" --format collapsed 2>/dev/null
check "-o without an extension and --format: fine" test -s "$TMP/out"

rep --include 'NoSuchFrame' -o "$TMP/none.txt" 2>"$TMP/none.err"; rc=$?
check "--include matching nothing: exit 1, says so in one line, no output" \
	eval '[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/none.err")" -eq 1 ] && grep -q "no sample.*matches the filters (--include/--exclude)" "$TMP/none.err" && [ ! -s "$TMP/none.txt" ]'
rep --tid 99 --format collapsed >/dev/null 2>"$TMP/tid.err"; rc=$?
check "--tid 99: exit 1, names --tid" eval '[ $rc -eq 1 ] && grep -q "(--tid)" "$TMP/tid.err"'

rep >"$TMP/text"
check "text header: no raw start_ns, one Event line" \
	eval '! grep -qi "start_ns" "$TMP/text" && [ "$(grep -ci "^event" "$TMP/text")" -eq 1 ]'
rep --format meta >"$TMP/meta"
check "--format meta: raw metadata and statistics" \
	eval 'grep -q "^meta command java App$" "$TMP/meta" && grep -q "^stat lost 4$" "$TMP/meta"'
