#!/bin/bash
# The text report's conventions (util-linux's): the answer first, --raw for
# scripts (the device table alone), -n, -o, -b exact sizes, -v for the
# ranges, zones and absent inputs, names in the terminal's characters, and
# misuse answered as lsblk does ("Try 'dmamask-audit --help' ...").
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures
good=$(fixture_root x86-pc-4g) || exit 99
run() { "$TOOL" --sysroot "$good" "$@" 2>&1; }

# ---- the answer first ----
run > "$tmp/text"
check "the summary follows the header" \
	test "$(sed -n 4p "$tmp/text")" = "4 devices judged: 1 partial, 0 fails, 0 forced, 1 direct, 2 idle; findings: 1 warning"
check "the device needing action comes next, with its disk, verdict and bytes" \
	grep -q '^  0000:00:1f.2 ahci (sda): partial, 21 GiB: ' "$tmp/text"
check "the healthy nvme is not listed as needing action" \
	bash -c '! sed -n "/^Needs action/,/^$/p" "$1" | grep -q nvme' _ "$tmp/text"
check "the memory block says where RAM starts, in words" \
	grep -q '^  RAM starts at 0x1000, not at address 0 (min_low_pfn 0x1)$' "$tmp/text"
check "the memory block says what a 32-bit device cannot reach" \
	grep -q '^  21 GiB of it lies above 4 GiB, out of reach of a 32-bit DMA mask$' "$tmp/text"
check "absent inputs are one line without -v" \
	test "$(grep -c '^  absent ' "$tmp/text")" -eq 1
check "absent inputs are not counted as not usable on a healthy host" \
	grep -q '^Inputs: [0-9]* read, [0-9]* absent$' "$tmp/text"
check "no range table without -v" bash -c '! grep -q "^START " "$1"' _ "$tmp/text"

# ---- -v: the ranges, zones and every absent input ----
run -v > "$tmp/verbose"
check "-v prints the RAM ranges" grep -q '^START  *END  *SIZE$' "$tmp/verbose"
check "-v prints the zones" grep -q '^ZONE ' "$tmp/verbose"
check "-v zones: START_PFN a PFN, SPANNED and PRESENT page counts, all in hex, sizes beside" \
	grep -Eq '^Normal +0 +0x100000 +0x540000 = 21 GiB +0x540000 = 21 GiB$' "$tmp/verbose"
check "-v zones: an empty zone's count is 0x0, no size" grep -Eq '^Movable +0 +- +0x0 +0x0$' "$tmp/verbose"
run -v -b > "$tmp/verbose-bytes"
check "-v -b zones: the size beside a page count in bytes" \
	grep -Eq '^DMA +0 +0x1 +0xfff = 16773120 +0xf9e = ' "$tmp/verbose-bytes"
check "-v lists each absent input" grep -q '^  missing  proc/cpuinfo: ' "$tmp/verbose"

# RAM from 0x40000000 and no release: which max_low_pfn the kernel keeps is not
# this kernel's word, though era_value() answers with the newest row
arm=$(fixture_root arm-2013-highmem) || exit 99
cp -r "$arm" "$tmp/norelease" && sed -i '/^kernel_release=/d' "$tmp/norelease/MANIFEST"
"$TOOL" --sysroot "$tmp/norelease" > "$tmp/norelease.txt" 2>&1
check "release unknown: the max_low_pfn reading is said to be unknown" \
	grep -q 'or a page frame number (0x6f800) is unknown (kernel release unknown)' "$tmp/norelease.txt"
check "release unknown: no reading claimed for this kernel" \
	bash -c '! grep -q "is a page frame number on this kernel\|^  this kernel keeps" "$1"' _ "$tmp/norelease.txt"

# ---- -b: exact sizes everywhere ----
run -b > "$tmp/bytes"
check "-b: the summary's bytes are exact, with their unit" grep -q '^  0000:00:1f.2 ahci (sda): partial, 22548578304 bytes: ' "$tmp/bytes"
check "-b: the device table's UNREACHABLE is exact" grep -Eq '^0000:00:1f.2 .* 22548578304$' "$tmp/bytes"
check "-b: no GiB left in the report's own sizes" bash -c '! grep -v "^ " "$1" | grep -q GiB' _ "$tmp/bytes"
check "--bytes is -b" cmp -s "$tmp/bytes" <(run --bytes)

