# Sourced by the browser tests after lib.sh: Debian's chromium and
# playwright-core from npm (into build/node), installed once.
# chromium_setup WHAT: 0 with NODEDIR set, or 1 after skipping WHAT with
# the reason (the caller exits 0).
chromium_setup() {
	local what=$1
	[ -x /usr/bin/chromium ] || apt_install "$TMP/apt.log" chromium
	if [ ! -x /usr/bin/chromium ]; then
		skip "$what" "cannot install chromium: $(tail -1 "$TMP/apt.log")"
		return 1
	fi
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		apt_install "$TMP/apt.log" nodejs npm
	fi
	NODEDIR=$PJ_TOP/build/node
	if [ ! -d "$NODEDIR/node_modules/playwright-core" ]; then
		npm_install "$NODEDIR" "$TMP/npm.log" playwright-core
	fi
	if [ ! -d "$NODEDIR/node_modules/playwright-core" ]; then
		skip "$what" "cannot install playwright-core from npm: $(tail -1 "$TMP/npm.log" 2>/dev/null)"
		return 1
	fi
}
