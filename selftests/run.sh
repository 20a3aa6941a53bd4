#!/usr/bin/env bash
# Runs every test of selftests/: the unit binaries built from selftests/unit/
# and every executable selftests/<part>/test_*.sh. Each prints TAP lines
# ("ok", "not ok", "ok ... # SKIP reason"); this script renumbers them into one
# TAP stream and ends with the summary line "N passed, N failed, N skipped".
# Select tests with T=<substring> (e.g. `make check T=ring`), or several
# substrings separated by commas (T=selftests/test_,selftests/record/);
# TX=<substrings> leaves those out. PJ_KEEP=1 keeps each test's temporary
# directory (/tmp/pj-test.*) and names it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
export PJ_TOP=$top PJ_BUILD=$build PJ_BIN=$build/perfjava
per_test_timeout=${PJ_TEST_TIMEOUT:-900}

tests=()
for t in "$build"/selftests/test_*; do [ -x "$t" ] && tests+=("$t"); done
for t in "$top"/selftests/*/test_*.sh; do [ -x "$t" ] && tests+=("$t"); done

pass=0 fail=0 skip=0 n=0
start=$(date +%s)
for t in "${tests[@]}"; do
	name=${t#"$top"/}; name=${name#"$build"/}
	if [ -n "${T:-}" ]; then
		want=0
		IFS=, read -ra subs <<<"$T"
		for sub in "${subs[@]}"; do [[ "$name" == *"$sub"* ]] && want=1; done
		[ "$want" -eq 1 ] || continue
	fi
	if [ -n "${TX:-}" ]; then
		IFS=, read -ra subs <<<"$TX"
		want=1
		for sub in "${subs[@]}"; do [[ "$name" == *"$sub"* ]] && want=0; done
		[ "$want" -eq 1 ] || continue
	fi
	echo "# $name"
	t0=$(date +%s)
	out=$(mktemp)
	(cd "$top" && timeout -k 10 "$per_test_timeout" "$t") >"$out" 2>&1
	rc=$?
	seen=0
	while IFS= read -r line; do
		case "$line" in
		"ok "* | "not ok "*)
			seen=$((seen + 1)); n=$((n + 1))
			desc=$(sed -E 's/^(not )?ok [0-9]* *-? *//' <<<"$line")
			if [[ "$line" == "not ok"* ]]; then
				fail=$((fail + 1)); echo "not ok $n - $name: $desc"
			elif [[ "$line" =~ \#\ *[Ss][Kk][Ii][Pp] ]]; then
				skip=$((skip + 1)); echo "ok $n - $name: $desc"
			else
				pass=$((pass + 1)); echo "ok $n - $name: $desc"
			fi ;;
		"1.."*) ;;
		*) echo "#   $line" ;;
		esac
	done <"$out"
	rm -f "$out"
	if [ "$rc" -ne 0 ]; then
		n=$((n + 1)); fail=$((fail + 1))
		why="exited with $rc"; [ "$rc" -eq 124 ] && why="timed out after ${per_test_timeout}s"
		echo "not ok $n - $name: $why"
	elif [ "$seen" -eq 0 ]; then
		n=$((n + 1)); fail=$((fail + 1))
		echo "not ok $n - $name: printed no test result"
	fi
	echo "# $name took $(($(date +%s) - t0))s"
done
echo "1..$n"
echo "# total time $(($(date +%s) - start))s"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
