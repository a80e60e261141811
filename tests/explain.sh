#!/bin/bash
# --explain DEVICE: each number of the steps checked against the fixture's
# inputs (gen-fixtures.py's definition of the machine, or the captured files,
# read here), computed by hand in this script, never against the tool's own
# output; the text shows every number the JSON has; bad input is one line, exit 2.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures

hex() { printf '0x%x' "$1"; }

# explain FIXTURE DEVICE: its JSON in $out, its text in $txt
explain() {
	root=$(fixture_root "$1") || { not_ok "$1: fixture builds"; return 1; }
	out=$tmp/$1-$2.json txt=$tmp/$1-$2.txt
	"$TOOL" --sysroot "$root" --explain "$2" -J > "$out" 2> "$tmp/err"
	check "$1 $2: --explain -J exits 0 or 1" test $? -le 1
	check "$1 $2: --explain -J matches definitions/explain" \
		"$PYTHON" "$SRCDIR/tests/validate-json.py" "$SCHEMA" --ref '#/definitions/explain' "$out"
	COLUMNS=80 "$TOOL" --sysroot "$root" --explain "$2" > "$txt" 2>&1
	# every number of every step, as the text prints it after "name = "
	local missing
	missing=$(jq -r '.steps[].numbers[] | "\(.name) = \(if .unit == "address" then .value
		elif .unit == "pfn" then "0x" + (.value | tostring) else .value | tostring end)"' "$out" |
		while read -r name eq value; do
			case $value in 0x*) ;; *) continue ;; esac # sizes print in words: checked in JSON
			grep -qF -- "$name = " "$txt" || echo "$name"
		done)
	check "$1 $2: the text shows each number's line" test -z "$missing"
	[ -z "$missing" ] || echo "$missing" | diag
}

# v CASE NAME [N]: the value of number NAME in the N-th (0-based) step of CASE
v() { jq -r --arg c "$1" --arg n "$2" --argjson i "${3:-0}" \
	'[.steps[] | select(.case == $c)][$i].numbers[] | select(.name == $n) | .value' "$out"; }
# s CASE NAME [N]: that number's source
s() { jq -r --arg c "$1" --arg n "$2" --argjson i "${3:-0}" \
	'[.steps[] | select(.case == $c)][$i].numbers[] | select(.name == $n) | .source' "$out"; }
cases() { jq -r '[.steps[].case] | join(" ")' "$out"; }
field() { jq -r --arg c "$1" --arg f "$2" '[.steps[] | select(.case == $c)][0][$f]' "$out"; }
is() { check "$1" test "$2" = "$3"; [ "$2" = "$3" ] || echo "got '$2', want '$3'" | diag; }
has() { case $2 in *"$3"*) ok "$1" ;; *) not_ok "$1"; echo "'$2' lacks '$3'" | diag ;; esac; }

# ---- arm64-rpi4 (gen-fixtures.py arm64_rpi4): iomem System RAM 0x0-0x3b3fffff,
# 0x40000000-0xfbffffff, 0x100000000-0x1ffffffff; soc dma-ranges bus 0xc0000000 ->
# CPU 0x0, 1 GiB; pcie@7d500000 PCI bus 0xc0000000 -> CPU 0x0, 3 GiB; the log's
# "software IO TLB: mapped [mem 0x37400000-0x3b400000]"; 6.6, arm64 ----
ram1_end=0x3b3fffff ram2_start=0x40000000 ram2_end=0xfbffffff ram3_start=0x100000000 ram3_end=0x1ffffffff
pool_start=0x37400000 pool_end=$((0x3b400000 - 1))
ram=$(( (ram1_end + 1) + (ram2_end - ram2_start + 1) + (ram3_end - ram3_start + 1) ))

