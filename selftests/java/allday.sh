# Helpers for a JVM profiled all day (issue 49): what a session may leave
# behind in a JVM, read from outside, and the soak's rounds of perfjava and
# async-profiler taking turns. Source after lib.sh and jvm.sh.

# libjvm_of PID: the path of the libjvm.so PID maps, and its load address
# (the mapping at file offset 0), as "PATH ADDR"
libjvm_of() {
	awk '$6 ~ /\/libjvm\.so$/ && $3 == "00000000" { split($1, a, "-"); print $6, a[1]; exit }' \
		"/proc/$1/maps" 2>/dev/null
}

# jvm_bytes PID ADDR N: N bytes of PID's memory at ADDR (hex), as one
# unsigned little-endian number
jvm_bytes() {
	dd if="/proc/$1/mem" bs="$3" count=1 iflag=skip_bytes skip=$((0x$2)) 2>/dev/null |
		od -An -tu"$3" | tr -d ' \n'
}

# jvm_state PID: what a session may change in PID, one "what value" a line:
# its threads (count and names), caught and ignored signals, every JVMTI
# event the JVM posts and capability it has on (JvmtiExport's _should_post_*
# and _can_* flags), the heap sampling interval (ThreadHeapSampler); the
# flags are read from libjvm's symbol table and the JVM's memory
jvm_state() {
	local pid=$1 lib base sym off
	read -r lib base <<<"$(libjvm_of "$pid")"
	echo "threads $(ls "/proc/$pid/task" 2>/dev/null | wc -l)"
	echo "names $(cat /proc/"$pid"/task/*/comm 2>/dev/null | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
	awk '/^Sig(Cgt|Ign):/ { sub(/:$/, "", $1); print tolower($1), $2 }' "/proc/$pid/status"
	[ -n "$lib" ] || return 0
	nm "$lib" 2>/dev/null | awk '$3 ~ /^_ZN11JvmtiExport[0-9]+_(should_post|can)_/ ||
		$3 == "_ZN17ThreadHeapSampler18_sampling_intervalE" { print $1, $3 }' |
		while read -r off sym; do
			if [ "$sym" = _ZN17ThreadHeapSampler18_sampling_intervalE ]; then
				echo "interval $(jvm_bytes "$pid" "$(printf %x $((0x$base + 0x$off)))" 4)"
			else
				echo "jvmti ${sym#_ZN11JvmtiExport} $(jvm_bytes "$pid" "$(printf %x $((0x$base + 0x$off)))" 1)"
			fi
		done
}

