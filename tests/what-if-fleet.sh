#!/bin/bash
# --what-if KEY=VALUE... --diff --fleet SNAPSHOT...: every snapshot judged
# today and after the change, the changes grouped across hosts (issue 40).
# The hosts are kernel-* guest captures: the 5.10 force-words guest goes from
# forced to failing on 6.1 (swiotlb=noforce wins from 5.19,
# kernel/dma/swiotlb.c setup_io_tlb_npages), as its 6.1 twin did.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'chmod -R u+rwX "$tmp" 2> /dev/null; rm -rf "$tmp"' EXIT
M=$SRCDIR/tests/machines
wf() { "$TOOL" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }

F=$tmp/fleet
mkdir -p "$F"
cp "$M/kernel-x86-pc-6g-force-words-bullseye/root.tar.gz" "$F/a-old.tar.gz"
cp "$M/kernel-x86-pc-6g-force-words-bullseye/root.tar.gz" "$F/b-old.tar.gz"
cp "$M/kernel-x86-pc-6g-force-words/root.tar.gz" "$F/c-new.tar.gz"
mkdir "$F/d-dir" && tar xzf "$M/kernel-x86-pc-3g/root.tar.gz" -C "$F/d-dir" --strip-components=1
cp "$M/x86-pc-4g/expected.json" "$F/report.json"
echo "not a snapshot" > "$F/README"
mkdir "$F/empty-dir"

# the 6.1 twin's own release: it is left unchanged, the 3g guest (6.1.0-57) changes release only
K=kernel=6.1.0-50-amd64,stable=6.1.176
wf --what-if "$K" --diff --fleet "$F"
check "a directory of snapshots: exit 1, a host got worse ($rc)" test "$rc" -eq 1
check "the head: 4 snapshots judged today and after the change, 3 skipped" \
	grep -qx "what-if over a fleet: 4 snapshots of 4 hosts, each judged today and after $K; 3 skipped" "$tmp/out"
check "... 1 unchanged (6.1 already), 2 worse" grep -qx "3 hosts changed, 1 unchanged; 2 worse at or above error" "$tmp/out"
check "the two 5.10 hosts' IDE: forced -> fails, grouped by card" \
	grep -qx "  2 hosts (2 worse): device ata_piix \[8086:7010\]: forced -> fails" "$tmp/out"
check "... named by their snapshots (hostname (none) names no host)" \
	grep -qx "    hosts $F/a-old.tar.gz, $F/b-old.tar.gz" "$tmp/out"
check "an assumption counted by hosts" \
	grep -q "^  4 hosts: 6.1.0-50-amd64 is built as today's kernel is" "$tmp/out"
check "the pool decided again on the 5.10 hosts only" \
	grep -qx "  2 hosts: the swiotlb pool: the era rules give a pool for today's configuration and no pool after the change" "$tmp/out"
check "a JSON report is skipped: it holds no machine to judge" \
	grep -q "^  $F/report.json: .*holds no machine to judge" "$tmp/out"
check "a directory that is no snapshot is skipped, said so" \
	grep -q "^  $F/empty-dir: a directory that is not a snapshot" "$tmp/out"
check "a text file is skipped too" grep -q "^  $F/README: " "$tmp/out"

wf --what-if "$K" --diff --fleet "$F" -J
check "-J: exit 1 ($rc)" test "$rc" -eq 1
json_ok() { python3 -m json.tool "$1" > /dev/null; }
check "-J: valid JSON" json_ok "$tmp/out"
check "-J: what_if names the change" test "$(jq -c .what_if.changes "$tmp/out")" = "[\"$K\"]"
check "-J: 4 judged, 2 worse" test "$(jq -c '[.reports, .worse_hosts, (.skipped | length)]' "$tmp/out")" = "[4,2,3]"
check "-J: the pool's assumption on 2 hosts" \
	test "$(jq '[.what_if.assumptions[] | select(.text | startswith("the swiotlb pool")) | .hosts] | add' "$tmp/out")" = 2

wf --what-if "$K" --diff --fleet "$F/c-new.tar.gz" "$F/d-dir"
check "nothing worse: exit 0 ($rc)" test "$rc" -eq 0

# ---- refused ----
wf --what-if "$K" --diff --fleet "$F/report.json"
check "no snapshot judged: exit 2 ($rc)" test "$rc" -eq 2
check "... said in one line" grep -q "no snapshot could be judged (1 skipped; $F/report.json: JSON" "$tmp/err"
wf --what-if "$K" --diff --fleet "$F/empty-dir"
check "an empty directory: exit 2 ($rc)" test "$rc" -eq 2
check "... said so" grep -qx "dmamask-audit: --what-if --diff --fleet $F/empty-dir: an empty directory: no snapshot in it" "$tmp/err"
wf --what-if "$K" --diff --fleet "$tmp/nothing"
check "a missing path: exit 2 ($rc)" test "$rc" -eq 2
wf --what-if "$K" --diff --fleet
check "no PATH: exit 2 ($rc)" test "$rc" -eq 2
wf --what-if "$K" --diff --fleet --sysroot "$F/d-dir" "$F/c-new.tar.gz"
check "--sysroot has no place: exit 2 ($rc)" test "$rc" -eq 2
wf --what-if "$K" --diff --fleet --assume-mask 0000:00:01.1=24 "$F/c-new.tar.gz"
check "--assume-mask has no place: exit 2 ($rc)" test "$rc" -eq 2
wf --what-if ram=+1G@0x0 --diff --fleet "$F/c-new.tar.gz"
check "a change that cannot apply to any: exit 2 ($rc)" test "$rc" -eq 2
check "... each said on stderr" grep -q "overlaps RAM" "$tmp/err"

tap_done
