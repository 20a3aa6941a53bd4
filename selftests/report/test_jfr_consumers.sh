#!/usr/bin/env bash
# perfjava's JFR files against the consumers a Java performance engineer
# keeps them for: async-profiler 4.5's converter (jfrconv, built from
# ../shared/peers), the jfr tool of both JDKs (summary, print --json; view
# on JDK 21+).
#
# Recordings: CPU and -e alloc, and -e lock (JvmEvents), --wall
# (Blocking), virtual threads (VThreads, JDK 21+), and a real application:
# the H2 database used by four client threads at once (H2Threads, Debian's
# libh2-java) with -e alloc,lock --wall, and by four virtual threads.
# Each becomes a JFR file (report -o F.jfr) that:
#   - jfrconv converts to collapsed stacks (and two to HTML); its collapsed
#     stacks give each method the share perfjava's own report gives it
#     (selftests/report/jfr_methods.py), within 2 percentage points: CPU
#     samples, allocations and lock waits by their weight (--total), waits
#     by time;
#   - jfr print --json of each JDK counts as many events of each JDK type
#     as perfjava has samples, reads the allocations' bytes and the lock
#     waits' time perfjava reports, and a virtual thread's samples name it
#     (virtual, its Java name); jfr summary of each JDK counts the events
#     of the file with most kinds (h2, else alloc) alike;
#   - jfr view (JDK 21+) shows the expected top rows: allocation-by-class
#     and allocation-by-site the class and site perfjava weighs most,
#     contention-by-class and contention-by-site the class and site of the
#     longest monitor wait, hot-methods perfjava's commonest leaf.
. "$(dirname "$0")/../lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"

java_suite "JFR out against its consumers"
H=$PJ_TOP/selftests/report/jfr_consumers.py
M=$PJ_TOP/selftests/report/jfr_methods.py
export LC_ALL=C
JDK=${JDKS[0]} JV=
for j in "${JDKS[@]}"; do
	"$j/bin/jfr" help view >/dev/null 2>&1 && JV=$j # JDK 21+
done
[ -n "$JV" ] && JDK=$JV # virtual threads need it too
# the consumers' JVMs lean: they read one file and exit (C1 alone, one GC
# thread); jfr and jfrconv pass -J options on
LEAN=(-J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -J-XX:-UsePerfData)
jfr() { local jdk=$1; shift; "$jdk/bin/jfr" "${LEAN[@]}" "$@"; }
# the helpers' python (-S: they need no site-packages; run.sh puts
# python3 itself first in PATH, not a version manager's shim)
py() { python3 -S "$@"; }

