#!/usr/bin/env bash
# The payload a continuous-profiling server would get from a --loop
# recording (the design in ARCHITECTURE.md, "Beyond one machine"): for each
# interval's file and each process in it, the report's pprof of that
# process, posted as Pyroscope's /ingest takes it (the query's name with
# the process's labels, from, until, format=pprof; the pprof in the
# multipart field "profile") to a stand-in server (ingest_server.go, Go's
# standard library), then read back with go tool pprof: a valid profile
# per interval and process, its sample type, time and duration those of
# its file, its samples those of report for that file and process, and
# all of them together the whole recording.
. "$(dirname "$0")/../lib.sh"

if ! need_go || ! command -v curl >/dev/null; then
	skip "push payload" "needs go (golang-go) and curl"
	exit 0
fi
pp() { go tool pprof "$@" 2>"$TMP/pprof.err"; }
if ! go build -o "$TMP/ingest" "$PJ_TOP/selftests/report/ingest_server.go" 2>"$TMP/build.err"; then
	not_ok "the stand-in server builds ($(head -1 "$TMP/build.err"))"
	exit 0
fi
mkdir -p "$TMP/l" "$TMP/srv"
"$TMP/ingest" "$TMP/srv" 2>"$TMP/srv.err" &
track $!
wait_for 10 test -s "$TMP/srv/port" || { not_ok "the stand-in server listens"; exit 0; }
port=$(cat "$TMP/srv/port")

"$PJ_BIN" record -q --loop 1 -d 3.5 -o "$TMP/l/app-%t.data" -- \
	"$PROGS/cpusplit" 5 2 >/dev/null 2>"$TMP/rec.err"
check "record --loop 1 -d 3.5: exit 0" [ $? -eq 0 ]

# What the pusher sends: each file, each process in it.
meta() { awk -v k="$2" '($1 == "meta" || $1 == "stat") && $2 == k { print $3 }' "$1"; }
sent=0 refused=0 files=0
: >"$TMP/expect"
host=$(hostname | tr -c 'A-Za-z0-9_.:/\n-' '_')
# a label value as the pusher cuts it, and the name as a query value
label() { printf '%s' "$1" | tr -c 'A-Za-z0-9_.:/-' '_' | cut -c1-128; }
urlenc() { printf '%s' "$1" | sed 's/{/%7B/g; s/}/%7D/g; s/=/%3D/g; s/,/%2C/g'; }
for f in "$TMP"/l/app-*.data; do
	files=$((files + 1))
	"$PJ_BIN" report -i "$f" --format meta >"$TMP/m"
	from=$(meta "$TMP/m" start_realtime)
	dur=$(meta "$TMP/m" duration_ns)
	until=$((from + (dur + 999999999) / 1000000000))
	# the processes of the file: "[comm pid=N]" rows of --processes
	"$PJ_BIN" report -i "$f" --processes --top 1000 >"$TMP/t"
	sed -n 's/^ *[0-9]* *[0-9.]*% *[0-9]* *\[\([^] ]*\) pid=\([0-9]*\).*/\1 \2/p' "$TMP/t" >"$TMP/procs"
	while read -r comm pid; do
		svc=$(label "$comm")
		"$PJ_BIN" report -i "$f" --pid "$pid" --format pprof -o "$TMP/p.pb.gz"
		n=$("$PJ_BIN" report -i "$f" --pid "$pid" | awk -F': ' '/^Samples/ { print $2 }')
		echo "$pid $from $dur $n" >>"$TMP/expect"
		name="$svc.cpu{pid=$pid,host=$host}"
		code=$(curl -s -o "$TMP/reply" -w '%{http_code}' -F "profile=@$TMP/p.pb.gz" \
			"http://127.0.0.1:$port/ingest?name=$(urlenc "$name")&from=$from&until=$until&format=pprof&sampleRate=100&spyName=perfjava")
		if [ "$code" = 200 ]; then sent=$((sent + 1)); else refused=$((refused + 1)); echo "# $code $(head -c 200 "$TMP/reply")"; fi
	done <"$TMP/procs"
done
check "every interval's payload taken by the server ($sent for $files files, $refused refused)" \
	[ "$sent" -ge 3 -a "$refused" -eq 0 ]

# What the server got, read by go tool pprof.
good=1 i=0
while read -r pid from dur n; do
	i=$((i + 1))
	q="$TMP/srv/$i.query" p="$TMP/srv/$i.pb.gz"
	if ! pp -raw "$p" >"$TMP/raw"; then
		good=0; echo "# $i: $(head -1 "$TMP/pprof.err")"; continue
	fi
	grep -q '^PeriodType: cpu nanoseconds' "$TMP/raw" || { good=0; echo "# $i: period type"; }
	t=$(sed -n 's/^Time: \([0-9-]* [0-9:]*\).*/\1/p' "$TMP/raw")
	[ "$(date -u -d "$t" +%s)" = "$from" ] || { good=0; echo "# $i: time $t, not $from"; }
	# pprof prints the duration cut to 4 characters ("933." of 933.7ms,
	# "1.00" of 1.002s): the file's, cut so in one of its units
	d=$(sed -n 's/^Duration: //p' "$TMP/raw")
	awk -v d="$d" -v e="$dur" 'BEGIN {
		k = index(d, "."); q = k ? 10 ^ -(length(d) - k) : 1
		for (u = 1e3; u <= 1e9; u *= 1e3)
			if (e / u >= d && e / u < d + q) exit 0
		exit 1 }' || { good=0; echo "# $i: duration $d, not $dur ns"; }
	s=$(pp -top -sample_index=samples "$p" | sed -n 's/.*of \([0-9]*\) total.*/\1/p')
	[ "${s:-x}" = "$n" ] || { good=0; echo "# $i: $s samples, report says $n"; }
	pp -tags "$p" >"$TMP/tags"
	awk '/ pid: /{ t = 1; next } t && /%\)/ { print $NF } /^$/{ t = 0 }' "$TMP/tags" | sort -u >"$TMP/pids"
	[ "$(cat "$TMP/pids")" = "$pid" ] || { good=0; echo "# $i: pids $(tr '\n' ' ' <"$TMP/pids"), not $pid"; }
	grep -q "^name=.*pid=$pid," "$q" && grep -q "^from=$from$" "$q" ||
		{ good=0; echo "# $i: query $(tr '\n' '&' <"$q")"; }
done <"$TMP/expect"
check "each payload: a pprof of its interval and process (type, time, duration, samples, pid)" \
	[ "$good" -eq 1 -a "$i" -eq "$sent" ]
all=$("$PJ_BIN" report "$TMP"/l/app-*.data | awk -F': ' '/^Samples/ { print $2 }')
got=$(pp -top -sample_index=samples "$TMP"/srv/*.pb.gz | sed -n 's/.*of \([0-9]*\) total.*/\1/p')
check "the payloads together are the whole recording ($got samples, report of the files $all)" \
	[ "${got:-x}" = "$all" ]
