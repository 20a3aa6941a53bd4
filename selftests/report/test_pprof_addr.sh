#!/usr/bin/env bash
# pprof output of a real native recording (build/progs/cpusplit), decoded
# by `go tool pprof`: a native frame's location has its function's address
# (as nm shows it), its mapping the file's executable segment (readelf -l)
# and build-id, so that pprof -disasm annotates the function; a file that
# is not on this machine keeps a mapping by name, with address 0.
. "$(dirname "$0")/../lib.sh"

prog=$PJ_BUILD/progs/cpusplit gen=$PJ_BUILD/selftests/test_report
if [ ! -x "$PJ_BIN" ] || [ ! -x "$prog" ] || [ ! -x "$gen" ]; then
	skip "pprof addresses" "build $PJ_BIN, $prog and $gen first"
	exit 0
fi
if ! need_go || ! command -v nm >/dev/null || ! command -v readelf >/dev/null; then
	skip "pprof addresses" "needs go (golang-go), nm and readelf (binutils)"
	exit 0
fi
pp() { go tool pprof "$@" 2>"$TMP/pprof.err"; }

"$PJ_BIN" record -q -o "$TMP/cs.data" -- "$prog" 1 1 >"$TMP/cs.out" 2>"$TMP/cs.err"
"$PJ_BIN" report -i "$TMP/cs.data" -o "$TMP/cs.pb.gz"
if ! pp -raw "$TMP/cs.pb.gz" >"$TMP/raw.txt"; then
	not_ok "go tool pprof -raw reads the recording's pprof ($(head -1 "$TMP/pprof.err"))"
	exit 0
fi
# Locations: "  N: 0xADDR M=MAP name :line s=0"
bad="" seen=0
for f in work_a work_b work_c; do
	want=$(nm "$prog" | awk -v f="$f" '$3 == f { sub(/^0+/, "", $1); print "0x" $1 }')
	got=$(awk -v f="$f" '$4 == f && $3 ~ /^M=/ { print $2; exit }' "$TMP/raw.txt")
	[ -n "$got" ] && seen=$((seen + 1))
	[ -z "$got" ] || [ "$got" = "$want" ] || bad="$bad $f:$got!=$want"
done
check "native locations have their function's address as nm gives it ($seen of 3 sampled${bad:+;$bad})" \
	eval '[ $seen -ge 2 ] && [ -z "$bad" ]'
read -r off vaddr memsz < <(readelf -lW "$prog" | awk '$1 == "LOAD" { fl = ""; for (i = 7; i < NF; i++) fl = fl $i } $1 == "LOAD" && fl ~ /E/ { print $2, $3, $6; exit }')
seg=$(printf '0x%x/0x%x/0x%x' $((vaddr)) $((vaddr + memsz)) $((off)))
id=$(readelf -n "$prog" | awk '/Build ID:/ { print $3; exit }')
check "the binary's mapping: executable segment $seg, build-id ${id:-none}" \
	grep -qE "^[0-9]+: $seg $prog ${id}( |$)" "$TMP/raw.txt"
grep -qE "^[0-9]+: $seg $prog" "$TMP/raw.txt" || grep -A12 '^Mappings' "$TMP/raw.txt" | sed 's/^/# /'
pp -disasm 'work_a' "$TMP/cs.pb.gz" >"$TMP/disasm.txt"
addr=$(nm "$prog" | awk '$3 == "work_a" { sub(/^0+/, "", $1); print $1 }')
check "pprof -disasm work_a annotates its first instruction with the samples" \
	grep -qE "^ +[1-9][0-9]* +[0-9]+ +$addr:" "$TMP/disasm.txt"

"$gen" --make-profile "$TMP/p.data" || { not_ok "write the test profile"; exit 0; }
"$PJ_BIN" report -i "$TMP/p.data" -o "$TMP/p.pb.gz"
pp -raw "$TMP/p.pb.gz" >"$TMP/praw.txt"
check "a file not on this machine: a mapping by name, address 0" \
	eval 'grep -qE "^[0-9]+: 0x0/0x0/0x0 /usr/lib/libfoo.so " "$TMP/praw.txt" && grep -qE "^ +[0-9]+: 0x0 M=[0-9]+ weird;name" "$TMP/praw.txt"'