# agent_gone PID: no thread of the agent's session in PID (it ends a moment
# after its reader)
agent_gone() {
	! grep -qx 'perfjava-agent' /proc/"$1"/task/*/comm 2>/dev/null
}

# state_diff A B: the lines of state file B that differ from A's, keyed
# by their first word(s) ("what value" -> "what A->B")
state_diff() {
	awk 'NR == FNR { k = $1; if ($1 == "jvmti") k = $1 " " $2; a[k] = $NF; next }
		{ k = $1; if ($1 == "jvmti") k = $1 " " $2
		  if (a[k] != $NF) print k, a[k] "->" $NF }' "$1" "$2"
}

# sig_bits HEX: the signal numbers set in a /proc status mask, one a line
sig_bits() {
	local m=$((0x$1)) s
	for ((s = 1; s <= 64; s++)); do
		(((m >> (s - 1)) & 1)) && echo $s
	done
	return 0
}

# java_share DATA: the percentage of DATA's samples (weight) of the Java
# threads (worker-, lock-, alloc) whose Java frames were walked (no
# "[java: ...]" marker: a JIT frame of the kernel's chain does not count),
# and their number
java_share() {
	"$PJ_BIN" report -i "$1" --threads --format collapsed 2>/dev/null |
		awk '/^\[(worker-|lock-|alloc )/ { t += $NF; if ($0 !~ /\[java: /) j += $NF }
			END { printf "%.1f %.0f\n", t ? 100 * j / t : 0, t }'
}

# walk_counts DATA: the walks at the sample DATA's statistics say were
# given to their samples, and those that found none, as "M O"
walk_counts() {
	"$PJ_BIN" report -i "$1" --format meta 2>/dev/null |
		awk '$2 == "walk_at_sample_matched" { m = $3 }
			$2 == "walk_at_sample_orphans" { o = $3 }
			END { print m + 0, o + 0 }'
}

# pj_mode MODE: perfjava's record options for a soak mode
pj_mode() {
	case $1 in
	cpu) echo "" ;;
	wall) echo "--wall" ;;
	lock) echo "-e cpu-clock,lock" ;;
	alloc) echo "-e cpu-clock,alloc" ;;
	esac
}

# soak_round JDK PID DIR N MODES: perfjava and async-profiler take turns
# on PID, one session of each per mode; appends to DIR/rounds one line a
# perfjava session: "N MODE SECONDS RC JAVA% SAMPLES THREADS RSS_KB MATCHED
# ORPHANS" (the JVM's after it; the walks at the sample given to their
# samples, and those that found none), and "N ap-MODE SECONDS RC" for
# async-profiler's
soak_round() {
	local jdk=$1 pid=$2 dir=$3 n=$4 mode t0 t1 rc share
	shift 4
	for mode in "$@"; do
		t0=$(date +%s%N)
		# shellcheck disable=SC2046
		"$PJ_BIN" record -q -p "$pid" -d "${SOAK_SECS:-1}" $(pj_mode "$mode") \
			-o "$dir/s.data" 2>"$dir/s.err"
		rc=$?
		t1=$(date +%s%N)
		wait_for 10 agent_gone "$pid"
		share=$(java_share "$dir/s.data")
		echo "$n $mode $(((t1 - t0) / 1000000)) $rc $share $(ls "/proc/$pid/task" | wc -l) $(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status") $(walk_counts "$dir/s.data")" >>"$dir/rounds"
		grep -h 'warning\|unavailable\|error' "$dir/s.err" | sed "s/^/# $n $mode: /" >>"$dir/notes"
		[ -n "${ASPROF:-}" ] || continue
		t0=$(date +%s%N)
		"$ASPROF" -e "$mode" -d "${SOAK_SECS:-1}" -o collapsed -f "$dir/ap.txt" "$pid" >"$dir/ap.err" 2>&1
		rc=$?
		t1=$(date +%s%N)
		echo "$n ap-$mode $(((t1 - t0) / 1000000)) $rc" >>"$dir/rounds"
	done
}

# soak_figures ROUNDS: the soak's figures from a rounds file, as
# "CPU_SESSIONS MIN_JAVA% MEDIAN_JAVA% THREADS_FIRST THREADS_LAST
# RSS_FIRST_KB RSS_LAST_KB LONGEST_PJ_MS LONGEST_AP_MS FAILED": the first
# of threads and RSS after the first round (the JVM warmed up), failed the
# sessions of either profiler whose status was not 0
soak_figures() {
	awk '$2 == "cpu" { s[++n] = $5 }
		$2 !~ /^ap-/ { if ($1 > 0 && t1 == "") { t1 = $7; r1 = $8 }
			t2 = $7; r2 = $8; if ($3 > pj) pj = $3 }
		$2 ~ /^ap-/ { if ($3 > ap) ap = $3 }
		$4 != 0 { bad++ }
		END {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (s[j] < s[i]) { x = s[i]; s[i] = s[j]; s[j] = x }
			if (t1 == "") { t1 = t2; r1 = r2 }
			printf "%d %s %s %s %s %s %s %d %d %d\n", n, n ? s[1] : 0,
				n ? s[int((n + 1) / 2)] : 0, t1, t2, r1, r2, pj, ap, bad + 0
		}' "$1"
}
