#!/usr/bin/env bash
# A JVM that a script starts (sh -c 'java ...', the way mvn, gradle and most
# launch scripts start theirs), found among the launched command's
# processes once it has loaded libjvm and attached as a -p target is
# (issue 46): Java frames on >= 95% of its worker threads' samples from
# its agent's attach on, its methods' split within 5 pp (or three standard
# errors) of its own measurement over the recorded window, and its samples
# at least 90% of perf record -F 100 -g's on the same run (skipped where
# perf cannot record). One JDK's JVM is the script's child (sh forks it),
# the other's the script itself (sh execs it).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "a JVM started by a script"

PERF=
perf_can_record && PERF=perf

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	java="'$jdk/bin/java' -Dtruth.every=50 -cp '$CLASSES' Workload 12 2 >'$D/w.out'"
	if [ "$jdk" = "${JDKS[0]}" ]; then
		how="the script's child"
		script="$java; true"
	else
		how="the script, exec'd"
		script="exec $java"
	fi
	beside_perf "$D/w.perf" "$PJ_BIN" record -F 100 -o "$D/w.data" -- sh -c "$script" 2>"$D/w.err"
	check "$J ($how): record exits 0" [ $? -eq 0 ]
	jpid=$("$PJ_BIN" report -i "$D/w.data" --processes | grep -oE '^ +[0-9]+ +[0-9.]+% +[0-9]+  \[java pid=[0-9]+\]' | grep -oE '[0-9]+\]' | tr -d ']' | head -1)
	echo "# $J ($how): JVM $jpid; $(grep -E 'java walks|started by|attached|unavailable|lost' "$D/w.err" | tr '\n' ' ')"
	check "$J ($how): the JVM is named a JVM with its command line" \
		grep -qE "\[java pid=$jpid\]  .*java .*Workload 12 2" <("$PJ_BIN" report -i "$D/w.data" --processes)
	sig=0
	grep -qE 'java walks at the sample .*by SIGTRAP from the sample' "$D/w.err" && sig=1
	check "$J ($how): its threads walked at the sample (SIGTRAP)" [ "$sig" -eq 1 ]
	[ "$sig" -eq 1 ] ||
		sed 's/^/#     /' "$D/w.err" | head -n 30 # (why: all it said, the JVM's stderr too)
	"$PJ_BIN" report -i "$D/w.data" --format collapsed --threads >"$D/wt.folded"
	wj=$(awk '/^\[worker-/ { t += $NF; if ($0 ~ /_\[[j0i1]\]/) j += $NF }
		END { printf "%.1f %d", t ? 100 * j / t : 0, t }' "$D/wt.folded")
	echo "# $J: $wj (% of the worker threads' samples with Java frames, samples)"
	# the same from the agent's attach on (the first worker sample with
	# Java frames): no agent walks before it, and a loaded machine
	# attaches later (1.55 s after libjvm.so loaded, at a load of 10: 89%
	# of all)
	wa=$("$PJ_BIN" report -i "$D/w.data" --format script | awk 'BEGIN { RS = "" }
		$1 ~ /^worker-/ { java = /\(\/tmp\/perf-[0-9]+\.map\)/; on = on || java; if (on) { n++; j += java } }
		END { printf "%.1f %d", n ? 100 * j / n : 0, n }')
	check "$J ($how): from its agent's attach on, >= 95% of its worker samples have Java frames (${wa% *}% of ${wa#* }; ${wj% *}% of all)" \
		awk -v p="${wa% *}" -v n="${wa#* }" 'BEGIN { exit !(n > 0 && p >= 95) }'
	"$PJ_BIN" report -i "$D/w.data" --format collapsed >"$D/w.folded"
	check_split "$J ($how)" "$D/w.out" "$D/w.data" "$D/w.folded" 5
	pj=$("$PJ_BIN" report -i "$D/w.data" --pid "$jpid" --format collapsed | awk '{ n += $NF } END { print n + 0 }')
	if [ -z "$PERF" ]; then
		skip "$J ($how): the JVM's samples >= 90% of perf record's" "$PERF_WHY"
		continue
	fi
	pf=$(perf_of "$D/w.perf" "$jpid")
	echo "# $J ($how): the JVM's samples: perf record $pf, perfjava $pj"
	check "$J ($how): the JVM's samples ($pj) >= 90% of perf record's ($pf)" \
		at_least_of "$pj" "$pf" 0.9
done
