#!/bin/bash
# --what-if KEY=VALUE: the changes no guest can show, on fixtures made for
# them (tests/machines/gen-fixtures.py). Each expected outcome is reasoned
# from the kernel's rules (src/analysis/eras.c rows, the kernel files named
# beside each case), never copied from the tool's output; text and -J are
# both checked, the JSON is always valid, and every kind of bad input is one
# line on stderr and exit 2.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures

# wi CASE FIXTURE ARGS...: -J into $tmp/CASE.json (exit status in $rc), the text into $tmp/CASE.txt
wi() {
	local name=$1 fixture=$2 root
	shift 2
	root=$(fixture_root "$fixture") || { not_ok "$name: fixture $fixture builds"; return 1; }
	"$TOOL" --sysroot "$root" "$@" -J > "$tmp/$name.json" 2> "$tmp/$name.err"
	rc=$?
	COLUMNS=200 "$TOOL" --sysroot "$root" "$@" > "$tmp/$name.txt" 2>&1
	local trc=$?
	check "$name: -J is valid JSON" "$PYTHON" -m json.tool "$tmp/$name.json" /dev/null
	check "$name: -J's exit_status is the exit status ($rc)" test "$(jq .exit_status "$tmp/$name.json")" = "$rc"
	check "$name: the text run exits as the JSON one ($trc)" test "$trc" = "$rc"
	check "$name: nothing on stderr" test ! -s "$tmp/$name.err"
}
# j CASE EXPR: EXPR holds for CASE's JSON
j() { jqe "$tmp/$1.json" "$2"; }
# jd CASE ID EXPR: EXPR holds for device ID's entry of devices[] (there is exactly one)
jd() { jqe "$tmp/$1.json" "[.devices[] | select(.id == \"$2\")] | length == 1 and (.[0] | $3)"; }
# jf CASE ID DEVICE CHANGE: finding ID of DEVICE (null: the machine's) changed so
jf() {
	jqe "$tmp/$1.json" "[.findings[] | select(.id == \"$2\" and .device == $3 and .change == \"$4\")] | length == 1"
}
# t CASE REGEX: a line of CASE's text matches
t() { grep -Eq -- "$2" "$tmp/$1.txt"; }
# absent CASE ID: device ID is not among the changed devices (its verdict is today's)
absent() { jqe "$tmp/$1.json" "[.devices[] | select(.id == \"$2\")] | length == 0"; }

# ---------------------------------------------------------------- ARM highmem across 5.13
# arm-2013-highmem: 2 GiB at 0x40000000 on 3.3, a dw_mmc host with no DMA mask
# (ERA_PLATFORM_MASK: none before 3.13), so its queue is BLK_BOUNCE_HIGH and,
# with max_low_pfn a count (ERA_MAX_LOW_PFN before 3.13), every page bounces.
# From 3.13 of_dma_configure() gives the platform device a 32-bit mask, and
# "mmc: core: let the dma map ops handle bouncing" (5.3, ERA_BLOCK_LIMIT)
# drops the MMC queue's limit; 9bb33f24abbd (5.13, ERA_BLOCK_BOUNCE
# BLOCK_BOUNCE_NEVER_HIGHMEM) stops the block layer bouncing highmem at all.
# The 32-bit mask reaches all RAM (0x40000000-0xbfffffff, no dma-ranges): direct.
wi arm-5.13 arm-2013-highmem --what-if kernel=5.13.0
dev=12200000.mmc
check "arm-5.13: the MMC goes from bouncing (partial) to direct" \
	jd arm-5.13 $dev '.change == "changed" and .old_verdict == "partial" and .new_verdict == "direct" and .worse == false'
check "arm-5.13: none of its 2 GiB is out of reach after" \
	jd arm-5.13 $dev '[.fields[] | select(.field == "unreachable_ram_bytes")] == [{"field": "unreachable_ram_bytes", "old": 2147483648, "new": 0}]'
