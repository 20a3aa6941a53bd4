#!/usr/bin/env bash
# perfjava_ksym.ko in a real kernel: builds the module against the current
# Debian kernel's headers, boots that kernel under qemu with an initramfs of
# busybox, the module, guest_test (a static program using the reader's
# user/sym/ksym_module.c) and the real build/perfjava with its shared
# libraries, runs guest_test and then guest_record.sh (perfjava recording and
# reporting with and without the module), and turns the guest's "PJKSYM"
# lines into TAP.
# Downloads are cached in build/module-cache. PJ_VM_TIMEOUT bounds the guest
# (default 240 s); the guest powers itself off when done. PJ_KSYM_KVER picks
# another Debian kernel, e.g. PJ_KSYM_KVER=6.12.111+deb12-amd64.
# a virtual machine (qemu) of its own, under TCG: slower beside other tests,
# well within its time (PJ_VM_TIMEOUT)
. "$(dirname "$0")/../lib.sh"
t0=$(date +%s)
cache=$PJ_TOP/build/module-cache
vm_timeout=${PJ_VM_TIMEOUT:-240}

if ! deps=$("$PJ_TOP/selftests/module/deps.sh" "$cache" ${PJ_KSYM_KVER:-} 2>"$TMP/deps.err"); then
	sed 's/^/# /' "$TMP/deps.err"
	skip "module test" "cannot install or download qemu, kernel headers or kernel image (see above)"
	exit 0
fi
KVER=$(sed -n 's/^KVER=//p' <<<"$deps")
KDIR=$(sed -n 's/^KDIR=//p' <<<"$deps")
VMLINUZ=$(sed -n 's/^VMLINUZ=//p' <<<"$deps")
BUSYBOX=$(sed -n 's/^BUSYBOX=//p' <<<"$deps")

# The module, against the guest kernel's headers.
ko=$PJ_BUILD/module/perfjava_ksym.ko
if make -s -C "$PJ_TOP" BUILD="$PJ_BUILD" KDIR="$KDIR" module >"$TMP/make.log" 2>&1 &&
	[ -f "$ko" ] && grep -aqF "vermagic=$KVER " "$ko"; then
	ok "make module builds perfjava_ksym.ko for $KVER"
else
	sed 's/^/# /' "$TMP/make.log" | tail -30
	not_ok "make module builds perfjava_ksym.ko for $KVER"
	exit 0
fi
if grep -E 'warning:' "$TMP/make.log" >/dev/null; then
	not_ok "module builds without warnings"
	grep -E 'warning:' "$TMP/make.log" | sed 's/^/# /'
else
	ok "module builds without warnings"
fi

# The guest program: static, linked with the reader's client.
guest=$TMP/guest_test
if ! gcc -static -std=gnu11 -O2 -Wall -Wextra -Werror -I"$PJ_TOP/include" \
	-I"$PJ_TOP/user" -o "$guest" "$PJ_TOP/selftests/module/guest_test.c" \
	"$PJ_TOP/selftests/module/guest_tools.c" \
	"$PJ_TOP/user/sym/ksym_module.c" 2>"$TMP/gcc.log"; then
	sed 's/^/# /' "$TMP/gcc.log"
	not_ok "guest_test builds statically"
	exit 0
fi

if [ ! -x "$PJ_BIN" ]; then
	not_ok "perfjava is built ($PJ_BIN)"
	exit 0
fi

# The initramfs: busybox, /init, the module, the test programs, and perfjava
# with the shared libraries ldd names, at the same paths.
root=$TMP/initramfs
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp}
cp "$BUSYBOX" "$root/bin/busybox"
cp "$ko" "$guest" "$root/"
cp "$PJ_BIN" "$root/perfjava"
cp "$PJ_TOP/selftests/module/guest_record.sh" "$root/"
libs=$(ldd "$PJ_BIN" | sed -nE 's|.*[[:space:]](/[^ ]+) \(0x.*|\1|p')
for lib in $libs; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
if ! grep -q '/libc\.so\.6$' <<<"$libs" || ! grep -q '/ld-linux' <<<"$libs"; then
	echo "# ldd $PJ_BIN:" && ldd "$PJ_BIN" | sed 's/^/# /'
	not_ok "perfjava's shared libraries found for the guest"
	exit 0
fi
cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "PJKSYM # guest kernel $(uname -r), booted in $(cut -d' ' -f1 /proc/uptime) s"
/guest_test /perfjava_ksym.ko
echo "PJKSYM # guest_test exited with $?"
sh /guest_record.sh
poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$TMP/initrd.gz"

accel=tcg
if grep -qE '^(kvm_intel|kvm_amd) ' /proc/modules 2>/dev/null && [ -w /dev/kvm ]; then
	accel=kvm
fi
console=$TMP/console.log
# CPU seconds (user + system) of this shell's children so far: the guest's
# cost, which the machine's load changes less than its wall time.
child_cpu() { awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$1"; }
times >"$TMP/times1" # in this shell: a $(subshell) has no children
t1=$(date +%s)
timeout -k 5 "$vm_timeout" qemu-system-x86_64 -accel "$accel" -m 512M -smp 1 \
	-nodefaults -display none -no-reboot -serial "file:$console" \
	-kernel "$VMLINUZ" -initrd "$TMP/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1 oops=panic rdinit=/init" \
	</dev/null >"$TMP/qemu.log" 2>&1
rc=$?
t2=$(date +%s)
times >"$TMP/times2"
touch "$console"
tr -d '\r' <"$console" >"$TMP/console.txt"
if [ "$rc" -ne 0 ] && ! grep -q PJKSYM "$TMP/console.txt"; then
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		tail -40 "$TMP/console.txt" | sed 's/^/# console: /'
		not_ok "guest finished within ${vm_timeout}s ($accel)"
		exit 0
	fi
	sed 's/^/# qemu: /' "$TMP/qemu.log"
	skip "module test in a virtual machine" "qemu-system-x86_64 -accel $accel cannot run here (exit $rc)"
	exit 0
fi

results=""
while IFS= read -r line; do
	case "$line" in
	"PJKSYM ok "*) ok "guest: ${line#PJKSYM ok }" ;;
	"PJKSYM not ok "*) not_ok "guest: ${line#PJKSYM not ok }" ;;
	"PJKSYM # "*) echo "# ${line#PJKSYM # }" ;;
	"PJKSYM RESULT "*) results="$results${line#PJKSYM RESULT }
" ;;
	esac
done <"$TMP/console.txt"

# One result line from each part, each with passes and no failure.
for part in guest_test guest_record; do
	result=$(grep "^$part " <<<"$results")
	pass=$(sed -n 's/.*pass=\([0-9]*\).*/\1/p' <<<"$result")
	fail=$(sed -n 's/.*fail=\([0-9]*\).*/\1/p' <<<"$result")
	if [ -n "$result" ] && [ "${pass:-0}" -gt 0 ] && [ "${fail:-1}" -eq 0 ]; then
		ok "guest result: $result"
	else
		tail -40 "$TMP/console.txt" | sed 's/^/# console: /'
		not_ok "guest result of $part: ${result:-no result line (qemu exit $rc)}"
	fi
done
echo "# guest ran $((t2 - t1)) s under $accel (qemu used $(awk "BEGIN { printf \"%.1f\", $(child_cpu "$TMP/times2") - $(child_cpu "$TMP/times1") }") s of CPU); whole test $(($(date +%s) - t0)) s"
