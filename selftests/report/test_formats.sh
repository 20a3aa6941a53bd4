#!/usr/bin/env bash
# Every report format and filter on the known-content profile of
# selftests/unit/test_report.c (A: 6 samples tid 10, B: 3 tid 11, C: 1 tid 10,
# D: 2 tid 11, 1 ms apart from t=0): filters give exact counts in every
# format; pprof is decoded by `go tool pprof` and agrees with the text report;
# script is parsed back (stackcollapse-perf.pl's way) into the collapsed stacks; the
# format follows the -o extension; --diff tables the changed shares.
. "$(dirname "$0")/../lib.sh"

gen=$PJ_BUILD/selftests/test_report
if [ ! -x "$PJ_BIN" ] || [ ! -x "$gen" ]; then
	skip "report formats" "build $PJ_BIN and $gen first"
	exit 0
fi
"$gen" --make-profile "$TMP/p.data" && "$gen" --make-old-profile "$TMP/old.data" ||
	{ not_ok "write the test profiles"; exit 0; }
rep() { "$PJ_BIN" report -i "$TMP/p.data" "$@"; }
# count ARGS...: total samples of the collapsed report with ARGS
count() { rep --format collapsed "$@" | awk '{ n += $NF } END { print n + 0 }'; }
expect() { # expect DESC WANT ARGS...
	local d=$1 want=$2; shift 2
	local got; got=$(count "$@")
	if [ "$got" = "$want" ]; then ok "$d: $want"; else not_ok "$d: want $want, got $got"; fi
}

expect "no filter" 12
expect "--tid 11" 5 --tid 11
expect "--tid 10,11" 12 --tid 10,11
expect "--tid 99" 0 --tid 99
expect "--include 'App\\.c1'" 3 --include 'App\.c1'
expect "--exclude '^App'" 3 --exclude '^App'
expect "--include App --exclude inner" 3 --include App --exclude inner
expect "--include kernel frame by suffix" 3 --include '_\[k\]$'
expect "--from 0.005 --to 0.009" 4 --from 0.005 --to 0.009
expect "--from 0.010" 2 --from 0.010
expect "--event cpu-clock" 12 --event cpu-clock
expect "--threads --tid 10" 7 --threads --tid 10
check "--from/--to picks the exact stacks" \
	eval '[ "$(rep --format collapsed --from 0.005 --to 0.009 | sort | tr "\n" "|")" = "start_thread;App.main_[0];App.c1_[1];do_syscall_64_[k] 3|start_thread;App.main_[0];App.work_[j];App.inner_[i] 1|" ]'
check "--total weighs by period (11 ms)" eval '[ "$(count --total)" = 11000000 ]'
check "--reverse: every line starts at its leaf" \
	eval '[ "$(rep --format collapsed --reverse | cut -d";" -f1 | cut -d" " -f1 | sort | tr "\n" " ")" = "App.inner_[i] [unknown] do_syscall_64_[k] weird,name " ]'

# The same filters in the other formats.
rep --format tree --tid 11 >"$TMP/tree.txt"
check "tree --tid 11: all is 5 samples, App.c1 3 (60%)" \
	eval 'grep -Eq "^ 100.00% +0.00% +5  all$" "$TMP/tree.txt" && grep -Eq "^  60.00% +0.00% +3 +App.c1$" "$TMP/tree.txt"'
rep --format tree --minwidth 20 >"$TMP/tree.txt"
check "tree --minwidth 20 drops frames under 20%" \
	eval '[ "$(wc -l <"$TMP/tree.txt")" -eq 8 ] && ! grep -q "libfoo\|unknown" "$TMP/tree.txt"'
rep --format flame --include 'App\.c1' -o "$TMP/f.html"
check "flame --include: the page holds the 3 matching samples" grep -q '^total: 3,' "$TMP/f.html"
rep --format flame --minwidth 20 -o "$TMP/f.html"
check "flame --minwidth 20: small frames are not in the page" \
	eval '! grep -q "libfoo\|unknown" "$TMP/f.html" && grep -q "App.inner" "$TMP/f.html"'
check "script --tid 11 --from 0.007: 4 samples" \
	eval '[ "$(rep --format script --tid 11 --from 0.007 | grep -c "^worker 10/11 ")" -eq 4 ]'
