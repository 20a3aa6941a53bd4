#!/usr/bin/env bash
# The flame graph, differential flame graph and tree pages opened in headless
# Chromium (Debian's chromium driven by playwright-core from npm): they render,
# a click zooms, a search highlights the right frames with the right share,
# a graph deeper than the window opens on its root,
# tooltips, no console errors, and no request leaves the page. Installs what
# it needs once (apt-get chromium, npm playwright-core into build/node).
. "$(dirname "$0")/../lib.sh"

gen=$PJ_BUILD/selftests/test_report
if [ ! -x "$PJ_BIN" ] || [ ! -x "$gen" ]; then
	skip "report pages in Chromium" "build $PJ_BIN and $gen first"
	exit 0
fi
. "$PJ_TOP/selftests/browser/chromium.sh"
chromium_setup "report pages in Chromium" || exit 0
nodedir=$NODEDIR

"$gen" --make-profile "$TMP/new.data" && "$gen" --make-old-profile "$TMP/old.data" ||
	{ not_ok "write the test profiles"; exit 0; }
"$PJ_BIN" report -i "$TMP/new.data" -o "$TMP/flame.html"
check "report -o x.html writes a flame graph" grep -q 'window.flame' "$TMP/flame.html"
"$PJ_BIN" report -i "$TMP/new.data" --diff "$TMP/old.data" --format flame -o "$TMP/diff.html"
check "report --diff --format flame writes a page" grep -q 'base: \[' "$TMP/diff.html"
"$PJ_BIN" report -i "$TMP/new.data" --format tree -o "$TMP/tree.html"
check "report --format tree -o x.html writes the tree page" grep -q 'window.tree' "$TMP/tree.html"
check "the pages name no network resource" \
	eval "! grep -Eiq '(src|href)=\"?(https?:)?//|@import|url\\(' $TMP/flame.html $TMP/diff.html $TMP/tree.html"

"$PJ_BUILD/selftests/test_report_big" --make-deep "$TMP/deep.data" &&
	"$PJ_BIN" report -i "$TMP/deep.data" -o "$TMP/deep.html" ||
	not_ok "write the 1503-frame-deep flame graph"

# The 100k-stack profile of the benchmark must stay usable in the browser.
big=()
if "$PJ_BUILD/selftests/test_report_big" --make "$TMP/big.data" &&
	"$PJ_BIN" report -i "$TMP/big.data" -o "$TMP/big.html"; then
	big=("$TMP/big.html")
else
	not_ok "write the 1M-sample, 100k-stack flame graph"
fi
NODE_PATH=$nodedir/node_modules timeout 120 node "$PJ_TOP/selftests/browser/check_pages.js" \
	"$TMP/flame.html" "$TMP/diff.html" "$TMP/tree.html" "$TMP/deep.html" "${big[@]}"
[ $? -eq 0 ] || echo "# some browser checks failed"
exit 0
