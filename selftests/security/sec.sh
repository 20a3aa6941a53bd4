# Helpers of the security tests; source after lib.sh.
# not_grep ARGS...: grep -q finds nothing
not_grep() { ! grep -q "$@"; }
# all CMD1 -- CMD2 ...: every command succeeds (for check)
all() {
	local c=() a
	for a in "$@" --; do
		if [ "$a" = -- ]; then "${c[@]}" || return 1; c=(); else c+=("$a"); fi
	done
}