if explain arm64-rpi4 0000:01:00.0; then
	off=0xc0000000 size=0xc0000000                 # the PCIe window
	window_end=$((off + size - 1))                 # bus 0x17fffffff
	is "rpi4 xhci: steps in the kernel's order" "$(cases)" \
		"mask-sysfs bus-limit-dt bus-range translation-region cpu-reach-window ram-in-reach ram-partly ram-uncovered ram-total pool-in-reach verdict limiter-bus-window"
	is "rpi4 xhci: mask from sysfs's 64 bits" "$(v mask-sysfs mask)" "0xffffffffffffffff"
	is "rpi4 xhci: bits" "$(v mask-sysfs bits)" 64
	has "rpi4 xhci: the mask's source is its dma_mask_bits" "$(s mask-sysfs mask)" "0000:01:00.0/dma_mask_bits"
	is "rpi4 xhci: window end" "$(v bus-limit-dt window_end)" "$(hex $window_end)"
	has "rpi4 xhci: the window's source is the bridge's dma-ranges" "$(s bus-limit-dt window_end)" \
		"dma-ranges of scb/pcie@7d500000"
	is "rpi4 xhci: limit = min_not_zero(mask, window end)" "$(v bus-limit-dt limit)" "$(hex $window_end)"
	is "rpi4 xhci: 6.6 keeps the exact limit" "$(field bus-limit-dt era_value)" BUS_LIMIT_EXACT
	has "rpi4 xhci: cites dma_capable's era row" "$(field bus-limit-dt kernel)" "bus_dma_limit"
	is "rpi4 xhci: window CPU start" "$(v translation-region cpu_start)" 0x0
	is "rpi4 xhci: window CPU end" "$(v translation-region cpu_end)" "$(hex $((size - 1)))"
	is "rpi4 xhci: window bus start" "$(v translation-region dma_start)" "$(hex $off)"
	is "rpi4 xhci: offset CPU - bus" "$(v translation-region offset)" $((-off))
	# the limit 0x17fffffff back through the window: CPU 0x0 + 3 GiB - 1
	is "rpi4 xhci: CPU-side reach end" "$(v cpu-reach-window cpu_reach_end)" "$(hex $((size - 1)))"
	is "rpi4 xhci: dma offset" "$(v cpu-reach-window dma_offset)" $((-off))
	is "rpi4 xhci: RAM 1 bus end" "$(v ram-in-reach bus_end)" "$(hex $((ram1_end + off)))"
	is "rpi4 xhci: RAM 2 reachable up to the window's CPU end" "$(v ram-partly reachable)" \
		$((size - 1 - ram2_start + 1))
	is "rpi4 xhci: RAM 2 beyond" "$(v ram-partly unreachable)" $((ram2_end - size + 1))
	is "rpi4 xhci: RAM 2 from" "$(v ram-partly lowest_unreachable)" "$(hex $size)"
	is "rpi4 xhci: RAM 3 size" "$(v ram-uncovered size)" $((ram3_end - ram3_start + 1))
	unreach=$(( (ram2_end - size + 1) + (ram3_end - ram3_start + 1) ))
	is "rpi4 xhci: RAM in all" "$(v ram-total ram)" $ram
	is "rpi4 xhci: RAM beyond reach in all" "$(v ram-total unreachable)" $unreach
	is "rpi4 xhci: pool start" "$(v pool-in-reach pool_start)" "$(hex $pool_start)"
	is "rpi4 xhci: pool end" "$(v pool-in-reach pool_end)" "$(hex $pool_end)"
	has "rpi4 xhci: the pool's source is the log line" "$(s pool-in-reach pool_start)" "software IO TLB: mapped"
	is "rpi4 xhci: pool bus end" "$(v pool-in-reach bus_end)" "$(hex $((pool_end + off)))"
	is "rpi4 xhci: verdict" "$(jq -r .verdict "$out")" partial
	has "rpi4 xhci: verdict case" "$(jq -r '.steps[] | select(.case == "verdict") | .text' "$out")" "(VR_BOUNCES)"
	is "rpi4 xhci: the verdict's RAM" "$(v verdict unreachable_ram_bytes)" $unreach
fi