# rec NAME ARGS... -- JVM-ARGS...: perfjava record ARGS into NAME.data,
# then NAME.jfr; NAMES gets NAME when both worked
NAMES=()
rec() {
	local name=$1 args=()
	shift
	while [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift
	"$PJ_BIN" record -q "${args[@]}" -o "$TMP/$name.data" -- "$JDK/bin/java" -cp "$CLASSES" "$@" \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	check "record $name ($*): exit 0" [ $? -eq 0 ]
	"$PJ_BIN" report -i "$TMP/$name.data" -o "$TMP/$name.jfr" 2>"$TMP/$name.jfr.err"
	rc=$?
	check "report -o $name.jfr: exit 0, nothing on stderr" eval '[ $rc -eq 0 ] && [ ! -s "$TMP/$name.jfr.err" ]'
	[ -s "$TMP/$name.jfr" ] && NAMES+=("$name")
}
# nsamples NAME EVENT: perfjava's samples of EVENT in NAME.data
nsamples() { "$PJ_BIN" report -i "$TMP/$1.data" --format script --event "$2" 2>/dev/null | grep -c " $2:"; }
# pj NAME ARGS...: perfjava's collapsed stacks of NAME.data
pj() { local n=$1; shift; "$PJ_BIN" report -i "$TMP/$n.data" --format collapsed --raw-names "$@" 2>/dev/null; }

# (short, CPU sampled every 2 ms where its samples are few: each check
# reads a consumer against perfjava on the same file, which hundreds of
# samples of each kind make; the virtual threads' bounds (90 % of their
# samples named) want hundreds on a loaded machine too; the H2 clients'
# monitor waits are mostly their first moments': class loading, sessions)
rec alloc -e cpu-clock,alloc -c 2ms -- JvmEvents alloc 1 700
rec lock -e lock -- JvmEvents lock 2 1000
rec wall --wall -- Blocking 1
if [ "$JDK" = "$JV" ]; then
	rec vt -e cpu-clock -c 2ms -- VThreads 4 1000
fi
if h2_jar; then
	rec h2 -e alloc,lock --wall -- H2Threads 4 1
	[ "$JDK" = "$JV" ] && rec h2vt -e cpu-clock,alloc,lock -c 2ms -- H2Threads 4 1 virtual
else
	skip "H2, a real application" "no $H2JAR (Debian's libh2-java: $(tail -1 "$TMP/apt.log"))"
fi

# async-profiler's converter
if asprof_build && [ -x "${ASPROF%/asprof}/jfrconv" ]; then
	CONV=${ASPROF%/asprof}/jfrconv
	export JAVA_HOME=$JDK
	for n in lock h2; do
		[ -s "$TMP/$n.jfr" ] || continue
		opt=()
		[ "$n" = lock ] && opt=(--lock) # its only event
		"$CONV" "${LEAN[@]}" -o html "${opt[@]}" "$TMP/$n.jfr" "$TMP/$n.html" >"$TMP/$n.html.log" 2>&1
		rc=$?
		check "jfrconv $n.jfr to HTML" eval '[ $rc -eq 0 ] && grep -q "</html>" "$TMP/$n.html"'
	done
	# per method, jfrconv's share against perfjava's: NAME KIND PJ-ARGS
	# CONV-ARGS (commas for spaces, "-" for none; cpu+off: the CPU and
	# off-CPU samples' time, which jfrconv reads without an option)
	PAIRS="alloc alloc --event,alloc,--total --alloc,--total
alloc cpu --event,cpu-clock --cpu
lock lock --event,lock,--total --lock,--total
wall wall cpu+off -
wall offcpu --event,offcpu --wall
vt cpu --event,cpu-clock -
h2 wall cpu+off -
h2 cpu --event,cpu-clock --cpu
h2 alloc --event,alloc,--total --alloc,--total
h2 lock --event,lock,--total --lock,--total
h2vt cpu --event,cpu-clock --cpu
h2vt alloc --event,alloc,--total --alloc,--total
h2vt lock --event,lock,--total --lock,--total"
	# one converter run for each CONV-ARGS, over every file read so: given
	# a directory last, it converts each file into it (NAME.collapsed) in
	# one JVM, whose start is most of a conversion's CPU; CVRC: its exit
	declare -A CVIN=() CVRC=()
	cvdir() { local k=${1//[^a-z]/}; echo "$TMP/cv.${k:-default}"; }
	while read -r n kind pja conva; do
		[ -s "$TMP/$n.jfr" ] && CVIN[$conva]+=" $TMP/$n.jfr"
	done <<<"$PAIRS"
	for conva in "${!CVIN[@]}"; do
		d=$(cvdir "$conva") a=$conva
		[ "$a" = - ] && a=
		mkdir -p "$d"
		# shellcheck disable=SC2086
		"$CONV" "${LEAN[@]}" --dot -o collapsed ${a//,/ } ${CVIN[$conva]} "$d" >"$d.log" 2>&1
		CVRC[$conva]=$?
	done
	while read -r n kind pja conva; do
		[ -s "$TMP/$n.jfr" ] || continue
		cv=$(cvdir "$conva")/$n.collapsed rc=${CVRC[$conva]}
		[ "$pja" = - ] && pja=
		[ "$conva" = - ] && conva=
		if [ "$pja" = cpu+off ]; then # the timeline: CPU and off-CPU time
			{ pj "$n" --event cpu-clock --total; pj "$n" --event offcpu; } >"$TMP/$n.$kind.pj"
		else
			# shellcheck disable=SC2086
			pj "$n" ${pja//,/ } >"$TMP/$n.$kind.pj"
		fi
		check "jfrconv reads $n.jfr (${conva:-CPU samples}): exit 0, $(wc -l <"$cv") stacks" \
			eval '[ "$rc" = 0 ] && [ -s "$cv" ]'
		read -r d worst a b < <(py "$M" "$TMP/$n.$kind.pj" "$cv")
		echo "# $n $kind: jfrconv against perfjava, per method: max $d pp ($worst: $a% and $b%)"
		check "jfrconv's $n $kind stacks: every method's share as perfjava's within 2 pp (max $d: $worst)" \
			awk -v d="$d" 'BEGIN { exit !(d <= 2) }'
	done <<<"$PAIRS"
else
	skip "async-profiler's converter on perfjava's JFR" "${ASPROF_WHY:-no jfrconv in the async-profiler build}"
fi

# the JDK's jfr tool: print --json of every file, summary of the richest
# count J NAME TYPE: the count of TYPE in NAME.jfr, by JDK J's jfr summary
# (in NAME.sum) and else by its print --json
count() {
	if [ -s "$TMP/$1.$2.sum" ]; then
		awk -v t="$3" '$1 == t { print $2 }' "$TMP/$1.$2.sum"
	else
		awk -v t="$3" '$1 == "count" && $2 == t { print $3 }' "$TMP/$1.$2.ev"
	fi
}
SUMMED=alloc
[ -s "$TMP/h2.jfr" ] && SUMMED=h2
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	for n in "${NAMES[@]}"; do
		how="print --json"
		if [ "$n" = "$SUMMED" ]; then
			jfr "$jdk" summary "$TMP/$n.jfr" >"$TMP/$J.$n.sum" 2>&1
			how=summary
		fi
		# the virtual threads' whole stacks: which samples ran their code
		depth=1 re=
		case $n in vt | h2vt) depth=4096 re='vtCompute|H2Threads\.client' ;; esac
		# (the virtual threads' file as $JDK prints it kept: its names
		# are read below)
		keep=/dev/null
		[ "$n" = vt ] && [ "$jdk" = "$JDK" ] && keep=$TMP/vt.json
		jfr "$jdk" print --json --stack-depth $depth "$TMP/$n.jfr" 2>"$TMP/$J.$n.json.err" |
			tee "$keep" | py "$H" json ${re:+"$re"} >"$TMP/$J.$n.ev"
		rc=${PIPESTATUS[0]}
		check "$J jfr print --json $n.jfr: exit 0, nothing on stderr" \
			eval '[ "$rc" = 0 ] && [ ! -s "$TMP/$J.$n.json.err" ] && [ -s "$TMP/$J.$n.ev" ]'
		for x in cpu-clock:jdk.ExecutionSample alloc:jdk.ObjectAllocationSample offcpu:profiler.WallClockSample; do
			IFS=: read -r ev type <<<"$x"
			want=$(nsamples "$n" "$ev")
			[ "$want" -gt 0 ] || continue
			got=$(count "$J" "$n" "$type")
			check "$J jfr $how $n.jfr: $got $type for perfjava's $want $ev samples" [ "${got:-0}" = "$want" ]
		done
		want=$(nsamples "$n" lock)
		if [ "$want" -gt 0 ]; then
			a=$(count "$J" "$n" jdk.JavaMonitorEnter) b=$(count "$J" "$n" jdk.ThreadPark)
			got=$((${a:-0} + ${b:-0}))
			check "$J jfr $how $n.jfr: $got jdk.JavaMonitorEnter and jdk.ThreadPark for perfjava's $want lock samples" [ "$got" = "$want" ]
			want=$(pj "$n" --event lock --total | awk '{ s += $NF } END { printf "%.0f\n", s }')
			got=$(awk '$1 == "duration" && ($2 == "jdk.JavaMonitorEnter" || $2 == "jdk.ThreadPark") { s += $3 } END { printf "%.0f\n", s }' "$TMP/$J.$n.ev")
			check "$J jfr print --json $n.jfr: the lock events' durations add up to perfjava's $want ns ($got)" [ "$got" = "$want" ]
		fi
		if [ "$(nsamples "$n" alloc)" -gt 0 ]; then
			want=$(pj "$n" --event alloc --total | awk '{ s += $NF } END { printf "%.0f\n", s }')
			got=$(awk '$1 == "weight" && $2 == "jdk.ObjectAllocationSample" { print $3 }' "$TMP/$J.$n.ev")
			check "$J jfr print --json $n.jfr: the allocation samples weigh perfjava's $want bytes ($got)" [ "$got" = "$want" ]
		fi
		[ -n "$re" ] || continue
		read -r _ all virt named < <(grep '^vthreads' "$TMP/$J.$n.ev")
		# perfjava's own: those samples, and the ones of a virtual thread
		read -r pall pvirt < <(pj "$n" --event cpu-clock --threads | awk -v re="$re" '$0 ~ re {
			n = $NF; a += n; if ($0 ~ /^\[[^]]* virtual, on /) v += n } END { print a + 0, v + 0 }')
		low=$(awk -v n="${all:-0}" 'BEGIN { printf "%.1f", 90 - 300 * sqrt(0.09 / (n ? n : 1)) }')
		echo "# $J $n: $virt of $all samples in the virtual threads' code on a virtual thread ($named of them named); perfjava: $pvirt of $pall"
		check "$J jfr print --json $n.jfr: each virtual thread's sample is its own (virtual: $virt of $all, perfjava's $pvirt of $pall, at least $low %)" \
			eval '[ "${all:-0}" -gt 0 ] && [ "$virt" = "$pvirt" ] && [ "$all" = "$pall" ] && awk -v v="$virt" -v a="$all" -v l="$low" "BEGIN { exit !(100 * v / a >= l) }"'
	done
done
# the named virtual threads by their names: VThreads names the A chain's
if [ -s "$TMP/vt.jfr" ]; then
	py -c 'import json, sys
n = m = 0
for e in json.load(sys.stdin)["recording"]["events"]:
    if e["type"] != "jdk.ExecutionSample":
        continue
    v = e["values"]
    if any(f["method"]["name"] == "vtComputeA" for f in v["stackTrace"]["frames"]):
        n += 1
        t = v["sampledThread"]
        m += bool(t.get("virtual")) and (t.get("javaName") or "").startswith("vt-a-")
print(n, m)' <"$TMP/vt.json" >"$TMP/vt.named"
	read -r n m <"$TMP/vt.named"
	# (>= 90 %, issue 48's bound: a sample at a mount's edge may be the
	# carrier's)
	check "vt.jfr: the named virtual threads' samples carry their names ($m of $n vtComputeA samples, >= 90 %)" \
		eval '[ "$n" -gt 0 ] && [ $((m * 100)) -ge $((n * 90)) ]'
	check "vt.jfr: the JVM's name and version (jfr view jvm-information)" \
		eval 'jfr "$JDK" view jvm-information "$TMP/vt.jfr" | grep -q "Version: [0-9][0-9]"'
fi

# jfr view: the expected top rows
if [ -z "$JV" ]; then
	skip "jfr view of perfjava's JFR" "no JDK 21+ (jfr view)"
	echo "1..$_tap_n"
	exit 0
fi
view() { jfr "$JV" view --width 1000 "$1" "$TMP/$2.jfr" 2>&1 | py "$H" view; }
# near_top ROWS NAME: NAME's row (name, tab, percentage) is the top one,
# or within the view's rounding of it (it prints percentages to 0.01,
# which a sum of overloads adds up): prints "PCT TOP"
near_top() {
	awk -F'\t' -v w="$2" '{ p = $NF + 0; if (NR == 1) top = p; if ($1 == w) mine = p }
		END { printf "%.2f %.2f\n", mine, top; exit !(mine >= top - 0.03 && mine > 0) }' "$1"
}
for n in alloc h2 h2vt; do
	[ -s "$TMP/$n.jfr" ] || continue
	pj "$n" --event alloc --total | py "$H" top >"$TMP/$n.top"
	read -r _ cls < <(grep '^leaf' "$TMP/$n.top")
	# the site with its signature, as the view has each overload a row of
	# its own (and shows the 25 heaviest: an overload past them would be
	# missing from a sum by name)
	read -r _ site < <(pj "$n" --event alloc --total --signatures | py "$H" top | grep '^site')
	view allocation-by-class "$n" | awk -F'\t' '{ print $1 "\t" $NF }' >"$TMP/$n.abc"
	check "jfr view allocation-by-class $n.jfr: perfjava's heaviest class $cls on top ($(near_top "$TMP/$n.abc" "$cls") %, top row $(head -1 "$TMP/$n.abc" | cut -f1))" \
		near_top "$TMP/$n.abc" "$cls"
	view allocation-by-site "$n" | awk -F'\t' '{ print $1 "\t" $NF }' >"$TMP/$n.abs"
	check "jfr view allocation-by-site $n.jfr: perfjava's heaviest site $site on top ($(near_top "$TMP/$n.abs" "$site") %, top row $(head -1 "$TMP/$n.abs" | cut -f1))" \
		near_top "$TMP/$n.abs" "$site"
done
for n in lock h2 h2vt; do
	[ -s "$TMP/$n.jfr" ] || continue
	read -r _ cls site _ < <("$PJ_BIN" report -i "$TMP/$n.data" --format script --raw-names --event lock 2>/dev/null |
		py "$H" monitor | grep '^monitor ')
	if [ -z "$cls" ]; then
		skip "jfr view contention-by-class $n.jfr" "no monitor wait recorded"
		continue
	fi
	got=$(view contention-by-class "$n" | head -1 | cut -f1)
	check "jfr view contention-by-class $n.jfr: $got on top, the class of perfjava's longest monitor wait $cls" [ "$got" = "$cls" ]
	got=$(view contention-by-site "$n" | head -1 | cut -f1)
	check "jfr view contention-by-site $n.jfr: $got on top, the site of perfjava's longest monitor wait $site" [ "${got%%(*}" = "$site" ]
done
for n in h2; do
	[ -s "$TMP/$n.jfr" ] || continue
	read -r _ leaf < <(pj "$n" --event cpu-clock | py "$H" top | grep '^leaf')
	view hot-methods "$n" >"$TMP/$n.hot"
	top=$(awk -F'\t' '{ split($2, c, " "); if (c[1] > m) m = c[1] } END { print m + 0 }' "$TMP/$n.hot")
	got=$(awk -F'\t' -v l="$leaf" '{ split($2, c, " "); x = $1; sub(/\(.*/, "", x)
		if (x == l || substr(x, length(x) - length(l)) == "." l) { print c[1]; exit } }' "$TMP/$n.hot")
	check "jfr view hot-methods $n.jfr: perfjava's commonest leaf $leaf on top (${got:-0} samples, the top row's $top)" \
		[ "${got:-0}" = "$top" ]
done
echo "1..$_tap_n"
