#!/usr/bin/env bash
# Tomcat under ab: -e lock's top classes beside async-profiler 4.5's in the
# same JVM (issue 47). Debian's Tomcat 10 (/usr/share/tomcat10) with a base
# of its own in a temporary directory (its shipped configuration, the
# ROOT application, a free port, no shutdown port), ab -k at CONC clients
# on its front page throughout; then phases of SECONDS each in turn,
# ROUNDS times: perfjava (record -e lock/period=10000/), async-profiler
# (-e lock --lock 10000). Each profiler's time waited is summed by the
# lock's class (the leaf of --total collapsed stacks), and its top five
# classes are printed beside the other's with their shares; the line
# "agree" says whether both rank the same top classes (those over 5 % of
# either) in the same order, and the largest difference of share.
# Figures only: it never fails. PJ_BENCH_TC_SECONDS (5), PJ_BENCH_TC_ROUNDS
# (3), PJ_BENCH_TC_CONC (32).
set -u
. "$PJ_TOP/selftests/lib.sh"
. "$PJ_TOP/selftests/java/jvm.sh"
CH=/usr/share/tomcat10
[ -f "$CH/bin/bootstrap.jar" ] && [ -d /etc/tomcat10 ] ||
	{ echo "no Tomcat 10 (apt-get install tomcat10): skipped"; exit 0; }
command -v ab >/dev/null && command -v curl >/dev/null ||
	{ echo "no ab or curl (apt-get install apache2-utils curl): skipped"; exit 0; }
asprof_build >/dev/null || echo "# $ASPROF_WHY: perfjava alone"
secs=${PJ_BENCH_TC_SECONDS:-5}
rounds=${PJ_BENCH_TC_ROUNDS:-3}
conc=${PJ_BENCH_TC_CONC:-32}
warm=20000

# by_class FOLDED...: "SHARE CLASS" of the time waited, most first
by_class() {
	cat "$@" 2>/dev/null | awk '{ w = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
		c = f[k]; sub(/_\[[a-z0-9]\]$/, "", c); s[c] += w; t += w }
		END { for (c in s) printf "%.2f %s\n", 100 * s[c] / t, c }' | sort -rn
}

# served DIR N: whether the Tomcat of base DIR logged N requests or more
served() { [ "$(cat "$1"/logs/localhost_access_log.* 2>/dev/null | wc -l)" -ge "$2" ]; }

# base DIR PORT: a Tomcat base of its own in DIR, listening on PORT
base() {
	mkdir -p "$1"/{conf,logs,temp,work,webapps}
	cp -r /etc/tomcat10/. "$1/conf/"
	cp -r /var/lib/tomcat10/webapps/ROOT "$1/webapps/" 2>/dev/null ||
		{ mkdir -p "$1/webapps/ROOT" && echo hello >"$1/webapps/ROOT/index.html"; }
	sed -i -e "s/port=\"8080\"/port=\"$2\"/" -e 's/port="8005"/port="-1"/' "$1/conf/server.xml"
}

for jdk in "${JDKS[@]}"; do
	J=$(jdk_name "$jdk")
	D=$TMP/$J
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	base "$D/tc" "$port"
	(cd "$D/tc" && exec "$jdk/bin/java" -Xmx512m \
		-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager \
		-Djava.util.logging.config.file="$D/tc/conf/logging.properties" \
		-cp "$CH/bin/bootstrap.jar:$CH/bin/tomcat-juli.jar" \
		-Dcatalina.home="$CH" -Dcatalina.base="$D/tc" -Djava.io.tmpdir="$D/tc/temp" \
		org.apache.catalina.startup.Bootstrap start) >"$D/tc.out" 2>&1 &
	JPID=$!
	track "$JPID"
	if ! wait_for 60 curl -sf -o /dev/null "http://127.0.0.1:$port/"; then
		echo "# $J: Tomcat did not answer on port $port in 60 s"
		kill "$JPID" 2>/dev/null
		continue
	fi
	ab -k -c "$conc" -t 3600 -n 3000000 "http://127.0.0.1:$port/" >"$D/ab.out" 2>&1 &
	AB=$!
	track "$AB"
	# warm: the JIT and the pools settle over the first WARM requests
	# (counted in Tomcat's access log, which it writes as it goes)
	wait_for 120 served "$D/tc" "$warm" ||
		echo "# $J: fewer than $warm requests served in 120 s: measured anyway"
	for r in $(seq "$rounds"); do
		"$PJ_BIN" record -q -p "$JPID" -e lock/period=10000/ -d "$secs" -o "$D/pj$r.data" 2>"$D/pj$r.err"
		"$PJ_BIN" report -i "$D/pj$r.data" --total --format collapsed >"$D/pj$r.folded" 2>/dev/null
		if [ -n "${ASPROF:-}" ]; then
			"$ASPROF" -e lock --lock 10000 -d "$secs" -o collapsed --total \
				-f "$D/ap$r.folded" "$JPID" >"$D/ap$r.log" 2>&1
		fi
	done
	kill -INT "$AB" 2>/dev/null # ab prints its summary on SIGINT
	wait "$AB" 2>/dev/null
	kill "$JPID" 2>/dev/null
	wait "$JPID" 2>/dev/null
	by_class "$D"/pj*.folded >"$D/pj.classes"
	by_class "$D"/ap*.folded >"$D/ap.classes"
	pjn=$(cat "$D"/pj*.folded 2>/dev/null | wc -l) apn=$(cat "$D"/ap*.folded 2>/dev/null | wc -l)
	echo "# $J: Tomcat 10 under ab -k -c $conc, $rounds x $secs s each: lock time by class" \
		"(perfjava $pjn stacks, async-profiler $apn)"
	paste -d'|' <(head -5 "$D/pj.classes") <(head -5 "$D/ap.classes") |
		awk -F'|' '{ printf "#   perfjava %-60s | async-profiler %s\n", $1, $2 }'
	# the classes over 5 % of either, in each one's order, and the largest
	# difference of share between the two
	awk 'FNR == 1 { f++ } { s[f, $2] = $1; if ($1 >= 5) big[$2] = 1 }
		END { for (c in big) { d = s[1, c] - s[2, c]; if (d < 0) d = -d; if (d > m) { m = d; mc = c } }
			printf "%.2f %s\n", m, mc }' "$D/pj.classes" "$D/ap.classes" >"$D/diff"
	big=$(awk '$1 >= 5 { print $2 }' "$D/pj.classes" "$D/ap.classes" | sort -u | tr '\n' ' ')
	o1=$(awk -v b=" $big" 'index(b, " " $2 " ") { print $2 }' "$D/pj.classes" | tr '\n' ' ')
	o2=$(awk -v b=" $big" 'index(b, " " $2 " ") { print $2 }' "$D/ap.classes" | tr '\n' ' ')
	read -r m mc <"$D/diff"
	if [ "$o1" = "$o2" ]; then agree="the same top classes in the same order"; else agree="top classes differ: perfjava $o1/ async-profiler $o2"; fi
	echo "# $J: agree: $agree; largest difference of share ${m:-?} pp (${mc:-none})"
	echo "#   requests: $(grep -oE 'Complete requests: +[0-9]+' "$D/ab.out" || echo "(ab still running at its kill)")"
done