if explain arm64-rpi4 fe340000.mmc; then
	off=0xc0000000 size=0x40000000                 # the soc window
	is "rpi4 emmc2: steps" "$(cases)" \
		"mask-driver bus-limit-dt bus-range translation-region cpu-reach-window ram-in-reach ram-uncovered ram-uncovered ram-total pool-in-reach verdict limiter-bus-window"
	is "rpi4 emmc2: the driver's 32 bits" "$(v mask-driver mask)" 0xffffffff
	has "rpi4 emmc2: the mask's source is its driver row" "$(s mask-driver mask)" "sdhci-iproc.c bcm2711_data"
	is "rpi4 emmc2: window end" "$(v bus-limit-dt window_end)" "$(hex $((off + size - 1)))"
	has "rpi4 emmc2: the window's node" "$(s bus-limit-dt window_end)" "dma-ranges of soc"
	is "rpi4 emmc2: limit" "$(v bus-limit-dt limit)" "$(hex $((off + size - 1)))"
	is "rpi4 emmc2: window CPU end" "$(v translation-region cpu_end)" "$(hex $((size - 1)))"
	# bus limit 0xffffffff = the mask, but CPU-side only 0x0-0x3fffffff
	is "rpi4 emmc2: CPU-side reach end" "$(v cpu-reach-window cpu_reach_end)" "$(hex $((size - 1)))"
	is "rpi4 emmc2: RAM 1 bus end" "$(v ram-in-reach bus_end)" "$(hex $((ram1_end + off)))"
	is "rpi4 emmc2: RAM 2 uncovered" "$(v ram-uncovered start 0)" "$(hex $ram2_start)"
	is "rpi4 emmc2: RAM 3 uncovered" "$(v ram-uncovered start 1)" "$(hex $ram3_start)"
	is "rpi4 emmc2: beyond reach" "$(v ram-total unreachable)" $((ram - ram1_end - 1))
	is "rpi4 emmc2: pool bus end" "$(v pool-in-reach bus_end)" "$(hex $((pool_end + off)))"
	is "rpi4 emmc2: verdict" "$(jq -r .verdict "$out")" partial
fi

# ---- arm-2013-highmem (gen-fixtures.py arm_2013_highmem, ARM2013_IOMEM/ZONEINFO):
# RAM 0x40000000-0xbfffffff, the Normal zone's 194560 pages from PFN 0x40000 and
# HighMem after them; 3.3, no DMA mask: BLK_BOUNCE_HIGH, max_low_pfn a count ----
if explain arm-2013-highmem 12200000.mmc; then
	base=$((0x40000000 >> 12)) end=$(((0xbfffffff + 1) >> 12)) low_end=$((0x40000 + 194560))
	is "2013: steps" "$(cases)" "mask-none block-limit-high block-reading block-reading verdict limiter-kernel-era"
	is "2013: the count reading is the kernel's, first" \
		"$(jq -r '[.steps[] | select(.case == "block-reading")][0].words.whose' "$out")" "this kernel's"
	is "2013: max_low_pfn as a count" "$(v block-reading max_low_pfn 0)" $((low_end - base))
	is "2013: lowmem end PFN" "$(v block-reading lowmem_end_pfn 0)" $low_end
	is "2013: min_low_pfn" "$(v block-reading min_low_pfn 0)" $base
	is "2013: count: bounce_pfn = blk_max_low_pfn" "$(v block-reading bounce_pfn 0)" $((low_end - base - 1))
	is "2013: count: blk_max_pfn" "$(v block-reading blk_max_pfn 0)" $((end - base - 1))
	# every RAM page lies above a bounce_pfn below RAM's first PFN
	is "2013: count: pages bounced" "$(v block-reading bounce_pages 0)" $((end - base))
	is "2013: count: bytes bounced" "$(v block-reading bounce_bytes 0)" $(((end - base) << 12))
	is "2013: max_low_pfn as a PFN" "$(v block-reading max_low_pfn 1)" $low_end
	is "2013: PFN: bounce_pfn" "$(v block-reading bounce_pfn 1)" $((low_end - 1))
	is "2013: PFN: blk_max_pfn" "$(v block-reading blk_max_pfn 1)" $((end - 1))
	is "2013: PFN: pages bounced (highmem)" "$(v block-reading bounce_pages 1)" $((end - low_end))
	has "2013: the reading's era row" "$(field block-reading kernel)" "26ba47b18318"
	is "2013: verdict" "$(jq -r .verdict "$out")" partial
	grep -qF "0x2f800" "$txt" && grep -qF "0x6f800" "$txt"
	check "2013: the text shows both readings in hex" test $? -eq 0
fi

