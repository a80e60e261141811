#!/bin/bash
# Bad input, one case each: the tool answers with one clear line (exit 2)
# or an "inputs" entry in valid JSON; never a crash, a hang or a read
# outside the sysroot. Every sysroot case runs with both path resolvers.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures
good=$(fixture_root x86-pc-4g) || exit 99

# usage ERRDESC ARGS...: exit 2, one line of stderr naming the problem, nothing on stdout
usage() {
	local d="$1"; shift
	timeout 10 "$TOOL" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	check "$d: exit 2 ($rc)" test "$rc" -eq 2
	check "$d: nothing on stdout" test ! -s "$tmp/out"
	check "$d: error says so on stderr" test -s "$tmp/err"
	check "$d: first line names the tool" grep -q '^dmamask-audit: ' "$tmp/err"
}

# The basics first: version, help and usage go to stdout and exit 0.
v=$(timeout 10 "$TOOL" -V); rc=$?
check "-V exits 0 ($rc)" test "$rc" -eq 0
check "-V prints the name and version ($v)" bash -c '[[ "$1" =~ ^dmamask-audit\ [0-9]+\.[0-9]+\.[0-9]+$ ]]' _ "$v"
check "--version is -V" test "$(timeout 10 "$TOOL" --version)" = "$v"
check "-h lists the options" bash -c '"$1" -h | grep -q -- "--sysroot"' _ "$TOOL"
check "--help is -h" bash -c 'cmp -s <("$1" -h) <("$1" --help)' _ "$TOOL"
check "--usage exits 0" bash -c '"$1" --usage | grep -q "^Usage: dmamask-audit"' _ "$TOOL"

usage "missing sysroot" --sysroot "$tmp/does-not-exist"
touch "$tmp/plain-file"
usage "sysroot is a file" --sysroot "$tmp/plain-file"
usage "unknown format" --format xml
usage "page size not a power of two" --page-size 5000
usage "page size too small" --page-size 1024
usage "page size not a number" --page-size 4k
# the running kernel's page size is known: another one on this system is a mistake, said
live_ps=$(getconf PAGESIZE)
other_ps=$((live_ps == 65536 ? 4096 : 65536))
usage "page size other than this kernel's ($other_ps, live $live_ps)" --page-size "$other_ps"
check "... naming the kernel's own" grep -q "page size is $live_ps" "$tmp/err"
check "... one line" test "$(wc -l < "$tmp/err")" -eq 1
timeout 30 "$TOOL" --page-size "$live_ps" -r > /dev/null 2>&1
check "page size the kernel's own: accepted on this system" test $? -ne 2
timeout 30 "$TOOL" --sysroot "$good" --page-size "$other_ps" -r > /dev/null 2>&1
check "page size for a snapshot: accepted" test $? -ne 2
usage "unknown severity" --fail-on fatal
usage "stray argument" stray
usage "unknown option" --no-such-option
usage "assume-mask without =" --assume-mask 0000:00:1f.2
usage "assume-mask not hex" --assume-mask 0000:00:1f.2=0xzz
usage "assume-mask of zero" --assume-mask 0000:00:1f.2=0
usage "assume-mask above 64 bits" --assume-mask 0000:00:1f.2=0x1ffffffffffffffff
usage "assume-mask hex without 0x" --assume-mask 0000:00:1f.2=ffffffff
usage "assume-mask of 65 bits" --assume-mask 0000:00:1f.2=65
usage "assume-mask given twice" --assume-mask 00:1f.2=32 --assume-mask 0000:00:1f.2=0xffff
usage "assume-mask of a device that does not exist" --sysroot "$good" --assume-mask nosuch.dev=0xffffffff
usage "unknown output column" -o DEVICE,NOPE
usage "--output with --format prometheus" --format prometheus -o DEVICE
usage "--raw with --format prometheus" --format prometheus --raw
usage "--sort with --format prometheus" --format prometheus -x VERDICT
usage "--raw with --json" --json -r
usage "--pairs with --raw" -P -r
usage "--pairs with --format ndjson" --format ndjson -P
usage "--output with --format ndjson" --format ndjson -o DEVICE
usage "unknown sort column" -x NOPE
usage "sort column as a list" -x DEVICE,VERDICT
mkdir -p "$tmp/etc-like/conf.d"; echo x > "$tmp/etc-like/hosts"
usage "a sysroot that is not a snapshot" --sysroot "$tmp/etc-like"
check "a sysroot that is not a snapshot: says so" grep -q "not a snapshot" "$tmp/err"
# the accepted forms: bits (31, not 0x31) on lspci's short address, and a hex mask
timeout 10 "$TOOL" --sysroot "$good" --json --assume-mask 00:1F.2=31 > "$tmp/am.json" 2> /dev/null
check "assume-mask BITS on a short PCI address: 0x7fffffff, from the user" jqe "$tmp/am.json" \
	'[.devices[] | select(.id == "0000:00:1f.2")][0] | .dma_mask == "0x7fffffff" and .mask_source == "user"'
timeout 10 "$TOOL" --sysroot "$good" --json --assume-mask 0000:00:1f.2=0x31 > "$tmp/am.json" 2> /dev/null
check "assume-mask 0xHEX: the mask itself" jqe "$tmp/am.json" \
	'[.devices[] | select(.id == "0000:00:1f.2")][0].dma_mask == "0x31"'
usage "empty output list" -o ""
usage "bad colour" --color=sometimes
check "missing sysroot: one line" test "$(wc -l < "$tmp/err")" -le 2

# mkroot NAME: a copy of the good x86 fixture to spoil
mkroot() {
	rm -rf "$tmp/$1"
	cp -r "$good" "$tmp/$1"
	echo "$tmp/$1"
}

# audit ROOT RESOLVER: JSON in $tmp/j, exit status in rc; times out at 10 s
audit() {
	timeout 10 "$TOOL" --sysroot "$1" --resolver "$2" --json > "$tmp/j" 2> "$tmp/e"
	rc=$?
}

