# Helpers for Java tests: compile the suite's Java sources once, start JVMs.
# Source after lib.sh.
JDKS=()
for j in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
	[ -x "$j/bin/java" ] && JDKS+=("$j")
done
CLASSES=$PJ_BUILD/java-classes

# compile_java: javac (release 17, so both JDKs run it) into $CLASSES, one
# test at a time (tests run at once: none may start a JVM on half-written
# classes)
compile_java() {
	local javac=${JDKS[0]}/bin/javac src=$PJ_TOP/selftests/java/src
	mkdir -p "$CLASSES"
	(
		flock 9
		if [ -z "$(find "$src" -name '*.java' -newer "$CLASSES/.stamp" 2>/dev/null)" ] &&
			[ -e "$CLASSES/.stamp" ]; then
			exit 0
		fi
		"$javac" --release 17 -d "$CLASSES" "$src"/*.java && touch "$CLASSES/.stamp"
	) 9>"$CLASSES/.lock"
}

# h2_jar: Debian's H2 database (libh2-java, installed when missing: the
# real application of the JFR and cost checks) at $H2JAR; false when it
# cannot be had (why: the last line of $TMP/apt.log)
H2JAR=/usr/share/java/h2.jar
h2_jar() {
	[ -f "$H2JAR" ] || apt_install "$TMP/apt.log" libh2-java
	[ -f "$H2JAR" ]
}

# java_suite WHAT: the test (WHAT) is skipped where no JDK is installed, and
# stops when the suite's Java sources do not compile; they are compiled once
java_suite() {
	if [ ${#JDKS[@]} -eq 0 ]; then
		skip "$1" "no JDK found"
		exit 0
	fi
	compile_java || { not_ok "javac failed"; exit 0; }
}

# start_jvm JDK OUT [JVM-FLAGS...] -- CLASS ARGS...: starts a JVM (stdout in
# OUT, stderr in OUT.err), waits for its "ready PID" line; sets JPID to the
# pid the JVM reports and JWAIT to the child to wait for.
start_jvm() {
	local jdk=$1 out=$2; shift 2
	local flags=()
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
	shift
	# emptied here, not by the redirection in the child: a JVM's out file
	# used again would show the last one's "ready" to a first look made
	# before the child ran
	: >"$out"
	"$jdk/bin/java" "${flags[@]}" -cp "$CLASSES" "$@" >"$out" 2>"$out.err" &
	JWAIT=$!
	track $JWAIT
	wait_for 60 grep -q '^ready' "$out"
	JPID=$(awk '/^ready/ { print $2; exit }' "$out")
	if [ -z "$JPID" ]; then
		echo "# the JVM did not say ready in 60 s: $(tail -c 300 "$out.err" | tr '\n' ' ')"
		return 1
	fi
	track "$JPID"
}

# said FILE PID REGEX: waits for a line of FILE matching REGEX, or for PID
# to end (at most 60 s), reading FILE as it grows (tail -f) rather than
# running a grep every poll; FILE may not be there yet (the redirection of
# a command just put in the background)
said() {
	local l
	while IFS= read -r l; do
		[[ $l =~ $3 ]] && return 0
	done < <(exec timeout 60 tail --pid="$2" --retry -n +1 -f "$1" 2>/dev/null)
	return 1
}

# worked OUT PID CPU_MS [MS]: waits until the Workload PID, run with
# "ticks" (its stdout OUT: every 100 ms its time and its workers' CPU
# time), has had CPU_MS ms of its workers' CPU, and ticked MS ms, past its
# latest tick so far (its first when none yet), or has ended (at most
# 120 s): a recording as long as the work its checks need, whatever the
# load
worked() {
	local w t c t0='' c0='' ms=${4:-0}
	while read -r w t _ c; do
		[ "$w" = tick ] && t0=$t c0=$c
	done <"$1"
	while read -r w t _ c; do
		[ "$w" = tick ] || continue
		[ -n "$t0" ] || t0=$t c0=$c
		[ $((c - c0)) -ge $(($3 * 1000000)) ] &&
			[ $((t - t0)) -ge $((ms * 1000000)) ] && return 0
	done < <(exec timeout 120 tail --pid="$2" -n 0 -f "$1" 2>/dev/null)
	return 1
}

# record_launched JDK F ERR CPU_MS [record options]: perfjava record
# launches JDK's java running Workload (one worker, ticks; stdout F.out,
# stderr of both in ERR) into F.data, and ends it once its worker has had
# CPU_MS ms of CPU (its stop file, F.stop): as many samples whatever the
# load
record_launched() {
	local jdk=$1 f=$2 err=$3 ms=$4 rec pid
	shift 4
	touch "$f.go"
	: >"$f.out"
	"$PJ_BIN" record "$@" -o "$f.data" -- "$jdk/bin/java" -Dstop.file="$f.stop" \
		-cp "$CLASSES" Workload 300 1 "$f.go" ticks >"$f.out" 2>"$err" &
	rec=$!
	track $rec
	said "$f.out" "$rec" '^ready'
	pid=$(awk '/^ready/ { print $2; exit }' "$f.out")
	[ -n "$pid" ] && track "$pid" && worked "$f.out" "$pid" "$ms"
	touch "$f.stop"
	wait "$rec"
}

# The JVM's stderr: nothing of ours in it, the warning JDK 21+ prints on a
# dynamic agent load included (the agent silences it, agent/quiet.c)
jvm_own_stderr() {
	cat "$1"
}

# one_base FOLDED REGEX: for each thread of FOLDED (collapsed --threads)
# whose label matches REGEX, "SHARE SAMPLES THREAD ROOT": the share of its
# samples whose stack starts with its commonest root frame; the lowest first
one_base() {
	awk -v re="$2" '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
		if (f[1] !~ re) next
		t[f[1]] += n; r[f[1] SUBSEP (k > 1 ? f[2] : "-")] += n }
	END { for (key in r) { split(key, kk, SUBSEP)
			if (r[key] > best[kk[1]]) { best[kk[1]] = r[key]; root[kk[1]] = kk[2] } }
		for (th in t) printf "%.2f %d %s %s\n", 100 * best[th] / t[th], t[th], th, root[th] }' "$1" | sort -n
}

# asprof_build: sets ASPROF to async-profiler 4.5's asprof (and its
# jfrconv beside it), built from the peers' tarball (lib.sh peers_tarball)
# into $PJ_BUILD the first time (about 25 s); empty, with the reason in
# ASPROF_WHY, when it cannot be
asprof_build() {
	local dir=$PJ_BUILD/async-profiler-4.5
	# (done: written once make has built all of it; asprof comes before
	# jfrconv, which a test beside the one building may want)
	local done=$dir/.pj-built
	ASPROF=$dir/build/bin/asprof ASPROF_WHY=
	[ -f "$done" ] && [ -x "$ASPROF" ] && return 0
	if ! peers_tarball async-profiler-4.5.tar.gz; then
		ASPROF= ASPROF_WHY=$PEERS_WHY
		return 1
	fi
	echo "# building async-profiler from $PEERS_TGZ"
	(
		flock 9
		[ -f "$done" ] || { tar xzf "$PEERS_TGZ" -C "$PJ_BUILD" &&
			make -C "$dir" -j2 JAVA_HOME="${JDKS[0]}" >"$PJ_BUILD/ap-build.log" 2>&1 &&
			touch "$done"; }
	) 9>"$PJ_BUILD/.ap-build.lock"
	if [ ! -f "$done" ] || [ ! -x "$ASPROF" ]; then
		ASPROF= ASPROF_WHY="async-profiler did not build (see $PJ_BUILD/ap-build.log)"
		return 1
	fi
}

# leaf_share FOLDED THREAD_REGEX LEAF_REGEX [STACK_REGEX]: the percentage of
# the samples of the threads matching THREAD_REGEX (collapsed --threads, or
# async-profiler's -t) whose leaf frame matches LEAF_REGEX (and whose whole
# stack STACK_REGEX)
leaf_share() {
	awk -v th="$2" -v leaf="$3" -v st="${4:-}" '{ n = $NF; sub(/ [0-9]+$/, "")
		k = split($0, f, ";"); if (f[1] !~ th) next; t += n
		if (f[k] ~ leaf && (st == "" || $0 ~ st)) m += n }
		END { printf "%.2f\n", t ? 100 * m / t : 0 }' "$1"
}

# jdk_src_zip JDK: that JDK's lib/src.zip; JDK 17's is fetched from Debian
# (openjdk-17-source, downloaded and unpacked into $PJ_BUILD, not installed:
# installing it would upgrade the JDK) when it is not there
jdk_src_zip() {
	local z=$1/lib/src.zip cache=$PJ_BUILD/jdk-src
	[ -f "$z" ] && { echo "$z"; return 0; }
	case "$1" in *java-17-openjdk*) ;; *) return 1 ;; esac
	z=$cache/usr/lib/jvm/openjdk-17/lib/src.zip
	[ -f "$z" ] && { echo "$z"; return 0; }
	mkdir -p "$cache"
	(cd "$cache" && apt-get download openjdk-17-source >/dev/null 2>&1 &&
		dpkg-deb -x openjdk-17-source_*.deb . && rm -f openjdk-17-source_*.deb) || return 1
	[ -f "$z" ] && echo "$z"
}

jdk_name() { basename "$1" | sed -E 's/-amd64$//; s/-jdk$//'; }

# check_split LABEL OUT DATA FOLDED [PP]: Workload's methodA/B/C each
# attributed (in the collapsed FOLDED of DATA) within PP (default 3) pp, or
# three standard errors of the share when fewer samples make that wider, of
# the program's own CPU-clock truth over the window the recording's Workload
# samples cover (the JVM runs with -Dtruth.every)
# jvm_in_many JDK WHERE OUT DATA PID: the JVM PID (of JDK) in a recording
# of several processes (DATA): its Workload split within 5 pp of its own
# truth (OUT), >= 90% of its workers' samples with Java frames, its threads
# with its pid
jvm_in_many() {
	local label="$(jdk_name "$1") $2" out=$3 data=$4 pid=$5 f=$TMP/jvm.$5 wj
	"$PJ_BIN" report -i "$data" --pid "$pid" --format collapsed >"$f.folded"
	check_split "$label (pid $pid)" "$out" "$data" "$f.folded" 5
	"$PJ_BIN" report -i "$data" --pid "$pid" --threads --format collapsed >"$f.t"
	wj=$(awk '/^\[worker-/ { t += $NF; if ($0 ~ /_\[[j0i1]\]/) j += $NF }
		END { printf "%.1f", t ? 100 * j / t : 0 }' "$f.t")
	check "$label: >= 90% of its workers' samples have Java frames ($wj%)" \
		awk -v p="$wj" 'BEGIN { exit !(p >= 90) }'
	check "$label: its threads carry its pid" \
		grep -q "^\[worker-0 tid=[0-9]* pid=$pid\];" "$f.t"
}

check_split() {
	local label=$1 out=$2 data=$3 folded=$4 pp=${5:-3} m truth got win n
	stack_share "$folded" Workload.methodA Workload.methodB Workload.methodC >"$folded.share"
	n=$(awk '/Workload\.method[ABC]_/ { n += $NF } END { print n + 0 }' "$folded")
	win=$(sample_window "$data" 'Workload\.method[ABC] ')
	window_truth "$out" ${win:-0 0} Workload methodA methodB methodC >"$folded.truth"
	echo "# $label: truth over the recorded window $win (s), $n samples"
	for m in methodA methodB methodC; do
		truth=$(awk -v f="Workload.$m" '$1 == f { print $2 }' "$folded.truth")
		got=$(awk -v f="Workload.$m" '$1 == f { print $2 }' "$folded.share")
		echo "# $label $m truth $truth% measured $got% (whole run $(awk -v f="Workload.$m" \
			'$1 == "truth" && $2 == f { print $3 }' "$out")%)"
		check_share "$label: Workload.$m attributed" "$got" "$n" "$truth" "$pp"
	done
}

