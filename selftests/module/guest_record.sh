#!/bin/busybox sh
# Runs in the module test's guest after guest_test (test_module.sh boots it):
# the real perfjava records a program whose time is in system calls
# (`guest_test syscalls`: write(2) to /dev/null and ioctl(2) into
# perfjava_ksym) and reports it,
#   1. without the module under kptr_restrict=2: kernel frames unnamed, and
#      the summary, the report and `perfjava list` say why;
#   2. with it, three recorders on one run of the program: root started
#      under kptr_restrict=0 (kallsyms names the frames), root under
#      kptr_restrict=2 (the module names them) and nobody in the device's
#      group under kptr_restrict=2 and perf_event_paranoid=1. A function
#      with 10% of one recording's samples must be in the others, each name
#      the module gave must be a function of that module (or of the kernel
#      image) in kallsyms (`guest_test named`), and `perfjava list` must say
#      the module names kernel frames for a member of the group and refuses
#      a user outside it.
# Prints "PJKSYM ok|not ok ..." per check, "PJKSYM # ..." for what the
# reports said, and "PJKSYM RESULT guest_record pass=N fail=M" last.
PJ=/perfjava
GT=/guest_test
KO=/perfjava_ksym.ko
NOBODY=65534
GRANTED=1000 # the group the device is given to
T=/tmp/rec
HZ=499
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PJKSYM ok $*"; }
not_ok() { fail=$((fail + 1)); echo "PJKSYM not ok $*"; }
check() { # check DESCRIPTION COMMAND...
	d=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else not_ok "$d"; fi
}
say() { echo "PJKSYM # $*"; }
show() { # show LABEL FILE [LINES]: a file's first lines as comments
	head -n "${3:-8}" "$2" | while IFS= read -r l; do say "$1: $l"; done
}
ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
wait_for() { # wait_for SECONDS COMMAND...: polls every 20 ms
	n=$(($1 * 50))
	shift
	while ! "$@" 2>/dev/null; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		usleep 20000
	done
}
# has_events PID: its rings are mapped. Not its fds: probes of the events
# open and close some before the kernel's symbols are chosen, and
# kptr_restrict changed then would be seen by the wrong recorder.
has_events() { grep -q 'perf_event' "/proc/$1/maps" 2>/dev/null; }
kptr() { echo "$1" >/proc/sys/kernel/kptr_restrict; }
lap() { say "$(($(ms) - t0)) ms: $*"; }

# kfuncs FOLDED: each kernel function (_[k]) of a collapsed report with the
# percent of samples whose stack holds it, largest first.
kfuncs() {
	awk '{ n = $NF; total += n; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
	       split("", seen)
	       for (i = 1; i <= k; i++)
		       if (f[i] ~ /_\[k\]$/) {
			       s = substr(f[i], 1, length(f[i]) - 4)
			       if (!(s in seen)) { seen[s] = 1; c[s] += n }
		       } }
	     END { for (s in c) printf "%s %.1f\n", s, 100 * c[s] / total }' \
		"$1" | sort -k2 -rn
}

# same_hot A B: every function with at least 10% of A's samples is in B.
same_hot() {
	awk 'NR == FNR { b[$1] = 1; next } $2 >= 10 && !($1 in b) { print; bad = 1 }
	     END { exit bad }' "$2" "$1"
}

# report NAME: text, collapsed and script reports of $T/NAME.data, and its
# kernel functions.
report() {
	$PJ report -i "$T/$1.data" >"$T/$1.txt" 2>&1 &&
		$PJ report -i "$T/$1.data" --format collapsed >"$T/$1.folded" &&
		$PJ report -i "$T/$1.data" --format script >"$T/$1.script" &&
		kfuncs "$T/$1.folded" >"$T/$1.kf"
}

# shows NAME WHO: what the recording and its report said.
shows() {
	grep -E '^perfjava: ([0-9]+ samples|kernel frames)' "$T/$1.err" |
		show "$2: record" -
	grep '^Kernel symbols' "$T/$1.txt" | show "$2: report" -
	show "$2: kernel functions (% of samples)" "$T/$1.kf" 6
}

t0=$(ms)
mkdir -p $T
chmod 1777 /tmp $T

# --- 1. No module: kernel frames unnamed, and said why.
kptr 2
why='/proc/kallsyms hides addresses (kernel.kptr_restrict=2), and perfjava_ksym is not loaded'
$PJ list ksym >$T/none.list 2>&1
check "no module: perfjava list says kernel frames unnamed and why" \
	grep -q "kernel frames  *unnamed: $why" $T/none.list
show "no module: perfjava list" $T/none.list 4
$PJ record -F $HZ -o $T/none.data -- $GT syscalls 0.5 >$T/none.out 2>$T/none.err
check "no module: perfjava record exits 0" [ $? -eq 0 ]
report none
check "no module: the summary says kernel frames unnamed and why" \
	grep -q "^perfjava: kernel frames unnamed: $why; load perfjava_ksym" $T/none.err
check "no module: the report says so too" \
	grep -q "^Kernel symbols *: none: kernel frames unnamed: $why" $T/none.txt
# (a third of the samples or more with the module below; 31-36 % in this
# shorter run under software emulation)
check "no module: its kernel frames are [kernel], in a fifth of the samples or more" \
	awk '$1 != "[kernel]" { exit 1 } $2 >= 20 { seen = 1 } END { exit !seen }' $T/none.kf
