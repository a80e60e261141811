#!/bin/bash
# --diff --fleet PATH...: many hosts' JSON reports, each host's first report
# compared with its last, the changes grouped across hosts (issue 39). The
# hosts are the fixtures' reports given host names and dates: the AMD pair is
# real era behaviour (eras.c ERA_AMD_PASSTHROUGH: the AHCI fails on 5.3.18
# with an identity domain and no pool, bounces on 5.4), the slot pair is
# another card in one slot.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'chmod -R u+rwX "$tmp" 2> /dev/null; rm -rf "$tmp"' EXIT
M=$SRCDIR/tests/machines
fleet_() { "$TOOL" --diff --fleet "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }

# host FIXTURE HOST DATE DIR [JQ-EDIT]: the fixture's report as HOST's, made at DATE, in DIR
host() {
	mkdir -p "$4"
	jq --arg h "$2" --arg t "$3" ".host.hostname = \$h | .host.captured_at = null | .generated_at = \$t | ${5:-.}" \
		"$M/$1/expected.json" > "$4/$2.json"
}
B=$tmp/before A=$tmp/after
for h in db1 db2 db3; do
	host x86-amd-5.3-identity "$h" 2026-11-01T03:00:00Z "$B"
	host x86-amd-5.4-identity "$h" 2026-12-01T03:00:00Z "$A"
done
# the AHCI of web2 sits at another address: grouped by card, not by where it is
for h in web1 web2; do
	edit=.
	[ "$h" = web2 ] && edit='(.devices[] | select(.id == "0000:00:1f.2")).id = "0000:00:17.0"
		| (.findings[] | select(.device == "0000:00:1f.2")).device = "0000:00:17.0"'
	host x86-amd-5.4-identity "$h" 2026-11-01T03:00:00Z "$B" "$edit"
	host x86-amd-5.3-identity "$h" 2026-12-01T03:00:00Z "$A" "$edit"
done
for h in vm1 vm2; do
	host x86-slot-ehci "$h" 2026-11-01T03:00:00Z "$B"
	host x86-slot-pcnet "$h" 2026-12-01T03:00:00Z "$A"
done
host x86-pc-4g pc1 2026-11-01T03:00:00Z "$B"
host x86-pc-4g pc1 2026-12-01T03:00:00Z "$A"
host arm64-rpi4 pi1 2026-12-01T03:00:00Z "$A"
echo "not a report" > "$A/README"

# ---- grouped by change ----
fleet_ "$B" "$A"
check "two directories: exit 1, a host got worse ($rc)" test "$rc" -eq 1
check "the head counts reports, hosts, the compared and the single" \
	grep -qx "fleet: 17 reports of 9 hosts; 8 compared (each host's first report with its last, by captured_at, else generated_at), 1 with one report, 0 skipped" "$tmp/out"
check "... and the changed, the unchanged and the worse" \
	grep -qx "7 hosts changed, 1 unchanged; 2 worse at or above error" "$tmp/out"
check "the worse group first: 2 hosts, the AHCI by card whatever its address, partial -> fails" \
	test "$(sed -n 5p "$tmp/out")" = "  2 hosts (2 worse): device ahci [8086:2922]: partial -> fails"
check "... with the kernels its hosts went from and to" \
	test "$(sed -n 6p "$tmp/out")" = "    kernel 5.4.203-1-amd64 -> 5.3.18-1-amd64 on all 2"
check "... and its hosts" test "$(sed -n 7p "$tmp/out")" = "    hosts web1, web2"
check "the upgrade: 3 hosts, fails -> partial, not worse" \
	grep -qx "  3 hosts: device ahci \[8086:2922\]: fails -> partial" "$tmp/out"
check "a machine fact across hosts: the kernel release, by its values" \
	grep -qx "  3 hosts: kernel.release 5.3.18-1-amd64 -> 5.4.203-1-amd64" "$tmp/out"
check "a number across hosts: by whether it was set (the pool's size)" \
	grep -qx "  3 hosts: swiotlb.size_bytes set (was null)" "$tmp/out"
check "findings by card: bounce-impossible added on the AHCI of 2 hosts, worse" \
	grep -qx "  2 hosts (2 worse): finding added error bounce-impossible on ahci \[8086:2922\]" "$tmp/out"
check "a machine-wide finding" grep -qx "  3 hosts: finding removed info no-bounce-pool (machine)" "$tmp/out"
check "another card in the slot: replaced, across hosts" \
	grep -qx "  2 hosts: device replaced: ehci-pci \[8086:24cd\] partial -> pcnet32 \[1022:2000\] partial" "$tmp/out"
check "... the findings of each card, by card" \
	bash -c 'grep -qx "  2 hosts: finding added warning bounce-needed on pcnet32 \[1022:2000\]" "$1" &&
		 grep -qx "  2 hosts: finding removed warning bounce-needed on ehci-pci \[8086:24cd\]" "$1"' _ "$tmp/out"
check "no README read: a directory's *.json only" bash -c 'grep -q "^fleet: " "$1" && ! grep -q README "$1"' _ "$tmp/out"
fleet_ --fail-on warning "$B" "$A"
# at warning the upgraded hosts count as well: bounce-needed (a warning) appeared on their AHCI
check "--fail-on warning: the replaced cards' and the new warnings count too ($rc)" \
	bash -c 'test "$1" -eq 1 && grep -qx "7 hosts changed, 1 unchanged; 7 worse at or above warning" "$2"' _ "$rc" "$tmp/out"

# one host, two identical cards that fail: the host counts once
host x86-amd-5.4-identity twin 2026-11-01T03:00:00Z "$tmp/twin-a" \
	'.devices += [.devices[] | select(.id == "0000:00:1f.2") | .id = "0000:00:1f.5"]'
host x86-amd-5.3-identity twin 2026-12-01T03:00:00Z "$tmp/twin-b" \
	'.devices += [.devices[] | select(.id == "0000:00:1f.2") | .id = "0000:00:1f.5"]'
fleet_ "$tmp/twin-a" "$tmp/twin-b"
check "two AHCIs failing on one host: 1 host, once" \
	grep -qx "  1 host (1 worse): device ahci \[8086:2922\]: partial -> fails" "$tmp/out"
check "... its kernels, without 'on all 1'" \
	test "$(sed -n 6p "$tmp/out")" = "    kernel 5.4.203-1-amd64 -> 5.3.18-1-amd64"

# a list of files, and the host's reports ordered by time, not by the command line
fleet_ "$A/db1.json" "$B/db1.json" "$A/web1.json" "$B/web1.json"
check "a list of files, newest first on the command line: compared oldest to newest" \
	bash -c 'grep -qx "  1 host (1 worse): device ahci \[8086:2922\]: partial -> fails" "$1" &&
		 grep -qx "    host web1" "$1" && grep -qx "  1 host: device ahci \[8086:2922\]: fails -> partial" "$1"' \
	_ "$tmp/out"
# a snapshot's report: the capture's time orders it, not the replay's
jq '.host.captured_at = "2026-12-20T00:00:00Z" | .generated_at = "2026-10-01T00:00:00Z"' "$B/db2.json" > "$tmp/db2-late.json"
fleet_ "$tmp/db2-late.json" "$A/db2.json"
check "captured_at before generated_at: the late capture, replayed early, is the newer ($rc)" \
	grep -qx "  1 host (1 worse): device ahci \[8086:2922\]: partial -> fails" "$tmp/out"
jq '.memory.ram_bytes += 8192' "$B/pc1.json" > "$tmp/pc1-more.json"
jq '.host.hostname = "pc2" | .memory.ram_bytes += 4096' "$B/pc1.json" > "$tmp/pc2-old.json"
jq '.host.hostname = "pc2" | .memory.ram_bytes += 65536 | .generated_at = "2026-12-02T00:00:00Z"' \
	"$B/pc1.json" > "$tmp/pc2-new.json"
jq '.generated_at = "2026-12-02T00:00:00Z"' "$tmp/pc1-more.json" > "$tmp/pc1-new.json"
fleet_ "$B/pc1.json" "$tmp/pc1-new.json" "$tmp/pc2-old.json" "$tmp/pc2-new.json"
check "hosts' own numbers (RAM) group by direction, not by value" \
	grep -qx "  2 hosts: memory.ram_bytes rose" "$tmp/out"

# ---- -J ----
"$TOOL" --diff --fleet -J "$B" "$A" > "$tmp/f.json"; rc=$?
check "-J: exit 1 as the text ($rc)" test "$rc" -eq 1
check "-J: the counts" jqe "$tmp/f.json" \
	'.fleet_diff_schema_version == 1 and .fail_on == "error" and .reports == 17 and .hosts == 9 and .compared == 8
	 and .single_report_hosts == 1 and .unchanged == 1 and .worse_hosts == 2 and .worse == true
	 and .exit_status == 1 and .skipped == []'
check "-J: the worse group first, every host named, the kernels" jqe "$tmp/f.json" \
	'.groups[0] == {"subject": "device", "change": "changed", "name": null, "machine_wide": null,
	  "driver": "ahci", "pci_id": "8086:2922", "replaced": null, "old": "partial", "new": "fails",
	  "fields": null, "hosts": 2, "worse_hosts": 2, "host_names": ["web1", "web2"],
	  "kernels": [{"old": "5.4.203-1-amd64", "new": "5.3.18-1-amd64", "hosts": 2}]}'
