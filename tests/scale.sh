#!/bin/bash
# A huge bus costs memory by the device, not by the entry: 200,000 entries of
# sys/bus/pci/devices that lead nowhere are one input and no device, and each
# real function costs under 900 bytes of peak memory in JSON, 1,400 in text (measured as the slope
# between 5,000 and 25,000 functions, so the machine-wide part cancels out).
# Peak RSS comes from getrusage(RUSAGE_CHILDREN); sanitizer builds, whose
# shadow memory says nothing about ours, skip the memory checks.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures
good=$(fixture_root x86-pc-4g) || exit 99

# tree DIR N REAL: a machine with N PCI entries, real directories or dangling links
tree() {
	"$PYTHON" - "$SRCDIR/tests/machines" "$good" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from faketree import Tree
good, t, n, real = sys.argv[2], Tree(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "real"
for f in ("proc/iomem", "proc/zoneinfo", "MANIFEST"):
    with open(good + "/" + f, "rb") as src:
        t.file(f, src.read())
t.dir("sys/bus/pci/devices")
for k in range(n):
    name = "%04x:%02x:%02x.%x" % (k >> 16, (k >> 8) & 0xff, (k >> 3) & 0x1f, k & 7)
    if real:
        t.file("sys/devices/pci0000:00/" + name + "/dma_mask_bits", "32\n")
    t.link("sys/bus/pci/devices/" + name, "sys/devices/pci0000:00/" + name)
PY
}

# peak ROOT FORMAT: run the tool (JSON to $tmp/out), print its peak RSS in KiB
peak() {
	"$PYTHON" - "$TOOL" "$1" "$2" "$tmp/out" <<'PY'
import resource, subprocess, sys
tool, root, fmt, out = sys.argv[1:5]
with open(out, "wb") as f:
    rc = subprocess.call(["timeout", "300", tool, "--sysroot", root, "--format", fmt], stdout=f,
                         stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc <= 1 else -1)
PY
}
sanitized=false
ldd "$TOOL" 2> /dev/null | grep -q 'libasan\|libubsan' && sanitized=true

tree "$tmp/nowhere" 200000 dangling || exit 99
kb=$(peak "$tmp/nowhere" json)
check "200,000 entries that lead nowhere: audited (exit 0 or 1)" test "$kb" -ge 0
check "... valid JSON" valid_json "$tmp/out"
check "... no device made of them" jqe "$tmp/out" '.devices == []'
check "... one input says how many were skipped" jqe "$tmp/out" \
	'[.inputs[] | select(.status == "invalid")] | length == 1 and (.[0].detail | test("199999 more entries"))'
$sanitized || check "... in bounded memory ($kb KiB < 96 MiB)" test "$kb" -lt $((96 * 1024))

tree "$tmp/small" 5000 real && tree "$tmp/big" 25000 real || exit 99
for fmt in json text; do
	small=$(peak "$tmp/small" "$fmt")
	big=$(peak "$tmp/big" "$fmt")
	check "$fmt: 5,000 and 25,000 functions audited" test "$small" -ge 0 -a "$big" -ge 0
	per=$(( (big - small) * 1024 / 20000 ))
	# JSON streams its devices; text holds the table libsmartcols aligns (~400 bytes more)
	bound=$([ "$fmt" = json ] && echo 900 || echo 1400)
	$sanitized || check "$fmt: $per bytes of peak memory per function (< $bound)" test "$per" -lt "$bound"
done
check "25,000 functions: every one judged" jqe <("$TOOL" --sysroot "$tmp/big" --json) '.devices | length == 25000'
tap_done