# expect_input DESC ROOT PATH STATUS [ERRNO]
expect_input() {
	local d="$1" root="$2" path="$3" status="$4" err="${5:-}" res
	for res in openat2 walk; do
		audit "$root" "$res"
		check "$d ($res): no crash, no hang (exit $rc)" test "$rc" -le 1
		check "$d ($res): valid JSON" valid_json "$tmp/j"
		check "$d ($res): $path is $status" jqe "$tmp/j" \
			'[.inputs[] | select(.path == $p)][0].status == $s' --arg p "$path" --arg s "$status"
		if [ -n "$err" ]; then
			check "$d ($res): errno $err" jqe "$tmp/j" \
				'[.inputs[] | select(.path == $p)][0].errno == $e' --arg p "$path" --arg e "$err"
		fi
	done
}

# proc/version is read only behind an ABI name ("5.10.0-32-amd64")
r=$(mkroot version); sed -i 's/^kernel_release=.*/kernel_release=5.10.0-32-amd64/' "$r/MANIFEST"
printf 'Linux version 5.10.0-32-amd64 #1 SMP Debian 5.10.2\0\001\n' > "$r/proc/version"
expect_input "binary proc/version" "$r" proc/version invalid EBADMSG
check "binary proc/version: no stable release" jqe "$tmp/j" \
	'.kernel.stable_release == null and .kernel.release == "5.10.0-32-amd64"'
head -c 100000 /dev/zero | tr '\0' 'x' > "$r/proc/version"
expect_input "huge proc/version" "$r" proc/version invalid
printf 'Linux version 5.10.0-32-amd64 #1 SMP Debian 5.10.223-1 (2024-08-10)\n' > "$r/proc/version"
audit "$r" openat2
check "Debian proc/version: the stable release behind the ABI name" jqe "$tmp/j" \
	'.kernel.stable_release == "5.10.223" and .kernel.stable_release_source == "proc/version"'

# an arm64 ACPI IORT that lies about itself: an input entry, the limits unread
iort=$(fixture_root arm64-acpi-iort-6.1) || exit 99
rm -rf "$tmp/iort" && cp -r "$iort" "$tmp/iort" && r=$tmp/iort
head -c 60 "$iort/sys/firmware/acpi/tables/IORT" > "$r/sys/firmware/acpi/tables/IORT"
expect_input "truncated IORT" "$r" sys/firmware/acpi/tables/IORT invalid EBADMSG
check "truncated IORT: no limit applied" jqe "$tmp/j" \
	'[.devices[] | select(.dma_ranges != null)] | length == 0'
head -c 2000000 /dev/zero > "$r/sys/firmware/acpi/tables/IORT"
expect_input "huge IORT" "$r" sys/firmware/acpi/tables/IORT invalid

r=$(mkroot empty); : > "$r/proc/iomem"
expect_input "empty iomem" "$r" proc/iomem invalid EBADMSG
check "empty iomem: falls back to zoneinfo" jqe "$tmp/j" '.memory.source == "zoneinfo"'

r=$(mkroot empty-zoneinfo); : > "$r/proc/zoneinfo"
expect_input "empty zoneinfo" "$r" proc/zoneinfo invalid EBADMSG
: > "$r/proc/iomem"
audit "$r" openat2
check "no memory layout: no device judged direct, no reach guessed" jqe "$tmp/j" \
	'.memory.source == "none" and ([.devices[] | select(.verdict == "direct" or .verdict == "partial"
	   or .verdict == "fails")] | length == 0) and ([.devices[] | select(.models.dma_direct != null
	   or .reachable_ram_bytes != null)] | length == 0) and
	 ([.devices[] | select(.verdict == "unknown")] | length > 0)'

r=$(mkroot truncated); head -c 300 "$good/proc/iomem" > "$r/proc/iomem"
expect_input "truncated iomem" "$r" proc/iomem invalid EBADMSG

r=$(mkroot truncated-zoneinfo); head -c 150 "$good/proc/zoneinfo" > "$r/proc/zoneinfo"
expect_input "truncated zoneinfo" "$r" proc/zoneinfo invalid EBADMSG

r=$(mkroot binary); head -c 4096 /dev/urandom > "$r/proc/iomem"; printf '\0' >> "$r/proc/iomem"
expect_input "binary iomem" "$r" proc/iomem invalid EBADMSG

r=$(mkroot binary-meminfo); printf 'MemTotal: \0\377 kB\n' > "$r/proc/meminfo"
expect_input "binary meminfo" "$r" proc/meminfo invalid EBADMSG

r=$(mkroot oversized); head -c $((5 * 1024 * 1024)) /dev/zero | tr '\0' 'x' > "$r/proc/iomem"
expect_input "oversized iomem (5 MiB)" "$r" proc/iomem invalid EFBIG

r=$(mkroot fifo); rm "$r/proc/iomem"; mkfifo "$r/proc/iomem"
expect_input "FIFO as iomem" "$r" proc/iomem invalid EINVAL

r=$(mkroot socket); rm "$r/proc/zoneinfo"
"$PYTHON" -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$r/proc/zoneinfo"
expect_input "socket as zoneinfo" "$r" proc/zoneinfo invalid EINVAL

r=$(mkroot dir); rm "$r/proc/cmdline"; mkdir "$r/proc/cmdline"
expect_input "directory as cmdline" "$r" proc/cmdline invalid EISDIR

r=$(mkroot garbage-manifest); printf 'arch=x86_64\nthis is not key value\n' > "$r/MANIFEST"
expect_input "garbage MANIFEST" "$r" MANIFEST invalid EBADMSG

