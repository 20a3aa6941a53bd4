#!/usr/bin/env bash
# Builds the libFuzzer targets of selftests/fuzz/ (clang, with ASan and
# UBSan; clang is installed from Debian when missing) and runs each for
# FUZZ_SECONDS (default 60) from its committed corpus. One line per target:
#   fuzz NAME: N execs, C crashes, H hangs in S s (corpus K inputs)
# and the exit status says whether any crashed or hung. Artifacts (crash-*,
# timeout-*) go to build/fuzz/NAME/; inputs found are kept in
# build/fuzz/NAME/corpus (make fuzz) or dropped (FUZZ_KEEP=0, make check).
#
#   selftests/fuzz/run.sh [NAME...]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
secs=${FUZZ_SECONDS:-60}
keep=${FUZZ_KEEP:-1}
cc=${FUZZ_CC:-clang}
out=$build/fuzz
mkdir -p "$out"

if ! command -v "$cc" >/dev/null; then
	echo "fuzz: installing clang (Debian package) for libFuzzer" >&2
	sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
			-o DPkg::Lock::Timeout=300 clang >/dev/null ||
		{ echo "fuzz: cannot install clang" >&2; exit 2; }
fi

# Every target links against one archive of the reader's lower layers (the
# parsers of untrusted bytes live there), built with the same sanitizers:
# the linker takes the objects a target needs, so a file split in those
# folders needs no change here. Objects are rebuilt when their source or any
# header is newer.
layers="user/lib user/events user/sym user/unwind user/jvm user/profile"
extra="user/rings/perf_parse.c"
# targets and what else they are built from, besides fuzz_NAME.c
declare -A src=([agent_msgs]="" [agent_input]="agent/input.c" [perfdata]=""
	[profile]="" [jfr]="" [jfr_struct]="" [perf_sample]="" [elf]="" [elf_fd]="")
# targets that start from another's committed corpus
declare -A seeds=([elf_fd]=elf)
[ -d "$top/build/deps/lib/pkgconfig" ] &&
	export PKG_CONFIG_PATH="$top/build/deps/lib/pkgconfig:${PKG_CONFIG_PATH:-}"
pkgs="libperf libelf libdw libtraceevent"
flags=(-std=gnu11 -g -O1 -D_GNU_SOURCE -fno-sanitize-recover=undefined
	-Iinclude -Iuser -Iagent $(pkg-config --cflags $pkgs 2>/dev/null))
libs="$(pkg-config --static --libs libperf 2>/dev/null) $(pkg-config --libs libelf libdw libtraceevent 2>/dev/null) -lstdc++ -lz -lpthread -lm"
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(agent_msgs agent_input perfdata profile jfr jfr_struct perf_sample elf elf_fd)
# inputs longer than 64 KiB for targets whose corpus needs them
declare -A maxlen=([jfr]=262144)
lib=$out/libpjfuzz.a

build_lib() {
	local f o newest objs=() stale=0 jobs=()
	newest=$(cd "$top" && find include user agent -name '*.h' -newer "$lib" 2>/dev/null | head -1)
	[ -f "$lib" ] || newest=all
	for f in $(cd "$top" && ls $(printf '%s/*.c ' $layers) $extra); do
		o=$out/obj/${f%.c}.o
		objs+=("$o")
		if [ -n "$newest" ] || [ "$top/$f" -nt "$o" ]; then
			mkdir -p "$(dirname "$o")"
			(cd "$top" && "$cc" "${flags[@]}" -fsanitize=fuzzer-no-link,address,undefined -c -o "$o" "$f") &
			jobs+=($!)
			stale=1
			# two compilers at a time, as many as this machine has cores
			[ ${#jobs[@]} -ge "$(nproc)" ] && { wait "${jobs[0]}" || return 1; jobs=("${jobs[@]:1}"); }
		fi
	done
	for j in "${jobs[@]}"; do wait "$j" || return 1; done
	[ "$stale" -eq 0 ] && return 0
	rm -f "$lib" && ar rcs "$lib" "${objs[@]}"
}

build_one() {
	local n=$1 bin=$out/$1/fuzz_$1 f newer=0
	mkdir -p "$out/$n"
	for f in selftests/fuzz/fuzz_$n.c selftests/fuzz/*.h ${src[$n]}; do
		[ "$top/$f" -nt "$bin" ] && newer=1
	done
	[ "$lib" -nt "$bin" ] && newer=1
	[ "$newer" -eq 0 ] && return 0
	(cd "$top" && "$cc" "${flags[@]}" -fsanitize=fuzzer,address,undefined -o "$bin" \
		"selftests/fuzz/fuzz_$n.c" ${src[$n]} "$lib" $libs) ||
		{ echo "fuzz $n: build failed" >&2; return 1; }
}

build_lib || { echo "fuzz: building the reader's layers failed" >&2; exit 1; }
fail=0
for n in "${names[@]}"; do
	[ -v "src[$n]" ] || { echo "fuzz: no target $n" >&2; exit 2; }
	build_one "$n" || { fail=1; continue; }
	dir=$out/$n
	rm -f "$dir"/crash-* "$dir"/timeout-* "$dir"/leak-* "$dir"/oom-*
	if [ "$keep" = 1 ]; then
		corpus=$dir/corpus
	else
		corpus=$(mktemp -d "$dir/corpus.XXXXXX")
	fi
	mkdir -p "$corpus"
	t0=$(date +%s)
	"$dir/fuzz_$n" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len="${maxlen[$n]:-65536}" -print_final_stats=1 -artifact_prefix="$dir/" \
		"$corpus" "$top/selftests/fuzz/corpus/${seeds[$n]:-$n}" >"$dir/log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
	crashes=$(find "$dir" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' \) | wc -l)
	hangs=$(find "$dir" -maxdepth 1 -name 'timeout-*' | wc -l)
	# a failure that left no artifact (e.g. a sanitizer abort) counts too
	[ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ] && [ "$hangs" -eq 0 ] && crashes=1
	echo "fuzz $n: ${execs:-0} execs, $crashes crashes, $hangs hangs in $(($(date +%s) - t0)) s (corpus $(ls "$corpus" | wc -l) inputs)"
	if [ "$crashes" -ne 0 ] || [ "$hangs" -ne 0 ]; then
		fail=1
		grep -m3 -E 'ERROR|SUMMARY|runtime error' "$dir/log" | sed 's/^/  /'
	fi
	[ "$keep" = 1 ] || rm -rf "$corpus"
done
exit $fail
