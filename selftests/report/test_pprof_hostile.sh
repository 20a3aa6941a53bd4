#!/usr/bin/env bash
# pprof output reads the native frames' files on the reporting machine
# (report/elffile.c), as root, by the paths the recording names: a file
# replaced since by a truncated or garbled copy, a FIFO, a directory, a
# symlink to a device or to itself, or nothing at all: the report neither
# hangs nor fails nor says anything of it, and what is not ELF is skipped
# (its mapping by name, no address).
. "$(dirname "$0")/../lib.sh"

prog=$PJ_BUILD/progs/cpusplit
if [ ! -x "$PJ_BIN" ] || [ ! -x "$prog" ]; then
	skip "pprof with hostile files" "build $PJ_BIN and $prog first"
	exit 0
fi
mkdir -p "$TMP/bin"
cp "$prog" "$TMP/bin/cs"
if ! "$PJ_BIN" record -q -o "$TMP/cs.data" -- "$TMP/bin/cs" 1 1 >"$TMP/cs.out" 2>"$TMP/cs.err"; then
	not_ok "record $prog ($(head -1 "$TMP/cs.err"))"
	exit 0
fi
"$PJ_BIN" report -i "$TMP/cs.data" -o "$TMP/good.pb.gz" 2>"$TMP/good.err"
size=$(stat -c %s "$TMP/bin/cs")

# replace FILE HOW: the recorded binary's path now holds something else
replace() {
	rm -rf "$TMP/bin/cs"
	case $1 in
	truncated) head -c $((size / 3)) "$prog" >"$TMP/bin/cs" ;;
	headers) head -c 64 "$prog" >"$TMP/bin/cs" ;;
	garbage) head -c 4096 /dev/urandom | cat <(head -c 16 "$prog") - >"$TMP/bin/cs" ;;
	fifo) mkfifo "$TMP/bin/cs" ;;
	directory) mkdir "$TMP/bin/cs" ;;
	device) ln -s /dev/zero "$TMP/bin/cs" ;;
	loop) ln -s "$TMP/bin/cs" "$TMP/bin/cs" ;;
	gone) ;;
	esac
}

for how in truncated headers garbage fifo directory device loop gone; do
	replace "$how"
	timeout 60 "$PJ_BIN" report -i "$TMP/cs.data" -o "$TMP/$how.pb.gz" 2>"$TMP/$how.err"
	rc=$?
	err=$(head -c 200 "$TMP/$how.err" | tr '\n' ' ')
	check "$how: pprof written, nothing said (exit $rc${err:+, $err})" \
		eval '[ $rc -eq 0 ] && [ -s "$TMP/$how.pb.gz" ] && [ ! -s "$TMP/$how.err" ]'
done
# what is not ELF at all gives the report of a file not here: no address,
# no segment, no build-id (a truncated copy may keep its headers' segment)
ref=$TMP/gone.pb.gz
same=""
for how in garbage fifo directory device loop; do
	cmp -s <(gzip -dc "$TMP/$how.pb.gz") <(gzip -dc "$ref") || same="$same $how"
done
check "each is skipped as a file not on this machine${same:+ (differs:$same)}" \
	eval '[ -z "$same" ]'
check "the file itself gave more (its addresses): the case is real" \
	eval '! cmp -s <(gzip -dc "$TMP/good.pb.gz") <(gzip -dc "$ref")'
echo "1..$_tap_n"