shows none "no module"

# --- 2. The module loaded and given to a group; one run, three recorders.
lap "no module done"
insmod $KO
check "insmod perfjava_ksym again" [ -c /dev/perfjava_ksym ]
chown 0:$GRANTED /dev/perfjava_ksym
chmod 0640 /dev/perfjava_ksym
echo 1 >/proc/sys/kernel/perf_event_paranoid
kptr 0

$GT as $NOBODY $GRANTED $GT syscalls 60 >$T/w.out 2>&1 &
W=$!
wait_for 10 grep -q '^ready' $T/w.out
check "the program runs as nobody in group $GRANTED, the module open" \
	grep -q '^ready [0-9]* module' $T/w.out
$PJ record -F $HZ -p $W -o $T/k0.data 2>$T/k0.err &
A=$!
wait_for 20 has_events $A
kptr 2
$PJ record -F $HZ -p $W -o $T/k2.data 2>$T/k2.err &
B=$!
$GT as $NOBODY $GRANTED $PJ record -F $HZ -p $W -o $T/nr.data 2>$T/nr.err &
C=$!
if wait_for 20 has_events $B && wait_for 20 has_events $C; then
	ok "three recorders on the program"
	lap "three recorders started"
	usleep 1500000 # what they record, all three at once
else
	not_ok "three recorders on the program"
fi
kill $W
lap "program stopped"
wait $A
ra=$?
wait $B
rb=$?
wait $C
rc=$?
check "the recorders exit 0 ($ra $rb $rc)" [ "$ra$rb$rc" = 000 ]
[ "$ra$rb$rc" = 000 ] || for r in k0 k2 nr; do show "$r.err" $T/$r.err 20; done
# the kernel closes an exiting program's events before it is a zombie: that
# is still its exit (the guest is slow enough to show the difference)
check "each recording ended because the program exited" \
	eval "grep -q ' lost (target exited)$' $T/none.err &&
		grep -q ' lost (target exited)$' $T/k0.err &&
		grep -q ' lost (target exited)$' $T/k2.err &&
		grep -q ' lost (target exited)$' $T/nr.err"
for r in k0 k2 nr; do report $r || not_ok "report of $r"; done

check "kptr_restrict=0: the summary says /proc/kallsyms named them" \
	grep -q '^perfjava: kernel frames named by /proc/kallsyms$' $T/k0.err
check "kptr_restrict=0: the report says kallsyms" \
	grep -q '^Kernel symbols *: kallsyms$' $T/k0.txt
shows k0 "kptr_restrict=0, root"
mod='named by the perfjava_ksym module: /proc/kallsyms hides addresses (kernel.kptr_restrict=2)'
for r in k2 nr; do
	who="root"
	[ $r = nr ] && who="nobody in group $GRANTED"
	check "kptr_restrict=2, $who: the summary says the module named them" \
		grep -q "^perfjava: kernel frames $mod\$" $T/$r.err
	check "kptr_restrict=2, $who: the report says perfjava_ksym" \
		grep -q "^Kernel symbols *: perfjava_ksym: kernel frames $mod\$" $T/$r.txt
	check "kptr_restrict=2, $who: ksys_write and __x64_sys_ioctl named" \
		eval "grep -q '^ksys_write ' $T/$r.kf && grep -q '^__x64_sys_ioctl ' $T/$r.kf"
	check "kptr_restrict=2, $who: frames of [perfjava_ksym] named" \
		grep -q ' pj_ksym_[a-z_]* (\[perfjava_ksym\])$' $T/$r.script
	check "kptr_restrict=2, $who: no kernel frame left unnamed" \
		eval "! grep -q '^\[kernel\] ' $T/$r.kf"
	check "kptr_restrict=2, $who: functions with 10% of the samples under kptr_restrict=0 are named" \
		same_hot $T/k0.kf $T/$r.kf
	check "kptr_restrict=2, $who: and the other way round" \
		same_hot $T/$r.kf $T/k0.kf
done
$GT named $T/k2.script $T/nr.script >$T/named.out 2>&1
check "kptr_restrict=2: each name the module gave is a function of its module in kallsyms" \
	[ $? -eq 0 ]
show "kallsyms" $T/named.out 4
shows k2 "kptr_restrict=2, module, root"
shows nr "kptr_restrict=2, module, nobody in group $GRANTED"
grep -m1 '(\[perfjava_ksym\])' $T/k2.script | show "a frame of the module" -

lap "reports checked"
$GT as $NOBODY $GRANTED $PJ list ksym >$T/nr.list 2>&1
check "nobody in the group: perfjava list: the module names kernel frames" \
	grep -q "kernel frames  *$mod" $T/nr.list
show "nobody in group $GRANTED: perfjava list" $T/nr.list 4
$GT as $NOBODY 0 $PJ list ksym >$T/out.list 2>&1
check "nobody outside the group: perfjava list says the module refuses" \
	grep -q "kernel frames  *unnamed: .*perfjava_ksym refuses this user" $T/out.list
show "nobody outside the group: perfjava list" $T/out.list 4

dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|Call Trace' >$T/dmesg.bad
check "kernel log has no BUG/WARNING/Oops after the recordings" [ ! -s $T/dmesg.bad ]
show "kernel log" $T/dmesg.bad 20
say "perfjava in the guest took $(($(ms) - t0)) ms"
echo "PJKSYM RESULT guest_record pass=$pass fail=$fail"