check "arm-5.13: the platform default mask (3.13 on) is an assumption, 32 bits" \
	jd arm-5.13 $dev '([.fields[] | select(.field == "dma_mask")][0] | .old == null and .new == "0xffffffff") and ([.fields[] | select(.field == "mask_source")][0] | .old == "none" and .new == "assumed")'
check "arm-5.13: that default mask is said as an assumption about the MMC (no driver-table row: its driver may set its own)" \
	j arm-5.13 '[.what_if.assumptions[] | select(.device == "12200000.mmc" and (.text | test("gets the platform bus.s 32-bit default mask")))] | length == 1'
check "arm-5.13: text: the MMC's assumption" t arm-5.13 '^  12200000\.mmc: dw_mmc at 5\.13\.0 gets the platform bus.s 32-bit default mask'
check "arm-5.13: the block layer's bouncing finding goes" jf arm-5.13 bounce-needed "\"$dev\"" removed
check "arm-5.13: the count confusion goes, the device's and the machine's" \
	sh -c "jq -e '[.findings[] | select(.id == \"pfn-count-confusion\" and .change == \"removed\")] | length == 2' '$tmp/arm-5.13.json' > /dev/null"
check "arm-5.13: no finding is added" j arm-5.13 '[.findings[] | select(.change == "added")] | length == 0'
check "arm-5.13: better: not worse, exit 0" test "$rc" = 0
check "arm-5.13: -J worse is false" j arm-5.13 '.worse == false'
check "arm-5.13: the release changes" j arm-5.13 '.machine[] | select(.field == "kernel.release") | .old == "3.3.0" and .new == "5.13.0"'
check "arm-5.13: what_if says the change and applies it" \
	j arm-5.13 '.what_if.changes == ["kernel=5.13.0"] and (.what_if.applied[0] | test("3.3.0 -> 5.13.0"))'
check "arm-5.13: text: the MMC line" t arm-5.13 '^  changed  12200000\.mmc dw_mmc: partial -> direct$'
check "arm-5.13: text: the bounce finding removed" t arm-5.13 '^  removed  warning bounce-needed 12200000\.mmc$'
check "arm-5.13: text: the assumption that the new kernel is built as today's" t arm-5.13 '^  5\.13\.0 is built as today'"'"'s kernel is'
check "arm-5.13: text: the summary" t arm-5.13 '^1 device and 3 findings changed; 0 worse at or above error$'

# 5.12 still does the PFN arithmetic (ERA_BLOCK_BOUNCE BLOCK_BOUNCE_PFN before
# 5.13): the machine's confusion stays, an info (PFNs stored since 26ba47b18318);
# the device changes as at 5.13 (its reasons are the 3.13 and 5.3 rows)
wi arm-5.12 arm-2013-highmem --what-if kernel=5.12.0
check "arm-5.12: the MMC direct as at 5.13" jd arm-5.12 $dev '.old_verdict == "partial" and .new_verdict == "direct"'
check "arm-5.12: the machine's count confusion only drops to info (5.13 is what ends it)" \
	j arm-5.12 '[.findings[] | select(.id == "pfn-count-confusion" and .device == null)] | length == 1 and .[0].change == "severity" and .[0].old_severity == "warning" and .[0].new_severity == "info"'

# A Debian-style 5.15 armmp release: its flavour says no LPAE, so no swiotlb
# on either side (arch/arm/mm/init.c mem_init: CONFIG_ARM_LPAE only): the pool
# does not change; the device as at 5.13.0
wi arm-5.15-armmp arm-2013-highmem --what-if kernel=5.15.0-0.bpo.3-armmp
check "arm-5.15-armmp: the MMC direct" jd arm-5.15-armmp $dev '.old_verdict == "partial" and .new_verdict == "direct"'
check "arm-5.15-armmp: no pool either side: only the release changes on the machine" \
	j arm-5.15-armmp '[.machine[].field] == ["kernel.release"]'
