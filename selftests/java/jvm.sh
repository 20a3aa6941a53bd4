# Helpers for Java tests: compile the suite's Java sources once, start JVMs.
# Source after lib.sh.
JDKS=()
for j in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
	[ -x "$j/bin/java" ] && JDKS+=("$j")
done
CLASSES=$PJ_BUILD/java-classes

# compile_java: javac (release 17, so both JDKs run it) into $CLASSES
compile_java() {
	local javac=${JDKS[0]}/bin/javac src=$PJ_TOP/selftests/java/src
	mkdir -p "$CLASSES"
	if [ -z "$(find "$src" -name '*.java' -newer "$CLASSES/.stamp" 2>/dev/null)" ] &&
		[ -e "$CLASSES/.stamp" ]; then
		return 0
	fi
	"$javac" --release 17 -d "$CLASSES" "$src"/*.java && touch "$CLASSES/.stamp"
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
	"$jdk/bin/java" "${flags[@]}" -cp "$CLASSES" "$@" >"$out" 2>"$out.err" &
	JWAIT=$!
	track $JWAIT
	wait_for 30 grep -q '^ready' "$out"
	JPID=$(awk '/^ready/ { print $2; exit }' "$out")
	[ -n "$JPID" ] && track "$JPID"
}

# The JVM's stderr without the warning JDK 21+ prints itself on the first
# dynamic agent load (not ours to silence; -XX:+EnableDynamicAgentLoading does)
jvm_own_stderr() {
	grep -vE '^WARNING: (A JVM ?TI agent has been loaded dynamically|If a serviceability tool is in use|Dynamic loading of agents will be disallowed)' "$1" || true
}

jdk_name() { basename "$1" | sed -E 's/-amd64$//; s/-jdk$//'; }

# check_split LABEL OUT FOLDED: Workload's methodA/B/C each attributed (in
# the collapsed FOLDED) within 5 pp of the truth the program printed in OUT
check_split() {
	local label=$1 out=$2 folded=$3 m truth got
	stack_share "$folded" Workload.methodA Workload.methodB Workload.methodC >"$folded.share"
	for m in methodA methodB methodC; do
		truth=$(awk -v f="Workload.$m" '$1 == "truth" && $2 == f { print $3 }' "$out")
		got=$(awk -v f="Workload.$m" '$1 == f { print $2 }' "$folded.share")
		echo "# $label $m truth $truth% measured $got%"
		check "$label: Workload.$m attributed within 5 pp (truth $truth, got $got)" \
			pct_within "$truth" "$got" 5
	done
}
