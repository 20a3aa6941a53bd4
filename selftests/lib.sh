# Shell helpers for selftests/*/test_*.sh. Source it; it prints TAP.
# Never sleep as synchronization: wait_for polls a condition with a bound.
set -u
PJ_TOP=${PJ_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PJ_BUILD=${PJ_BUILD:-$PJ_TOP/build}
PJ_BIN=${PJ_BIN:-$PJ_BUILD/perfjava}
PROGS=$PJ_BUILD/progs
_tap_n=0
TMP=$(mktemp -d /tmp/pj-test.XXXXXX)
# _pj_started PID: the start time of PID (field 22 of its stat), or nothing
_pj_started() {
	local s a
	read -r s 2>/dev/null </proc/"$1"/stat || return 0
	read -ra a <<<"${s##*) }"
	echo "${a[19]}"
}
_pj_cleanup() {
	local e p
	for e in ${_pj_pids:-}; do
		# (only the process tracked: the run forks enough for pids to
		# wrap, and a reused pid may be another test's JVM)
		p=${e%:*}
		[ -n "${e#*:}" ] && [ "$(_pj_started "$p")" = "${e#*:}" ] || continue
		kill -9 "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	# what a JVM killed so leaves in /tmp: its attach socket and perf
	# data file (not another process's: only for a pid that is gone)
	for e in ${_pj_pids:-}; do
		p=${e%:*}
		[ -e /proc/"$p" ] || rm -f /tmp/.java_pid"$p" /tmp/hsperfdata_*/"$p"
	done
	if [ -n "${PJ_KEEP:-}" ]; then echo "# kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap _pj_cleanup EXIT
_pj_pids=""
# track PID: killed at exit, if it is still the process it was
track() { _pj_pids="$_pj_pids $1:$(_pj_started "$1")"; }

ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $*"; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
# check DESC CMD...: ok when CMD succeeds; its status CMD's (0 or 1), for a
# diagnostic after it (check ... || sed ...)
check() {
	local d=$1
	shift
	if "$@"; then
		ok "$d"
	else
		not_ok "$d"
		return 1
	fi
}
# wait_for SECONDS CMD...: poll CMD every 20 ms until it succeeds or time
# runs out. Builtins only (the clock EPOCHREALTIME; the pause a read that
# times out on a FIFO no one writes, opened for the read alone: no child
# inherits it): a date and a sleep per poll cost a test a third of a core
# while it waits
_pj_poll=0.02
mkfifo "$TMP/.poll"
wait_for() {
	local limit=$1 _
	shift
	local end=$((${EPOCHREALTIME/./} + limit * 1000000))
	while ! "$@"; do
		[ "${EPOCHREALTIME/./}" -ge "$end" ] && return 1
		# the polling interval, not a wait for an event
		if [ -p "$TMP/.poll" ]; then
			read -r -t "$_pj_poll" _ <>"$TMP/.poll" || :
		else
			sleep "$_pj_poll"
		fi
	done
}
# reached EPOCH_SECONDS: the clock has reached that second (a condition for
# wait_for when the wait is for a time, not an event; no process per poll)
reached() { [ "$EPOCHSECONDS" -ge "$1" ]; }
# start_prog OUT PROG ARGS...: starts a test program, waits for "ready PID";
# sets PID
start_prog() {
	local out=$1; shift
	: >"$out" # (as start_jvm's)
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
# weighted_n SCRIPT NAME...: for samples of unequal weight (report --format
# script of lock waits, in ns, or allocations, in bytes), as many samples of
# one weight as tell each NAME's share (stack_share's, of the weight among
# the samples that hold any NAME) as closely, one "NAME N" a line: the
# share's variance as a ratio's, sum w^2 (x - p)^2 / (sum w)^2, is
# p (1 - p) / N; never more than the count. A few long waits weigh as
# much as many short ones: the count would claim a closeness they do not
# give.
weighted_n() {
	local f=$1; shift
	awk -v names="$*" '
	function done_sample() {
		if (w > 0 && hit) { k++; sw[k] = w; site[k] = hit; tot += w; by[hit] += w }
		w = 0; hit = 0
	}
	BEGIN { n = split(names, fn, " ") }
	/^[^\t]/ { done_sample()
		for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) w = $(i + 1) + 0
		next }
	/^\t/ && w > 0 && !hit {
		g = $2; sub(/_\[[0-9a-z]\]$/, "", g)
		for (i = 1; i <= n; i++) if (g == fn[i]) { hit = i; break }
	}
	END {
		done_sample()
		for (i = 1; i <= n; i++) {
			p = tot ? by[i] / tot : 0; v = 0
			for (j = 1; j <= k; j++) { x = (site[j] == i) - p; v += sw[j] * sw[j] * x * x }
			v /= tot ? tot * tot : 1
			ne = v > 0 ? p * (1 - p) / v : k
			printf "%s %.0f\n", fn[i], (ne < k ? ne : k)
		}
	}' "$f"
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
# share_tol EXPECTED TOTAL [MIN]: how far (pp) a share measured over TOTAL
# samples may be from EXPECTED% by chance: three standard errors of the
# share, 300 * sqrt(p (1 - p) / TOTAL) with p = EXPECTED / 100, or MIN pp
# (what the method itself may miss by, default 0) when that is wider; 100
# with no sample. TOTAL "-": the share is measured whole, not sampled
# (off-CPU time: every wait is recorded): MIN alone.
share_tol() {
	awk -v p="$1" -v n="$2" -v t="${3:-0}" 'BEGIN {
		if (n == "-") e = 0
		else if (n + 0 <= 0) e = 100
		else { p /= 100; p = p < 0 ? 0 : p > 1 ? 1 : p; e = 300 * sqrt(p * (1 - p) / n) }
		printf "%.1f", (e > t ? e : t) }'
}
# share_within COUNT TOTAL EXPECTED [MIN]: COUNT of TOTAL samples is a share
# within share_tol of EXPECTED% (COUNT may be a weight of TOTAL's unit)
share_within() {
	local tol
	tol=$(share_tol "$3" "$2" "${4:-0}")
	awk -v c="$1" -v n="$2" -v e="$3" -v t="$tol" 'BEGIN {
		if (n == "-" || n + 0 <= 0) exit 1
		d = 100 * c / n - e; if (d < 0) d = -d; exit !(d <= t) }'
}
# check_share DESC GOT TOTAL EXPECTED [MIN]: a TAP line, ok when the share
# GOT% measured over TOTAL samples ("-": measured whole) is within share_tol
# of EXPECTED%; the figures in the line
check_share() {
	local d=$1 got=${2:-} n=${3:-0} e=${4:-} m=${5:-0} tol
	if [ -z "$got" ] || [ -z "$e" ]; then
		not_ok "$d (no share measured: got '${got}', expected '${e}')"
		return
	fi
	tol=$(share_tol "$e" "$n" "$m")
	if [ "$n" = - ]; then
		check "$d within $tol pp (expected $e%, got $got%)" \
			awk -v a="$got" -v b="$e" -v t="$tol" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
	else
		check "$d within $tol pp (expected $e%, got $got% of $n samples)" \
			share_within "$(awk -v g="$got" -v n="$n" 'BEGIN { printf "%.4f", g * n / 100 }')" "$n" "$e" "$m"
	fi
}
# check_share_min DESC GOT TOTAL MIN: a TAP line, ok when the share GOT%
# measured over TOTAL samples is at least MIN%, but for three standard
# errors of a share of MIN% (what so few samples cannot tell apart)
check_share_min() {
	local d=$1 got=${2:-0} n=${3:-0} m=$4 tol
	tol=$(share_tol "$m" "$n" 0)
	check "$d: $got% of $n samples, at least $m% (less $tol pp for the count)" \
		awk -v g="$got" -v n="$n" -v m="$m" -v t="$tol" 'BEGIN { exit !(n > 0 && g >= m - t) }'
}
# shares_agree DESC A NA B NB [MIN]: two measured shares, A% of NA samples
# and B% of NB, within three standard errors of their difference (or MIN pp)
shares_agree() {
	local tol
	tol=$(awk -v a="$2" -v na="$3" -v b="$4" -v nb="$5" -v t="${6:-0}" 'BEGIN {
		p = (a * na + b * nb) / 100 / (na + nb > 0 ? na + nb : 1)
		e = (na > 0 && nb > 0) ? 300 * sqrt(p * (1 - p) * (1 / na + 1 / nb)) : 100
		printf "%.1f", (e > t ? e : t) }')
	check "$1 within $tol pp ($2% of $3 samples, $4% of $5)" \
		awk -v a="$2" -v b="$4" -v t="$tol" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}
# sample_window DATA REGEX: "FIRST LAST", the times (seconds, CLOCK_MONOTONIC)
# of the first and last sample in DATA with a frame matching REGEX
sample_window() {
	"$PJ_BIN" report -i "$1" --format script 2>/dev/null | awk -v re="$2" '
	function end() { if (hit) { if (first == "") first = t; last = t } hit = 0 }
	/^[^\t]/ { end(); for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = $i + 0 }
	/^\t/ && $0 ~ re { hit = 1 }
	END { end(); if (first != "") printf "%.6f %.6f\n", first, last }'
}

# window_truth OUT FIRST LAST CLASS PHASE...: the program's CPU truth (the
# "cum NS ns..." timeline Truth.java writes with -Dtruth.every, cpusplit with
# EVERY_MS) over FIRST..LAST
# (seconds), as "CLASS.PHASE percent" lines: from the last cum line at or
# before FIRST to the first at or after LAST
window_truth() {
	local out=$1 first=$2 last=$3 cls=$4; shift 4
	awk -v a="$first" -v b="$last" -v cls="$cls" -v names="$*" '
	$1 == "cum" {
		t = $2 / 1e9
		if (!nlo || t <= a) { nlo = 1; for (i = 3; i <= NF; i++) lo[i] = $i }
		if (!done) { for (i = 3; i <= NF; i++) hi[i] = $i; nf = NF }
		if (t >= b) done = 1
	}
	END {
		n = split(names, nm, " ")
		for (i = 3; i <= nf; i++) tot += hi[i] - lo[i]
		for (i = 1; i <= n; i++)
			printf "%s.%s %.2f\n", cls, nm[i], (tot > 0 ? 100 * (hi[i + 2] - lo[i + 2]) / tot : 0)
	}' "$out"
}

# wait_window DATA REGEX: "FIRST LAST END", the waits in DATA (a lock
# recording, each sample weighing its wait in ns) with a frame matching
# REGEX: the first and the last one's start, the last end (start plus
# weight), seconds of CLOCK_MONOTONIC
wait_window() {
	"$PJ_BIN" report -i "$1" --format script 2>/dev/null | awk -v re="$2" '
	function end() {
		if (hit) { if (first == "") first = t; last = t; if (t + w / 1e9 > e) e = t + w / 1e9 }
		hit = 0 }
	/^[^\t]/ { end(); for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i + 0; w = $(i + 1) + 0 } }
	/^\t/ && $0 ~ re { hit = 1 }
	END { end(); if (first != "") printf "%.6f %.6f %.6f\n", first, last, e }'
}

