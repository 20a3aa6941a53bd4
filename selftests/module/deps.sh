#!/usr/bin/env bash
# Fetches what the module's virtual-machine test needs, idempotently.
#
#   selftests/module/deps.sh CACHE_DIR [KVER]
#
# KVER picks another Debian kernel than the current one, for example
# 6.12.111+deb12-amd64 (its linux-headers-KVER package is installed).
# Installs linux-headers-amd64 (the current Debian kernel's headers),
# qemu-system-x86, cpio, gzip, gcc, make and libc6-dev (libc.a for the
# static guest program) with apt-get. Downloads the matching
# linux-image package and busybox-static with `apt-get download` and unpacks
# only the vmlinuz and the busybox binary into CACHE_DIR: neither package is
# installed on the host. Prints "KVER=<version>", "KDIR=<headers dir>",
# "VMLINUZ=<path>" and "BUSYBOX=<path>" on stdout; everything else goes to
# stderr. Exits 2 when something cannot be had.
set -euo pipefail
cache=${1:?usage: deps.sh CACHE_DIR [KVER]}
want=${2:-}
log() { echo "module-deps: $*" >&2; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_opts=(-y -q --no-install-recommends -o DPkg::Lock::Timeout=300)

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

hmeta=linux-headers-amd64
[ -n "$want" ] && hmeta=linux-headers-$want
missing=()
for p in "$hmeta" qemu-system-x86 cpio gzip gcc make libc6-dev; do
	installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing ${missing[*]}"
	if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install "${apt_opts[@]}" \
		"${missing[@]}" >/dev/null 2>&1; then
		$sudo apt-get update -q >/dev/null 2>&1 || true
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install "${apt_opts[@]}" \
			"${missing[@]}" >/dev/null || {
			log "cannot install ${missing[*]} with apt-get"
			exit 2
		}
	fi
fi

if [ -n "$want" ]; then
	hpkg=$hmeta
else
	# linux-headers-amd64 depends on linux-headers-<kver> (= <version>).
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64)
	hpkg=$(sed -E 's/^(linux-headers-[^ ,]+).*/\1/' <<<"$dep")
fi
kver=${hpkg#linux-headers-}
kdir=/usr/src/linux-headers-$kver
[ -f "$kdir/Makefile" ] || { log "no kernel headers at $kdir"; exit 2; }

# download PKG[=VERSION] MEMBER DEST: unpack one file of a package, once.
download() {
	local pkg=$1 member=$2 dest=$3 tmp
	[ -s "$dest" ] && return 0
	log "downloading $pkg (unpacked into the cache, not installed)"
	tmp=$(mktemp -d "$cache/dl.XXXXXX")
	if ! (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1); then
		$sudo apt-get update -q >/dev/null 2>&1 || true
		(cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) || {
			log "cannot download $pkg"
			rm -rf "$tmp"
			return 2
		}
	fi
	dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" "./$member"
	mkdir -p "$(dirname "$dest")"
	mv "$tmp/$member" "$dest"
	rm -rf "$tmp"
}

mkdir -p "$cache"
hver=$(dpkg-query -W -f='${Version}' "$hpkg")
vmlinuz=$cache/$kver/vmlinuz
download "linux-image-$kver=$hver" "boot/vmlinuz-$kver" "$vmlinuz" || exit 2
busybox=$cache/busybox-static/busybox
download busybox-static bin/busybox "$busybox" || exit 2
echo "KVER=$kver"
echo "KDIR=$kdir"
echo "VMLINUZ=$vmlinuz"
echo "BUSYBOX=$busybox"