# ---- arm-256m-c3ffffff (gen-fixtures.py, args --assume-mask c8000000.mmc=0xc3ffffff):
# RAM 0xc0000000-0xcfffffff, read here from its proc/iomem ----
root=$(fixture_root arm-256m-c3ffffff) && out=$tmp/c3.json &&
	"$TOOL" --sysroot "$root" --assume-mask c8000000.mmc=0xc3ffffff --explain c8000000.mmc -J > "$out"
read -r a b <<< "$(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/0x\1 0x\2/p' "$root/proc/iomem")"
mask=0xc3ffffff
# as a limit: a..mask; as a bitmask: the addresses of a..b with no bit outside the mask
lim=$((mask - a + 1)) bm=0
for ((x = a; x <= b; x += 0x100000)); do (( (x & ~mask) == 0 )) && bm=$((bm + 0x100000)); done
is "c3ffffff: the mask" "$(v mask-user mask)" $mask
is "c3ffffff: as a limit" "$(v mask-not-contiguous limit_reachable)" $lim
is "c3ffffff: as a bitmask" "$(v mask-not-contiguous bitmask_reachable)" $bm
is "c3ffffff: 3.10 ARM checks no reach" "$(cases | grep -o bus-range-arm-unchecked)" bus-range-arm-unchecked