# wait_truth OUT FIRST LAST END CLASS SITE...: the program's own waits per
# site, as a profiler of waits sees them over a recording whose waits
# began in FIRST..LAST and ended by END (wait_window), as "CLASS.SITE
# percent" lines. OUT has a line "wait I T0 T1 ..." for each long wait
# (site I, nanoTime at its start and end: LockIdle.java), counted whole
# when it began in FIRST..LAST and ended by END, else not at all, as a
# profiler that times each wait (a wait begun before the recording is not
# in it); 1 ms of slack at the start (the program reads its clock before
# the wait, the profiler at it), 20 ms at the end (the program reads its
# clock after the acquire, a loaded machine's delays after the wake-up);
# and "cum NS V..." lines every few ms with the sums of the shorter waits,
# taken from FIRST to LAST (interpolated between the lines around each)
wait_truth() {
	local out=$1 first=$2 last=$3 end=$4 cls=$5; shift 5
	awk -v a="$first" -v b="$last" -v e="$end" -v cls="$cls" -v names="$*" '
	function at(x, v,   i, k, f) { # the sums at time x, into v
		for (i = 1; i <= nc; i++) if (ct[i] >= x) break
		if (i > nc) i = nc
		if (i == 1 || ct[i] <= x) { for (k = 3; k <= nf; k++) v[k] = cv[i, k]; return }
		f = (x - ct[i - 1]) / (ct[i] - ct[i - 1])
		for (k = 3; k <= nf; k++) v[k] = cv[i - 1, k] + f * (cv[i, k] - cv[i - 1, k])
	}
	$1 == "cum" { ct[++nc] = $2 / 1e9; for (k = 3; k <= NF; k++) cv[nc, k] = $k; nf = NF }
	$1 == "wait" && $3 / 1e9 >= a - 0.001 && $3 / 1e9 <= b + 0.001 && $4 / 1e9 <= e + 0.02 {
		lw[$2 + 3] += $4 - $3 }
	END {
		n = split(names, nm, " ")
		if (nc) { at(a, lo); at(b, hi) }
		for (k = 3; k < n + 3; k++) { s[k] = (nc ? hi[k] - lo[k] : 0) + lw[k]; tot += s[k] }
		for (i = 1; i <= n; i++)
			printf "%s.%s %.2f\n", cls, nm[i], (tot > 0 ? 100 * s[i + 2] / tot : 0)
	}' "$out"
}

