#!/bin/bash
# The one-open read on nodev mounts (src/sysroot/sysroot-dir.c read_leaf_nodev): a
# device's attributes replaced by a FIFO, a character device node and a
# symlink out are judged alike on a nodev tmpfs (the fast path, as live
# sysfs is) and on a mount that allows device nodes (the careful path), by
# both resolvers: the same report, no hang, the FIFO and the node never
# read. Needs root (mount, mknod).
set -u
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "mount and mknod need root"
	tap_done
	exit 0
fi
tmp=$(mktemp -d) || exit 99
trap 'umount "$tmp/nodev" 2> /dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/nodev" "$tmp/dev"
if ! mount -t tmpfs -o nodev,size=64m tmpfs "$tmp/nodev" 2> /dev/null; then
	skip "cannot mount a tmpfs here"
	tap_done
	exit 0
fi
check "the tmpfs is nodev" bash -c 'findmnt -no OPTIONS "$1" | grep -qw nodev' _ "$tmp/nodev"
for where in nodev dev; do
	"$PYTHON" "$SRCDIR/tests/machines/gen-fixtures.py" --out "$tmp/$where" x86-pc-4g > /dev/null || exit 99
	r=$tmp/$where/x86-pc-4g/root
	d=$r/sys/devices/pci0000:00/0000:00:1f.2
	[ -d "$d" ] || { echo "Bail out! no $d"; exit 99; }
	rm "$d/dma_mask_bits" "$d/numa_node" "$d/consistent_dma_mask_bits"
	mkfifo "$d/dma_mask_bits"             # a read would block forever
	mknod "$d/numa_node" c 1 3            # /dev/null's numbers: opened, it would read as empty
	ln -s /proc/self/status "$d/consistent_dma_mask_bits"
	# the read that trusts a short read (read_leaf_nodev): a uevent just under,
	# at and over its 4 KiB buffer, and an empty attribute
	n=0
	for f in 0000:00:00.0:4095 0000:00:1c.0:4096 0000:01:00.0:5000; do
		u=$r/sys/devices/pci0000:00/${f%:*}/uevent
		[ -f "$u" ] || u=$(echo "$r"/sys/devices/pci0000:00/*/"${f%:*}"/uevent)
		[ -f "$u" ] || { echo "Bail out! no uevent for ${f%:*}"; exit 99; }
		pad=$((${f##*:} - $(stat -c %s "$u") - 7))
		# the padding first and no id files: only a whole read finds the ids
		{ printf 'X_PAD=%*s\n' "$pad" "" | tr ' ' a; cat "$u"; } > "$u.new" && mv "$u.new" "$u"
		(cd "${u%/uevent}" && rm -f vendor device subsystem_vendor subsystem_device class)
		[ "$(stat -c %s "$u")" = "${f##*:}" ] || { echo "Bail out! $u is not ${f##*:} bytes"; exit 99; }
	done
	: > "$r/sys/devices/pci0000:00/0000:00:1c.0/numa_node"
done
export -f normalise
for res in openat2 walk; do
	for where in nodev dev; do
		timeout 20 "$TOOL" --sysroot "$tmp/$where/x86-pc-4g/root" --resolver "$res" --json \
			> "$tmp/$where-$res.json" 2> /dev/null
		rc=$?
		check "$where ($res): no hang, exit 0 or 1 ($rc)" test "$rc" -le 1
		check "$where ($res): the FIFO is not a regular file (EINVAL)" jqe "$tmp/$where-$res.json" \
			'[.inputs[] | select(.path | endswith("0000:00:1f.2/dma_mask_bits"))][0] | .status == "invalid" and .errno == "EINVAL"'
		check "$where ($res): the device node is not a regular file (EINVAL)" jqe "$tmp/$where-$res.json" \
			'[.inputs[] | select(.path | endswith("0000:00:1f.2/numa_node"))][0] | .errno == "EINVAL"'
		check "$where ($res): uevents of 4095, 4096 and 5000 bytes read whole" jqe "$tmp/$where-$res.json" \
			'[.devices[] | select(.id == "0000:00:00.0" or .id == "0000:00:1c.0" or .id == "0000:01:00.0") | .pci_ids.vendor] == ["8086", "8086", "144d"]'
		check "$where ($res): an empty attribute is invalid, not a value" jqe "$tmp/$where-$res.json" \
			'[.inputs[] | select(.path | endswith("0000:00:1c.0/numa_node"))][0] | .status == "invalid"'
	done
	check "$res: nodev and dev mounts give the same report" \
		bash -c 'diff <(normalise "$1") <(normalise "$2") | head -20 | sed "s/^/# /"; exit "${PIPESTATUS[0]}"' \
		_ "$tmp/nodev-$res.json" "$tmp/dev-$res.json"
done
# the fast path is taken where it may be: fewer stats on nodev
if command -v strace > /dev/null; then
	for where in nodev dev; do
		strace -f -c -o "$tmp/$where.sc" "$TOOL" --sysroot "$tmp/$where/x86-pc-4g/root" --json > /dev/null 2>&1
	done
	n_nodev=$(awk '$NF == "newfstatat" { print $4 }' "$tmp/nodev.sc")
	n_dev=$(awk '$NF == "newfstatat" { print $4 }' "$tmp/dev.sc")
	check "one stat less per attribute on nodev ($n_nodev stats, $n_dev on a dev mount)" \
		test "${n_nodev:-0}" -lt "${n_dev:-0}"
fi
tap_done