check "text --exclude App: 3 samples" \
	eval 'rep --exclude App | grep -q "^Samples             : 3$"'

# script, parsed back perf-script style, gives the collapsed stacks.
rep --format script >"$TMP/s.txt"
check "script: one header per sample with time, cpu, tid, thread, period, event" \
	eval '[ "$(grep -Ec "^(main 10/10|worker 10/11) \[000\] 1\.0[01][0-9]000: (1000000|500000) cpu-clock:$" "$TMP/s.txt")" -eq 12 ]'
awk '
/^[^\t].*: [0-9]+ [^ ]+:/ { n = 0; next }
/^\t/ {
	sub(/^\t *[0-9a-f]+ /, ""); o = $0; sub(/.* \(/, "", o); sub(/\)$/, "", o)
	sub(/ \([^()]*\)$/, ""); gsub(/;/, ",")
	if ($0 == "[unknown]" && o != "[unknown]") { sub(/.*\//, "", o); $0 = "[" o "]" }
	f[n++] = $0; next
}
/^$/ { if (n) { s = f[n - 1]; for (i = n - 2; i >= 0; i--) s = s ";" f[i]; c[s]++ } n = 0 }
END { for (s in c) print s, c[s] }' "$TMP/s.txt" | sort >"$TMP/from_script.txt"
rep --format collapsed | sed -E 's/_\[[kji01]\]//g' | sort >"$TMP/from_collapsed.txt"
check "script parsed back equals the collapsed stacks" cmp -s "$TMP/from_script.txt" "$TMP/from_collapsed.txt"

# The format follows the -o extension.
rep -o "$TMP/x.collapsed" && rep -o "$TMP/x.folded" && rep -o "$TMP/x.txt" && rep -o "$TMP/x.pb.gz" && rep -o "$TMP/x.html"
check "-o .collapsed/.folded: folded stacks" \
	eval 'cmp -s "$TMP/x.collapsed" "$TMP/x.folded" && grep -q "^\[unknown\] 2$" "$TMP/x.collapsed"'
check "-o .txt: text" grep -q "^--- perfjava profile ---" "$TMP/x.txt"
check "-o .pb.gz: gzip" eval '[ "$(head -c2 "$TMP/x.pb.gz" | od -An -tx1 | tr -d " ")" = 1f8b ]'
check "-o .html: flame graph" grep -q "window.flame" "$TMP/x.html"

# --diff: the text table of changed shares.
rep --diff "$TMP/old.data" >"$TMP/d.txt"
check "--diff text: App.c1 total 60% -> 25% first, App.inner self 20% -> 50%" \
	eval 'grep -A1 "old%" "$TMP/d.txt" | tail -1 | grep -Eq "^ +60.00 +25.00 +-35.00 +0.00 +0.00 +\+0.00  App.c1$" &&
	grep -Eq "^ +20.00 +50.00 +\+30.00 +20.00 +50.00 +\+30.00  App.inner$" "$TMP/d.txt"'
rep --diff "$TMP/old.data" --format collapsed >/dev/null 2>"$TMP/err"
rc=$?
check "--diff with collapsed: exit 2, says which formats" \
	eval '[ $rc -eq 2 ] && grep -q "flame or text" "$TMP/err"'
rep --include '([' >/dev/null 2>"$TMP/err"
rc=$?
check "a bad regex: exit 2, one line" \
	eval '[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "not a regular expression" "$TMP/err"'
rep --from 2 --to 1 >/dev/null 2>"$TMP/err"
rc=$?
check "--to before --from: exit 2" eval '[ $rc -eq 2 ] && grep -q "not after" "$TMP/err"'
rep --tid abc >/dev/null 2>"$TMP/err"
rc=$?
check "--tid abc: exit 2" eval '[ $rc -eq 2 ] && grep -q "thread ids" "$TMP/err"'

# pprof, decoded by Go's pprof, agrees with the text report.
if ! need_go; then
	skip "pprof decoded by go tool pprof" "cannot install golang-go: $(tail -1 "$TMP/apt.log")"
	exit 0
fi
pp() { go tool pprof "$@" 2>"$TMP/pprof.err"; }
# Text leaf table rows: "weight percent samples name" -> "name samples percent"
# (pprof marks kernel frames by their mapping, not by a _[k] suffix).
rep --top 100 | awk '/^  ----------/ { t = 1; next } t && NF >= 4 { n = $4; for (i = 5; i <= NF; i++) n = n " " $i; sub(/_\[k\]$/, "", n); print n, $3, $2 }' | sort >"$TMP/text_flat.txt"
pp -top -nodecount=100 -sample_index=samples "$TMP/x.pb.gz" >"$TMP/top_s.txt"
pp -top -nodecount=100 -sample_index=cpu "$TMP/x.pb.gz" >"$TMP/top_c.txt"
check "go tool pprof reads it: samples and cpu types" \
	eval 'grep -q "^Type: samples" "$TMP/top_s.txt" && grep -q "^Type: cpu" "$TMP/top_c.txt" && grep -q "Total samples = 11ms" "$TMP/top_c.txt"'
# pprof -top rows: flat flat% sum% cum cum% name; keep frames with self time.
join -j1 <(awk '$1 ~ /^[0-9]+$/ && $1 > 0 { n = $6; for (i = 7; i <= NF; i++) n = n " " $i; print n "|" $1 }' "$TMP/top_s.txt" | sort) \
	<(awk '$1 ~ /ms$/ && $1 != "0" { n = $6; for (i = 7; i <= NF; i++) n = n " " $i; print n "|" $2 }' "$TMP/top_c.txt" | sort) -t'|' |
	awk -F'|' '{ print $1, $2, $3 }' | sort >"$TMP/pprof_flat.txt"
check "pprof -top flat samples and percent equal the text report's leaf table" \
	eval '[ -s "$TMP/text_flat.txt" ] && cmp -s "$TMP/text_flat.txt" "$TMP/pprof_flat.txt"'
cmp -s "$TMP/text_flat.txt" "$TMP/pprof_flat.txt" || { echo "# text:"; sed 's/^/# /' "$TMP/text_flat.txt"; echo "# pprof:"; sed 's/^/# /' "$TMP/pprof_flat.txt"; }
pp -traces "$TMP/x.pb.gz" >"$TMP/traces.txt"
check "pprof samples carry thread and tid labels" \
	eval 'grep -q "thread:  main" "$TMP/traces.txt" && grep -q "tid:  11" "$TMP/traces.txt"'
pp -list 'App.inner' "$TMP/x.pb.gz" >"$TMP/list.txt"
check "pprof functions carry their file" grep -q "App.java" "$TMP/list.txt"
pp -raw "$TMP/x.pb.gz" >"$TMP/raw.txt"
check "pprof: kernel frames in [kernel.kallsyms], named without _[k]" \
	eval 'grep -qE "^ +[0-9]+: 0x0 M=([0-9]+) do_syscall_64 " "$TMP/raw.txt" && ! grep -q "_\[k\]" "$TMP/raw.txt" && m=$(sed -nE "s/^ +[0-9]+: 0x0 M=([0-9]+) do_syscall_64 .*/\1/p" "$TMP/raw.txt") && grep -qE "^$m: .* \[kernel.kallsyms\]" "$TMP/raw.txt"'
rep --lines -o "$TMP/l.pb.gz"
pp -top -lines -nodecount=100 "$TMP/l.pb.gz" >"$TMP/lines.txt"
check "pprof --lines: lines in Line entries (pprof -lines shows App.java:30), not in names" \
	eval 'grep -qE "App.inner App.java:30( |$)" "$TMP/lines.txt" && ! grep -q "App.inner:30" "$TMP/lines.txt"'
rep --tid 11 -o "$TMP/t11.pb.gz"
pp -top -sample_index=samples "$TMP/t11.pb.gz" >"$TMP/top11.txt"
check "pprof --tid 11: 5 samples" grep -q "Total samples = 5" "$TMP/top11.txt"
rep --total --format pprof -o "$TMP/tot.pb.gz"
pp -top "$TMP/tot.pb.gz" >"$TMP/toptot.txt"
check "pprof --total: the default type is the weight" grep -q "^Type: cpu" "$TMP/toptot.txt"
