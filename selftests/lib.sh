# Shell helpers for selftests/*/test_*.sh. Source it; it prints TAP.
# Never sleep as synchronization: wait_for polls a condition with a bound.
set -u
PJ_TOP=${PJ_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PJ_BUILD=${PJ_BUILD:-$PJ_TOP/build}
PJ_BIN=${PJ_BIN:-$PJ_BUILD/perfjava}
PROGS=$PJ_BUILD/progs
_tap_n=0
TMP=$(mktemp -d /tmp/pj-test.XXXXXX)
_pj_cleanup() {
	local p
	for p in ${_pj_pids:-}; do
		kill -9 "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	if [ -n "${PJ_KEEP:-}" ]; then echo "# kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap _pj_cleanup EXIT
_pj_pids=""
# track PID: killed at exit
track() { _pj_pids="$_pj_pids $1"; }

ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $*"; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
# check DESC CMD...: ok when CMD succeeds
check() { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
# wait_for SECONDS CMD...: poll CMD every 20 ms until it succeeds or time runs out
_pj_poll=0.02
wait_for() {
	local limit=$1; shift
	local end=$(($(date +%s%N) + limit * 1000000000))
	while ! "$@"; do
		[ "$(date +%s%N)" -ge "$end" ] && return 1
		sleep "$_pj_poll" # the polling interval, not a wait for an event
	done
}
# start_prog OUT PROG ARGS...: starts a test program, waits for "ready PID";
# sets PID
start_prog() {
	local out=$1; shift
	"$@" >"$out" 2>&1 &
	PID=$!
	track $PID
	wait_for 10 grep -q '^ready' "$out"
}
# size_over FILE BYTES: FILE exists and is larger than BYTES (for wait_for)
size_over() { [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -gt "$2" ]; }
# rss_peak PID: its peak RSS so far, in MB (VmHWM; 0 once it is gone)
rss_peak() { awk '/^VmHWM:/ { print int($2 / 1024) }' "/proc/$1/status" 2>/dev/null || echo 0; }
# peak_until_gone PID: raises HWM to PID's peak RSS (MB) and succeeds once
# PID is gone; as wait_for's condition, the RSS is read at each poll
peak_until_gone() {
	local h
	h=$(rss_peak "$1")
	[ "${h:-0}" -gt "${HWM:-0}" ] && HWM=$h
	! kill -0 "$1" 2>/dev/null
}
# stack_share FOLDED NAME...: for each NAME, the percentage of samples (in
# collapsed output) whose stack holds a frame NAME (any _[x] type suffix),
# among the samples that hold any of the NAMEs; prints "NAME PCT" lines
stack_share() {
	local f=$1; shift
	awk -v names="$*" '
	BEGIN { n = split(names, fn, " ") }
	{
		cnt = $NF; $NF = ""; k = split($0, fr, ";")
		for (i = 1; i <= n; i++)
			for (j = 1; j <= k; j++) {
				g = fr[j]; sub(/ +$/, "", g); sub(/_\[[0-9a-z]\]$/, "", g)
				if (g == fn[i]) { c[i] += cnt; tot += cnt; break }
			}
	}
	END { for (i = 1; i <= n; i++) printf "%s %.2f\n", fn[i], tot ? 100 * c[i] / tot : 0 }' "$f"
}
# mono: CLOCK_MONOTONIC now, ns (the clock of perf's samples with
# use_clockid and of the JVM's System.nanoTime)
mono() { python3 -c 'import time; print(time.monotonic_ns())'; }
# median: of the numbers on stdin, one a line ("-" when none); of an even
# count, the mean of the two middle ones
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# paired_diff RATIOS FIELD A B LABEL: windows named A.N and B.N (N the
# round) in RATIOS, their ratio in column FIELD; prints "LABEL: d1 d2 ... pp;
# mean M +- SE (standard error)", each d 100 * (A's ratio - B's) within one
# round (B "1": A's ratio against none)
paired_diff() {
	awk -v f="$2" -v a="$3" -v b="$4" -v label="$5" '
	$1 ~ /\.[0-9]+$/ { split($1, k, "."); r[k[1], k[2]] = $f; if (k[2] + 0 > n) n = k[2] + 0 }
	END {
		for (i = 1; i <= n; i++) {
			if (!((a, i) in r) || (b != "1" && !((b, i) in r))) continue
			d = 100 * (r[a, i] - (b == "1" ? 1 : r[b, i]))
			line = line sprintf(" %+.2f", d); m += d; s += d * d; c++
		}
		if (c < 2) { printf "%s: too few rounds\n", label; exit }
		m /= c; s = s / c - m * m; s = s > 0 ? sqrt(s / (c - 1)) : 0
		printf "%s:%s pp; mean %+.2f +- %.2f (standard error)\n", label, line, m, s
	}' "$1"
}
# proc_cpu_ticks PID: user + system CPU time of a process, in clock ticks
proc_cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
# pct_tolerance P N MIN: MIN pp, or three standard errors of a share P% taken
# from N samples when that is wider
pct_tolerance() {
	awk -v p="$1" -v n="$2" -v t="$3" 'BEGIN {
		e = n ? 300 * sqrt(p / 100 * (1 - p / 100) / n) : 100
		printf "%.1f", (e > t ? e : t) }'
}
# pct_within A B TOL: |A-B| <= TOL (floats)
pct_within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(d<=t)}'; }
# native_split LABEL OUT FOLDED PP: cpusplit's work_a/b/c each attributed
# (in the collapsed FOLDED) within PP pp, or three standard errors when fewer
# samples make that wider, of the truth it printed in OUT; sets MAXERR (pp)
native_split() {
	local label=$1 out=$2 folded=$3 pp=$4 f truth got err tol n
	stack_share "$folded" work_a work_b work_c >"$folded.share"
	n=$(awk '/(^|;)work_[abc](;| )/ { n += $NF } END { print n + 0 }' "$folded")
	MAXERR=0
	for f in work_a work_b work_c; do
		truth=$(awk -v f=$f '$1 == "truth" && $2 == f { print $3 }' "$out")
		got=$(awk -v f=$f '$1 == f { print $2 }' "$folded.share")
		err=$(awk -v a="$truth" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.2f", d }')
		echo "# $label$f truth $truth% measured $got% error $err pp"
		MAXERR=$(awk -v a="$MAXERR" -v b="$err" 'BEGIN { print (b > a) ? b : a }')
		tol=$(pct_tolerance "${truth:-0}" "$n" "$pp")
		check "$label$f attributed within $tol pp (truth $truth, got $got, $n samples)" \
			pct_within "${truth:-0}" "${got:-100}" "$tol"
	done
}
# need_go: Go's toolchain (golang-go, installed when missing) for go tool
# pprof and the stand-in servers, with its caches in $TMP; false when it
# cannot be had (why: the last line of $TMP/apt.log)
need_go() {
	export HOME=${HOME:-/root}
	if ! command -v go >/dev/null; then
		apt-get install -y --no-install-recommends golang-go >"$TMP/apt.log" 2>&1 ||
			{ apt-get update >>"$TMP/apt.log" 2>&1 &&
				apt-get install -y --no-install-recommends golang-go >>"$TMP/apt.log" 2>&1; }
	fi
	command -v go >/dev/null || return 1
	export PPROF_TMPDIR=$TMP GOCACHE=$TMP/gocache GOFLAGS=-mod=mod GOTOOLCHAIN=local
}
# perf_can_record: perf is installed and may record here; PERF_WHY says why
# not otherwise (the side-by-side checks skip with it)
perf_can_record() {
	PERF_WHY=
	if ! command -v perf >/dev/null; then
		PERF_WHY="perf is not installed"
		return 1
	fi
	if ! perf record -q -e cpu-clock -o "$TMP/perf-probe.data" -- true >"$TMP/perf-probe.err" 2>&1; then
		PERF_WHY="perf cannot record here: $(head -c 160 "$TMP/perf-probe.err" | tr '\n' ' ')"
		return 1
	fi
}
# beside_perf DATA CMD...: CMD (a perfjava record -- ...) under perf
# record -F 100 -g into DATA, the two on one run, when PERF is set (by
# perf_can_record); CMD alone otherwise. CMD's status.
beside_perf() {
	local data=$1
	shift
	if [ -n "${PERF:-}" ]; then
		perf record -q -F 100 -g -o "$data" -- "$@"
	else
		"$@"
	fi
}
# perf_with DATA FUNC [PID]: perf record -g's samples (of process PID, or
# any) whose call chain holds the function FUNC
perf_with() {
	perf script -i "$1" -F pid,ip,sym 2>/dev/null | awk -v f="$2" -v p="${3:-}" '
	BEGIN { RS = "" }
	{ if (p != "" && $1 != p) next
	  for (i = 2; i <= NF; i++) if ($i == f) { n++; break } }
	END { print n + 0 }'
}
# perf_of DATA PID: perf's samples of process PID
perf_of() { perf script -i "$1" -F pid 2>/dev/null | awk -v p="$2" '$1 == p { n++ } END { print n + 0 }'; }
# pj_with FOLDED FUNC: samples of a collapsed report whose stack holds FUNC
# (any _[x] type suffix)
pj_with() {
	awk -v f="$2" '{ n = $NF; $NF = ""; k = split($0, fr, ";")
		for (i = 1; i <= k; i++) { g = fr[i]; sub(/ +$/, "", g); sub(/_\[[0-9a-z]\]$/, "", g)
			if (g == f) { c += n; break } } } END { print c + 0 }' "$1"
}
# at_least_of A B R: A is at least R times B, within three standard errors
# of B counted (sqrt B): a count taken beside another of the same events
at_least_of() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { exit !(b > 0 && a >= r * b - 3 * sqrt(b)) }'; }