# ---- --raw: the device table alone, one device per line ----
run -r > "$tmp/raw"
check "--raw prints the header and one line per device, nothing else" test "$(wc -l < "$tmp/raw")" -eq 5
# every default column, even LIMIT and IOMMU that no device here has: a
# script reading fields by position reads the same fields on every host
check "--raw: the heading first, every default column" \
	test "$(head -1 "$tmp/raw")" = "DEVICE DRIVER MASK LIMIT IOMMU VERDICT UNREACHABLE"
# as lsblk --raw: a space inside a cell is \x20, so fields split at spaces
check "--raw: space-separated, unaligned, inner spaces escaped" \
	grep -qxF '0000:00:1f.2 ahci 32-bit   partial 21\x20GiB' "$tmp/raw"
run -n > "$tmp/plain"
check "outside a terminal, the text table keeps the empty LIMIT column too" \
	grep -Eq '^0000:00:1f.2 +ahci +32-bit +partial +21 GiB$' "$tmp/plain"
COLUMNS=120 script -qec "$TOOL --sysroot $good" /dev/null > "$tmp/tty" 2>&1
check "on a terminal, a default column no device fills leaves room" \
	grep -Eq '^DEVICE +DRIVER +MASK +VERDICT +UNREACHABLE.?$' "$tmp/tty"

# ---- -P/--pairs and -x/--sort, as lsblk ----
run -P > "$tmp/pairs"
check "-P: one line per device, nothing else" test "$(wc -l < "$tmp/pairs")" -eq 4
check "-P: KEY=\"value\" for every column, an empty one as \"\"" grep -qxF \
	'DEVICE="0000:00:1f.2" DRIVER="ahci" MASK="32-bit" LIMIT="" IOMMU="" VERDICT="partial" UNREACHABLE="21 GiB"' "$tmp/pairs"
check "-P evaluates in the shell" bash -c 'eval "$(grep ahci "$1")"; test "$VERDICT" = partial' _ "$tmp/pairs"
check "--pairs is -P" cmp -s "$tmp/pairs" <(run --pairs)
run -r -n -o DEVICE -x UNREACHABLE > "$tmp/sorted"
check "-x UNREACHABLE: by bytes, the devices without a value last" \
	test "$(tr '\n' ' ' < "$tmp/sorted")" = "0000:01:00.0 0000:00:1f.2 0000:00:00.0 0000:00:1c.0 "
run -r -n -o DEVICE --sort=device > "$tmp/sorted"
check "--sort takes a column in either case" test "$(head -1 "$tmp/sorted")" = "0000:00:00.0"
check "-x orders the JSON devices too" test "$("$TOOL" --sysroot "$good" -J -x UNREACHABLE | jq -r '.devices[0].id')" = "0000:01:00.0"
"$TOOL" -x NOPE > /dev/null 2> "$tmp/err"; rc=$?
check "-x an unknown column: exit 2, named ($rc)" \
	bash -c 'test "$1" -eq 2 && grep -q "unknown column .NOPE." "$2"' _ "$rc" "$tmp/err"

# ---- -J with -o and -b, as lsblk -J -b -o NAME,SIZE ----
"$TOOL" --sysroot "$good" -J -b -o DEVICE,VERDICT,UNREACHABLE,GROUP > "$tmp/jo.json"
check "-J -o: the devices with the columns asked, lower-case keys" \
	jqe "$tmp/jo.json" '[.devices[] | keys] | unique == [["device","group","unreachable","verdict"]]'
check "-J -b -o: sizes are numbers, an unknown one null" \
	jqe "$tmp/jo.json" '(.devices[] | select(.device == "0000:00:1f.2").unreachable) == 22548578304 and (.devices[] | select(.device == "0000:00:00.0").unreachable) == null'
"$TOOL" --sysroot "$good" -J -o DEVICE,UNREACHABLE > "$tmp/jo.json"
check "-J -o without -b: sizes as the table shows them" \
	jqe "$tmp/jo.json" '(.devices[] | select(.device == "0000:00:1f.2").unreachable) == "21 GiB"'