check "arm-5.15-armmp: both confusion findings and the bounce one removed" \
	j arm-5.15-armmp '[.findings[] | select(.change == "removed") | .id] | sort == ["bounce-needed", "pfn-count-confusion", "pfn-count-confusion"]'
check "arm-5.15-armmp: exit 0" test "$rc" = 0

# ---------------------------------------------------------------- AMD IOMMU across 5.19
# x86-amd-5.15.45-untrusted: amd_iommu_init_dma_ops() clears swiotlb unless the
# default domain is passthrough (ERA_IOMMU_DROPS_POOL IOMMU_POOL_DROPPED_AMD,
# 5.8-5.19; swiotlb-state.c amd_dropped_pool), and the DMA-FQ groups say it is
# translated: no pool. The AHCI's identity group maps by dma-direct with 32
# bits and 21 GiB above 4 GiB: fails. 121660bba631 (5.19; stable 5.15.46: the
# IOMMU_POOL_KEPT rows) keeps the pool (x86 pci_swiotlb_detect: RAM above
# 4 GiB): the AHCI bounces (partial); the untrusted NVMe stays translated
# (iommu) but its sub-page bounces find a pool.
x86_above_4g=$((0x540000000))
for rel in 5.19.0 5.15.46-1-amd64; do
	c=amd-$rel
	wi "$c" x86-amd-5.15.45-untrusted --what-if kernel=$rel
	check "$c: the pool comes back" \
		j "$c" '.machine[] | select(.field == "swiotlb.active") | .old == false and .new == true'
	check "$c: the identity-domain AHCI: fails -> partial, the pool in its reach" \
		jd "$c" 0000:00:1f.2 '.old_verdict == "fails" and .new_verdict == "partial" and .worse == false and ([.fields[] | select(.field == "swiotlb_pool_reachable")][0].new == true)'
	check "$c: its bounce-impossible becomes bounce-needed" \
		sh -c "jq -e '([.findings[] | select(.device == \"0000:00:1f.2\")] | map(.id + \" \" + .change) | sort) == [\"bounce-impossible removed\", \"bounce-needed added\"]' '$tmp/$c.json' > /dev/null"
	check "$c: the untrusted NVMe keeps its verdict (iommu): not among the changed devices" absent "$c" 0000:2c:00.0
	check "$c: its untrusted-bounce-impossible error goes, untrusted-bounce (info) comes" \
		sh -c "jq -e '([.findings[] | select(.device == \"0000:2c:00.0\")] | map(.id + \" \" + .change + \" \" + (.new_severity // .old_severity)) | sort) == [\"untrusted-bounce added info\", \"untrusted-bounce-impossible removed error\"]' '$tmp/$c.json' > /dev/null"
	check "$c: the translated NVMe is untouched" absent "$c" 0000:01:00.0
	check "$c: the machine's no-bounce-pool goes" jf "$c" no-bounce-pool null removed
	check "$c: better: exit 0, not worse" sh -c "test $rc = 0 && jq -e '.worse == false' '$tmp/$c.json' > /dev/null"
	check "$c: text: the AHCI line" t "$c" '^  changed  0000:00:1f\.2 ahci: fails -> partial$'
	check "$c: text: the pool" t "$c" '^  swiotlb\.active +false -> true$'
	check "$c: text: the pool's place an assumption" t "$c" 'the era rules give no pool for today.s configuration and a pool after the change; where it lies is not known'
done
# the unreachable RAM is the same 21 GiB: only the pool changed
check "amd-5.19.0: the AHCI's reach does not change" \
	jd amd-5.19.0 0000:00:1f.2 '[.fields[] | select(.field == "unreachable_ram_bytes")] | length == 0'
check "amd: today's AHCI misses the 21 GiB above 4 GiB (plain audit)" \
	sh -c "'$TOOL' --sysroot '$(fixture_root x86-amd-5.15.45-untrusted)' -J | jq -e '.devices[] | select(.id == \"0000:00:1f.2\") | .unreachable_ram_bytes == $x86_above_4g' > /dev/null"
