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
	grep -Eqx " +unreachable_ram_bytes +21 GiB -> 27.9 GiB \(\+6.9 GiB\)" "$tmp/out"
check "the text lists the new error finding as worse" \
	grep -qx "  added    error   bounce-impossible 0000:00:1f.2 (worse)" "$tmp/out"
check "the last line counts what changed" \
	test "$(tail -1 "$tmp/out")" = "1 device and 1 finding changed; 2 worse at or above error"
diff_ -b "$tmp/a.json" "$tmp/worse.json"
check "-b: exact bytes" grep -Eqx " +unreachable_ram_bytes +22548578304 -> 30000000000 \(\+7451421696\)" "$tmp/out"
diff_ "$tmp/worse.json" "$tmp/a.json"
check "the other way round it got better: exit 0 ($rc)" test "$rc" -eq 0
check "... and the finding is removed, not worse" grep -qx "  removed  error   bounce-impossible 0000:00:1f.2" "$tmp/out"

# ---- JSON ----
"$TOOL" --diff --json "$tmp/a.json" "$tmp/worse.json" > "$tmp/d.json"; rc=$?
check "-J: exit 1 as the text ($rc)" test "$rc" -eq 1
check "-J: worse, the sides named" jqe "$tmp/d.json" \
	".worse == true and .exit_status == 1 and .old.source == \"$tmp/a.json\" and .fail_on == \"error\""
check "-J: the device change with typed values" jqe "$tmp/d.json" \
	'.devices == [{"id": "0000:00:1f.2", "change": "changed", "driver": "ahci", "pci_id": "8086:2922",
	  "replaced": null, "old_verdict": "partial",
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
	grep -Eqx " +unreachable_ram_bytes +22548578304 -> 22548582400 \(\+4 KiB\)" "$tmp/out"
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

# ---- when each side was true: a snapshot's captured_at, a report's generated_at (issue 39) ----
cp -a "$k54" "$tmp/k54-later"
sed -i 's/^captured_at=.*/captured_at=2026-12-05T09:30:00Z/' "$tmp/k54-later/MANIFEST"
tar czf "$tmp/k54-later.tar.gz" -C "$tmp/k54-later" .
diff_ "$tmp/k53.tar.gz" "$tmp/k54-later.tar.gz"
check "two archived snapshots: each side stamped with its MANIFEST's captured_at, labelled" \
	bash -c 'grep -qx "old $1: (hostname unknown), Linux 5.3.18-1-amd64, captured_at 2026-12-03T08:00:00Z" "$3" &&
		 grep -qx "new $2: (hostname unknown), Linux 5.4.203-1-amd64, captured_at 2026-12-05T09:30:00Z" "$3"' \
	_ "$tmp/k53.tar.gz" "$tmp/k54-later.tar.gz" "$tmp/out"
check "... and neither with this run's time (generated_at) ($rc)" \
	bash -c 'test "$1" -eq 0 && grep -q "^old " "$2" && ! grep -q generated_at "$2"' _ "$rc" "$tmp/out"
jq '.generated_at = "2026-11-30T12:00:00Z"' "$tmp/a.json" > "$tmp/a-dated.json"
diff_ "$tmp/a-dated.json" "$tmp/k54-later"
check "a report side: its generated_at, and the captured_at of the snapshot it was made of" \
	grep -qx "old $tmp/a-dated.json: (hostname unknown), Linux 6.1.0-27-amd64, generated_at 2026-11-30T12:00:00Z of a snapshot captured_at 2026-12-03T08:00:00Z" "$tmp/out"
jq 'del(.generated_at) | .host.captured_at = null' "$tmp/a.json" > "$tmp/a-undated.json"
diff_ "$tmp/a-undated.json" "$tmp/a-undated.json"
check "a report without generated_at: said unknown" grep -q "^old .*, generated_at unknown$" "$tmp/out"
"$TOOL" --diff -J "$tmp/k53.tar.gz" "$tmp/a-dated.json" > "$tmp/when.json"
check "-J: each side's kind, captured_at and generated_at (null for a snapshot this run audited)" jqe "$tmp/when.json" \
	'.old.kind == "snapshot" and .old.captured_at == "2026-12-03T08:00:00Z" and .old.generated_at == null
	 and .new.kind == "report" and .new.generated_at == "2026-11-30T12:00:00Z"
	 and .new.captured_at == "2026-12-03T08:00:00Z"'

# ---- sizes that round alike: the delta, and exact bytes (issue 39) ----
jq '.memory.ram_bytes += 8192 | .swiotlb.size_bytes += 1048576' "$tmp/a.json" > "$tmp/ram.json"
diff_ "$tmp/a.json" "$tmp/ram.json"
check "8 KiB more RAM: exact bytes where 24 GiB -> 24 GiB would hide it, and the delta" \
	grep -Eqx "  memory.ram_bytes +25769405440 -> 25769413632 \(\+8 KiB\)" "$tmp/out"
