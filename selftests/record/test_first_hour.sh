#!/usr/bin/env bash
# A newcomer's first hour (issue 28), typed as a user would: help that tells
# everything, one line per mistake, -c in time units, the right words.
. "$(dirname "$0")/../lib.sh"

"$PJ_BIN" --help >"$TMP/help"
check "perfjava --help shows record -- CMD" grep -q 'record \[options\] -- CMD' "$TMP/help"

"$PJ_BIN" list >"$TMP/list" 2>&1
check "perfjava list shows offcpu and wall" \
	eval 'grep -qE "^  offcpu +(yes|no: )" "$TMP/list" && grep -qE "^  wall( OR --wall)? +(yes|no: )" "$TMP/list"'

"$PJ_BIN" record --pidd 1 -d 1 -o "$TMP/typo.data" 2>"$TMP/typo.err"
rc=$?
check "a typo'd record flag: one line naming it, exit non-zero ($rc)" \
	eval '[ $rc -ne 0 ] && [ "$(wc -l <"$TMP/typo.err")" -eq 1 ] && grep -q "'"'"'--pidd'"'"'" "$TMP/typo.err"'

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "non-root -e offcpu" "needs root and setpriv to run as another user"
elif [ "$(stat -c %a /sys/kernel/tracing 2>/dev/null)" != 700 ]; then
	skip "non-root -e offcpu" "tracefs here is not root-only"
else
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PJ_BIN" record -e offcpu -o /dev/null -- true 2>"$TMP/nr.err"
	check "non-root -e offcpu: tracefs is root-only, not 'not mounted'" \
		eval 'grep -q "root only" "$TMP/nr.err" && ! grep -q "not mounted" "$TMP/nr.err"'
fi

# Nothing recorded is lost by a mistake: a failed launch leaves the previous
# recording byte for byte, named by -o or the default perfjava.data.
"$PJ_BIN" record -q -e cpu-clock -o "$TMP/keep.data" -- "$PROGS/cpusplit" 1 1 >/dev/null 2>&1
sum=$(md5sum <"$TMP/keep.data")
"$PJ_BIN" record -o "$TMP/keep.data" -- /nonexistent/cmd 2>"$TMP/launch.err"
rc=$?
check "record -o x.data -- /nonexistent/cmd: fails ($rc), x.data byte-identical" \
	eval '[ $rc -ne 0 ] && [ -s "$TMP/keep.data" ] && [ "$(md5sum <"$TMP/keep.data")" = "$sum" ]'
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$PJ_BIN" record -q -e cpu-clock -- "$PROGS/cpusplit" 1 1 >/dev/null 2>&1)
sum=$(md5sum <"$TMP/cwd/perfjava.data")
(cd "$TMP/cwd" && "$PJ_BIN" record -- /nonexistent/cmd 2>/dev/null)
rc=$?
check "record -- /nonexistent/cmd: fails ($rc), the default perfjava.data byte-identical" \
	eval '[ $rc -ne 0 ] && [ -s "$TMP/cwd/perfjava.data" ] && [ "$(md5sum <"$TMP/cwd/perfjava.data")" = "$sum" ]'
