#!/usr/bin/env bash
# Installs perfjava's build dependencies, idempotently.
#
#   scripts/deps.sh PREFIX
#
# Debian packages: libelf-dev libdw-dev libtraceevent-dev pkg-config zlib1g-dev.
# libperf is not packaged by Debian: unless pkg-config already finds one with
# perf_evsel__fd(), it is built from the linux-source-6.1 package's
# tools/lib/perf (only the few directories the build needs are extracted;
# nothing is installed under /usr/src) with scripts/libperf-6.1.patch (an
# event's fd, and evsels that drop their maps), and installed into PREFIX,
# where the Makefile finds it through pkg-config.
set -euo pipefail
prefix=${1:?usage: deps.sh PREFIX}
pkgs=(libelf-dev libdw-dev libtraceevent-dev pkg-config zlib1g-dev make gcc patch)
log() { echo "deps: $*" >&2; }
t0=$(date +%s)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
	log "installing ${missing[*]}"
	$sudo apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
patchfile=$(cd "$(dirname "$0")" && pwd)/libperf-6.1.patch
# A libperf as perfjava uses it: it gives an event's fd (the patch).
libperf_ok() {
	local t
	pkg-config --exists libperf || return 1
	t=$(mktemp -d)
	printf '#include <perf/evsel.h>\nint main(void) { return perf_evsel__fd(0, 0, 0) != -2; }\n' >"$t/c.c"
	# shellcheck disable=SC2046
	${CC:-cc} -o "$t/c" "$t/c.c" $(pkg-config --cflags libperf) \
		$(pkg-config --static --libs libperf) >/dev/null 2>&1
	local rc=$?
	rm -rf "$t"
	return $rc
}
if libperf_ok; then
	exit 0
fi

log "building libperf from linux-source-6.1 into $prefix"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q linux-source-6.1 >/dev/null 2>&1) || {
	$sudo apt-get update -q >/dev/null
	(cd "$work" && apt-get download -q linux-source-6.1 >/dev/null)
}
deb=$(ls "$work"/linux-source-6.1_*.deb)
src=linux-source-6.1
# The .deb holds one tarball of the whole tree: stream out only tools/.
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --wildcards './usr/src/linux-source-*.tar.xz'
rm -f "$deb"
xz -T0 -dc "$work"/usr/src/linux-source-*.tar.xz |
	tar -x -C "$work" "$src/tools/lib/perf" "$src/tools/lib/api" \
		"$src/tools/lib/zalloc.c" "$src/tools/lib/str_error_r.c" \
		"$src/tools/build" "$src/tools/scripts" "$src/tools/include" \
		"$src/tools/arch/x86/include"
rm -rf "$work/usr"
patch -s -p1 -d "$work/$src" <"$patchfile"
# Upstream builds at -O0 with -Werror; the .pc file is written at build time,
# so prefix and libdir go in here already.
mk=(-C "$work/$src/tools/lib/perf" prefix="$prefix" libdir_relative=lib
	EXTRA_CFLAGS="-O2 -fPIC" WERROR=0 V=0)
make -s -j"$(nproc)" "${mk[@]}" >/dev/null
make -s "${mk[@]}" install_lib install_headers install_pkgconfig >/dev/null
# libperf.a lacks libapi's fdarray__* that it calls: add libapi's objects.
api=$(find "$work/$src/tools/lib/api" -name 'libapi.a' | head -1)
if [ -n "$api" ]; then
	mkdir -p "$work/apiobj"
	(cd "$work/apiobj" && ar x "$api")
	ar rs "$prefix/lib/libperf.a" "$work"/apiobj/*.o 2>/dev/null
fi
# Only the static library is used: some helpers are not exported from the .so.
rm -f "$prefix"/lib/libperf.so*
libperf_ok || { log "libperf did not install into $prefix"; exit 1; }
log "libperf ready in $(($(date +%s) - t0))s"
