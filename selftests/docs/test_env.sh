#!/usr/bin/env bash
# Every environment variable the code reads is in README.md's table
# ("Environment variables"): the names the C code of user/, agent/ and
# selftests/ passes to getenv, and the knobs the shell scripts of
# selftests/, scripts/ and .ci/ read with a default (a ${...:-default});
# and the table names nothing that is read nowhere.
. "$(dirname "$0")/../lib.sh"
top=$PJ_TOP tmp=$TMP
# none DESC FILE-OF-MISMATCHES: ok when FILE is empty; its lines shown
none() {
	sed 's/^/# /' "$2"
	check "$1" test ! -s "$2"
}
# Read by the shell but not knobs: the system's own, and variables that
# lib.sh, jvm.sh and a test (NNP) set for their callers.
not_knobs="HOME CC PKG_CONFIG_PATH HWM ASPROF ASPROF_WHY NNP"

# the table's first column: every `NAME` in it
awk '/^## Environment variables/ { on = 1; next } /^## / { on = 0 }
	on && /^\| `/ { split($0, c, "|"); line = c[2]
		while (match(line, /`[A-Z][A-Z0-9_]*`/)) {
			print substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
		} }' "$top/README.md" | sort -u >"$tmp/table"

cd "$top" || exit 1
# where each name is read: "NAME FILE:LINE"
{
	git ls-files -co --exclude-standard -- 'user/*.[ch]' 'agent/*.[ch]' 'selftests/*.[ch]' 2>/dev/null |
		xargs -r grep -nHoE '\b(secure_)?getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' |
		sed -E 's/^([^:]*:[0-9]*):.*getenv\("([^"]*)"\)/\2 \1/'
	git ls-files -co --exclude-standard -- 'selftests/*.sh' 'scripts/*.sh' '.ci/*' 2>/dev/null |
		xargs -r grep -nHoE '\$\{[A-Z][A-Z0-9_]*(\[@\])?:?[-+=]' |
		sed -E 's/^([^:]*:[0-9]*):\$\{([A-Z0-9_]*).*/\2 \1/'
} | sort -u >"$tmp/read"
: >"$tmp/none"
[ -s "$tmp/read" ] || echo "found no getenv at all: is this a git checkout?" >"$tmp/none"
none "the code's environment variables were found" "$tmp/none"

awk -v skip="$not_knobs" 'BEGIN { n = split(skip, s, " "); for (i = 1; i <= n; i++) no[s[i]] = 1 }
	!($1 in no)' "$tmp/read" >"$tmp/knobs"
cut -d' ' -f1 "$tmp/knobs" | sort -u >"$tmp/names"
comm -13 "$tmp/table" "$tmp/names" | while read -r v; do
	echo "$v (read at $(awk -v v="$v" '$1 == v { print $2 }' "$tmp/knobs" | paste -sd' '))"
done >"$tmp/missing"
none "README.md's table has every variable the code reads" "$tmp/missing"
comm -23 "$tmp/table" "$tmp/names" | sed 's/$/: read nowhere/' >"$tmp/stale"
none "README.md's table names no variable that nothing reads" "$tmp/stale"
