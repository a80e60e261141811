#!/bin/bash
# --capture: a snapshot of this machine that --sysroot replays to the same
# memory, devices, disks and findings; safe to move (relative links only, no
# device nodes, no FIFOs); its MANIFEST complete.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

same_audit() { # LIVE.json REPLAY.json
	diff <(jq -S '{memory, devices, block, findings, exit_status, swiotlb}' "$1") \
	     <(jq -S '{memory, devices, block, findings, exit_status, swiotlb}' "$2") | diag
	return "${PIPESTATUS[0]}"
}

# capture_checks NAME DIR: what a movable snapshot must be
capture_checks() {
	local name=$1 dir=$2 k
	check "$name: no absolute symlinks" test -z "$(find "$dir" -type l -lname '/*' | head -1)"
	check "$name: no device nodes, FIFOs or sockets" \
		test -z "$(find "$dir" \( -type b -o -type c -o -type p -o -type s \) | head -1)"
	check "$name: every link points inside the snapshot" bash -c '
		cd "$1" && top=$(pwd -P) && for l in $(find . -type l); do
			t=$(readlink -m "$l")
			case "$t" in "$top"/*) ;; *) echo "# $l -> $t"; exit 1 ;; esac
		done' _ "$dir"
	for k in arch page_size kernel_release endianness uid captured_by captured_at; do
		check "$name: MANIFEST has $k" grep -q "^$k=." "$dir/MANIFEST"
	done
	check "$name: dev/kmsg is a regular file when captured" bash -c '[ ! -e "$1/dev/kmsg" ] || [ -f "$1/dev/kmsg" ]' _ "$dir"
}

timeout 60 "$TOOL" --json --capture "$tmp/snap" > "$tmp/live.json" 2> "$tmp/err"
rc=$?
check "capture run exits like a plain run ($rc)" test "$rc" -le 1
timeout 60 "$TOOL" --json > "$tmp/plain.json" 2>&1
check "capturing changes nothing in the report" same_audit "$tmp/plain.json" "$tmp/live.json"
timeout 60 "$TOOL" --json --sysroot "$tmp/snap" > "$tmp/replay.json" 2> "$tmp/err2"
check "replay exits as live did" test $? -eq "$rc"
check "replay JSON matches the schema" valid_json "$tmp/replay.json"
check "replay gives the same memory, devices, disks and findings" same_audit "$tmp/live.json" "$tmp/replay.json"
check "replay is not live and read the MANIFEST" jqe "$tmp/replay.json" \
	'.host.live == false and .host.arch_source == "MANIFEST" and .host.page_size_source == "MANIFEST"'
capture_checks "root capture" "$tmp/snap"
check "a capture holds only what was read (no blind copy of /sys)" \
	test "$(find "$tmp/snap/sys" -type f | wc -l)" -lt 2000
check "MANIFEST uid is ours" grep -q "^uid=$(id -u)$" "$tmp/snap/MANIFEST"

# The same capture moved elsewhere still replays (links are relative).
mv "$tmp/snap" "$tmp/moved"
timeout 60 "$TOOL" --json --sysroot "$tmp/moved" > "$tmp/moved.json" 2>&1
check "a moved capture replays the same" same_audit "$tmp/live.json" "$tmp/moved.json"

# A text replay works too.
timeout 60 "$TOOL" --sysroot "$tmp/moved" > "$tmp/moved.txt" 2>&1
check "text replay exits as live did" test $? -eq "$rc"

# Refusals: an existing non-empty directory, and an unwritable place.
timeout 60 "$TOOL" --capture "$tmp/moved" > /dev/null 2> "$tmp/err3"
check "capture into a non-empty directory: exit 2" test $? -eq 2
check "capture into a non-empty directory: says so" grep -q "not empty" "$tmp/err3"
timeout 60 "$TOOL" --capture /proc/no/such/dir > /dev/null 2> "$tmp/err4"
check "capture where nothing can be created: exit 2" test $? -eq 2

# Unprivileged: what was denied live is recorded and replays as denied.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	mkdir "$tmp/nobody" && chown 65534:65534 "$tmp/nobody"
	timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$TOOL" --json --capture "$tmp/nobody" > "$tmp/nobody.json" 2> "$tmp/err5"
	nrc=$?
	check "capture as nobody exits 0 or 1 ($nrc)" test "$nrc" -le 1
	timeout 60 "$TOOL" --json --sysroot "$tmp/nobody" > "$tmp/nobody-replay.json" 2>&1
	check "nobody's capture replays the same" same_audit "$tmp/nobody.json" "$tmp/nobody-replay.json"
	check "nobody's capture says iomem was hidden" jqe "$tmp/nobody-replay.json" \
		'[.findings[].id] | index("iomem-hidden") != null'
	check "nobody's capture records uid 65534" grep -q '^uid=65534$' "$tmp/nobody/MANIFEST"
	denied=$(jq -r '[.inputs[] | select(.status == "denied" and .errno != null) | .path] | sort | join(",")' "$tmp/nobody.json")
	rdenied=$(jq -r '[.inputs[] | select(.status == "denied" and .errno != null) | .path] | sort | join(",")' "$tmp/nobody-replay.json")
	check "inputs denied live are denied in the replay ($denied)" test "$denied" = "$rdenied"
	capture_checks "nobody capture" "$tmp/nobody"
else
	skip "capture as nobody (needs root and setpriv)"
fi
tap_done
