#!/usr/bin/env bash
# --format script is read as perf script is: speedscope's Linux perf importer
# (npm's speedscope, its own code run in node) imports the same stacks and
# names as the collapsed output, with the addresses perf prints (a native
# function's in its file as nm shows it, a kernel symbol's from kallsyms,
# JIT code's start), kernel frames in [kernel.kallsyms] and Java frames in
# the JIT's perf map (/tmp/perf-PID.map), nothing marked inside a name.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
SPEEDSCOPE=1.25.0

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	apt_install "$TMP/apt.log" nodejs npm
fi
nodedir=$PJ_TOP/build/node
bundle() { ls "$nodedir"/node_modules/speedscope/dist/release/speedscope-*.js 2>/dev/null | head -1; }
if [ -z "$(bundle)" ] || ! grep -q "\"version\": \"$SPEEDSCOPE\"" "$nodedir/node_modules/speedscope/package.json"; then
	npm_install "$nodedir" "$TMP/npm.log" "speedscope@$SPEEDSCOPE"
fi
if [ -z "$(bundle)" ]; then
	skip "script read by speedscope" "cannot install speedscope from npm: $(tail -1 "$TMP/npm.log" 2>/dev/null)"
	exit 0
fi

# agg: collapsed lines without async-profiler's type suffixes, merged
agg() {
	sed -E 's/_\[[kji01]\](;| |$)/\1/g' |
		awk '{ c = $NF; $NF = ""; a[$0] += c } END { for (k in a) print k a[k] }' | sort
}
# imported DATA: the stacks speedscope imports from DATA's script, as agg
imported() {
	"$PJ_BIN" report -i "$1" --format script >"$TMP/script.txt" &&
		node "$PJ_TOP/selftests/report/perf_import.js" "$(bundle)" "$TMP/script.txt" >"$TMP/import.txt" ||
		return 1
	awk '/^S / { n = $2; $1 = ""; $2 = ""; sub(/^  /, ""); print $0 " " n }' "$TMP/import.txt" | agg
}

# A native program in a write loop: kernel and native frames.
"$PJ_BIN" record -q -e cpu-clock -o "$TMP/n.data" -- "$PROGS/syscalls" 1 >/dev/null 2>&1
imported "$TMP/n.data" >"$TMP/n.ss"
"$PJ_BIN" report -i "$TMP/n.data" --format collapsed | agg >"$TMP/n.col"
check "native: speedscope imports the collapsed output's stacks and names ($(wc -l <"$TMP/n.col") stacks)" \
	eval '[ -s "$TMP/n.col" ] && diff "$TMP/n.ss" "$TMP/n.col" >&2'
check "no frame name carries _[k] or another type suffix" \
	eval '! grep -E "^A .*_\[[kji01]\] \(" "$TMP/import.txt"'
# nm's address of each of the program's own functions
ok_nm=1 seen=0
while read -r _ addr name obj; do
	[ "$obj" = "($PROGS/syscalls)" ] || continue
	seen=$((seen + 1))
	if [[ "$name" == *@plt ]]; then # a PLT entry: objdump names those
		want=$(objdump -d "$PROGS/syscalls" | awk -v n="<$name>:" '$2 == n { print "0x" $1; exit }')
	else
		want=$(nm "$PROGS/syscalls" | awk -v n="$name" '$3 == n { print "0x" $1; exit }')
	fi
	[ $((addr)) -eq $((want)) ] || { echo "# $name at $addr, nm says $want" >&2; ok_nm=0; }
done < <(grep '^A ' "$TMP/import.txt")
check "native frames: the function's address as nm shows it ($seen frames)" \
	eval '[ $seen -gt 0 ] && [ $ok_nm -eq 1 ]'
ok_k=1 seen=0
if [ "$(awk 'NR == 1 { print $1 }' /proc/kallsyms)" = 0000000000000000 ]; then
	skip "kernel frames at kallsyms addresses" "kallsyms hides addresses here"
else
	while read -r _ addr name obj; do
		[ "$obj" = "([kernel.kallsyms])" ] || continue
		seen=$((seen + 1))
		grep -qi "^${addr#0x} [tTwW] $name\$" /proc/kallsyms ||
			{ echo "# $name at $addr is not in kallsyms" >&2; ok_k=0; }
	done < <(grep '^A ' "$TMP/import.txt")
	check "kernel frames in [kernel.kallsyms] at their kallsyms address ($seen frames)" \
		eval '[ $seen -gt 0 ] && [ $ok_k -eq 1 ]'
fi

java_suite "script of a JVM"
start_jvm "${JDKS[0]}" "$TMP/j.out" -- Workload 30 2
"$PJ_BIN" record -q -p "$JPID" -d 3 -o "$TMP/j.data" 2>/dev/null
imported "$TMP/j.data" >"$TMP/j.ss"
"$PJ_BIN" report -i "$TMP/j.data" --format collapsed | agg >"$TMP/j.col"
check "JVM: speedscope imports the collapsed output's stacks and names ($(wc -l <"$TMP/j.col") stacks)" \
	eval '[ -s "$TMP/j.col" ] && diff "$TMP/j.ss" "$TMP/j.col" >&2'
check "Java frames are in the JIT's perf map, /tmp/perf-$JPID.map" \
	grep -q "^A 0x[0-9a-f]* Workload.work (/tmp/perf-$JPID.map)$" "$TMP/import.txt"
check "compiled Java frames have their code's address" \
	grep -qE "^A 0x[1-9a-f][0-9a-f]* Workload.method[ABC] \(/tmp/perf-$JPID.map\)$" "$TMP/import.txt"