# iommu=pt on the same 5.15.45: passthrough keeps the pool (amd_dropped_pool), the
# AHCI as above; the NVMe leaves its translated domain; the untrusted one cannot
# (iommu_get_def_domain_type: untrusted devices stay DMA)
wi amd-pt x86-amd-5.15.45-untrusted --what-if cmdline=iommu=pt
check "amd-pt: the AHCI fails -> partial" jd amd-pt 0000:00:1f.2 '.old_verdict == "fails" and .new_verdict == "partial"'
check "amd-pt: the NVMe iommu -> direct, identity" \
	jd amd-pt 0000:01:00.0 '.old_verdict == "iommu" and .new_verdict == "direct" and ([.fields[] | select(.field == "iommu_domain")][0] | .old == "DMA-FQ" and .new == "identity")'
check "amd-pt: the untrusted NVMe stays translated" absent amd-pt 0000:2c:00.0
check "amd-pt: an assumption names the untrusted device" \
	j amd-pt '[.what_if.assumptions[] | select(.device == "0000:2c:00.0")] | length == 1'
check "amd-pt: exit 0" test "$rc" = 0

# ---------------------------------------------------------------- RAM past a Pi 4's 1 GiB window
# arm64-rpi4-1g: RAM 0-0x3b3fffff, inside the emmc2's soc window (CPU
# 0-0x3fffffff) and the VL805's PCIe window (0-0xbfffffff). RAM added above
# the end (arm64: no PCI hole) starts at 0x3b400000; ZONE_DMA ends at the
# lowest window end, 1 GiB (zone_dma_bits 30: arch/arm64/mm/init.c
# zone_sizes_init, of_dma_get_max_cpu_address), DMA32 at 4 GiB, Normal above.
# The pool (6.6: made for kmalloc bouncing, and for RAM past ZONE_DMA alike)
# stays where it is, below 1 GiB: both devices bounce what they miss.
rpi_ram=$((0x3b400000))
wi rpi-3g arm64-rpi4-1g --what-if ram=+3G
added_end=$((0x3b400000 + (3 << 30)))
check "rpi-3g: 3 GiB added at 0x3b400000" \
	j rpi-3g "(.what_if.applied[0] == \"RAM 0x3b400000-$(printf '0x%x' $((added_end - 1))) added\") and (.machine[] | select(.field == \"memory.ram_bytes\") | .old == $rpi_ram and .new == $((rpi_ram + (3 << 30))))"
check "rpi-3g: the emmc2 misses everything past 1 GiB: partial" \
	jd rpi-3g fe340000.mmc ".old_verdict == \"direct\" and .new_verdict == \"partial\" and ([.fields[] | select(.field == \"unreachable_ram_bytes\")][0] | .old == 0 and .new == $((added_end - (1 << 30))))"
check "rpi-3g: the VL805 misses everything past 3 GiB: partial" \
	jd rpi-3g 0000:01:00.0 ".old_verdict == \"direct\" and .new_verdict == \"partial\" and ([.fields[] | select(.field == \"unreachable_ram_bytes\")][0] | .new == $((added_end - (3 << 30))))"
check "rpi-3g: both bounce through the pool they reach" \
	sh -c "jq -e '[.findings[] | select(.id == \"bounce-needed\" and .change == \"added\") | .device] | sort == [\"0000:01:00.0\", \"fe340000.mmc\"]' '$tmp/rpi-3g.json' > /dev/null"
check "rpi-3g: the pool does not change" j rpi-3g '[.machine[] | select(.field | startswith("swiotlb"))] | length == 0'
check "rpi-3g: ZONE_DMA's end (the 1 GiB window) is an assumption, said" \
	j rpi-3g '[.what_if.assumptions[] | select(.device == null and (.text | test("ZONE_DMA reaches 0x3fffffff")))] | length == 1'
