#!/usr/bin/env bash
# JFR out and in: `report --format jfr` of 1M samples over 100k unique
# stacks (the profile written through the real writer by test_report_big;
# budget 1 s), and `report` of a 100 MB JFR file (that JFR five times over,
# as a JDK writes a long recording: one chunk after another; budget 2 s,
# --format meta: the load and the report's selection, no output to speak
# of). Best of three, as seconds and their ratio to the budget; never fails
# on a timing.
set -u
gen=$PJ_BUILD/selftests/test_report_big
if [ ! -x "$PJ_BIN" ] || [ ! -x "$gen" ]; then
	echo "skip: build $PJ_BIN and $gen first"
	exit 0
fi
tmp=$(mktemp -d /tmp/pj-bench-jfr.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s%N; }
# best N CMD...: the shortest of three runs of CMD, in ns
best() {
	local b= s d
	for run in 1 2 3; do
		s=$(now)
		"$@" >/dev/null || echo "failed: $*" >&2
		d=$(($(now) - s))
		[ -z "$b" ] || [ "$d" -lt "$b" ] && b=$d
	done
	echo "$b"
}
"$gen" --make "$tmp/big.data" 1000000 100000 || { echo "generator failed"; exit 0; }
w=$(best "$PJ_BIN" report -i "$tmp/big.data" -o "$tmp/big.jfr")
for i in 1 2 3 4 5; do cat "$tmp/big.jfr"; done >"$tmp/100mb.jfr"
r=$(best "$PJ_BIN" report -i "$tmp/100mb.jfr" --format meta)
awk -v w="$w" -v r="$r" -v a="$(stat -c %s "$tmp/big.jfr")" -v b="$(stat -c %s "$tmp/100mb.jfr")" '
BEGIN {
	printf "%-44s %9s %8s\n", "", "seconds", "/budget"
	printf "%-44s %9.3f %8.2f\n", sprintf("write 1M samples as JFR (%.1f MB)", a / 1e6), w / 1e9, w / 1e9 / 1.0
	printf "%-44s %9.3f %8.2f\n", sprintf("read a %.0f MB JFR (5 chunks, 5M samples)", b / 1e6), r / 1e9, r / 1e9 / 2.0
	printf "read: %.0f MB/s\n", b / 1e6 / (r / 1e9)
}'
