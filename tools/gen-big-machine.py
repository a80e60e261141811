#!/usr/bin/python3
"""gen-big-machine.py OUT [--pci N] [--disks M] [--unreadable K]

Write a synthetic sysroot with N PCI functions (default 10000) and M disks
(default 4096) for benchmarks: an x86_64 box with RAM above 4 GiB, every
function with ids, masks, a driver on most, an IOMMU group on some, and each
disk an NVMe namespace under its own function. The tree mirrors sysfs with
relative symlinks, so both dmamask-audit --sysroot and
`lspci -A linux-sysfs -O sysfs.path=OUT/sys` read it.

--unreadable K: in the first K functions every attribute the audit reads
(uevent, the ids, the masks, numa_node, modalias) is a directory, so ten
reads per function fail (EISDIR) even as root: ten error lines each in a
capture's MANIFEST, about 600 bytes.
"""
import argparse
import os
import shutil
import sys

# the one tree builder (tests/machines/faketree.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "machines"))
from faketree import Tree  # noqa: E402

IOMEM = """00000000-00000fff : Reserved
00001000-0009fbff : System RAM
00100000-bfffffff : System RAM
  01000000-02269a87 : Kernel code
100000000-83fffffff : System RAM
"""
ZONEINFO = """Node 0, zone      DMA
  pages free     3840
        spanned  4095
        present  3998
        managed  3840
  start_pfn:           1
Node 0, zone    DMA32
  pages free     772818
        spanned  1044480
        present  782336
        managed  772818
  start_pfn:           4096
Node 0, zone   Normal
  pages free     7000000
        spanned  7340032
        present  7340032
        managed  7300000
  start_pfn:           1048576
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--pci", type=int, default=10000)
    ap.add_argument("--disks", type=int, default=4096)
    ap.add_argument("--unreadable", type=int, default=0)
    a = ap.parse_args()
    if a.disks > a.pci:
        ap.error("--disks must not exceed --pci")
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    t = Tree(a.out)
    t.file("MANIFEST", "arch=x86_64\npage_size=4096\nkernel_release=6.6.0-bench\n"
          "endianness=little\nuid=0\ncaptured_by=tools/gen-big-machine.py\n")
    t.file("proc/iomem", IOMEM)
    t.file("proc/zoneinfo", ZONEINFO)
    t.file("proc/meminfo", "MemTotal:       33554432 kB\n")
    t.file("proc/cmdline", "root=/dev/nvme0n1p1\n")
    t.file("dev/kmsg",
          "6,1,1000,-;software IO TLB: mapped [mem 0x00000000bbfe8000-0x00000000bffe8000] (64MB)\n")
    for drv in ("nvme", "ahci", "ixgbe"):
        t.dir(f"sys/module/{drv}")
        t.link(f"sys/bus/pci/drivers/{drv}/module", f"sys/module/{drv}")
    groups = 0
    for i in range(a.pci):
        bus, rest = divmod(i, 256)
        dev, fn = divmod(rest, 8)
        addr = f"0000:{bus + 1:02x}:{dev:02x}.{fn}"
        d = f"sys/devices/pci0000:00/{addr}"
        disk = i < a.disks
        cls, drv, bits = ("0x010802", "nvme", 64) if disk else \
            (("0x010601", "ahci", 32) if i % 3 == 0 else ("0x020000", "ixgbe", 64))
        alias = f"pci:v00008086d0000{0x1000 + i % 4096:04X}sv00008086sd00000001bc01sc08i02\n"
        attrs = {
            "vendor": "0x8086\n",
            "device": f"0x{0x1000 + i % 4096:04x}\n",
            "subsystem_vendor": "0x8086\n",
            "subsystem_device": "0x0001\n",
            "class": cls + "\n",
            "dma_mask_bits": f"{bits}\n",
            "consistent_dma_mask_bits": f"{bits}\n",
            "numa_node": "-1\n",
            "modalias": alias,
            "uevent": (f"DRIVER={drv}\n" if i % 10 != 9 else "") +
                      f"PCI_CLASS={int(cls, 16):X}\nPCI_ID=8086:{0x1000 + i % 4096:04X}\n"
                      f"PCI_SUBSYS_ID=8086:0001\nPCI_SLOT_NAME={addr}\nMODALIAS={alias}",
        }
        for k, v in attrs.items():
            if i < a.unreadable:
                t.dir(f"{d}/{k}")
            else:
                t.file(f"{d}/{k}", v)
        # lspci's sysfs backend wants these as well
        t.file(f"{d}/irq", "0\n")
        t.file(f"{d}/resource", "0x0000000000000000 0x0000000000000000 0x0000000000000000\n")
        t.file(f"{d}/config", bytes([0x86, 0x80, i & 0xff, 0x10]) + bytes(60))
        if i % 10 != 9:  # one in ten unbound
            t.link(f"{d}/driver", f"sys/bus/pci/drivers/{drv}")
        if i % 4 == 0:
            g = groups
            groups += 1
            t.file(f"sys/kernel/iommu_groups/{g}/type", "DMA-FQ\n")
            t.link(f"{d}/iommu_group", f"sys/kernel/iommu_groups/{g}")
        t.link(f"sys/bus/pci/devices/{addr}", d)
        if disk:
            name = f"nvme{i}n1"
            b = f"{d}/nvme/nvme{i}/{name}"
            for k, v in (("max_sectors_kb", 1280), ("max_hw_sectors_kb", 2048), ("max_segments", 127),
                         ("max_segment_size", 4294967295), ("logical_block_size", 512),
                         ("dma_alignment", 3)):
                t.file(f"{b}/queue/{k}", f"{v}\n")
            t.link(f"sys/class/block/{name}", b)


if __name__ == "__main__":
    main()