check "rpi-3g: warnings only: exit 0 at --fail-on error" test "$rc" = 0
check "rpi-3g: text: the emmc2 line" t rpi-3g '^  changed  fe340000\.mmc sdhci-iproc: direct -> partial$'
check "rpi-3g: text: the added range" t rpi-3g '^  RAM 0x3b400000-0xfb3fffff added$'
wi rpi-3g-warn arm64-rpi4-1g --what-if ram=+3G --fail-on warning
check "rpi-3g --fail-on warning: worse, exit 1" sh -c "test $rc = 1 && jq -e '.worse == true' '$tmp/rpi-3g-warn.json' > /dev/null"
check "rpi-3g --fail-on warning: text marks it worse" t rpi-3g-warn 'fe340000\.mmc sdhci-iproc: direct -> partial \(worse\)'

wi rpi-8g arm64-rpi4-1g --what-if ram=8G
check "rpi-8g: a total of 8 GiB" j rpi-8g '.machine[] | select(.field == "memory.ram_bytes") | .new == 8589934592'
check "rpi-8g: the emmc2 misses 7 GiB" \
	jd rpi-8g fe340000.mmc '.new_verdict == "partial" and ([.fields[] | select(.field == "unreachable_ram_bytes")][0].new == 7516192768)'
check "rpi-8g: the VL805 misses 5 GiB" \
	jd rpi-8g 0000:01:00.0 '.new_verdict == "partial" and ([.fields[] | select(.field == "unreachable_ram_bytes")][0].new == 5368709120)'
check "rpi-8g: exit 0" test "$rc" = 0

# without the pool (swiotlb=noforce: swiotlb_init makes none) the same RAM fails
wi rpi-noforce arm64-rpi4-1g --what-if ram=+3G --what-if cmdline=swiotlb=noforce
check "rpi-noforce: the emmc2 fails" jd rpi-noforce fe340000.mmc '.new_verdict == "fails" and .worse == true'
check "rpi-noforce: the VL805 fails" jd rpi-noforce 0000:01:00.0 '.new_verdict == "fails" and .worse == true'
check "rpi-noforce: the pool goes" j rpi-noforce '.machine[] | select(.field == "swiotlb.active") | .old == true and .new == false'
check "rpi-noforce: errors: exit 1" test "$rc" = 1

