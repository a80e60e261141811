#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from the fixture machines' trees.

seeds.py OUT NAME=ROOT...: for each tree, the file each parser reads goes
into OUT/TARGET/NAME[-N], and the whole tree, in the text form that
tests/fuzz/machine.c reads, into OUT/machine/NAME.
"""
import hashlib
import os
import struct
import sys

# target -> the paths (relative to the root, '*' one component) it parses
FILES = {
    "iomem": ["proc/iomem"],
    "zoneinfo": ["proc/zoneinfo"],
    "meminfo": ["proc/meminfo"],
    "cmdline": ["proc/cmdline"],
    "manifest": ["MANIFEST"],
    "kmsg": ["dev/kmsg"],
    "pci-ids": ["usr/share/misc/pci.ids", "usr/share/hwdata/pci.ids", "var/lib/pciutils/pci.ids"],
    "cpuinfo": ["proc/cpuinfo"],
    "dma-api-dump": ["sys/kernel/debug/dma-api/dump"],
    "pci-uevent": ["sys/bus/pci/devices/*/uevent"],
    "udev-props": ["run/dmamask-audit/udev/*", "run/dmamask-audit/udev/block/*"],
    "iort": ["sys/firmware/acpi/tables/IORT"],
    "srat": ["sys/firmware/acpi/tables/SRAT"],
    "cpus": ["sys/devices/system/cpu/possible"],
    "observed": ["run/dmamask-audit/observe/window", "run/dmamask-audit/observe/traffic-after"],
    "virtio": ["sys/bus/pci/devices/*/virtio*/features", "sys/bus/platform/devices/*/virtio*/features"],
}
SWIOTLB = ["io_tlb_nslabs", "io_tlb_used", "io_tlb_used_hiwater", "io_tlb_transient_nslabs"]
FILE_MAX = 1 << 20
DT_BASE = "sys/firmware/devicetree/base"


def matches(root, pattern):
    """The files under root that pattern names, following symlinks inside the tree."""
    paths = [""]
    for comp in pattern.split("/"):
        nxt = []
        for p in paths:
            d = os.path.join(root, p)
            if comp.endswith("*"):
                try:
                    names = sorted(n for n in os.listdir(d) if n.startswith(comp[:-1]))
                except OSError:
                    names = []
            else:
                names = [comp]
            nxt += [os.path.join(p, n) for n in names]
        paths = nxt
    return [p for p in paths if os.path.isfile(os.path.join(root, p))]


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read(FILE_MAX + 1)
    except OSError:
        return None


def write(out, target, name, data):
    if data is None or len(data) > FILE_MAX:
        return
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    tag = hashlib.sha1(data).hexdigest()[:8]
    with open(os.path.join(d, f"{name}-{tag}"), "wb") as f:
        f.write(data)


def u32(root, node, prop):
    data = read(os.path.join(root, DT_BASE, node, prop))
    return struct.unpack(">I", data[:4])[0] if data and len(data) >= 4 else None


def dt_seeds(root, out, name):
    """Each dma-ranges with the cell counts of its node and parent, as devicetree.c reads them."""
    base = os.path.join(root, DT_BASE)
    for dirpath, _, files in os.walk(base):
        if "dma-ranges" not in files:
            continue
        node = os.path.relpath(dirpath, base)
        node = "" if node == "." else node
        parent = os.path.dirname(node)
        na, ns = u32(root, node, "#address-cells") or 2, u32(root, node, "#size-cells") or 1
        pa = (u32(root, parent, "#address-cells") or 2) if node else na
        prop = read(os.path.join(dirpath, "dma-ranges")) or b""
        if len(prop) > 255 or na > 5 or ns > 5 or pa > 5:
            continue
        is_pci = 1 if na == 3 else 0
        # two nodes: this one (property present) and its parent (absent)
        data = bytes([1, na, ns, is_pci | 2 << 1, pa, 1, 0, len(prop)]) + prop
        write(out, "devicetree", name, data)


def tree(root):
    """The whole tree as machine.c's text: files, symlinks, empty directories."""
    parts = []
    for dirpath, dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        rel = "" if rel == "." else rel + "/"
        if not dirs and not files and rel:
            parts.append(b"// " + rel.encode() + b"\n")
        for n in sorted(dirs + files):
            p = os.path.join(dirpath, n)
            if os.path.islink(p):
                parts.append(b"-> " + (rel + n).encode() + b" " + os.readlink(p).encode() + b"\n")
            elif n in files:
                data = read(p)
                if data is None or len(data) > FILE_MAX:
                    continue
                parts.append(b"== " + (rel + n).encode() + b"\n" + data + b"\n")
    return b"".join(parts)


def main():
    out = sys.argv[1]
    for arg in sys.argv[2:]:
        name, root = arg.split("=", 1)
        for target, patterns in FILES.items():
            for pat in patterns:
                for p in matches(root, pat):
                    write(out, target, name, read(os.path.join(root, p)))
        counters = [read(os.path.join(root, "sys/kernel/debug/swiotlb", c)) for c in SWIOTLB]
        if any(c is not None for c in counters):
            write(out, "swiotlb", name, b";".join((c or b"").strip() for c in counters))
        dt_seeds(root, out, name)
        write(out, "machine", name, tree(root))


if __name__ == "__main__":
    main()