# ---- kernel-x86-q35-iommu-pt (captured, 6.1 under QEMU, iommu=pt): the
# sym53c8xx's 32-bit mask in an identity domain; RAM from its proc/iomem ----
if explain kernel-x86-q35-iommu-pt 0000:00:02.0; then
	is "q35 pt: steps" "$(cases)" \
		"domain-identity mask-sysfs bus-limit-none bus-range translation-identity cpu-reach-mask ram-in-reach ram-in-reach ram-beyond ram-total pool-in-reach verdict limiter-iommu"
	is "q35 pt: the group's type" "$(jq -r '.steps[0].words.type' "$out")" identity
	bits=$(cat "$root/sys/bus/pci/devices/0000:00:02.0/dma_mask_bits")
	is "q35 pt: mask from dma_mask_bits $bits" "$(v mask-sysfs mask)" "$(hex $(((1 << bits) - 1)))"
	is "q35 pt: limit is the mask" "$(v bus-limit-none limit)" "$(hex $(((1 << bits) - 1)))"
	mapfile -t rr < <(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1 \2/p' "$root/proc/iomem")
	total=0 beyond=0
	for r in "${rr[@]}"; do
		read -r a b <<< "$r"
		total=$((total + 0x$b - 0x$a + 1))
		[ $((0x$a)) -gt $(((1 << bits) - 1)) ] && beyond=$((beyond + 0x$b - 0x$a + 1))
	done
	read -r a b <<< "${rr[2]}"
	is "q35 pt: CPU-side reach end: the mask, no translation" "$(v cpu-reach-mask cpu_reach_end)" \
		"$(hex $(((1 << bits) - 1)))"
	is "q35 pt: the range past 4 GiB" "$(v ram-beyond start)" "$(hex $((0x$a)))"
	is "q35 pt: RAM" "$(v ram-total ram)" $total
	is "q35 pt: beyond reach" "$(v ram-total unreachable)" $beyond
	pool=$(grep -a -o 'software IO TLB: mapped \[mem 0x[0-9a-f]*-0x[0-9a-f]*\]' "$root/dev/kmsg" |
	       sed 's/.*mem \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\)\]/\1 \2/')
	read -r a b <<< "$pool"
	is "q35 pt: pool start" "$(v pool-in-reach pool_start)" "$(hex $a)"
	is "q35 pt: pool end" "$(v pool-in-reach pool_end)" "$(hex $((b - 1)))"
	is "q35 pt: verdict" "$(jq -r .verdict "$out")" partial
fi

# ---- x86-thunderbolt (gen-fixtures.py x86_thunderbolt): the removable NVMe
# 0000:2c:00.0 (64 bits) in a DMA domain, 6.1; SWIOTLB_X86's pool ----
if explain x86-thunderbolt 0000:2c:00.0; then
	is "thunderbolt: steps" "$(cases)" "domain-untrusted mask-sysfs pool-translated verdict limiter-iommu"
	is "thunderbolt: DMA domain" "$(jq -r '.steps[0].words.type' "$out")" DMA
	is "thunderbolt: the era's untrusted rule" "$(field domain-untrusted era_rule)" ERA_UNTRUSTED_BOUNCE
	is "thunderbolt: mask" "$(v mask-sysfs mask)" 0xffffffffffffffff
	is "thunderbolt: pool start" "$(v pool-translated pool_start)" 0xbbfe8000
	is "thunderbolt: pool end" "$(v pool-translated pool_end)" "$(hex $((0xbffe8000 - 1)))"
	is "thunderbolt: verdict" "$(jq -r .verdict "$out")" iommu
	has "thunderbolt: case" "$(jq -r '.steps[] | select(.case == "verdict") | .text' "$out")" "VR_TRANSLATED_UNTRUSTED"
fi

# ---- x86-force-pool-30bit: swiotlb=force, the AHCI given 30 bits (the fixture's args),
# the pool 0xbbfe8000-0xbffe7fff past its limit: every mapping fails, RAM in reach too ----
if root=$(fixture_root x86-force-pool-30bit); then
	out=$tmp/force30.json
	"$TOOL" --sysroot "$root" --assume-mask 0000:00:1f.2=30 --explain 0000:00:1f.2 -J > "$out" 2> "$tmp/err"
	check "force30: --explain -J exits 0 or 1" test $? -le 1
	check "force30: --explain -J matches definitions/explain" \
		"$PYTHON" "$SRCDIR/tests/validate-json.py" "$SCHEMA" --ref '#/definitions/explain' "$out"
	has "force30: the pool out of reach, then fails and the pool forced" "$(cases)" \
		"pool-out-of-reach verdict limiter-pool-forced"
	is "force30: pool end" "$(v pool-out-of-reach pool_end)" "$(hex $((0xbffe8000 - 1)))"
	is "force30: limit" "$(v pool-out-of-reach limit)" 0x3fffffff
	is "force30: verdict" "$(jq -r .verdict "$out")" fails
	has "force30: case" "$(jq -r '.steps[] | select(.case == "verdict") | .text' "$out")" "VR_FORCED_POOL_OUT_OF_REACH"
	is "force30: all RAM fails" "$(v verdict unreachable_ram_bytes)" "$(v ram-total ram)"
else
	not_ok "x86-force-pool-30bit: fixture builds"
fi

# ---- kernel-arm64-virt-window (captured, 6.1 arm64 under QEMU): the PCIe node's
# dma-ranges (read here, 7 cells: flags, bus, CPU, size) leave out the pool ----
if explain kernel-arm64-virt-window 0000:00:01.0; then
	node=$(cd "$root/sys/firmware/devicetree/base" && ls -d pcie@*)
	read -r _ bh bl ch cl sh sl < <(od -An -v -tu4 --endian=big \
		"$root/sys/firmware/devicetree/base/$node/dma-ranges" | tr -s ' \n' '  ')
	bus=$(((bh << 32) | bl)) cpu=$(((ch << 32) | cl)) size=$(((sh << 32) | sl))
	read -r a b <<< "$(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/0x\1 0x\2/p' "$root/proc/iomem")"
	is "virt window: steps" "$(cases)" \
		"mask-sysfs bus-limit-dt bus-range translation-region cpu-reach-window ram-partly ram-total pool-uncovered verdict limiter-pool"
	is "virt window: window end" "$(v bus-limit-dt window_end)" "$(hex $((bus + size - 1)))"
	has "virt window: its node" "$(s bus-limit-dt window_end)" "dma-ranges of $node"
	is "virt window: limit" "$(v bus-limit-dt limit)" "$(hex $((bus + size - 1)))"
	is "virt window: CPU start" "$(v translation-region cpu_start)" "$(hex $cpu)"
	is "virt window: offset" "$(v translation-region offset)" $((cpu - bus))
	is "virt window: CPU-side reach end" "$(v cpu-reach-window cpu_reach_end)" "$(hex $((cpu + size - 1)))"
	is "virt window: reachable RAM" "$(v ram-partly reachable)" $((cpu + size - a))
	is "virt window: RAM beyond from" "$(v ram-partly lowest_unreachable)" "$(hex $((cpu + size)))"
	is "virt window: beyond reach" "$(v ram-total unreachable)" $((b - (cpu + size) + 1))
	pool=$(grep -a -o 'software IO TLB: mapped \[mem 0x[0-9a-f]*-0x[0-9a-f]*\]' "$root/dev/kmsg" |
	       sed 's/.*mem \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\)\]/\1 \2/')
	read -r pa pb <<< "$pool"
	is "virt window: pool start" "$(v pool-uncovered pool_start)" "$(hex $pa)"
	check "virt window: the pool lies past the window" test $((pa)) -gt $((cpu + size - 1))
	is "virt window: verdict" "$(jq -r .verdict "$out")" fails
fi

# ---- every device of every fixture: explained (exit 0 or 1, nothing on stderr
# but an incomplete snapshot's line), valid, each template's placeholders filled ----
n=0 failed=()
for name in $(fixtures); do
	r=$(fixture_root "$name") || { failed+=("$name: fixture builds"); continue; }
	args=()
	[ -f "$SRCDIR/tests/machines/$name/args" ] && read -r -a args < "$SRCDIR/tests/machines/$name/args"
	for dev in $("$TOOL" --sysroot "$r" "${args[@]}" -rn -o DEVICE 2> /dev/null); do
		n=$((n + 1))
		"$TOOL" --sysroot "$r" "${args[@]}" --explain "$dev" -J > "$tmp/all-$n.json" 2> "$tmp/all.err"
		rc=$?
		[ $rc -le 1 ] || failed+=("$name $dev: exit $rc: $(head -1 "$tmp/all.err")")
	done
done
check "every fixture device explains ($n of them)" test ${#failed[@]} -eq 0
[ ${#failed[@]} -eq 0 ] || printf '%s\n' "${failed[@]}" | diag
check "every explanation matches definitions/explain" \
	"$PYTHON" "$SRCDIR/tests/validate-json.py" "$SCHEMA" --ref '#/definitions/explain' "$tmp"/all-*.json
unfilled=$(jq -r '.device as $d | .steps[] | select(.text | test("[{}]")) | "\($d): \(.text)"' "$tmp"/all-*.json)
check "no step leaves a placeholder" test -z "$unfilled"
[ -z "$unfilled" ] || echo "$unfilled" | diag

# ---- bad input: one line, exit 2 ----
root=$(fixture_root arm64-rpi4)
bad() { # bad NAME WANT ARGS...: exit 2, one line on stderr matching WANT, nothing on stdout
	local name=$1 want=$2; shift 2
	"$TOOL" --sysroot "$root" "$@" > "$tmp/o" 2> "$tmp/e"
	local rc=$?
	check "$name: exit 2 ($rc)" test $rc -eq 2
	check "$name: nothing on stdout" test ! -s "$tmp/o"
	check "$name: says '$want'" grep -q -- "$want" "$tmp/e"
	check "$name: one line (and the Try line)" test "$(grep -vc '^Try ' "$tmp/e")" -eq 1
}
bad "an unknown device" "--explain nosuch: no such device" --explain nosuch
bad "two devices" "takes one device" --explain fe340000.mmc 0000:01:00.0
bad "two --explain" "takes one device" --explain fe340000.mmc --explain 0000:01:00.0
bad "--explain with --diff" "--diff has no place" --explain fe340000.mmc --diff a b
bad "--explain with --output" "--output has no place" --explain fe340000.mmc -o DEVICE
bad "--explain with --raw" "--raw has no place" --explain fe340000.mmc -r
bad "--explain with --pairs" "--pairs has no place" --explain fe340000.mmc -P
bad "--explain with --no-idle" "--no-idle has no place" --explain fe340000.mmc --no-idle
bad "--explain with prometheus" "not prometheus" --explain fe340000.mmc --format prometheus
bad "--explain with ndjson" "not ndjson" --explain fe340000.mmc --format ndjson
# a disk names its DMA device
"$TOOL" --sysroot "$root" --explain mmcblk0 -J > "$tmp/o" 2> /dev/null
is "a disk names its device" "$(jq -r .device "$tmp/o")" fe340000.mmc

tap_done
