#!/bin/bash
# Java stacks a user can trust (issue 11), on the Trust workload: time in
# vtable/itable stubs (megamorphic calls), String.intern (VM code), a busy
# interpreted method, and blocking JNI (Thread.sleep, pipe writes). Checks
# that the worker threads' samples carry Java frames, that each phase gets
# its share of the program's own thread-CPU truth, that samples in stubs
# keep their Java caller, and that no JNI/VM function sits under a
# Java method that does not call it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jvm.sh"

java_suite "trustworthy java stacks"

# The issue's bounds: >= 99% of the workload threads' samples with Java
# frames, each phase within 3 pp of its CPU truth, taken over the window the
# recording covers (a whole-run truth includes the JIT's warm-up). Walks
# requested after the sample drift toward blocking calls and meet a thread
# that moved on, so then (the summary says "java walks on request") the
# share is held to 60% and the attribution is reported but skipped.
for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	mkdir -p "$D"
	# 5 s at 997 Hz: thousands of samples, 60 or more in the stubs (the
	# checks want 10) and 250 in the blocking calls (50) on a machine
	# loaded sevenfold; the run 1.5 s longer, for the attach
	start_jvm "$jdk" "$D/t.out" -Dtruth.every=50 -XX:CompileCommand=quiet \
		-XX:CompileCommand=exclude,Trust::interp -- Trust 6.5
	"$PJ_BIN" record -p "$JPID" -F 997 -d 5 -o "$D/t.data" 2>"$D/t.err"
	check "$J: record the Trust workload exits 0" [ $? -eq 0 ]
	wait "$JWAIT"
	check "$J: the workload finishes normally while profiled" [ $? -eq 0 ]
	"$PJ_BIN" report -i "$D/t.data" --format collapsed >"$D/t.folded"
	"$PJ_BIN" report -i "$D/t.data" --format collapsed --threads >"$D/tt.folded"
	"$PJ_BIN" report -i "$D/t.data" --format meta >"$D/t.meta"

	agree=$(awk '$2 == "walk_checked" { c = $3 } $2 == "walk_agreed" { a = $3 }
		END { printf "%.0f", c ? 100 * a / c : 0 }' "$D/t.meta")
	echo "# $J: $agree% of walks name the JIT code sampled"
	if grep -q '^perfjava: java walks at the sample' "$D/t.err"; then
		MIN_JAVA=99 TOL=3
	else
		MIN_JAVA=60 TOL=
	fi

	# Java frames on the application's threads
	share=$(awk '/^\[trust-/ { t += $NF; if ($0 !~ /\[java:/ && $0 ~ /_\[[j0i1]\]/) j += $NF }
		END { printf "%.1f", t ? 100 * j / t : 0 }' "$D/tt.folded")
	echo "# $J: $share% of the trust-* threads' samples have Java frames"
	awk '{ n = $NF; while (match($0, /\[java: [^];]*\]/)) {
			m[substr($0, RSTART, RLENGTH)] += n; $0 = substr($0, RSTART + RLENGTH) } }
		END { for (k in m) printf "# %s samples %s\n", m[k], k }' "$D/t.folded" |
		sed "s/^# /# $J: /"
	echo "# $J: $(awk '{ t += $NF; if ($0 ~ /\[unknown\]/) u += $NF }
		END { printf "%.2f", t ? 100 * u / t : 0 }' "$D/t.folded")% of all samples have an [unknown] frame"
	check "$J: >= $MIN_JAVA% of the worker threads' samples have Java frames ($share%)" \
		awk -v p="$share" -v m="$MIN_JAVA" 'BEGIN { exit !(p >= m) }'

	# attribution against the program's thread-CPU truth, over the window
	# the recording covers: each phase's share of the time (--total: each
	# sample weighs its clock event's time since the thread's previous one,
	# and the switches between, pipeline/switchcost.h) within 3 pp (or three
	# standard errors) of its share of the threads' CPU
	win=$(sample_window "$D/t.data" 'Trust\.(mega|intern|interp|sleeps|pipe) ')
	window_truth "$D/t.out" ${win:-0 0} Trust mega intern interp sleeps pipe >"$D/t.truth"
	echo "# $J: truth over the recorded window $win (s)"
	"$PJ_BIN" report -i "$D/t.data" --format collapsed --total >"$D/t.time"
	stack_share "$D/t.time" Trust.mega Trust.intern Trust.interp Trust.sleeps Trust.pipe >"$D/t.share"
	stack_share "$D/t.folded" Trust.mega Trust.intern Trust.interp Trust.sleeps Trust.pipe >"$D/t.nshare"
	nph=$(awk '/Trust\.(mega|intern|interp|sleeps|pipe)_/ { n += $NF } END { print n + 0 }' "$D/t.folded")
	echo "# $J: switch cost $(awk '$2 == "switch_cost_ps" { printf "%.2f us", $3 / 1e6 }' "$D/t.meta")" \
		"over $(awk '$2 == "switch_cost_switches" { print $3 }' "$D/t.meta") switches"
	for m in mega intern interp sleeps pipe; do
		truth=$(awk -v f="Trust.$m" '$1 == f { print $2 }' "$D/t.truth")
		got=$(awk -v f="Trust.$m" '$1 == f { print $2 }' "$D/t.share")
		n=$(awk -v f="Trust.$m" '$1 == f { print $2 }' "$D/t.nshare")
		echo "# $J: Trust.$m truth $truth% measured $got% of the time ($n% of the samples)"
		if [ -z "$TOL" ]; then
			skip "$J: Trust.$m within 3 pp of its CPU truth ($truth, got $got)" \
				"walks are not taken at the sample here"
			continue
		fi
		check_share "$J: Trust.$m, of its CPU truth," "$got" "$nph" "$truth" "$TOL"
	done
	# every sample whose native frames say sleep or pipe write is given
	# that Java method, none the other
	read -r same other <<<"$(grep '^\[trust-blocker ' "$D/tt.folded" | awk '{
		n = $NF; k = ""
		if ($0 ~ /JVM_Sleep|JavaThread::sleep/) k = "sleeps"
		else if ($0 ~ /_write0|;write;|pipe_write/) k = "pipe"
		if (k == "") next
		if (match($0, /Trust\.(sleeps|pipe)_/) && substr($0, RSTART + 6, RLENGTH - 7) == k) s += n
		else o += n
	} END { print s + 0, o + 0 }')"
	check "$J: blocking calls carry their Java method ($same samples with it, $other without)" \
		awk -v s="$same" -v o="$other" 'BEGIN { exit !(s >= 50 && o * 50 <= s) }'

	# samples taken in the stubs of megamorphic calls keep their Java
	# caller: the stub is the leaf, Trust.mega under it, never a marker
	# (the agent walks stubs itself; AsyncGetCallTrace's refusals there,
	# when it is asked, are recovered and counted in the summary)
	echo "# $J: $(grep -oE '[0-9]+ recovered[^)]*\)' "$D/t.err")"
	read -r inmega lost <<<"$(awk '/;(vtable|itable) stub [0-9]+$/ {
		if ($0 ~ /Trust\.mega_\[[j1]\];[^;]*stub [0-9]+$/) m += $NF; else l += $NF }
		END { print m + 0, l + 0 }' "$D/t.folded")"
	check "$J: stub leaves carry their Java caller ($inmega under Trust.mega, $lost elsewhere)" \
		awk -v m="$inmega" -v l="$lost" 'BEGIN { exit !(m >= 10 && l * 20 <= m) }'
	check "$J: the interpreted method is named _[0]" grep -q 'Trust.interp_\[0\]' "$D/t.folded"

	# full Java thread names (the kernel's comm has 15 bytes), and the
	# agent's own thread labelled, never an application thread
	check "$J: --threads names a thread by its full Java name" \
		grep -q '^\[trust-drain-of-the-pipe tid=' "$D/tt.folded"
	"$PJ_BIN" report -i "$D/t.data" --format script >"$D/t.script"
	check "$J: script names a thread by its full Java name" \
		grep -q 'trust-drain-of-the-pipe' "$D/t.script"
	"$PJ_BIN" report -i "$D/t.data" --format pprof -o "$D/t.pb"
	check "$J: pprof names a thread by its full Java name" \
		bash -c "{ zcat '$D/t.pb' 2>/dev/null || cat '$D/t.pb'; } | grep -aq 'trust-drain-of-the-pipe'"
	check "$J: the agent's own thread is left out of the profile (record --self keeps it)" \
		bash -c "! grep -q '^\[perfjava-agent ' '$D/tt.folded'"

	# C1 and C2 told apart: only C1 (_[1]), then only C2 (_[j]); 1 s at
	# 997 Hz (hundreds of samples, where 2 s at the default 100 Hz gave
	# tens), the workload ended then (its stop file)
	for mode in -XX:TieredStopAtLevel=1 -XX:-TieredCompilation; do
		rm -f "$D/c.stop"
		start_jvm "$jdk" "$D/c.out" "$mode" -Dstop.file="$D/c.stop" -- Workload 60 1
		"$PJ_BIN" record -q -p "$JPID" -F 997 -d 1 -o "$D/c.data"
		touch "$D/c.stop"
		wait "$JWAIT"
		"$PJ_BIN" report -i "$D/c.data" --format collapsed >"$D/c.folded"
		c1=$(grep -o 'Workload\.method[AB]_\[1\]' "$D/c.folded" | wc -l)
		c2=$(grep -o 'Workload\.method[AB]_\[j\]' "$D/c.folded" | wc -l)
		if [ "$mode" = -XX:TieredStopAtLevel=1 ]; then
			check "$J: $mode: compiled frames are C1 _[1] ($c1 C1, $c2 C2)" \
				[ "$c1" -gt 0 -a "$c2" -eq 0 ]
		else
			check "$J: $mode: compiled frames are C2 _[j] ($c1 C1, $c2 C2)" \
				[ "$c2" -gt 0 -a "$c1" -eq 0 ]
		fi
	done

	# no JNI/VM function under a Java method that does not call it (stacks
	# with a marker are the kernel's chain as it was, not a merge). A
	# method the reader had no name for is no wrong caller: its name came
	# on the socket over 200 ms after the walk (jvm/walkring.c holds a walk
	# that long), the agent's thread waiting for a CPU beside another make
	# check
	bad=$(awk '!/\[java:/ {
		n = split($0, f, ";")
		for (i = 2; i <= n; i++) {
			if (f[i-1] ~ /^\[unknown Java method\]/) continue
			if (f[i] ~ /^JVM_InternString/ && f[i-1] !~ /String\.intern/) print
			if (f[i] ~ /^JVM_Sleep/ && f[i-1] !~ /Thread\.sleep/) print
			if (f[i] ~ /^Java_sun_nio_ch_[A-Za-z]*_write0/ && f[i-1] !~ /\.write0/) print
			if (f[i] ~ /^Java_sun_nio_ch_[A-Za-z]*_read0/ && f[i-1] !~ /\.read0/) print
			if (f[i] ~ /^Unsafe_Park/ && f[i-1] !~ /\.park/) print
		}
	}' "$D/t.folded" | head -3)
	[ -n "$bad" ] && echo "$bad" | cut -c1-300 | sed 's/^/#   /'
	echo "# $J: $(grep -c '\[unknown Java method\]' "$D/t.folded") of $(wc -l <"$D/t.folded") stacks hold a method not named yet"
	check "$J: no JNI/VM function under a Java method that does not call it" [ -z "$bad" ]
done
