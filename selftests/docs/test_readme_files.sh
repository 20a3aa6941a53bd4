#!/usr/bin/env bash
# The maps of the code stay true: user/README.md lists every file of each
# folder of user/ (a header once with its .c) and nothing that is not there;
# ARCHITECTURE.md names every file of the agent.
set -u
top=${PJ_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
n=0 fail=0
check() { # DESC FILE-OF-MISMATCHES
	n=$((n + 1))
	if [ -s "$2" ]; then
		fail=$((fail + 1))
		echo "not ok $n - $1"
		sed 's/^/#   /' "$2"
	else
		echo "ok $n - $1"
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What a folder holds, as its README line names it: x.c (with x.h), a .S,
# a header without its .c, a subfolder as name/.
holds() {
	(cd "$1" && for f in *; do
		case "$f" in
		*.c | *.S) echo "$f" ;;
		*.h) [ -e "${f%.h}.c" ] || echo "$f" ;;
		*) [ -d "$f" ] && echo "$f/" ;;
		esac
	done) | sort -u
}

# The names a README section lists: the backquoted names before " — ".
listed() { # SECTION ("" for the top, before the first "## ")
	awk -v want="$1" '
		/^## / { sec = $2; next }
		sec == want && /^(- )?`/ {
			line = $0; sub(/ — .*/, "", line)
			while (match(line, /`[^`]*`/)) {
				print substr(line, RSTART + 1, RLENGTH - 2)
				line = substr(line, RSTART + RLENGTH)
			}
		}' "$top/user/README.md" | sort -u
}

listed "" >"$tmp/top.list"
(cd "$top/user" && ls *.c 2>/dev/null) | sort -u >"$tmp/top.holds"
comm -3 "$tmp/top.list" "$tmp/top.holds" >"$tmp/top.diff"
check "user/README.md lists the files of user/ itself" "$tmp/top.diff"
for d in "$top"/user/*/; do
	name=$(basename "$d")
	listed "$name/" >"$tmp/$name.list"
	holds "$d" >"$tmp/$name.holds"
	# only in the README: missing files; only in the folder: unlisted
	comm -23 "$tmp/$name.list" "$tmp/$name.holds" | sed 's/^/listed but missing: /' >"$tmp/$name.diff"
	comm -13 "$tmp/$name.list" "$tmp/$name.holds" | sed 's/^/not listed: /' >>"$tmp/$name.diff"
	check "user/README.md lists user/$name/ as it is" "$tmp/$name.diff"
done

: >"$tmp/agent.diff"
for f in "$top"/agent/*.c; do
	b=$(basename "$f")
	grep -q "\`$b\`" "$top/ARCHITECTURE.md" || echo "not named: agent/$b" >>"$tmp/agent.diff"
done
check "ARCHITECTURE.md names every file of agent/" "$tmp/agent.diff"
echo "1..$n"
[ "$fail" -eq 0 ]
