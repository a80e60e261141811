#!/bin/bash
# DMAMASK_DEBUG=sysroot: one stderr line per filesystem access, the operation,
# the root-relative path and its result ("0" or the errno's name); the
# report on stdout is the same as without it. A comma-separated list, unknown
# words ignored.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures
root=$(fixture_root x86-pc-4g) || exit 99
line='^dmamask-audit: sysroot: [a-z-]+ [^ /][^ ]*: (0|E[A-Z0-9]+)( \(.*\))?$'

for res in openat2 walk; do
	for fmt in text json; do
		"$TOOL" --sysroot "$root" --resolver "$res" --"$fmt" > "$tmp/plain" 2> "$tmp/plain.err"
		DMAMASK_DEBUG=sysroot "$TOOL" --sysroot "$root" --resolver "$res" --"$fmt" \
			> "$tmp/traced" 2> "$tmp/trace"
		check "$fmt ($res): stdout unchanged by the trace" same_report "$tmp/plain" "$tmp/traced"
	done
	check "($res): no trace without DMAMASK_DEBUG" sh -c "! grep -q 'sysroot:' '$tmp/plain.err'"
	check "($res): proc/iomem read, with its size" \
		grep -Eq '^dmamask-audit: sysroot: read proc/iomem: 0 \([0-9]+ bytes\)$' "$tmp/trace"
	check "($res): a read through a device's directory names its whole path" \
		grep -Eq '^dmamask-audit: sysroot: read sys/bus/pci/devices/[^/]+/dma_mask_bits: 0 ' "$tmp/trace"
	check "($res): a missing file says ENOENT" grep -Eq ': ENOENT$' "$tmp/trace"
	check "($res): the first line names the resolver" \
		sh -c "grep 'sysroot:' '$tmp/trace' | head -1 | grep -Eq '^dmamask-audit: sysroot: open \\.: 0 \\((openat2|walk)\\)$'"
	check "($res): a listing counts its entries" \
		grep -Eq '^dmamask-audit: sysroot: list sys/bus/pci/devices: 0 \([0-9]+ entries\)$' "$tmp/trace"
	check "($res): every trace line has the format, no host path" \
		sh -c "grep -v 'sysroot:' '$tmp/trace' | cmp -s - '$tmp/plain.err' &&
			! grep 'sysroot:' '$tmp/trace' | grep -Ev '$line' | grep -q . &&
			! grep -qF '$root' '$tmp/trace'"
done

# a list: unknown words are ignored, with or without the known one
DMAMASK_DEBUG=nonsense,sysroot-not "$TOOL" --sysroot "$root" > /dev/null 2> "$tmp/e1"
check "unknown words alone: no trace" sh -c "! grep -q 'sysroot:' '$tmp/e1'"
DMAMASK_DEBUG=nonsense,sysroot, "$TOOL" --sysroot "$root" > /dev/null 2> "$tmp/e2"
check "unknown words beside sysroot: the trace" grep -q 'sysroot: read proc/iomem: 0' "$tmp/e2"

# readers: a line per reader with its result; verdicts: a line per device naming
# the catalogue case that decided and the numbers behind it, the report unchanged
"$TOOL" --sysroot "$root" --json > "$tmp/plain" 2> /dev/null
DMAMASK_DEBUG=readers,verdicts "$TOOL" --sysroot "$root" --json > "$tmp/traced" 2> "$tmp/trace"
check "readers,verdicts: stdout unchanged by the trace" same_report "$tmp/plain" "$tmp/traced"
check "readers: identity first, with the release" \
	sh -c "head -1 '$tmp/trace' | grep -Eq '^dmamask-audit: readers: identity: 0 \\(release [^)]+\\)$'"
check "readers: iomem read, its inputs counted" \
	grep -Eq '^dmamask-audit: readers: iomem: 0 \(inputs: [0-9]+, devices added: 0\)$' "$tmp/trace"
check "readers: pci adds the PCI devices" \
	grep -Eq '^dmamask-audit: readers: pci: 0 \(inputs: [0-9]+, devices added: [1-9][0-9]*\)$' "$tmp/trace"
n_dev=$(jq '.devices | length' "$tmp/plain")
check "verdicts: one line per device ($n_dev)" \
	test "$(grep -c '^dmamask-audit: verdicts: ' "$tmp/trace")" -eq "$n_dev"
sata=$(jq -r '.devices[] | select(.id == "0000:00:1f.2") | .verdict' "$tmp/plain")
check "verdicts: the AHCI's case and its verdict ($sata) with its mask" \
	grep -Eq "^dmamask-audit: verdicts: 0000:00:1f\.2: VR_[A-Z_]+ -> $sata \(mask 0xffffffff, " "$tmp/trace"
check "verdicts: no sysroot line unless asked" sh -c "! grep -q ': sysroot: ' '$tmp/trace'"

# eras: each lookup of a kernel-era rule, its release, arch, value and the row's citation
DMAMASK_DEBUG=eras "$TOOL" --sysroot "$root" --json > "$tmp/traced" 2> "$tmp/trace"
check "eras: stdout unchanged by the trace" same_report "$tmp/plain" "$tmp/traced"
rel=$(jq -r '.kernel.release' "$tmp/plain" | grep -oE '^[0-9]+\.[0-9]+' )
check "eras: ERA_MAX_LOW_PFN looked up at the snapshot's release ($rel), a value and its citation" \
	grep -Eq "^dmamask-audit: eras: ERA_MAX_LOW_PFN at $rel\.[0-9]+, x86: MAX_LOW_PFN_(PFN|COUNT) \(.+\)$" "$tmp/trace"
check "eras: every line names a rule and a value or no row" \
	sh -c "! grep -Ev '^dmamask-audit: eras: ERA_[A-Z0-9_]+ at .*: ([A-Z0-9_]+|no row) \(.*\)$' '$tmp/trace' | grep -q ."

tap_done
