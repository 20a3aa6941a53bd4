#!/usr/bin/env bash
# perfjava and the agent are built hardened (Makefile HARDEN_*): PIE, full
# RELRO, stack protector, _FORTIFY_SOURCE; read back from the ELF files.
. "$(dirname "$0")/../lib.sh"

for f in "$PJ_BIN" "$PJ_BUILD/libperfjava-agent.so"; do
	n=$(basename "$f")
	if ! command -v readelf >/dev/null; then
		skip "$n is hardened" "no readelf"
		continue
	fi
	hdr=$(readelf -hldW "$f")
	dyn=$(readelf --dyn-syms -W "$f")
	check "$n: position independent (ELF type DYN)" grep -q 'Type: *DYN' <<<"$hdr"
	check "$n: RELRO segment" grep -q 'GNU_RELRO' <<<"$hdr"
	check "$n: bound now (full RELRO)" grep -Eq 'BIND_NOW|Flags:.*NOW' <<<"$hdr"
	check "$n: stack protector" grep -q '__stack_chk_fail' <<<"$dyn"
	check "$n: fortified calls" grep -Eq '__[a-z]+_chk' <<<"$dyn"
done
check "perfjava: a PIE executable" grep -q 'PIE' <<<"$(readelf -dW "$PJ_BIN")"
echo "1..$_tap_n"