check "-J: a replaced card names the card before" jqe "$tmp/f.json" \
	'[.groups[] | select(.change == "replaced")] == [{"subject": "device", "change": "replaced", "name": null,
	  "machine_wide": null, "driver": "pcnet32", "pci_id": "1022:2000",
	  "replaced": {"driver": "ehci-pci", "pci_id": "8086:24cd"}, "old": "partial", "new": "partial",
	  "fields": null, "hosts": 2, "worse_hosts": 0, "host_names": ["vm1", "vm2"],
	  "kernels": [{"old": "6.1.0-27-amd64", "new": "6.1.0-27-amd64", "hosts": 2}]}]'
check "-J: a finding group" jqe "$tmp/f.json" \
	'[.groups[] | select(.subject == "finding" and .name == "no-bounce-pool")] | length == 2
	 and all(.machine_wide == true and .driver == null)'
check "-J: the file is known for what it is (not a report)" bash -c '
	"$1" --diff "$2" "$2" 2>&1 >/dev/null | grep -q "a dmamask-audit --diff report"' _ "$TOOL" "$tmp/f.json"

# ---- what cannot be read or paired: recorded, the rest compared ----
S=$tmp/bad
mkdir -p "$S"
cp "$B/db1.json" "$S/db1-old.json"
cp "$A/db1.json" "$S/db1-new.json"
printf '{"schema_version": 2, "tool": {"name": "dmamask-audit"' > "$S/truncated.json"
jq '.schema_version = 3' "$B/pc1.json" > "$S/v3.json"
jq '.host.hostname = null' "$B/pc1.json" > "$S/nameless.json"
jq '.generated_at = "TIME"' "$B/web1.json" > "$S/undated.json"
# --format ndjson's shape: a record a line
jq -c '{schema_version: 2, record: "machine", device: null}' -n > "$S/lines.json"
cp "$B/pc1.json" "$S/pc1-a.json"
cp "$B/pc1.json" "$S/pc1-b.json"
cp "$A/pc1.json" "$S/pc1-c.json"
mkdir "$S/dir.json"
ln -s "$tmp/nowhere.json" "$S/dangling.json"
cp "$B/web2.json" "$S/locked.json"
chmod 000 "$S/locked.json"
fleet_ "$S"
check "bad reports recorded, the good compared: exit 0 ($rc)" test "$rc" -eq 0
check "truncated JSON: recorded" grep -qx "  $S/truncated.json: truncated JSON" "$tmp/out"
check "another schema_version: recorded" grep -qx "  $S/v3.json: a report of another schema_version than 2" "$tmp/out"
check "no hostname: recorded, it cannot be paired" \
	grep -qx "  $S/nameless.json: no host.hostname: it cannot be paired with its host's other reports" "$tmp/out"
