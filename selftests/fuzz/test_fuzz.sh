#!/usr/bin/env bash
# A short libFuzzer run (FUZZ_SECONDS, default 3 s each) of the parsers that
# read untrusted bytes, from the committed corpus: the reader's side of the
# agent protocol, the agent's side, the JVM's perf data, the profile reader
# (perfjava files; JFR files as its own target, and as a target that
# builds them from its bytes by the format's structure: jfr_struct),
# the ELF files of the target's mappings (and of a recording's, at report),
# and the same from a file descriptor through the checks before libelf and
# the debug file search (elf_fd).
# `make fuzz FUZZ_SECONDS=N` runs them for longer (selftests/fuzz/run.sh).
. "$(dirname "$0")/../lib.sh"

if ! command -v "${FUZZ_CC:-clang}" >/dev/null && [ "$(id -u)" -ne 0 ] &&
	! command -v sudo >/dev/null; then
	skip "fuzzing" "no clang, and no way to install it"
	exit 0
fi
out=$(FUZZ_SECONDS=${FUZZ_SECONDS:-3} FUZZ_KEEP=0 "$PJ_TOP/selftests/fuzz/run.sh" 2>&1)
rc=$?
if [ "$rc" -eq 2 ]; then
	skip "fuzzing" "$(tail -1 <<<"$out")"
	exit 0
fi
for n in agent_msgs agent_input perfdata profile jfr jfr_struct perf_sample elf elf_fd; do
	line=$(grep "^fuzz $n:" <<<"$out")
	if [ -z "$line" ]; then
		not_ok "fuzz $n: did not run"
	elif grep -q ' 0 crashes, 0 hangs' <<<"$line" && ! grep -q ': 0 execs' <<<"$line"; then
		ok "${line#fuzz }"
	else
		not_ok "${line#fuzz }"
	fi
done
grep -v '^fuzz ' <<<"$out" | sed 's/^/# /'
echo "1..$_tap_n"