# ---------------------------------------------------------------- bad input
# bad CASE FIXTURE REGEX ARGS...: exit 2, nothing on stdout, one line on stderr
# matching REGEX (and argp's "Try" line after an option error)
bad() {
	local name=$1 fixture=$2 want=$3 root=() r
	shift 3
	[ "$fixture" = - ] || root=(--sysroot "$(fixture_root "$fixture")")
	"$TOOL" "${root[@]}" "$@" > "$tmp/bad.out" 2> "$tmp/bad.err"
	r=$?
	check "bad $name: exit 2 ($r)" test "$r" = 2
	check "bad $name: nothing on stdout" test ! -s "$tmp/bad.out"
	check "bad $name: its one-line error" sh -c "head -n 1 '$tmp/bad.err' | grep -Eq -- \"\$1\" &&
		test \$(grep -vc '^Try ' '$tmp/bad.err') = 1" _ "$want"
}
wi2="--what-if"
bad unknown-key arm64-rpi4-1g "--what-if 'colour=red': the key is one of kernel, cmdline, ram, device" $wi2 colour=red
bad no-equals arm64-rpi4-1g "--what-if 'kernel': want KEY=VALUE" $wi2 kernel
bad empty-value arm64-rpi4-1g "--what-if 'kernel=': the value is empty" $wi2 kernel=
bad kernel-garbage arm64-rpi4-1g "--what-if 'kernel=garbage': want a kernel release" $wi2 kernel=garbage
bad cmdline-blank arm64-rpi4-1g "--what-if 'cmdline= ': want words" $wi2 "cmdline= "
bad cmdline-remove-absent arm64-rpi4-1g "--what-if: cmdline: -swiotlb=noforce: today's command line has no such word" $wi2 cmdline=-swiotlb=noforce
bad ram-0 arm64-rpi4-1g "--what-if 'ram=0': a size of 0 changes nothing" $wi2 ram=0
bad ram-garbage arm64-rpi4-1g "--what-if 'ram=lots': want SIZE" $wi2 ram=lots
bad ram-shrink-all arm64-rpi4-1g "--what-if: ram: -2G leaves no RAM" $wi2 ram=-2G
bad ram-overlap arm64-rpi4-1g "--what-if: ram: 0x10000000-0x4fffffff overlaps RAM today's machine has \(0x0-0x3b3fffff\)" $wi2 ram=+1G@0x10000000
bad ram-unaligned arm64-rpi4-1g "--what-if: ram: \\+1000 is not a whole number of 4096-byte pages" $wi2 ram=+1000
bad ram-hidden-iomem nonroot-zeros "--what-if: ram: proc/iomem's System RAM is not known \(its addresses are hidden\)" $wi2 ram=8G
bad ram-hidden-iomem-shrink nonroot-zeros "--what-if: ram: proc/iomem's System RAM is not known" $wi2 ram=-1G
bad ram-hidden-iomem-at nonroot-zeros "--what-if: ram: proc/iomem's System RAM is not known" $wi2 ram=+1G@0x800000000
bad device-no-mask arm64-rpi4-1g "--what-if 'device=card0': device= needs mask=" $wi2 device=card0
bad device-bad-mask arm64-rpi4-1g "--what-if 'device=card0,mask=65': mask= is a bit count 1 to 64" $wi2 device=card0,mask=65
bad device-like-unknown arm64-rpi4-1g "--what-if: device: like=nope: no such device" $wi2 device=card0,mask=32,like=nope
bad device-exists-like arm64-rpi4-1g "--what-if: device: fe340000.mmc exists: like= and driver= are for a new device" \
	$wi2 device=fe340000.mmc,mask=32,like=0000:01:00.0
many=()
for i in $(seq 33); do many+=(--what-if "kernel=6.1.$i"); done
bad 33-changes arm64-rpi4-1g "--what-if: at most 32 changes" "${many[@]}"
bad with-output arm64-rpi4-1g "--what-if compares the machine before and after a change: --output has no place" $wi2 kernel=6.1.0 -o DEVICE
bad with-raw arm64-rpi4-1g "--raw has no place" $wi2 kernel=6.1.0 -r
bad with-pairs arm64-rpi4-1g "--pairs has no place" $wi2 kernel=6.1.0 -P
bad with-sort arm64-rpi4-1g "--sort has no place" $wi2 kernel=6.1.0 -x DEVICE
bad with-no-idle arm64-rpi4-1g "--no-idle has no place" $wi2 kernel=6.1.0 --no-idle
bad with-noheadings arm64-rpi4-1g "--noheadings has no place" $wi2 kernel=6.1.0 -n
bad with-explain arm64-rpi4-1g "--explain has no place" $wi2 kernel=6.1.0 --explain fe340000.mmc
bad with-capture - "--capture has no place" $wi2 kernel=6.1.0 --capture "$tmp/cap"
bad with-observe - "--observe has no place" $wi2 kernel=6.1.0 --observe=1
bad with-device arm64-rpi4-1g "DEVICE\.\.\. has no place" $wi2 kernel=6.1.0 fe340000.mmc
bad with-prometheus arm64-rpi4-1g "--what-if writes text or JSON, not prometheus" $wi2 kernel=6.1.0 --format prometheus
check "bad: --capture wrote nothing" test ! -e "$tmp/cap"
# a change that cannot apply says so with -J too, and writes no half JSON
bad json-cmdline-absent arm64-rpi4-1g "today's command line has no such word" $wi2 cmdline=-iommu -J

tap_done