# native_split LABEL OUT FOLDED PP [DATA]: cpusplit's work_a/b/c each
# attributed (in the collapsed FOLDED) within PP pp, or three standard
# errors when fewer samples make that wider (check_share), of the truth in
# OUT: over the window DATA's samples of them cover when cpusplit ran with
# a timeline (EVERY_MS: its "cum" lines), else over its whole run; sets
# MAXERR (pp)
native_split() {
	local label=$1 out=$2 folded=$3 pp=$4 data=${5:-} f truth got err n win=
	stack_share "$folded" work_a work_b work_c >"$folded.share"
	n=$(awk '/(^|;)work_[abc](;| )/ { n += $NF } END { print n + 0 }' "$folded")
	if [ -n "$data" ] && grep -q '^cum ' "$out"; then
		win=$(sample_window "$data" '(^|[[:space:]])work_[abc]( |$)')
		window_truth "$out" ${win:-0 0} x work_a work_b work_c | sed 's/^x\./truth /' >"$folded.truth"
		echo "# ${label}truth over the recorded window $win (s), $n samples"
	else
		grep '^truth ' "$out" >"$folded.truth"
	fi
	MAXERR=0
	for f in work_a work_b work_c; do
		truth=$(awk -v f=$f '$1 == "truth" && $2 == f { print $3 }' "$folded.truth")
		got=$(awk -v f=$f '$1 == f { print $2 }' "$folded.share")
		err=$(awk -v a="${truth:-0}" -v b="${got:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; printf "%.2f", d }')
		echo "# $label$f truth $truth% measured $got% error $err pp"
		MAXERR=$(awk -v a="$MAXERR" -v b="$err" 'BEGIN { print (b > a) ? b : a }')
		check_share "$label$f attributed" "$got" "$n" "$truth" "$pp"
	done
}
# peers_tarball NAME: sets PEERS_TGZ to the peer's source tarball NAME
# (async-profiler-4.5.tar.gz), found relative to the checkout: in $PJ_PEERS
# when set, else in shared/peers beside the checkout (../shared/peers), or
# beside the main checkout when this one is a git worktree of it; false,
# with the reason in PEERS_WHY, when there is none
peers_tarball() {
	local d common
	PEERS_TGZ= PEERS_WHY=
	if [ -n "${PJ_PEERS:-}" ]; then
		d=$PJ_PEERS
	else
		d=$PJ_TOP/../shared/peers
		if [ ! -f "$d/$1" ] && common=$(git -C "$PJ_TOP" rev-parse --path-format=absolute \
			--git-common-dir 2>/dev/null); then
			d=$(dirname "$common")/../shared/peers
		fi
	fi
	if [ -f "$d/$1" ]; then
		PEERS_TGZ=$d/$1
		return 0
	fi
	PEERS_WHY="no $1 in ${PJ_PEERS:-../shared/peers beside the checkout} (set PJ_PEERS to its folder)"
	return 1
}
# apt_install LOG PKG...: Debian's packages, as `make deps` installs its own
# (no questions, no recommends; apt's index refreshed when they are not
# found); tests running at once wait for each other's dpkg lock. Output in
# LOG; false when they cannot be had
apt_install() {
	local log=$1 sudo=""; shift
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=300)
	$sudo "${apt[@]}" install --no-install-recommends "$@" >"$log" 2>&1 ||
		{ $sudo "${apt[@]}" update >>"$log" 2>&1 &&
			$sudo "${apt[@]}" install --no-install-recommends "$@" >>"$log" 2>&1; }
}
# npm_install DIR LOG SPEC...: npm's packages into DIR (build/node), one
# test at a time (two npm runs in one folder would mix its files up)
npm_install() {
	local dir=$1 log=$2; shift 2
	mkdir -p "$dir" || return 1
	(
		flock 9
		npm install --no-audit --no-fund --prefix "$dir" "$@" >"$log" 2>&1
	) 9>"$dir/.install.lock"
}
# need_go: Go's toolchain (golang-go, installed when missing) for go tool
# pprof and the stand-in servers, with its caches in $TMP; false when it
# cannot be had (why: the last line of $TMP/apt.log)
need_go() {
	export HOME=${HOME:-/root}
	command -v go >/dev/null || apt_install "$TMP/apt.log" golang-go
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
# record -F 100 -g into DATA, the two on one run, when the caller's PERF
# is not empty (it sets it, from perf_can_record); CMD alone otherwise.
# CMD's status.
beside_perf() {
	local data=$1
	shift
	if [ -n "$PERF" ]; then
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