check "a change the units show: units and the delta" \
	grep -Eqx "  swiotlb.size_bytes +64 MiB -> 65 MiB \(\+1 MiB\)" "$tmp/out"
diff_ "$tmp/worse.json" "$tmp/a.json"
check "less RAM out of reach: a negative delta" \
	grep -Eqx " +unreachable_ram_bytes +27.9 GiB -> 21 GiB \(-6.9 GiB\)" "$tmp/out"
diff_ -b "$tmp/a.json" "$tmp/ram.json"
check "-b: the delta in bytes" grep -Eqx "  memory.ram_bytes +25769405440 -> 25769413632 \(\+8192\)" "$tmp/out"

# ---- another card at the same address: replaced, not changed (issue 39) ----
jq '(.devices[] | select(.id == "0000:01:00.0")) |= (.pci_ids.vendor = "1022" | .pci_ids.device = "2000"
     | .driver = "pcnet32" | .verdict = "partial" | .unreachable_ram_bytes = 22548578304)' "$tmp/a.json" > "$tmp/card.json"
diff_ --fail-on warning "$tmp/a.json" "$tmp/card.json"
check "vendor:device differ: replaced, both cards named, no field-by-field change ($rc)" \
	bash -c 'test "$1" -eq 1 && grep -qx "  replaced 0000:01:00.0: nvme \[144d:a808\] direct -> pcnet32 \[1022:2000\] partial (worse)" "$2" &&
		 ! grep -q "unreachable_ram_bytes" "$2"' _ "$rc" "$tmp/out"
diff_ "$tmp/a.json" "$tmp/card.json"
check "a replaced card is judged as one added: a warning passes --fail-on error ($rc)" test "$rc" -eq 0
"$TOOL" --diff -J "$tmp/a.json" "$tmp/card.json" > "$tmp/card-d.json"
check "-J: change replaced, the card before under replaced" jqe "$tmp/card-d.json" \
	'.devices == [{"id": "0000:01:00.0", "change": "replaced", "driver": "pcnet32", "pci_id": "1022:2000",
	  "replaced": {"driver": "nvme", "pci_id": "144d:a808", "id_path": null}, "old_verdict": "direct",
	  "new_verdict": "partial", "worse": false, "fields": []}]'
jq '(.devices[] | select(.id == "0000:00:1f.2")).udev.ID_PATH = "pci-0000:00:1f.2-moved"' "$tmp/a.json" > "$tmp/path.json"
diff_ "$tmp/a.json" "$tmp/path.json"
check "the same ids, another udev ID_PATH: replaced, the paths shown" \
	bash -c 'grep -qx "  replaced 0000:00:1f.2: ahci \[8086:2922\] partial -> ahci \[8086:2922\] partial" "$1" &&
		 grep -Eqx " +udev.ID_PATH +pci-0000:00:1f.2 -> pci-0000:00:1f.2-moved" "$1"' _ "$tmp/out"
jq '(.devices[] | select(.id == "0000:00:1f.2")) |= (.udev = null | .pci_ids = null | .verdict = "fails")' \
	"$tmp/a.json" > "$tmp/noids.json"
diff_ "$tmp/a.json" "$tmp/noids.json"
check "ids on one side only: the same device (nothing says otherwise), changed" \
	grep -qx "  changed  0000:00:1f.2 ahci: partial -> fails (worse)" "$tmp/out"

# the fixture pair: QEMU's EHCI at 0000:00:02.0, then its pcnet in the same slot
ehci=$(fixture_root x86-slot-ehci) || exit 99
pcnet=$(fixture_root x86-slot-pcnet) || exit 99
diff_ "$ehci" "$pcnet"
check "EHCI -> pcnet32 in one slot: replaced, no pcnet32 'regression', exit 0 ($rc)" \
	bash -c 'test "$1" -eq 0 && grep -qx "  replaced 0000:00:02.0: ehci-pci \[8086:24cd\] partial -> pcnet32 \[1022:2000\] partial" "$2" &&
		 ! grep -q "changed  0000:00:02.0" "$2"' _ "$rc" "$tmp/out"
check "... the EHCI's finding went with it, the pcnet32's came: removed and added, not unchanged" \
	bash -c 'grep -qx "  added    warning bounce-needed 0000:00:02.0" "$1" &&
		 grep -qx "  removed  warning bounce-needed 0000:00:02.0" "$1" &&
		 test "$(tail -1 "$1")" = "1 device and 2 findings changed; 0 worse at or above error"' _ "$tmp/out"
check "... the slot's ID_PATH is the same: not shown" \
	bash -c 'grep -q "^  replaced 0000:00:02.0: " "$1" && ! grep -q ID_PATH "$1"' _ "$tmp/out"
diff_ --fail-on warning "$ehci" "$pcnet"
check "... a new card that bounces counts at --fail-on warning, as an added one would ($rc)" \
	bash -c 'test "$1" -eq 1 && grep -q "^  replaced 0000:00:02.0: .* (worse)$" "$2"' _ "$rc" "$tmp/out"

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
