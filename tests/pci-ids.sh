#!/bin/bash
# PCI names (src/readers/pci-ids.c) are lspci's: every vendor of the real
# pci.ids with one of its devices, devices a vendor does not list, vendors
# the list does not know, named by the tool on a generated machine and by
# lspci -F (pciutils' own parser) from a config-space dump of the same ids,
# with the same list. Then a capture's reduced pci.ids names them alike.
set -u
. "$(dirname "$0")/lib.sh"

ids=/usr/share/misc/pci.ids
if [ ! -f "$ids" ] || ! command -v lspci > /dev/null; then
	skip "no $ids or lspci here"
	tap_done
	exit 0
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

"$PYTHON" - "$SRCDIR" "$ids" "$tmp" <<'PY' || exit 99
import importlib.util, os, random, sys
src, ids, out = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("gen", os.path.join(src, "tests/machines/gen-fixtures.py"))
gen = importlib.util.module_from_spec(spec); spec.loader.exec_module(gen)
vendors = {}  # vendor -> [devices]
cur = None
for line in open(ids, encoding="utf-8", errors="surrogateescape"):
    if line.startswith("#") or not line.strip():
        continue
    if line[0] not in "\t":
        cur = int(line[:4], 16) if line[1] != " " else None
        if cur is not None:
            vendors.setdefault(cur, [])
    elif cur is not None and line[1] != "\t":
        vendors[cur].append(int(line[1:5], 16))
rnd = random.Random(20261204)
pairs = []
for v in sorted(vendors):
    if v == 0xffff:  # "Illegal Vendor ID": no function answers with it, the reader skips it
        continue
    devs = vendors[v]
    pairs.append((v, rnd.choice(devs) if devs else 0x0001))
    if devs and rnd.random() < 0.05:
        pairs.append((v, 0xfffe if 0xfffe not in devs else 0xfffd))  # a device the vendor does not list
unknown = [v for v in range(0x0001, 0xffff) if v not in vendors]
pairs += [(v, 0x1234) for v in rnd.sample(unknown, 20)]
t = gen.Tree(os.path.join(out, "root"))
gen.x86_proc(t, "")
parent = "sys/devices/pci0000:00"
dump = []
for i, (v, d) in enumerate(pairs):
    bus, dev, fn = i // 256, (i // 8) % 32, i % 8
    bdf = "0000:%02x:%02x.%d" % (bus, dev, fn)
    gen.pci(t, parent, bdf, v, d, 0x020000, 64, modalias=False)
    cfg = [v & 0xff, v >> 8, d & 0xff, d >> 8] + [0] * 7 + [0x02] + [0] * 52
    dump.append("%02x:%02x.%d x" % (bus, dev, fn))
    for row in range(0, 64, 16):
        dump.append("%02x: " % row + " ".join("%02x" % b for b in cfg[row:row + 16]))
    dump.append("")
t.check_links()
os.makedirs(os.path.join(out, "root/usr/share/misc"), exist_ok=True)
with open(ids, "rb") as f, open(os.path.join(out, "root/usr/share/misc/pci.ids"), "wb") as g:
    g.write(f.read())
open(os.path.join(out, "dump"), "w").write("\n".join(dump) + "\n")
print(len(pairs), file=open(os.path.join(out, "count"), "w"))
PY

lspci -F "$tmp/dump" -i "$ids" -mm > "$tmp/lspci" 2> "$tmp/lspci-err"
check "lspci names the dump ($(wc -l < "$tmp/lspci") functions)" test -s "$tmp/lspci"
timeout 60 "$TOOL" --sysroot "$tmp/root" --json > "$tmp/j" 2> /dev/null
check "the tool judges the machine ($(jq '.devices | length' "$tmp/j") functions)" valid_json "$tmp/j"