"$TOOL" --sysroot "$good" -J -b > "$tmp/jb.json"
check "-J -b: the document, its sizes already bytes" cmp -s <(jq -S 'del(.generated_at, .invocation)' "$tmp/jb.json") \
	<("$TOOL" --sysroot "$good" -J | jq -S 'del(.generated_at, .invocation)')
check "-rn -o DEVICE: the device ids alone, for completion and scripts" \
	test "$(run -rn -o device | tr '\n' ' ')" = "0000:00:00.0 0000:00:1c.0 0000:00:1f.2 0000:01:00.0 "
check "-o takes lowercase names" cmp -s <(run -r -o verdict) <(run -r -o VERDICT)
check "-n drops the device table's heading" bash -c '! grep -q "^DEVICE" <("$@")' _ "$TOOL" --sysroot "$good" -n

# ---- at 80 columns REASON and NAME give way first: DRIVER stays whole ----
rpi=$(fixture_root arm64-rpi4) || exit 99
COLUMNS=80 "$TOOL" --sysroot "$rpi" -o +NAME,REASON > "$tmp/narrow" 2>&1
check "-o +NAME,REASON at 80 columns: DRIVER is not cut (pcieport, sdhci-iproc)" \
	bash -c 'grep -q "^0000:00:00.0  *pcieport " "$1" && grep -q " sdhci-iproc " "$1"' _ "$tmp/narrow"
check "-o +NAME,REASON at 80 columns: numbers whole (4.9 GiB, 0x17fffffff)" \
	bash -c 'grep -q " 4.9 GiB " "$1" && grep -q " 0x17fffffff " "$1"' _ "$tmp/narrow"

# ---- names in the terminal's characters ----
mkdir -p "$tmp/utf8" && cp -a "$good" "$tmp/utf8/root" || exit 99
ln -sfn ../../../bus/pci/drivers/Ärger "$tmp/utf8/root/sys/devices/pci0000:00/0000:00:1f.2/driver"
# the kernel names the driver in the uevent too, which the reader takes it from
sed -i 's/^DRIVER=.*/DRIVER=Ärger/' "$tmp/utf8/root/sys/devices/pci0000:00/0000:00:1f.2/uevent"
LC_ALL=C.UTF-8 COLUMNS=80 "$TOOL" --sysroot "$tmp/utf8/root" > "$tmp/u8" 2>&1
check "a UTF-8 driver name prints as itself in a UTF-8 locale" grep -q '^0000:00:1f.2 Ärger ' "$tmp/u8"
check "... and in the summary" grep -q '^  0000:00:1f.2 Ärger (sda)' "$tmp/u8"
check "... and the table stays aligned (display width, not bytes)" \
	test "$(grep '^0000:00:1f.2' "$tmp/u8" | awk '{print index($0, "32-bit")}')" = \
	"$(grep '^0000:01:00.0' "$tmp/u8" | awk '{print index($0, "64-bit")}' | awk '{print $1 + 1}')"
LC_ALL=C COLUMNS=80 "$TOOL" --sysroot "$tmp/utf8/root" > "$tmp/c" 2>&1
check "in the C locale it is escaped, never raw bytes" grep -q '\\xc3\\x84rger (sda)' "$tmp/c"

# ---- misuse, as util-linux words it ----
"$TOOL" --no-such-option > /dev/null 2> "$tmp/err"
check "an unknown option: exit 2 with util-linux's Try line" \
	test "$(tail -1 "$tmp/err")" = "Try 'dmamask-audit --help' for more information."
check "an unknown option: names it" grep -q "unrecognized option '--no-such-option'" "$tmp/err"
"$TOOL" --format xml > /dev/null 2> "$tmp/err"
check "a bad value: the message, then the Try line, nothing else" \
	test "$(cat "$tmp/err")" = "dmamask-audit: unknown format 'xml' (text, json, ndjson or prometheus)
Try 'dmamask-audit --help' for more information."
"$TOOL" --json -r > /dev/null 2> "$tmp/err"; rc=$?
check "-r with --json: mutually exclusive, as lsblk, exit 2 ($rc)" \
	bash -c 'test "$1" -eq 2 && grep -qx "dmamask-audit: --raw and --json are mutually exclusive" "$2"' _ "$rc" "$tmp/err"
tap_done
