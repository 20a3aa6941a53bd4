#!/usr/bin/env bash
# make lint's static analysis: cppcheck over the reader, the agent and the
# tests, every finding an error. A suppression names its file and line
# and says why, here and nowhere else.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "lint: cppcheck"
supp=$(mktemp)
trap 'rm -f "$supp"' EXIT
cat >"$supp" <<'SUPP'
SUPP
cppcheck -q --error-exitcode=1 --enable=warning,portability,performance \
	--std=c11 --inline-suppr --suppressions-list="$supp" \
	-D__GNUC__ -D_GNU_SOURCE -Iinclude -Iuser -Iagent \
	user agent selftests/unit selftests/progs