check "no usable time: recorded, it cannot be ordered" \
	grep -qx "  $S/undated.json: no generated_at or captured_at in RFC 3339 UTC: it cannot be ordered" "$tmp/out"
check "ndjson lines: recorded as what they are" grep -q "^  $S/lines.json: a dmamask-audit ndjson report, not a JSON report" "$tmp/out"
check "two reports at one host's first time: the host recorded, not guessed" \
	grep -qx "  $S/pc1-b.json: host pc1: another report at the same time, 2026-11-01T03:00:00Z: which comes first cannot be told" "$tmp/out"
check "a directory named *.json: recorded" grep -qx "  $S/dir.json: not a regular file" "$tmp/out"
check "a file that cannot be opened (a dangling link): recorded with its errno" \
	grep -qx "  $S/dangling.json: No such file or directory" "$tmp/out"
# root reads a mode-000 file: run that case without the capabilities that let it
# (util-linux setpriv drops them from the bounding set of the tool it runs)
if [ "$(id -u)" -ne 0 ]; then
	check "an unreadable file: recorded with its errno" grep -qx "  $S/locked.json: Permission denied" "$tmp/out"
else
	setpriv --bounding-set=-dac_override,-dac_read_search "$TOOL" --diff --fleet "$S" > "$tmp/locked.out" 2>&1
	check "an unreadable file (root without DAC override): recorded with its errno" \
		grep -qx "  $S/locked.json: Permission denied" "$tmp/locked.out"
