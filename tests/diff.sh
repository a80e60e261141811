#!/bin/bash
# --diff OLD NEW: what changed between two reports or snapshots, exit 1
# when something at or above --fail-on got worse. The kernel pair is real
# era behaviour: AMD identity domains drop the swiotlb pool before 5.4 and
# keep it from 5.4 (eras.c ERA_AMD_PASSTHROUGH), so the AHCI that fails on
# 5.3 bounces on 5.4.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures
good=$(fixture_root x86-pc-4g) || exit 99
k53=$(fixture_root x86-amd-5.3-identity) || exit 99
k54=$(fixture_root x86-amd-5.4-identity) || exit 99
diff_() { "$TOOL" --diff "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }

"$TOOL" --sysroot "$good" --json > "$tmp/a.json"

# ---- the same report: nothing changed ----
diff_ "$tmp/a.json" "$tmp/a.json"
check "a report against itself: exit 0 ($rc)" test "$rc" -eq 0
check "a report against itself: says nothing changed" grep -qx "No change in the machine, its devices or its findings." "$tmp/out"
diff_ "$good" "$tmp/a.json"
check "a snapshot against its own report: exit 0, no change ($rc)" \
	bash -c 'test "$1" -eq 0 && grep -q "^No change" "$2"' _ "$rc" "$tmp/out"

# ---- a device that fails now: worse ----
jq '(.devices[] | select(.id == "0000:00:1f.2")) |= (.verdict = "fails" | .unreachable_ram_bytes = 30000000000)
    | .findings += [{"id": "bounce-impossible", "severity": "error", "device": "0000:00:1f.2",
                     "message": "m", "evidence": {}, "remedy": "r"}]' "$tmp/a.json" > "$tmp/worse.json"
diff_ "$tmp/a.json" "$tmp/worse.json"
check "a verdict partial -> fails: exit 1 ($rc)" test "$rc" -eq 1
check "the text names the device, the verdicts, worse" \
	grep -qx "  changed  0000:00:1f.2 ahci: partial -> fails (worse)" "$tmp/out"
check "the text shows the reach that changed, in units" \
	grep -Eqx " +unreachable_ram_bytes +21 GiB -> 27.9 GiB" "$tmp/out"
check "the text lists the new error finding as worse" \
	grep -qx "  added    error   bounce-impossible 0000:00:1f.2 (worse)" "$tmp/out"
check "the last line counts what changed" \
	test "$(tail -1 "$tmp/out")" = "1 device and 1 finding changed; 2 worse at or above error"
diff_ -b "$tmp/a.json" "$tmp/worse.json"
check "-b: exact bytes" grep -Eqx " +unreachable_ram_bytes +22548578304 -> 30000000000" "$tmp/out"
diff_ "$tmp/worse.json" "$tmp/a.json"
check "the other way round it got better: exit 0 ($rc)" test "$rc" -eq 0
check "... and the finding is removed, not worse" grep -qx "  removed  error   bounce-impossible 0000:00:1f.2" "$tmp/out"

# ---- JSON ----
"$TOOL" --diff --json "$tmp/a.json" "$tmp/worse.json" > "$tmp/d.json"; rc=$?
check "-J: exit 1 as the text ($rc)" test "$rc" -eq 1
check "-J: worse, the sides named" jqe "$tmp/d.json" \
	".worse == true and .exit_status == 1 and .old.source == \"$tmp/a.json\" and .fail_on == \"error\""
check "-J: the device change with typed values" jqe "$tmp/d.json" \
	'.devices == [{"id": "0000:00:1f.2", "change": "changed", "driver": "ahci", "old_verdict": "partial",
	  "new_verdict": "fails", "worse": true, "fields": [{"field": "verdict", "old": "partial", "new": "fails"},
	  {"field": "unreachable_ram_bytes", "old": 22548578304, "new": 30000000000}]}]'
check "-J: the finding added" jqe "$tmp/d.json" \
	'.findings == [{"id": "bounce-impossible", "device": "0000:00:1f.2", "change": "added",
	  "old_severity": null, "new_severity": "error", "worse": true}]'

