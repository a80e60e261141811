#!/bin/bash
# --capture: a snapshot of this machine that --sysroot replays to the same
# memory, devices, disks and findings; safe to move (relative links only, no
# device nodes, no FIFOs); its MANIFEST complete; refusals and an unprivileged
# capture. A full disk, a signal, two captures at once and more failed reads
# than a MANIFEST holds: tests/capture-failures.sh (issue 8, item 5).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/capture-lib.sh"

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
check "replay carries the live run's hostname, from the MANIFEST" jqe "$tmp/replay.json" \
	'.host.hostname == $h and .host.hostname_source == "MANIFEST" and $h != "null"' \
	--arg h "$(jq -r .host.hostname "$tmp/live.json")"
check "replay carries the MANIFEST's captured_at, no later than the report" jqe "$tmp/replay.json" \
	'(.host.captured_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")) and .host.captured_at <= .generated_at'
check "the live report has no captured_at" jqe "$tmp/live.json" '.host.captured_at == null'
check "the text replay names the host and the capture time" bash -c \
	'"$1" --sysroot "$2" | head -2 | grep -q ", captured [0-9T:-]*Z$"' _ "$TOOL" "$tmp/snap"
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
# a symlink to an empty directory is refused, and nothing is written where it points
mkdir "$tmp/empty-target" && ln -s "$tmp/empty-target" "$tmp/capture-link"
timeout 60 "$TOOL" --capture "$tmp/capture-link" > /dev/null 2> "$tmp/err5"
check "capture into a symlink: exit 2" test $? -eq 2
check "capture into a symlink: says so" grep -q "symbolic link" "$tmp/err5"
check "capture into a symlink: nothing written through it" test -z "$(ls -A "$tmp/empty-target")"

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
