#!/usr/bin/env bash
# make sanitize's run: the tests named by T (comma-separated substrings, as
# `make check T=`) against the build in $1, made with AddressSanitizer and
# UndefinedBehaviorSanitizer. Every ASan/LSan report of every process (the
# recorders a test starts and never asks an exit status of included) is
# written under $1/logs and fails the lane; UBSan stops a process at its
# first finding (exit 1, the report on its stderr), which its test sees.
set -u
build=$(cd "$1" && pwd)
logs=$build/logs
rm -rf "$logs" && mkdir -p "$logs" && chmod 1777 "$logs"
# allocator_may_return_null: the tests give hostile sizes on purpose, and
# the reader must say "out of memory" there, not die in the allocator.
BUILD=$build T=$2 \
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:log_path=$logs/asan \
	UBSAN_OPTIONS=print_stacktrace=1 "$(dirname "$0")/../selftests/run.sh"
rc=$?
# an allocation refused is a WARNING (the test asked for it); a finding
# is an ERROR or a runtime error
found=$(grep -lE 'ERROR: |runtime error: ' "$logs"/* 2>/dev/null)
if [ -n "$found" ]; then
	echo "sanitize: findings (the first lines of each; all in $logs):"
	for f in $found; do
		echo "--- $f"
		head -n 30 "$f"
	done
	exit 1
fi
exit "$rc"