# unreadable_manifest DESC ROOT ERRNO: a MANIFEST that exists but cannot be read may have
# said complete=0, so nothing says the capture finished: incomplete (exit 2), recorded
unreadable_manifest() {
	local d="$1" root="$2" err="$3" res
	for res in openat2 walk; do
		audit "$root" "$res"
		check "$d ($res): an incomplete snapshot, exit 2 ($rc)" test "$rc" -eq 2
		check "$d ($res): valid JSON" valid_json "$tmp/j"
		check "$d ($res): MANIFEST is invalid, errno $err" jqe "$tmp/j" \
			'[.inputs[] | select(.path == "MANIFEST")][0] | .status == "invalid" and .errno == $e' \
			--arg e "$err"
		check "$d ($res): snapshot-incomplete says the MANIFEST cannot be read" jqe "$tmp/j" \
			'[.findings[] | select(.id == "snapshot-incomplete")] | length == 1 and
			 (.[0].evidence.why | test("MANIFEST cannot be read"))'
	done
	timeout 10 "$TOOL" --sysroot "$root" --json --allow-incomplete > "$tmp/j" 2> /dev/null
	rc=$?
	check "$d: --allow-incomplete audits it all the same (exit $rc)" test "$rc" -le 1
}
r=$(mkroot manifest-big); head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' '#' > "$r/MANIFEST"
unreadable_manifest "MANIFEST over 16 MiB" "$r" EFBIG
r=$(mkroot manifest-fifo); rm "$r/MANIFEST"; mkfifo "$r/MANIFEST"
unreadable_manifest "FIFO as MANIFEST" "$r" EINVAL
r=$(mkroot manifest-dir); rm "$r/MANIFEST"; mkdir "$r/MANIFEST"
unreadable_manifest "directory as MANIFEST" "$r" EISDIR
r=$(mkroot manifest-none); rm "$r/MANIFEST"
expect_input "no MANIFEST (a hand-made tree)" "$r" MANIFEST missing ENOENT
check "no MANIFEST: not an incomplete snapshot" jqe "$tmp/j" \
	'[.findings[] | select(.id == "snapshot-incomplete")] | length == 0'

r=$(mkroot huge); sed -i '0,/System RAM/s/^[0-9a-f]*-/ffffffffffffffffff-/' "$r/proc/iomem"
expect_input "iomem address above 2^64" "$r" proc/iomem invalid EBADMSG

r=$(mkroot whole-space); printf '00000000-ffffffffffffffff : System RAM\n' > "$r/proc/iomem"
expect_input "iomem range covering 2^64" "$r" proc/iomem invalid EBADMSG

# A snapshot's --observe files (run/dmamask-audit/observe): a window the tool
# did not write is an invalid input and no observation; bad trace lines are
# counted; binary junk, a missing window, a trace that is a directory.
r=$(mkroot observe-bad-window); mkdir -p "$r/run/dmamask-audit/observe"
printf 'window_seconds=soon\n' > "$r/run/dmamask-audit/observe/window"
expect_input "observe: malformed window" "$r" run/dmamask-audit/observe invalid EBADMSG
check "observe: malformed window: no observation" jqe "$tmp/j" '.observation == null'
r=$(mkroot observe-no-window); mkdir -p "$r/run/dmamask-audit/observe"
printf 'junk\n' > "$r/run/dmamask-audit/observe/trace"
expect_input "observe: no window file" "$r" run/dmamask-audit/observe invalid EBADMSG
r=$(mkroot observe-junk); mkdir -p "$r/run/dmamask-audit/observe"
printf 'window_seconds=2\n' > "$r/run/dmamask-audit/observe/window"
head -c 65536 /dev/urandom > "$r/run/dmamask-audit/observe/trace"
printf '\n  x-1 [000] ..... 1.0: swiotlb_bounced: dev_name: 0000:00:1f.2 dma_mask=\n' >> "$r/run/dmamask-audit/observe/trace"
head -c 4096 /dev/urandom > "$r/run/dmamask-audit/observe/kmsg"
expect_input "observe: binary trace and kmsg" "$r" run/dmamask-audit/observe ok
check "observe: binary trace: the bad event line is counted" jqe "$tmp/j" '.observation.bad_lines >= 1'
r=$(mkroot observe-dir); mkdir -p "$r/run/dmamask-audit/observe/trace"
printf 'window_seconds=2\n' > "$r/run/dmamask-audit/observe/window"
expect_input "observe: trace is a directory" "$r" run/dmamask-audit/observe/trace invalid
check "observe: --observe with --sysroot is refused" bash -c \
	'! "$1" --observe --sysroot "$2" > /dev/null 2>&1' _ "$TOOL" "$r"
check "observe: --observe=0 is refused" bash -c '! "$1" --observe=0 > /dev/null 2>&1' _ "$TOOL"
# --observe-probe reads block devices alone: anything else is refused before it is opened
probe_refused() { # DESCRIPTION PATH WORDS: exit 2, one line saying WORDS, nothing on stdout
	"$TOOL" --observe-probe "$2" > "$tmp/probe.out" 2> "$tmp/probe.err"
	local rc=$?
	check "--observe-probe $1: exit 2 ($rc)" test "$rc" -eq 2
	check "--observe-probe $1: one line, \"$3\"" bash -c \
		'[ "$(wc -l < "$1")" = 1 ] && grep -q -- "$2" "$1"' _ "$tmp/probe.err" "$3"
	check "--observe-probe $1: nothing on stdout" test ! -s "$tmp/probe.out"
}
probe_refused "a regular file" "$r/run/dmamask-audit/observe/window" "not a block device"
probe_refused "a character device" /dev/null "a character device, not a disk: refused"
probe_refused "a directory" "$r" "not a block device"
probe_refused "no such disk" dmamask-no-such-disk "no such disk"
check "--observe-probe with --sysroot is refused" bash -c \
	'! "$1" --observe-probe sda --sysroot "$2" > /dev/null 2>&1' _ "$TOOL" "$r"