# ---- devices that come and go ----
jq 'del(.devices[] | select(.id == "0000:01:00.0"))' "$tmp/a.json" > "$tmp/gone.json"
diff_ "$tmp/a.json" "$tmp/gone.json"
check "a device removed: listed, exit 0 ($rc)" \
	bash -c 'test "$1" -eq 0 && grep -qx "  removed  0000:01:00.0 nvme: direct" "$2"' _ "$rc" "$tmp/out"
diff_ "$tmp/gone.json" "$tmp/worse.json"
check "a new card that fails: added, worse, exit 1 ($rc)" \
	bash -c 'test "$1" -eq 1 && grep -qx "  added    0000:01:00.0 nvme: direct" "$2"' _ "$rc" "$tmp/out"
jq '(.devices[] | select(.id == "0000:01:00.0")) |= (.verdict = "partial")' "$tmp/gone.json" > /dev/null
jq '(.devices[] | select(.id == "0000:00:1f.2")).unreachable_ram_bytes += 4096' "$tmp/a.json" > "$tmp/more.json"
diff_ "$tmp/a.json" "$tmp/more.json"
check "more RAM out of reach on a bouncing device: a warning, exit 0 by default ($rc)" test "$rc" -eq 0
check "4 KiB more: exact bytes where both would read 21 GiB" \
	grep -Eqx " +unreachable_ram_bytes +22548578304 bytes -> 22548582400 bytes" "$tmp/out"
diff_ --fail-on warning "$tmp/a.json" "$tmp/more.json"
check "... exit 1 with --fail-on warning ($rc)" test "$rc" -eq 1

jq '.memory.base_pfn = 262144' "$tmp/a.json" > "$tmp/pfn.json"
diff_ "$tmp/a.json" "$tmp/pfn.json"
check "a PFN that moved: in hex, as the report writes PFNs" \
	grep -Eqx " +memory.base_pfn +0x1 -> 0x40000" "$tmp/out"

# ---- a real kernel change, from snapshots ----
diff_ "$k53" "$k54"
check "5.3 -> 5.4 (AMD identity keeps the pool): exit 0 ($rc)" test "$rc" -eq 0
check "5.3 -> 5.4: the kernel release changed" grep -Eq "^  kernel.release +5\.3\..* -> 5\.4\." "$tmp/out"
check "5.3 -> 5.4: the AHCI no longer fails" grep -q "^  changed  0000:00:1f.2 ahci: fails -> partial$" "$tmp/out"
diff_ "$k54" "$k53"
check "5.4 -> 5.3: the AHCI fails, worse, exit 1 ($rc)" \
	bash -c 'test "$1" -eq 1 && grep -q "^  changed  0000:00:1f.2 ahci: partial -> fails (worse)$" "$2"' _ "$rc" "$tmp/out"
tar czf "$tmp/k53.tar.gz" -C "$k53" .
diff_ "$tmp/k53.tar.gz" "$k53"
check "an archived snapshot against its directory: exit 0, no change ($rc)" \
	bash -c 'test "$1" -eq 0 && grep -q "^No change" "$2"' _ "$rc" "$tmp/out"

# ---- bad input: one line, exit 2, nothing on stdout ----
bad() { # NAME EXPECTED-STDERR ARGS...
	local name=$1 want=$2
	shift 2
	timeout 30 "$TOOL" --diff "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "$name: exit 2 ($rc), nothing on stdout, says so" \
		bash -c 'test "$1" -eq 2 && ! test -s "$2" && grep -q -- "$3" "$4"' _ "$rc" "$tmp/out" "$want" "$tmp/err"
}
: > "$tmp/empty"
printf '{"schema_version": 2, "tool": {"name": "dmamask-audit"' > "$tmp/truncated.json"
{ cat "$tmp/a.json"; echo '{}'; } > "$tmp/trailing.json"
"$TOOL" --sysroot "$good" -J -o DEVICE,VERDICT > "$tmp/columns.json"
jq '.schema_version = 3' "$tmp/a.json" > "$tmp/v3.json"
jq 'del(.devices)' "$tmp/a.json" > "$tmp/nodevices.json"
mkfifo "$tmp/fifo"
mkdir "$tmp/notsnap"; echo x > "$tmp/notsnap/hosts"
bad "a missing side" "No such file or directory" "$tmp/a.json" "$tmp/nosuch.json"
bad "an empty file" "empty" "$tmp/empty" "$tmp/a.json"
bad "truncated JSON" "truncated JSON" "$tmp/truncated.json" "$tmp/a.json"
bad "JSON with data after it" "trailing data" "$tmp/a.json" "$tmp/trailing.json"
bad "-J -o output, not a report" "not a dmamask-audit JSON report" "$tmp/columns.json" "$tmp/a.json"
bad "another schema_version" "schema_version" "$tmp/a.json" "$tmp/v3.json"
bad "a report without devices" "devices and findings" "$tmp/a.json" "$tmp/nodevices.json"
bad "a FIFO (never read, never hangs)" "not a report, a snapshot" "$tmp/fifo" "$tmp/a.json"
bad "a directory that is not a snapshot" "not a snapshot" "$tmp/notsnap" "$tmp/a.json"
bad "an empty name" "empty name" "" "$tmp/a.json"
bad "one side only" "takes two reports" "$tmp/a.json"
bad "three sides" "takes two reports" "$tmp/a.json" "$tmp/a.json" "$tmp/a.json"
bad "--diff with --sysroot" "has no place" --sysroot "$good" "$tmp/a.json" "$tmp/a.json"
bad "--diff with -o" "has no place" -o DEVICE "$tmp/a.json" "$tmp/a.json"
bad "--diff as Prometheus" "text or JSON" --format prometheus "$tmp/a.json" "$tmp/a.json"