fi
check "... and db1 compared" grep -qx "    host db1" "$tmp/out"
"$TOOL" --diff --fleet -J "$S" > "$tmp/bad.json"
check "-J: the skipped with their reasons" jqe "$tmp/bad.json" \
	"[.skipped[] | select(.source == \"$S/truncated.json\")] == [{\"source\": \"$S/truncated.json\", \"why\": \"truncated JSON\"}]"
chmod 644 "$S/locked.json"

# ---- the fixtures as they are: reports of no host ----
fleet_ "$M"/*/expected.json
check "the fixtures' own reports have no hostname: none can be paired, exit 2, one line ($rc)" \
	bash -c 'test "$1" -eq 2 && ! test -s "$2" && test "$(wc -l < "$3")" -eq 1 &&
		 grep -q "^dmamask-audit: --diff --fleet: no report could be read ([0-9]* skipped; .*: no host.hostname" "$3"' \
	_ "$rc" "$tmp/out" "$tmp/err"

# ---- misuse: one line, exit 2, nothing on stdout ----
bad() { # NAME EXPECTED-STDERR ARGS...
	local name=$1 want=$2
	shift 2
	timeout 30 "$TOOL" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "$name: exit 2 ($rc), nothing on stdout, one line" \
		bash -c 'test "$1" -eq 2 && ! test -s "$2" && grep -q -- "$3" "$4" && test "$(grep -vc "^Try" "$4")" -eq 1' \
		_ "$rc" "$tmp/out" "$want" "$tmp/err"
}
mkdir "$tmp/empty"
mkfifo "$tmp/fifo"
bad "a directory with no report" "$tmp/empty: a directory with no report in it (no \*.json)" --diff --fleet "$tmp/empty"
bad "a path that does not exist" "$tmp/nosuch: No such file or directory" --diff --fleet "$B" "$tmp/nosuch"
bad "a FIFO" "fifo: neither a report nor a directory of reports" --diff --fleet "$tmp/fifo"
bad "an empty name" "empty name" --diff --fleet ""
bad "every report bad" "no report could be read (1 skipped; $S/truncated.json: truncated JSON)" \
	--diff --fleet "$S/truncated.json"
bad "--fleet without --diff" "--fleet is a way of --diff" --fleet "$B"
bad "--diff --fleet and no PATH" "takes reports or directories of them" --diff --fleet
bad "--diff --fleet --allow-incomplete" "never snapshots" --diff --fleet --allow-incomplete "$B"
bad "--diff --fleet as Prometheus" "text or JSON" --diff --fleet --format prometheus "$B"
tap_done