# Amplification: thousands of "DMA addr ... overflow" records of one device (and
# of one the report does not list) make one finding each, with the count.
r=$(mkroot overflow-flood)
awk 'BEGIN { for (i = 0; i < 3000; i++) {
	printf "3,%d,%d,-;ahci 0000:00:1f.2: DMA addr 0x%x+4096 overflow (mask ffffffff, bus limit 0).\n", 20000 + i, i, 268435456 + 4096 * i
	printf " SUBSYSTEM=pci\n DEVICE=+pci:0000:00:1f.2\n"
	printf "3,%d,%d,-;ghost 0000:09:00.0: DMA addr 0x%x+512 overflow (mask ffffffff, bus limit 0).\n", 40000 + i, i, 268435456 + 512 * i
} }' >> "$r/dev/kmsg"
expect_input "3000 overflow records a device" "$r" dev/kmsg ok
check "overflow flood: one finding for the listed device, with the count" jqe "$tmp/j" \
	'[.findings[] | select(.id == "dma-overflow-logged" and .device == "0000:00:1f.2")] | length == 1 and .[0].evidence.log_lines == 3000 and .[0].evidence.last_addr == "0x10bb7000"'
check "overflow flood: one finding for the unlisted device" jqe "$tmp/j" \
	'[.findings[] | select(.id == "dma-overflow-logged" and .device == "0000:09:00.0")] | length == 1 and .[0].evidence.log_lines == 3000'

# Malformed "swiotlb addr ... overflow" records (kernel/dma/swiotlb.c swiotlb_map):
# skipped and counted, never a finding, never pinned on a device.
r=$(mkroot pool-overflow)
{
	printf '4,9000,1,-;ahci 0000:00:1f.2: swiotlb addr 0xbbfe8000+ overflow (mask ffffffff, bus limit 0).\n'
	printf '4,9001,2,-;ahci 0000:00:1f.2: swiotlb addr 0xzz+12 overflow (mask ffffffff, bus limit 0).\n'
	printf '4,9002,3,-;swiotlb addr 0xbbfe8000+4096 overflow (mask ffffffff, bus limit 0).\n'
	printf '4,9003,4,-;nvme 0000:01:00.0: swiotlb addr 0xffffffffffffffffff+1 overflow (mask ff, bus limit 0).\n'
	printf '4,9004,5,-;nvme 0000:01:00.0: swiotlb addr 0x1000+1 overflow (mask ff\n'
	printf ' DEVICE=+pci:0000:00:1f.2\n'
} >> "$r/dev/kmsg"
expect_input "malformed swiotlb addr overflow lines" "$r" dev/kmsg ok
check "malformed swiotlb addr overflow lines: five records skipped" jqe "$tmp/j" \
	'[.inputs[] | select(.path == "dev/kmsg")][0].detail == "5 malformed records skipped"'
check "malformed swiotlb addr overflow lines: no swiotlb-out-of-reach" jqe "$tmp/j" \
	'[.findings[] | select(.id == "swiotlb-out-of-reach")] | length == 0'
check "malformed swiotlb addr overflow lines: no kernel-log sign" jqe "$tmp/j" \
	'[.devices[] | select(.dma_signs | index("kernel-log"))] | length == 0'

# A crafted libkmod index makes libkmod loop and allocate: the lookup runs
# sandboxed, the run ends, the input is invalid.
r=$(mkroot kmod-index); rm -rf "$r/sys/bus/pci/devices"/*/driver
sed -i '/^DRIVER=/d' "$r/sys/bus/pci/devices"/*/uevent # unbound, as the kernel's uevent says it
mkdir -p "$r/lib/modules/6.1.0-27-amd64"
"$PYTHON" -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack(">III",0xB007F457,0x00020001,0xfffffff0))' \
	"$r/lib/modules/6.1.0-27-amd64/modules.alias.bin"
expect_input "crafted modules.alias.bin" "$r" lib/modules/6.1.0-27-amd64 invalid EBADMSG

# lspci would gunzip a compressed list, which expands without bound: refused.
r=$(mkroot gz-ids); mkdir -p "$r/usr/share/misc"
printf '8086  Intel\n' | gzip > "$r/usr/share/misc/pci.ids"
expect_input "gzip-compressed pci.ids" "$r" usr/share/misc/pci.ids invalid EBADMSG

# A list past the 8 MiB cap is refused as too long before a line of it is
# scanned, even when its first line is bad.
r=$(mkroot big-ids); mkdir -p "$r/usr/share/misc"
{ echo "zz not a vendor"; head -c $((9 << 20)) /dev/zero | tr '\0' '#'; } > "$r/usr/share/misc/pci.ids"
expect_input "pci.ids past the 8 MiB cap" "$r" usr/share/misc/pci.ids invalid EFBIG