# ---- words the schema does not have: refused, not ranked as "not worse" ----
unranked() { # NAME JQ-EDIT SIDE(old|new) EXPECTED-LINE-AFTER-"FILE: "
	local name=$1 edit=$2 side=$3 want=$4 f="$tmp/unranked.json"
	jq "$edit" "$tmp/a.json" > "$f" || return
	if [ "$side" = old ]; then bad_args=("$f" "$tmp/worse.json"); else bad_args=("$tmp/a.json" "$f"); fi
	timeout 30 "$TOOL" --diff "${bad_args[@]}" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "$name: exit 2 ($rc), nothing on stdout, one line naming the side, field and value" \
		bash -c 'test "$1" -eq 2 && ! test -s "$2" && test "$(cat "$3")" = "$4"' _ "$rc" "$tmp/out" "$tmp/err" \
		"dmamask-audit: --diff: $f: $want"
}
unranked "a verdict in capitals" '.devices[3].verdict = "FAILS"' new \
	'devices[3].verdict "FAILS" is not a verdict this tool knows (device 0000:01:00.0)'
unranked "a verdict with a NUL inside" '.devices[3].verdict = "partial\u0000x"' new \
	'devices[3].verdict "partial\u0000x" is not a verdict this tool knows (device 0000:01:00.0)'
unranked "a null verdict" '.devices[3].verdict = null' new \
	'devices[3].verdict null is not a verdict this tool knows (device 0000:01:00.0)'
unranked "a numeric verdict, old side" '.devices[0].verdict = 3' old \
	'devices[0].verdict 3 is not a verdict this tool knows (device 0000:00:00.0)'
unranked "no verdict" '.devices[1] |= del(.verdict)' new \
	'devices[1] has no verdict (device 0000:00:1c.0)'
unranked "a device id that is a number" '.devices[2].id = 7' old \
	'devices[2].id 7 is not a device id (a string)'
unranked "a device that is not an object" '.devices[2] = "x"' new \
	'devices[2] is not an object'
unranked "a severity not in the schema" '.findings[0].severity = "critical"' new \
	'findings[0].severity "critical" is not a severity this tool knows (finding bounce-needed)'
unranked "a null severity, old side" '.findings[0].severity = null' old \
	'findings[0].severity null is not a severity this tool knows (finding bounce-needed)'
unranked "a finding's device that is a number" '.findings[0].device = 0' new \
	'findings[0].device 0 is not a device id or null (finding bounce-needed)'
unranked "terminal controls in the value are not passed on" \
	'.devices[3].verdict = "\u001b[2J\u0085\u007fFAILS"' new \
	'devices[3].verdict "\u001b[2J??FAILS" is not a verdict this tool knows (device 0000:01:00.0)'
unranked "a long value is cut" '.devices[3].verdict = ("x" * 200)' new \
	"devices[3].verdict \"$(printf 'x%.0s' $(seq 72))... is not a verdict this tool knows (device 0000:01:00.0)"
tap_done
