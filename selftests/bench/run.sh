#!/usr/bin/env bash
# make bench: every selftests/bench/bench_*.sh; each prints its figures and
# ratios measured in one run. Benchmarks never fail on a timing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
export PJ_TOP=$top PJ_BUILD=${BUILD:-$top/build}
export PJ_BIN=$PJ_BUILD/perfjava
for b in "$top"/selftests/bench/bench_*.sh; do
	[ -x "$b" ] || continue
	echo "== ${b#"$top"/}"
	"$b"
done