# Unusable devicetree cells: the device's verdict is unknown, never a guess
# made as if there were no dma-ranges.
rpi=$(fixture_root arm64-rpi4) || exit 99
for bad in "zero #address-cells:printf '\\0\\0\\0\\0'" "five #address-cells:printf '\\0\\0\\0\\5'"; do
	d=${bad%%:*}; gen=${bad#*:}
	rm -rf "$tmp/dt"; cp -r "$rpi" "$tmp/dt"
	eval "$gen" > "$tmp/dt/sys/firmware/devicetree/base/soc/#address-cells"
	timeout 10 "$TOOL" --sysroot "$tmp/dt" --json > "$tmp/j" 2>&1
	check "dt $d: no crash (exit $?)" test $? -le 1
	check "dt $d: valid JSON" valid_json "$tmp/j"
	check "dt $d: the mmc's verdict is unknown" jqe "$tmp/j" \
		'[.devices[] | select(.id == "fe340000.mmc")][0].verdict == "unknown"'
done

# A devicetree read that fails on the way (a link loop) is no "no such node"
# and no absent property: the device is unknown and the read is in inputs.
dtb=sys/firmware/devicetree/base
rm -rf "$tmp/dt"; cp -a "$rpi" "$tmp/dt"
rm -rf "$tmp/dt/$dtb/soc"; ln -s soc "$tmp/dt/$dtb/soc"
expect_input "dt link loop above the of_node" "$tmp/dt" "$dtb/soc/mmc@7e340000" invalid ELOOP
check "dt link loop above the of_node: the mmc is unknown" jqe "$tmp/j" \
	'[.devices[] | select(.id == "fe340000.mmc")][0].verdict == "unknown"'
rm -rf "$tmp/dt"; cp -a "$rpi" "$tmp/dt"
ln -sfn '#address-cells' "$tmp/dt/$dtb/soc/#address-cells"
expect_input "dt self-looping #address-cells" "$tmp/dt" "$dtb/soc/#address-cells" invalid ELOOP
check "dt self-looping #address-cells: the mmc is unknown" jqe "$tmp/j" \
	'[.devices[] | select(.id == "fe340000.mmc")][0].verdict == "unknown"'
check "dt self-looping #address-cells: the reason says so" jqe "$tmp/j" \
	'[.devices[] | select(.id == "fe340000.mmc")][0].reason | test("unreadable")'

# The rest of a device's devicetree reads decide too (found by review): a
# self-looping dma-ranges, an of_node link that cannot be followed, and every
# read on the way to a restricted-dma-pool make the device unknown, in inputs.
dt_unknown() { # DESC ROOT PATH DEVICE
	expect_input "$1" "$2" "$3" invalid "${5:-ELOOP}"
	check "$1: $4 is unknown" jqe "$tmp/j" \
		'[.devices[] | select(.id == $d)][0].verdict == "unknown"' --arg d "$4"
}
rm -rf "$tmp/dt"; cp -a "$rpi" "$tmp/dt"
ln -sfn dma-ranges "$tmp/dt/$dtb/soc/dma-ranges"
dt_unknown "dt self-looping dma-ranges" "$tmp/dt" "$dtb/soc/dma-ranges" fe340000.mmc
rm -rf "$tmp/dt"; cp -a "$rpi" "$tmp/dt"
ln -sfn of_node "$tmp/dt/sys/devices/platform/soc/fe340000.mmc/of_node"
dt_unknown "of_node linked to itself" "$tmp/dt" sys/devices/platform/soc/fe340000.mmc/of_node \
	fe340000.mmc EBADMSG
check "of_node linked to itself: the mmc is still the DMA device of its disk" jqe "$tmp/j" \
	'[.block[] | select(.disk == "mmcblk0")][0].dma_device == "fe340000.mmc"'
pool=$(fixture_root arm64-restricted-pool) || exit 99
rm -rf "$tmp/rp"; cp -a "$pool" "$tmp/rp"
ln -sfn '#address-cells' "$tmp/rp/$dtb/reserved-memory/#address-cells"
audit "$tmp/rp" openat2
# (the search for the phandle meets the loop first, as a child of reserved-memory)
check "self-looping reserved-memory/#address-cells: a read under reserved-memory fails, ELOOP" \
	jqe "$tmp/j" '[.inputs[] | select(.path | startswith($p)) | select(.errno == "ELOOP")] | length == 1' \
	--arg p "$dtb/reserved-memory/#address-cells"
check "self-looping reserved-memory/#address-cells: the wifi is unknown" jqe "$tmp/j" \
	'[.devices[] | select(.id == "18000000.wifi")][0].verdict == "unknown"'
rm -rf "$tmp/rp"; cp -a "$pool" "$tmp/rp"
ln -sfn compatible "$tmp/rp/$dtb/reserved-memory/restricted@50000000/compatible"
dt_unknown "self-looping compatible of the pool" "$tmp/rp" \
	"$dtb/reserved-memory/restricted@50000000/compatible" 18000000.wifi
rm -rf "$tmp/rp"; cp -a "$pool" "$tmp/rp"
ln -sfn memory-region "$tmp/rp/$dtb/soc/wifi@18000000/memory-region"
dt_unknown "self-looping memory-region" "$tmp/rp" "$dtb/soc/wifi@18000000/memory-region" 18000000.wifi
check "self-looping memory-region: the mmc beside it is still direct" jqe "$tmp/j" \
	'[.devices[] | select(.id == "11230000.mmc")][0].verdict == "direct"'

# Spoilt signs of DMA: recorded in inputs, never a sign they do not show.
virt=$(fixture_root arm64-virt) || exit 99
mkvirt() {
	rm -rf "$tmp/$1"
	cp -a "$virt" "$tmp/$1"
	echo "$tmp/$1"
}
eth=sys/devices/platform/9070000.ethernet
eth_idle() {
	check "$1: the MAC without its sign is idle" jqe "$tmp/j" \
		'[.devices[] | select(.id == "9070000.ethernet")][0].verdict == "idle"'
}
r=$(mkvirt net-abs); ln -sfn /etc "$r/$eth/net/eth0/device"
expect_input "class/net device link to an absolute path outside" "$r" "$eth/net/eth0/device" invalid EBADMSG
eth_idle "absolute device link"
r=$(mkvirt net-rel); ln -sfn ../../../../../../../../../../../../../../tmp "$r/$eth/net/eth0/device"
expect_input "class/net device link ../.. out of the root" "$r" "$eth/net/eth0/device" invalid EBADMSG
eth_idle "../.. device link"
r=$(mkvirt net-dangling); ln -sfn ../../no-such-device "$r/$eth/net/eth0/device"
expect_input "class/net device link to nothing" "$r" "$eth/net/eth0/device" invalid ENOENT
eth_idle "dangling device link"
r=$(mkvirt dma-file); rm "$r/sys/class/dma/dma0chan0"; echo 'not a link' > "$r/sys/class/dma/dma0chan0"
expect_input "class/dma entry that is a file" "$r" sys/class/dma/dma0chan0 invalid ENOTDIR
check "class/dma file: the other channel still credits the controller" jqe "$tmp/j" \
	'[.devices[] | select(.id == "9060000.dma")][0].dma_signs | index("dma-engine") != null'
r=$(mkvirt dt-fifo); p=sys/firmware/devicetree/base/smmuv3@9080000/dma-coherent
rm "$r/$p"; mkfifo "$r/$p"
expect_input "devicetree property that is a FIFO" "$r" "$p" invalid EINVAL
check "FIFO property: the SMMU keeps only its class sign" jqe "$tmp/j" \
	'[.devices[] | select(.id == "9080000.smmuv3")][0].dma_signs == ["iommu-unit"]'
unit=sys/devices/platform/9080000.smmuv3/iommu/smmu3.0x0000000009080000
r=$(mkvirt iommu-dangling); ln -sfn ../../no-such-device "$r/$unit/device"
"$TOOL" --sysroot "$r" --json > "$tmp/j" 2>/dev/null
check "dangling class/iommu link: the audit exits 0 or 1" test $? -le 1
# a unit whose device is nothing the tool knows credits nobody (as a DMA channel's)
check "dangling class/iommu link: the SMMU is judged on its node alone" jqe "$tmp/j" \
	'[.devices[] | select(.id == "9080000.smmuv3")][0] | .dma_signs == ["dma-coherent"] and .mask_source == "assumed"'
r=$(mkvirt dump-binary); head -c 3000 /dev/urandom > "$r/sys/kernel/debug/dma-api/dump"; printf '\0' >> "$r/sys/kernel/debug/dma-api/dump"
expect_input "binary dma-api/dump" "$r" sys/kernel/debug/dma-api/dump invalid EBADMSG

# A platform device's driver row: spoilt links, compatibles and probe lines never give a mask.
imx=$(fixture_root arm64-imx8mp) || exit 99
rpi=$(fixture_root arm64-rpi4) || exit 99
mkcopy() { # NAME FROM
	rm -rf "$tmp/$1"
	cp -a "$2" "$tmp/$1"
	echo "$tmp/$1"
}
eqos=sys/devices/platform/soc@0/30800000.bus/30bf0000.ethernet
eqos_mask() { # DESC SOURCE MASK: what the EQoS's mask is after the spoiling
	check "$1: the EQoS's mask is $2 $3" jqe "$tmp/j" \
		'[.devices[] | select(.id == "30bf0000.ethernet")][0] | .mask_source == $s and .dma_mask == $m' \
		--arg s "$2" --arg m "$3"
}
r=$(mkcopy drv-dangling "$imx"); rm -rf "$r/sys/bus/platform/drivers/imx-dwmac"
audit "$r" openat2
check "dangling driver link: exit 0 or 1" test "$rc" -le 1
# the link's target still names the driver, as the kernel's readlink would
eqos_mask "dangling driver link" driver 0x3ffffffff
r=$(mkcopy drv-file "$imx"); rm "$r/$eqos/driver"; echo imx-dwmac > "$r/$eqos/driver"
audit "$r" openat2
check "driver that is a file: no driver read" jqe "$tmp/j" \
	'[.devices[] | select(.id == "30bf0000.ethernet")][0].driver == null'
eqos_mask "driver that is a file" assumed 0xffffffff
r=$(mkcopy drv-missing "$imx"); rm "$r/$eqos/driver"
audit "$r" openat2
eqos_mask "no driver link" assumed 0xffffffff
r=$(mkcopy drv-loop "$imx"); ln -sfn driver "$r/$eqos/driver"
audit "$r" openat2
check "driver link to itself: exit 0 or 1" test "$rc" -le 1
# its target names no driver of the table: nothing decided
eqos_mask "driver link to itself" assumed 0xffffffff
# the probe line spoilt: no width, another device's, a width past 64 bits
for bad in 'Using bits DMA host/device width' 'Using 99/40 bits DMA host/device width'; do
	r=$(mkcopy drv-line "$imx"); sed -i "s#Using 34/40 bits DMA host/device width#$bad#" "$r/dev/kmsg"
	audit "$r" openat2
	check "stmmac line '$bad': skipped as malformed" jqe "$tmp/j" \
		'[.inputs[] | select(.path == "dev/kmsg")][0].detail | test("malformed")'
	eqos_mask "stmmac line '$bad'" assumed 0xffffffff
done
r=$(mkcopy drv-line-other "$imx"); sed -i 's#DEVICE=+platform:30bf0000.ethernet#DEVICE=+platform:30be0000.ethernet#' "$r/dev/kmsg"
audit "$r" openat2
eqos_mask "stmmac line naming the FEC" assumed 0xffffffff
check "stmmac line naming the FEC: the FEC keeps fec_enet_init()'s 32 bits, not the line's 34" jqe "$tmp/j" \
	'[.devices[] | select(.id == "30be0000.ethernet")][0] | .mask_source == "driver" and .dma_mask == "0xffffffff"'
# a compatible with an unprintable second string: sdhci-iproc's variant is not matched
emmc=sys/firmware/devicetree/base/soc/mmc@7e340000/compatible
r=$(mkcopy compat-bad "$rpi"); printf 'brcm,bcm2711-emmc2\0\001\0' > "$r/$emmc"
expect_input "malformed compatible list" "$r" "$emmc" invalid EBADMSG
check "malformed compatible list: the emmc2's mask stays assumed, no row" jqe "$tmp/j" \
	'[.devices[] | select(.id == "fe340000.mmc")][0] | .mask_source == "assumed" and .mask_rule == null'
r=$(mkcopy compat-noterm "$rpi"); printf 'brcm,bcm2711-emmc2' > "$r/$emmc"
expect_input "compatible without its NUL" "$r" "$emmc" invalid EBADMSG
check "compatible without its NUL: the name is still read" jqe "$tmp/j" \
	'[.devices[] | select(.id == "fe340000.mmc")][0] | .name == "brcm,bcm2711-emmc2" and .mask_source == "assumed"'
r=$(mkcopy sdhci-line "$rpi"); sed -i 's#\[fe340000.mmc\] using ADMA#[fe340000.mmc] using SOMETHING#' "$r/dev/kmsg"
audit "$r" openat2
check "sdhci line with an unknown mode: the emmc2 stays assumed, saying why" jqe "$tmp/j" \
	'[.devices[] | select(.id == "fe340000.mmc")][0] | .mask_source == "assumed" and (.mask_why | test("SDHCI_CAN_64BIT"))'
# mtu3's "dma mask: N bits": a width it never prints, none, no unit, or another device's
mtk=$(fixture_root arm64-mt8183-36bit) || exit 99
mtu3_mask() { # DESC SOURCE MASK: what the mtu3's mask is after the spoiling
	check "$1: the mtu3's mask is $2 $3" jqe "$tmp/j" \
		'[.devices[] | select(.id == "11201000.usb")][0] | .mask_source == $s and .dma_mask == $m' \
		--arg s "$2" --arg m "$3"
}
for bad in 'dma mask: 40 bits' 'dma mask: bits' 'dma mask: 36'; do
	r=$(mkcopy mtu3-line "$mtk"); sed -i "s#dma mask: 36 bits#$bad#" "$r/dev/kmsg"
	audit "$r" openat2
	check "mtu3 line '$bad': skipped as malformed" jqe "$tmp/j" \
		'[.inputs[] | select(.path == "dev/kmsg")][0].detail | test("malformed")'
	mtu3_mask "mtu3 line '$bad'" assumed 0xffffffff
done
r=$(mkcopy mtu3-line-other "$mtk"); sed -i 's#DEVICE=+platform:11201000.usb#DEVICE=+platform:11200000.usb#' "$r/dev/kmsg"
audit "$r" openat2
mtu3_mask "mtu3 line naming the xHCI" assumed 0xffffffff
check "mtu3 line naming the xHCI: xhci-mtk's row reads no such line" jqe "$tmp/j" \
	'[.devices[] | select(.id == "11200000.usb")][0] | .mask_source == "assumed" and .dma_mask == "0xffffffff"'

# Escape sequences in snapshot names never reach the terminal raw.
r=$(mkroot escapes)
sed -i 's/^kernel_release=.*/kernel_release=6.1\x1b[31mRED\x07/' "$r/MANIFEST"
timeout 10 "$TOOL" --sysroot "$r" > "$tmp/esc.txt" 2>&1
check "escape bytes in MANIFEST: text exits 0 or 1" test $? -le 1
check "escape bytes in MANIFEST: no raw ESC or BEL in the text output" \
	bash -c '! grep -q "$(printf "[\033\007]")" "$1"' _ "$tmp/esc.txt"
check "escape bytes in MANIFEST: shown as \\x1b" grep -qF '\x1b[31mRED' "$tmp/esc.txt"
# A literal backslash is escaped too, so "\x0a" typed and a newline escaped differ.
r=$(mkroot backslash)
sed -i 's/^kernel_release=.*/kernel_release=6.1-a\\x0a-b/' "$r/MANIFEST"
timeout 10 "$TOOL" --sysroot "$r" > "$tmp/esc.txt" 2>&1
check "a backslash in MANIFEST: shown as \\\\" grep -qF 'Linux 6.1-a\\x0a-b' "$tmp/esc.txt"

# Symlinks that point outside the root must not be followed out. The file
# outside holds a RAM range no fixture has (0x777000000): seeing it is a leak.
mkdir -p "$tmp/outside/proc"
printf '777000000-777ffffff : System RAM\n' > "$tmp/outside/proc/iomem"
leak_free() { ! grep -q '0x777' "$tmp/j"; }

r=$(mkroot abs-link); rm "$r/proc/iomem"; ln -s "$tmp/outside/proc/iomem" "$r/proc/iomem"
expect_input "absolute symlink out of the root" "$r" proc/iomem missing ENOENT
check "absolute symlink: nothing read from outside" leak_free

r=$(mkroot rel-link); rm "$r/proc/iomem"
ln -s "../../../../../../../../../../$tmp/outside/proc/iomem" "$r/proc/iomem"
expect_input "../.. symlink out of the root" "$r" proc/iomem missing ENOENT
check "../.. symlink: nothing read from outside" leak_free

r=$(mkroot dir-link); rm -r "$r/proc"; ln -s "$tmp/outside/proc" "$r/proc"
expect_input "absolute symlink to a directory outside" "$r" proc/iomem missing ENOENT
check "directory symlink: nothing read from outside" leak_free

r=$(mkroot host-link); rm "$r/proc/iomem"; ln -s /proc/iomem "$r/proc/iomem"
expect_input "symlink to the host's /proc/iomem (resolves to itself)" "$r" proc/iomem invalid ELOOP

r=$(mkroot inside-link); mv "$r/proc/iomem" "$r/iomem.real"; ln -s /iomem.real "$r/proc/iomem"
expect_input "absolute symlink inside the root is followed" "$r" proc/iomem ok

# Bytes that are not UTF-8 in any string still give valid JSON.
r=$(mkroot utf8); printf 'console=ttyS0 label=\377\376\300\200 name=\xe2\x82\n' > "$r/proc/cmdline"
sed -i 's/^kernel_release=.*/kernel_release=6.1\xff\xfe-bad/' "$r/MANIFEST"
expect_input "invalid UTF-8 in cmdline and MANIFEST" "$r" proc/cmdline ok

# -J -o writes through libsmartcols, which escapes controls but passes any
# byte: invalid UTF-8 in pci.ids and a driver name must not reach the JSON.
r=$(mkroot utf8-columns); d="$r/sys/devices/pci0000:00/0000:00:1f.2"
mkdir -p "$r/usr/share/misc"
printf '8086  Intel\377\376 Corp\033[31m\n\t2922  AHCI\303( ctl\177\302\205\n' > "$r/usr/share/misc/pci.ids"
ln -sfn "../../../bus/pci/drivers/ah$(printf '\342\202')ci" "$d/driver"
sed -i "s/^DRIVER=.*/DRIVER=ah$(printf '\342\202\033')ci/" "$d/uevent"
timeout 10 "$TOOL" --sysroot "$r" -J -o DEVICE,DRIVER,NAME > "$tmp/jo" 2> "$tmp/e"; rc=$?
timeout 10 "$TOOL" --sysroot "$r" --json > "$tmp/j" 2> /dev/null
check "invalid UTF-8 in pci.ids and a driver: -J -o exits 0 ($rc)" test "$rc" -eq 0
check "... -J -o is strict UTF-8 JSON" "$PYTHON" -c \
	'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/jo"
check "... each invalid byte is U+FFFD, the controls escaped, as the full JSON writes them" \
	bash -c 'test "$(jq -c ".devices[2] | [.driver, .name]" "$1")" = "$(jq -c ".devices[2] | [.driver, .name]" "$2")" &&
		test "$(jq -r ".devices[2].driver" "$1")" = "$(printf "ah\357\277\275\357\277\275\033ci")"' \
	_ "$tmp/jo" "$tmp/j"

# A report or other text given where a snapshot (--sysroot) or a JSON report
# (--diff) is expected: one line saying what the file is and which option takes it.
wrong_file() { # DESC EXPECTED-LINE ARGS...
	local d=$1 want=$2; shift 2
	timeout 30 "$TOOL" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	check "$d: exit 2 ($rc), nothing on stdout, one line: what the file is" \
		bash -c 'test "$1" -eq 2 && ! test -s "$2" && test "$(cat "$3")" = "$4"' _ "$rc" "$tmp/out" "$tmp/err" "$want"
}
mkdir "$tmp/wrong" && cd "$tmp/wrong" || exit 99
"$TOOL" --sysroot "$good" --json > report.json
"$TOOL" --sysroot "$good" > report.txt
"$TOOL" --sysroot "$good" --format prometheus > report.prom
"$TOOL" --sysroot "$good" --format ndjson > report.ndjson
"$TOOL" --diff --json report.json report.json > diff.json
{ echo; echo '   '; cat report.json; } > spaced.json
printf 'hello\n' > notes.txt
head -c 3000 /dev/urandom > random.bin
s_takes="--sysroot takes a snapshot directory or archive"
d_takes="--diff takes two JSON reports (--json) or snapshots"
wrong_file "-s a JSON report" \
	"dmamask-audit: --sysroot report.json: a dmamask-audit JSON report: --diff takes reports, $s_takes" -s report.json
wrong_file "-s a text report" \
	"dmamask-audit: --sysroot report.txt: a dmamask-audit text report, not a snapshot: $s_takes" -s report.txt
wrong_file "-s a Prometheus textfile" \
	"dmamask-audit: --sysroot report.prom: a dmamask-audit Prometheus textfile, not a snapshot: $s_takes" -s report.prom
wrong_file "-s an ndjson report" \
	"dmamask-audit: --sysroot report.ndjson: a dmamask-audit ndjson report, not a snapshot: $s_takes" -s report.ndjson
wrong_file "-s a --diff report" \
	"dmamask-audit: --sysroot diff.json: a dmamask-audit --diff report, not a snapshot: $s_takes" -s diff.json
wrong_file "-s plain text" "dmamask-audit: --sysroot notes.txt: text, not a snapshot: $s_takes" -s notes.txt
wrong_file "-s random bytes: libarchive's words" \
	"dmamask-audit: --sysroot random.bin: not a tar archive (plain, gzip, xz, bzip2 or zstd): Unrecognized archive format" \
	-s random.bin
wrong_file "--diff a text report" \
	"dmamask-audit: --diff report.txt: a dmamask-audit text report, not a JSON report or a snapshot: $d_takes" \
	--diff report.txt report.json
wrong_file "--diff plain text, the second side" \
	"dmamask-audit: --diff notes.txt: text, not a JSON report or a snapshot: $d_takes" --diff report.json notes.txt
wrong_file "--diff a Prometheus textfile" \
	"dmamask-audit: --diff report.prom: a dmamask-audit Prometheus textfile, not a JSON report or a snapshot: $d_takes" \
	--diff report.prom report.json
wrong_file "--diff an ndjson report" \
	"dmamask-audit: --diff report.ndjson: a dmamask-audit ndjson report, not a JSON report or a snapshot: $d_takes" \
	--diff report.ndjson report.json
wrong_file "--diff a --diff report" \
	"dmamask-audit: --diff diff.json: a dmamask-audit --diff report (two reports compared), not a report of one machine: $d_takes" \
	--diff diff.json report.json
"$TOOL" --diff spaced.json report.json > "$tmp/out" 2> "$tmp/err"; rc=$?
check "--diff a JSON report after blank lines: read as one, no change, exit 0 ($rc)" \
	bash -c 'test "$1" -eq 0 && grep -q "^No change" "$2" && ! test -s "$3"' _ "$rc" "$tmp/out" "$tmp/err"
cd - > /dev/null || exit 99

# A platform device named like a PCI function (a crafted tree: the kernel keeps
# names unique per bus only): ids stay unique, the PCI function keeps its own.
r=$(mkroot id-clash)
mkdir -p "$r/sys/firmware/devicetree/base/soc/mmc@0" "$r/sys/devices/platform/0000:00:1f.2" \
	"$r/sys/bus/platform/devices"
printf 'brcm,bcm2711-emmc2\0' > "$r/sys/firmware/devicetree/base/soc/mmc@0/compatible"
touch "$r/sys/firmware/devicetree/base/soc/mmc@0/dma-coherent"
ln -s ../../../firmware/devicetree/base/soc/mmc@0 "$r/sys/devices/platform/0000:00:1f.2/of_node"
ln -s ../../../devices/platform/0000:00:1f.2 "$r/sys/bus/platform/devices/0000:00:1f.2"
expect_input "a platform device with a PCI function's name" "$r" sys/devices/platform/0000:00:1f.2 invalid EEXIST
check "id clash: every id is unique" jqe "$tmp/j" '[.devices[].id] | length == (unique | length)'
check "id clash: the PCI function keeps its address, still partial" jqe "$tmp/j" \
	'[.devices[] | select(.id == "0000:00:1f.2")] | length == 1 and .[0].bus == "pci" and .[0].verdict == "partial"'
check "id clash: the platform device is bus-qualified" jqe "$tmp/j" \
	'[.devices[] | select(.id == "platform:0000:00:1f.2")] | length == 1 and .[0].bus == "platform"'

tap_done
