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
# sec_users NAME...: creates these users (no home, no login), removed at
# exit with the test's processes and the files named in SEC_FILES; the
# test's $TMP becomes reachable by them. Root only: 1 otherwise.
SEC_USERS=() SEC_FILES=()
sec_users() {
	local u
	[ "$(id -u)" -eq 0 ] || return 1
	for u in "$@"; do
		useradd -M -N -d / -s /usr/sbin/nologin "$u" || return 1
		SEC_USERS+=("$u")
	done
	chmod 711 "$TMP"
	trap _sec_cleanup EXIT
}
_sec_cleanup() {
	local u
	_pj_cleanup # the processes it started, by pid
	for u in "${SEC_USERS[@]}"; do
		userdel "$u" 2>/dev/null
		rm -rf /tmp/hsperfdata_"$u" # its JVMs' perf data
	done
	[ ${#SEC_FILES[@]} -eq 0 ] || rm -rf "${SEC_FILES[@]}"
}
# sec_classes: SEC_CLASSES, a copy of the test classes every user can read,
# where a private /tmp cannot hide them (the checkout may be under /tmp),
# removed at exit
sec_classes() {
	SEC_CLASSES=$(mktemp -d /var/tmp/pj-classes.XXXXXX) || return 1
	SEC_FILES+=("$SEC_CLASSES")
	cp -r "$CLASSES"/. "$SEC_CLASSES/" && chmod -R a+rX "$SEC_CLASSES"
}
# as_user USER CMD...: CMD as USER (group nogroup, no privileges)
as_user() { local u=$1; shift; setpriv --reuid="$u" --regid=nogroup --clear-groups --no-new-privs "$@"; }
# fingerprint FILE: what must not change of a file (owner, mode, size,
# mtime, contents), or "absent"
fingerprint() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		stat -c '%u:%g %a %s %Y' "$1"; md5sum <"$1" 2>/dev/null
	else
		echo absent
	fi
}
# seconds_since NS: seconds (2 decimals) since date +%s%N gave NS
seconds_since() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
# le A B: A <= B (floats)
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
