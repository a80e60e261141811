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

tap_done