# "00:01.0" "Class" "Vendor" "Device" ...: the name lspci gives, as the tool prints it
compare() { # JSON
	"$PYTHON" - "$tmp/lspci" "$1" <<'PY'
import json, shlex, sys
want = {}
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    f = shlex.split(line)
    slot, vendor, device = "0000:" + f[0], f[2], f[3]
    # an unknown vendor: lspci prints its number, the tool no name
    want[slot] = None if vendor.startswith("Vendor ") and len(vendor) == 11 else vendor + " " + device
got = {d["id"]: d.get("name") for d in json.load(open(sys.argv[2]))["devices"]}
bad = [(s, want[s], got.get(s)) for s in sorted(want) if want[s] != got.get(s)]
for b in bad[:10]:
    print("# %s: lspci %r, tool %r" % b)
print("# %d of %d names differ" % (len(bad), len(want)))
sys.exit(1 if bad or not want else 0)
PY
}
check "every name is lspci's" compare "$tmp/j"
check "unknown vendors get no name" jqe "$tmp/j" '[.devices[] | select(.name == null)] | length == 20'
check "unlisted devices are 'Vendor Device NNNN'" jqe "$tmp/j" \
	'[.devices[] | select(.name != null and (.name | test(" Device ff(fe|fd)$")))] | length > 0'

# the capture keeps the names, not the list
timeout 60 "$TOOL" --sysroot "$tmp/root" --capture "$tmp/cap" > /dev/null 2>&1
size=$(stat -c %s "$tmp/cap/usr/share/misc/pci.ids")
check "capture: a reduced pci.ids ($size bytes, the list is $(stat -c %s "$ids"))" \
	test "$size" -lt "$(stat -c %s "$ids")"
timeout 60 "$TOOL" --sysroot "$tmp/cap" --json > "$tmp/jr" 2> /dev/null
check "capture: the replay names every device as lspci does" compare "$tmp/jr"
check "capture: lspci reads the reduced list too" \
	bash -c 'lspci -F "$1/dump" -i "$2" -mm > /dev/null 2> "$1/e" && ! [ -s "$1/e" ]' _ "$tmp" "$tmp/cap/usr/share/misc/pci.ids"

# Read in 64 KiB pieces, never whole: a bad line far into the list is named
# by the line number lspci gives, and a capture keeps such a list whole, for
# the replay to meet the same error; CRLF line ends name as LF ones do.
cp -r "$tmp/root" "$tmp/bad"
"$PYTHON" - "$ids" "$tmp/bad/usr/share/misc/pci.ids" "$tmp/crlf.ids" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
lines.insert(30000, b"zzzz  not a vendor")
open(sys.argv[2], "wb").write(b"\n".join(lines))
open(sys.argv[3], "wb").write(open(sys.argv[1], "rb").read().replace(b"\n", b"\r\n"))
PY
want=$(lspci -F "$tmp/dump" -i "$tmp/bad/usr/share/misc/pci.ids" 2>&1 >/dev/null | sed -n 's/.*, line \([0-9]*\)$/\1/p')
timeout 60 "$TOOL" --sysroot "$tmp/bad" --json > "$tmp/jb" 2> /dev/null
check "a bad line deep in the list: lspci's line number ($want)" jqe "$tmp/jb" \
	"[.inputs[] | select(.path == \"usr/share/misc/pci.ids\" and .status == \"invalid\" and
	  (.detail | endswith(\", line $want\")))] | length == 1"
timeout 60 "$TOOL" --sysroot "$tmp/bad" --capture "$tmp/capbad" > /dev/null 2>&1
check "capture: the bad list kept whole" cmp -s "$tmp/bad/usr/share/misc/pci.ids" "$tmp/capbad/usr/share/misc/pci.ids"
check "capture: a list refused is no failed read in the MANIFEST" \
	sh -c '! grep -q "^error\.usr/share/misc/pci\.ids=" "$1"' _ "$tmp/capbad/MANIFEST"
timeout 60 "$TOOL" --sysroot "$tmp/capbad" --json > "$tmp/jbr" 2> /dev/null
check "capture: the replay meets the same error" \
	bash -c 'diff <(jq -S ".inputs[] | select(.path == \"usr/share/misc/pci.ids\")" "$1") \
		      <(jq -S ".inputs[] | select(.path == \"usr/share/misc/pci.ids\")" "$2")' _ "$tmp/jb" "$tmp/jbr"
cp "$tmp/crlf.ids" "$tmp/bad/usr/share/misc/pci.ids"
timeout 60 "$TOOL" --sysroot "$tmp/bad" --json > "$tmp/jc" 2> /dev/null
check "a CRLF list: every name is lspci's" compare "$tmp/jc"
tap_done
