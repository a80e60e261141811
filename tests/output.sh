#!/bin/bash
# Where the report goes, and that writing it never destroys anything:
#  - --output-file - is standard output (no file named "-");
#  - an existing target that is not a regular file (symlink, a /dev/stdout
#    look-alike, device node, FIFO, socket, directory) is refused, exit 2,
#    one line, before the audit: the target and its directory untouched;
#  - the new file keeps the replaced file's mode and owner, else 0666 & ~umask;
#  - a write error (stdout on /dev/full, --output-file on a full tmpfs) exits 2
#    with the errno's own message in every format, no temporary left;
#  - SIGTERM, SIGINT or SIGHUP while the temporary exists removes it and ends
#    the tool by the signal (the hidden --test-stop-before-rename times it).
# Device nodes and the tmpfs need root: without it those cases are skipped.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
full=
cleanup() {
	[ -n "$full" ] && umount "$full" 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
FIXTURE_TMP=$tmp/fixtures
good=$(fixture_root x86-pc-4g) || exit 99
formats="text json prometheus"
root=false
[ "$(id -u)" -eq 0 ] && root=true

# the plain stdout run of each format, to compare with
for f in $formats; do
	"$TOOL" --sysroot "$good" --format "$f" > "$tmp/stdout.$f" 2> /dev/null
done
"$TOOL" --sysroot "$good" > /dev/null 2>&1
rc0=$?

# ---- (a) - is standard output ----
mkdir "$tmp/cwd" || exit 99
for f in $formats; do
	(cd "$tmp/cwd" && exec "$TOOL" --sysroot "$good" --format "$f" --output-file - \
		> "$tmp/dash.$f" 2> "$tmp/dash.err")
	rc=$?
	check "--output-file - ($f): exits like the stdout run ($rc)" test "$rc" -eq "$rc0"
	check "--output-file - ($f): the same bytes as stdout" same_report "$tmp/stdout.$f" "$tmp/dash.$f"
	check "--output-file - ($f): nothing on stderr" test ! -s "$tmp/dash.err"
done
check "--output-file -: no file named '-' (nor anything else) created" test -z "$(ls -A "$tmp/cwd")"

# ---- (b) what is not a regular file is refused ----
ref=$tmp/ref
mkdir "$ref" || exit 99
echo "a file a link points to" > "$ref/pointed"

# refused NAME DESC KIND: --output-file on $ref/NAME, exit 2, one line naming
# KIND, nothing on stdout, NAME still the same inode and type, nothing created
refused() {
	local t="$ref/$1" d="$2" kind="$3" before after rc
	before="$(stat -c '%i %F' "$t") $(ls -A "$ref" | tr '\n' ' ')"
	# timeout: a FIFO opened for writing would block until a reader came
	timeout 10 "$TOOL" --sysroot "$good" --format prometheus --output-file "$t" \
		> "$tmp/ref.out" 2> "$tmp/ref.err"
	rc=$?
	after="$(stat -c '%i %F' "$t") $(ls -A "$ref" | tr '\n' ' ')"
	check "$d: exit 2 ($rc)" test "$rc" -eq 2
	check "$d: one line on stderr" test "$(wc -l < "$tmp/ref.err")" -eq 1
	check "$d: ... saying it is $kind" \
		grep -q -- "^dmamask-audit: --output-file $t: $kind; only a regular file is replaced\$" "$tmp/ref.err"
	check "$d: nothing on stdout" test ! -s "$tmp/ref.out"
	check "$d: the target untouched, nothing created beside it" test "$before" = "$after"
	diag < "$tmp/ref.err"
}

ln -s pointed "$ref/link"
refused link "a symlink to a regular file" "a symbolic link"
check "a symlink to a regular file: the file it points to untouched" \
	test "$(cat "$ref/pointed")" = "a file a link points to"
ln -s /proc/self/fd/1 "$ref/stdout"
refused stdout "a /dev/stdout look-alike (-> /proc/self/fd/1)" "a symbolic link"
ln -s "$ref/no-such-file" "$ref/dangling"
refused dangling "a dangling symlink" "a symbolic link"
if $root && mknod "$ref/null" c 1 3 2> /dev/null; then
	refused null "a character device (mknod c 1 3)" "a character device"
else
	skip "a character device: mknod needs root"
fi
mkfifo "$ref/fifo" || exit 99
refused fifo "a FIFO (never opened: it would block)" "a FIFO"
if "$PYTHON" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$ref/socket"; then
	refused socket "a unix socket" "a socket"
else
	skip "a unix socket: python3 could not bind one"
fi
mkdir "$ref/dir" || exit 99
refused dir "a directory" "a directory"
check "a directory: still empty" test -z "$(ls -A "$ref/dir")"

timeout 10 "$TOOL" --sysroot "$good" --capture "$tmp/cap" --output-file "$ref/fifo" > /dev/null 2>&1
rc=$?
check "refused before the audit: exit 2 ($rc)" test "$rc" -eq 2
check "refused before the audit: --capture wrote nothing" test ! -e "$tmp/cap"

# ---- (c) the new file's mode and owner ----
md=$tmp/mode
mkdir "$md" || exit 99
(umask 027 && exec "$TOOL" --sysroot "$good" --output-file "$md/new" > /dev/null 2>&1)
check "a new file with umask 027 gets 0640 ($(stat -c %a "$md/new" 2> /dev/null))" \
	test "$(stat -c %a "$md/new" 2> /dev/null)" = 640
(umask 077 && exec "$TOOL" --sysroot "$good" --output-file "$md/new077" > /dev/null 2>&1)
check "a new file with umask 077 gets 0600 ($(stat -c %a "$md/new077" 2> /dev/null))" \
	test "$(stat -c %a "$md/new077" 2> /dev/null)" = 600
echo old > "$md/secret"
chmod 600 "$md/secret"
ino=$(stat -c %i "$md/secret")
(umask 022 && exec "$TOOL" --sysroot "$good" --output-file "$md/secret" > /dev/null 2>&1)
check "an existing 0600 file stays 0600 under umask 022 ($(stat -c %a "$md/secret"))" \
	test "$(stat -c %a "$md/secret")" = 600
check "... replaced by a new file (inode $ino -> $(stat -c %i "$md/secret"))" \
	test "$(stat -c %i "$md/secret")" != "$ino"
check "... holding the report" cmp -s "$tmp/stdout.text" "$md/secret"
if $root; then
	echo old > "$md/theirs"
	chown 65534:65534 "$md/theirs" && chmod 640 "$md/theirs"
	"$TOOL" --sysroot "$good" --output-file "$md/theirs" > /dev/null 2>&1
	check "root replacing another user's 0640 file keeps its owner and group ($(stat -c '%u:%g %a' "$md/theirs"))" \
		test "$(stat -c '%u:%g %a' "$md/theirs")" = "65534:65534 640"
else
	skip "the replaced file's owner: giving a file away needs root"
fi
check "no temporary left beside them" \
	test "$(ls -A "$md" | tr '\n' ' ')" = "new new077 secret theirs " -o "$(ls -A "$md" | tr '\n' ' ')" = "new new077 secret "

# ---- (d) write errors: the errno's own message, in every format ----
# write_fails DESC STDOUT ARGS...: exit 2, one line on stderr naming ENOSPC
write_fails() {
	local d="$1" out="$2" rc; shift 2
	timeout 10 "$TOOL" "$@" > "$out" 2> "$tmp/wf.err"
	rc=$?
	check "$d: exit 2 ($rc)" test "$rc" -eq 2
	check "$d: one line on stderr" test "$(wc -l < "$tmp/wf.err")" -eq 1
	check "$d: ... No space left on device" grep -q ': No space left on device$' "$tmp/wf.err"
	diag < "$tmp/wf.err"
}
write_fails "--list-columns on /dev/full" /dev/full --list-columns
for f in $formats; do
	write_fails "stdout on /dev/full ($f)" /dev/full --sysroot "$good" --format "$f"
	write_fails "--output-file - on /dev/full ($f)" /dev/full --sysroot "$good" --format "$f" --output-file -
done

full=$tmp/full
mkdir "$full" || exit 99
if $root && mount -t tmpfs -o size=16k,mode=0755 dmamask-test "$full" 2> "$tmp/mount.err"; then
	# fill it: the first block the report writes has no room
	dd if=/dev/zero of="$full/fill" bs=4k 2> /dev/null
	for f in $formats; do
		write_fails "--output-file on a full tmpfs ($f)" /dev/null --sysroot "$good" --format "$f" \
			--output-file "$full/dmamask.out"
		check "--output-file on a full tmpfs ($f): the message names the file" \
			grep -q "^dmamask-audit: --output-file $full/dmamask.out: " "$tmp/wf.err"
		check "--output-file on a full tmpfs ($f): no temporary left" test "$(ls -A "$full")" = fill
	done
	# the JSON report (~18k) fails part-way: some blocks are written, then ENOSPC
	rm -f "$full/fill"
	echo old > "$full/dmamask.out"
	write_fails "a report larger than the tmpfs (json)" /dev/null --sysroot "$good" \
		--format json --output-file "$full/dmamask.out"
	check "... the old report untouched" test "$(cat "$full/dmamask.out")" = old
	check "... no temporary left" test "$(ls -A "$full")" = dmamask.out
	umount "$full" && full=
else
	skip "a full filesystem: cannot mount a 16k tmpfs ($( (id -un; cat "$tmp/mount.err") 2> /dev/null | tr '\n' ' '))"
	full=
fi

# ---- (e) a signal while the temporary exists ----
# stopped PID: true once PID has stopped itself (state T), within ~10 s
stopped() {
	local _ s
	for _ in $(seq 200); do
		s=$(sed 's/.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f1) || return 1
		[ "$s" = T ] && return 0
		[ -z "$s" ] && return 1
		sleep 0.05
	done
	return 1
}

# signalled SIG [ignored]: the tool stops with its temporary written; SIG,
# then SIGCONT. Default action: it ends by SIG and removes the temporary.
# Ignored (as under nohup): SIG changes nothing, the report is renamed into place.
signalled() {
	local sig=$1 how=${2:-default} sd="$tmp/sig-$1-${2:-default}" pid rc ino
	mkdir "$sd" || return
	echo old > "$sd/dmamask.prom"
	ino=$(stat -c %i "$sd/dmamask.prom")
	# a background job of a script starts with SIGINT ignored: set it explicitly
	if [ "$how" = ignored ]; then
		set -- env --ignore-signal="$sig"
	else
		set -- env --default-signal="$sig"
	fi
	"$@" "$TOOL" --sysroot "$good" --format prometheus --output-file "$sd/dmamask.prom" \
		--test-stop-before-rename > "$sd.out" 2> "$sd.err" &
	pid=$!
	if stopped "$pid"; then
		ok "SIG$sig ($how): the tool stops with its temporary written"
	else
		not_ok "SIG$sig ($how): the tool stops with its temporary written"
		kill -KILL "$pid" 2> /dev/null
	fi
	check "SIG$sig ($how): ... beside the old report" test "$(ls -A "$sd" | wc -l)" -eq 2
	check "SIG$sig ($how): ... which is complete" \
		same_report "$tmp/stdout.prometheus" "$(ls -d "$sd"/dmamask.prom.?????? 2> /dev/null | head -1)"
	kill -"$sig" "$pid"
	kill -CONT "$pid"
	wait "$pid" 2> /dev/null # not bash's "Hangup" line
	rc=$?
	if [ "$how" = ignored ]; then
		check "SIG$sig ($how): the tool ends normally ($rc)" test "$rc" -eq "$rc0"
		check "SIG$sig ($how): the new report in place" same_report "$tmp/stdout.prometheus" "$sd/dmamask.prom"
	else
		check "SIG$sig ($how): the tool ends by the signal ($rc)" test "$rc" -eq $((128 + $(kill -l "$sig")))
		check "SIG$sig ($how): the old report untouched" \
			test "$(cat "$sd/dmamask.prom"):$(stat -c %i "$sd/dmamask.prom")" = "old:$ino"
		check "SIG$sig ($how): nothing on stderr" test ! -s "$sd.err"
	fi
	check "SIG$sig ($how): no temporary left" test "$(ls -A "$sd")" = dmamask.prom
}
signalled TERM
signalled INT
signalled HUP
signalled HUP ignored

# Colour by meaning (issue 12.6): fails and errors red, partial/forced and
# warnings yellow, direct green; --color=auto only on a terminal, never with
# NO_COLOR set or TERM=dumb (util-linux colors.c, no-color.org).
noforce=$(fixture_root x86-noforce) || exit 99
ESC=$(printf '\033')
"$TOOL" --sysroot "$noforce" --color=always > "$tmp/colour.txt" 2>&1
check "colour: fails is red" grep -q "${ESC}\[31mfails" "$tmp/colour.txt"
check "colour: an error finding is red" grep -q "${ESC}\[31merror" "$tmp/colour.txt"
"$TOOL" --sysroot "$good" --color=always > "$tmp/colour.txt" 2>&1
check "colour: partial is yellow, direct green" bash -c \
	'grep -Eq "$1\[(1;)?33mpartial" "$2" && grep -q "$1\[32mdirect" "$2"' _ "$ESC" "$tmp/colour.txt"
"$TOOL" --sysroot "$noforce" > "$tmp/colour.txt" 2>&1
check "colour: none into a pipe" bash -c '! grep -q "$1" "$2"' _ "$ESC" "$tmp/colour.txt"
if command -v script > /dev/null && script -qc true /dev/null > /dev/null 2>&1; then
	tty_run() { script -qc "$*" /dev/null; }
	TERM=xterm tty_run "$TOOL" --sysroot "$noforce" > "$tmp/colour.txt" 2>&1
	check "colour: auto on a terminal" grep -q "$ESC" "$tmp/colour.txt"
	NO_COLOR=1 TERM=xterm tty_run "$TOOL" --sysroot "$noforce" > "$tmp/colour.txt" 2>&1
	check "colour: none with NO_COLOR" bash -c '! grep -q "$1" "$2"' _ "$ESC" "$tmp/colour.txt"
	NO_COLOR= TERM=xterm tty_run "$TOOL" --sysroot "$noforce" > "$tmp/colour.txt" 2>&1
	check "colour: an empty NO_COLOR does not count" grep -q "$ESC" "$tmp/colour.txt"
	TERM=dumb tty_run "$TOOL" --sysroot "$noforce" > "$tmp/colour.txt" 2>&1
	check "colour: none with TERM=dumb" bash -c '! grep -q "$1" "$2"' _ "$ESC" "$tmp/colour.txt"
	NO_COLOR=1 tty_run "$TOOL" --sysroot "$noforce" --color=always > "$tmp/colour.txt" 2>&1
	check "colour: --color=always wins over NO_COLOR" grep -q "$ESC" "$tmp/colour.txt"
else
	skip "colour on a terminal (needs script from util-linux)"
fi
# ---- DEVICE... and --no-idle: the report is about the devices asked for, as lspci -s / lsblk DEVICE ----
sel() { # NAME ARGS...: JSON in $tmp/sel.json, exit status in rc
	local name=$1
	shift
	timeout 30 "$TOOL" --sysroot "$good" --json "$@" > "$tmp/sel.json" 2> "$tmp/sel.err"
	rc=$?
}
sel pci 0000:00:1f.2 --fail-on warning
check "DEVICE by id: that device alone" jqe "$tmp/sel.json" '[.devices[].id] == ["0000:00:1f.2"]'
check "DEVICE by id: its finding, exit 1 for it (rc $rc)" \
	bash -c '[ "$1" -eq 1 ] && jq -e "[.findings[].id] == [\"bounce-needed\"]" "$2" > /dev/null' _ "$rc" "$tmp/sel.json"
check "DEVICE by id: its disk only" jqe "$tmp/sel.json" '[.block[].disk] == ["sda"]'
sel short 00:1f.2
check "DEVICE as lspci -s (no domain 0000): the same device" jqe "$tmp/sel.json" '[.devices[].id] == ["0000:00:1f.2"]'
sel disk /dev/nvme0n1
check "DEVICE as a disk (/dev/nvme0n1): its DMA device" jqe "$tmp/sel.json" '[.devices[].id] == ["0000:01:00.0"]'
check "DEVICE whose device has no finding: exit 0, no finding ($rc)" \
	bash -c '[ "$1" -eq 0 ] && jq -e ".findings == [] and .exit_status == 0" "$2" > /dev/null' _ "$rc" "$tmp/sel.json"
sel two sda nvme0n1
check "two DEVICEs: both, in the report's order" jqe "$tmp/sel.json" '[.devices[].id] == ["0000:00:1f.2", "0000:01:00.0"]'
check "a selection: JSON still matches the schema" valid_json "$tmp/sel.json"
sel idle --no-idle
check "--no-idle: no idle device left" jqe "$tmp/sel.json" '[.devices[] | select(.verdict == "idle")] == [] and (.devices | length) == 2'
timeout 30 "$TOOL" --sysroot "$good" sda -r -n -o DEVICE > "$tmp/sel.txt" 2>&1
check "DEVICE in the text report: one row ($(tr '\n' ' ' < "$tmp/sel.txt"))" test "$(cat "$tmp/sel.txt")" = 0000:00:1f.2
sel none sdz
check "DEVICE naming nothing: exit 2 ($rc)" test "$rc" -eq 2
check "DEVICE naming nothing: one line that says so" \
	bash -c '[ "$(wc -l < "$1")" -eq 1 ] && grep -q "sdz: no such device, disk or network interface" "$1"' _ "$tmp/sel.err"
check "DEVICE naming nothing: no report" test ! -s "$tmp/sel.json"
for o in "--observe 5" "--color always"; do
	set -- $o
	timeout 10 "$TOOL" "$1" "$2" > /dev/null 2> "$tmp/sel.err"
	rc=$?
	check "'$o': usage error, exit 2 ($rc)" test "$rc" -eq 2
	check "'$o': did you mean $1=$2" grep -q "did you mean $1=$2?" "$tmp/sel.err"
done

# OBSERVED holds bounces and failed mappings: a line each in the table a person
# reads (as lsblk's MOUNTPOINTS), one line a device with ", " for -r, -P and -J
obs=$(fixture_root riscv-poolless-5.13) || exit 99
COLUMNS=80 timeout 30 "$TOOL" --sysroot "$obs" -o DEVICE,OBSERVED,CHECK 0000:00:05.0 > "$tmp/obs.txt" 2>&1
check "OBSERVED in a table: a line for the bounces, one for the failures" \
	bash -c 'grep -q "^0000:00:05.0 *1 / 1.5 KiB consistent\$" "$1" && grep -q "^ *1 failed *\$" "$1"' _ "$tmp/obs.txt"
check "OBSERVED in a table: no escaped newline" bash -c '! grep -q "x0a" "$1"' _ "$tmp/obs.txt"
timeout 30 "$TOOL" --sysroot "$obs" -r -n -o DEVICE,OBSERVED 0000:00:05.0 > "$tmp/obs.raw" 2>&1
check "OBSERVED in -r: one line, parts joined ($(cat "$tmp/obs.raw"))" \
	test "$(cat "$tmp/obs.raw")" = '0000:00:05.0 1\x20/\x201.5\x20KiB,\x201\x20failed'
timeout 30 "$TOOL" --sysroot "$obs" -J -o DEVICE,OBSERVED 0000:00:05.0 > "$tmp/obs.json" 2>&1
check "OBSERVED in -J -o: one string" jqe "$tmp/obs.json" '.devices[0].observed == "1 / 1.5 KiB, 1 failed"'

# REACH_END: the reach in CPU addresses, a default column where a window moves it
# off the mask (the Pi 4's emmc2: bus 0xffffffff is CPU 0x3fffffff), on no x86 table
pi=$(fixture_root arm64-rpi4) || exit 99
"$TOOL" --sysroot "$pi" -r > "$tmp/pi.raw" 2>&1
check "REACH_END a default column on a board with windows" \
	grep -q "^fe340000.mmc sdhci-iproc 32-bit 0xffffffff 0x3fffffff  *partial" "$tmp/pi.raw"
"$TOOL" --sysroot "$good" -r > "$tmp/x86.raw" 2>&1
check "REACH_END not a default column where every reach ends at its mask" \
	bash -c '! grep -q "0x" "$1"' _ "$tmp/x86.raw"
"$TOOL" --sysroot "$pi" -J -o DEVICE,LIMIT,REACH_END fe340000.mmc > "$tmp/pi.json" 2>&1
check "REACH_END in -J -o" jqe "$tmp/pi.json" \
	'.devices == [{"device": "fe340000.mmc", "limit": "0xffffffff", "reach_end": "0x3fffffff"}]'
"$TOOL" --sysroot "$pi" -P -o DEVICE,REACH_END 0000:01:00.0 > "$tmp/pi.pairs" 2>&1
check "REACH_END in -P" test "$(cat "$tmp/pi.pairs")" = 'DEVICE="0000:01:00.0" REACH_END="0xbfffffff"'

tap_done
