#!/usr/bin/env bash
# Frames no symbol from a file's data may name: a signal handler's caller is
# libc's trampoline (__restore_rt, named when libc's symbols are at hand),
# and a return address in a file mapped without execute is labelled
# [not code], never named after that file as if it were its code.
. "$(dirname "$0")/../lib.sh"

"$PJ_BIN" record -q -o "$TMP/sf.data" -- "$PROGS/sigframes" 3 >"$TMP/sf.out"
check "record sigframes exits 0" [ $? -eq 0 ]
"$PJ_BIN" report -i "$TMP/sf.data" --format collapsed >"$TMP/sf.folded"
check "the handler's samples are there" grep -q 'on_sig;spin_in_handler' "$TMP/sf.folded"

# __restore_rt is a local symbol: in libc's .symtab or its debug file only
libc=$(awk '$NF ~ /\/libc\.so\.6$/ { print $NF; exit }' /proc/self/maps)
id=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
if readelf -sW "$libc" "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" 2>/dev/null |
	grep -q ' __restore_rt$'; then
	check "the handler's caller is named __restore_rt" \
		grep -q '__restore_rt;on_sig;spin_in_handler' "$TMP/sf.folded"
else
	skip "the handler's caller is named __restore_rt" "no symbol table for $libc"
fi
check "no file's name stands for the trampoline" \
	bash -c "! grep -q '\[libc\.so\.6\];on_sig' '$TMP/sf.folded'"

check "a return address in data is labelled [not code]" \
	grep -q '^\[not code\];spin_fake_caller ' "$TMP/sf.folded"
check "no data mapping is named as code" \
	bash -c "! grep -q '\[sigframes\]' '$TMP/sf.folded'"
