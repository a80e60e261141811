#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Build the sysroot trees of the generated fixture machines.

    tests/machines/gen-fixtures.py [NAME...]           # checks and args in the tree, roots
                                                       # under $TMPDIR/dmamask-fixtures
    tests/machines/gen-fixtures.py --out DIR [NAME...] # roots only, under DIR/NAME/root
    tests/machines/gen-fixtures.py --list

Roots are never written into the source tree, and none is committed: the
test scripts build them with --out into a temporary directory (they hold
sysfs-style symlink loops that do not belong in a tarball), from this file
alone.

Each fixture this script owns is listed in FIXTURES. For each one it
deletes NAME/root under the output directory and recreates it, and (without
--out) rewrites NAME/args and NAME/checks; expected.json is left alone (make it with
`tests/machines.sh --regen NAME`, then review it). Python 3 standard library
only; the output depends on nothing but this file, so running it twice gives
the same trees.

The trees mirror what the tool reads on a live system:
- sysfs directories with RELATIVE symlinks, as the kernel makes them
  (sys/bus/pci/devices/X -> ../../../devices/..., driver, module,
  iommu_group, of_node, sys/class/block/X);
- devicetree properties as raw big-endian u32 cells;
- dev/kmsg as a regular file in the /dev/kmsg record format
  ("PRI,SEQ,USEC,FLAGS;message", continuation lines start with a space);
- device nodes (dev/sev-guest) as empty regular files;
- MANIFEST key=value lines.
Only files the tool reads (and what keeps the directories non-empty for git)
are written. Directory names follow the kernel of each fixture's era
(sys/devices/soc.0 on 3.x, sys/devices/platform/soc later).
"""

import os
import shutil
import tempfile
import struct
import sys

# the one tree builder, beside this file (also when another script imports this one)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faketree import Tree, cells, strings  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DT = "sys/firmware/devicetree/base"


# ---------------------------------------------------------------- devicetree

def dt_node(t, node, **props):
    """props: python names with '_' for '-' and 'n_' for '#' (n_address_cells)."""
    for key, value in props.items():
        name = key.replace("n_", "#", 1) if key.startswith("n_") else key
        name = name.replace("_", "-")
        if name == "device-type":
            name = "device_type"  # the property really is spelt with an underscore
        if isinstance(value, str):
            value = strings(value)
        elif isinstance(value, (list, tuple)):
            value = cells(*value)
        t.file("%s/%s/%s" % (DT, node, name) if node else "%s/%s" % (DT, name), value)


# ---------------------------------------------------------------- sysfs devices

def module_dir(t, module):
    # every module kobject has a uevent attribute; it keeps the directory in git
    t.file("sys/module/%s/uevent" % module, "")


def bind(t, bus, devpath, name, driver, module):
    """driver link of a device, its driver directory, the driver's module link."""
    drv = "sys/bus/%s/drivers/%s" % (bus, driver)
    t.link("%s/driver" % devpath, drv)
    t.link("%s/%s" % (drv, name), devpath)
    if module:
        module_dir(t, module)
        t.link("%s/module" % drv, "sys/module/%s" % module)


def iommu_group(t, devpath, name, group, kind):
    g = "sys/kernel/iommu_groups/%d" % group
    t.file("%s/type" % g, kind + "\n")
    t.link("%s/devices/%s" % (g, name), devpath)
    t.link("%s/iommu_group" % devpath, g)


def pci_modalias(v, d, sv, sd, cls):
    return "pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X" % (
        v, d, sv, sd, cls >> 16, (cls >> 8) & 0xff, cls & 0xff)


def pci(t, parent, bdf, vendor, device, cls, mask_bits, driver=None, module=None,
        subsys=(0x1af4, 0x1100), group=None, modalias=True, numa=-1):
    """A PCI function at parent/bdf (parent: its bridge's directory)."""
    path = "%s/%s" % (parent, bdf)
    sv, sd = subsys
    alias = pci_modalias(vendor, device, sv, sd, cls)
    t.file(path + "/vendor", "0x%04x\n" % vendor)
    t.file(path + "/device", "0x%04x\n" % device)
    t.file(path + "/subsystem_vendor", "0x%04x\n" % sv)
    t.file(path + "/subsystem_device", "0x%04x\n" % sd)
    t.file(path + "/class", "0x%06x\n" % cls)
    t.file(path + "/dma_mask_bits", "%d\n" % mask_bits)
    t.file(path + "/consistent_dma_mask_bits", "%d\n" % mask_bits)
    t.file(path + "/numa_node", "%d\n" % numa)
    # drivers/pci/pci-driver.c pci_uevent, after the DRIVER= line of dev_uevent
    uevent = "DRIVER=%s\n" % driver if driver else ""
    uevent += "PCI_CLASS=%X\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\nPCI_SLOT_NAME=%s\n" % (
        cls, vendor, device, sv, sd, bdf)
    if modalias:
        uevent += "MODALIAS=%s\n" % alias
        t.file(path + "/modalias", alias + "\n")
    t.file(path + "/uevent", uevent)
    t.link("sys/bus/pci/devices/%s" % bdf, path)
    if driver:
        bind(t, "pci", path, bdf, driver, module)
    if group is not None:
        iommu_group(t, path, bdf, group[0], group[1])
    return path


def platform(t, path, of_node, compatible, driver=None, module=None, bus="platform",
             old_modalias=False):
    """A devicetree platform (or AMBA) device at sys/devices/... with its of_node."""
    name = path.rsplit("/", 1)[1]
    nodename = of_node.rsplit("/", 1)[-1].split("@")[0]
    alias = "of:N%sT%sC%s" % (nodename, "<NULL>" if old_modalias else "(null)", compatible)
    t.link(path + "/of_node", "%s/%s" % (DT, of_node))
    t.file(path + "/modalias", alias + "\n")
    uevent = "DRIVER=%s\n" % driver if driver else ""
    uevent += "OF_NAME=%s\nOF_FULLNAME=/%s\nOF_COMPATIBLE_0=%s\nOF_COMPATIBLE_N=1\nMODALIAS=%s\n" % (
        nodename, of_node, compatible, alias)
    t.file(path + "/uevent", uevent)
    t.link("sys/bus/%s/devices/%s" % (bus, name), path)
    if driver:
        bind(t, bus, path, name, driver, module)
    return path


def disk(t, parent, name, partitions=(), major_minor=(8, 0), sectors=2097152,
         max_sectors_kb=1280, max_hw_sectors_kb=32767, max_segments=168,
         max_segment_size=65536, logical_block_size=512, dma_alignment=511, glue=True):
    """A whole disk at parent/block/name with its queue, and its partitions.

    glue=False when the parent is a class device (nvme0): the driver core puts
    a class device straight under another class device, and under a "block"
    glue directory when the parent is a bus device (a SCSI device, an MMC card).
    """
    path = "%s/block/%s" % (parent, name) if glue else "%s/%s" % (parent, name)
    major, minor = major_minor
    t.file(path + "/dev", "%d:%d\n" % (major, minor))
    t.file(path + "/size", "%d\n" % sectors)
    q = path + "/queue/"
    t.file(q + "max_sectors_kb", "%d\n" % max_sectors_kb)
    t.file(q + "max_hw_sectors_kb", "%d\n" % max_hw_sectors_kb)
    t.file(q + "max_segments", "%d\n" % max_segments)
    t.file(q + "max_segment_size", "%d\n" % max_segment_size)
    t.file(q + "logical_block_size", "%d\n" % logical_block_size)
    if dma_alignment is not None:  # queue/dma_alignment appeared in 6.0
        t.file(q + "dma_alignment", "%d\n" % dma_alignment)
    t.link("sys/class/block/%s" % name, path)
    for i, part in enumerate(partitions, 1):
        p = "%s/%s" % (path, part)
        t.file(p + "/partition", "%d\n" % i)
        t.file(p + "/dev", "%d:%d\n" % (major, minor + i))
        t.file(p + "/start", "2048\n")
        t.file(p + "/size", "%d\n" % (sectors - 2048))
        t.link("sys/class/block/%s" % part, p)
    return path


def loop0(t):
    p = "sys/devices/virtual/block/loop0"
    t.file(p + "/dev", "7:0\n")
    t.file(p + "/size", "0\n")
    for f, v in (("max_sectors_kb", 1280), ("max_hw_sectors_kb", 32767),
                 ("max_segments", 128), ("max_segment_size", 65536),
                 ("logical_block_size", 512), ("dma_alignment", 511)):
        t.file("%s/queue/%s" % (p, f), "%d\n" % v)
    t.link("sys/class/block/loop0", p)


# ---------------------------------------------------------------- kernel log

def kmsg(t, lines, first_seq=0):
    """lines: message strings, or (message, [continuation, ...]) pairs; a first_seq
    above 0 is a log whose start has rotated out of the ring buffer."""
    out = []
    usec = 0
    for seq, item in enumerate(lines, first_seq):
        msg, cont = (item, []) if isinstance(item, str) else item
        pri = 4 if msg.startswith("!") else 6
        msg = msg.lstrip("!")
        usec += 1234 + 977 * seq
        out.append("%d,%d,%d,-;%s\n" % (pri, seq, usec, msg))
        out.extend(" %s\n" % c for c in cont)
    t.file("dev/kmsg", "".join(out))


def dev_line(dev, msg, subsystem="pci"):
    return ("%s %s: %s" % (subsystem, dev, msg), ["SUBSYSTEM=" + subsystem, "DEVICE=+%s:%s" % (subsystem, dev)])


def manifest(t, arch, release, captured_at, by="tests/machines/gen-fixtures.py (synthetic)",
             page_size=4096):
    t.file("MANIFEST", "arch=%s\npage_size=%d\nkernel_release=%s\nendianness=little\nuid=0\n"
           "captured_by=%s\ncaptured_at=%s\n" % (arch, page_size, release, by, captured_at))


# ---------------------------------------------------------------- proc files

# x86-pc-4g: kept byte for byte from the hand-written fixture (cmdline aside)
X86_IOMEM = """\
00000000-00000fff : Reserved
00001000-0009fbff : System RAM
0009fc00-000fffff : Reserved
  000de000-000defff : AMZNC10C:00
  000f0000-000fffff : System ROM
00100000-bfffffff : System RAM
  01000000-02269a87 : Kernel code
  02400000-02e06fff : Kernel rodata
  03000000-0327c03f : Kernel data
  03b30000-03c60fff : Kernel bss
c0001000-eebfffff : PCI Bus 0000:00
eec00000-febfffff : Reserved
  eec00000-eecfffff : PCI ECAM 0000 [bus 00-00]
    eec00000-eecfffff : PCI Bus 0000:00
fec00000-fec003ff : IOAPIC 0
100000000-63fffffff : System RAM
4000000000-7fffffffff : PCI Bus 0000:00
  4000000000-400007ffff : 0000:00:01.0
    4000000000-400007ffff : virtio-pci-modern
  4000080000-40000fffff : 0000:00:02.0
    4000080000-40000fffff : virtio-pci-modern
  4000100000-400017ffff : 0000:00:03.0
    4000100000-400017ffff : virtio-pci-modern
  4000180000-40001fffff : 0000:00:04.0
    4000180000-40001fffff : virtio-pci-modern
  4000200000-400027ffff : 0000:00:05.0
    4000200000-400027ffff : virtio-pci-modern
"""

X86_ZONEINFO = """\
Node 0, zone      DMA
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
  pages free     185179
        spanned  5505024
        present  5505024
        managed  262144
  start_pfn:           1048576
Node 0, zone  Movable
  pages free     0
        spanned  0
        present  0
        managed  0
Node 0, zone   Device
  pages free     0
        spanned  0
        present  0
        managed  0
"""

X86_MEMINFO = """\
MemTotal:       24683664 kB
MemFree:        24374996 kB
Bounce:                0 kB
"""

# the 2013 max_low_pfn report's board, kept byte for byte
ARM2013_IOMEM = """\
10000000-10000fff : /soc/chipid
12c00000-12c000ff : serial
40000000-bfffffff : System RAM
  40008000-40574fff : Kernel code
  405a8000-4060fb87 : Kernel data
"""

ARM2013_ZONEINFO = """\
Node 0, zone   Normal
  pages free     190000
        min      1024
        low      1280
        high     1536
        scanned  0
        spanned  194560
        present  194560
        managed  190000
  all_unreclaimable: 0
  start_pfn:         262144
  inactive_ratio:    1
Node 0, zone  HighMem
  pages free     329728
        min      1024
        low      1280
        high     1536
        scanned  0
        spanned  329728
        present  329728
        managed  329728
  all_unreclaimable: 0
  start_pfn:         456704
  inactive_ratio:    1
Node 0, zone  Movable
  pages free     0
        min      1024
        low      1280
        high     1536
        scanned  0
        spanned  0
        present  0
        managed  0
"""

ARM2013_MEMINFO = """\
MemTotal:        2075648 kB
MemFree:         1900000 kB
HighTotal:       1318912 kB
HighFree:        1300000 kB
LowTotal:         756736 kB
LowFree:          600000 kB
Bounce:             1024 kB
"""

# the 26-bit device board: copied from arm-256m-c0000000
ARM256_IOMEM = """\
10009000-10009fff : uart-pl011
c0000000-cfffffff : System RAM
  c0008000-c03fffff : Kernel code
  c0420000-c0480fff : Kernel data
"""

ARM256_ZONEINFO = """\
Node 0, zone   Normal
  pages free     63000
        min      1024
        low      1280
        high     1536
        scanned  0
        spanned  65536
        present  65536
        managed  63000
  all_unreclaimable: 0
  start_pfn:         786432
  inactive_ratio:    1
Node 0, zone  Movable
  pages free     0
        min      1024
        low      1280
        high     1536
        scanned  0
        spanned  0
        present  0
        managed  0
"""

ARM256_MEMINFO = """\
MemTotal:         252000 kB
MemFree:          200000 kB
HighTotal:             0 kB
HighFree:              0 kB
LowTotal:         252000 kB
LowFree:          200000 kB
Bounce:                0 kB
"""


def zoneinfo(zones):
    """zones: (name, start_pfn or None, spanned, present) of node 0, kernel 4.x+ layout."""
    out = []
    for name, start, spanned, present in zones:
        managed = present - present // 64 if present else 0
        out.append("Node 0, zone %8s\n" % name)
        out.append("  pages free     %d\n" % (managed * 9 // 10))
        out.append("        spanned  %d\n        present  %d\n        managed  %d\n"
                   % (spanned, present, managed))
        if present:
            out.append("  start_pfn:           %d\n" % start)
    return "".join(out)


def proc(t, iomem, zoneinfo_text, meminfo, cmdline):
    t.file("proc/iomem", iomem)
    t.file("proc/zoneinfo", zoneinfo_text)
    t.file("proc/meminfo", meminfo)
    t.file("proc/cmdline", cmdline + "\n")


def x86_proc(t, cmdline):
    proc(t, X86_IOMEM, X86_ZONEINFO, X86_MEMINFO, cmdline)


X86_BOOT = [
    "Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)",
    "BIOS-provided physical RAM map:",
    "Zone ranges:",
    "  DMA      [mem 0x0000000000001000-0x0000000000ffffff]",
    "  DMA32    [mem 0x0000000001000000-0x00000000ffffffff]",
    "  Normal   [mem 0x0000000100000000-0x000000063fffffff]",
]
SWIOTLB_X86 = "software IO TLB: mapped [mem 0x00000000bbfe8000-0x00000000bffe8000] (64MB)"


# ---------------------------------------------------------------- x86 PC devices

def x86_pc_devices(t, groups=False, nvme_partition=True, group_type="DMA-FQ"):
    """Host bridge (unbound), AHCI (32-bit) with sda, a root port, NVMe (64-bit) with nvme0n1."""
    bus = "sys/devices/pci0000:00"
    g = (lambda n: (n, group_type)) if groups else (lambda n: None)
    pci(t, bus, "0000:00:00.0", 0x8086, 0x29c0, 0x060000, 32, group=g(0))
    ahci = pci(t, bus, "0000:00:1f.2", 0x8086, 0x2922, 0x010601, 32, "ahci", "ahci", group=g(1))
    scsi = ahci + "/ata1/host0/target0:0:0/0:0:0:0"
    disk(t, scsi, "sda", ["sda1"], (8, 0), sectors=41943040)
    port = pci(t, bus, "0000:00:1c.0", 0x8086, 0x29b8, 0x060400, 32, "pcieport", None,
               subsys=(0x8086, 0x0000), group=g(2))
    nvme = pci(t, port, "0000:01:00.0", 0x144d, 0xa808, 0x010802, 64, "nvme", "nvme",
               subsys=(0x144d, 0xa801), group=g(2))
    disk(t, nvme + "/nvme/nvme0", "nvme0n1", ["nvme0n1p1"] if nvme_partition else [],
         (259, 0), sectors=1000215216, max_sectors_kb=128, max_hw_sectors_kb=128,
         max_segments=33, max_segment_size=4294967295, dma_alignment=3, glue=False)
    loop0(t)


def dev(id_):
    return '(.devices[] | select(.id == "%s"))' % id_


def finding(id_, device=None):
    if device is None:
        return '[.findings[] | select(.id == "%s" and .device == null)]' % id_
    return '[.findings[] | select(.id == "%s" and .device == "%s")]' % (id_, device)


GIB = 1 << 30
X86_ABOVE_4G = 0x540000000  # 0x100000000-0x63fffffff


# ---------------------------------------------------------------- fixtures

def x86_pc_4g(t):
    """An x86-64 PC on Debian 12's 6.1 with 24 GiB (21 GiB above 4 GiB): a 32-bit
    AHCI disk, a 64-bit NVMe, no IOMMU; the base of most x86 fixtures (6.1 sysfs).
    Follows: the hand-written fixture it replaced (iomem and zoneinfo kept byte for
    byte); log lines of arch/x86/kernel/pci-dma.c pci_iommu_init, kernel/dma/swiotlb.c
    swiotlb_print_info, drivers/pci/probe.c pci_setup_device and drivers/nvme/host/pci.c
    nvme_setup_io_queues. Device IDs, pool address and udev data are synthetic."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z", by="dmamask-audit 0.1.0")
    x86_proc(t, "console=ttyS0 root=/dev/nvme0n1p1")
    x86_pc_devices(t)
    # what --capture stores of libudev's answers (a replay shows the same names)
    t.file("run/dmamask-audit/udev/0000:00:1f.2",
           "ID_PATH=pci-0000:00:1f.2\nID_VENDOR_FROM_DATABASE=Intel Corporation\n"
           "ID_MODEL_FROM_DATABASE=82801IR/IO/IH (ICH9R/DO/DH) 6 port SATA Controller [AHCI mode]\n")
    t.file("run/dmamask-audit/udev/block/sda",
           "ID_PATH=pci-0000:00:1f.2-ata-1.0\nID_SERIAL=WDC_WD10EZEX-08WN4A0_WD-WCC6Y1234567\n"
           "DEVLINK_BY_PATH=/dev/disk/by-path/pci-0000:00:1f.2-ata-1.0\n")
    kmsg(t, X86_BOOT + [
        "Command line: console=ttyS0 root=/dev/nvme0n1p1",
        "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)",
        SWIOTLB_X86,
        dev_line("0000:00:1f.2", "[8086:2922] type 00 class 0x010601"),
        ("ahci 0000:00:1f.2: AHCI 0001.0000 32 slots 6 ports 1.5 Gbps 0x3f impl SATA mode",
         ["SUBSYSTEM=pci", "DEVICE=+pci:0000:00:1f.2"]),
        ("nvme nvme0: 4/0/0 default/read/poll queues", ["SUBSYSTEM=nvme", "DEVICE=c242:0"]),
    ])
    return [
        "# udev properties from the snapshot's files",
        "%s | .udev.ID_PATH == \"pci-0000:00:1f.2\"" % dev("0000:00:1f.2"),
        "[.block[] | select(.disk == \"sda\")][0].udev.ID_SERIAL == \"WDC_WD10EZEX-08WN4A0_WD-WCC6Y1234567\"",
        "[.block[] | select(.disk == \"sda\")][0].udev.by_path == \"/dev/disk/by-path/pci-0000:00:1f.2-ata-1.0\"",
        "# x86_64 with RAM above 4 GiB: count and PFN readings differ only by the base PFN (1)",
        ".memory.source == \"iomem\"",
        ".memory.base_pfn == 1",
        ".memory.end_pfn == 6553600",
        ".memory.highmem_bytes == 0",
        "([.memory.ram_ranges[] | select((.end | ltrimstr(\"0x\") | length) > 8)] | length) >= 1",
        ".memory.ram_bytes == ([.memory.ram_ranges[].bytes] | add)",
        "# devices (generated by gen-fixtures.py): the 32-bit AHCI bounces RAM above 4 GiB (a warning)",
        "[.findings[] | select(.severity == \"warning\" or .severity == \"error\")] | length > 0",
        "# a warning (bouncing through a pool) is a cost the kernel handles: --fail-on error, the default, passes it",
        ".exit_status == 0",
        ".swiotlb.active == true and .swiotlb.pool_start == \"0xbbfe8000\" and .swiotlb.pool_end == \"0xbffe7fff\"",
        ".swiotlb.size_bytes == 67108864",
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        "%s | .driver == null" % dev("0000:00:00.0"),
        "%s | .verdict == \"partial\"" % dev("0000:00:1f.2"),
        "%s | .driver == \"ahci\" and .module == \"ahci\" and .module_source == \"sysfs\"" % dev("0000:00:1f.2"),
        "%s | .dma_mask == \"0xffffffff\" and .dma_mask_bits == 32" % dev("0000:00:1f.2"),
        "# 0x540000000 bytes: RAM 0x100000000-0x63fffffff",
        "%s | .unreachable_ram_bytes == %d" % (dev("0000:00:1f.2"), X86_ABOVE_4G),
        "%s | .swiotlb_pool_reachable == true" % dev("0000:00:1f.2"),
        "%s | .kernel_model == \"dma-direct\"" % dev("0000:00:1f.2"),
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        "%s | .[0].severity == \"warning\"" % finding("bounce-needed", "0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "%s | .unreachable_ram_bytes == 0" % dev("0000:01:00.0"),
        "%s | length == 0" % finding("bounce-needed", "0000:01:00.0"),
        "[.findings[] | select(.id == \"bounce-impossible\")] | length == 0",
        "[.block[] | select(.disk == \"sda\")][0].dma_device == \"0000:00:1f.2\"",
        "[.block[] | select(.disk == \"sda\")][0].verdict == \"partial\"",
        "[.block[] | select(.disk == \"nvme0n1\")][0].dma_device == \"0000:01:00.0\"",
        "[.block[] | select(.disk == \"sda1\" or .disk == \"nvme0n1p1\")] | length == 0",
        "[.block[] | select(.disk == \"loop0\")][0].dma_device == null",
        ".iommu.groups_present == false",
        "[.devices[] | select(.iommu_group != null)] | length == 0",
    ]


def x86_iommu_dmafq(t):
    """x86-pc-4g with intel_iommu=on: every device in a translated (DMA-FQ) group.
    Follows: drivers/iommu/iommu.c iommu_subsys_init ("Default domain type:", "DMA
    domain TLB invalidation policy:"; the trailing space is that of the older "%s %s"
    format, which a later fix made "%s%s") and iommu_group_add_device ("Adding to
    iommu group %d"). The DMAR lines and the group numbers are synthetic."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "console=ttyS0 root=/dev/nvme0n1p1 intel_iommu=on"
    x86_proc(t, cmd)
    x86_pc_devices(t, groups=True)
    kmsg(t, X86_BOOT + [
        "Command line: " + cmd,
        "DMAR: IOMMU enabled",
        "DMAR: Intel(R) Virtualization Technology for Directed I/O",
        "iommu: Default domain type: Translated ",
        "iommu: DMA domain TLB invalidation policy: lazy mode ",
        SWIOTLB_X86,
        dev_line("0000:00:00.0", "Adding to iommu group 0"),
        dev_line("0000:00:1f.2", "Adding to iommu group 1"),
        dev_line("0000:00:1c.0", "Adding to iommu group 2"),
        dev_line("0000:01:00.0", "Adding to iommu group 2"),
    ])
    return [
        "# x86-pc-4g with every device in a translated (DMA-FQ) IOMMU domain",
        ".iommu.groups_present == true",
        "%s | .iommu_group == 1 and .iommu_domain == \"DMA-FQ\"" % dev("0000:00:1f.2"),
        "%s | .verdict == \"iommu\"" % dev("0000:00:1f.2"),
        "%s | .verdict == \"iommu\"" % dev("0000:01:00.0"),
        "%s | .iommu_group == 2" % dev("0000:01:00.0"),
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        "# unreachable_ram_bytes is what bounces or fails: nothing when translated, unknown when idle",
        "%s | .unreachable_ram_bytes == 0 and .mask_unreachable_ram_bytes > 0" % dev("0000:00:1f.2"),
        "%s | .unreachable_ram_bytes == null and .mask_unreachable_ram_bytes != null" % dev("0000:00:00.0"),
        "[.findings[] | select(.id == \"bounce-needed\")] | length == 0",
        "[.findings[] | select(.id == \"bounce-impossible\")] | length == 0",
        "[.devices[] | select(.driver != null and (.pci_ids.class | startswith(\"06\") | not)) | .verdict] | all(. == \"iommu\")",
        "[.devices[] | select(.pci_ids.class | startswith(\"06\")) | .verdict] | all(. == \"idle\")",
        ".exit_status == 0",
    ]


def x86_noforce(t):
    """x86-pc-4g booted with swiotlb=noforce: no pool, so the 32-bit AHCI cannot
    reach RAM above 4 GiB. Follows: kernel/dma/swiotlb.c swiotlb_init_remap, which
    returns on swiotlb_force_disable before it allocates or logs a pool; the log is
    X86_BOOT plus a drivers/pci/probe.c pci_setup_device line (synthetic values)."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "console=ttyS0 root=/dev/nvme0n1p1 swiotlb=noforce"
    x86_proc(t, cmd)
    x86_pc_devices(t)
    # swiotlb=noforce on 5.18+: swiotlb_init_remap() returns early, no pool, no log line
    kmsg(t, X86_BOOT + [
        "Command line: " + cmd,
        dev_line("0000:00:1f.2", "[8086:2922] type 00 class 0x010601"),
    ])
    return [
        "# x86-pc-4g booted with swiotlb=noforce: no pool, the 32-bit AHCI cannot reach RAM above 4 GiB",
        ".swiotlb.active == false",
        ".swiotlb.cmdline_noforce == true",
        ".swiotlb.pool_start == null",
        "%s | .verdict == \"fails\"" % dev("0000:00:1f.2"),
        "%s | .unreachable_ram_bytes == %d" % (dev("0000:00:1f.2"), X86_ABOVE_4G),
        "%s | length == 1" % finding("bounce-impossible", "0000:00:1f.2"),
        "%s | .[0].severity == \"error\"" % finding("bounce-impossible", "0000:00:1f.2"),
        "%s | .[0].evidence.swiotlb == \"absent\"" % finding("bounce-impossible", "0000:00:1f.2"),
        "%s | length == 0" % finding("bounce-needed", "0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        ".exit_status == 1",
        "# swiotlb=noforce: no pool, 21 GiB above 4 GiB: the next 32-bit device fails there too: no-bounce-pool",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 22548578304 and .[0].evidence.boundary == \"0x100000000\"" % finding("no-bounce-pool"),
    ]


def x86_force_pool_30bit(t):
    """x86-pc-4g booted with swiotlb=force, its AHCI given a 30-bit mask
    (--assume-mask): every mapping bounces, and the pool the log places at
    0xbbfe8000-0xbffe7fff lies above the 30-bit reach (0x3fffffff), so
    kernel/dma/swiotlb.c swiotlb_map() fails each one on dma_capable() of the
    slot ("swiotlb addr ... overflow"), RAM within reach too. The 64-bit NVMe
    reaches the pool: forced. Follows: x86_pc_4g's log (swiotlb_print_info);
    the mask is assumed, no driver of this tree sets 30 bits."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "console=ttyS0 root=/dev/nvme0n1p1 swiotlb=force"
    x86_proc(t, cmd)
    x86_pc_devices(t)
    kmsg(t, X86_BOOT + [
        "Command line: " + cmd,
        "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)",
        SWIOTLB_X86,
        dev_line("0000:00:1f.2", "[8086:2922] type 00 class 0x010601"),
    ])
    t_args = "--assume-mask 0000:00:1f.2=30"
    ahci = dev("0000:00:1f.2")
    return t_args, [
        "# swiotlb=force: every streaming mapping of every device bounces through the one pool",
        ".swiotlb.forced == true and .swiotlb.active == true",
        ".swiotlb.pool_start == \"0xbbfe8000\" and .swiotlb.pool_end == \"0xbffe7fff\"",
        "%s | .mask_source == \"user\" and .dma_mask == \"0x3fffffff\"" % ahci,
        "# the pool ends at 0xbffe7fff, past the 30-bit limit: swiotlb_map() fails every mapping",
        "%s | .verdict == \"fails\" and (.reason | test(\"pool the device cannot reach\"))" % ahci,
        "%s | .forced_why == \"swiotlb=force on the command line\"" % ahci,
        "%s | .swiotlb_pool_reachable == false and .limiter == \"pool\"" % ahci,
        "# every mapping bounces, so every one fails: all RAM, not only the RAM above 1 GiB",
        ".memory.ram_bytes as $ram | %s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == $ram" % ahci,
        "%s | .mask_unreachable_ram_bytes < .unreachable_ram_bytes" % ahci,
        "%s | length == 1 and .[0].severity == \"error\"" % finding("bounce-impossible", "0000:00:1f.2"),
        "%s | .[0].evidence.limit == \"0x3fffffff\" and .[0].evidence.limiter == \"pool\"" % finding("bounce-impossible", "0000:00:1f.2"),
        "%s | .[0].evidence.forced_by == \"swiotlb=force on the command line\"" % finding("bounce-impossible", "0000:00:1f.2"),
        ".memory.ram_bytes as $ram | %s | .[0].evidence.failing_ram_bytes == $ram" % finding("bounce-impossible", "0000:00:1f.2"),
        "%s | length == 1 and .[0].evidence.limit == \"0x3fffffff\"" % finding("swiotlb-out-of-reach", "0000:00:1f.2"),
        "%s | .[0].evidence.pool_start == \"0xbbfe8000\" and .[0].evidence.pool_end == \"0xbffe7fff\"" % finding("swiotlb-out-of-reach", "0000:00:1f.2"),
        "[.block[] | select(.disk == \"sda\")][0].verdict == \"fails\"",
        "# the 64-bit NVMe reaches the pool: forced, all RAM bounces",
        ".memory.ram_bytes as $ram | %s | .verdict == \"forced\" and .unreachable_ram_bytes == $ram" % dev("0000:01:00.0"),
        "%s | length == 0" % finding("swiotlb-out-of-reach", "0000:01:00.0"),
        "%s | length == 0" % finding("bounce-impossible", "0000:01:00.0"),
        "%s | length == 1 and .[0].severity == \"info\"" % finding("forced-bounce"),
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        ".exit_status == 1",
    ]


def x86_guest_proc(t, cmd):
    # a QEMU q35 guest with 8 GiB: 2 GiB below 4 GiB, 6 GiB above
    iomem = """\
00000000-00000fff : Reserved
00001000-0009fbff : System RAM
0009fc00-0009ffff : Reserved
000f0000-000fffff : Reserved
  000f0000-000fffff : System ROM
00100000-7ffdbfff : System RAM
  2e000000-2f002fff : Kernel code
  2f200000-2fc2cfff : Kernel rodata
  2fe00000-30150cff : Kernel data
7ffdc000-7fffffff : Reserved
80000000-afffffff : PCI Bus 0000:00
b0000000-bfffffff : PCI ECAM 0000 [bus 00-ff]
fec00000-fec003ff : IOAPIC 0
fed00000-fed003ff : HPET 0
fee00000-fee00fff : Local APIC
fffc0000-ffffffff : Reserved
100000000-27fffffff : System RAM
280000000-a7fffffff : PCI Bus 0000:00
"""
    zi = zoneinfo([("DMA", 1, 4095, 3998), ("DMA32", 4096, 1044480, 520156),
                   ("Normal", 1048576, 1572864, 1572864), ("Movable", None, 0, 0),
                   ("Device", None, 0, 0)])
    mi = "MemTotal:        8141136 kB\nMemFree:         7702120 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, cmd)


def guest_devices(t):
    """QEMU: host bridge (unbound), virtio-blk (64-bit, virtio-pci) with vda."""
    bus = "sys/devices/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x8086, 0x29c0, 0x060000, 32)
    blk = pci(t, bus, "0000:00:02.0", 0x1af4, 0x1042, 0x010000, 64, "virtio-pci", "virtio_pci")
    # forced bouncing: virtio-blk caps segments at virtio_max_dma_size() = 256 KiB
    # (5.1), as kernel-x86-pc-force-virtio's vdb shows on Debian 6.1
    disk(t, blk + "/virtio1", "vda", ["vda1"], (254, 0), sectors=41943040,
         max_hw_sectors_kb=2147483647, max_segments=254, max_segment_size=262144,
         dma_alignment=511)


def virtio_features(t, path, access_platform):
    """virtioN/features: '0'/'1' per bit, bit 0 first (drivers/virtio/virtio.c features_show)."""
    bits = ["0"] * 64
    for b in (0, 28, 29, 32):  # CSUM, INDIRECT_DESC, EVENT_IDX, VERSION_1
        bits[b] = "1"
    bits[33] = "1" if access_platform else "0"  # VIRTIO_F_ACCESS_PLATFORM
    t.file(path + "/features", "".join(bits) + "\n")


def x86_virtio(t):
    """A QEMU q35 guest (8 GiB) on a 6.6 kernel with three virtio-pci devices: the
    DMA API is used only with VIRTIO_F_ACCESS_PLATFORM. Follows: drivers/virtio/
    virtio_ring.c vring_use_dma_api, drivers/virtio/virtio.c features_show (the
    features file), kernel/dma/swiotlb.c swiotlb_print_info. Feature sets, masks and
    the IOMMU group are synthetic."""
    manifest(t, "x86_64", "6.6.0-28-amd64", "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/vmlinuz-6.6.0-28-amd64 root=/dev/vda1 ro console=ttyS0"
    x86_guest_proc(t, cmd)
    bus = "sys/devices/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x8086, 0x29c0, 0x060000, 32)
    # a transitional device left at a 32-bit mask, without ACCESS_PLATFORM: the
    # rings carry guest-physical addresses, the mask is never consulted
    blk = pci(t, bus, "0000:00:02.0", 0x1af4, 0x1001, 0x010000, 32, "virtio-pci", "virtio_pci")
    virtio_features(t, blk + "/virtio1", False)
    disk(t, blk + "/virtio1", "vda", ["vda1"], (254, 0), sectors=41943040,
         max_segments=254, max_segment_size=4294967295, dma_alignment=511)
    # the same mask with ACCESS_PLATFORM: the DMA API, so RAM above 4 GiB bounces
    net = pci(t, bus, "0000:00:03.0", 0x1af4, 0x1041, 0x020000, 32, "virtio-pci", "virtio_pci")
    virtio_features(t, net + "/virtio2", True)
    # without ACCESS_PLATFORM in a translated IOMMU group: the bypass comes first,
    # the domain never sees its addresses (vring_use_dma_api)
    rng = pci(t, bus, "0000:00:04.0", 0x1af4, 0x1044, 0x00ff00, 64, "virtio-pci", "virtio_pci",
              group=(4, "DMA"))
    virtio_features(t, rng + "/virtio3", False)
    kmsg(t, [
        "Linux version 6.6.0-28-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC",
        "Command line: " + cmd,
        "software IO TLB: mapped [mem 0x000000007bfdc000-0x000000007ffdc000] (64MB)",
    ])
    return [
        "# virtio bypasses the DMA API without VIRTIO_F_ACCESS_PLATFORM (vring_use_dma_api)",
        "%s | .verdict == \"direct\" and .virtio_access_platform == false" % dev("0000:00:02.0"),
        "%s | .reason | test(\"ACCESS_PLATFORM\")" % dev("0000:00:02.0"),
        "%s | .verdict == \"partial\" and .virtio_access_platform == true" % dev("0000:00:03.0"),
        "%s | .unreachable_ram_bytes == 6442450944" % dev("0000:00:03.0"),
        "[.findings[] | select(.id == \"bounce-needed\") | .device] == [\"0000:00:03.0\"]",
        "[.block[] | select(.disk == \"vda\")][0].verdict == \"direct\"",
        "# item 10.7: the bypass decides before the IOMMU domain does",
        "%s | .iommu_domain == \"DMA\" and .verdict == \"direct\" and (.reason | test(\"ACCESS_PLATFORM\"))" % dev("0000:00:04.0"),
    ]


def x86_sev_guest(t):
    """An AMD SEV-SNP guest (QEMU q35, 8 GiB) on Ubuntu 24.04's 6.8 with virtio-blk:
    every streaming mapping is forced through swiotlb. Follows: arch/x86/mm/mem_encrypt.c
    print_mem_encrypt_feature_info ("Memory Encryption Features active: AMD SEV SEV-ES
    SEV-SNP"), arch/x86/kernel/sev.c sev_show_status ("SEV: Status:", added after
    6.8-rc1, so absent from mainline 6.8), kernel/dma/swiotlb.c swiotlb_print_info.
    The 512 MiB pool, its address and the virtio_blk line are synthetic."""
    manifest(t, "x86_64", "6.8.0-51-generic", "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/vmlinuz-6.8.0-51-generic root=/dev/vda1 ro console=ttyS0"
    x86_guest_proc(t, cmd)
    guest_devices(t)
    t.file("dev/sev-guest", "")
    kmsg(t, [
        "Linux version 6.8.0-51-generic (buildd@lcy02-amd64-091) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) 13.2.0) #52-Ubuntu SMP PREEMPT_DYNAMIC",
        "Command line: " + cmd,
        "SEV: Status: SEV SEV-ES SEV-SNP ",
        "Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP",
        "software IO TLB: mapped [mem 0x0000000060000000-0x0000000080000000] (512MB)",
        dev_line("0000:00:02.0", "[1af4:1042] type 00 class 0x010000"),
        ("virtio_blk virtio1: [vda] 41943040 512-byte logical blocks (21.5 GB/20.0 GiB)",
         ["SUBSYSTEM=virtio", "DEVICE=+virtio:virtio1"]),
    ])
    return [
        "# AMD SEV-SNP guest: every streaming DMA mapping bounces through swiotlb",
        ".swiotlb.forced == true",
        ".swiotlb.forced_why | test(\"SEV\")",
        ".swiotlb.active == true",
        ".swiotlb.size_bytes == 536870912",
        "%s | .verdict == \"forced\"" % dev("0000:00:02.0"),
        "%s | .dma_mask_bits == 64 and .driver == \"virtio-pci\"" % dev("0000:00:02.0"),
        "%s | .forced_why | test(\"SEV\")" % dev("0000:00:02.0"),
        "# forced: every buffer bounces, so all RAM; the mask itself reaches it all",
        ".memory.ram_bytes as $ram | %s | .unreachable_ram_bytes == $ram and .mask_unreachable_ram_bytes == 0" % dev("0000:00:02.0"),
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        "%s | length == 1" % finding("forced-bounce"),
        "%s | .[0].severity == \"info\"" % finding("forced-bounce"),
        "[.block[] | select(.disk == \"vda\")][0].verdict == \"forced\"",
        "[.findings[] | select(.id == \"bounce-needed\" or .id == \"bounce-impossible\")] | length == 0",
        ".exit_status == 0",
    ]


def x86_sme_host(t):
    """An AMD SME host (not a guest), no IOMMU, swiotlb log rotated away, iommu=off.

    phys_to_dma() sets the C-bit (include/linux/dma-direct.h __sme_set), so a
    limit below it fails dma_capable() for every buffer: the 32-bit AHCI
    bounces everything; the 64-bit NVMe is above any C-bit; a 44-bit GPU is
    between the physical bits cpuinfo shows (43, the C-bit excluded by
    early_detect_mem_encrypt) and bit 52: unknown. pci_swiotlb_detect() keeps
    the pool for CC_ATTR_HOST_MEM_ENCRYPT whatever the RAM and iommu=off.
    Follows: arch/x86/mm/mem_encrypt.c print_mem_encrypt_feature_info ("Memory
    Encryption Features active: AMD SME") and force_dma_unencrypted (the C-bit test).
    cpuinfo, the GPU and the log's start are synthetic.
    """
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "console=ttyS0 root=/dev/nvme0n1p1 iommu=off"
    x86_proc(t, cmd)
    t.file("proc/cpuinfo",
           "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7543 32-Core Processor\n"
           "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep sme sev sev_es\n"
           "address sizes\t: 43 bits physical, 48 bits virtual\n\n")
    x86_pc_devices(t)
    pci(t, "sys/devices/pci0000:00", "0000:00:03.0", 0x1002, 0x73bf, 0x030000, 44,
        "amdgpu", "amdgpu", subsys=(0x1002, 0x0e3a))
    # a rotated log (first record not 0): it cannot show whether a pool was made
    kmsg(t, [
        "Memory Encryption Features active: AMD SME",
        dev_line("0000:00:1f.2", "[1022:7901] type 00 class 0x010601"),
    ], first_seq=5120)
    return [
        "# AMD SME host: devices in dma-direct whose limit is below the C-bit bounce every mapping",
        ".swiotlb.forced == false",
        ".swiotlb.active == true",
        ".swiotlb.active_why | test(\"SME\")",
        "%s | .verdict == \"forced\"" % dev("0000:00:1f.2"),
        "%s | .forced_why | test(\"C-bit\")" % dev("0000:00:1f.2"),
        "%s | length == 1" % finding("forced-bounce", "0000:00:1f.2"),
        "%s | .[0].evidence.physical_address_bits == 43" % finding("forced-bounce", "0000:00:1f.2"),
        "%s | length == 0" % finding("forced-bounce"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "%s | .verdict == \"unknown\" and (.reason | test(\"C-bit\"))" % dev("0000:00:03.0"),
        "[.block[] | select(.disk == \"sda\")][0].verdict == \"forced\"",
        "[.findings[] | select(.id == \"bounce-impossible\" or .id == \"bounce-needed\")] | length == 0",
        "# the C-bit position (CPUID, not shown by Linux) decides: verdict-unknown, cpu",
        "%s | length == 1 and .[0].severity == \"warning\" and .[0].evidence.missing == \"cpu\"" % finding("verdict-unknown", "0000:00:03.0"),
    ]


def x86_32_pae_scsi_419(t):
    """A 32-bit PAE kernel of 4.19 with RAM to 6 GiB (5 GiB of it: a 1 GiB PCI
    hole below 4 GiB): a 32-bit AHCI disk (SCSI, libata).

    From 4.18 (21e07dba9fb1) __scsi_init_queue() sets no bounce limit, and the
    default is BLK_BOUNCE_ANY, so the block layer bounces nothing for sda: the
    RAM above 4 GiB reaches the DMA API, whose swiotlb pool (PAE selects
    SWIOTLB) bounces it. Before 4.18 scsi_calculate_bounce_limit() made the
    block layer bounce it instead.
    Follows: Debian 10's 4.19.316-1 release line and swiotlb_print_info's
    "software IO TLB: mapped"; the 6 GiB layout and the pool address are synthetic.
    """
    manifest(t, "i686", "4.19.0-27-686-pae", "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/vmlinuz-4.19.0-27-686-pae root=/dev/sda1 ro"
    proc(t, "00000000-00000fff : Reserved\n00001000-0009fbff : System RAM\n"
            "0009fc00-000fffff : Reserved\n00100000-bfffffff : System RAM\n"
            "c0000000-febfffff : PCI Bus 0000:00\n100000000-17fffffff : System RAM\n",
         # HighMem spans the PCI hole (0xc0000-0xfffff) and, as the kernel counts it
         # (mm/mm_init.c zone_absent_pages_in_node), does not count it present;
         # MemTotal and HighTotal are the managed pages zoneinfo() gives
         zoneinfo([("DMA", 1, 4095, 3998), ("Normal", 4096, 225280, 221000),
                   ("HighMem", 229376, 1343488, 1081344)]),
         "MemTotal:        5143724 kB\nMemFree:         4500000 kB\nHighTotal:       4257792 kB\n"
         "HighFree:        4000000 kB\nLowTotal:         885932 kB\nLowFree:          500000 kB\n"
         "Bounce:                0 kB\n", cmd)
    x86_pc_devices(t)
    kmsg(t, [
        "Linux version 4.19.0-27-686-pae (debian-kernel@lists.debian.org) (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP Debian 4.19.316-1 (2024-06-25)",
        "Command line: " + cmd,
        "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)",
        "software IO TLB: mapped [mem 0x2f7fa000-0x337fa000] (64MB)",
    ])
    return [
        "# SCSI on 4.18+: the block layer bounces nothing; swiotlb takes the RAM above 4 GiB",
        ".memory.highmem_bytes > 0",
        "%s | .kernel_model == \"legacy-block\"" % dev("0000:00:1f.2"),
        "%s | .models.legacy_block.as_pfn | .early_return and .bounce_bytes == 0" % dev("0000:00:1f.2"),
        "%s | .models.legacy_block.missed_bytes == 2147483648" % dev("0000:00:1f.2"),
        "%s | .verdict == \"partial\" and .swiotlb_pool_reachable == true" % dev("0000:00:1f.2"),
        "%s | .unreachable_ram_bytes == 2147483648" % dev("0000:00:1f.2"),
        "%s | length == 0" % finding("bounce-missed", "0000:00:1f.2"),
        "# RAM from 0x1000 is one page off a count, but no x86 kernel stored max_low_pfn so",
        "[.findings[] | select(.id == \"pfn-count-confusion\")] | length == 0",
        "# the 2 GiB above 4 GiB bounce through the pool logged at 0x2f7fa000",
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        "# the 64-bit NVMe reaches all 6 GiB",
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
    ]


def x86_hyperv_snp(t):
    """A Hyper-V SNP-isolated VM (Group B isolation type 2) with a vPCI NVMe.
    Follows: arch/x86/kernel/cpu/mshyperv.c ms_hyperv_init_platform ("Hyper-V:
    Isolation Config: Group A 0x%x, Group B 0x%x"), kernel/dma/swiotlb.c
    swiotlb_print_info; the flag values and the pool are synthetic."""
    manifest(t, "x86_64", "6.1.0-27-cloud-amd64", "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/vmlinuz-6.1.0-27-cloud-amd64 root=/dev/nvme0n1p1 ro console=ttyS0"
    x86_proc(t, cmd)
    x86_pc_devices(t)
    kmsg(t, [
        "Linux version 6.1.0-27-cloud-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1",
        "Command line: " + cmd,
        "Hyper-V: privilege flags low 0xae7f, high 0x3b8030, hints 0x9e4e24, misc 0xe0bed7b2",
        "Hyper-V: Isolation Config: Group A 0x1, Group B 0xba2",
        "software IO TLB: mapped [mem 0x0000000069c00000-0x00000000a9c00000] (1024MB)",
    ])
    return [
        "# Hyper-V isolated VM (type 2, SNP): every DMA-API mapping bounces (5.17+, 062a5c4260cd)",
        ".swiotlb.forced == true",
        ".swiotlb.forced_why | test(\"Hyper-V\")",
        "%s | .verdict == \"forced\"" % dev("0000:01:00.0"),
        "%s | length == 1" % finding("forced-bounce"),
        "# every mapping: the 32-bit AHCI's too, whatever its reach",
        "%s | .verdict == \"forced\"" % dev("0000:00:1f.2"),
    ]


def s390_pv_guest(t):
    """An s390x protected-virtualization guest on 6.1 with a zPCI function:
    virtio-ccw (not walked) is forced through swiotlb; the PCI function is
    translated by s390_pci_dma_ops until 6.7.
    Follows: kernel/dma/swiotlb.c swiotlb_print_info. The zPCI function, RAM and
    pool are synthetic; sys/firmware/uv/prot_virt_guest was not checked here."""
    manifest(t, "s390x", "6.1.0-27-s390x", "2026-12-03T08:00:00Z")
    proc(t, "00000000-7fffffff : System RAM\n",
         zoneinfo([("DMA", 0, 524288, 524288), ("Normal", None, 0, 0)]),
         "MemTotal:        2097152 kB\nMemFree:         1500000 kB\n", "root=/dev/vda1")
    t.file("sys/firmware/uv/prot_virt_guest", "1\n")
    pci(t, "sys/devices/pci0001:00", "0001:00:00.0", 0x15b3, 0x101e, 0x020000, 64,
        "mlx5_core", "mlx5_core", subsys=(0x15b3, 0x0062))
    kmsg(t, [
        "Linux version 6.1.0-27-s390x (debian-kernel@lists.debian.org) #1 SMP Debian 6.1.115-1",
        "software IO TLB: mapped [mem 0x000000007bc00000-0x000000007fc00000] (64MB)",
    ])
    return [
        "# s390 PV: forced for dma-direct; zPCI's own translation before 6.7",
        ".swiotlb.forced == true",
        ".swiotlb.forced_why | test(\"s390\")",
        "%s | .verdict == \"iommu\" and (.reason | test(\"s390_pci_dma_ops\"))" % dev("0001:00:00.0"),
        "%s | length == 1" % finding("forced-bounce"),
        "[.inputs[] | select(.path == \"sys/firmware/uv/prot_virt_guest\")][0].status == \"ok\"",
    ]


def x86_tdx_guest(t):
    """An Intel TDX guest (QEMU q35, 8 GiB) on Ubuntu 24.04's 6.8 with virtio-blk:
    every streaming mapping bounces through swiotlb. Follows: arch/x86/coco/tdx/tdx.c
    tdx_early_init ("tdx: Guest detected"), arch/x86/mm/mem_encrypt.c
    print_mem_encrypt_feature_info ("Memory Encryption Features active: Intel TDX"),
    kernel/dma/swiotlb.c swiotlb_print_info. The cpuinfo flags (with tdx_guest), the
    pool size and its address are synthetic."""
    manifest(t, "x86_64", "6.8.0-51-generic", "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/vmlinuz-6.8.0-51-generic root=/dev/vda1 ro console=hvc0"
    x86_guest_proc(t, cmd)
    guest_devices(t)
    t.file("proc/cpuinfo",
           "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n"
           "model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
           "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 "
           "clflush mmx fxsr sse sse2 ss syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl "
           "xtopology tsc_reliable nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 fma cx16 "
           "pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand "
           "hypervisor lahf_lm abm 3dnowprefetch fsgsbase bmi1 avx2 smep bmi2 erms invpcid avx512f "
           "avx512dq rdseed adx smap clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt "
           "xsavec xgetbv1 xsaves avx_vnni avx512_bf16 wbnoinvd avx512vbmi umip pku ospke waitpkg "
           "avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq rdpid "
           "bus_lock_detect cldemote movdiri movdir64b fsrm md_clear serialize tsxldtrk amx_bf16 "
           "avx512_fp16 amx_tile amx_int8 flush_l1d arch_capabilities tdx_guest\n\n")
    kmsg(t, [
        "Linux version 6.8.0-51-generic (buildd@lcy02-amd64-091) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) 13.2.0) #52-Ubuntu SMP PREEMPT_DYNAMIC",
        "Command line: " + cmd,
        "tdx: Guest detected",
        "Memory Encryption Features active: Intel TDX",
        "software IO TLB: mapped [mem 0x0000000060000000-0x0000000080000000] (512MB)",
        dev_line("0000:00:02.0", "[1af4:1042] type 00 class 0x010000"),
    ])
    return [
        "# Intel TDX guest: every streaming DMA mapping bounces through swiotlb",
        ".swiotlb.forced == true",
        ".swiotlb.forced_why | test(\"TDX\")",
        "%s | .verdict == \"forced\"" % dev("0000:00:02.0"),
        "%s | .forced_why | test(\"TDX\")" % dev("0000:00:02.0"),
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        "%s | length == 1" % finding("forced-bounce"),
        "[.inputs[] | select(.path == \"proc/cpuinfo\")][0].status == \"ok\"",
        ".exit_status == 0",
    ]


def xen_dom0(t):
    """A Xen PV dom0 on Debian 11's 5.10 with a 32-bit AHCI: xen-swiotlb works on
    machine addresses the dom0's sysfs does not show. Follows: arch/x86/kernel/cpu/
    hypervisor.c ("Hypervisor detected: %s", "Xen PV" from arch/x86/xen/enlighten_pv.c
    x86_hyper_xen_pv, whose xen_banner prints "Booting paravirtualized kernel on" and
    "Xen version: ... (preserve-AD)"); drivers/xen/sys-hypervisor.c type and guest_type;
    drivers/xen/xenfs/super.c capabilities_read. The "Xen:" e820 line, addresses: synthetic."""
    manifest(t, "x86_64", "5.10.0-33-amd64", "2026-12-03T08:00:00Z")
    cmd = "placeholder root=/dev/sda1 ro console=hvc0"
    x86_proc(t, cmd)
    bus = "sys/devices/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x8086, 0x29c0, 0x060000, 32)
    ahci = pci(t, bus, "0000:00:1f.2", 0x8086, 0x2922, 0x010601, 32, "ahci", "ahci")
    disk(t, ahci + "/ata1/host0/target0:0:0/0:0:0:0", "sda", ["sda1"], (8, 0),
         sectors=41943040, dma_alignment=None)
    t.file("sys/hypervisor/type", "xen\n")
    t.file("sys/hypervisor/guest_type", "PV\n")
    t.file("proc/xen/capabilities", "control_d\n")
    kmsg(t, [
        "Linux version 5.10.0-33-amd64 (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) 10.2.1 20210110) #1 SMP Debian 5.10.226-1 (2024-10-03)",
        "Command line: " + cmd,
        "Xen: [mem 0x0000000000000000-0x000000000009ffff] usable",
        "Hypervisor detected: Xen PV",
        "Booting paravirtualized kernel on Xen",
        "Xen version: 4.17.4 (preserve-AD)",
        "software IO TLB: mapped [mem 0x00000000b3fe8000-0x00000000b7fe8000] (64MB)",
        dev_line("0000:00:1f.2", "[8086:2922] type 00 class 0x010601"),
    ])
    return [
        "# Xen PV dom0: xen-swiotlb decides by machine addresses the guest cannot see",
        ".swiotlb.xen_pv == true",
        "%s | .verdict == \"unknown\"" % dev("0000:00:1f.2"),
        "%s | .reason | test(\"Xen\")" % dev("0000:00:1f.2"),
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        "%s | length == 1" % finding("xen-pv-undecidable"),
        "%s | .[0].severity == \"info\"" % finding("xen-pv-undecidable"),
        "# undecidable means no claim either way: no bounce or corruption finding for the device",
        "[.findings[] | select(.id == \"bounce-needed\" or .id == \"bounce-impossible\")] | length == 0",
        "[.findings[] | select(.id == \"bounce-missed\")] | length == 0",
        "# Xen PV: machine addresses decide, the guest cannot see them: verdict-unknown, machine-addresses",
        "%s | length == 1 and .[0].severity == \"warning\" and .[0].evidence.missing == \"machine-addresses\"" % finding("verdict-unknown", "0000:00:1f.2"),
    ]


RPI4_RAM = 0x3b400000 + (0xfc000000 - 0x40000000) + 0x100000000  # 8443133952


def arm64_rpi4(t):
    """A Raspberry Pi 4 Model B (8 GiB) on Raspberry Pi OS's 6.6: the emmc2 reaches the
    first GiB, the VL805 xHCI behind the PCIe bridge the first 3 GiB. Follows: arch/arm/
    boot/dts/broadcom/bcm2711.dtsi (arm64's bcm2711-rpi-4-b.dts includes it): soc's
    dma-ranges as there; emmc2 moved from emmc2bus (same window) to soc; the PCIe window
    at bus 0xc0000000, where upstream has bus 0. Log: swiotlb.c swiotlb_print_info,
    pcie-brcmstb.c brcm_pcie_start_link. scb's empty dma-ranges, iomem: synthetic."""
    manifest(t, "aarch64", "6.6.51+rpt-rpi-v8", "2026-12-03T08:00:00Z")
    cmd = ("coherent_pool=1M 8250.nr_uarts=1 snd_bcm2835.enable_headphones=0 "
           "console=ttyS0,115200 console=tty1 root=PARTUUID=6c586e13-02 rootfstype=ext4 "
           "fsck.repair=yes rootwait")
    iomem = """\
00000000-3b3fffff : System RAM
  00210000-0125ffff : Kernel code
  01260000-0158ffff : reserved
  01590000-0183ffff : Kernel data
  37400000-3b3fffff : reserved
40000000-fbffffff : System RAM
fd500000-fd50930f : fd500000.pcie pcie@7d500000
fe340000-fe3400ff : fe340000.mmc mmc@7e340000
100000000-1ffffffff : System RAM
600000000-63fffffff : pcie@7d500000
  600000000-6000fffff : PCI Bus 0000:01
    600000000-600000fff : 0000:01:00.0
      600000000-600000fff : xhci-hcd
"""
    # ZONE_DMA ends at 1 GiB (zone_dma_bits 30 from the emmc2/soc dma-ranges), DMA32 at 4 GiB
    zi = zoneinfo([("DMA", 0, 0x40000, 0x3b400), ("DMA32", 0x40000, 0xc0000, 0xbc000),
                   ("Normal", 0x100000, 0x100000, 0x100000), ("Movable", None, 0, 0)])
    mi = "MemTotal:        8142112 kB\nMemFree:         7612344 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, cmd)

    dt_node(t, "", n_address_cells=[2], n_size_cells=[1],
            compatible=strings("raspberrypi,4-model-b", "brcm,bcm2711"))
    # soc: child bus 0xc0000000 (1 cell) -> CPU 0x0 (2 cells), 1 GiB (1 cell)
    dt_node(t, "soc", n_address_cells=[1], n_size_cells=[1], compatible="simple-bus",
            dma_ranges=[0xc0000000, 0x0, 0x00000000, 0x40000000])
    dt_node(t, "soc/mmc@7e340000", compatible="brcm,bcm2711-emmc2",
            reg=[0x7e340000, 0x100])
    # scb: empty dma-ranges (1:1)
    dt_node(t, "scb", n_address_cells=[2], n_size_cells=[1], compatible="simple-bus",
            dma_ranges=b"")
    # PCI bus 0xc0000000 (3 cells) -> CPU 0x0 (2 cells), 3 GiB (2 cells)
    dt_node(t, "scb/pcie@7d500000", device_type="pci", n_address_cells=[3], n_size_cells=[2],
            compatible="brcm,bcm2711-pcie", reg=[0x0, 0x7d500000, 0x9310],
            dma_ranges=[0x02000000, 0x0, 0xc0000000, 0x0, 0x0, 0x0, 0xc0000000])

    platform(t, "sys/devices/platform/soc", "soc", "simple-bus")
    mmc = platform(t, "sys/devices/platform/soc/fe340000.mmc", "soc/mmc@7e340000",
                   "brcm,bcm2711-emmc2", "sdhci-iproc", "sdhci_iproc")
    disk(t, mmc + "/mmc_host/mmc0/mmc0:0001", "mmcblk0", ["mmcblk0p1", "mmcblk0p2"], (179, 0),
         sectors=62333952, max_sectors_kb=1024, max_hw_sectors_kb=65535, max_segments=1,
         max_segment_size=65536, dma_alignment=3)
    platform(t, "sys/devices/platform/scb", "scb", "simple-bus")
    pcie = platform(t, "sys/devices/platform/scb/fd500000.pcie", "scb/pcie@7d500000",
                    "brcm,bcm2711-pcie", "brcm-pcie", "pcie_brcmstb")
    port = pci(t, pcie + "/pci0000:00", "0000:00:00.0", 0x14e4, 0x2711, 0x060400, 32,
               "pcieport", None, subsys=(0x0000, 0x0000))
    pci(t, port, "0000:01:00.0", 0x1106, 0x3483, 0x0c0330, 64, "xhci_hcd", "xhci_pci",
        subsys=(0x1106, 0x3483))
    loop0(t)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd083]",
        "Linux version 6.6.51+rpt-rpi-v8 (serge@raspberrypi.com) (aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT Debian 1:6.6.51-1+rpt3 (2024-10-08)",
        "Machine model: Raspberry Pi 4 Model B Rev 1.4",
        "Zone ranges:",
        "  DMA      [mem 0x0000000000000000-0x000000003fffffff]",
        "  DMA32    [mem 0x0000000040000000-0x00000000ffffffff]",
        "  Normal   [mem 0x0000000100000000-0x00000001ffffffff]",
        "software IO TLB: area num 4.",
        "software IO TLB: mapped [mem 0x0000000037400000-0x000000003b400000] (64MB)",
        ("brcm-pcie fd500000.pcie: link up, 5.0 GT/s PCIe x1 (SSC)",
         ["SUBSYSTEM=platform", "DEVICE=+platform:fd500000.pcie"]),
        dev_line("0000:01:00.0", "[1106:3483] type 00 class 0x0c0330"),
        ("mmc0: SDHCI controller on fe340000.mmc [fe340000.mmc] using ADMA", []),
    ])
    unreach_mmc = RPI4_RAM - 0x3b400000
    unreach_xhci = (0xfc000000 - 0xc0000000) + 0x100000000
    return [
        "# Raspberry Pi 4 (8 GiB), devicetree dma-ranges limit the reach of the emmc2 and the VL805",
        ".host.arch == \"aarch64\"",
        ".memory.ram_bytes == %d" % RPI4_RAM,
        ".swiotlb.active == true and .swiotlb.pool_start == \"0x37400000\" and .swiotlb.pool_end == \"0x3b3fffff\"",
        "# emmc2: no mask in sysfs; sdhci_set_dma_mask() set 32 bits, as its probe line says (\"using ADMA\", not \"ADMA 64-bit\")",
        "%s | .bus == \"platform\" and .driver == \"sdhci-iproc\"" % dev("fe340000.mmc"),
        "%s | .of_node == \"soc/mmc@7e340000\"" % dev("fe340000.mmc"),
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\"" % dev("fe340000.mmc"),
        "%s | (.mask_rule | test(\"sdhci-iproc.c bcm2711_data\")) and (.mask_why | test(\"using ADMA \\\\(32-bit\\\\)\"))" % dev("fe340000.mmc"),
        "%s | .bus_limit == \"0xffffffff\"" % dev("fe340000.mmc"),
        "%s | .dma_ranges.state == \"ranges\" and .dma_ranges.node == \"soc\"" % dev("fe340000.mmc"),
        "%s | .dma_ranges.regions == [{\"cpu_start\": \"0x0\", \"dma_start\": \"0xc0000000\", \"size\": 1073741824}]" % dev("fe340000.mmc"),
        "# only CPU 0x0-0x3fffffff is reachable: RAM 0x0-0x3b3fffff (0x3b400000 bytes)",
        "%s | .reachable_ram_bytes == %d" % (dev("fe340000.mmc"), 0x3b400000),
        "%s | .unreachable_ram_bytes == %d" % (dev("fe340000.mmc"), unreach_mmc),
        ".memory.ram_bytes as $ram | %s | .unreachable_ram_bytes == $ram - %d" % (dev("fe340000.mmc"), 0x3b400000),
        "%s | .swiotlb_pool_reachable == true" % dev("fe340000.mmc"),
        "%s | .verdict == \"partial\"" % dev("fe340000.mmc"),
        "%s | length == 1" % finding("bounce-needed", "fe340000.mmc"),
        "# its bus limit 0xffffffff is its mask's, but the soc window's offset (CPU = bus - 0xc0000000)",
        "# ends its reach at CPU 0x3fffffff: in CPU terms the window, not the mask, decides (issue 38)",
        "%s | .cpu_reach_end == \"0x3fffffff\" and .dma_offset == \"-0xc0000000\" and .limiter == \"bus-window\"" % dev("fe340000.mmc"),
        "%s | length == 1 and .[0].evidence.cpu_reach_end == \"0x3fffffff\" and .[0].evidence.dma_offset == \"-0xc0000000\"" % finding("mask-limited-by-bus", "fe340000.mmc"),
        "# a wider mask cannot help either device: the remedy names the window",
        "%s | .[0].evidence.limiter == \"bus-window\" and (.[0].remedy | test(\"dma-ranges\"))" % finding("bounce-needed", "fe340000.mmc"),
        "[.block[] | select(.disk == \"mmcblk0\")][0].dma_device == \"fe340000.mmc\"",
        "# VL805 xHCI behind the PCIe host bridge: 64-bit mask, bus limit 0xc0000000 + 3 GiB - 1",
        "%s | .dma_mask_bits == 64 and .driver == \"xhci_hcd\"" % dev("0000:01:00.0"),
        "%s | .of_node == \"scb/pcie@7d500000\"" % dev("0000:01:00.0"),
        "%s | .bus_limit == \"0x17fffffff\"" % dev("0000:01:00.0"),
        "%s | .dma_ranges.regions == [{\"cpu_start\": \"0x0\", \"dma_start\": \"0xc0000000\", \"size\": 3221225472}]" % dev("0000:01:00.0"),
        "# reachable: CPU 0x0-0xbfffffff; unreachable: 0xc0000000-0xfbffffff and 0x100000000-0x1ffffffff",
        "%s | .unreachable_ram_bytes == %d" % (dev("0000:01:00.0"), unreach_xhci),
        "%s | .verdict == \"partial\"" % dev("0000:01:00.0"),
        "%s | length == 1" % finding("mask-limited-by-bus", "0000:01:00.0"),
        "%s | .[0].evidence.bus_limit == \"0x17fffffff\" and .[0].evidence.cpu_reach_end == \"0xbfffffff\"" % finding("mask-limited-by-bus", "0000:01:00.0"),
        "%s | .cpu_reach_end == \"0xbfffffff\" and .limiter == \"bus-window\"" % dev("0000:01:00.0"),
        "%s | length == 1 and .[0].evidence.limiter == \"bus-window\"" % finding("bounce-needed", "0000:01:00.0"),
        "# a warning (bouncing through a pool) is a cost the kernel handles: --fail-on error, the default, passes it",
        ".exit_status == 0",
    ]


def arm64_rpi4_419(t):
    """The Raspberry Pi 4-like board under a 4.19 kernel: the PCIe window ends
    at 3 GiB, the xhci driver set a 64-bit mask, and before 4.20 (b4ebe6063204)
    dma-direct kept no bus limit: DMA above the window goes astray.
    Follows: arm64-rpi4's tree (bcm2711.dtsi's windows) under a Raspberry Pi
    downstream release string; nothing else is taken from a 4.19 source."""
    arm64_rpi4(t)
    manifest(t, "aarch64", "4.19.127-v8+", "2026-12-03T08:00:00Z")
    d = dev("0000:01:00.0")
    return [
        "# before 4.20 the dma-ranges window only clipped masks at probe time",
        "%s | .bus_limit == null and .dma_mask == \"0xffffffffffffffff\"" % d,
        "%s | .verdict == \"fails\" and (.reason | test(\"4.20\"))" % d,
        "%s | .unreachable_ram_bytes == 5301600256" % d,
        "%s | length == 1" % finding("bounce-missed", "0000:01:00.0"),
        "%s | .[0].evidence.window_end == \"0x17fffffff\"" % finding("bounce-missed", "0000:01:00.0"),
        "# emmc2: before 5.3 mmc_init_queue() bounces above dma_max_pfn(), the 32-bit mask's PFN plus dma_pfn_offset (-0xc0000, 4.16): CPU 1 GiB, so the block layer copies the 6.9 GiB above it",
        "%s | .verdict == \"partial\" and .kernel_model == \"legacy-block\"" % dev("fe340000.mmc"),
        "%s | length == 1" % finding("bounce-needed", "fe340000.mmc"),
    ]


def arm64_rpi4_54(t):
    """The Raspberry Pi 4-like board under 5.4: from 4.20 (b4ebe6063204) the
    kernel keeps the window as bus_dma_mask, rounded up in of_dma_configure()
    to DMA_BIT_MASK(ilog2(0x17fffffff) + 1) = 0x1ffffffff; a7ba70f1787f (5.5)
    names this board's 3 GiB window as what a mask cannot represent. Bus
    addresses 0x180000000-0x1ffffffff (CPU 0xc0000000-0x13fffffff) pass that
    check and are handed to a device that cannot reach them.
    Follows: arm64-rpi4's tree under a Raspberry Pi downstream release string."""
    arm64_rpi4(t)
    manifest(t, "aarch64", "5.4.83-v8+", "2026-12-06T08:00:00Z")
    d = dev("0000:01:00.0")
    return [
        "# 4.20-5.4: the bus limit is the window rounded up to a power of two",
        "%s | .bus_limit == \"0x1ffffffff\" and .dma_mask == \"0xffffffffffffffff\"" % d,
        "%s | .verdict == \"fails\" and (.reason | test(\"4.20 to 5.4\"))" % d,
        "%s | length == 1" % finding("bounce-missed", "0000:01:00.0"),
        "%s | .[0].evidence.window_end == \"0x17fffffff\"" % finding("bounce-missed", "0000:01:00.0"),
        "# 5.5 keeps the exact end: tests/machines/arm64-rpi4 (partial)",
        "# that bus limit 0x1ffffffff is still below the VL805's 64-bit mask: it decides",
        "%s | length == 1" % finding("mask-limited-by-bus", "0000:01:00.0"),
        "# emmc2: no block bounce limit from 5.3; dma-direct bounces RAM past the soc window (CPU 0-0x3fffffff) into the pool logged at 0x37400000, inside it",
        "%s | .verdict == \"partial\" and .swiotlb_pool_reachable == true" % dev("fe340000.mmc"),
        "%s | length == 1" % finding("bounce-needed", "fe340000.mmc"),
        "%s | length == 1 and .[0].evidence.cpu_reach_end == \"0x3fffffff\"" % finding("mask-limited-by-bus", "fe340000.mmc"),
    ]


def arm64_rpi4_nonroot(t):
    """The Raspberry Pi 4 board on Raspberry Pi OS's 6.1, read as a normal user:
    dev/kmsg refused (dmesg_restrict), no debugfs, proc/iomem all zeros. RAM
    beyond ZONE_DMA (1 GiB, zone_dma_bits 30) makes mem_init() allocate the
    default pool, and swiotlb_init_remap() takes it with memblock_alloc_low(),
    below ARCH_LOW_ADDRESS_LIMIT = arm64_dma_phys_limit - 1 = 0x3fffffff: inside
    the emmc2's window (CPU 0-0x3fffffff) and the VL805's (0-0xbfffffff).
    Follows: arm64-rpi4's tree; the denied and zeroed inputs are a synthetic
    non-root capture."""
    arm64_rpi4(t)
    t.file("MANIFEST", "arch=aarch64\npage_size=4096\nkernel_release=6.1.0-rpi7-rpi-v8\n"
           "endianness=little\nuid=1000\ncaptured_by=tests/machines/gen-fixtures.py (synthetic)\n"
           "captured_at=2026-12-03T08:00:00Z\nerror.dev/kmsg=EPERM\n"
           "error.sys/kernel/debug/swiotlb/io_tlb_nslabs=EACCES\n")
    t.unlink("dev/kmsg")
    t.file("proc/iomem", """\
00000000-00000000 : System RAM
  00000000-00000000 : Kernel code
  00000000-00000000 : reserved
  00000000-00000000 : Kernel data
  00000000-00000000 : reserved
00000000-00000000 : System RAM
00000000-00000000 : fd500000.pcie pcie@7d500000
00000000-00000000 : fe340000.mmc mmc@7e340000
00000000-00000000 : System RAM
00000000-00000000 : pcie@7d500000
""")
    mmc, xhci = dev("fe340000.mmc"), dev("0000:01:00.0")
    return [
        "# a normal user: no kernel log, no debugfs, iomem zeros; zoneinfo shows ZONE_DMA ending at 1 GiB",
        "[.inputs[] | select(.path == \"dev/kmsg\")][0].status == \"denied\"",
        ".memory.source == \"zoneinfo\"",
        ".swiotlb.active == true and .swiotlb.active_provenance == \"assumed\" and .swiotlb.pool_start == null",
        "# memblock_alloc_low() below arm64_dma_phys_limit - 1: the end of ZONE_DMA",
        ".swiotlb.pool_limit == \"0x3fffffff\" and .swiotlb.pool_limit_provenance == \"derived\"",
        ".swiotlb.pool_limit_why | test(\"ZONE_DMA\")",
        "# emmc2 reaches CPU 0-0x3fffffff: all of ZONE_DMA, so the pool",
        "%s | .verdict == \"partial\" and .swiotlb_pool_reachable == true" % mmc,
        "%s | .reason | test(\"derived\")" % mmc,
        "# zone spans above 1 GiB: DMA32's 3 GiB and Normal's 4 GiB, the 64 MiB hole at 0xfc000000",
        "# counted as RAM (iomem-hidden says so; root's iomem gives 7449083904): bounced by dma-direct",
        "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 7516192768 and .block_bounce_bytes == null" % mmc,
        "%s | length == 1" % finding("bounce-needed", "fe340000.mmc"),
        "%s | .verdict == \"partial\" and .swiotlb_pool_reachable == true" % xhci,
        "%s | length == 0" % finding("swiotlb-out-of-reach"),
        "# the VL805 reaches CPU 0-0xbfffffff: the RAM above bounces into that pool",
        "%s | length == 1" % finding("bounce-needed", "0000:01:00.0"),
        "# spans above 3 GiB: DMA32's last 1 GiB (its hole included) and Normal's 4 GiB (root: 5301600256)",
        "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 5368709120 and .block_bounce_bytes == null" % xhci,
        "# its window's end, 0x17fffffff in bus addresses (exact from 5.5, a7ba70f1787f), is below its 64-bit mask",
        "%s | length == 1 and .[0].evidence.bus_limit == \"0x17fffffff\"" % finding("mask-limited-by-bus", "0000:01:00.0"),
        "# the emmc2's: its bus limit is its mask, but the soc window's offset ends it at CPU 0x3fffffff",
        "%s | length == 1 and .[0].evidence.cpu_reach_end == \"0x3fffffff\"" % finding("mask-limited-by-bus", "fe340000.mmc"),
        "# iomem reads as zeros to uid 1000, so the layout is zoneinfo's: said, as info; the RAM is the",
        "# zones' present pages (0x3b400 + 0xbc000 + 0x100000), the end DMA32's and Normal's last PFN",
        "%s | length == 1 and .[0].severity == \"info\" and .[0].evidence.ram_bytes == 8443133952 and .[0].evidence.end_pfn == 2097152" % finding("iomem-hidden"),
    ]


RPI4_1G_RAM = 0x3b400000


def arm64_rpi4_1g(t):
    """arm64-rpi4's board with 1 GiB (the Pi 4 Model B 1GB): RAM 0-0x3b3fffff,
    below the firmware's GPU memory, wholly inside the emmc2's soc window (CPU
    0-0x3fffffff) and the VL805's PCIe window (0-0xbfffffff): every device
    reaches all RAM. ZONE_DMA (zone_dma_bits 30) holds it all, DMA32 and
    Normal are empty (arch/arm64/mm/init.c zone_sizes_init, max_zone_phys
    capped at the end of RAM). 6.6's mem_init() makes the pool anyway for
    kmalloc bouncing (DMA_BOUNCE_UNALIGNED_KMALLOC, 6.5; not shrunk before
    65033574ade9, 6.7): 64 MiB at the top of RAM (memblock_alloc_low).
    Follows: arm64-rpi4's tree; the iomem, zoneinfo and meminfo of a 1 GiB
    board as that 8 GiB one's first range, synthetic."""
    arm64_rpi4(t)
    t.file("proc/iomem", """\
00000000-3b3fffff : System RAM
  00210000-0125ffff : Kernel code
  01260000-0158ffff : reserved
  01590000-0183ffff : Kernel data
  37400000-3b3fffff : reserved
fd500000-fd50930f : fd500000.pcie pcie@7d500000
fe340000-fe3400ff : fe340000.mmc mmc@7e340000
600000000-63fffffff : pcie@7d500000
  600000000-6000fffff : PCI Bus 0000:01
    600000000-600000fff : 0000:01:00.0
      600000000-600000fff : xhci-hcd
""")
    t.file("proc/zoneinfo", zoneinfo([("DMA", 0, 0x3b400, 0x3b400), ("DMA32", None, 0, 0),
                                      ("Normal", None, 0, 0), ("Movable", None, 0, 0)]))
    t.file("proc/meminfo", "MemTotal:         945512 kB\nMemFree:          612344 kB\nBounce:                0 kB\n")
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd083]",
        "Linux version 6.6.51+rpt-rpi-v8 (serge@raspberrypi.com) (aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT Debian 1:6.6.51-1+rpt3 (2024-10-08)",
        "Machine model: Raspberry Pi 4 Model B Rev 1.4",
        "Zone ranges:",
        "  DMA      [mem 0x0000000000000000-0x000000003b3fffff]",
        "  DMA32    empty",
        "  Normal   empty",
        "software IO TLB: area num 4.",
        "software IO TLB: mapped [mem 0x0000000037400000-0x000000003b400000] (64MB)",
        ("brcm-pcie fd500000.pcie: link up, 5.0 GT/s PCIe x1 (SSC)",
         ["SUBSYSTEM=platform", "DEVICE=+platform:fd500000.pcie"]),
        dev_line("0000:01:00.0", "[1106:3483] type 00 class 0x0c0330"),
        ("mmc0: SDHCI controller on fe340000.mmc [fe340000.mmc] using ADMA", []),
    ])
    m, x = dev("fe340000.mmc"), dev("0000:01:00.0")
    return [
        "# a Pi 4 with 1 GiB: all of its RAM in ZONE_DMA, below both windows",
        ".memory.ram_bytes == %d" % RPI4_1G_RAM,
        ".swiotlb.active == true and .swiotlb.pool_start == \"0x37400000\" and .swiotlb.pool_end == \"0x3b3fffff\"",
        "# the emmc2's soc window ends at CPU 0x3fffffff, past the RAM: direct",
        "%s | .cpu_reach_end == \"0x3fffffff\" and .verdict == \"direct\" and .unreachable_ram_bytes == 0" % m,
        "%s | .kernel_model == \"dma-direct\"" % m,
        "# its 32-bit mask: the window's offset (CPU = bus - 0xc0000000) ends its reach lower (a note)",
        "%s | length == 1 and .[0].evidence.cpu_reach_end == \"0x3fffffff\" and .[0].evidence.dma_offset == \"-0xc0000000\"" % finding("mask-limited-by-bus", "fe340000.mmc"),
        "# the VL805's window ends at 0xbfffffff: direct",
        "%s | .cpu_reach_end == \"0xbfffffff\" and .verdict == \"direct\" and .unreachable_ram_bytes == 0" % x,
        "%s | .kernel_model == \"dma-direct\"" % x,
        "# a 64-bit mask behind a 3 GiB window: the window limits it (no RAM past it, a note)",
        "%s | length == 1 and .[0].evidence.cpu_reach_end == \"0xbfffffff\"" % finding("mask-limited-by-bus", "0000:01:00.0"),
        ".exit_status == 0",
    ]


def arm64_414_pcie_window(t):
    """An arm64 board on 4.14 with 8 GiB, a PCIe host whose dma-ranges map the
    first 3 GiB 1:1, and a VL805-like xHCI (64-bit mask) with a USB disk.
    Before 4.20 (b4ebe6063204) dma_capable() compares with *dma_mask alone,
    so no buffer of the xHCI bounces: the block layer (scsi_calculate_bounce_limit
    from the 64-bit mask) bounces nothing either, and buffers above 3 GiB go
    astray without a message. The pool (4.14: below the 32-bit ZONE_DMA's end,
    so above the window here) does not matter: nothing bounces.
    Follows: swiotlb_print_info's older form ("software IO TLB [mem ...] (64MB)
    mapped at [...]") and drivers/pci/probe.c pci_setup_device. The board, the
    release and the USB lines are synthetic."""
    manifest(t, "aarch64", "4.14.336-custom", "2026-12-03T08:00:00Z")
    iomem = """\
00000000-ffffffff : System RAM
  00080000-00f7ffff : Kernel code
  01040000-0120ffff : Kernel data
100000000-1ffffffff : System RAM
600000000-63fffffff : pcie@f8000000
  600000000-6000fffff : PCI Bus 0000:01
    600000000-600000fff : 0000:01:00.0
      600000000-600000fff : xhci-hcd
"""
    # 4.14 arm64: one 32-bit ZONE_DMA up to 4 GiB (ARM64_ZONE_DMA_BITS came with 5.5)
    zi = zoneinfo([("DMA", 0, 0x100000, 0x100000), ("Normal", 0x100000, 0x100000, 0x100000),
                   ("Movable", None, 0, 0)])
    mi = "MemTotal:        8126464 kB\nMemFree:         7612344 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, "console=ttyAMA0,115200 root=/dev/sda2 rootwait")
    dt_node(t, "", n_address_cells=[2], n_size_cells=[2], compatible=strings("vendor,arm64-board"))
    dt_node(t, "soc", n_address_cells=[2], n_size_cells=[2], compatible="simple-bus",
            ranges=b"", dma_ranges=b"")
    # PCI bus 0x0 (3 cells) -> CPU 0x0 (2 cells), 3 GiB (2 cells)
    dt_node(t, "soc/pcie@f8000000", device_type="pci", n_address_cells=[3], n_size_cells=[2],
            compatible="vendor,board-pcie", reg=[0x0, 0xf8000000, 0x0, 0x10000],
            dma_ranges=[0x02000000, 0x0, 0x0, 0x0, 0x0, 0x0, 0xc0000000])
    platform(t, "sys/devices/platform/soc", "soc", "simple-bus")
    pcie = platform(t, "sys/devices/platform/soc/f8000000.pcie", "soc/pcie@f8000000",
                    "vendor,board-pcie", "board-pcie", None)
    port = pci(t, pcie + "/pci0000:00", "0000:00:00.0", 0x14e4, 0x2711, 0x060400, 32,
               "pcieport", None, subsys=(0x0000, 0x0000))
    xhci = pci(t, port, "0000:01:00.0", 0x1106, 0x3483, 0x0c0330, 64, "xhci_hcd", "xhci_pci",
               subsys=(0x1106, 0x3483))
    sdev = xhci + "/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0"
    disk(t, sdev, "sda", ["sda1", "sda2"], (8, 0), sectors=500118192, max_sectors_kb=240,
         max_hw_sectors_kb=240, max_segments=2048, max_segment_size=65536, dma_alignment=None)
    loop0(t)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0",
        "Linux version 4.14.336-custom (builder@example) (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP PREEMPT",
        "Zone ranges:",
        "  DMA      [mem 0x0000000000000000-0x00000000ffffffff]",
        "  Normal   [mem 0x0000000100000000-0x00000001ffffffff]",
        "software IO TLB [mem 0xfbc00000-0xffc00000] (64MB) mapped at [ffffffc0fbc00000-ffffffc0ffbfffff]",
        dev_line("0000:01:00.0", "[1106:3483] type 00 class 0x0c0330"),
        "usb-storage 2-1:1.0: USB Mass Storage device detected",
        "sd 0:0:0:0: [sda] 500118192 512-byte logical blocks: (256 GB/238 GiB)",
    ])
    d = dev("0000:01:00.0")
    return [
        "# 4.14: no bus limit kept (bus_dma_mask from 4.19, checked from 4.20: b4ebe6063204)",
        "%s | .bus_limit == null and .dma_mask == \"0xffffffffffffffff\"" % d,
        "%s | .dma_ranges.regions == [{\"cpu_start\": \"0x0\", \"dma_start\": \"0x0\", \"size\": 3221225472}]" % d,
        "# sda is a SCSI disk behind it: before 5.13 the block layer's model decides, and it bounces nothing",
        "%s | .kernel_model == \"legacy-block\"" % d,
        "# before 5.5 of_dma_get_range() starts above the host bridge: its own window is never read",
        "%s | .verdict == \"fails\" and (.reason | test(\"before 5.5 never reads\"))" % d,
        "%s | .[0].remedy | test(\"5.5\")" % finding("bounce-missed", "0000:01:00.0"),
        "# RAM past the window: 0xc0000000-0xffffffff and 0x100000000-0x1ffffffff",
        "%s | .unreachable_ram_bytes == %d" % (d, (0x100000000 - 0xc0000000) + 0x100000000),
        "%s | length == 1" % finding("bounce-missed", "0000:01:00.0"),
        "%s | .[0].evidence.window_end == \"0xbfffffff\"" % finding("bounce-missed", "0000:01:00.0"),
        "# the kernel never bounces for a 64-bit mask: no failed mapping, and the pool's place is moot",
        "%s | length == 0" % finding("bounce-impossible", "0000:01:00.0"),
        "%s | length == 0" % finding("swiotlb-out-of-reach", "0000:01:00.0"),
        "%s | .swiotlb_pool_reachable == null" % d,
        ".swiotlb.pool_start == \"0xfbc00000\"",
        ".exit_status == 1",
        "# the logged pool lies past the PCIe window, and RAM above it: the next device behind it has no pool: no-bounce-pool",
        "%s | length == 1 and .[0].evidence.pool_start == \"0xfbc00000\" and .[0].evidence.boundary == \"0xc0000000\"" % finding("no-bounce-pool"),
    ]


def arm64_restricted_pool(t):
    """A MediaTek MT7622 board on Debian 12's 6.1 whose wifi MAC names a
    restricted-dma-pool (memory-region): its mappings alone bounce there (5.15+).
    Follows: arch/arm64/boot/dts/mediatek/mt7622.dtsi (wmac@18000000,
    "mediatek,mt7622-wmac"; named wifi@ and put under soc here); kernel/dma/swiotlb.c
    rmem_swiotlb_setup and drivers/of/of_reserved_mem.c __reserved_mem_init_node for
    the two log lines. The MMC node, the pool's place and size, and iomem are synthetic."""
    manifest(t, "aarch64", "6.1.0-27-arm64", "2026-12-03T08:00:00Z")
    cmd = "console=ttyS0,115200n8 root=/dev/mmcblk0p1 rootwait"
    iomem = """\
11230000-11230fff : 11230000.mmc mmc@11230000
18000000-180fffff : 18000000.wifi wifi@18000000
40000000-bfffffff : System RAM
  40210000-4150ffff : Kernel code
  41510000-4180ffff : reserved
  41810000-41b3ffff : Kernel data
  50000000-503fffff : reserved
"""
    # no dma-ranges limit: zone_dma_bits 32, ZONE_DMA spans all of RAM
    zi = zoneinfo([("DMA", 0x40000, 0x80000, 0x80000), ("DMA32", None, 0, 0),
                   ("Normal", None, 0, 0), ("Movable", None, 0, 0)])
    mi = "MemTotal:        2010532 kB\nMemFree:         1835120 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, cmd)

    dt_node(t, "", n_address_cells=[2], n_size_cells=[2], compatible=strings("mediatek,mt7622"))
    dt_node(t, "reserved-memory", n_address_cells=[2], n_size_cells=[2], ranges=b"")
    dt_node(t, "reserved-memory/restricted@50000000", compatible="restricted-dma-pool",
            reg=[0x0, 0x50000000, 0x0, 0x400000], phandle=[0x5])
    dt_node(t, "soc", n_address_cells=[2], n_size_cells=[2], compatible="simple-bus", ranges=b"")
    dt_node(t, "soc/wifi@18000000", compatible="mediatek,mt7622-wmac",
            reg=[0x0, 0x18000000, 0x0, 0x100000], memory_region=[0x5])
    dt_node(t, "soc/mmc@11230000", compatible="mediatek,mt7622-mmc",
            reg=[0x0, 0x11230000, 0x0, 0x1000])

    platform(t, "sys/devices/platform/soc", "soc", "simple-bus")
    platform(t, "sys/devices/platform/soc/18000000.wifi", "soc/wifi@18000000",
             "mediatek,mt7622-wmac", "mt7622-wmac", "mt7615e")
    mmc = platform(t, "sys/devices/platform/soc/11230000.mmc", "soc/mmc@11230000",
                   "mediatek,mt7622-mmc", "mtk-msdc", "mtk_sd")
    disk(t, mmc + "/mmc_host/mmc0/mmc0:0001", "mmcblk0", ["mmcblk0p1"], (179, 0),
         sectors=30535680, max_sectors_kb=256, max_hw_sectors_kb=256, max_segments=64,
         max_segment_size=65535, dma_alignment=3)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd034]",
        "Linux version 6.1.0-27-arm64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP Debian 6.1.115-1 (2024-11-01)",
        "Reserved memory: created restricted DMA pool at 0x0000000050000000, size 4 MiB",
        "OF: reserved mem: initialized node restricted@50000000, compatible id restricted-dma-pool",
    ])
    return [
        "# a devicetree restricted-dma-pool (memory-region) forces the wifi MAC alone to bounce",
        "%s | .verdict == \"forced\"" % dev("18000000.wifi"),
        "%s | .forced_why | test(\"restricted-dma-pool\")" % dev("18000000.wifi"),
        "%s | .verdict != \"forced\"" % dev("11230000.mmc"),
        "%s | .verdict == \"direct\"" % dev("11230000.mmc"),
        "%s | .forced_why == null" % dev("11230000.mmc"),
        ".swiotlb.forced == false",
        "# forced for the wifi MAC alone: a finding on it, none machine-wide",
        "%s | length == 0" % finding("forced-bounce"),
        "%s | length == 1" % finding("forced-bounce", "18000000.wifi"),
        "[.findings[] | select(.id == \"forced-bounce\")] | length == 1",
        ".exit_status == 0",
    ]


def arm64_restricted_pool_ignored(t):
    """arm64-restricted-pool's board with three masters that name a
    restricted-dma-pool the kernel does not use: the wifi's node has no-map
    (rmem_swiotlb_setup returns -EINVAL), the GPU sits behind an IOMMU
    (of_dma_configure_id sets the pool up only without one), and the MMC's
    pool is fine: only the MMC is forced.
    Follows: as arm64-restricted-pool; kernel/dma/swiotlb.c
    rmem_swiotlb_setup for no-map. The extra pools and the GPU node are synthetic."""
    arm64_restricted_pool(t)
    dt_node(t, "reserved-memory/wifi-pool@50000000", compatible="restricted-dma-pool",
            reg=[0x0, 0x50000000, 0x0, 0x400000], phandle=[0x5], no_map=b"")
    t.unlink("sys/firmware/devicetree/base/reserved-memory/restricted@50000000")
    dt_node(t, "reserved-memory/mmc-pool@51000000", compatible="restricted-dma-pool",
            reg=[0x0, 0x51000000, 0x0, 0x400000], phandle=[0x6])
    dt_node(t, "reserved-memory/gpu-pool@52000000", compatible="restricted-dma-pool",
            reg=[0x0, 0x52000000, 0x0, 0x800000], phandle=[0x7])
    dt_node(t, "soc/mmc@11230000", compatible="mediatek,mt7622-mmc",
            reg=[0x0, 0x11230000, 0x0, 0x1000], memory_region=[0x6])
    dt_node(t, "soc/gpu@13040000", compatible="mediatek,mt7622-mali",
            reg=[0x0, 0x13040000, 0x0, 0x4000], memory_region=[0x7], iommus=[0x9, 0x1])
    gpu = platform(t, "sys/devices/platform/soc/13040000.gpu", "soc/gpu@13040000",
                   "mediatek,mt7622-mali", "panfrost", "panfrost")
    iommu_group(t, gpu, "13040000.gpu", 0, "identity")
    return [
        "%s | .restricted_dma_pool.node == \"reserved-memory/wifi-pool@50000000\"" % dev("18000000.wifi"),
        "%s | .restricted_dma_pool.used == false and (.restricted_dma_pool.ignored_why | test(\"no-map\"))" % dev("18000000.wifi"),
        "%s | .verdict == \"direct\" and .forced_why == null" % dev("18000000.wifi"),
        "%s | .restricted_dma_pool.used == false and (.restricted_dma_pool.ignored_why | test(\"IOMMU\"))" % dev("13040000.gpu"),
        "%s | .verdict == \"direct\" and .iommu_domain == \"identity\"" % dev("13040000.gpu"),
        "%s | .restricted_dma_pool.used == true and .restricted_dma_pool.base == \"0x51000000\"" % dev("11230000.mmc"),
        "%s | .restricted_dma_pool.size_bytes == 4194304 and .restricted_dma_pool.ignored_why == null" % dev("11230000.mmc"),
        "%s | .verdict == \"forced\"" % dev("11230000.mmc"),
        "[.findings[] | select(.id == \"forced-bounce\") | .device] == [\"11230000.mmc\"]",
    ]


def arm64_restricted_pool_510(t):
    """arm64-restricted-pool on 5.10: no restricted DMA pools before 5.15
    (0b84e4f8b793), so the wifi MAC keeps the normal rules.
    Follows: as arm64-restricted-pool, with a 5.10 release."""
    arm64_restricted_pool(t)
    manifest(t, "aarch64", "5.10.0-33-arm64", "2026-12-03T08:00:00Z")
    return [
        "%s | .restricted_dma_pool.used == false and (.restricted_dma_pool.ignored_why | test(\"5.15\"))" % dev("18000000.wifi"),
        "%s | .verdict == \"direct\"" % dev("18000000.wifi"),
        "[.findings[] | select(.id == \"forced-bounce\")] | length == 0",
        "# RAM 0x40000000-0xbfffffff lies below 4 GiB, in the MMC's platform default 32-bit mask (3.13+)",
        "%s | .verdict == \"direct\"" % dev("11230000.mmc"),
    ]


def x86_iommu_soft_3g(t):
    """3 GiB of RAM, iommu=soft, a rotated log: pci_swiotlb_detect() would
    make no pool at or below 4 GiB, but iommu=soft sets x86_swiotlb_enable.
    Follows: x86-pc-4g's devices; the one log line is drivers/nvme/host/pci.c
    nvme_setup_io_queues's. The 3 GiB layout is synthetic."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1 iommu=soft"
    proc(t, X86_3G_IOMEM, X86_3G_ZONEINFO, X86_3G_MEMINFO, cmd)
    x86_pc_devices(t)
    kmsg(t, ["nvme nvme0: 4/0/0 default/read/poll queues"], first_seq=9000)
    return [
        ".swiotlb.active == true and (.swiotlb.active_why | test(\"iommu=soft\"))",
        "%s | .verdict == \"direct\"" % dev("0000:00:1f.2"),
        "# 3 GiB, all below 4 GiB: the 64-bit NVMe reaches all of it",
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        ".exit_status == 0",
    ]


def x86_amd_510_iommu(t, release="5.10.0-33-amd64"):
    """AMD-Vi on 5.10 with translated groups, RAM above 4 GiB, a rotated log:
    amd_iommu_init_dma_ops() cleared swiotlb (no passthrough, no SME) and
    pci_iommu_init() freed the pool, until 121660bba631 (5.19; stable 5.15.46,
    5.17.14, 5.18.3), after which x86-64's default above 4 GiB holds.
    Follows: x86-pc-4g's devices and nvme_setup_io_queues's line; groups synthetic."""
    manifest(t, "x86_64", release, "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1"
    x86_proc(t, cmd)
    t.file("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
           "address sizes\t: 48 bits physical, 48 bits virtual\n\n")
    x86_pc_devices(t, groups=True)
    kmsg(t, ["nvme nvme0: 4/0/0 default/read/poll queues"], first_seq=9000)
    devs = [
        "%s | .verdict == \"iommu\"" % dev("0000:00:1f.2"),
        "# the NVMe's group is DMA-FQ too: translated",
        "%s | .verdict == \"iommu\"" % dev("0000:01:00.0"),
    ]
    if release.startswith("5.15.46"):
        return [
            "# 121660bba631 in 5.15.46: the AMD driver no longer frees the pool; 8 GiB, above 4 GiB: one",
            ".swiotlb.active == true and (.swiotlb.active_why | test(\"AMD\") | not)",
        ] + devs
    return [
        ".swiotlb.active == false and (.swiotlb.active_why | test(\"AMD\"))",
        "# the groups' DMA-FQ types show the default domain is translated, not passthrough",
        ".swiotlb.active_provenance == \"derived\"",
        "%s | .verdict == \"iommu\"" % dev("0000:00:1f.2"),
        "# the NVMe's group is DMA-FQ too: translated",
        "%s | .verdict == \"iommu\"" % dev("0000:01:00.0"),
    ]


def x86_amd_identity(t, release):
    """AMD-Vi with every group identity and no iommu=pt on the command line:
    CONFIG_IOMMU_DEFAULT_PASSTHROUGH. From 5.4 amd_iommu_init_dma_ops() asks
    iommu_default_passthrough() and keeps the pool, so the 32-bit AHCI
    (dma-direct) bounces; before 5.4 it asked x86's iommu_pass_through
    (iommu=pt only) and freed it, so the AHCI's RAM above 4 GiB fails.
    Follows: x86-pc-4g's devices and nvme_setup_io_queues's line; groups synthetic."""
    manifest(t, "x86_64", release, "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1"
    x86_proc(t, cmd)
    t.file("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
           "address sizes\t: 48 bits physical, 48 bits virtual\n\n")
    x86_pc_devices(t, groups=True, group_type="identity")
    kmsg(t, ["nvme nvme0: 4/0/0 default/read/poll queues"], first_seq=9000)
    nvme = ["# identity is dma-direct for AMD (no small-mask fallback), and the 64-bit NVMe reaches all RAM",
            "%s | .verdict == \"direct\"" % dev("0000:01:00.0")]
    if release.startswith("5.3."):
        return [
            ".swiotlb.active == false and (.swiotlb.active_why | test(\"before 5.4\"))",
            "%s | .verdict == \"fails\"" % dev("0000:00:1f.2"),
            "# no pool for the AHCI's 21 GiB above 4 GiB: its mappings there fail",
            "%s | length == 1" % finding("bounce-impossible", "0000:00:1f.2"),
            "# no pool, identity domains, 21 GiB above 4 GiB: the next 32-bit device fails too",
            "%s | length == 1 and .[0].evidence.ram_above_bytes == %d" % (finding("no-bounce-pool"), X86_ABOVE_4G),
        ] + nvme
    return [
        ".swiotlb.active == true",
        "%s | .verdict == \"partial\"" % dev("0000:00:1f.2"),
        "%s | .unreachable_ram_bytes == %d" % (dev("0000:00:1f.2"), X86_ABOVE_4G),
        "# the pool kept, the AHCI's RAM above 4 GiB bounces",
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
    ] + nvme


def x86_amd_untrusted(t, release):
    """AMD-Vi on 5.15.45 with translated (DMA-FQ) groups, 24 GiB and a rotated
    log, two devices the pool matters to: the 32-bit AHCI, its group's type
    written to "identity" (sysfs iommu_groups/N/type, 08a27c1c3ecf, 5.11), so
    dma-direct maps for it, and a removable (untrusted) NVMe below an
    external-facing port in a strict DMA domain, whose unaligned buffers
    iommu_dma_map_page() bounces through swiotlb. amd_iommu_init_dma_ops()
    clears swiotlb unless the default domain is passthrough (it is not: the
    other groups are DMA-FQ) and pci_iommu_init() frees the pool, until
    121660bba631 "iommu/amd: Enable swiotlb in all cases" (5.19; stable
    5.15.46), whose message names that untrusted device's failures.
    Follows: x86-amd-5.10-iommu and x86-thunderbolt's trees; IDs synthetic."""
    manifest(t, "x86_64", release, "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1"
    x86_proc(t, cmd)
    t.file("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
           "address sizes\t: 48 bits physical, 48 bits virtual\n\n")
    x86_pc_devices(t, groups=True)
    # the admin's echo identity > /sys/kernel/iommu_groups/1/type (iommu_group_store_type)
    t.file("sys/kernel/iommu_groups/1/type", "identity\n")
    bus = "sys/devices/pci0000:00"
    port = pci(t, bus, "0000:00:08.1", 0x1022, 0x1668, 0x060400, 32, "pcieport", None,
               subsys=(0x1022, 0x0000), group=(3, "DMA"))
    tb = pci(t, port, "0000:2c:00.0", 0x144d, 0xa80a, 0x010802, 64, "nvme", "nvme",
             subsys=(0x144d, 0xa801), group=(4, "DMA"))
    t.file(tb + "/removable", "removable\n")  # drivers/pci/probe.c pci_set_removable
    disk(t, tb + "/nvme/nvme1", "nvme1n1", [], (259, 2), sectors=1000215216,
         max_sectors_kb=128, max_hw_sectors_kb=128, max_segments=33,
         max_segment_size=4294967295, dma_alignment=3, glue=False)
    kmsg(t, ["nvme nvme0: 4/0/0 default/read/poll queues"], first_seq=9000)
    a, u = dev("0000:00:1f.2"), dev("0000:01:00.0")
    tb_ = dev("0000:2c:00.0")
    return [
        "# AMD before 5.19 (121660bba631, stable 5.15.46): translated groups, not passthrough: the pool freed",
        ".swiotlb.active == false and (.swiotlb.active_why | test(\"AMD\")) and .swiotlb.active_provenance == \"derived\"",
        "# the AHCI's identity group: dma-direct, 32 bits, RAM above 4 GiB and no pool: those mappings fail",
        "%s | .iommu_domain == \"identity\" and .verdict == \"fails\" and .unreachable_ram_bytes == %d" % (a, X86_ABOVE_4G),
        "%s | length == 1 and .[0].severity == \"error\"" % finding("bounce-impossible", "0000:00:1f.2"),
        "# dma-direct's swiotlb decides (no block-layer bouncing after 4.18 for SCSI): the missing pool limits it",
        "%s | .kernel_model == \"dma-direct\" and .limiter == \"pool\"" % a,
        "# the NVMe's group is DMA-FQ: translated",
        "%s | .verdict == \"iommu\"" % u,
        "# the removable NVMe's strict DMA domain: translated, its sub-page buffers want the pool that is gone",
        "%s | .removable == true and .iommu_domain == \"DMA\" and .verdict == \"iommu\"" % tb_,
        "%s | length == 1 and .[0].severity == \"error\" and .[0].evidence.swiotlb == \"absent\"" % finding("untrusted-bounce-impossible", "0000:2c:00.0"),
        "%s | .[0].evidence.without_pool == \"fails\"" % finding("untrusted-bounce-impossible", "0000:2c:00.0"),
        "# no pool, an identity domain, 21 GiB above 4 GiB: the next 32-bit device there fails too",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == %d" % (finding("no-bounce-pool"), X86_ABOVE_4G),
        ".exit_status == 1",
    ]


RISCV_1G_IOMEM = ("80000000-bfffffff : System RAM\n  80000000-8002ffff : Reserved\n"
                  "  80200000-80ffffff : Kernel image\n")


def riscv_virt_1g(t, release, zicbom):
    """A riscv64 virt board with 1 GiB at 0x80000000 (all below 4 GiB), a rotated
    log: the default pool by era. setup_arch() swiotlb_init(1) always before
    5.14; ce3aca0465e3 (5.14) only above dma32_phys_limit; fc7a50eed986 (6.10)
    a RAM/1024 pool when DMA is non-coherent (Zicbom in the isa line).
    Follows: no checked source: RAM base, devices and the virtio_blk line are
    synthetic (QEMU virt-like)."""
    manifest(t, "riscv64", release, "2026-12-03T08:00:00Z")
    zi = zoneinfo([("DMA32", 0x80000, 0x40000, 0x3f000), ("Normal", None, 0, 0),
                   ("Movable", None, 0, 0)])
    proc(t, RISCV_1G_IOMEM, zi,
         "MemTotal:        1006000 kB\nMemFree:          900000 kB\nBounce:                0 kB\n",
         "root=/dev/vda1 console=ttyS0")
    isa = "rv64imafdch_zicbom_zicboz_zicntr_zihpm" if zicbom else "rv64imafdch_zicntr_zihpm"
    t.file("proc/cpuinfo", "processor\t: 0\nhart\t\t: 0\nisa\t\t: %s\nmmu\t\t: sv57\n"
           "mvendorid\t: 0x0\nmarchid\t\t: 0x0\nmimpid\t\t: 0x0\n\n" % isa)
    x86_pc_devices(t)
    kmsg(t, ["virtio_blk virtio1: [vda] 16777216 512-byte logical blocks"], first_seq=5000)
    major, minor = (int(x) for x in release.split(".")[:2])
    board = [
        "# 1 GiB at 0x80000000-0xbfffffff, all below 4 GiB: the 32-bit AHCI and the 64-bit NVMe reach all RAM, pool or none",
        "%s | .verdict == \"direct\"" % dev("0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
    ]
    if (major, minor) < (5, 14):
        return [".swiotlb.active == true and (.swiotlb.active_why | test(\"before 5.14\"))"] + board
    if (major, minor) >= (6, 10) and zicbom:
        return [
            ".swiotlb.active == true and (.swiotlb.active_why | test(\"non-coherent\"))",
            "# DIV_ROUND_UP(1006000 KiB, 1024) = 983 KiB, in whole 256 KiB segments",
            ".swiotlb.size_bytes == 1048576",
        ] + board
    return [".swiotlb.active == false and (.swiotlb.active_why | test(\"riscv\"))"] + board


def x86_32_pool(t, release, ram_6g):
    """32-bit PAE x86 with a rotated log, the pool by era: none before 4.19
    (pci_swiotlb_detect_4gb under CONFIG_X86_64); 4.19-5.6 one whatever the RAM
    (MAX_DMA32_PFN is 0 on 32-bit); from 5.7 (88743470668e, merged on 5.7's
    release day; stable 4.19.126, 5.4.44, 5.6.16) only above 4 GiB.
    Follows: no checked source beyond x86-pc-4g's devices: RAM layouts and the sd
    line are synthetic."""
    x86_32_pae_scsi_419(t)
    manifest(t, "i686", release, "2026-12-03T08:00:00Z")
    cmd = "root=/dev/sda1 ro"
    if not ram_6g:
        proc(t, "00000000-00000fff : Reserved\n00001000-0009fbff : System RAM\n"
                "0009fc00-000fffff : Reserved\n00100000-bfffffff : System RAM\n"
                "c0000000-febfffff : PCI Bus 0000:00\n",
             zoneinfo([("DMA", 1, 4095, 3998), ("Normal", 4096, 225280, 221000),
                       ("HighMem", 229376, 557056, 557056)]),
             "MemTotal:        3000000 kB\nMemFree:         2500000 kB\nHighTotal:       2228224 kB\n"
             "HighFree:        2000000 kB\nLowTotal:         880000 kB\nLowFree:          500000 kB\n"
             "Bounce:                0 kB\n", cmd)
    else:
        t.file("proc/cmdline", cmd + "\n")
    kmsg(t, ["sd 0:0:0:0: [sda] Attached SCSI disk"], first_seq=3000)
    if ram_6g:
        nvme = ["# the 64-bit NVMe reaches all 6 GiB",
                "%s | .verdict == \"direct\"" % dev("0000:01:00.0")]
    else:
        nvme = ["# 3 GiB, all below 4 GiB (0x100000-0xbfffffff): the 32-bit AHCI and the 64-bit NVMe reach all of it, pool or none",
                "%s | .verdict == \"direct\"" % dev("0000:00:1f.2"),
                "%s | .verdict == \"direct\"" % dev("0000:01:00.0")]
    if release.startswith("4.17.") or release.startswith("4.18."):
        checks = [".swiotlb.active == false and (.swiotlb.active_why | test(\"before 4.19\"))",
                  "# no pool, 2 GiB above 4 GiB: a 32-bit device bound later fails there",
                  "%s | length == 1 and .[0].evidence.ram_above_bytes == %d" % (finding("no-bounce-pool"), 2 * GIB)]
        if release.startswith("4.18."):
            checks += [
                "# 4.18: SCSI sets no bounce limit and nommu_dma_ops has no pool: RAM above 4 GiB fails",
                "%s | .verdict == \"fails\"" % dev("0000:00:1f.2"),
                "# the mapping of the 2 GiB above 4 GiB fails, with no bounce buffer to help",
                "%s | length == 1" % finding("bounce-impossible", "0000:00:1f.2"),
            ]
        else:
            checks += [
                "# 4.17: nommu_dma_ops is_phys, so scsi_calculate_bounce_limit() bounces above the mask",
                "%s | .models.legacy_block.as_pfn.bounce_bytes == 2147483648" % dev("0000:00:1f.2"),
                "# the block layer copies the 2 GiB above 4 GiB: partial, bouncing needed",
                "%s | .verdict == \"partial\"" % dev("0000:00:1f.2"),
                "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
            ]
        return checks + nvme
    v = tuple(int(x) for x in release.split("-")[0].split("."))
    if v < (4, 19, 126) or (5, 0) <= v < (5, 4, 44):
        return ["# MAX_DMA32_PFN overflows to 0 without 88743470668e: a pool whatever the RAM",
                ".swiotlb.active == true and (.swiotlb.active_why | test(\"whatever the RAM\"))"] + nvme
    return ["# 88743470668e (5.7; stable 4.19.126, 5.4.44): 3 GiB, none above 4 GiB, no pool",
            ".swiotlb.active == false and (.swiotlb.active_why | test(\"4 GiB\"))"] + nvme


def arm64_early_pool(t, release):
    """arm64-kmalloc-pool's 2 GiB, all in ZONE_DMA, before and at b67a8b29df7e:
    mem_init() called swiotlb_init(1) whatever the RAM before 4.8.
    Follows: no checked source: a synthetic 2 GiB board (arm64-kmalloc-pool's)."""
    arm64_kmalloc_pool(t, "6.1.0-27-arm64")
    manifest(t, "aarch64", release, "2026-12-03T08:00:00Z")
    board = [
        "# RAM 0x40000000-0xbfffffff, below 4 GiB: the platform default 32-bit masks reach all of it",
        "%s | .verdict == \"direct\"" % dev("11230000.mmc"),
        "# and before 5.15 (0b84e4f8b793) the wifi's restricted-dma-pool is not used: not forced",
        "%s | .verdict == \"direct\"" % dev("18000000.wifi"),
    ]
    if release.startswith("4.7."):
        return [".swiotlb.active == true and (.swiotlb.active_why | test(\"before 4.8\"))"] + board
    return [".swiotlb.active == false"] + board


def iort_table(nodes):
    """An ACPI IORT (include/acpi/actbl2.h) of ("nc", name, limit_bits) and
    ("rc", segment, limit_bits, revision) nodes."""
    import struct
    body = b""
    for n in nodes:
        if n[0] == "nc":
            data = struct.pack("<IQB", 0, 0, n[2]) + n[1].encode() + b"\0"
            data += b"\0" * (-len(data) % 4)
            body += struct.pack("<BHBIII", 1, 16 + len(data), 4, 0, 0, 0) + data
        else:
            data = struct.pack("<QII", 0, 0, n[1])
            if n[3] >= 1:
                data += struct.pack("<B3x", n[2])
            body += struct.pack("<BHBIII", 2, 16 + len(data), n[3], 0, 0, 0) + data
    head_len = 48
    hdr = b"IORT" + struct.pack("<IBB6s8sI4sI", head_len + len(body), 3, 0, b"QEMU  ",
                                b"QEMUIORT", 1, b"QEMU", 1)
    return hdr + struct.pack("<III", len(nodes), head_len, 0) + body


def arm64_acpi_iort_masks(t, release):
    """The same server's RAM with two ACPI platform SATA controllers whose drivers
    set no mask the tool can see: one's IORT named component allows 40 bits, the
    other's says a memory_address_limit of 0. Until a1df829ead58 (5.11, stable
    5.10.13) iort_dma_setup() replaced the masks with the IORT's (40 bits: all RAM
    in reach; 0: zeroed), from it min() with the 32-bit default, and a limit of 0
    is refused. Follows: drivers/acpi/arm64/iort.c iort_dma_setup, drivers/acpi/
    arm64/dma.c acpi_arch_dma_setup; the server is synthetic."""
    manifest(t, "aarch64", release, "2026-12-07T05:00:00Z")
    iomem = ("80000000-ffffffff : System RAM\n  80210000-8159ffff : Kernel code\n"
             "880000000-9ffffffff : System RAM\n")
    zi = zoneinfo([("DMA", 0x80000, 0x80000, 0x7f000), ("DMA32", None, 0, 0),
                   ("Normal", 0x880000, 0x180000, 0x180000), ("Movable", None, 0, 0)])
    proc(t, iomem, zi, "MemTotal:        8000000 kB\nMemFree:         7000000 kB\nBounce:                0 kB\n",
         "root=/dev/sda1 acpi=force")
    t.file("sys/firmware/acpi/tables/IORT",
           iort_table([("nc", "\\_SB_.SAT0", 40), ("nc", "\\_SB_.SAT1", 0)]))
    for i, name in enumerate(["APMC0D0D:00", "APMC0D0D:01"]):
        sata = "sys/devices/platform/" + name
        t.file(sata + "/modalias", "acpi:APMC0D0D:\n")
        t.link(sata + "/subsystem", "sys/bus/platform")
        t.link("sys/bus/platform/devices/" + name, sata)
        acpi = "sys/devices/LNXSYSTM:00/LNXSYBUS:00/" + name
        t.file(acpi + "/path", "\\_SB_.SAT%d\n" % i)
        t.link(sata + "/firmware_node", acpi)
        bind(t, "platform", sata, name, "ahci", "ahci_platform")
        disk(t, sata + "/ata%d/host%d/target%d:0:0/%d:0:0:0" % (i + 1, i, i, i), "sd" + "ab"[i],
             ["sd%s1" % "ab"[i]], (8, 16 * i), sectors=41943040)
        t.link(sata + "/ata%d/host%d/target%d:0:0/%d:0:0:0/subsystem" % (i + 1, i, i, i), "sys/bus/scsi")
    t.file("sys/bus/scsi/drivers_autoprobe", "1\n")
    kmsg(t, ["ahci APMC0D0D:00: 1/1 ports implemented (port mask 0x1)"], first_seq=7000)
    wide, zero = dev("APMC0D0D:00"), dev("APMC0D0D:01")
    checks = [".inputs[] | select(.path == \"sys/firmware/acpi/tables/IORT\") | .status == \"ok\"",
              "%s | .dma_ranges.node == \"\\\\_SB_.SAT0\" and .dma_ranges.regions[0].size == 1099511627776" % wide,
              "# a limit of 0 applies no bus limit in any era (min_not_zero); the node is no map",
              "%s | .dma_ranges == null" % zero]
    if release.startswith("5.10.12"):
        return checks + [
            "# before a1df829ead58 the IORT's 40 bits replace the 32-bit default: all RAM in reach",
            "%s | .dma_mask == \"0xffffffffff\" and .mask_source == \"assumed\" and .verdict == \"direct\"" % wide,
            "%s | .unreachable_ram_bytes == 0" % wide,
            "# and a limit of 0 zeroed the masks: unknown (the driver may set its own), never direct",
            "%s | .dma_mask == null and .verdict == \"unknown\" and (.mask_why | test(\"a1df829ead58\"))" % zero,
            "%s | length == 1 and .[0].severity == \"warning\"" % finding("verdict-unknown", "APMC0D0D:01"),
            "# a warning: exit 0 under the default --fail-on error, but no all-clear",
            ".exit_status == 0 and .summary.all_clear == false",
        ]
    return checks + [
        "# from a1df829ead58 (5.11, 5.10.13) min() of the 32-bit default and the IORT's 40 bits:",
        "# the 6 GiB at 0x880000000 bounce",
        "%s | .dma_mask == \"0xffffffff\" and .verdict == \"partial\" and .unreachable_ram_bytes == 6442450944" % wide,
        "%s | length == 1" % finding("bounce-needed", "APMC0D0D:00"),
        "# 5.10 with a disk: the legacy block layer first (SCSI sets no bounce limit from 4.18),",
        "# then dma-direct's swiotlb bounces the 6 GiB above 4 GiB",
        "%s | .kernel_model == \"legacy-block\"" % wide,
        "# a limit of 0 is refused (FW_BUG): the 32-bit default stands",
        "%s | .dma_mask == \"0xffffffff\" and .verdict == \"partial\" and .unreachable_ram_bytes == 6442450944" % zero,
        "%s | .kernel_model == \"legacy-block\"" % zero,
        "%s | length == 1" % finding("bounce-needed", "APMC0D0D:01"),
        ".exit_status == 0",
    ]


def arm64_acpi_iort(t, release):
    """An arm64 ACPI server (8 GiB: 2 GiB below 4 GiB, 6 GiB at 0x880000000)
    whose IORT limits PCI segment 0 to 32 bits (a root complex of revision 1)
    and its SATA controller, an ACPI platform device, to 32 bits (a named
    component). iort_dma_setup() applies the named component's limit from 4.14
    (not pinned to a commit), the root complex's from 4.19 (5ac65e8c8941).
    Follows: no checked source for the server (synthetic); the nvme line is
    nvme_setup_io_queues's."""
    manifest(t, "aarch64", release, "2026-12-03T08:00:00Z")
    iomem = ("80000000-ffffffff : System RAM\n  80210000-8159ffff : Kernel code\n"
             "880000000-9ffffffff : System RAM\n")
    zi = zoneinfo([("DMA", 0x80000, 0x80000, 0x7f000), ("DMA32", None, 0, 0),
                   ("Normal", 0x880000, 0x180000, 0x180000), ("Movable", None, 0, 0)])
    proc(t, iomem, zi, "MemTotal:        8000000 kB\nMemFree:         7000000 kB\nBounce:                0 kB\n",
         "root=/dev/nvme0n1p1 acpi=force")
    t.file("sys/firmware/acpi/tables/IORT",
           iort_table([("nc", "\\_SB_.SAT0", 32), ("rc", 0, 32, 1)]))
    bus = "sys/devices/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x1def, 0xe100, 0x060000, 32)
    nvme = pci(t, bus, "0000:00:01.0", 0x144d, 0xa808, 0x010802, 64, "nvme", "nvme",
               subsys=(0x144d, 0xa801))
    disk(t, nvme + "/nvme/nvme0", "nvme0n1", ["nvme0n1p1"], (259, 0), sectors=1000215216,
         max_sectors_kb=128, max_hw_sectors_kb=128, max_segments=33,
         max_segment_size=4294967295, dma_alignment=3, glue=False)
    sata = "sys/devices/platform/APMC0D0D:00"
    t.file(sata + "/modalias", "acpi:APMC0D0D:\n")
    t.link(sata + "/subsystem", "sys/bus/platform")
    t.link("sys/bus/platform/devices/APMC0D0D:00", sata)
    acpi = "sys/devices/LNXSYSTM:00/LNXSYBUS:00/APMC0D0D:00"
    t.file(acpi + "/path", "\\_SB_.SAT0\n")
    t.link(sata + "/firmware_node", acpi)
    bind(t, "platform", sata, "APMC0D0D:00", "ahci", "ahci_platform")
    disk(t, sata + "/ata1/host0/target0:0:0/0:0:0:0", "sda", ["sda1"], (8, 0), sectors=41943040)
    t.file("sys/bus/scsi/drivers_autoprobe", "1\n")
    t.link(sata + "/ata1/host0/target0:0:0/0:0:0:0/subsystem", "sys/bus/scsi")
    kmsg(t, ["nvme nvme0: 4/0/0 default/read/poll queues"], first_seq=7000)
    major, minor = (int(x) for x in release.split(".")[:2])
    nc = '(%s | .dma_ranges)' % dev("APMC0D0D:00")
    rc = '(%s | .dma_ranges)' % dev("0000:00:01.0")
    checks = [".inputs[] | select(.path == \"sys/firmware/acpi/tables/IORT\") | .status == \"ok\"",
              "# the SATA controller (an ACPI platform device) shows no mask: the platform default 32 bits, "
              "and from 4.14 its IORT named component's 32-bit limit too; 6 GiB lies at 0x880000000, and "
              "the pool arm64 makes for RAM past ZONE_DMA lies in ZONE_DMA (below 4 GiB): partial",
              "%s | .verdict == \"partial\"" % dev("APMC0D0D:00"),
              "%s | length == 1" % finding("bounce-needed", "APMC0D0D:00")]
    if (major, minor) < (4, 14):
        return checks + ["%s == null" % nc, "%s == null" % rc,
                         "%s | .verdict == \"direct\"" % dev("0000:00:01.0")]
    checks += ["%s | .node == \"\\\\_SB_.SAT0\" and .regions[0].size == 4294967296" % nc]
    if (major, minor) < (4, 19):
        return checks + ["%s == null" % rc, "%s | .verdict == \"direct\"" % dev("0000:00:01.0")]
    return checks + [
        "%s | .node == \"IORT root complex\" and .regions[0].size == 4294967296" % rc,
        "# the root complex's 32 bits leave the 6 GiB at 0x880000000 out of the NVMe's reach",
        "%s | .verdict == \"partial\" and .unreachable_ram_bytes == 6442450944" % dev("0000:00:01.0"),
        "%s | .bus_limit == \"0xffffffff\"" % dev("0000:00:01.0"),
        "# so the NVMe's RAM past 4 GiB bounces (through the pool in ZONE_DMA)",
        "%s | length == 1" % finding("bounce-needed", "0000:00:01.0"),
        "# and that 32-bit limit lies below the NVMe's 64-bit mask: the firmware's limit decides,",
        "# and it is the IORT's, not a devicetree's dma-ranges (there is no devicetree)",
        "%s | length == 1 and (.[0].message | test(\"ACPI IORT\")) and (.[0].message | test(\"devicetree\") | not)" % finding("mask-limited-by-bus", "0000:00:01.0"),
    ]


# arm64-restricted-pool's board on a release of 5.15 or later, RAM below 4 GiB
RESTRICTED_POOL_BOARD = [
    "# the MMC's platform default 32-bit mask reaches all RAM, below 4 GiB (kmalloc bouncing of 6.5+ is no verdict: it bounces whatever the address)",
    "%s | .verdict == \"direct\"" % dev("11230000.mmc"),
    "# the wifi's memory-region is a restricted-dma-pool, used from 5.15 (0b84e4f8b793, of_dma_set_restricted_buffer) for a device with no IOMMU: its every mapping bounces there",
    "%s | .verdict == \"forced\"" % dev("18000000.wifi"),
    "# forced for the wifi alone, not machine-wide: the finding is its own",
    "%s | length == 1" % finding("forced-bounce", "18000000.wifi"),
    "%s | length == 0" % finding("forced-bounce"),
]


def arm64_kmalloc_pool(t, release):
    """2 GiB of RAM, all in ZONE_DMA, a rotated log: before 6.5 arm64 makes no
    pool; from 6.5 DMA_BOUNCE_UNALIGNED_KMALLOC keeps one (the default 64 MiB),
    from 6.7 (65033574ade9) of RAM / 1024 rounded to whole segments.
    Follows: no checked source: a synthetic 2 GiB board and MMC."""
    arm64_restricted_pool(t)
    manifest(t, "aarch64", release, "2026-12-03T08:00:00Z")
    kmsg(t, ["mmc0: new high speed SDHC card at address 0001"], first_seq=700)
    if release.startswith("6.1."):
        return [".swiotlb.active == false", ".swiotlb.size_bytes == null"] + RESTRICTED_POOL_BOARD
    size = 64 << 20 if release.startswith("6.6.") else 2 << 20
    return [
        ".swiotlb.active == true and (.swiotlb.active_why | test(\"kmalloc\"))",
        ".swiotlb.size_bytes == %d" % size,
    ] + RESTRICTED_POOL_BOARD


def arm64_dma_zone_1g(t):
    """2 GiB of RAM from 0 whose ZONE_DMA ends at 1 GiB (zone_dma_bits 30, as a
    Raspberry Pi 4's dma-ranges make it), 6.1, a rotated log: arm64 mem_init()
    compares max_pfn with the DMA zone's limit, not 4 GiB, so a pool exists.
    Follows: the 1 GiB window of bcm2711.dtsi (as arm64-rpi4); the rest synthetic."""
    arm64_kmalloc_pool(t, "6.1.0-27-arm64")
    iomem = "00000000-7fffffff : System RAM\n  00210000-0150ffff : Kernel code\n"
    zi = zoneinfo([("DMA", 0, 0x40000, 0x40000), ("DMA32", 0x40000, 0x40000, 0x40000),
                   ("Normal", None, 0, 0), ("Movable", None, 0, 0)])
    mi = "MemTotal:        2010532 kB\nMemFree:         1835120 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, "console=ttyS0,115200n8 root=/dev/mmcblk0p1 rootwait")
    return [
        ".swiotlb.active == true and (.swiotlb.active_why | test(\"DMA zone\"))",
        ".swiotlb.size_bytes == 67108864",
    ] + RESTRICTED_POOL_BOARD


# ---------------------------------------------------------------- issue 11: --observe

FORMAT_6_1 = (
    "name: swiotlb_bounced\nID: 441\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:__data_loc char[] dev_name;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:u64 dma_mask;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:dma_addr_t dev_addr;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t size;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:bool force;\toffset:40;\tsize:1;\tsigned:0;\n\n"
    "print fmt: \"dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s\", __get_str(dev_name), "
    "REC->dma_mask, (unsigned long long)REC->dev_addr, REC->size, "
    "REC->force ? \"FORCE\" : \"NORMAL\"\n")


def bounce_line(dev_, mask, addr, size, force=False, t=100.0):
    return ("     kworker/0:1-57      [000] .....   %.6f: swiotlb_bounced: dev_name: %s "
            "dma_mask=%x dev_addr=%x size=%d %s\n" % (t, dev_, mask, addr, size,
                                                     "FORCE" if force else "NORMAL"))


def x86_observed(t):
    """x86-pc-4g captured with --capture --observe=5 (synthetic): the 32-bit
    AHCI bounces buffers above 4 GiB (partial: consistent); the 64-bit NVMe
    bounced one buffer (direct: contradicted); a device the snapshot does not
    list bounced too (unattributed); the pool's high-water mark rose.
    Follows: include/trace/events/swiotlb.h swiotlb_bounced (the format and
    record layout), kernel/dma/swiotlb.c swiotlb_tbl_map_single ("swiotlb buffer is
    full"). The records themselves are synthetic."""
    x86_pc_4g(t)
    o = "run/dmamask-audit/observe/"
    t.file(o + "window", "requested_seconds=5\nwindow_seconds=5.000\ninterrupted=0\n"
           "lost_events=0\ntracefs=sys/kernel/tracing\n")
    t.file(o + "format", FORMAT_6_1)
    lines = [bounce_line("0000:00:1f.2", 0xffffffff, 0x140000000 + i * 0x1000, 4096, t=100 + i)
             for i in range(3)]
    lines.append(bounce_line("0000:00:1f.2", 0xffffffff, 0x5ff000000, 65536, t=104))
    lines.append(bounce_line("0000:01:00.0", 0xffffffffffffffff, 0x2000000, 8192, t=104.5))
    lines.append(bounce_line("0000:09:00.0", 0xffffffff, 0x300000000, 512, t=104.6))
    lines.append("  dd-1 [000] ..... 104.700000: swiotlb_bounced: dev_name: 0000:00:1f.2 dma_mask=zz\n")
    t.file(o + "trace", "# tracer: nop\n#\n" + "".join(lines))
    t.file(o + "swiotlb-before", "io_tlb_used=0\nio_tlb_used_hiwater=10\n")
    t.file(o + "swiotlb-after", "io_tlb_used=2\nio_tlb_used_hiwater=300\n")
    # two failed mappings in the window: one larger than IO_TLB_SEGSIZE slots (no pool holds
    # it: no slot suited it, swiotlb-no-slot), one with the pool 99% used (swiotlb-pressure)
    t.file(o + "kmsg", "4,900,104800000,-;swiotlb buffer is full (sz: 524288 bytes), total 32768 (slots), used 32700 (slots)\n"
           "4,901,104900000,-;swiotlb buffer is full (sz: 65536 bytes), total 32768 (slots), used 32700 (slots)\n")
    # sys/block/X/stat at both ends (Documentation/block/stat.rst: fields 1 and 5 are the
    # reads and writes completed, 3 and 7 their sectors): sda did 400 I/Os, nvme0n1 5000
    t.file(o + "traffic-before", "block/sda=100 0 800 0 50 0 400 0 0 0 0 0 0 0 0 0 0\n"
           "block/nvme0n1=1000 0 8000 0 1000 0 8000 0 0 0 0 0 0 0 0 0 0\n")
    t.file(o + "traffic-after", "block/sda=400 0 3200 0 150 0 1200 0 0 0 0 0 0 0 0 0 0\n"
           "block/nvme0n1=4000 0 32000 0 3000 0 24000 0 0 0 0 0 0 0 0 0 0\n")
    return [
        "# a --capture --observe snapshot replays its observation",
        ".observation.window_seconds == 5 and .observation.requested_seconds == 5",
        ".observation.lost_events == 0 and .observation.bad_lines == 1",
        ".observation.pool_peak_used_bytes == 614400 and .observation.pool_peak_exact == true",
        ".observation.buffer_full_messages == 2 and .observation.event_format_known == true",
        "# the window's \"buffer is full\" records raise what the boot log's would: the 64 KiB one",
        "# found the pool 99% used (swiotlb-pressure); the 512 KiB one is over 128 slots (no-slot)",
        "[.findings[] | select(.id == \"swiotlb-pressure\")] | length == 1 and .[0].evidence.window_lines == 1 and .[0].severity == \"warning\"",
        "[.findings[] | select(.id == \"swiotlb-no-slot\" and .device == null)] | length == 1 and .[0].evidence.size == 524288",
        "# the disks' stat deltas: sda 300 reads + 100 writes, nvme0n1 3000 + 2000",
        ".observation.traffic == [{\"name\": \"sda\", \"kind\": \"disk\", \"operations\": 400, \"bytes\": 1638400}, {\"name\": \"nvme0n1\", \"kind\": \"disk\", \"operations\": 5000, \"bytes\": 20480000}]",
        "%s | .observed.io_operations == 400 and .observed.io_bytes == 1638400" % dev("0000:00:1f.2"),
        "%s | .observed.io_operations == 5000" % dev("0000:01:00.0"),
        ".observation.unattributed == [{\"device\": \"0000:09:00.0\", \"bounces\": 1, \"bytes\": 512, \"overflow_messages\": 0}]",
        ".observation.probe == null",
        "%s | .verdict == \"partial\" and .observed.prediction == \"consistent\"" % dev("0000:00:1f.2"),
        "%s | .observed.bounces == 4 and .observed.bytes == 77824 and .observed.forced_bounces == 0" % dev("0000:00:1f.2"),
        "%s | .observed.lowest_addr == \"0x140000000\" and .observed.highest_addr == \"0x5ff00ffff\"" % dev("0000:00:1f.2"),
        "%s | length == 1 and .[0].severity == \"info\"" % finding("bounce-observed", "0000:00:1f.2"),
        "# 4 bounces in 5 s: 0.8 a second, not rounded to 1; nvme's 1 in 5 s is 0.2, not 0",
        "%s | .[0].evidence.bounces_per_second == 0.8" % finding("bounce-observed", "0000:00:1f.2"),
        "%s | .[0].evidence.bounces_per_second == 0.2" % finding("prediction-contradicted", "0000:01:00.0"),
        "%s | .verdict == \"direct\" and .observed.prediction == \"contradicted\"" % dev("0000:01:00.0"),
        "%s | .observed.why | test(\"direct device bounced\")" % dev("0000:01:00.0"),
        "%s | length == 1 and .[0].severity == \"error\"" % finding("prediction-contradicted", "0000:01:00.0"),
        "%s | .[0].evidence.lowest_addr == \"0x2000000\" and .[0].evidence.window_ms == 5000" % finding("prediction-contradicted", "0000:01:00.0"),
        "# the host bridge has no disk and no interface: its traffic cannot be counted",
        "%s | .observed.prediction == \"cannot-tell\" and .observed.io_operations == null" % dev("0000:00:00.0"),
        "# x86-pc-4g's 32-bit AHCI, with 21 GiB above 4 GiB and a pool: partial, bouncing needed",
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        "[.inputs[] | select(.path == \"run/dmamask-audit/observe\")][0].status == \"ok\"",
        ".exit_status == 1",
    ]


def x86_observed_quiet(t):
    """x86-pc-4g captured with --capture --observe=5 (synthetic) while only the
    AHCI disk worked: no bounce in the window. The disks' stat deltas tell a
    busy disk (sda: 650 reads, 340 writes) from an idle one (nvme0n1: none),
    and both from a device with nothing to count (the host bridge).
    Follows: Documentation/block/stat.rst (the stat fields), block/genhd.c
    part_stat_show (the line); the counts are synthetic."""
    x86_pc_4g(t)
    o = "run/dmamask-audit/observe/"
    # --observe-probe sda found no page above the AHCI's 4 GiB among the 512 MiB it allocated
    # (a machine whose free memory lies low): it says so and read nothing
    t.file(o + "window", "requested_seconds=5\nwindow_seconds=5.000\ninterrupted=0\n"
           "lost_events=0\ntracefs=sys/kernel/tracing\nprobe_disk=sda\nprobe_reach_end=0xffffffff\n"
           "probe_bytes=0\nprobe_above_reach_bytes=0\nprobe_allocated_bytes=536870912\n"
           "probe_why=no page of the memory allocated lies above the device's reach: nothing read\n")
    t.file(o + "format", FORMAT_6_1)
    t.file(o + "trace", "# tracer: nop\n#\n")
    t.file(o + "kmsg", "")
    # loop0 is no DMA device's; dm-0's counters went back (removed and made again): left out;
    # an interface's line with three numbers is malformed: left out
    t.file(o + "traffic-before", "block/sda=1000 0 8000 0 500 0 4000 0 0 0 0 0 0 0 0 0 0\n"
           "block/nvme0n1=7 0 56 0 0 0 0 0 0 0 0\n"
           "block/loop0=5 0 40 0 0 0 0 0 0 0 0\n"
           "block/dm-0=900 0 7200 0 0 0 0 0 0 0 0\n"
           "net/eth9=1 2 3\n")
    t.file(o + "traffic-after", "block/sda=1650 0 13200 0 840 0 6720 0 0 0 0 0 0 0 0 0 0\n"
           "block/nvme0n1=7 0 56 0 0 0 0 0 0 0 0\n"
           "block/loop0=9 0 72 0 0 0 0 0 0 0 0\n"
           "block/dm-0=3 0 24 0 0 0 0 0 0 0 0\n"
           "net/eth9=1 2 3\n")
    return [
        "# a --capture --observe snapshot replays the disks' traffic in the window",
        ".observation.traffic == [{\"name\": \"sda\", \"kind\": \"disk\", \"operations\": 990, \"bytes\": 4055040}, {\"name\": \"nvme0n1\", \"kind\": \"disk\", \"operations\": 0, \"bytes\": 0}, {\"name\": \"loop0\", \"kind\": \"disk\", \"operations\": 4, \"bytes\": 16384}]",
        "# sda moved 990 I/Os and nothing bounced: the partial AHCI's buffers lay within reach",
        "%s | .verdict == \"partial\" and .observed.prediction == \"no-bounce\" and .observed.io_operations == 990" % dev("0000:00:1f.2"),
        "%s | .observed.why | test(\"allows but does not test\")" % dev("0000:00:1f.2"),
        "# nvme0n1's counters did not move: no traffic, not merely no bounce",
        "%s | .verdict == \"direct\" and .observed.prediction == \"no-traffic\" and .observed.io_operations == 0" % dev("0000:01:00.0"),
        "# the host bridge has no disk or interface: nothing tells whether it did DMA",
        "%s | .observed.prediction == \"cannot-tell\" and .observed.io_operations == null" % dev("0000:00:00.0"),
        "[.findings[] | select(.id == \"bounce-observed\" or .id == \"prediction-contradicted\")] | length == 0",
        "# the probe's record replays: what it read, above which address, and why nothing",
        ".observation.probe == {\"disk\": \"sda\", \"reach_end\": \"0xffffffff\", \"bytes\": 0, \"above_reach_bytes\": 0, \"allocated_bytes\": 536870912, \"why\": \"no page of the memory allocated lies above the device's reach: nothing read\"}",
        "# x86-pc-4g's 32-bit AHCI, with 21 GiB above 4 GiB and a pool: partial, bouncing needed",
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        ".exit_status == 0",
    ]


VIRT_RAM_END = 0x23fffffff  # 8 GiB at 0x40000000, QEMU virt's RAM base


def arm64_virt(t):
    """QEMU's arm64 "virt" board (-m 8G) with a Debian 6.1 kernel, plus a few
    SoC-style devices (virt-like): every platform/AMBA device gets a default
    DMA mask, but only those with a sign of DMA are judged.
    Follows: QEMU hw/arm/virt.c create_fdt (root compatible "linux,dummy-virt"),
    kernel/dma/swiotlb.c swiotlb_print_info; the SoC-style devices are synthetic."""
    manifest(t, "aarch64", "6.1.0-27-arm64", "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/boot/vmlinuz-6.1.0-27-arm64 root=/dev/mmcblk0p2 ro console=ttyAMA0"
    iomem = """\
09000000-09000fff : pl011@9000000
  09000000-09000fff : 9000000.pl011 pl011@9000000
09010000-09010fff : pl031@9010000
  09010000-09010fff : rtc-pl031
09030000-09030fff : pl061@9030000
  09030000-09030fff : pl061@9030000
09050000-09050fff : mmci@9050000
  09050000-09050fff : mmci-pl18x
09060000-09060fff : dma-controller@9060000
  09060000-09060fff : dma-pl330
09070000-09071fff : ethernet@9070000
09080000-0909ffff : smmuv3@9080000
0a000000-0a0001ff : a000000.virtio_mmio virtio_mmio@a000000
0a000200-0a0003ff : a000200.virtio_mmio virtio_mmio@a000200
10000000-3efeffff : pcie@10000000
  10000000-1007ffff : PCI Bus 0000:00
    10000000-1001ffff : 0000:00:02.0
    10020000-10023fff : 0000:00:03.0
      10020000-10023fff : xhci-hcd
40000000-23fffffff : System RAM
  40210000-4159ffff : Kernel code
  415a0000-4198ffff : reserved
  41990000-41dbffff : Kernel data
  7bfff000-7fffefff : reserved
4010000000-401fffffff : PCI ECAM
"""
    # the PCIe dma-ranges reach CPU 0x7fffffff: zone_dma_bits 31, ZONE_DMA ends at
    # 2 GiB and the swiotlb pool (memblock_alloc_low) lies below it
    zi = zoneinfo([("DMA", 0x40000, 0x40000, 0x40000), ("DMA32", 0x80000, 0x80000, 0x80000),
                   ("Normal", 0x100000, 0x140000, 0x140000), ("Movable", None, 0, 0)])
    mi = "MemTotal:        8111448 kB\nMemFree:         7902104 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, cmd)

    # the devicetree as QEMU writes it (hw/arm/virt.c), plus the virt-like additions
    dt_node(t, "", n_address_cells=[2], n_size_cells=[2], compatible="linux,dummy-virt")
    dt_node(t, "psci", compatible=strings("arm,psci-1.0", "arm,psci-0.2", "arm,psci"),
            method="hvc")
    dt_node(t, "pmu", compatible="arm,armv8-pmuv3", interrupts=[1, 7, 0xf04])
    dt_node(t, "pl011@9000000", compatible=strings("arm,pl011", "arm,primecell"),
            reg=[0x0, 0x09000000, 0x0, 0x1000])
    dt_node(t, "pl031@9010000", compatible=strings("arm,pl031", "arm,primecell"),
            reg=[0x0, 0x09010000, 0x0, 0x1000])
    dt_node(t, "pl061@9030000", compatible=strings("arm,pl061", "arm,primecell"),
            reg=[0x0, 0x09030000, 0x0, 0x1000], n_gpio_cells=[2], gpio_controller=b"",
            phandle=[0x8003])
    dt_node(t, "gpio-keys", compatible="gpio-keys", n_address_cells=[1], n_size_cells=[0])
    dt_node(t, "gpio-keys/poweroff", label="GPIO Key Poweroff", gpios=[0x8003, 3, 0])
    # QEMU marks every virtio-mmio transport dma-coherent, backend or not
    for base in (0x0a000000, 0x0a000200):
        dt_node(t, "virtio_mmio@%x" % base, compatible="virtio,mmio",
                reg=[0x0, base, 0x0, 0x200], dma_coherent=b"")
    # virt-like: an MMC host, a PL330 DMA controller, a MAC, an SMMU (virt,iommu=smmuv3)
    dt_node(t, "mmci@9050000", compatible=strings("arm,pl18x", "arm,primecell"),
            reg=[0x0, 0x09050000, 0x0, 0x1000])
    dt_node(t, "dma-controller@9060000", compatible=strings("arm,pl330", "arm,primecell"),
            reg=[0x0, 0x09060000, 0x0, 0x1000], n_dma_cells=[1], phandle=[0x8010])
    dt_node(t, "ethernet@9070000", compatible="snps,dwmac-4.20a",
            reg=[0x0, 0x09070000, 0x0, 0x2000])
    dt_node(t, "smmuv3@9080000", compatible="arm,smmu-v3", reg=[0x0, 0x09080000, 0x0, 0x20000],
            dma_coherent=b"", n_iommu_cells=[1])
    # virt-like: the PCIe window reaches CPU 0x0-0x7fffffff only
    dt_node(t, "pcie@10000000", compatible="pci-host-ecam-generic", device_type="pci",
            n_address_cells=[3], n_size_cells=[2], dma_coherent=b"",
            reg=[0x40, 0x10000000, 0x0, 0x10000000],
            dma_ranges=[0x02000000, 0x0, 0x0, 0x0, 0x0, 0x0, 0x80000000])

    plat = "sys/devices/platform"
    # no sign of DMA: the default mask is all they have
    platform(t, plat + "/9000000.pl011", "pl011@9000000", "arm,pl011", "uart-pl011", None,
             bus="amba")
    platform(t, plat + "/9010000.pl031", "pl031@9010000", "arm,pl031", "rtc-pl031",
             "rtc_pl031", bus="amba")
    platform(t, plat + "/9030000.pl061", "pl061@9030000", "arm,pl061", "pl061_gpio", None,
             bus="amba")
    platform(t, plat + "/psci", "psci", "arm,psci-1.0")  # no platform driver on arm64
    platform(t, plat + "/pmu", "pmu", "arm,armv8-pmuv3", "armv8-pmu", None)
    platform(t, plat + "/gpio-keys", "gpio-keys", "gpio-keys", "gpio-keys", "gpio_keys")
    # transports without a backend: virtio_mmio_probe() fails (device id 0), no driver
    for base in (0x0a000000, 0x0a000200):
        platform(t, plat + "/%x.virtio_mmio" % base, "virtio_mmio@%x" % base, "virtio,mmio")

    # signs of DMA
    mmc = platform(t, plat + "/9050000.mmci", "mmci@9050000", "arm,pl18x", "mmci-pl18x", None,
                   bus="amba")
    disk(t, mmc + "/mmc_host/mmc0/mmc0:aaaa", "mmcblk0", ["mmcblk0p1", "mmcblk0p2"], (179, 0),
         sectors=16777216, max_sectors_kb=127, max_hw_sectors_kb=127, max_segments=128,
         max_segment_size=65535, dma_alignment=3)
    dma = platform(t, plat + "/9060000.dma", "dma-controller@9060000", "arm,pl330",
                   "dma-pl330", None, bus="amba")
    for ch in ("dma0chan0", "dma0chan1"):
        t.file("%s/dma/%s/in_use" % (dma, ch), "0\n")
        t.link("%s/dma/%s/device" % (dma, ch), dma)
        t.link("sys/class/dma/%s" % ch, "%s/dma/%s" % (dma, ch))
    eth = platform(t, plat + "/9070000.ethernet", "ethernet@9070000", "snps,dwmac-4.20a",
                   "stmmaceth", "stmmac_platform")
    t.file(eth + "/net/eth0/address", "52:54:00:12:34:56\n")
    t.link(eth + "/net/eth0/device", eth)
    t.link("sys/class/net/eth0", eth + "/net/eth0")
    t.file("sys/devices/virtual/net/lo/address", "00:00:00:00:00:00\n")
    t.link("sys/class/net/lo", "sys/devices/virtual/net/lo")
    smmu = platform(t, plat + "/9080000.smmuv3", "smmuv3@9080000", "arm,smmu-v3", "arm-smmu-v3",
                    "arm_smmu_v3")
    # iommu_device_sysfs_add(): the unit hangs under its hardware device
    unit = smmu + "/iommu/smmu3.0x0000000009080000"
    t.link(unit + "/device", smmu)
    t.link("sys/class/iommu/smmu3.0x0000000009080000", unit)

    # PCIe: host bridge, an unbound NIC, a bound xHCI with its root hubs
    pcie = platform(t, plat + "/4010000000.pcie", "pcie@10000000", "pci-host-ecam-generic",
                    "pci-host-generic", None)
    bus = pcie + "/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x1b36, 0x0008, 0x060000, 32, subsys=(0x1af4, 0x1100))
    pci(t, bus, "0000:00:02.0", 0x8086, 0x10d3, 0x020000, 32, subsys=(0x8086, 0x0000))
    xhci = pci(t, bus, "0000:00:03.0", 0x1b36, 0x000d, 0x0c0330, 64, "xhci_hcd", "xhci_pci",
               subsys=(0x1af4, 0x1100))
    for n in (1, 2):
        hub = "%s/usb%d" % (xhci, n)
        t.file(hub + "/busnum", "%d\n" % n)
        t.link("sys/bus/usb/devices/usb%d" % n, hub)
        t.file("%s/%d-0:1.0/bInterfaceClass" % (hub, n), "09\n")
        t.link("sys/bus/usb/devices/%d-0:1.0" % n, "%s/%d-0:1.0" % (hub, n))

    # CONFIG_DMA_API_DEBUG: the mmci's live mappings (6.1 format, N= still there)
    t.file("sys/kernel/debug/dma-api/dump",
           "mmci-pl18x 9050000.mmci scather-gather idx 217 P=11a2b3000 N=11a2b3 "
           "D=11a2b3000 L=1000 cln=0x0000000000468ac0 DMA_FROM_DEVICE dma map error checked\n"
           "xhci_hcd 0000:00:03.0 coherent idx 9 P=4a040000 N=4a040 D=4a040000 L=1000 "
           "cln=0x0000000001281000 DMA_BIDIRECTIONAL dma map error not applicable\n")
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd083]",
        "Linux version 6.1.0-27-arm64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP Debian 6.1.115-1 (2024-11-01)",
        "Machine model: linux,dummy-virt",
        "Zone ranges:",
        "  DMA      [mem 0x0000000040000000-0x000000007fffffff]",
        "  DMA32    [mem 0x0000000080000000-0x00000000ffffffff]",
        "  Normal   [mem 0x0000000100000000-0x000000023fffffff]",
        "software IO TLB: mapped [mem 0x000000007bfff000-0x000000007ffff000] (64MB)",
        ("9000000.pl011: ttyAMA0 at MMIO 0x9000000 (irq = 13, base_baud = 0) is a PL011 rev1",
         ["SUBSYSTEM=amba", "DEVICE=+amba:9000000.pl011"]),
        ("rtc-pl031 9010000.pl031: registered as rtc0",
         ["SUBSYSTEM=amba", "DEVICE=+amba:9010000.pl031"]),
        ("dma-pl330 9060000.dma: Loaded driver for PL330 DMAC-341330",
         ["SUBSYSTEM=amba", "DEVICE=+amba:9060000.dma"]),
    ])
    idle_no_sign = ["9000000.pl011", "9010000.pl031", "9030000.pl061", "pmu", "gpio-keys"]
    idle = idle_no_sign + ["psci", "a000000.virtio_mmio", "a000200.virtio_mmio",
                           "4010000000.pcie", "0000:00:00.0", "0000:00:02.0"]
    checks = [
        "# every platform/AMBA device has a default mask: only a sign of DMA gets it judged",
        ".host.arch == \"aarch64\" and .memory.ram_bytes == 8589934592",
    ]
    for d in idle_no_sign:
        checks += [
            "%s | .verdict == \"idle\" and .reason == \"no sign that it does DMA\"" % dev(d),
            "%s | .dma_signs == [] and .driver != null and .of_node != null" % dev(d),
        ]
    checks += [
        "%s | .verdict == \"idle\" and .driver == null" % dev("psci"),
        "# QEMU's virtio-mmio transports say dma-coherent; without a backend they have no driver",
        "%s | .dma_signs == [\"dma-coherent\"] and .verdict == \"idle\"" % dev("a000000.virtio_mmio"),
        "# no finding of any kind for a device that does no DMA",
        "%s as $idle | [.findings[] | select(.device as $d | $idle | index($d))] | length == 0"
        % json_list(idle),
        "[.devices[] | select(.verdict == \"idle\") | .id] | sort == %s" % json_list(sorted(idle)),
        "# judged: the disk's MMC host (also in the DMA-API debug dump)",
        "%s | .dma_signs == [\"disk\", \"dma-api-debug\"] and .verdict == \"partial\"" % dev("9050000.mmci"),
        "[.block[] | select(.disk == \"mmcblk0\")][0].dma_device == \"9050000.mmci\"",
        "# judged: a DMA-engine controller (sys/class/dma channels, #dma-cells)",
        "%s | .dma_signs == [\"dma-engine\", \"#dma-cells\"] and .verdict == \"partial\"" % dev("9060000.dma"),
        "# judged: a network interface's device; lo (virtual) credits nobody",
        "%s | .dma_signs == [\"net\"] and .verdict == \"partial\"" % dev("9070000.ethernet"),
        "# an IOMMU unit (sys/class/iommu): its own DMA is coherent tables and queues within the",
        "# mask arm-smmu-v3 takes from IDR5.OAS, not the bus default; nothing streams, nothing bounces",
        "%s | .dma_signs == [\"iommu-unit\", \"dma-coherent\"] and .verdict == \"direct\"" % dev("9080000.smmuv3"),
        "%s | .mask_source == \"none\" and .dma_mask == null and .unreachable_ram_bytes == 0"
        % dev("9080000.smmuv3"),
        "# the PCI host bridge forwards DMA: idle whatever its node says",
        "%s | .dma_signs == [\"dma-coherent\"] and .verdict == \"idle\"" % dev("4010000000.pcie"),
        "# PCI: an unbound NIC is idle and its bus-limited mask raises nothing",
        "%s | .verdict == \"idle\" and .driver == null and .bus_limit == \"0x7fffffff\"" % dev("0000:00:02.0"),
        "%s | length == 0" % finding("mask-limited-by-bus", "0000:00:02.0"),
        "# the bound xHCI is judged (PCI needs no sign) and keeps its finding",
        "%s | .dma_signs == [\"usb-host\", \"dma-api-debug\"] and .verdict == \"partial\"" % dev("0000:00:03.0"),
        "%s | length == 1" % finding("mask-limited-by-bus", "0000:00:03.0"),
        "[.findings[] | select(.id == \"bounce-needed\") | .device] | sort == %s"
        % json_list(sorted(["0000:00:03.0", "9050000.mmci", "9060000.dma", "9070000.ethernet"])),
        "[.inputs[] | select(.path == \"sys/class/net\" or .path == \"sys/class/dma\" or .path == \"sys/class/iommu\" or .path == \"sys/bus/usb/devices\" or .path == \"sys/kernel/debug/dma-api/dump\") | .status] == [\"ok\", \"ok\", \"ok\", \"ok\", \"ok\"]",
        "# a warning (bouncing through a pool) is a cost the kernel handles: --fail-on error, the default, passes it",
        ".exit_status == 0",
    ]
    return checks


def json_list(items):
    return "[%s]" % ", ".join('"%s"' % i for i in items)


def arm64_pool_high(t):
    """The RPi4-like board with the swiotlb pool placed above the SoC's 1 GiB
    window, a nearly full pool, and the overflow and full messages in the log.
    Follows: kernel/dma/swiotlb.c swiotlb_print_info and swiotlb_tbl_map_single
    ("swiotlb buffer is full ... (slots)"); the pool's place and use are synthetic."""
    arm64_rpi4(t)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd083]",
        "Linux version 6.6.51+rpt-rpi-v8 (serge@raspberrypi.com) #1 SMP PREEMPT",
        "software IO TLB: mapped [mem 0x00000000f8000000-0x00000000fc000000] (64MB)",
        ("!sdhci-iproc fe340000.mmc: swiotlb buffer is full (sz: 65536 bytes), total 32768 (slots), used 32640 (slots)",
         ["SUBSYSTEM=platform", "DEVICE=+platform:fe340000.mmc"]),
        ("!sdhci-iproc fe340000.mmc: DMA addr 0x0000000140000000+65536 overflow (mask ffffffff, bus limit ffffffff).",
         ["SUBSYSTEM=platform", "DEVICE=+platform:fe340000.mmc"]),
    ])
    d = "sys/kernel/debug/swiotlb"
    t.file(d + "/io_tlb_nslabs", "32768\n")
    t.file(d + "/io_tlb_used", "32640\n")
    t.file(d + "/io_tlb_used_hiwater", "32700\n")
    return [
        "# pool at 0xf8000000: beyond the SoC window (CPU 0-0x3fffffff) of the emmc2",
        ".swiotlb.pool_start == \"0xf8000000\" and .swiotlb.size_bytes == 67108864",
        ".swiotlb.used_bytes == 32640 * 2048 and .swiotlb.hiwater_bytes == 32700 * 2048",
        "%s | .verdict == \"fails\" and .swiotlb_pool_reachable == false" % dev("fe340000.mmc"),
        "%s | length == 1" % finding("swiotlb-out-of-reach", "fe340000.mmc"),
        "%s | .[0].severity == \"error\"" % finding("swiotlb-out-of-reach", "fe340000.mmc"),
        "%s | length >= 1" % finding("swiotlb-pressure"),
        "%s | .[0].evidence.addr == \"0x140000000\"" % finding("dma-overflow-logged", "fe340000.mmc"),
        "# so the emmc2's RAM out of reach has no usable bounce buffer: its mappings fail",
        "%s | length == 1" % finding("bounce-impossible", "fe340000.mmc"),
        "# the VL805's window (CPU 0-0xbfffffff) leaves that pool out too: it fails the same way",
        "%s | .verdict == \"fails\" and .swiotlb_pool_reachable == false" % dev("0000:01:00.0"),
        "%s | length == 1" % finding("bounce-impossible", "0000:01:00.0"),
        "%s | length == 1" % finding("swiotlb-out-of-reach", "0000:01:00.0"),
        "# its bus limit 0x17fffffff is below its 64-bit mask",
        "%s | length == 1" % finding("mask-limited-by-bus", "0000:01:00.0"),
        ".exit_status == 1",
        "# the pool lies past the soc window, and RAM above it: a device bound behind that window later has no pool: no-bounce-pool",
        "%s | length == 1 and .[0].evidence.pool_start == \"0xf8000000\" and .[0].evidence.boundary == \"0x40000000\"" % finding("no-bounce-pool"),
    ]


def arm64_pool_high_7_2(t):
    """The same board and pool on a 7.2 kernel, as the third audit's guest saw it: with
    the pool outside the emmc2's window every mapping fails with "swiotlb buffer is
    full ... used 0 (slots)" and no overflow line; debugfs says the pool was never
    used. A full line with room left is no slot for that device, not pressure.
    Follows: kernel/dma/swiotlb.c swiotlb_tbl_map_single, swiotlb_area_find_slots
    (alignment reckoned from the pool's bus address); the board is arm64-rpi4's."""
    arm64_rpi4(t)
    manifest(t, "aarch64", "7.2.13+deb14-arm64", "2026-12-07T05:00:00Z")
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd083]",
        "Linux version 7.2.13+deb14-arm64 (debian-kernel@lists.debian.org) #1 SMP Debian 7.2.13-1",
        "software IO TLB: mapped [mem 0x00000000f8000000-0x00000000fc000000] (64MB)",
    ] + [("!sdhci-iproc fe340000.mmc: swiotlb buffer is full (sz: 4096 bytes), total 32768 (slots), used 0 (slots)",
          ["SUBSYSTEM=platform", "DEVICE=+platform:fe340000.mmc"])] * 3)
    d = "sys/kernel/debug/swiotlb"
    t.file(d + "/io_tlb_nslabs", "32768\n")
    t.file(d + "/io_tlb_used", "0\n")
    t.file(d + "/io_tlb_used_hiwater", "0\n")
    return [
        "# the pool out of the emmc2's reach: predicted from its place",
        "%s | .verdict == \"fails\" and .swiotlb_pool_reachable == false" % dev("fe340000.mmc"),
        "%s | length == 1 and .[0].severity == \"error\"" % finding("swiotlb-out-of-reach", "fe340000.mmc"),
        "%s | length == 1" % finding("bounce-impossible", "fe340000.mmc"),
        "# three full lines with 0 of 32768 slots used: the search failed, the pool never ran out",
        "%s | length == 0" % finding("swiotlb-pressure"),
        "%s | length == 1 and .[0].severity == \"error\"" % finding("swiotlb-no-slot", "fe340000.mmc"),
        "%s | .[0].evidence.log_lines == 3 and .[0].evidence.size == 4096" % finding("swiotlb-no-slot", "fe340000.mmc"),
        "%s | .[0].evidence.total_slots == 32768 and .[0].evidence.used_slots == 0" % finding("swiotlb-no-slot", "fe340000.mmc"),
        "# the VL805 behind its own window fails the same way, predicted",
        "%s | .verdict == \"fails\" and .swiotlb_pool_reachable == false" % dev("0000:01:00.0"),
        "%s | length == 1" % finding("bounce-impossible", "0000:01:00.0"),
        "%s | length == 1" % finding("swiotlb-out-of-reach", "0000:01:00.0"),
        "%s | length == 1" % finding("mask-limited-by-bus", "0000:01:00.0"),
        "%s | length == 1" % finding("no-bounce-pool"),
        ".exit_status == 1",
    ]


def arm_2012_boardfile(t):
    """The 2013 board as a 3.x board file booted it: no devicetree, no of_node.
    The MMC host is found as its disk's platform-bus ancestor.
    Follows: arm-2013-highmem's report data (the 2013 max_low_pfn report, a
    3.3 ARM board); the dw_mmc.0 platform device is synthetic."""
    manifest(t, "armv7l", "3.3.0", "2013-05-01T00:00:00Z",
             by="hand-written from the 2013 max_low_pfn report, board-file boot")
    proc(t, ARM2013_IOMEM, ARM2013_ZONEINFO, ARM2013_MEMINFO,
         "console=ttySAC2,115200 root=/dev/mmcblk0p2 rootwait")
    mmc = "sys/devices/platform/dw_mmc.0"
    t.file(mmc + "/modalias", "platform:dw_mmc\n")
    t.link(mmc + "/subsystem", "sys/bus/platform")
    t.link("sys/bus/platform/devices/dw_mmc.0", mmc)
    bind(t, "platform", mmc, "dw_mmc.0", "dw_mmc", None)
    disk(t, mmc + "/mmc_host/mmc0/mmc0:0001", "mmcblk0", ["mmcblk0p1", "mmcblk0p2"], (179, 0),
         sectors=15269888, max_sectors_kb=512, max_hw_sectors_kb=512, max_segments=128,
         max_segment_size=65536, dma_alignment=None)
    # the card itself is on the mmc bus: the climb must pass it
    t.file("sys/bus/mmc/drivers_autoprobe", "1\n")
    t.link(mmc + "/mmc_host/mmc0/mmc0:0001/subsystem", "sys/bus/mmc")
    lb = '(%s | .models.legacy_block)' % dev("dw_mmc.0")
    return [
        "# no devicetree: the platform device is found through its disk (subsystem link)",
        "%s | .bus == \"platform\" and .driver == \"dw_mmc\" and .of_node == null" % dev("dw_mmc.0"),
        "%s | .kernel_model == \"legacy-block\" and .verdict == \"partial\"" % dev("dw_mmc.0"),
        "%s | .mask_source == \"none\"" % dev("dw_mmc.0"),
        "%s | .as_count.bounce_bytes == 2147483648" % lb,
        "[.block[] | select(.disk == \"mmcblk0\")][0].dma_device == \"dw_mmc.0\"",
        "%s | length == 1" % finding("pfn-count-confusion"),
        "%s | .[0].severity == \"warning\"" % finding("pfn-count-confusion"),
        "%s | .[0].evidence.unnecessary_bounce_bytes == 194560 * 4096" % finding("pfn-count-confusion"),
        "# no mask on 3.3 (BLK_BOUNCE_HIGH) and max_low_pfn a count (before 26ba47b18318): every RAM page (PFN >= 0x40000) lies above bounce_pfn 0x2f7ff, so the block layer copies each one",
        "%s | length == 1" % finding("bounce-needed", "dw_mmc.0"),
        "# of those 0x80000 pages, read as a PFN (bounce_pfn 0x6f7ff) only 0x6f800-0xbffff (0x50800) would bounce:",
        "# the lowmem pages 0x40000-0x6f7ff, 0x2f800 of them, bounce only because of the count",
        "%s | .count_reading_only_bytes == 194560 * 4096 and .count_reading_missed_bytes == 0" % lb,
        "%s | length == 1 and .[0].severity == \"warning\"" % finding("pfn-count-confusion", "dw_mmc.0"),
        "%s | .[0].evidence.count_reading_only_bytes == 194560 * 4096 and .[0].evidence.bounce_bytes_as_pfn == 329728 * 4096" % finding("pfn-count-confusion", "dw_mmc.0"),
    ]


def arm_2013_highmem(t):
    """The 2013 max_low_pfn report's 32-bit ARM board (a 3.3 kernel):
    2 GiB at 0x40000000, a dw_mmc host with no DMA mask under a count-era 3.3 kernel,
    soc.0 sysfs. Follows: that report for iomem/zoneinfo/meminfo; arch/arm/mm/init.c
    mem_init ("Memory: 2048MB = 2048MB total"); drivers/mmc/host/dw_mmc.c dw_mci_parse_dt
    ("num-slots property not found"). The devicetree nodes and the MMC address are synthetic."""
    manifest(t, "armv7l", "3.3.0", "2013-05-01T00:00:00Z",
             by="hand-written from the 2013 max_low_pfn report")
    proc(t, ARM2013_IOMEM, ARM2013_ZONEINFO, ARM2013_MEMINFO,
         "console=ttySAC2,115200 root=/dev/mmcblk0p2 rootwait")
    dt_node(t, "", n_address_cells=[1], n_size_cells=[1],
            compatible=strings("samsung,exynos4412"))
    dt_node(t, "soc", compatible="simple-bus", n_address_cells=[1], n_size_cells=[1],
            ranges=b"")
    dt_node(t, "soc/mmc@12200000", compatible="samsung,exynos4412-dw-mshc",
            reg=[0x12200000, 0x1000])
    mmc = platform(t, "sys/devices/soc.0/12200000.mmc", "soc/mmc@12200000",
                   "samsung,exynos4412-dw-mshc", "dw_mmc", None, old_modalias=True)
    disk(t, mmc + "/mmc_host/mmc0/mmc0:0001", "mmcblk0", ["mmcblk0p1", "mmcblk0p2"], (179, 0),
         sectors=15269888, max_sectors_kb=512, max_hw_sectors_kb=512, max_segments=128,
         max_segment_size=65536, dma_alignment=None)
    kmsg(t, [
        "Booting Linux on physical CPU 0",
        "Linux version 3.3.0 (build@host) (gcc version 4.6.3) #1 SMP PREEMPT",
        "Memory: 2048MB = 2048MB total",
        "dwmmc_exynos 12200000.mmc: num-slots property not found, assuming 1 slot is available",
    ])
    lb = '(%s | .models.legacy_block)' % dev("12200000.mmc")
    conf = finding("pfn-count-confusion")
    return [
        "# the 2013 max_low_pfn report: 32-bit ARM, RAM 0x40000000-0xbfffffff, lowmem ends at PFN 0x6f800",
        ".memory.source == \"iomem\"",
        ".memory.base_pfn == 262144",
        ".memory.end_pfn == 786432",
        ".memory.lowmem_end_pfn == 456704",
        ".memory.low_page_count == 194560",
        ".memory.max_low_pfn_as_count == 194560",
        ".memory.max_low_pfn_as_pfn == 456704",
        ".memory.highmem_bytes == 329728 * 4096",
        ".memory.ram_bytes == 2147483648",
        ".memory.ram_ranges == [{\"start\": \"0x40000000\", \"end\": \"0xbfffffff\", \"bytes\": 2147483648}]",
        ".host.arch == \"armv7l\" and .host.kernel_release == \"3.3.0\"",
        "# devices (generated by gen-fixtures.py): the dw_mmc host has no DMA mask on 3.3: BLK_BOUNCE_HIGH",
        "%s | .bus == \"platform\" and .driver == \"dw_mmc\"" % dev("12200000.mmc"),
        "%s | .kernel_model == \"legacy-block\"" % dev("12200000.mmc"),
        "%s | .verdict == \"partial\"" % dev("12200000.mmc"),
        "# bounce_pfn = blk_max_low_pfn = 0x2f800 - 1 = 0x2f7ff: every page (PFN >= 0x40000) bounces",
        "%s | .as_count.bounce_pfn == 194559" % lb,
        "%s | .as_count.bounce_bytes == 2147483648" % lb,
        "%s | .as_pfn.bounce_bytes == 329728 * 4096" % lb,
        "%s | .kernel_reading == \"count\"" % lb,
        "[.block[] | select(.disk == \"mmcblk0\")][0].dma_device == \"12200000.mmc\"",
        "[.block[] | select(.disk == \"mmcblk0p1\")] | length == 0",
        "%s | length == 1" % conf,
        "%s | .[0].severity == \"warning\"" % conf,
        "%s | .[0].evidence.unnecessary_bounce_bytes == 194560 * 4096" % conf,
        "%s | .[0].evidence.base_pfn == 262144" % conf,
        "%s | .[0].evidence.max_low_pfn_as_count == 194560" % conf,
        "%s | .[0].evidence.max_low_pfn_as_pfn == 456704" % conf,
        "# every page above that bounce_pfn is copied by the block layer (block/bounce.c): bouncing is needed, 2 GiB of it",
        "%s | length == 1" % finding("bounce-needed", "12200000.mmc"),
        "# what the count costs this queue: read as a PFN, bounce_pfn 0x6f7ff bounces 0x6f800-0xbffff (0x50800 pages);",
        "# the count's 0x40000-0xbffff (0x80000 pages) adds the lowmem 0x40000-0x6f7ff: 0x2f800 pages, 760 MiB",
        "%s | .count_reading_only_bytes == 194560 * 4096 and .count_reading_missed_bytes == 0" % lb,
        "%s | length == 1 and .[0].severity == \"warning\"" % finding("pfn-count-confusion", "12200000.mmc"),
        "%s | .[0].evidence.count_reading_only_bytes == 194560 * 4096 and .[0].evidence.count_reading_missed_bytes == 0" % finding("pfn-count-confusion", "12200000.mmc"),
        "%s | .[0].evidence.bounce_bytes_as_count == 524288 * 4096 and .[0].evidence.bounce_bytes_as_pfn == 329728 * 4096" % finding("pfn-count-confusion", "12200000.mmc"),
        "%s | .[0].evidence.mask_source == \"none (BLK_BOUNCE_HIGH)\"" % finding("pfn-count-confusion", "12200000.mmc"),
    ]


def arm256_board(t, dma_ranges):
    """The 2013 max_low_pfn report's 26-bit device board:
    256 MiB at 0xc0000000, a PL180 MMC, a 3.10 kernel, soc.0 sysfs; dma_ranges adds a
    64 MiB soc window. Follows: drivers/mmc/host/mmci.c mmci_probe ("PL180 manf 41 ...
    (pio)", an AMBA device there, a platform one here) and arch/arm/mm/init.c mem_init
    ("Memory: 256MB = 256MB total"). The vexpress names, addresses and sizes: synthetic."""
    manifest(t, "armv7l", "3.10.0", "2013-05-01T00:00:00Z",
             by="hand-written (the 2013 max_low_pfn report, 26-bit device board)")
    proc(t, ARM256_IOMEM, ARM256_ZONEINFO, ARM256_MEMINFO, "console=ttyAMA0 root=/dev/mmcblk0p1")
    dt_node(t, "", n_address_cells=[1], n_size_cells=[1], compatible=strings("arm,vexpress"))
    soc = dict(n_address_cells=[1], n_size_cells=[1], compatible="simple-bus", ranges=b"")
    if dma_ranges:
        # bus 0x0 -> CPU 0xc0000000, 64 MiB: the device has 26 address lines
        soc["dma_ranges"] = [0x0, 0xc0000000, 0x04000000]
    dt_node(t, "soc", **soc)
    dt_node(t, "soc/mmc@c8000000", compatible="arm,pl18x", reg=[0xc8000000, 0x1000])
    mmc = platform(t, "sys/devices/soc.0/c8000000.mmc", "soc/mmc@c8000000", "arm,pl18x",
                   "mmci-pl18x", None, old_modalias=True)
    disk(t, mmc + "/mmc_host/mmc0/mmc0:0001", "mmcblk0", ["mmcblk0p1"], (179, 0),
         sectors=3842048, max_sectors_kb=127, max_hw_sectors_kb=127, max_segments=128,
         max_segment_size=65535, dma_alignment=None)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0",
        "Linux version 3.10.0 (build@host) (gcc version 4.7.3) #1 SMP",
        "Memory: 256MB = 256MB total",
        "mmci-pl18x c8000000.mmc: mmc0: PL180 manf 41 rev0 at 0xc8000000 irq 41,42 (pio)",
    ])


def arm_256m_26bit(t):
    """arm256_board with its 64 MiB soc dma-ranges and a 26-bit mask given by
    --assume-mask. Follows: as arm256_board; the mask is the 2013 report's."""
    arm256_board(t, dma_ranges=True)
    t_args = "--assume-mask c8000000.mmc=0x03ffffff"
    lb = '(%s | .models.legacy_block)' % dev("c8000000.mmc")
    return t_args, [
        "# the 2013 max_low_pfn report: 26-bit device, 256 MiB at 0xc0000000, count-era kernel (3.10)",
        "%s | .mask_source == \"user\" and .dma_mask == \"0x3ffffff\"" % dev("c8000000.mmc"),
        "%s | .kernel_model == \"legacy-block\"" % dev("c8000000.mmc"),
        "# b_pfn 0x3fff < blk_max_low_pfn 0xffff: the ISA path, every page bounces",
        "%s | .as_count.isa == true" % lb,
        "%s | .as_count.b_pfn == 16383" % lb,
        "%s | .as_count.bounce_bytes == 268435456" % lb,
        "%s | .verdict == \"partial\"" % dev("c8000000.mmc"),
        "%s | .dma_ranges.state == \"ranges\"" % dev("c8000000.mmc"),
        "[.block[] | select(.disk == \"mmcblk0\")][0].dma_device == \"c8000000.mmc\"",
        "[.findings[] | select(.id == \"bounce-missed\")] | length == 0",
        "# all RAM (PFN 0xc0000 up) lies above that b_pfn: the block layer bounces every page, a copy on each I/O",
        "%s | length == 1" % finding("bounce-needed", "c8000000.mmc"),
        "# both readings take the ISA path at b_pfn 0x3fff: the count changes nothing for this queue",
        "%s | .as_pfn.isa == true and .as_pfn.bounce_bytes == 268435456" % lb,
        "%s | .count_reading_only_bytes == 0 and .count_reading_missed_bytes == 0" % lb,
        "[.findings[] | select(.id == \"pfn-count-confusion\" and .device != null)] | length == 0",
        "# no highmem: max_low_pfn == max_pfn under either reading (0x10000 counted, 0xd0000 as PFNs), so",
        "# BLK_BOUNCE_HIGH's bounce_pfn (0xffff, 0xcffff) reaches blk_max_pfn and nothing bounces: it applies, costs nothing",
        "%s | length == 1 and .[0].severity == \"info\"" % finding("pfn-count-confusion"),
        "%s | .[0].evidence.bounce_pfn_as_count == 65535 and .[0].evidence.bounce_pfn_as_pfn == 851967" % finding("pfn-count-confusion"),
        "%s | .[0].evidence.bounce_bytes_as_count == 0 and .[0].evidence.bounce_bytes_as_pfn == 0" % finding("pfn-count-confusion"),
        "%s | .[0].evidence.highmem_bytes == 0 and .[0].evidence.disk_devices == 1" % finding("pfn-count-confusion"),
        "# no swiotlb on a 3.x non-LPAE ARM kernel, and 192 MiB of RAM above the 64 MiB soc window: the next device bound there is handed it unchecked: no-bounce-pool",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 201326592 and .[0].evidence.boundary == \"0xc4000000\"" % finding("no-bounce-pool"),
    ]


def arm_256m_c3ffffff(t):
    """arm256_board without dma-ranges and a 0xc3ffffff mask given by
    --assume-mask. Follows: as arm256_board; the mask is the 2013 report's."""
    arm256_board(t, dma_ranges=False)
    t_args = "--assume-mask c8000000.mmc=0xc3ffffff"
    d = dev("c8000000.mmc")
    lb = '(%s | .models.legacy_block)' % d
    return t_args, [
        "# the 2013 max_low_pfn report: mask 0xc3ffffff on the 256 MiB board at 0xc0000000, count-era kernel",
        "%s | .mask_source == \"user\" and .dma_mask == \"0xc3ffffff\"" % d,
        "# b_pfn 0xc3fff >= blk_max_pfn 0xffff (a count): the early return, nothing bounces",
        "%s | .as_count.early_return == true" % lb,
        "%s | .as_count.bounce_bytes == 0" % lb,
        "# read as PFNs: b_pfn 0xc3fff < blk_max_low_pfn 0xcffff, the ISA path bounces 0xc4000000-0xcfffffff",
        "%s | .as_pfn.isa == true" % lb,
        "%s | .as_pfn.bounce_bytes == 201326592" % lb,
        "# dma-direct: RAM above 0xc3ffffff (192 MiB) is out of reach",
        "%s | .models.dma_direct.unreachable_ram_bytes == 201326592" % d,
        "%s | .unreachable_ram_bytes == 201326592" % d,
        "%s | length == 1" % finding("pfn-count-confusion", "c8000000.mmc"),
        "# the count leaves 0xc4000000-0xcfffffff (0xc000 pages) unbounced, which the PFN reading's ISA path bounces",
        "%s | .count_reading_missed_bytes == 49152 * 4096 and .count_reading_only_bytes == 0" % lb,
        "%s | .[0].evidence.count_reading_missed_bytes == 49152 * 4096 and .[0].evidence.count_reading_only_bytes == 0" % finding("pfn-count-confusion", "c8000000.mmc"),
        "%s | length == 0" % finding("pfn-count-confusion"),
        "%s | length == 1" % finding("bounce-missed", "c8000000.mmc"),
        "%s | .[0].severity == \"error\"" % finding("bounce-missed", "c8000000.mmc"),
        "%s | .[0].evidence.missed_bytes == 201326592" % finding("bounce-missed", "c8000000.mmc"),
        "%s | length == 1" % finding("mask-not-contiguous", "c8000000.mmc"),
        "%s | .verdict == \"fails\"" % d,
        ".exit_status == 1",
    ]


def arm_window_board(t, release, boot_log=()):
    """2 GiB at 0x40000000; the SoC bus reaches its first GiB (dma-ranges); an
    Ethernet MAC (no disk: dma-direct decides, not the block layer). boot_log:
    lines after "Linux version" (the CPU line, the pool).
    Follows: no single board: a synthetic 32-bit SoC (snps,dwmac) with a 1 GiB
    soc dma-ranges window, under Debian 11's 5.10 release line."""
    manifest(t, "armv7l", release, "2026-12-03T08:00:00Z")
    proc(t, ARM2013_IOMEM, ARM2013_ZONEINFO,
         "MemTotal:        2097152 kB\nMemFree:         1000000 kB\nHighTotal:       1318912 kB\n"
         "HighFree:         900000 kB\nLowTotal:         778240 kB\nLowFree:          100000 kB\n",
         "console=ttyS0 root=/dev/nfs")
    dt_node(t, "", n_address_cells=[1], n_size_cells=[1], compatible=strings("vendor,board"))
    dt_node(t, "soc", n_address_cells=[1], n_size_cells=[1], compatible="simple-bus", ranges=b"",
            dma_ranges=[0x40000000, 0x40000000, 0x40000000])
    dt_node(t, "soc/ethernet@12000000", compatible="snps,dwmac", reg=[0x12000000, 0x10000])
    eth = platform(t, "sys/devices/platform/soc/12000000.ethernet", "soc/ethernet@12000000",
                   "snps,dwmac", "stmmaceth", "stmmac_platform")
    t.file(eth + "/net/eth0/address", "52:54:00:12:34:56\n")
    t.link(eth + "/net/eth0/device", eth)
    t.link("sys/class/net/eth0", eth + "/net/eth0")
    kmsg(t, [
        "Booting Linux on physical CPU 0x0",
        "Linux version %s (debian-kernel@lists.debian.org) (gcc-10 (Debian 10.2.1-6) 10.2.1 20210110) #1 SMP Debian" % release,
    ] + list(boot_log) + [
        "stmmaceth 12000000.ethernet: User ID: 0x10, Synopsys ID: 0x37",
    ])


# arm_window_board's RAM is 0x40000000-0xbfffffff: the two readings of max_low_pfn differ
ARM_510_CONFUSION = [
    "# RAM from 0x40000000 on 32-bit ARM: a BLK_BOUNCE_HIGH queue under 5.10's PFN arithmetic (before 5.13) bounces highmem only, read as a count (ARM before v3.13) lowmem too; info, as 5.10 stores PFNs (26ba47b18318)",
    "%s | length == 1 and .[0].severity == \"info\"" % finding("pfn-count-confusion"),
]


def arm_cpu_lines(cr):
    """arch/arm/kernel/setup.c setup_processor() and cacheid_init(): the first
    prints SCTLR (get_cr()), the others start with "CPU: " too."""
    return [
        "CPU: ARMv7 Processor [413fc0f1] revision 1 (ARMv7), cr=%08x" % cr,
        "CPU: div instructions available: patching division code",
        "CPU: PIPT / VIPT nonaliasing data cache, PIPT instruction cache",
    ]


def arm_510_log_nolpae(t):
    """A 5.10 kernel whose release names no flavour: only the boot log's
    cr=10c5387d (SCTLR.AFE, bit 29, clear: proc-v7-2level.S) says it is not
    LPAE, so before 6.0 arm_dma_map_page() maps the GiB beyond the window
    unchecked; no swiotlb (mem_init: CONFIG_ARM_LPAE only), none logged.
    Follows: arch/arm/kernel/setup.c setup_processor ("CPU: %s [%08x] revision
    %d (ARMv%s), cr=%08lx"); the board is arm_window_board's."""
    arm_window_board(t, "5.10.0-32-custom", arm_cpu_lines(0x10c5387d))
    d = dev("12000000.ethernet")
    return [
        "# the release says nothing; SCTLR bit 29 clear in the boot log: 2-level page tables",
        ".kernel.arm_lpae == false and .kernel.arm_cr == \"0x10c5387d\"",
        ".kernel.arm_lpae_why | test(\"kernel log\")",
        ".swiotlb.active == false",
        "# arm_dma_ops before 6.0: no reach check, no swiotlb: the GiB past 0x7fffffff is misdirected",
        "%s | .verdict == \"fails\" and (.reason | test(\"not LPAE\")) and (.reason | test(\"boot log\"))" % d,
        "%s | .unreachable_ram_bytes == 1073741824" % d,
        "%s | length == 1" % finding("bounce-missed", "12000000.ethernet"),
        "%s | length == 0" % finding("bounce-impossible", "12000000.ethernet"),
        "%s | length == 0" % finding("swiotlb-out-of-reach", "12000000.ethernet"),
        "# not LPAE (the boot log's SCTLR), so no swiotlb; 1 GiB past the soc window: no-bounce-pool",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 1073741824 and .[0].evidence.boundary == \"0x80000000\"" % finding("no-bounce-pool"),
    ] + ARM_510_CONFUSION


def arm_510_log_lpae(t):
    """The same board and release with cr=30c5387d (SCTLR.AFE set: only
    proc-v7-3level.S sets it): LPAE, so dma-direct with swiotlb (ad3c7b18c5b3,
    5.3). 5.10.0's mem_init() calls swiotlb_init(1) whatever the RAM (the
    max_pfn > arm_dma_pfn_limit test came with fcf044891c84 in 5.13 and 5.10.69),
    and memblock_alloc_low() puts the pool at the top of lowmem (0x6f800000),
    inside the SoC window: the GiB above it bounces.
    Follows: arch/arm/kernel/setup.c setup_processor and kernel/dma/swiotlb.c
    swiotlb_print_info; the board is arm_window_board's, the pool address synthetic."""
    arm_window_board(t, "5.10.0-32-custom", arm_cpu_lines(0x30c5387d) + [
        "software IO TLB: mapped [mem 0x000000006b800000-0x000000006f800000] (64MB)",
    ])
    d = dev("12000000.ethernet")
    return [
        "# SCTLR bit 29 set in the boot log: LPAE; dma-direct and a pool in lowmem",
        ".kernel.arm_lpae == true and .kernel.arm_cr == \"0x30c5387d\"",
        ".swiotlb.active == true and .swiotlb.pool_start == \"0x6b800000\" and .swiotlb.pool_end == \"0x6f7fffff\"",
        "%s | .bus_limit == \"0x7fffffff\"" % d,
        "# RAM 0x80000000-0xbfffffff is past the window; the pool (below 0x6f800000) is inside it",
        "%s | .verdict == \"partial\" and .swiotlb_pool_reachable == true" % d,
        "%s | .unreachable_ram_bytes == 1073741824" % d,
        "%s | length == 1" % finding("bounce-needed", "12000000.ethernet"),
        "%s | length == 0" % finding("bounce-missed", "12000000.ethernet"),
        "%s | length == 0" % finding("bounce-impossible", "12000000.ethernet"),
    ] + ARM_510_CONFUSION


def arm_510_armmp_window(t):
    """Non-LPAE 5.10 (Debian armmp): arm_dma_map_page() maps the GiB beyond the
    bus window unchecked, no swiotlb: silent corruption, not a failed mapping.
    Follows: arm_window_board's synthetic board."""
    arm_window_board(t, "5.10.0-30-armmp")
    d = dev("12000000.ethernet")
    return [
        "# 32-bit ARM before 6.0 without LPAE: no reach check below the driver",
        "%s | .bus_limit == \"0x7fffffff\"" % d,
        "%s | .verdict == \"fails\" and (.reason | test(\"arm_dma_map_page\"))" % d,
        "%s | .unreachable_ram_bytes == 1073741824" % d,
        "%s | length == 1" % finding("bounce-missed", "12000000.ethernet"),
        "%s | .[0].severity == \"error\"" % finding("bounce-missed", "12000000.ethernet"),
        "%s | length == 0" % finding("bounce-impossible", "12000000.ethernet"),
        "# armmp (no LPAE) 5.10: no swiotlb, 1 GiB of RAM past the 1 GiB soc window: arm_dma_ops hands it to the next device unchecked: no-bounce-pool",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 1073741824 and .[0].evidence.boundary == \"0x80000000\"" % finding("no-bounce-pool"),
        "%s | .[0].message | test(\"unchecked by arm_dma_ops\")" % finding("no-bounce-pool"),
    ] + ARM_510_CONFUSION


def arm_510_lpae_window(t):
    """The same board with Debian's armmp-lpae 5.10: dma-direct refuses the
    mapping (no pool: RAM is below 4 GiB), it does not corrupt.
    Follows: arm_window_board's synthetic board."""
    arm_window_board(t, "5.10.0-30-armmp-lpae")
    d = dev("12000000.ethernet")
    return [
        "# LPAE from 5.3: dma-direct checks reach; without a pool the mapping fails",
        "%s | .verdict == \"fails\" and (.reason | test(\"no swiotlb pool\"))" % d,
        "%s | length == 1" % finding("bounce-impossible", "12000000.ethernet"),
        "%s | length == 0" % finding("bounce-missed", "12000000.ethernet"),
        "# LPAE 5.10 with no pool in a boot log read from the start; 1 GiB past the soc window fails for the next device there: no-bounce-pool",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 1073741824 and .[0].evidence.boundary == \"0x80000000\"" % finding("no-bounce-pool"),
        "%s | .[0].message | test(\"fails every mapping\")" % finding("no-bounce-pool"),
    ] + ARM_510_CONFUSION


def x86_unbound(t):
    """Three QEMU-like PCI functions (i440FX host bridge, e1000, qemu-xhci) with no
    driver bound on 6.1 (QEMU's device IDs): nothing does DMA, nothing is reported.
    Follows: no source; synthetic apart from X86_BOOT and x86-pc-4g's proc files."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    x86_proc(t, "console=ttyS0 root=/dev/vda1")
    bus = "sys/devices/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x8086, 0x1237, 0x060000, 32, subsys=(0x1af4, 0x1100),
        modalias=False)
    pci(t, bus, "0000:00:03.0", 0x8086, 0x100e, 0x020000, 32, subsys=(0x1af4, 0x1100))
    pci(t, bus, "0000:00:04.0", 0x1b36, 0x000d, 0x0c0330, 32, subsys=(0x1af4, 0x1100),
        modalias=False)
    kmsg(t, X86_BOOT + [SWIOTLB_X86])
    return [
        "# three PCI functions, no driver bound to any: no DMA, nothing to warn about",
        "[.devices[] | select(.bus == \"pci\")] | length == 3",
        "[.devices[].verdict] | all(. == \"idle\")",
        "[.devices[].driver] | all(. == null)",
        "%s | .pci_ids.class == \"0200\" and .pci_ids.prog_if == \"00\" and .modalias == null" % dev("0000:00:03.0"),
        "[.findings[] | select(.device != null)] | length == 0",
        ".exit_status == 0",
    ]


# ---------------------------------------------------------------- issue 10.10, 10.11

def x86_sev_nvme_4_19(t):
    """An SEV guest on Debian 10's 4.19: every mapping bounces, and nvme did not cap
    its queue at the swiotlb maximum until 7637de311bd2 (5.3): its 512 KiB
    requests fail with "swiotlb buffer is full" (the bug that commit fixed).
    Follows: arch/x86/mm/mem_encrypt.c mem_encrypt_init's 4.x line ("AMD Secure
    Encrypted Virtualization (SEV) active"), drivers/pci/probe.c pci_setup_device. The
    short "swiotlb buffer is full" form is not checked here; addresses are synthetic."""
    manifest(t, "x86_64", "4.19.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/boot/vmlinuz-4.19.0-27-amd64 root=/dev/vda1 ro console=ttyS0"
    x86_guest_proc(t, cmd)
    bus = "sys/devices/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x8086, 0x29c0, 0x060000, 32)
    # virtio-blk without VIRTIO_F_ACCESS_PLATFORM: no DMA API, so a 4 GiB segment is harmless
    blk = pci(t, bus, "0000:00:02.0", 0x1af4, 0x1001, 0x010000, 64, "virtio-pci", "virtio_pci")
    virtio_features(t, blk + "/virtio1", False)
    disk(t, blk + "/virtio1", "vda", ["vda1"], (254, 0), sectors=41943040,
         max_segments=254, max_segment_size=4294967295, dma_alignment=None)
    # QEMU nvme, MDTS 7: 512 KiB requests in 4 GiB segments
    nvme = pci(t, bus, "0000:00:04.0", 0x1b36, 0x0010, 0x010802, 64, "nvme", "nvme",
               subsys=(0x1af4, 0x1100))
    disk(t, nvme + "/nvme/nvme0", "nvme0n1", [], (259, 0), sectors=20971520,
         max_sectors_kb=512, max_hw_sectors_kb=512, max_segments=127,
         max_segment_size=4294967295, dma_alignment=None, glue=False)
    # an nvme whose MDTS 5 keeps it at 128 KiB: below the swiotlb maximum
    nvme1 = pci(t, bus, "0000:00:05.0", 0x1b36, 0x0010, 0x010802, 64, "nvme", "nvme",
                subsys=(0x1af4, 0x1100))
    disk(t, nvme1 + "/nvme/nvme1", "nvme1n1", [], (259, 1), sectors=20971520,
         max_sectors_kb=128, max_hw_sectors_kb=128, max_segments=33,
         max_segment_size=4294967295, dma_alignment=None, glue=False)
    kmsg(t, [
        "Linux version 4.19.0-27-amd64 (debian-kernel@lists.debian.org) (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP Debian 4.19.316-1 (2024-06-25)",
        "Command line: " + cmd,
        "AMD Secure Encrypted Virtualization (SEV) active",
        "software IO TLB: mapped [mem 0x7bfdc000-0x7ffdc000] (64MB)",
        dev_line("0000:00:04.0", "[1b36:0010] type 00 class 0x010802"),
        # 4.19's form, before 5.1 added the slot counts
        ("!nvme 0000:00:04.0: swiotlb buffer is full (sz: 524288 bytes)",
         ["SUBSYSTEM=pci", "DEVICE=+pci:0000:00:04.0"]),
    ])
    return [
        "# SEV on 4.19: forced bouncing, 256 KiB per bounce, exact (no min_align_mask before 5.12)",
        ".swiotlb.forced == true",
        ".swiotlb.forced_why | test(\"SEV\")",
        "# an SEV guest forces every mapping through swiotlb (mem_encrypt_init, 4.15+): machine-wide",
        "%s | length == 1" % finding("forced-bounce"),
        "%s | .verdict == \"forced\"" % dev("0000:00:04.0"),
        "%s | length == 1" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].severity == \"error\"" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.disk == \"nvme0n1\"" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.segment_bytes == 524288" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.max_segment_size == 4294967295 and .[0].evidence.max_hw_sectors_kb == 512" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.swiotlb_max_mapping_bytes == 262144" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.swiotlb_max_mapping | startswith(\"exact\")" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.disks == null" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].message | test(\"nvme0n1\")" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "# the 128 KiB nvme fits in one bounce",
        "%s | .verdict == \"forced\"" % dev("0000:00:05.0"),
        "%s | length == 0" % finding("bounce-mapping-too-large", "0000:00:05.0"),
        "# virtio-blk without ACCESS_PLATFORM bounces nothing: its 4 GiB segments are fine",
        "%s | .verdict == \"direct\"" % dev("0000:00:02.0"),
        "%s | length == 0" % finding("bounce-mapping-too-large", "0000:00:02.0"),
        "[.findings[] | select(.id == \"bounce-mapping-too-large\")] | length == 1",
        "# the failure the log shows: 512 KiB is over the 128 slots any pool holds at once,",
        "# so it is no slot for the nvme, not a full pool (a larger pool would not help)",
        "%s | length == 0" % finding("swiotlb-pressure"),
        "%s | length == 1 and .[0].severity == \"error\"" % finding("swiotlb-no-slot", "0000:00:04.0"),
        "%s | .[0].evidence.log_lines == 1 and .[0].evidence.size == 524288 and .[0].evidence.used_slots == null" % finding("swiotlb-no-slot", "0000:00:04.0"),
        ".exit_status == 1",
    ]


def x86_swiotlb_dynamic(t):
    """Debian 13's 6.12 with CONFIG_SWIOTLB_DYNAMIC: the pool has grown by a
    second pool and holds transient ones; a 30-bit wireless card logged that
    the pool is beyond its reach; a 32-bit device whose driver does not cap
    its queue sends 1 MiB segments, which no pool, dynamic or not, holds.
    Follows: kernel/dma/swiotlb.c swiotlb_map ("swiotlb addr ... overflow (mask
    ..., bus limit ...)", dev_WARN_ONCE) and swiotlb_tbl_map_single ("swiotlb buffer is
    full"). Devices, drivers and slot counts are synthetic."""
    release = "6.12.38+deb13-amd64"
    manifest(t, "x86_64", release, "2026-12-03T08:00:00Z")
    cmd = "BOOT_IMAGE=/boot/vmlinuz-%s root=/dev/nvme0n1p1 ro quiet" % release
    x86_proc(t, cmd)
    x86_pc_devices(t)
    bus = "sys/devices/pci0000:00"
    # sdhci-pci with SDMA only: sdhci_setup_host caps max_req_size at
    # dma_max_mapping_size() (256 KiB while it bounces)
    sd = pci(t, bus, "0000:00:03.0", 0x1217, 0x8621, 0x080501, 32, "sdhci-pci", "sdhci_pci",
             subsys=(0x1217, 0x8621))
    disk(t, sd + "/mmc_host/mmc0/mmc0:0001", "mmcblk0", [], (179, 0), sectors=62333952,
         max_sectors_kb=256, max_hw_sectors_kb=256, max_segments=1,
         max_segment_size=262144, dma_alignment=511)
    # an out-of-tree block driver (32-bit DMA) that sets 1 MiB segments and never
    # asks dma_max_mapping_size(): the rule needs no driver list, the limits show it
    raid = pci(t, bus, "0000:00:04.0", 0x1000, 0x0060, 0x010400, 32, "oot_raid", "oot_raid",
               subsys=(0x1000, 0x1006))
    disk(t, raid, "oraid0", [], (252, 0), sectors=1953525168, max_sectors_kb=1024,
         max_hw_sectors_kb=1024, max_segments=64, max_segment_size=1048576)
    # b43 sets a 30-bit mask: the pool at 0xbbfe8000 is beyond it
    pci(t, bus, "0000:00:05.0", 0x14e4, 0x4318, 0x028000, 30, "b43-pci-bridge", "ssb",
        subsys=(0x14e4, 0x0449))
    # a 64-bit nvme with 4 MiB requests: direct, no bounce, no limit
    nv = pci(t, bus, "0000:00:06.0", 0x144d, 0xa80a, 0x010802, 64, "nvme", "nvme",
             subsys=(0x144d, 0xa801))
    disk(t, nv + "/nvme/nvme1", "nvme1n1", [], (259, 2), sectors=1000215216,
         max_sectors_kb=1280, max_hw_sectors_kb=4096, max_segments=127,
         max_segment_size=4294967295, dma_alignment=3, glue=False)
    d = "sys/kernel/debug/swiotlb"
    t.file(d + "/io_tlb_nslabs", "49152\n")  # 32768 at boot, plus a pool swiotlb_dyn_alloc added
    t.file(d + "/io_tlb_used", "1024\n")
    t.file(d + "/io_tlb_used_hiwater", "48000\n")
    t.file(d + "/io_tlb_transient_nslabs", "512\n")
    kmsg(t, X86_BOOT + [
        "Command line: " + cmd,
        SWIOTLB_X86,
        "!------------[ cut here ]------------",
        # kernel/dma/swiotlb.c swiotlb_map, dev_WARN_ONCE: no DEVICE= dictionary
        "!b43-pci-bridge 0000:00:05.0: swiotlb addr 0x00000000bbfe8000+1538 overflow (mask 3fffffff, bus limit 0).",
        "!WARNING: CPU: 2 PID: 811 at kernel/dma/swiotlb.c:1601 swiotlb_map+0x3a1/0x3d0",
        # a record cut short: counted as malformed, attributed to nobody
        "!b43-pci-bridge 0000:00:05.0: swiotlb addr 0x00000000bbfe8800+ overflow (mask 3fff",
        ("!oot_raid 0000:00:04.0: swiotlb buffer is full (sz: 1048576 bytes), total 49152 (slots), used 1024 (slots)",
         ["SUBSYSTEM=pci", "DEVICE=+pci:0000:00:04.0"]),
        # the SD host's 64 KiB when the pool (and a transient one) could not be had
        ("!sdhci-pci 0000:00:03.0: swiotlb buffer is full (sz: 65536 bytes), total 49152 (slots), used 48000 (slots)",
         ["SUBSYSTEM=pci", "DEVICE=+pci:0000:00:03.0"]),
    ])
    return [
        "# dynamic swiotlb: a full pool grows, so the high-water mark is info",
        "%s | length == 2" % finding("swiotlb-pressure"),
        "[%s[] | select(.evidence.peak_used_bytes != null)] | .[0].severity == \"info\" and .[0].evidence.dynamic == true" % finding("swiotlb-pressure"),
        "[%s[] | select(.evidence.peak_used_bytes != null)] | .[0].evidence.transient_bytes == 512 * 2048" % finding("swiotlb-pressure"),
        "[%s[] | select(.evidence.peak_used_bytes != null)] | .[0].message | test(\"grows\")" % finding("swiotlb-pressure"),
        "# ... but a logged full pool is still a failure, dynamic or not",
        "[%s[] | select(.evidence.log_lines != null)] | .[0].severity == \"warning\" and .[0].evidence.dynamic == true" % finding("swiotlb-pressure"),
        "# counting the SD host's line (48000 of 49152 used), not the 1 MiB one: no pool holds",
        "# 512 slots at once, so that is no slot for the RAID, with room left in the pool",
        "[%s[] | select(.evidence.log_lines != null)] | .[0].evidence.log_lines == 1" % finding("swiotlb-pressure"),
        "%s | length == 1 and .[0].evidence.size == 1048576 and .[0].evidence.used_slots == 1024 and .[0].evidence.total_slots == 49152" % finding("swiotlb-no-slot", "0000:00:04.0"),
        "# the pool out of the 30-bit card's reach: predicted, and proved by the log",
        "%s | .verdict == \"fails\" and .swiotlb_pool_reachable == false" % dev("0000:00:05.0"),
        "%s | .dma_signs == [\"kernel-log\"]" % dev("0000:00:05.0"),
        "%s | length == 1" % finding("swiotlb-out-of-reach", "0000:00:05.0"),
        "%s | .[0].severity == \"error\"" % finding("swiotlb-out-of-reach", "0000:00:05.0"),
        "%s | .[0].evidence.pool_start == \"0xbbfe8000\" and .[0].evidence.limit == \"0x3fffffff\"" % finding("swiotlb-out-of-reach", "0000:00:05.0"),
        "%s | .[0].evidence.addr == \"0xbbfe8000\" and .[0].evidence.size == 1538" % finding("swiotlb-out-of-reach", "0000:00:05.0"),
        "%s | .[0].evidence.mask == \"0x3fffffff\" and .[0].evidence.bus_limit == \"0x0\" and .[0].evidence.log_lines == 1" % finding("swiotlb-out-of-reach", "0000:00:05.0"),
        "[.findings[] | select(.id == \"swiotlb-out-of-reach\")] | length == 1",
        "[.inputs[] | select(.path == \"dev/kmsg\")][0].detail == \"1 malformed record skipped\"",
        "# 1 MiB segments of a bouncing device: too large for any bounce",
        "%s | .verdict == \"partial\"" % dev("0000:00:04.0"),
        "%s | length == 1" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.disk == \"oraid0\" and .[0].evidence.segment_bytes == 1048576" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.swiotlb_max_mapping_bytes == 262144" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "%s | .[0].evidence.swiotlb_max_mapping | startswith(\"upper bound\")" % finding("bounce-mapping-too-large", "0000:00:04.0"),
        "# bouncing, but capped (sdhci) or within 64 KiB segments (ahci): no finding",
        "%s | .verdict == \"partial\"" % dev("0000:00:03.0"),
        "%s | length == 0" % finding("bounce-mapping-too-large", "0000:00:03.0"),
        "%s | .verdict == \"partial\"" % dev("0000:00:1f.2"),
        "%s | length == 0" % finding("bounce-mapping-too-large", "0000:00:1f.2"),
        "# direct with 4 GiB segments: nothing bounces, no finding",
        "%s | .verdict == \"direct\"" % dev("0000:00:06.0"),
        "[.findings[] | select(.id == \"bounce-mapping-too-large\")] | length == 1",
        "# the three 32-bit devices bounce the 21 GiB above 4 GiB through the pool at 0xbbfe8000, below it",
        "%s | length == 1" % finding("bounce-needed", "0000:00:03.0"),
        "%s | length == 1" % finding("bounce-needed", "0000:00:04.0"),
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        "# the 30-bit card: RAM past 1 GiB out of reach, and the pool too: no usable bounce buffer",
        "%s | length == 1" % finding("bounce-impossible", "0000:00:05.0"),
        "# x86-pc-4g's 64-bit NVMe reaches all RAM",
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        ".exit_status == 1",
    ]



# ---------------------------------------------------------------- issue 10: untrusted, old IOMMU, pools

X86_3G_IOMEM = """\
00000000-00000fff : Reserved
00001000-0009fbff : System RAM
0009fc00-000fffff : Reserved
00100000-bfffffff : System RAM
  01000000-02269a87 : Kernel code
c0000000-febfffff : PCI Bus 0000:00
fec00000-fec003ff : IOAPIC 0
"""

X86_3G_ZONEINFO = zoneinfo([("DMA", 1, 4095, 3998), ("DMA32", 4096, 782336, 782336),
                            ("Normal", None, 0, 0), ("Movable", None, 0, 0)])

X86_3G_MEMINFO = "MemTotal:        3080000 kB\nMemFree:         2900000 kB\nBounce:                0 kB\n"


def x86_sev_nvme_256k(t, release):
    """An SEV guest whose QEMU nvme (MDTS 6) allows 256 KiB: exactly
    dma_max_mapping_size() before 5.19. In 5.12-5.18 (and stable 5.10.35+,
    5.11.19+, which took the series) nvme's min_align_mask
    (4095) keeps a segment's offset in the bounce slots, so a 256 KiB segment
    not on a 2 KiB boundary needs 129 slots and fails; before 5.12 it fits.
    Follows: arch/x86/mm/mem_encrypt.c print_mem_encrypt_feature_info's "AMD
    Memory Encryption Features active: SEV" form, swiotlb_print_info; the rest synthetic."""
    manifest(t, "x86_64", release, "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1 ro console=ttyS0"
    x86_guest_proc(t, cmd)
    bus = "sys/devices/pci0000:00"
    pci(t, bus, "0000:00:00.0", 0x8086, 0x29c0, 0x060000, 32)
    nvme = pci(t, bus, "0000:00:04.0", 0x1b36, 0x0010, 0x010802, 64, "nvme", "nvme",
               subsys=(0x1af4, 0x1100))
    disk(t, nvme + "/nvme/nvme0", "nvme0n1", ["nvme0n1p1"], (259, 0), sectors=20971520,
         max_sectors_kb=256, max_hw_sectors_kb=256, max_segments=65,
         max_segment_size=4294967295, dma_alignment=None, glue=False)
    kmsg(t, ["AMD Memory Encryption Features active: SEV",
             "software IO TLB: mapped [mem 0x000000007bfdc000-0x000000007ffdc000] (64MB)"],
         first_seq=800)
    f = finding("bounce-mapping-too-large", "0000:00:04.0")
    sev = ["# an SEV guest forces every mapping through swiotlb: machine-wide",
           "%s | length == 1" % finding("forced-bounce")]
    v = tuple(int(x) for x in release.split("-")[0].split("."))
    # 1f221a0d0dbf: 5.12, stable 5.10.35 and 5.11.19 (5.4.y declined)
    if v < (5, 10, 35) or (5, 11) <= v < (5, 11, 19):
        return ["# no min_align_mask: a whole 256 KiB segment fits one mapping",
                "%s | .verdict == \"forced\"" % dev("0000:00:04.0"), "%s | length == 0" % f] + sev
    return sev + [
        "%s | .verdict == \"forced\"" % dev("0000:00:04.0"),
        "%s | length == 1 and (.[0].message | test(\"min_align_mask\"))" % f,
        "%s | .[0].evidence.segment_bytes == 262144" % f,
    ]


def x86_thunderbolt_era(t, release, panics):
    """x86-thunderbolt-3g (no pool) on older kernels: swiotlb_tbl_map_single()
    panics where it tests for the missing pool (5.13-5.14: io_tlb_default_mem
    NULL; 5.15.61+ and 5.18.18+: !mem->nslabs, c51ba246cb17) and finds no slot
    elsewhere (5.15.0-5.15.60, 5.16-5.17, 5.18.0-5.18.17).
    Follows: x86-thunderbolt-3g's tree with the release changed."""
    x86_thunderbolt(t, False)
    manifest(t, "x86_64", release, "2026-12-03T08:00:00Z")
    f = finding("untrusted-bounce-impossible", "0000:2c:00.0")
    return [
        "# every group's domain is translated (DMA-FQ, DMA): iommu",
        "%s | .verdict == \"iommu\"" % dev("0000:00:1f.2"),
        "%s | .verdict == \"iommu\"" % dev("0000:01:00.0"),
        "%s | .verdict == \"iommu\"" % dev("0000:2c:00.0"),
        "%s | length == 1" % f,
        "%s | .[0].evidence.without_pool == \"%s\"" % (f, "panic" if panics else "fails"),
    ]


def x86_thunderbolt(t, pool):
    """An Intel laptop on 6.1 with a Thunderbolt NVMe below an external-facing
    root port: set_pcie_untrusted() and pci_set_removable() mark it, sysfs
    shows "removable", its group gets a strict DMA domain (no DMA-FQ).
    pool: RAM above 4 GiB and the swiotlb pool logged; else 3 GiB of RAM and
    a log from boot without one (pci_swiotlb_detect: no pool at or below 4 GiB).
    Follows: drivers/pci/probe.c set_pcie_untrusted and pci_set_removable; the
    DMAR and iommu-group lines as x86-iommu-dmafq's. Device IDs are synthetic."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1 intel_iommu=on"
    if pool:
        x86_proc(t, cmd)
    else:
        proc(t, X86_3G_IOMEM, X86_3G_ZONEINFO, X86_3G_MEMINFO, cmd)
    t.file("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
           "address sizes\t: 39 bits physical, 48 bits virtual\n\n")
    x86_pc_devices(t, groups=True)
    bus = "sys/devices/pci0000:00"
    port = pci(t, bus, "0000:00:07.0", 0x8086, 0x9a23, 0x060400, 32, "pcieport", None,
               subsys=(0x8086, 0x0000), group=(3, "DMA"))
    tb = pci(t, port, "0000:2c:00.0", 0x144d, 0xa80a, 0x010802, 64, "nvme", "nvme",
             subsys=(0x144d, 0xa801), group=(4, "DMA"))
    # drivers/pci/probe.c pci_set_removable: the function below the port, not the port
    t.file(tb + "/removable", "removable\n")
    disk(t, tb + "/nvme/nvme1", "nvme1n1", [], (259, 2), sectors=1000215216,
         max_sectors_kb=128, max_hw_sectors_kb=128, max_segments=33,
         max_segment_size=4294967295, dma_alignment=3, glue=False)
    boot = X86_BOOT[:2] + ["Command line: " + cmd, "DMAR: IOMMU enabled",
                           "DMAR: Intel(R) Virtualization Technology for Directed I/O"]
    kmsg(t, boot + ([SWIOTLB_X86] if pool else []) + [
        dev_line("0000:2c:00.0", "Adding to iommu group 4"),
    ])
    checks = [
        "# an untrusted (removable) Thunderbolt NVMe in a strict DMA domain: translated, but",
        "# iommu_dma_map_page() bounces its unaligned buffers through swiotlb (5.11+)",
        "%s | .removable == true and .iommu_domain == \"DMA\"" % dev("0000:2c:00.0"),
        "%s | .verdict == \"iommu\" and (.reason | test(\"untrusted\"))" % dev("0000:2c:00.0"),
        "%s | .unreachable_ram_bytes == 0" % dev("0000:2c:00.0"),
        "%s | .removable == false and .verdict == \"iommu\"" % dev("0000:01:00.0"),
        "%s | (.reason | test(\"untrusted\")) | not" % dev("0000:01:00.0"),
        "%s | length == 0" % finding("untrusted-bounce", "0000:01:00.0"),
        "# a device outside an IOMMU group is not read for it",
        "[.devices[] | select(.iommu_group == null) | .removable] | all(. == null)",
    ]
    if pool:
        return checks + [
            ".swiotlb.active == true",
            "# the AHCI's group is DMA-FQ: translated, whatever its 32-bit mask",
            "%s | .verdict == \"iommu\"" % dev("0000:00:1f.2"),
            "%s | length == 1 and .[0].severity == \"info\"" % finding("untrusted-bounce", "0000:2c:00.0"),
            "%s | .[0].evidence.swiotlb == \"active\" and .[0].evidence.iommu_domain == \"DMA\"" % finding("untrusted-bounce", "0000:2c:00.0"),
            "%s | length == 0" % finding("untrusted-bounce-impossible", "0000:2c:00.0"),
            ".exit_status == 0",
        ]
    return checks + [
        ".swiotlb.active == false",
        "%s | length == 1 and .[0].severity == \"error\"" % finding("untrusted-bounce-impossible", "0000:2c:00.0"),
        "%s | .[0].message | test(\"DMA bounce buffers are inactive\")" % finding("untrusted-bounce-impossible", "0000:2c:00.0"),
        "%s | .[0].evidence.swiotlb == \"absent\"" % finding("untrusted-bounce-impossible", "0000:2c:00.0"),
        "%s | length == 0" % finding("untrusted-bounce", "0000:2c:00.0"),
        "# the 32-bit AHCI reaches all 3 GiB: nothing else to say",
        "%s | .verdict == \"iommu\"" % dev("0000:00:1f.2"),
        ".exit_status == 1",
    ]


def old_iommu_groups(t, kind):
    """x86-pc-4g's devices in IOMMU groups whose type file is absent (kind None,
    before 4.19) or reads kind ("unknown": Intel before 5.3)."""
    x86_pc_devices(t, groups=False)
    funcs = [("0000:00:00.0", 0), ("0000:00:1f.2", 1), ("0000:00:1c.0", 2), ("0000:01:00.0", 2)]
    for bdf, group in funcs:
        path = "sys/devices/pci0000:00/" + ("0000:00:1c.0/" if bdf == "0000:01:00.0" else "") + bdf
        g = "sys/kernel/iommu_groups/%d" % group
        if kind:
            t.file("%s/type" % g, kind + "\n")
        t.link("%s/devices/%s" % (g, bdf), path)
        t.link("%s/iommu_group" % path, g)


def x86_intel_414_iommu(t):
    """Intel VT-d on 4.14: groups but no type file (c52c72d3dee81, 4.19); no
    iommu=pt, so intel_dma_ops translate every device.
    Follows: drivers/iommu/intel-iommu.c intel_iommu_init ("Intel(R)
    Virtualization Technology for Directed I/O"); x86-pc-4g's devices."""
    manifest(t, "x86_64", "4.14.0-3-amd64", "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1 intel_iommu=on"
    x86_proc(t, cmd)
    old_iommu_groups(t, None)
    kmsg(t, ["Linux version 4.14.0-3-amd64 (debian-kernel@lists.debian.org) (gcc version 7.2.0 (Debian 7.2.0-18)) #1 SMP Debian 4.14.13-1 (2018-01-14)",
             "Command line: " + cmd, "DMAR: IOMMU enabled",
             "DMAR: Intel(R) Virtualization Technology for Directed I/O"])
    return [
        "# no type file before 4.19: groups mean the IOMMU is on, no passthrough: translated",
        "%s | .iommu_group == 1 and .iommu_domain == null" % dev("0000:00:1f.2"),
        "%s | .verdict == \"iommu\" and (.reason | test(\"no domain type\"))" % dev("0000:00:1f.2"),
        "%s | .verdict == \"iommu\"" % dev("0000:01:00.0"),
        "[.findings[] | select(.id == \"bounce-needed\")] | length == 0",
        ".exit_status == 0",
    ]


def x86_intel_419_pt(t):
    """Intel VT-d on 4.19 with iommu=pt: the group type reads "unknown" (no
    default domain before 5.3); iommu_no_mapping() takes the 32-bit AHCI (mask
    below dma_get_required_mask()) out of the identity map ("32bit ... uses
    non-identity mapping"); the 64-bit NVMe stays identity: dma-direct.
    Follows: drivers/iommu/intel-iommu.c intel_iommu_init and iommu_no_mapping
    ("32bit %s uses non-identity mapping"); x86-pc-4g's devices."""
    manifest(t, "x86_64", "4.19.0-27-amd64", "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1 intel_iommu=on iommu=pt"
    x86_proc(t, cmd)
    old_iommu_groups(t, "unknown")
    kmsg(t, ["Linux version 4.19.0-27-amd64 (debian-kernel@lists.debian.org) (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP Debian 4.19.316-1 (2024-06-25)",
             "Command line: " + cmd, "DMAR: IOMMU enabled",
             "DMAR: Intel(R) Virtualization Technology for Directed I/O",
             "DMAR: 32bit 0000:00:1f.2 uses non-identity mapping"])
    return [
        "# Intel passthrough before 5.8: a small mask leaves the identity map",
        "%s | .iommu_domain == \"unknown\"" % dev("0000:00:1f.2"),
        "%s | .verdict == \"iommu\" and (.reason | test(\"Intel\"))" % dev("0000:00:1f.2"),
        "# no removable file before 5.14 (c037b6c818c3): its absence says nothing of the port",
        "%s | .removable == null" % dev("0000:01:00.0"),
        "%s | .unreachable_ram_bytes == 0" % dev("0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "[.findings[] | select(.id == \"bounce-needed\")] | length == 0",
        ".exit_status == 0",
        "# Intel VT-d before 5.15 frees the pool, and the identity-mapped NVMe shows the next device may be untranslated: 21 GiB above 4 GiB, no-bounce-pool",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 22548578304 and .[0].evidence.boundary == \"0x100000000\"" % finding("no-bounce-pool"),
    ]


def x86_amd_414_pt(t):
    """AMD-Vi on 4.14 with iommu=pt, no type file: amd_iommu_add_device()
    direct-maps every device and has no small-mask fallback, so the 32-bit
    AHCI is dma-direct and bounces RAM above 4 GiB (the pool is kept with pt).
    The log names no IOMMU (rotated): the CPU vendor tells AMD-Vi.
    Follows: x86-pc-4g's devices and pool line; the rotated log is synthetic."""
    manifest(t, "x86_64", "4.14.0-3-amd64", "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1 iommu=pt"
    x86_proc(t, cmd)
    t.file("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
           "address sizes\t: 48 bits physical, 48 bits virtual\n\n")
    old_iommu_groups(t, None)
    kmsg(t, [SWIOTLB_X86], first_seq=4000)
    return [
        "# AMD passthrough: identity is dma-direct whatever the mask",
        "%s | .verdict == \"partial\"" % dev("0000:00:1f.2"),
        "%s | .unreachable_ram_bytes == %d" % (dev("0000:00:1f.2"), X86_ABOVE_4G),
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "# bounce-needed is a warning: --fail-on error, the default, passes it",
        ".exit_status == 0",
    ]


def x86_pt_vendor_unknown(t):
    """x86-amd-4.14-pt with neither the log nor cpuinfo naming the IOMMU: Intel
    would translate the 32-bit AHCI, AMD would bounce: unknown, said so.
    Follows: x86-amd-4.14-pt's tree."""
    manifest(t, "x86_64", "4.14.0-3-amd64", "2026-12-03T08:00:00Z")
    cmd = "root=/dev/nvme0n1p1 iommu=pt"
    x86_proc(t, cmd)
    old_iommu_groups(t, None)
    kmsg(t, [SWIOTLB_X86], first_seq=4000)
    return [
        "%s | .verdict == \"unknown\" and (.reason | test(\"which IOMMU\"))" % dev("0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "# unknown: which IOMMU driver runs is unknown; the boot log or config would say: verdict-unknown, kernel-build",
        "%s | length == 1 and .[0].severity == \"warning\" and .[0].evidence.missing == \"kernel-build\"" % finding("verdict-unknown", "0000:00:1f.2"),
    ]

X86_MEMTOTAL_KB = int(X86_MEMINFO.split("MemTotal:", 1)[1].split()[0])


def x86_memory_inputs_disagree(t):
    """x86-pc-4g whose proc/iomem lacks the System RAM above 4 GiB, beside its
    zoneinfo (zones to PFN 0x640000) and MemTotal (23.5 GiB): the three files
    cannot all be right, so the tool must not judge from iomem alone (which would
    call the 32-bit AHCI direct).
    Follows: x86-pc-4g's tree; the iomem without its last RAM line is synthetic."""
    x86_pc_4g(t)
    t.file("proc/iomem", X86_IOMEM.replace("100000000-63fffffff : System RAM\n", ""))
    ahci, nvme = dev("0000:00:1f.2"), dev("0000:01:00.0")
    return [
        "# zones end at their last memory page (mm/mm_init.c get_pfn_range_for_nid); on x86 that is",
        "# max_pfn, the end of the last e820 RAM entry, which iomem shows as System RAM: PFN 0x640000 is",
        "# past iomem's last RAM byte (0xbfffffff) by far more than a page",
        "%s | length == 2 and all(.severity == \"error\")" % finding("memory-inputs-disagree"),
        "[.findings[] | select(.id == \"memory-inputs-disagree\" and .evidence.zones_end_pfn == \"0x640000\" and .evidence.iomem_last_byte == \"0xbfffffff\")] | length == 1",
        "# MemTotal is totalram_pages, pages of that RAM only (mm/memblock.c memblock_free_all): 23.5 GiB",
        "# cannot come from the 3 GiB iomem lists",
        "[.findings[] | select(.id == \"memory-inputs-disagree\" and .evidence.mem_total_bytes == %d and .evidence.iomem_ram_bytes == %d)] | length == 1"
        % (X86_MEMTOTAL_KB * 1024, (0x9fbff - 0x1000 + 1) + (0xbfffffff - 0x100000 + 1)),
        "# which file is wrong is unknown: no layout, and the layout-unknown finding is not said twice",
        ".memory.source == \"none\" and (.memory.unknown_reason | test(\"memory-inputs-disagree\"))",
        "%s | length == 0" % finding("memory-layout-unknown"),
        "# every verdict that needs where RAM ends is unknown and names the contradiction",
        "%s | .verdict == \"unknown\" and (.reason | test(\"memory-inputs-disagree\"))" % ahci,
        "%s | .verdict == \"unknown\" and (.reason | test(\"memory-inputs-disagree\"))" % nvme,
        "# each unknown verdict is a warning that says what to supply: inputs that agree",
        "%s | length == 1 and .[0].evidence.missing == \"memory-inputs-agree\"" % finding("verdict-unknown", "0000:00:1f.2"),
        "%s | length == 1 and .[0].evidence.missing == \"memory-inputs-agree\"" % finding("verdict-unknown", "0000:01:00.0"),
        "[.devices[] | select(.verdict == \"direct\")] | length == 0",
        "%s | .verdict == \"idle\"" % dev("0000:00:00.0"),
        "# an error: the audit fails rather than pass a machine it could not see",
        ".exit_status == 1",
    ]


def x86_manifest_contradicted(t):
    """x86-pc-4g whose MANIFEST says a 32-bit ARM kernel (arch armv7l, release
    5.10.0-32-armmp) while the tree's own proc/sys/kernel/arch and osrelease say
    x86_64 and 6.1.0-27-amd64: a MANIFEST edited by hand or copied from another
    snapshot. The kernel's files are its own word (kernel/utsname_sysctl.c): they
    are used, and the contradiction said.
    Follows: x86-pc-4g's tree; the MANIFEST values are synthetic."""
    x86_pc_4g(t)
    manifest(t, "armv7l", "5.10.0-32-armmp", "2026-12-03T08:00:00Z")
    t.file("proc/sys/kernel/arch", "x86_64\n")
    t.file("proc/sys/kernel/osrelease", "6.1.0-27-amd64\n")
    ahci = dev("0000:00:1f.2")
    return [
        "# one finding per contradicted key, naming both values; the files win",
        "%s | length == 2 and all(.severity == \"error\")" % finding("snapshot-inconsistent"),
        "[.findings[] | select(.id == \"snapshot-inconsistent\" and .evidence.key == \"arch\" and .evidence.manifest_value == \"armv7l\" and .evidence.file_value == \"x86_64\" and .evidence.used == \"file\")] | length == 1",
        "[.findings[] | select(.id == \"snapshot-inconsistent\" and .evidence.key == \"kernel_release\" and .evidence.manifest_value == \"5.10.0-32-armmp\" and .evidence.file_value == \"6.1.0-27-amd64\")] | length == 1",
        ".host.arch == \"x86_64\" and .host.arch_source == \"proc/sys/kernel/arch\"",
        ".host.kernel_release == \"6.1.0-27-amd64\" and .host.kernel_release_source == \"proc/sys/kernel/osrelease\"",
        "# judged as the x86_64 6.1 kernel it is: the 32-bit AHCI bounces the RAM above 4 GiB through the pool",
        ".kernel.arch_family == \"x86\" and .kernel.bits == 64",
        "%s | .verdict == \"partial\" and .unreachable_ram_bytes == %d" % (ahci, X86_ABOVE_4G),
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "%s | length == 0" % finding("memory-inputs-disagree"),
        ".exit_status == 1",
    ]


def x86_nonroot_consistent(t):
    """x86-pc-4g captured by uid 1000: proc/iomem all zeros (51d7b120418e, 4.6),
    so only zoneinfo's zones and MemTotal can be compared, and they agree
    (MemTotal 23.5 GiB below the 24 GiB of present pages): nothing to raise.
    Follows: x86-pc-4g's tree; the zeroed iomem is a synthetic non-root capture."""
    x86_pc_4g(t)
    t.file("MANIFEST", "arch=x86_64\npage_size=4096\nkernel_release=6.1.0-27-amd64\n"
           "endianness=little\nuid=1000\ncaptured_by=tests/machines/gen-fixtures.py (synthetic)\n"
           "captured_at=2026-12-03T08:00:00Z\n")
    t.file("proc/iomem", "".join("%s00000000-00000000 : %s\n" % (l[:len(l) - len(l.lstrip(" "))],
                                                               l.split(" : ", 1)[1])
                                 for l in X86_IOMEM.splitlines()))
    ahci = dev("0000:00:1f.2")
    return [
        "# zones' present pages (24 GiB) hold MemTotal (23.5 GiB): managed pages are present ones",
        "%s | length == 0" % finding("memory-inputs-disagree"),
        "%s | length == 0" % finding("memory-layout-unknown"),
        "%s | length == 1 and .[0].severity == \"info\"" % finding("iomem-hidden"),
        ".memory.source == \"zoneinfo\" and .memory.end_pfn == 6553600",
        "# the zone spans reach 0x63fffffff: the 32-bit AHCI bounces what lies above 4 GiB",
        "%s | .verdict == \"partial\"" % ahci,
        "%s | length == 1" % finding("bounce-needed", "0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        ".exit_status == 0",
    ]


# ---------------------------------------------------------------- issue 36: masks from drivers

def arm64_imx8mp(t):
    """An i.MX 8M Plus board (6 GiB at 0x40000000) on Debian's 6.12: the EQoS
    (imx-dwmac) sets 34 bits, its probe line says so, so it reaches all RAM;
    the FEC (fec) sets 32 bits in fec_enet_init() and the eMMC's uSDHC
    (sdhci-esdhc-imx) 32 as its "using ADMA" line says: both bounce what lies
    above 4 GiB. Follows: imx8mp.dtsi's node names and addresses, dwmac-imx.c
    imx8mp_dwmac_data (addr_width 34), a real boot's "imx-dwmac
    30bf0000.ethernet: Using 34/40 bits DMA host/device width" and "mmc2: SDHCI
    controller on 30b60000.mmc [30b60000.mmc] using ADMA"; the RAM size, the
    log's other lines and the zones are synthetic."""
    manifest(t, "aarch64", "6.12.38+deb13-arm64", "2026-12-10T08:00:00Z")
    iomem = """\
40000000-1bfffffff : System RAM
  40210000-4177ffff : Kernel code
  41780000-41a7ffff : reserved
  41a80000-41e7ffff : Kernel data
  bbe00000-bfdfffff : reserved
"""
    zi = zoneinfo([("DMA", 0x40000, 0xc0000, 0xc0000), ("DMA32", None, 0, 0),
                   ("Normal", 0x100000, 0xc0000, 0xc0000), ("Movable", None, 0, 0)])
    mi = "MemTotal:        6091112 kB\nMemFree:         5801344 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, "console=ttymxc1,115200 root=/dev/mmcblk2p2 rootwait")
    dt_node(t, "", n_address_cells=[2], n_size_cells=[2],
            compatible=strings("fsl,imx8mp-evk", "fsl,imx8mp"))
    dt_node(t, "soc@0", n_address_cells=[1], n_size_cells=[1], compatible="simple-bus")
    dt_node(t, "soc@0/bus@30800000", n_address_cells=[1], n_size_cells=[1],
            compatible=strings("fsl,aips-bus", "simple-bus"))
    dt_node(t, "soc@0/bus@30800000/ethernet@30be0000",
            compatible=strings("fsl,imx8mp-fec", "fsl,imx8mq-fec", "fsl,imx6sx-fec"),
            reg=[0x30be0000, 0x10000])
    dt_node(t, "soc@0/bus@30800000/ethernet@30bf0000",
            compatible=strings("nxp,imx8mp-dwmac-eqos", "snps,dwmac-5.10a"),
            reg=[0x30bf0000, 0x10000])
    dt_node(t, "soc@0/bus@30800000/mmc@30b60000",
            compatible=strings("fsl,imx8mp-usdhc", "fsl,imx8mm-usdhc", "fsl,imx7d-usdhc"),
            reg=[0x30b60000, 0x10000])
    platform(t, "sys/devices/platform/soc@0", "soc@0", "simple-bus")
    bus = "sys/devices/platform/soc@0/30800000.bus"
    platform(t, bus, "soc@0/bus@30800000", "fsl,aips-bus")
    fec = platform(t, bus + "/30be0000.ethernet", "soc@0/bus@30800000/ethernet@30be0000",
                   "fsl,imx8mp-fec", "fec", "fec")
    eqos = platform(t, bus + "/30bf0000.ethernet", "soc@0/bus@30800000/ethernet@30bf0000",
                    "nxp,imx8mp-dwmac-eqos", "imx-dwmac", "dwmac_imx")
    usdhc = platform(t, bus + "/30b60000.mmc", "soc@0/bus@30800000/mmc@30b60000",
                     "fsl,imx8mp-usdhc", "sdhci-esdhc-imx", "sdhci_esdhc_imx")
    disk(t, usdhc + "/mmc_host/mmc2/mmc2:0001", "mmcblk2", ["mmcblk2p1", "mmcblk2p2"], (179, 0),
         sectors=30535680, max_sectors_kb=1024, max_hw_sectors_kb=65535, max_segments=128,
         max_segment_size=65535, dma_alignment=3)
    for path, ifname in ((fec, "eth0"), (eqos, "eth1")):
        t.file("%s/net/%s/uevent" % (path, ifname), "INTERFACE=%s\n" % ifname)
        t.link("%s/net/%s/device" % (path, ifname), path)
        t.link("sys/class/net/%s" % ifname, "%s/net/%s" % (path, ifname))
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd034]",
        "Linux version 6.12.38+deb13-arm64 (debian-kernel@lists.debian.org) #1 SMP Debian 6.12.38-1 (2025-07-16)",
        "Machine model: NXP i.MX8MPlus EVK board",
        "software IO TLB: area num 4.",
        "software IO TLB: mapped [mem 0x00000000bbe00000-0x00000000bfe00000] (64MB)",
        ("imx-dwmac 30bf0000.ethernet: Using 34/40 bits DMA host/device width",
         ["SUBSYSTEM=platform", "DEVICE=+platform:30bf0000.ethernet"]),
        ("fec 30be0000.ethernet eth0: registered PHC device 0", []),
        ("mmc2: SDHCI controller on 30b60000.mmc [30b60000.mmc] using ADMA", []),
    ])
    eq, fe, sd = dev("30bf0000.ethernet"), dev("30be0000.ethernet"), dev("30b60000.mmc")
    above_4g = 0x1c0000000 - 0x100000000
    return [
        "# i.MX 8M Plus, 6 GiB from 0x40000000: the EQoS's driver widened its mask, the FEC's is the default",
        "# EQoS: dwmac-imx's addr_width 34 as host_dma_width; stmmac_dvr_probe() logged it after dma_set_mask_and_coherent(34)",
        "%s | .mask_source == \"driver\" and .dma_mask == \"0x3ffffffff\" and .coherent_dma_mask == \"0x3ffffffff\"" % eq,
        "%s | (.mask_rule | test(\"stmmac_dvr_probe\")) and (.mask_why | test(\"Using N bits\"))" % eq,
        "# 34 bits reach 16 GiB: all RAM (to 0x1bfffffff) within reach",
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % eq,
        "# FEC: fec_enet_init() sets 32 bits, streaming and coherent, for every variant",
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\" and .coherent_dma_mask == \"0xffffffff\"" % fe,
        "%s | (.mask_rule | test(\"fec_main.c fec_enet_init\")) and (.mask_why | test(\"DMA_BIT_MASK\\\\(32\\\\)\"))" % fe,
        "# RAM 0x100000000-0x1bfffffff (3 GiB) lies beyond 32 bits; the pool logged at 0xbbe00000 is below",
        "%s | .verdict == \"partial\" and .unreachable_ram_bytes == %d and .swiotlb_pool_reachable == true" % (fe, above_4g),
        "%s | length == 1" % finding("bounce-needed", "30be0000.ethernet"),
        "# uSDHC: no ->set_dma_mask, sdhci_set_dma_mask() set 32 bits, as \"using ADMA\" (not \"ADMA 64-bit\") says",
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\" and (.mask_rule | test(\"sdhci-esdhc-imx.c\"))" % sd,
        "%s | .mask_why | test(\"using ADMA \\\\(32-bit\\\\)\")" % sd,
        "%s | .verdict == \"partial\" and .unreachable_ram_bytes == %d" % (sd, above_4g),
        "%s | length == 1" % finding("bounce-needed", "30b60000.mmc"),
        "[.block[] | select(.disk == \"mmcblk2\")][0].dma_device == \"30b60000.mmc\"",
        "%s | length == 0" % finding("bounce-needed", "30bf0000.ethernet"),
        ".exit_status == 0",
    ]


# ---------------------------------------------------------------- issue 36 part 3: driver masks, second pass

def arm64_h6(t):
    """An Allwinner H6 board (Pine H64 model B, 3 GiB at 0x40000000: RAM ends at
    exactly 4 GiB) on Debian's 6.12: sunxi-mmc and dwmac-sun8i set no mask, so
    the 32-bit platform default is the driver's own and reaches all RAM; the
    USB3 dwc3's xHCI takes its mask from HCCPARAMS1, which Linux shows nowhere:
    assumed. Follows: sun50i-h6.dtsi's node names, addresses and compatibles;
    sunxi-mmc.c sunxi_mmc_probe's "initialized, max. request size" line. The
    log's other lines, the zones and iomem are synthetic."""
    manifest(t, "aarch64", "6.12.38+deb13-arm64", "2026-12-10T08:00:00Z")
    iomem = """\
40000000-ffffffff : System RAM
  40210000-4177ffff : Kernel code
  41780000-41a7ffff : reserved
  41a80000-41e7ffff : Kernel data
  fbe00000-fbffffff : reserved
"""
    zi = zoneinfo([("DMA", 0x40000, 0xc0000, 0xbf000), ("DMA32", None, 0, 0),
                   ("Normal", None, 0, 0), ("Movable", None, 0, 0)])
    mi = "MemTotal:        3033472 kB\nMemFree:         2811904 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, "console=ttyS0,115200n8 root=/dev/mmcblk0p2 rootwait")
    dt_node(t, "", n_address_cells=[1], n_size_cells=[1],
            compatible=strings("pine64,pine-h64-model-b", "allwinner,sun50i-h6"))
    dt_node(t, "soc", n_address_cells=[1], n_size_cells=[1], compatible="simple-bus")
    dt_node(t, "soc/mmc@4020000",
            compatible=strings("allwinner,sun50i-h6-mmc", "allwinner,sun50i-a64-mmc"),
            reg=[0x4020000, 0x1000])
    dt_node(t, "soc/mmc@4022000",
            compatible=strings("allwinner,sun50i-h6-emmc", "allwinner,sun50i-a64-emmc"),
            reg=[0x4022000, 0x1000])
    dt_node(t, "soc/ethernet@5020000",
            compatible=strings("allwinner,sun50i-h6-emac", "allwinner,sun50i-a64-emac"),
            reg=[0x5020000, 0x10000])
    dt_node(t, "soc/usb@5200000", compatible="snps,dwc3", reg=[0x5200000, 0x10000])
    platform(t, "sys/devices/platform/soc", "soc", "simple-bus")
    soc = "sys/devices/platform/soc"
    sd = platform(t, soc + "/4020000.mmc", "soc/mmc@4020000", "allwinner,sun50i-h6-mmc",
                  "sunxi-mmc", "sunxi_mmc")
    emmc = platform(t, soc + "/4022000.mmc", "soc/mmc@4022000", "allwinner,sun50i-h6-emmc",
                    "sunxi-mmc", "sunxi_mmc")
    for host, n, major_minor, sectors in ((sd, 0, (179, 0), 62333952), (emmc, 1, (179, 8), 30535680)):
        disk(t, "%s/mmc_host/mmc%d/mmc%d:0001" % (host, n, n), "mmcblk%d" % n,
             ["mmcblk%dp1" % n, "mmcblk%dp2" % n], major_minor, sectors=sectors,
             max_sectors_kb=1024, max_hw_sectors_kb=32767, max_segments=256,
             max_segment_size=65536, dma_alignment=3)
    emac = platform(t, soc + "/5020000.ethernet", "soc/ethernet@5020000",
                    "allwinner,sun50i-h6-emac", "dwmac-sun8i", "dwmac_sun8i")
    t.file(emac + "/net/end0/uevent", "INTERFACE=end0\n")
    t.link(emac + "/net/end0/device", emac)
    t.link("sys/class/net/end0", emac + "/net/end0")
    dwc3 = platform(t, soc + "/5200000.usb", "soc/usb@5200000", "snps,dwc3", "dwc3", "dwc3")
    for n in (1, 2):
        hub = "%s/xhci-hcd.1.auto/usb%d" % (dwc3, n)
        t.file(hub + "/busnum", "%d\n" % n)
        t.link("sys/bus/usb/devices/usb%d" % n, hub)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd034]",
        "Linux version 6.12.38+deb13-arm64 (debian-kernel@lists.debian.org) #1 SMP Debian 6.12.38-1 (2025-07-16)",
        "Machine model: Pine H64 model B",
        "software IO TLB: area num 4.",
        "software IO TLB: mapped [mem 0x00000000fbe00000-0x00000000fbffffff] (2MB)",
        ("sunxi-mmc 4020000.mmc: initialized, max. request size: 16384 KB, uses new timings mode",
         ["SUBSYSTEM=platform", "DEVICE=+platform:4020000.mmc"]),
        ("sunxi-mmc 4022000.mmc: initialized, max. request size: 16384 KB, uses new timings mode",
         ["SUBSYSTEM=platform", "DEVICE=+platform:4022000.mmc"]),
    ])
    return [
        "# Pine H64 model B, 3 GiB from 0x40000000 to exactly 4 GiB: every 32-bit mask reaches all RAM",
        ".memory.ram_bytes == %d" % 0xc0000000,
        "# sunxi-mmc sets no mask: the default 32 bits are the driver's knowledge, cited, not assumed",
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\" and (.mask_rule | test(\"sunxi-mmc.c sunxi_mmc_probe\"))" % dev("4020000.mmc"),
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\"" % dev("4022000.mmc"),
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % dev("4020000.mmc"),
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % dev("4022000.mmc"),
        "# dwmac-sun8i reads no DMA width (no HW feature register): no mask set, the default is the driver's",
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\" and (.mask_rule | test(\"dwmac-sun8i.c\"))" % dev("5020000.ethernet"),
        "%s | .verdict == \"direct\"" % dev("5020000.ethernet"),
        "# dwc3: HCCPARAMS1's AC64 decides its xHCI's mask and nothing shows it: assumed 32 bits, still all RAM",
        "%s | .mask_source == \"assumed\" and (.mask_rule | test(\"xhci_plat_probe\"))" % dev("5200000.usb"),
        "%s | .verdict == \"direct\"" % dev("5200000.usb"),
        "[.findings[] | select(.id == \"bounce-needed\")] | length == 0",
        ".exit_status == 0",
    ]


def arm64_mt8183(t, release, mtu3_line):
    """A MediaTek MT8183 Chromebook-like board (4 GiB at 0x40000000, so 1 GiB
    above 4 GiB) with the USB port in OTG mode: mtu3's ssusb_gadget_init() runs
    mtu3_set_dma_mask(), which logs "dma mask: 36 bits" or "32 bits"; mtk-msdc's
    mt8183 variant sets a 36-bit streaming mask and leaves the coherent one;
    the xHCI child (xhci-mtk) is assumed. Follows: mt8183.dtsi's node names,
    addresses and compatibles (ssusb@11201000 with its usb@11200000 child,
    mmc@11230000); mtu3_core.c's dev_info line. RAM, zones and the log's other
    lines are synthetic."""
    manifest(t, "aarch64", release, "2026-12-10T08:00:00Z")
    iomem = """\
40000000-13fffffff : System RAM
  40210000-4177ffff : Kernel code
  41780000-41a7ffff : reserved
  41a80000-41e7ffff : Kernel data
  fbc00000-ffbfffff : reserved
"""
    zi = zoneinfo([("DMA", 0x40000, 0xc0000, 0xbf000), ("DMA32", None, 0, 0),
                   ("Normal", 0x100000, 0x40000, 0x40000), ("Movable", None, 0, 0)])
    mi = "MemTotal:        4012344 kB\nMemFree:         3700112 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, "console=ttyS0,115200n8 root=/dev/mmcblk0p2 rootwait")
    dt_node(t, "", n_address_cells=[2], n_size_cells=[2],
            compatible=strings("google,kukui", "mediatek,mt8183"))
    dt_node(t, "soc", n_address_cells=[2], n_size_cells=[2], compatible="simple-bus")
    dt_node(t, "soc/mmc@11230000", compatible="mediatek,mt8183-mmc",
            reg=[0, 0x11230000, 0, 0x1000])
    dt_node(t, "soc/usb@11201000", n_address_cells=[2], n_size_cells=[2],
            compatible=strings("mediatek,mt8183-mtu3", "mediatek,mtu3"),
            reg=[0, 0x11201000, 0, 0x2e00], dr_mode="otg")
    dt_node(t, "soc/usb@11201000/usb@11200000",
            compatible=strings("mediatek,mt8183-xhci", "mediatek,mtk-xhci"),
            reg=[0, 0x11200000, 0, 0x1000])
    soc = "sys/devices/platform/soc"
    platform(t, soc, "soc", "simple-bus")
    mmc = platform(t, soc + "/11230000.mmc", "soc/mmc@11230000", "mediatek,mt8183-mmc",
                   "mtk-msdc", "mtk_sd")
    disk(t, mmc + "/mmc_host/mmc0/mmc0:0001", "mmcblk0", ["mmcblk0p1", "mmcblk0p2"], (179, 0),
         sectors=61071360, max_sectors_kb=1024, max_hw_sectors_kb=65535, max_segments=128,
         max_segment_size=65535, dma_alignment=3)
    ssusb = platform(t, soc + "/11201000.usb", "soc/usb@11201000", "mediatek,mt8183-mtu3",
                     "mtu3", "mtu3")
    # g_ether's usb0 on the gadget: the controller does DMA as a USB peripheral
    t.file(ssusb + "/gadget.0/net/usb0/uevent", "INTERFACE=usb0\n")
    t.link(ssusb + "/gadget.0/net/usb0/device", ssusb + "/gadget.0")
    t.link("sys/class/net/usb0", ssusb + "/gadget.0/net/usb0")
    xhci = platform(t, ssusb + "/11200000.usb", "soc/usb@11201000/usb@11200000",
                    "mediatek,mt8183-xhci", "xhci-mtk", "xhci_mtk_hcd")
    for n in (1, 2):
        hub = "%s/usb%d" % (xhci, n)
        t.file(hub + "/busnum", "%d\n" % n)
        t.link("sys/bus/usb/devices/usb%d" % n, hub)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd034]",
        "Linux version %s (debian-kernel@lists.debian.org) #1 SMP Debian" % release,
        "Machine model: MediaTek kukui rev1 board",
        "software IO TLB: area num 8.",
        "software IO TLB: mapped [mem 0x00000000fbc00000-0x00000000ffc00000] (64MB)",
        ("mtu3 11201000.usb: " + mtu3_line, ["SUBSYSTEM=platform", "DEVICE=+platform:11201000.usb"]),
    ])
    ss, x, m = dev("11201000.usb"), dev("11200000.usb"), dev("11230000.mmc")
    above_4g = 0x40000000
    if mtu3_line == "dma mask: 36 bits":
        head = [
            "# mtu3: U3D_MISC_CTRL's DMA_ADDR_36BIT was set, dma_set_mask_and_coherent(36) succeeded, the line says so",
            "%s | .mask_source == \"driver\" and .dma_mask == \"0xfffffffff\" and .coherent_dma_mask == \"0xfffffffff\"" % ss,
            "%s | (.mask_rule | test(\"mtu3_set_dma_mask\")) and (.mask_why | test(\"36 bits\"))" % ss,
            "# 36 bits reach 64 GiB: all RAM (to 0x13fffffff)",
            "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % ss,
            "%s | length == 0" % finding("bounce-needed", "11201000.usb"),
        ]
    else:
        head = [
            "# mtu3: the bit was clear, no mask set: the 32-bit default is the driver's, and 1 GiB lies above it",
            "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\" and (.mask_why | test(\"32 bits\"))" % ss,
            "%s | .verdict == \"partial\" and .unreachable_ram_bytes == %d" % (ss, above_4g),
            "%s | length == 1" % finding("bounce-needed", "11201000.usb"),
        ]
    return head + [
        "# mtk-msdc mt8183_compat: support_64g, a 36-bit streaming mask; the coherent mask keeps the default",
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xfffffffff\" and .coherent_dma_mask == \"0xffffffff\"" % m,
        "%s | .verdict == \"direct\"" % m,
        "# xhci-mtk: HCCPARAMS1's AC64 decides, logged only at debug level: 32 bits assumed, RAM above 4 GiB bounces",
        "%s | .mask_source == \"assumed\" and (.mask_rule | test(\"xhci-mtk.c\"))" % x,
        "%s | .verdict == \"partial\" and .unreachable_ram_bytes == %d" % (x, above_4g),
        "%s | length == 1" % finding("bounce-needed", "11200000.usb"),
        ".exit_status == 0",
    ]


def arm64_rpi3_sdhost(t):
    """A Raspberry Pi 3 Model B (1 GiB, the GPU's share above 0x3c000000) on
    Debian's 6.12 with the upstream devicetree: the SD card sits on the sdhost
    (sdhost-bcm2835), whose bcm2835_prepare_dma() maps through its DMA-engine
    channel's device, the bcm2835-dma controller (32 bits, set in its probe);
    both sit under soc, whose dma-ranges put RAM at bus 0xc0000000. Follows:
    bcm283x.dtsi's soc dma-ranges, sdhost and dma nodes, bcm2835-rpi.dtsi's
    dmas = <&dma 13>; the log's other lines, iomem and the zones are synthetic."""
    manifest(t, "aarch64", "6.12.38+deb13-arm64", "2026-12-10T08:00:00Z")
    iomem = """\
00000000-3b3fffff : System RAM
  00210000-0177ffff : Kernel code
  01780000-01a7ffff : reserved
  01a80000-01e7ffff : Kernel data
  37400000-3b3fffff : reserved
3f007000-3f007eff : 3f007000.dma-controller dma-controller@7e007000
3f202000-3f2020ff : 3f202000.mmc mmc@7e202000
"""
    zi = zoneinfo([("DMA", 0, 0x3b400, 0x3b400), ("DMA32", None, 0, 0),
                   ("Normal", None, 0, 0), ("Movable", None, 0, 0)])
    mi = "MemTotal:         918464 kB\nMemFree:          731232 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, "console=ttyS1,115200 root=/dev/mmcblk0p2 rootwait")
    dt_node(t, "", n_address_cells=[1], n_size_cells=[1],
            compatible=strings("raspberrypi,3-model-b", "brcm,bcm2837"))
    # soc: bus 0xc0000000 -> CPU 0x0, 0x3f000000 bytes (bcm283x.dtsi)
    dt_node(t, "soc", n_address_cells=[1], n_size_cells=[1], compatible="simple-bus",
            dma_ranges=[0xc0000000, 0x00000000, 0x3f000000])
    dt_node(t, "soc/dma-controller@7e007000", compatible="brcm,bcm2835-dma",
            reg=[0x7e007000, 0xf00], n_dma_cells=[1])
    dt_node(t, "soc/mmc@7e202000", compatible="brcm,bcm2835-sdhost",
            reg=[0x7e202000, 0x100], dma_names=strings("rx-tx"))
    soc = "sys/devices/platform/soc"
    platform(t, soc, "soc", "simple-bus")
    dma = platform(t, soc + "/3f007000.dma-controller", "soc/dma-controller@7e007000",
                   "brcm,bcm2835-dma", "bcm2835-dma", "bcm2835_dma")
    for ch in (0, 1):
        t.file("%s/dma/dma0chan%d/in_use" % (dma, ch), "1\n")
        t.link("%s/dma/dma0chan%d/device" % (dma, ch), dma)
        t.link("sys/class/dma/dma0chan%d" % ch, "%s/dma/dma0chan%d" % (dma, ch))
    host = platform(t, soc + "/3f202000.mmc", "soc/mmc@7e202000", "brcm,bcm2835-sdhost",
                    "sdhost-bcm2835", "bcm2835")
    disk(t, host + "/mmc_host/mmc0/mmc0:aaaa", "mmcblk0", ["mmcblk0p1", "mmcblk0p2"], (179, 0),
         sectors=62333952, max_sectors_kb=1024, max_hw_sectors_kb=65535, max_segments=128,
         max_segment_size=65536, dma_alignment=3)
    kmsg(t, [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd034]",
        "Linux version 6.12.38+deb13-arm64 (debian-kernel@lists.debian.org) #1 SMP Debian 6.12.38-1 (2025-07-16)",
        "Machine model: Raspberry Pi 3 Model B Rev 1.2",
        "software IO TLB: area num 4.",
        "software IO TLB: mapped [mem 0x0000000037400000-0x000000003b400000] (64MB)",
        ("sdhost-bcm2835 3f202000.mmc: loaded - DMA enabled (>1)",
         ["SUBSYSTEM=platform", "DEVICE=+platform:3f202000.mmc"]),
    ])
    h, d = dev("3f202000.mmc"), dev("3f007000.dma-controller")
    return [
        "# Raspberry Pi 3 (RAM to 0x3b3fffff): the soc window (CPU 0x0-0x3effffff) holds all of it",
        "# sdhost: its data maps through the DMA engine's device, so its own mask decides nothing: assumed, and why",
        "%s | .driver == \"sdhost-bcm2835\" and .mask_source == \"assumed\" and (.mask_rule | test(\"bcm2835_prepare_dma\"))" % h,
        "%s | .mask_why | test(\"DMA-engine channel's device\")" % h,
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % h,
        "# bcm2835-dma: bcm2835_dma_probe() sets 32 bits: the mask that really maps the sdhost's buffers",
        "%s | .mask_source == \"driver\" and .dma_mask == \"0xffffffff\" and .coherent_dma_mask == \"0xffffffff\"" % d,
        "# the soc window ends at bus 0xc0000000 + 0x3f000000 - 1: the bus limit, below the 32-bit mask",
        "%s | (.mask_rule | test(\"bcm2835-dma.c bcm2835_dma_probe\")) and .bus_limit == \"0xfeffffff\"" % d,
        "%s | .bus_limit == \"0xfeffffff\"" % h,
        "%s | length == 1 and .[0].severity == \"info\"" % finding("mask-limited-by-bus", "3f007000.dma-controller"),
        "%s | length == 1 and .[0].severity == \"info\"" % finding("mask-limited-by-bus", "3f202000.mmc"),
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % d,
        "[.findings[] | select(.id == \"bounce-needed\")] | length == 0",
        ".exit_status == 0",
    ]


# ---- issue 36 part 5: fixtures off the beaten values (a PCI segment other than
# 0000, RAM ending at exactly 2^32 and 2^33, an --observe window whose lowest
# bounced address moves with the small kmalloc buffers)

def arm64_acpi_iort_segment1(t):
    """arm64-acpi-iort's server (8 GiB: 2 GiB below 4 GiB, 6 GiB at 0x880000000)
    on 6.1 with a second PCI host bridge, segment 1 (domain 0001), its own root
    complex in the IORT: segment 1's limit is 32 bits and comes first in the
    table, segment 0's is 48 bits. drivers/acpi/arm64/iort.c
    iort_match_node_callback() matches a root complex by
    pci_rc->pci_segment_number == pci_domain_nr(bus), so each NVMe takes its own
    segment's limit. Follows: no checked source for the server (synthetic)."""
    manifest(t, "aarch64", "6.1.119-arm64", "2026-12-03T08:00:00Z")
    iomem = ("80000000-ffffffff : System RAM\n  80210000-8159ffff : Kernel code\n"
             "880000000-9ffffffff : System RAM\n")
    zi = zoneinfo([("DMA", 0x80000, 0x80000, 0x7f000), ("DMA32", None, 0, 0),
                   ("Normal", 0x880000, 0x180000, 0x180000), ("Movable", None, 0, 0)])
    proc(t, iomem, zi, "MemTotal:        8000000 kB\nMemFree:         7000000 kB\nBounce:                0 kB\n",
         "root=/dev/nvme0n1p1 acpi=force")
    t.file("sys/firmware/acpi/tables/IORT",
           iort_table([("rc", 1, 32, 1), ("rc", 0, 48, 1)]))
    for seg, n in ((0, 0), (1, 1)):
        bus = "sys/devices/pci%04x:00" % seg
        pci(t, bus, "%04x:00:00.0" % seg, 0x1def, 0xe100, 0x060000, 32)
        nvme = pci(t, bus, "%04x:00:01.0" % seg, 0x144d, 0xa808, 0x010802, 64, "nvme", "nvme",
                   subsys=(0x144d, 0xa801))
        disk(t, nvme + "/nvme/nvme%d" % n, "nvme%dn1" % n, ["nvme%dn1p1" % n], (259, 2 * n),
             sectors=1000215216, max_sectors_kb=128, max_hw_sectors_kb=128, max_segments=33,
             max_segment_size=4294967295, dma_alignment=3, glue=False)
    kmsg(t, ["nvme nvme0: 4/0/0 default/read/poll queues",
             "nvme nvme1: 4/0/0 default/read/poll queues"], first_seq=7000)
    return [
        ".inputs[] | select(.path == \"sys/firmware/acpi/tables/IORT\") | .status == \"ok\"",
        "# segment 0's root complex: 48 bits reach RAM's end (0x9ffffffff): the 64-bit NVMe maps directly",
        "%s | .dma_ranges.node == \"IORT root complex\" and .dma_ranges.regions[0].size == 281474976710656" % dev("0000:00:01.0"),
        "%s | .bus_limit == \"0xffffffffffff\"" % dev("0000:00:01.0"),
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % dev("0000:00:01.0"),
        "# (its 48 bits lie below the 64-bit mask: the IORT's limit decides, harmlessly)",
        "%s | length == 1 and .[0].evidence.bus_limit == \"0xffffffffffff\"" % finding("mask-limited-by-bus", "0000:00:01.0"),
        "# segment 1's root complex (first in the table): 32 bits, so the 6 GiB at 0x880000000 lie out of reach",
        "%s | .bus == \"pci\" and .driver == \"nvme\" and .dma_mask_bits == 64" % dev("0001:00:01.0"),
        "%s | .dma_ranges.node == \"IORT root complex\" and .dma_ranges.regions[0].size == 4294967296" % dev("0001:00:01.0"),
        "%s | .bus_limit == \"0xffffffff\"" % dev("0001:00:01.0"),
        "%s | .verdict == \"partial\" and .kernel_model == \"dma-direct\"" % dev("0001:00:01.0"),
        "%s | .unreachable_ram_bytes == 6442450944" % dev("0001:00:01.0"),
        "# arm64 6.1 puts its pool in ZONE_DMA (below 4 GiB): the NVMe's RAM past 4 GiB bounces there",
        ".swiotlb.active == true",
        "%s | .swiotlb_pool_reachable == true" % dev("0001:00:01.0"),
        "%s | length == 1" % finding("bounce-needed", "0001:00:01.0"),
        "# the IORT's 32-bit limit lies below the 64-bit mask",
        "%s | length == 1 and .[0].evidence.bus_limit == \"0xffffffff\" and (.[0].message | test(\"ACPI IORT\"))" % finding("mask-limited-by-bus", "0001:00:01.0"),
        "[.block[] | select(.disk == \"nvme1n1\")][0].dma_device == \"0001:00:01.0\"",
        ".exit_status == 0",
    ]


def x86_intel_pt_ram_end(t, last_byte, mask_bits):
    """x86-intel-4.19-pt with RAM to last_byte and the NVMe's mask at mask_bits:
    intel-iommu.c (4.19) iommu_should_identity_map() keeps a device identity
    while its mask >= dma_get_required_mask(), and kernel/dma/direct.c
    dma_direct_get_required_mask() is (1ULL << (fls64((max_pfn - 1) << PAGE_SHIFT)
    - 1)) * 2 - 1: RAM ending at exactly 2^33 needs 33 bits, one page more 34.
    The mask of mask_bits is synthetic, chosen to sit on that boundary."""
    x86_intel_419_pt(t)
    end_pfn = (last_byte + 1) >> 12
    t.file("proc/iomem", X86_IOMEM.replace("100000000-63fffffff", "100000000-%x" % last_byte))
    t.file("proc/zoneinfo", X86_ZONEINFO.replace(
        "spanned  5505024\n        present  5505024", "spanned  %d\n        present  %d"
        % (end_pfn - 0x100000, end_pfn - 0x100000)))
    ram_kb = (0x9f000 + 0xbff00000 + (last_byte + 1 - 0x100000000)) // 1024
    t.file("proc/meminfo", "MemTotal:       %d kB\nMemFree:        %d kB\nBounce:                0 kB\n"
           % (ram_kb - 180000, ram_kb - 500000))
    nvme = "sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0"
    t.file(nvme + "/dma_mask_bits", "%d\n" % mask_bits)
    t.file(nvme + "/consistent_dma_mask_bits", "%d\n" % mask_bits)


def x86_intel_pt_8g(t):
    """RAM ends at exactly 8 GiB (0x1ffffffff): the required mask is 0x1ffffffff,
    so a 33-bit mask stays identity and the 32-bit AHCI leaves it."""
    x86_intel_pt_ram_end(t, 0x1ffffffff, 33)
    return [
        ".memory.end_pfn == 2097152",
        "# 0x1fffff000 is the last page: fls64 33, required mask 0x1ffffffff; the NVMe's 33 bits are not below it",
        "%s | .dma_mask == \"0x1ffffffff\" and .iommu_domain == \"unknown\"" % dev("0000:01:00.0"),
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % dev("0000:01:00.0"),
        "# the AHCI's 32 bits are below it: translated (\"32bit ... uses non-identity mapping\")",
        "%s | .verdict == \"iommu\" and (.reason | test(\"Intel\"))" % dev("0000:00:1f.2"),
        "%s | .unreachable_ram_bytes == 0" % dev("0000:00:1f.2"),
        "[.findings[] | select(.id == \"bounce-needed\")] | length == 0",
        "# Intel VT-d before 5.15 frees the pool; 4 GiB lie above 4 GiB, which the next identity device may not reach",
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 4294967296 and .[0].evidence.boundary == \"0x100000000\"" % finding("no-bounce-pool"),
        ".exit_status == 0",
    ]


def x86_intel_pt_8g_page(t):
    """RAM ends one page past 8 GiB (0x200000fff): the required mask is
    0x3ffffffff, so the 33-bit mask leaves the identity map too."""
    x86_intel_pt_ram_end(t, 0x200000fff, 33)
    kmsg(t, ["Linux version 4.19.0-27-amd64 (debian-kernel@lists.debian.org) (gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP Debian 4.19.316-1 (2024-06-25)",
             "Command line: root=/dev/nvme0n1p1 intel_iommu=on iommu=pt", "DMAR: IOMMU enabled",
             "DMAR: Intel(R) Virtualization Technology for Directed I/O",
             "DMAR: 32bit 0000:00:1f.2 uses non-identity mapping",
             "DMAR: 32bit 0000:01:00.0 uses non-identity mapping"])
    return [
        ".memory.end_pfn == 2097153",
        "# 0x200000000 is the last page: fls64 34, required mask 0x3ffffffff; the NVMe's 33 bits are below it",
        "%s | .dma_mask == \"0x1ffffffff\"" % dev("0000:01:00.0"),
        "%s | .verdict == \"iommu\" and (.reason | test(\"Intel\"))" % dev("0000:01:00.0"),
        "%s | .verdict == \"iommu\"" % dev("0000:00:1f.2"),
        "[.findings[] | select(.id == \"bounce-needed\")] | length == 0",
        "# no identity device is left to need the pool Intel VT-d frees: no finding",
        "%s | length == 0" % finding("no-bounce-pool"),
        ".exit_status == 0",
    ]


def arm64_ram_end(t, last_byte):
    """arm64-kmalloc-pool-6.1's board (QEMU virt's RAM base, 0x40000000) with RAM
    to last_byte. arch/arm64/mm/init.c (6.1): zone_sizes_init() sets
    arm64_dma_phys_limit = max_zone_phys(32), min(U32_MAX, end of DRAM - 1) + 1,
    and mem_init() calls swiotlb_init(max_pfn > PFN_DOWN(arm64_dma_phys_limit)):
    RAM ending at exactly 4 GiB makes no pool, one page more makes one."""
    arm64_kmalloc_pool(t, "6.1.0-27-arm64")
    end_pfn = (last_byte + 1) >> 12
    dma_end = min(end_pfn, 0x100000)
    t.file("proc/iomem", """\
11230000-11230fff : 11230000.mmc mmc@11230000
18000000-180fffff : 18000000.wifi wifi@18000000
40000000-%x : System RAM
  40210000-4150ffff : Kernel code
  41510000-4180ffff : reserved
  41810000-41b3ffff : Kernel data
  50000000-503fffff : reserved
""" % last_byte)
    above = end_pfn - dma_end
    t.file("proc/zoneinfo", zoneinfo([
        ("DMA", 0x40000, dma_end - 0x40000, dma_end - 0x40000), ("DMA32", None, 0, 0),
        ("Normal", 0x100000 if above else None, above, above), ("Movable", None, 0, 0)]))
    ram_kb = (last_byte + 1 - 0x40000000) // 1024
    t.file("proc/meminfo", "MemTotal:        %d kB\nMemFree:         %d kB\nBounce:                0 kB\n"
           % (ram_kb - 120000, ram_kb - 300000))


def arm64_ram_end_4g(t):
    """RAM 0x40000000-0xffffffff: max_pfn 0x100000 is not above PFN_DOWN(4 GiB)."""
    arm64_ram_end(t, 0xffffffff)
    return [
        ".memory.end_pfn == 1048576 and .memory.ram_bytes == 3221225472",
        "# max_pfn 0x100000 == PFN_DOWN(arm64_dma_phys_limit 0x100000000): no pool (6.1, before the kmalloc pool of 6.5)",
        ".swiotlb.active == false",
        "# the MMC's platform default 32-bit mask reaches the last byte, 0xffffffff",
        "%s | .dma_mask == \"0xffffffff\" and .unreachable_ram_bytes == 0" % dev("11230000.mmc"),
        "%s | .verdict == \"direct\"" % dev("11230000.mmc"),
        "# the wifi's restricted-dma-pool (5.15+, 0b84e4f8b793) forces its every mapping there",
        "%s | .verdict == \"forced\"" % dev("18000000.wifi"),
        "%s | length == 1" % finding("forced-bounce", "18000000.wifi"),
        "%s | length == 0" % finding("no-bounce-pool"),
        ".exit_status == 0",
    ]


def arm64_ram_end_4g_page(t):
    """RAM 0x40000000-0x100000fff: max_pfn 0x100001 is above PFN_DOWN(4 GiB):
    a pool, and the 32-bit MMC bounces the one page past 4 GiB."""
    arm64_ram_end(t, 0x100000fff)
    return [
        ".memory.end_pfn == 1048577 and .memory.ram_bytes == 3221229568",
        "# max_pfn 0x100001 > PFN_DOWN(arm64_dma_phys_limit 0x100000000): the default pool",
        ".swiotlb.active == true",
        "# the one page at 0x100000000 lies past the 32-bit mask: it bounces through the pool (in ZONE_DMA)",
        "%s | .dma_mask == \"0xffffffff\" and .unreachable_ram_bytes == 4096" % dev("11230000.mmc"),
        "%s | .verdict == \"partial\" and .kernel_model == \"dma-direct\"" % dev("11230000.mmc"),
        "%s | .swiotlb_pool_reachable == true" % dev("11230000.mmc"),
        "%s | length == 1 and .[0].evidence.lowest_unreachable == \"0x100000000\"" % finding("bounce-needed", "11230000.mmc"),
        "%s | .verdict == \"forced\"" % dev("18000000.wifi"),
        "%s | length == 1" % finding("forced-bounce", "18000000.wifi"),
        ".exit_status == 0",
    ]


def arm64_observed_kmalloc(t, release):
    """arm64-ram-end-4g-page's board captured with --observe=5 (synthetic records)
    on release: its 32-bit MMC (partial: the page at 0x100000000) bounced a
    100-byte buffer at 0x60000040, within reach, and a 4 KiB one at 0x100000000.
    From 6.5 arm64 selects DMA_BOUNCE_UNALIGNED_KMALLOC: dma_kmalloc_needs_bounce()
    (include/linux/dma-map-ops.h) bounces a kmalloc buffer under
    2 * ARCH_DMA_MINALIGN not cache-line aligned, whatever its address, so the
    small one is excused and the lowest buffer that counts is 0x100000000; before
    6.5 nothing bounces within reach, so the small one contradicts the verdict.
    Follows: include/trace/events/swiotlb.h swiotlb_bounced (the record layout)."""
    arm64_ram_end(t, 0x100000fff)
    manifest(t, "aarch64", release, "2026-12-03T08:00:00Z")
    o = "run/dmamask-audit/observe/"
    t.file(o + "window", "requested_seconds=5\nwindow_seconds=5.000\ninterrupted=0\n"
           "lost_events=0\ntracefs=sys/kernel/tracing\n")
    t.file(o + "format", FORMAT_6_1)
    t.file(o + "trace", "# tracer: nop\n#\n"
           + bounce_line("11230000.mmc", 0xffffffff, 0x60000040, 100, t=101)
           + bounce_line("11230000.mmc", 0xffffffff, 0x100000000, 4096, t=102))
    t.file(o + "swiotlb-before", "io_tlb_used=0\nio_tlb_used_hiwater=0\n")
    t.file(o + "swiotlb-after", "io_tlb_used=0\nio_tlb_used_hiwater=2\n")
    mmc = dev("11230000.mmc")
    checks = [
        "# the MMC's 32-bit mask leaves the page at 0x100000000 out of reach: partial through the pool",
        ".swiotlb.active == true",
        "%s | .verdict == \"partial\" and .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 4096" % mmc,
        "%s | .limit == \"0xffffffff\" or .dma_mask == \"0xffffffff\"" % mmc,
        "%s | length == 1" % finding("bounce-needed", "11230000.mmc"),
        "# both records count in the figures: the lowest bounced address is the small buffer's",
        "%s | .observed.bounces == 2 and .observed.bytes == 4196" % mmc,
        "%s | .observed.lowest_addr == \"0x60000040\" and .observed.highest_addr == \"0x100000fff\"" % mmc,
    ]
    if release.startswith("6.4."):
        return checks + [
            "# before 6.5 no kmalloc buffer bounces for its alignment: one within reach contradicts partial",
            "%s | .observed.prediction == \"contradicted\" and (.observed.why | test(\"within its reach\"))" % mmc,
            "%s | length == 1 and .[0].evidence.lowest_addr == \"0x60000040\"" % finding("prediction-contradicted", "11230000.mmc"),
            "%s | length == 0" % finding("bounce-observed", "11230000.mmc"),
            "# the wifi's restricted pool forces it; it bounced nothing in the window, and a snapshot",
            "# without traffic files cannot tell whether it moved any data",
            "%s | .verdict == \"forced\" and .observed.prediction == \"cannot-tell\"" % dev("18000000.wifi"),
            "%s | length == 1" % finding("forced-bounce", "18000000.wifi"),
            ".exit_status == 1",
        ]
    return checks + [
        "# from 6.5 the 100-byte buffer (under 256, not 64-aligned) is a kmalloc bounce: the lowest that counts lies past 4 GiB",
        "%s | .observed.prediction == \"consistent\"" % mmc,
        "%s | length == 0" % finding("prediction-contradicted", "11230000.mmc"),
        "%s | length == 1 and .[0].evidence.lowest_addr == \"0x60000040\" and .[0].evidence.bounces == 2" % finding("bounce-observed", "11230000.mmc"),
        "%s | .verdict == \"forced\" and .observed.prediction == \"cannot-tell\"" % dev("18000000.wifi"),
        "%s | length == 1" % finding("forced-bounce", "18000000.wifi"),
        ".exit_status == 0",
    ]


# The deciding evidence (tests/machines/deciding-evidence.json) of earlier fixtures,
# each value read off the fixture's own inputs: added to their checks below FIXTURES.
AHCI = "0000:00:1f.2"
# x86-pc-4g's iomem: 0x100000000-0x63fffffff, 21 GiB above the 32-bit AHCI's reach
AHCI_ABOVE_4G = "%s | .unreachable_ram_bytes == %d" % (dev(AHCI), X86_ABOVE_4G)
# x86-64 6.1: no legacy block bounce (ERA_BLOCK_BOUNCE): dma-direct's swiotlb decides
AHCI_DIRECT = "%s | .kernel_model == \"dma-direct\"" % dev(AHCI)
# 4.x: blk_queue_bounce_limit() still ran for a disk's queue (ERA_BLOCK_BOUNCE), but on
# x86-64 max_low_pfn is max_pfn: the block layer bounces nothing, swiotlb does
AHCI_LEGACY_NONE = "%s | .kernel_model == \"legacy-block\" and .models.legacy_block.as_pfn.bounce_bytes == 0" % dev(AHCI)
EVIDENCE_PINS = {
    "x86-observed": [AHCI_DIRECT, AHCI_ABOVE_4G],
    "x86-observed-quiet": [AHCI_DIRECT, AHCI_ABOVE_4G],
    "x86-nonroot-consistent": [AHCI_DIRECT, AHCI_ABOVE_4G],
    "x86-manifest-contradicted": [AHCI_DIRECT],
    "x86-noforce": [AHCI_DIRECT, "%s | .dma_mask == \"0xffffffff\"" % dev(AHCI)],
    "x86-amd-4.14-pt": [AHCI_LEGACY_NONE],
    "x86-amd-5.4-identity": [AHCI_LEGACY_NONE],
    "x86-amd-5.3-identity": [AHCI_LEGACY_NONE, AHCI_ABOVE_4G,
                             "%s | .dma_mask == \"0xffffffff\"" % dev(AHCI)],
    "x86-swiotlb-dynamic": [AHCI_DIRECT, AHCI_ABOVE_4G] + [
        "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == %d" % (dev(d), X86_ABOVE_4G)
        for d in ("0000:00:03.0", "0000:00:04.0")] + [
        "# the 30-bit device reaches 0x0-0x3fffffff: all RAM but 0x1000-0x9fbff and 0x100000-0x3fffffff",
        "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == %d"
        % (dev("0000:00:05.0"), 25769405440 - 0x9ec00 - 0x3ff00000),
        "# the pool the log maps, [mem 0xbbfe8000-0xbffe8000]: its last byte 0xbffe7fff",
        "%s | .[0].evidence.pool_end == \"0xbffe7fff\"" % finding("swiotlb-out-of-reach", "0000:00:05.0")],
    "x86-virtio": ["%s | .kernel_model == \"dma-direct\"" % dev("0000:00:03.0")],
    # x86-32 PAE 4.17/4.18: RAM to 6 GiB with a 1 GiB hole: 2 GiB above 4 GiB
    "x86-32-pae-scsi-4.17": [
        "# 4.17's scsi queue bounces pages above the 32-bit mask (blk_queue_bounce_limit): the 2 GiB above 4 GiB",
        "%s | .kernel_model == \"legacy-block\" and .unreachable_ram_bytes == 2147483648" % dev(AHCI),
        "%s | .[0].evidence.block_bounce_bytes == 2147483648" % finding("bounce-needed", AHCI)],
    "x86-32-pae-scsi-4.18": [
        "%s | .kernel_model == \"legacy-block\" and .unreachable_ram_bytes == 2147483648" % dev(AHCI),
        "%s | .[0].evidence.dma_mask == \"0xffffffff\"" % finding("bounce-impossible", AHCI)],
    # IO_TLB_SEGSIZE 128 slots of 2 KiB (kernel/dma/swiotlb.c): 256 KiB, the NVMe's 256 KiB segment
    "x86-sev-nvme-256k-5.10.35": ["%s | .[0].evidence.swiotlb_max_mapping_bytes == 262144" % finding("bounce-mapping-too-large", "0000:00:04.0")],
    "x86-sev-nvme-256k-5.11": ["%s | .[0].evidence.swiotlb_max_mapping_bytes == 262144" % finding("bounce-mapping-too-large", "0000:00:04.0")],
    "x86-sev-nvme-256k-5.12": ["%s | .[0].evidence.swiotlb_max_mapping_bytes == 262144" % finding("bounce-mapping-too-large", "0000:00:04.0")],
    # 6.1 (after 5.19): a translated untrusted device with no pool fails its bounces, no panic
    "x86-thunderbolt-3g": ["%s | .[0].evidence.without_pool == \"fails\"" % finding("untrusted-bounce-impossible", "0000:2c:00.0")],
    # arm_window_board: 2 GiB at 0x40000000, lowmem to PFN 0x6f800 (760 MiB), the soc window
    # CPU 0x40000000-0x7fffffff; the ethernet has no block queue: the block model cannot decide
    **{n: ["%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 1073741824" % dev("12000000.ethernet"),
           "# read as a count max_low_pfn (0x2f800) lies below every PFN: all 2 GiB; as a PFN the 1350565888 of highmem",
           "%s | .[0].evidence.bounce_bytes_as_count == 2147483648 and .[0].evidence.bounce_bytes_as_pfn == 1350565888 "
           "and .[0].evidence.unnecessary_bounce_bytes == 796917760" % finding("pfn-count-confusion")]
       for n in ("arm-5.10-armmp-window", "arm-5.10-log-lpae", "arm-5.10-log-nolpae", "arm-5.10-lpae-window")},
    # the ACPI SATA (platform default 32 bits) misses the 6 GiB at 0x880000000
    "arm64-acpi-iort-4.13": ["%s | .kernel_model == \"legacy-block\" and .unreachable_ram_bytes == 6442450944" % dev("APMC0D0D:00")],
    "arm64-acpi-iort-4.18": ["%s | .kernel_model == \"legacy-block\" and .unreachable_ram_bytes == 6442450944" % dev("APMC0D0D:00")],
    "arm64-acpi-iort-6.1": ["%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 6442450944" % dev(d)
                            for d in ("APMC0D0D:00", "0000:00:01.0")],
    "arm64-imx8mp": ["%s | .kernel_model == \"dma-direct\"" % dev("30be0000.ethernet")],
    "arm64-rpi4": ["%s | .kernel_model == \"dma-direct\"" % dev(d) for d in ("fe340000.mmc", "0000:01:00.0")],
    # QEMU virt, 8 GiB at 0x40000000: 32-bit masks reach 3 GiB of it; the PCIe window (to 0x7fffffff) 1 GiB
    "arm64-virt": ["%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 5368709120" % dev(d)
                   for d in ("9050000.mmci", "9060000.dma", "9070000.ethernet")] + [
        "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 7516192768" % dev("0000:00:03.0"),
        "%s | .[0].evidence.bus_limit == \"0x7fffffff\"" % finding("mask-limited-by-bus", "0000:00:03.0")],
    # 2 GiB at 0x40000000; a 3.x ARM kernel reads max_low_pfn as a count (0x2f800), below
    # every PFN (from 0x40000): BLK_BOUNCE_HIGH bounces all 2 GiB, not only the HighMem zone
    "arm-2013-highmem": ["%s | .[0].evidence.block_bounce_bytes == 2147483648" % finding("bounce-needed", "12200000.mmc")],
    "arm-2012-boardfile": ["%s | .[0].evidence.block_bounce_bytes == 2147483648" % finding("bounce-needed", "dw_mmc.0")],
    # 256 MiB at 0xc0000000, a 3.10 count-era kernel: the ISA path bounces every page
    "arm-256m-26bit": ["%s | .[0].evidence.block_bounce_bytes == 268435456" % finding("bounce-needed", "c8000000.mmc")],
    # the block layer's early return misses 0xc4000000-0xcfffffff; as a bitmask 0xc3ffffff
    # keeps bits 26-27 clear: only 0xc0000000-0xc3ffffff, as its limit does
    "arm-256m-c3ffffff": [
        "%s | .kernel_model == \"legacy-block\"" % dev("c8000000.mmc"),
        "%s | .[0].evidence.reachable_as_bitmask_bytes == 67108864 and .[0].evidence.reachable_as_limit_bytes == 67108864" % finding("mask-not-contiguous", "c8000000.mmc"),
        "%s | .[0].evidence.bounce_bytes_as_count == 0 and .[0].evidence.bounce_bytes_as_pfn == 201326592" % finding("pfn-count-confusion", "c8000000.mmc")],
    # the VL805's RAM past its window (CPU 0-0xbfffffff): 5301600256 (arm64-rpi4);
    # the emmc2's past the soc's 1 GiB: 7449083904
    "arm64-rpi4-4.19": [
        "%s | .kernel_model == \"dma-direct\"" % dev("0000:01:00.0"),
        "# before 5.3 mmc_init_queue()'s bounce limit copies the emmc2's 6.9 GiB above CPU 1 GiB",
        "%s | .[0].evidence.block_bounce_bytes == 7449083904" % finding("bounce-needed", "fe340000.mmc")],
    "arm64-rpi4-5.4": [
        "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 5301600256" % dev("0000:01:00.0"),
        "# the emmc2's queue still runs the block arithmetic (before 5.13), which bounces nothing from 5.3: swiotlb does",
        "%s | .kernel_model == \"legacy-block\" and .models.legacy_block.as_pfn.bounce_bytes == 0 "
        "and .unreachable_ram_bytes == 7449083904" % dev("fe340000.mmc")],
    # 4.14 never reads the window: the block layer bounces nothing, all RAM past it is missed
    "arm64-4.14-pcie-window": ["%s | .[0].evidence.missed_bytes == 5368709120" % finding("bounce-missed", "0000:01:00.0")],
}
# the soc window of arm_window_board ends at CPU (and bus) 0x7fffffff
EVIDENCE_PINS["arm-5.10-log-nolpae"].append("%s | .bus_limit == \"0x7fffffff\"" % dev("12000000.ethernet"))
EVIDENCE_PINS["arm-5.10-lpae-window"].append(
    "%s | .[0].evidence.bus_limit == \"0x7fffffff\"" % finding("bounce-impossible", "12000000.ethernet"))


# ---- issue 36 part 2 (not modelled): the pool's areas ----
def arm64_kmalloc_pool_cpus(t, release):
    """arm64-kmalloc-pool's 2 GiB board with 64 possible CPUs: from 6.0
    swiotlb_init_remap() gives the pool one area per possible CPU of 128 slots
    at least (swiotlb_adjust_nareas, round_up_default_nslabs: 20347fca71a3,
    57e6840cf79a), so 6.7's RAM/1024 pool of 2 MiB becomes 16 MiB; 6.6's
    64 MiB default already holds 64 areas.
    Follows: no checked source: a synthetic 64-CPU server board."""
    checks = arm64_kmalloc_pool(t, release)
    t.file("sys/devices/system/cpu/possible", "0-63\n")
    size = 64 << 20 if release.startswith("6.6.") else 16 << 20
    return [c for c in checks if not c.startswith(".swiotlb.size_bytes")] + [
        "# 64 possible CPUs: 64 areas of 128 slots at least, 8192 slots of 2 KiB (6.7+); 6.6's 32768 slots already hold them",
        ".swiotlb.possible_cpus == 64 and .swiotlb.areas == 64",
        ".swiotlb.size_bytes == %d and .swiotlb.size_provenance == \"assumed\"" % size,
        "(.swiotlb.size_why | test(\"possible CPU\"))",
    ]


def arm64_dma_zones(t, with_dma32):
    """arm64-kmalloc-pool's board with 6 GiB from 1 GiB (RAM to 0x1bfffffff), 6.1,
    a rotated log. A kernel built without ZONE_DMA and ZONE_DMA32 (zoneinfo has
    Normal and Movable only) keeps arm64_dma_phys_limit at PHYS_MASK + 1: mem_init()
    finds no RAM beyond it, no pool (arch/arm64/mm/init.c); with ZONE_DMA32 the
    RAM above 4 GiB makes the default pool.
    Follows: no checked source: a synthetic 6 GiB board."""
    arm64_kmalloc_pool(t, "6.1.0-27-arm64")
    iomem = "40000000-1bfffffff : System RAM\n  40210000-4150ffff : Kernel code\n"
    zones = [("Normal", 0x40000, 0x180000, 0x180000), ("Movable", None, 0, 0)]
    if with_dma32:
        zones = [("DMA32", 0x40000, 0xc0000, 0xc0000), ("Normal", 0x100000, 0xc0000, 0xc0000),
                 ("Movable", None, 0, 0)]
    mi = "MemTotal:        6050532 kB\nMemFree:         5835120 kB\nBounce:                0 kB\n"
    proc(t, iomem, zoneinfo(zones), mi, "console=ttyS0,115200n8 root=/dev/mmcblk0p1 rootwait")
    mmc = "(.devices[] | select(.id == \"11230000.mmc\"))"
    if with_dma32:
        return [
            "# ZONE_DMA32 ends at 4 GiB and RAM goes beyond: mem_init() allocates the default pool",
            ".swiotlb.active == true and (.swiotlb.active_why | test(\"beyond the DMA zone\"))",
            ".swiotlb.size_bytes == 67108864",
            "# the MMC's 32-bit default mask misses the 3 GiB above 4 GiB, which bounce through the pool",
            "%s | .verdict == \"partial\" and .unreachable_ram_bytes == 3221225472" % mmc,
            "%s | length == 1" % finding("bounce-needed", "11230000.mmc"),
            "%s | length == 0" % finding("no-bounce-pool"),
            ".exit_status == 0",
        ] + [c for c in RESTRICTED_POOL_BOARD if "11230000.mmc" not in c or c.startswith("#")][1:]
    return [
        "# no ZONE_DMA or ZONE_DMA32 in zoneinfo: arm64_dma_phys_limit is the top of memory, no pool",
        ".swiotlb.active == false and (.swiotlb.active_why | test(\"no ZONE_DMA or ZONE_DMA32\"))",
        ".swiotlb.size_bytes == null",
        "# the MMC's 32-bit default mask misses the 3 GiB above 4 GiB, and there is no pool to bounce through",
        "%s | .verdict == \"fails\" and .unreachable_ram_bytes == 3221225472" % mmc,
        "%s | length == 1 and .[0].severity == \"error\"" % finding("bounce-impossible", "11230000.mmc"),
        "# the machine-wide note that no pool exists",
        "%s | length == 1" % finding("no-bounce-pool"),
        ".exit_status == 1",
    ] + [c for c in RESTRICTED_POOL_BOARD if "11230000.mmc" not in c or c.startswith("#")][1:]


def srat_table(ranges):
    """An ACPI SRAT (struct acpi_table_srat, 48 bytes) of memory affinity entries
    (struct acpi_srat_mem_affinity, 40 bytes): (base, length, flags), flags 1
    enabled, 3 enabled and hot-pluggable. The checksum is not checked."""
    import struct
    body = b"".join(struct.pack("<BBIHQQIIQ", 1, 40, 0, 0, base, length, 0, flags, 0)
                    for base, length, flags in ranges)
    head = struct.pack("<4sIBB6s8sI4sI", b"SRAT", 48 + len(body), 3, 0, b"BOCHS ",
                       b"BXPC    ", 1, b"BXPC", 1) + struct.pack("<I8s", 1, b"")
    return head + body


def x86_hotplug_3g(t, srat):
    """x86-iommu-soft-3g's 3 GiB machine without iommu=soft, a rotated log: no RAM
    above 4 GiB, but pci_swiotlb_detect() tests max_possible_pfn, which the SRAT's
    hot-pluggable ranges raise (drivers/acpi/numa/srat.c); QEMU -m 3G,maxmem=10G
    writes one from 4 GiB to 10 GiB. srat: None (unreadable: unknown), False (RAM
    ranges only), True (and the hotplug range).
    Follows: QEMU hw/i386/acpi-build.c build_srat's hotplug entry; the rest synthetic."""
    manifest(t, "x86_64", "6.1.0-27-amd64", "2026-12-03T08:00:00Z")
    proc(t, X86_3G_IOMEM, X86_3G_ZONEINFO, X86_3G_MEMINFO, "root=/dev/nvme0n1p1")
    x86_pc_devices(t)
    kmsg(t, ["nvme nvme0: 4/0/0 default/read/poll queues"], first_seq=9000)
    ranges = [(0, 0xa0000, 1), (0x100000, 0xbff00000, 1)]
    if srat:
        ranges.append((0x100000000, 0x180000000, 3))
    if srat is not None:
        t.file("sys/firmware/acpi/tables/SRAT", srat_table(ranges))
    devs = [
        "# 3 GiB, all below 4 GiB: the 32-bit AHCI and the 64-bit NVMe reach all of it, pool or none",
        "%s | .verdict == \"direct\"" % dev("0000:00:1f.2"),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        ".exit_status == 0",
    ]
    if srat is None:
        return [
            "# no boot log and no SRAT: a hot-pluggable range above 4 GiB would make a pool, unknown",
            ".swiotlb.active == null and (.swiotlb.active_why | test(\"max_possible_pfn\"))",
        ] + devs
    if srat:
        return [
            "# the SRAT's hotplug range ends at 10 GiB: max_possible_pfn > MAX_DMA32_PFN, the default pool",
            ".swiotlb.active == true and .swiotlb.active_provenance == \"derived\"",
            "(.swiotlb.active_why | test(\"SRAT\")) and .swiotlb.size_bytes == 67108864",
            "[.inputs[] | select(.path == \"sys/firmware/acpi/tables/SRAT\")][0].status == \"ok\"",
        ] + devs
    return [
        "# the SRAT holds only the 3 GiB: max_possible_pfn is max_pfn, no pool",
        ".swiotlb.active == false and .swiotlb.active_provenance == \"derived\"",
    ] + devs


# ---- issue 36 part: 6.16's companions of the block-bounce removal (usb-storage) ----

def armhf_lpae_usb(t, release, refused):
    """A 32-bit ARM LPAE board (2 GiB at 0x40000000, 1.25 GiB of it highmem:
    meminfo's HighTotal, CONFIG_HIGHMEM) with two USB host controllers, each
    with a USB disk plugged in: an EHCI (ehci-platform: ehci_hc_driver sets
    HCD_DMA) and the OHCI of an SM501 companion chip (ohci-sm501: a
    localmem_pool, usb_hcd_setup_local_mem, 7d9e6f5aebe8). usb_stor_probe1()
    gives the SM501's bus a BLK_BOUNCE_HIGH queue before 6.16 and refuses it
    from 6.16 (48610ec22f0c, CONFIG_HIGHMEM): "USB Mass Storage not supported
    on this host controller", no disk. The EHCI's disk is the same on both
    sides. Follows: drivers/usb/storage/usb.c usb_stor_probe1's two lines; the
    board, its addresses and the SM501's placement are synthetic."""
    manifest(t, "armv7l", release, "2026-12-07T08:00:00Z")
    proc(t, ARM2013_IOMEM, ARM2013_ZONEINFO,
         "MemTotal:        2097152 kB\nMemFree:         1000000 kB\nHighTotal:       1318912 kB\n"
         "HighFree:         900000 kB\nLowTotal:         778240 kB\nLowFree:          100000 kB\n",
         "console=ttyS0 root=/dev/mmcblk0p2")
    dt_node(t, "", n_address_cells=[1], n_size_cells=[1], compatible=strings("vendor,board"))
    dt_node(t, "soc", n_address_cells=[1], n_size_cells=[1], compatible="simple-bus", ranges=b"")
    dt_node(t, "soc/usb@12110000", compatible="generic-ehci", reg=[0x12110000, 0x100])
    dt_node(t, "soc/usb@13e40000", compatible="smi,sm501", reg=[0x13e40000, 0x20000])
    soc = "sys/devices/platform/soc"
    platform(t, soc, "soc", "simple-bus")
    ehci = platform(t, soc + "/12110000.usb", "soc/usb@12110000", "generic-ehci",
                    "ehci-platform", "ehci_platform")
    ohci = platform(t, soc + "/13e40000.usb", "soc/usb@13e40000", "smi,sm501",
                    "sm501-usb", "ohci_hcd")
    buses = ((1, ehci, "sda", (8, 0)), (2, ohci, "sdb", (8, 16)))
    for n, hcd, _, _ in buses:
        hub = "%s/usb%d" % (hcd, n)
        t.file(hub + "/busnum", "%d\n" % n)
        t.link("sys/bus/usb/devices/usb%d" % n, hub)
    lines = [
        "Booting Linux on physical CPU 0x0",
        "Linux version %s (debian-kernel@lists.debian.org) #1 SMP Debian" % release,
    ] + arm_cpu_lines(0x30c5387d)
    for n, hcd, name, mm in buses:
        intf = "%d-1:1.0" % n
        lines.append(("usb-storage %s: USB Mass Storage device detected" % intf,
                      ["SUBSYSTEM=usb", "DEVICE=+usb:" + intf]))
        if refused and n == 2:
            lines.append(("!usb-storage %s: USB Mass Storage not supported on this host controller" % intf,
                          ["SUBSYSTEM=usb", "DEVICE=+usb:" + intf]))
            continue
        sdev = "%s/usb%d/%d-1/%s/host%d/target%d:0:0/%d:0:0:0" % (hcd, n, n, intf, n - 1, n - 1, n - 1)
        disk(t, sdev, name, [name + "1"], mm, sectors=62333952, max_sectors_kb=240,
             max_hw_sectors_kb=240)
    kmsg(t, lines)
    e, o = dev("12110000.usb"), dev("13e40000.usb")
    checks = [
        "# LPAE (SCTLR bit 29 in the boot log) with highmem: the kernels 48610ec22f0c speaks of",
        ".kernel.arm_lpae == true",
        "# the EHCI does DMA (HCD_DMA) and its 32-bit mask reaches all 2 GiB: direct on both sides of 6.16",
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0" % e,
        "[.block[] | select(.dma_device == \"12110000.usb\") | .disk] == [\"sda\"]",
    ]
    if refused:
        return checks + [
            "# 6.16: usb-storage refused the SM501's bus (boot log): no disk, and a host controller",
            "# that does DMA only from its own local memory maps no RAM",
            "%s | .verdict == \"idle\" and (.reason | test(\"usb-storage refused\"))" % o,
            "[.block[] | .disk] == [\"sda\"]",
            ".exit_status == 0",
        ]
    return checks + [
        "# 6.15: usb-storage probed on the SM501's bus (a BLK_BOUNCE_HIGH queue, which 5.13-6.15 never",
        "# bounces with highmem): sdb is there, and nothing says its controller maps no RAM, so its mask",
        "# and the RAM decide, as for any master: the 32-bit default reaches all 2 GiB",
        "%s | .verdict == \"direct\" and .unreachable_ram_bytes == 0 and (.reason | test(\"usb-storage\") | not)" % o,
        "[.block[] | select(.dma_device == \"13e40000.usb\") | .disk] == [\"sdb\"]",
        ".exit_status == 0",
    ]


# ---- issue 36 part 7 (i36c): mapping out of reach with no pool (ERA_POOLLESS_MAP) ----
# Where mem_init() makes no pool, arm64 (5.0 on), 32-bit ARM LPAE (fcf044891c84:
# 5.13, stable 5.4.149 and 5.10.69) and riscv (ce3aca0465e3, 5.14) set
# swiotlb_force = SWIOTLB_NO_FORCE, so kernel/dma/direct.h dma_direct_map_page()
# (5.10-5.18: "if (swiotlb_force != SWIOTLB_NO_FORCE) return swiotlb_map(...)")
# skips swiotlb_map(), whose trace_swiotlb_bounced() would fire, and logs
# dev_WARN_ONCE "DMA addr %pad+%zu overflow (mask %llx, bus limit %llx).": one
# line per boot ("DRIVER DEVICE: " before it, no dev_printk dictionary), no event.

# the swiotlb_bounced format before 6.0 (an enum swiotlb_force field), as tests/fuzz/seeds/trace/format-5.10
FORMAT_5_10 = (
    "name: swiotlb_bounced\nID: 1196\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:__data_loc char[] dev_name;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:u64 dma_mask;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:dma_addr_t dev_addr;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:size_t size;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:enum swiotlb_force swiotlb_force;\toffset:40;\tsize:4;\tsigned:0;\n\n"
    "print fmt: \"dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s\", __get_str(dev_name), "
    "REC->dma_mask, (unsigned long long)REC->dev_addr, REC->size, "
    "__print_symbolic(REC->swiotlb_force, { SWIOTLB_NORMAL, \"NORMAL\" }, "
    "{ SWIOTLB_FORCE, \"FORCE\" }, { SWIOTLB_NO_FORCE, \"NO_FORCE\" })\n")


def poolless_observe(t, bounces=(), overflow=None):
    """A 5-second --observe window: bounces, (device, mask, addr, size) records of
    swiotlb_bounced; overflow, one raw kmsg record logged during the window."""
    o = "run/dmamask-audit/observe/"
    t.file(o + "window", "requested_seconds=5\nwindow_seconds=5.000\ninterrupted=0\n"
           "lost_events=0\ntracefs=sys/kernel/tracing\n")
    t.file(o + "format", FORMAT_5_10)
    t.file(o + "trace", "# tracer: nop\n#\n" + "".join(
        bounce_line(d, mask, addr, size, t=101 + i)
        for i, (d, mask, addr, size) in enumerate(bounces)))
    if overflow:
        t.file(o + "kmsg", "4,900,104800000,-;%s\n" % overflow)


def arm64_poolless_515(t):
    """A 5.15 arm64 board whose 2 GiB of RAM start at 32 GiB (0x800000000), a
    rotated log: max_zone_phys() caps ZONE_DMA at the end of RAM when RAM starts
    above 4 GiB ("if (phys_start > U32_MAX) zone_mask = PHYS_ADDR_MAX"), so no RAM
    lies beyond arm64_dma_phys_limit and mem_init() makes no pool (SWIOTLB_NO_FORCE).
    The MMC's default 32-bit mask reaches none of it: every mapping fails, and the
    window's kernel log holds dma-direct's overflow line, with no swiotlb_bounced event.
    Follows: arch/arm64/mm/init.c (5.15) max_zone_phys, zone_sizes_init, mem_init;
    kernel/dma/direct.h dma_direct_map_page; the board itself is synthetic."""
    manifest(t, "aarch64", "5.15.80", "2026-12-07T07:00:00Z")
    iomem = ("11230000-11230fff : 11230000.mmc mmc@11230000\n"
             "800000000-87fffffff : System RAM\n  800210000-80150ffff : Kernel code\n")
    zi = zoneinfo([("DMA", 0x800000, 0x80000, 0x80000), ("DMA32", None, 0, 0),
                   ("Normal", None, 0, 0), ("Movable", None, 0, 0)])
    mi = "MemTotal:        2010532 kB\nMemFree:         1835120 kB\nBounce:                0 kB\n"
    proc(t, iomem, zi, mi, "console=ttyS0,115200n8 root=/dev/mmcblk0p1 rootwait")
    dt_node(t, "", n_address_cells=[2], n_size_cells=[2], compatible=strings("vendor,board"))
    dt_node(t, "soc", n_address_cells=[2], n_size_cells=[2], compatible="simple-bus", ranges=b"")
    dt_node(t, "soc/mmc@11230000", compatible="mediatek,mt7622-mmc",
            reg=[0x0, 0x11230000, 0x0, 0x1000])
    mmc = platform(t, "sys/devices/platform/soc/11230000.mmc", "soc/mmc@11230000",
                   "mediatek,mt7622-mmc", "mtk-msdc", "mtk_sd")
    card = mmc + "/mmc_host/mmc0/mmc0:0001"
    disk(t, card, "mmcblk0", ["mmcblk0p1"], (179, 0), sectors=31116288)
    kmsg(t, ["mmc0: new high speed SDHC card at address 0001"], first_seq=700)
    poolless_observe(t, overflow="mtk-msdc 11230000.mmc: DMA addr 0x0000000800123000+4096 "
                     "overflow (mask ffffffff, bus limit 0).")
    d = dev("11230000.mmc")
    return [
        "# RAM starts above 4 GiB: ZONE_DMA spans all of it, so mem_init() makes no pool",
        ".swiotlb.active == false",
        "# the MMC's 32-bit mask reaches none of the 2 GiB at 0x800000000: its mappings fail",
        "%s | .verdict == \"fails\" and .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 2147483648" % d,
        "%s | length == 1 and .[0].severity == \"error\" and .[0].evidence.limit == \"0xffffffff\"" % finding("bounce-impossible", "11230000.mmc"),
        "%s | length == 1 and .[0].evidence.ram_above_bytes == 2147483648" % finding("no-bounce-pool"),
        "# arm64 5.15 without a pool (SWIOTLB_NO_FORCE): the overflow line, no swiotlb_bounced event, as predicted",
        "%s | .observed.bounces == 0 and .observed.overflow_messages == 1" % d,
        "%s | .observed.prediction == \"consistent\"" % d,
        ".exit_status == 1",
    ]


B44_MASK = 0x3fffffff  # drivers/net/ethernet/broadcom/b44.c b44_init_one: dma_set_mask_and_coherent(DMA_BIT_MASK(30))


def b44_nic(t):
    """A Broadcom BCM4401 (b44) NIC at 0000:00:05.0 of a host bridge, with its eth1."""
    b44 = pci(t, "sys/devices/pci0000:00", "0000:00:05.0", 0x14e4, 0x4401, 0x020000, 30,
              "b44", "b44", subsys=(0x14e4, 0x4401))
    t.file(b44 + "/net/eth1/address", "52:54:00:12:34:57\n")
    t.link(b44 + "/net/eth1/device", b44)
    t.link("sys/class/net/eth1", b44 + "/net/eth1")
    return "0000:00:05.0"


def arm_lpae_poolless_510(t, release):
    """arm_window_board's 2 GiB from 0x40000000 under an LPAE 5.10 stable kernel
    (cr=30c5387d in the boot log), its SoC bus unlimited (an empty dma-ranges) and a
    b44 in a PCI slot, whose 30 bits reach none of the RAM. All RAM lies below
    arm_dma_pfn_limit (no dma_zone_size: 4 GiB), so from 5.10.69 (fcf044891c84
    backported) mem_init() makes no pool and sets SWIOTLB_NO_FORCE: dma-direct's
    overflow line, no event. 5.10.68's mem_init() calls swiotlb_init(1) whatever
    the RAM: a pool at the top of lowmem, out of the 30 bits' reach too, so
    swiotlb_map() fires swiotlb_bounced, then logs "swiotlb addr ... overflow".
    Follows: arch/arm/mm/init.c mem_init (fcf044891c84, stable 5.10.69);
    kernel/dma/direct.h dma_direct_map_page; kernel/dma/swiotlb.c swiotlb_map."""
    pool = release == "5.10.68"
    log = arm_cpu_lines(0x30c5387d)
    if pool:
        log.append("software IO TLB: mapped [mem 0x6b800000-0x6f800000] (64MB)")
    arm_window_board(t, release, log)
    # an empty dma-ranges: the SoC bus maps 1:1, no limit on the Ethernet
    t.file(DT + "/soc/dma-ranges", b"")
    nic = b44_nic(t)
    d = dev(nic)
    common = [
        ".kernel.arm_lpae == true",
        "# the SoC's Ethernet: a 32-bit default mask and no window reach all RAM, below 4 GiB",
        "%s | .verdict == \"direct\"" % dev("12000000.ethernet"),
        "%s | .[0].evidence.unnecessary_bounce_bytes == 796917760" % finding("pfn-count-confusion"),
    ] + ARM_510_CONFUSION
    if pool:
        poolless_observe(t, bounces=[(nic, B44_MASK, 0x80001000, 1538)],
                         overflow="b44 %s: swiotlb addr 0x000000006b800000+1538 overflow "
                         "(mask 3fffffff, bus limit 0)." % nic)
        return [
            "# 5.10.68: mem_init() makes the pool whatever the RAM, at the top of lowmem, past 30 bits",
            ".swiotlb.active == true and .swiotlb.pool_start == \"0x6b800000\"",
            "%s | .verdict == \"fails\" and .swiotlb_pool_reachable == false and .kernel_model == \"dma-direct\"" % d,
            "%s | .unreachable_ram_bytes == 2147483648" % d,
            "%s | length == 1 and .[0].evidence.limit == \"0x3fffffff\" and .[0].evidence.pool_start == \"0x6b800000\" and .[0].evidence.pool_end == \"0x6f7fffff\"" % finding("swiotlb-out-of-reach", nic),
            "%s | length == 1 and .[0].evidence.limit == \"0x3fffffff\"" % finding("bounce-impossible", nic),
            "# swiotlb_map() fires swiotlb_bounced before its slot proves out of reach: an attempt, not a bounce",
            "%s | .observed.bounces == 1 and .observed.overflow_messages == 1" % d,
            "%s | .observed.prediction == \"consistent\" and (.observed.why | test(\"out of its reach\"))" % d,
            "%s | length == 1 and .[0].evidence.lowest_addr == \"0x80001000\"" % finding("bounce-observed", nic),
            ".exit_status == 1",
        ] + common
    poolless_observe(t, overflow="b44 %s: DMA addr 0x0000000080001000+1538 overflow "
                     "(mask 3fffffff, bus limit 0)." % nic)
    return [
        "# 5.10.69: all RAM below arm_dma_pfn_limit, no pool, SWIOTLB_NO_FORCE (fcf044891c84)",
        ".swiotlb.active == false",
        "%s | .verdict == \"fails\" and .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 2147483648" % d,
        "%s | length == 1 and .[0].severity == \"error\" and .[0].evidence.dma_mask == \"0x3fffffff\"" % finding("bounce-impossible", nic),
        "# no RAM above 4 GiB and no window: no machine-wide note, the b44's own finding says it",
        "%s | length == 0" % finding("no-bounce-pool"),
        "# no swiotlb_map(): the overflow line and no swiotlb_bounced event, as predicted",
        "%s | .observed.bounces == 0 and .observed.overflow_messages == 1" % d,
        "%s | .observed.prediction == \"consistent\"" % d,
        ".exit_status == 1",
    ] + common


def riscv_poolless(t, release):
    """riscv_virt_1g's 1 GiB at 0x80000000 with a Broadcom BCM4401 (b44, whose
    driver sets a 30-bit mask: DMA_BIT_MASK(30) in b44_init_one) that reaches none
    of it. 5.14's mem_init() makes no pool with all RAM below dma32_phys_limit and
    sets SWIOTLB_NO_FORCE (ce3aca0465e3): the overflow line, no event. 5.13's
    setup_arch() calls swiotlb_init(1) always: a pool at the top of RAM, which the
    30 bits do not reach either: swiotlb_map() fires swiotlb_bounced, takes a slot,
    then logs "swiotlb addr ... overflow" and fails.
    Follows: arch/riscv/mm/init.c mem_init (ce3aca0465e3), drivers/net/ethernet/
    broadcom/b44.c b44_init_one, kernel/dma/swiotlb.c swiotlb_map (5.13)."""
    board = riscv_virt_1g(t, release, False)
    nic = b44_nic(t)
    d = dev(nic)
    if release.startswith("5.13."):
        # the boot log says where memblock_alloc_low() put the pool: the top of RAM
        kmsg(t, ["Linux version %s (riscv64-linux-gnu-gcc 10.2.1) #1 SMP" % release,
                 "software IO TLB: mapped [mem 0x00000000bbfff000-0x00000000bffff000] (64MB)",
                 "virtio_blk virtio1: [vda] 16777216 512-byte logical blocks"])
        poolless_observe(t, bounces=[(nic, B44_MASK, 0x80400000, 1538)],
                         overflow="b44 %s: swiotlb addr 0x00000000bbfff000+1538 overflow "
                         "(mask 3fffffff, bus limit 0)." % nic)
        return board[1:] + [
            "# 5.13: the boot log's pool (it outranks the era's guess), at the top of the 1 GiB",
            ".swiotlb.active == true and (.swiotlb.active_why | test(\"kernel log\")) and .swiotlb.pool_start == \"0xbbfff000\"",
            "# past the 30-bit reach: the b44's mappings fail there, in dma-direct's swiotlb",
            "%s | .kernel_model == \"dma-direct\"" % d,
            "%s | .[0].evidence.pool_start == \"0xbbfff000\" and .[0].evidence.pool_end == \"0xbfffefff\"" % finding("swiotlb-out-of-reach", nic),
            "%s | .verdict == \"fails\" and .swiotlb_pool_reachable == false and .unreachable_ram_bytes == 1073741824" % d,
            "%s | length == 1 and .[0].evidence.limit == \"0x3fffffff\"" % finding("swiotlb-out-of-reach", nic),
            "%s | length == 1 and .[0].evidence.limit == \"0x3fffffff\"" % finding("bounce-impossible", nic),
            "# swiotlb_map() fires swiotlb_bounced before its slot proves out of reach: an attempt, not a bounce",
            "%s | .observed.bounces == 1 and .observed.overflow_messages == 1" % d,
            "%s | .observed.prediction == \"consistent\" and (.observed.why | test(\"out of its reach\"))" % d,
            "%s | length == 1 and .[0].evidence.lowest_addr == \"0x80400000\"" % finding("bounce-observed", nic),
            ".exit_status == 1",
        ]
    poolless_observe(t, overflow="b44 %s: DMA addr 0x0000000080400000+1538 overflow "
                     "(mask 3fffffff, bus limit 0)." % nic)
    return board + [
        "# 5.14: no pool (all RAM below 4 GiB), SWIOTLB_NO_FORCE: the b44's mappings fail",
        "%s | .verdict == \"fails\" and .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == 1073741824" % d,
        "%s | length == 1 and .[0].severity == \"error\" and .[0].evidence.dma_mask == \"0x3fffffff\"" % finding("bounce-impossible", nic),
        "# no RAM above 4 GiB and no dma-ranges window: no machine-wide note, the b44's own finding says it",
        "%s | length == 0" % finding("no-bounce-pool"),
        "# no swiotlb_map(): the overflow line and no swiotlb_bounced event, as predicted",
        "%s | .observed.bounces == 0 and .observed.overflow_messages == 1" % d,
        "%s | .observed.prediction == \"consistent\"" % d,
        ".exit_status == 1",
    ]


# ---------------------------------------------------------------- issue 39: another card in a slot

def x86_slot_card(t, card):
    """x86-pc-4g's machine (6.1, 24 GiB, 21 GiB above 4 GiB, the pool below 4 GiB)
    with a QEMU card at 0000:00:02.0, before and after it was swapped: --diff's
    "replaced" pair. "ehci": QEMU's usb-ehci (8086:24cd, hw/usb/hcd-ehci-pci.c;
    hcd-ehci.c writes HCCPARAMS 0x80, "no 64-bit"), so ehci-pci keeps the PCI
    default 32-bit mask (drivers/usb/host/ehci-hcd.c ehci_run sets none).
    "pcnet": QEMU's pcnet (1022:2000, hw/net/pcnet-pci.c), whose driver sets
    PCNET32_DMA_MASK, 32 bits (drivers/net/ethernet/amd/pcnet32.c
    pcnet32_probe_pci). Both bounce RAM above 4 GiB: the same verdict, another
    device. Follows: x86-pc-4g's tree; the card's udev ID_PATH as path_id makes
    it for a PCI function ("pci-" and the address)."""
    manifest(t, "x86_64", "6.1.0-27-amd64",
             "2026-12-01T08:00:00Z" if card == "ehci" else "2026-12-02T08:00:00Z")
    x86_proc(t, "console=ttyS0 root=/dev/nvme0n1p1")
    x86_pc_devices(t)
    bus = "sys/devices/pci0000:00"
    slot = "0000:00:02.0"
    if card == "ehci":
        pci(t, bus, slot, 0x8086, 0x24cd, 0x0c0320, 32, "ehci-pci", "ehci_pci", subsys=(0x1af4, 0x1100))
        name = "ehci-pci"
    else:
        path = pci(t, bus, slot, 0x1022, 0x2000, 0x020000, 32, "pcnet32", "pcnet32",
                   subsys=(0x1af4, 0x1100))
        t.file(path + "/net/eth0/address", "52:54:00:12:34:56\n")
        t.link(path + "/net/eth0/device", path)
        t.link("sys/class/net/eth0", path + "/net/eth0")
        name = "pcnet32"
    t.file("run/dmamask-audit/udev/" + slot, "ID_PATH=pci-%s\n" % slot)
    kmsg(t, X86_BOOT + [
        "Command line: console=ttyS0 root=/dev/nvme0n1p1",
        "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)",
        SWIOTLB_X86,
        dev_line(slot, "[%s] type 00 class 0x%06x" % (
            "8086:24cd" if card == "ehci" else "1022:2000", 0x0c0320 if card == "ehci" else 0x020000)),
    ])
    return [
        "# the card in slot %s: %s, 32-bit, on 6.1 with RAM above 4 GiB and the pool below it" % (slot, name),
        "%s | .driver == \"%s\" and .pci_ids.vendor == \"%s\" and .pci_ids.device == \"%s\""
        % (dev(slot), name, "8086" if card == "ehci" else "1022", "24cd" if card == "ehci" else "2000"),
        "%s | .udev.ID_PATH == \"pci-%s\"" % (dev(slot), slot),
        "# its 32-bit mask leaves RAM 0x100000000-0x63fffffff out of reach: dma-direct bounces it through the pool",
        "%s | .verdict == \"partial\" and .dma_mask_bits == 32 and .kernel_model == \"dma-direct\"" % dev(slot),
        "%s | .unreachable_ram_bytes == %d and .swiotlb_pool_reachable == true" % (dev(slot), X86_ABOVE_4G),
        "%s | length == 1 and .[0].severity == \"warning\"" % finding("bounce-needed", slot),
        "# x86-pc-4g's own: the AHCI bounces as there, the NVMe is direct",
        "%s | .verdict == \"partial\" and .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == %d"
        % (dev(AHCI), X86_ABOVE_4G),
        "%s | length == 1 and .[0].severity == \"warning\"" % finding("bounce-needed", AHCI),
        "%s | .verdict == \"direct\"" % dev("0000:01:00.0"),
        "[.findings[] | select(.severity == \"error\")] | length == 0",
        ".exit_status == 0",
    ]


FIXTURES = {
    "x86-pc-4g": x86_pc_4g,
    "x86-force-pool-30bit": x86_force_pool_30bit,
    "x86-iommu-dmafq": x86_iommu_dmafq,
    "x86-sme-host": x86_sme_host,
    "x86-32-pae-scsi-4.19": x86_32_pae_scsi_419,
    "arm-5.10-armmp-window": arm_510_armmp_window,
    "x86-hyperv-snp": x86_hyperv_snp,
    "arm64-rpi4-4.19": arm64_rpi4_419,
    "arm64-rpi4-5.4": arm64_rpi4_54,
    "s390-pv-guest": s390_pv_guest,
    "arm-5.10-lpae-window": arm_510_lpae_window,
    "x86-noforce": x86_noforce,
    "x86-sev-guest": x86_sev_guest,
    "x86-tdx-guest": x86_tdx_guest,
    "xen-dom0": xen_dom0,
    "arm64-rpi4": arm64_rpi4,
    "arm64-imx8mp": arm64_imx8mp,
    "arm64-restricted-pool": arm64_restricted_pool,
    "arm-2013-highmem": arm_2013_highmem,
    "arm-256m-26bit": arm_256m_26bit,
    "arm-256m-c3ffffff": arm_256m_c3ffffff,
    "x86-unbound": x86_unbound,
    "x86-virtio": x86_virtio,
    "arm-2012-boardfile": arm_2012_boardfile,
    "arm64-pool-high": arm64_pool_high,
    "arm64-pool-high-7.2": arm64_pool_high_7_2,
    "arm64-virt": arm64_virt,
    "x86-sev-nvme-4.19": x86_sev_nvme_4_19,
    "x86-swiotlb-dynamic": x86_swiotlb_dynamic,
    "x86-thunderbolt": lambda t: x86_thunderbolt(t, True),
    "x86-thunderbolt-3g": lambda t: x86_thunderbolt(t, False),
    "x86-intel-4.14-iommu": x86_intel_414_iommu,
    "x86-intel-4.19-pt": x86_intel_419_pt,
    "x86-amd-4.14-pt": x86_amd_414_pt,
    "x86-pt-vendor-unknown": x86_pt_vendor_unknown,
    "x86-memory-inputs-disagree": x86_memory_inputs_disagree,
    "x86-manifest-contradicted": x86_manifest_contradicted,
    "x86-nonroot-consistent": x86_nonroot_consistent,
    "arm64-restricted-pool-ignored": arm64_restricted_pool_ignored,
    "arm64-restricted-pool-5.10": arm64_restricted_pool_510,
    "x86-iommu-soft-3g": x86_iommu_soft_3g,
    "x86-amd-5.10-iommu": x86_amd_510_iommu,
    # 121660bba631 in stable 5.15.46 (also 5.17.14, 5.18.3): one release each side
    "x86-amd-5.15.45-iommu": lambda t: x86_amd_510_iommu(t, "5.15.45-1-amd64"),
    "x86-amd-5.15.46-iommu": lambda t: x86_amd_510_iommu(t, "5.15.46-1-amd64"),
    "arm64-kmalloc-pool-6.1": lambda t: arm64_kmalloc_pool(t, "6.1.0-27-arm64"),
    "arm64-kmalloc-pool-6.6": lambda t: arm64_kmalloc_pool(t, "6.6.58-arm64"),
    "arm64-kmalloc-pool-6.12": lambda t: arm64_kmalloc_pool(t, "6.12.9-arm64"),
    "arm64-dma-zone-1g": arm64_dma_zone_1g,
    "x86-observed": x86_observed,
    "x86-observed-quiet": x86_observed_quiet,
    "arm-5.10-log-nolpae": arm_510_log_nolpae,
    "arm-5.10-log-lpae": arm_510_log_lpae,
    "arm64-rpi4-nonroot": arm64_rpi4_nonroot,
    "arm64-4.14-pcie-window": arm64_414_pcie_window,
    "x86-amd-5.3-identity": lambda t: x86_amd_identity(t, "5.3.18-1-amd64"),
    "x86-amd-5.4-identity": lambda t: x86_amd_identity(t, "5.4.203-1-amd64"),
    "x86-amd-5.15.45-untrusted": lambda t: x86_amd_untrusted(t, "5.15.45-1-amd64"),
    "arm64-rpi4-1g": arm64_rpi4_1g,
    "riscv-5.13-1g": lambda t: riscv_virt_1g(t, "5.13.19", True),
    "riscv-5.14-1g": lambda t: riscv_virt_1g(t, "5.14.21", True),
    "riscv-6.9-1g-zicbom": lambda t: riscv_virt_1g(t, "6.9.12", True),
    "riscv-6.10-1g-zicbom": lambda t: riscv_virt_1g(t, "6.10.14", True),
    "riscv-6.12-1g-coherent": lambda t: riscv_virt_1g(t, "6.12.9", False),
    "x86-32-pae-scsi-4.17": lambda t: x86_32_pool(t, "4.17.17-1-686-pae", True),
    "x86-32-pae-scsi-4.18": lambda t: x86_32_pool(t, "4.18.20-2-686-pae", True),
    "x86-32-3g-4.19.0": lambda t: x86_32_pool(t, "4.19.0", False),
    "x86-32-3g-4.19-stable": lambda t: x86_32_pool(t, "4.19.316-686-pae", False),
    # 88743470668e in stable 4.19.126 and 5.4.44 (and 5.6.16; 5.7 in mainline)
    "x86-32-3g-4.19.125": lambda t: x86_32_pool(t, "4.19.125-686-pae", False),
    "x86-32-3g-5.4.44": lambda t: x86_32_pool(t, "5.4.44-686-pae", False),
    "x86-32-3g-5.8": lambda t: x86_32_pool(t, "5.8.18-686-pae", False),
    "arm64-4.7-pool": lambda t: arm64_early_pool(t, "4.7.10-arm64"),
    "arm64-4.8-pool": lambda t: arm64_early_pool(t, "4.8.17-arm64"),
    "arm64-acpi-iort-4.13": lambda t: arm64_acpi_iort(t, "4.13.16-arm64"),
    "arm64-acpi-iort-4.18": lambda t: arm64_acpi_iort(t, "4.18.20-arm64"),
    "arm64-acpi-iort-6.1": lambda t: arm64_acpi_iort(t, "6.1.119-arm64"),
    "arm64-acpi-iort-masks-5.10.12": lambda t: arm64_acpi_iort_masks(t, "5.10.12"),
    "arm64-acpi-iort-masks-5.10.13": lambda t: arm64_acpi_iort_masks(t, "5.10.13"),
    "x86-sev-nvme-256k-5.11": lambda t: x86_sev_nvme_256k(t, "5.11.22"),
    # the min_align_mask series in stable 5.10.35 and 5.11.19: one release each side
    "x86-sev-nvme-256k-5.10.34": lambda t: x86_sev_nvme_256k(t, "5.10.34"),
    "x86-sev-nvme-256k-5.10.35": lambda t: x86_sev_nvme_256k(t, "5.10.35"),
    "x86-sev-nvme-256k-5.11.18": lambda t: x86_sev_nvme_256k(t, "5.11.18"),
    "x86-sev-nvme-256k-5.12": lambda t: x86_sev_nvme_256k(t, "5.12.19"),
    "x86-thunderbolt-3g-5.14": lambda t: x86_thunderbolt_era(t, "5.14.21-1-amd64", True),
    "x86-thunderbolt-3g-5.15.60": lambda t: x86_thunderbolt_era(t, "5.15.60-1-amd64", False),
    "x86-thunderbolt-3g-5.15.61": lambda t: x86_thunderbolt_era(t, "5.15.61-1-amd64", True),
    # c51ba246cb17 also in stable 5.18.18: the panic, one release each side
    "x86-thunderbolt-3g-5.18.17": lambda t: x86_thunderbolt_era(t, "5.18.17-1-amd64", False),
    "x86-thunderbolt-3g-5.18.18": lambda t: x86_thunderbolt_era(t, "5.18.18-1-amd64", True),
    # issue 36 part 5: fixtures off the beaten values
    "arm64-acpi-iort-segment1": arm64_acpi_iort_segment1,
    "x86-intel-4.19-pt-8g": x86_intel_pt_8g,
    "x86-intel-4.19-pt-8g-page": x86_intel_pt_8g_page,
    "arm64-ram-end-4g": arm64_ram_end_4g,
    "arm64-ram-end-4g-page": arm64_ram_end_4g_page,
    # DMA_BOUNCE_UNALIGNED_KMALLOC on arm64 from 6.5: one release each side
    "arm64-observed-kmalloc-6.4": lambda t: arm64_observed_kmalloc(t, "6.4.16-arm64"),
    "arm64-observed-kmalloc-6.5": lambda t: arm64_observed_kmalloc(t, "6.5.13-arm64"),
    # issue 36 part 3: platform devices' masks from their drivers, both sides of 4 GiB
    "arm64-h6": arm64_h6,
    "arm64-mt8183-36bit": lambda t: arm64_mt8183(t, "6.12.38+deb13-arm64", "dma mask: 36 bits"),
    "arm64-mt8183-32bit": lambda t: arm64_mt8183(t, "6.12.38+deb13-arm64", "dma mask: 32 bits"),
    "arm64-rpi3-sdhost": arm64_rpi3_sdhost,
    # issue 36 part 2: the pool's areas from the possible CPUs (6.0+)
    "arm64-kmalloc-pool-64cpu-6.6": lambda t: arm64_kmalloc_pool_cpus(t, "6.6.58-arm64"),
    "arm64-kmalloc-pool-64cpu-6.12": lambda t: arm64_kmalloc_pool_cpus(t, "6.12.9-arm64"),
    # issue 36 part 2: arm64 built without ZONE_DMA and ZONE_DMA32, and with ZONE_DMA32
    "arm64-no-dma-zones-6g": lambda t: arm64_dma_zones(t, False),
    "arm64-dma32-zone-6g": lambda t: arm64_dma_zones(t, True),
    # issue 36 part 2: x86-64 under 4 GiB, max_possible_pfn from the SRAT
    "x86-hotplug-3g-srat": lambda t: x86_hotplug_3g(t, True),
    "x86-hotplug-3g-no-hotplug": lambda t: x86_hotplug_3g(t, False),
    "x86-hotplug-3g-unread": lambda t: x86_hotplug_3g(t, None),
    # issue 36 part: usb-storage on a host controller without DMA, one release each side of 6.16
    "armhf-lpae-usb-pio-6.15": lambda t: armhf_lpae_usb(t, "6.15.6+deb14-armmp-lpae", False),
    "armhf-lpae-usb-pio-6.16": lambda t: armhf_lpae_usb(t, "6.16.3+deb14-armmp-lpae", True),
    # issue 36 part 7 (i36c): mapping out of reach with no pool, both sides of each row
    "arm64-poolless-5.15": arm64_poolless_515,
    "arm-lpae-poolless-5.10.69": lambda t: arm_lpae_poolless_510(t, "5.10.69"),
    "arm-lpae-poolless-5.10.68": lambda t: arm_lpae_poolless_510(t, "5.10.68"),
    "riscv-poolless-5.14": lambda t: riscv_poolless(t, "5.14.21"),
    "riscv-poolless-5.13": lambda t: riscv_poolless(t, "5.13.19"),
    # issue 39: the same slot, another card (--diff's "replaced")
    "x86-slot-ehci": lambda t: x86_slot_card(t, "ehci"),
    "x86-slot-pcnet": lambda t: x86_slot_card(t, "pcnet"),
}


def _with_evidence(fn, extra):
    def build_with(t):
        res = fn(t)
        if isinstance(res, tuple):
            return res[0], res[1] + ["# deciding evidence (issue 36)"] + extra
        return res + ["# deciding evidence (issue 36)"] + extra
    return build_with


# arm64-rpi4's board with the pool at 0xf8000000-0xfbffffff (its boot log line): the
# emmc2 reaches CPU 0-0x3fffffff at bus 0xc0000000 (bus limit 0xffffffff), RAM below
# that 0x3b400000 bytes of 8443133952; the VL805 reaches CPU 0-0xbfffffff (bus limit
# 0x17fffffff), RAM below that 0x3b400000 + 0x80000000; 6.6 and 7.2: dma-direct decides
POOL_HIGH_EVIDENCE = [
    "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == %d and .bus_limit == \"0xffffffff\""
    % (dev("fe340000.mmc"), 8443133952 - 0x3b400000),
    "%s | .kernel_model == \"dma-direct\" and .unreachable_ram_bytes == %d and .bus_limit == \"0x17fffffff\""
    % (dev("0000:01:00.0"), 8443133952 - 0x3b400000 - 0x80000000),
    "%s | .[0].evidence.limit == \"0xffffffff\" and .[0].evidence.pool_start == \"0xf8000000\" and .[0].evidence.pool_end == \"0xfbffffff\""
    % finding("swiotlb-out-of-reach", "fe340000.mmc"),
    "%s | .[0].evidence.limit == \"0x17fffffff\" and .[0].evidence.pool_start == \"0xf8000000\" and .[0].evidence.pool_end == \"0xfbffffff\""
    % finding("swiotlb-out-of-reach", "0000:01:00.0"),
    "%s | .[0].evidence.limit == \"0xffffffff\"" % finding("bounce-impossible", "fe340000.mmc"),
    "%s | .[0].evidence.limit == \"0x17fffffff\"" % finding("bounce-impossible", "0000:01:00.0"),
    "%s | .[0].evidence.bus_limit == \"0x17fffffff\"" % finding("mask-limited-by-bus", "0000:01:00.0"),
    "# the emmc2's window ends its reach at CPU 0x3fffffff, below its 32-bit mask (issue 38)",
    "%s | length == 1 and .[0].evidence.cpu_reach_end == \"0x3fffffff\"" % finding("mask-limited-by-bus", "fe340000.mmc"),
    "# the pool, not the reach, is what fails them: the remedy names it",
    "%s | .[0].evidence.limiter == \"pool\" and (.[0].remedy | test(\"pool\"))" % finding("bounce-impossible", "fe340000.mmc"),
    "# RAM past the emmc2's 1 GiB window: all of it but the first 0x3b400000 bytes",
    "%s | .[0].evidence.ram_above_bytes == %d" % (finding("no-bounce-pool"), 8443133952 - 0x3b400000),
]
EVIDENCE_PINS.setdefault("arm64-pool-high", []).extend(POOL_HIGH_EVIDENCE + [
    "# debugfs's high-water mark 32700 slots, and the log's one full line at 32640 of 32768",
    "[%s[] | select(.evidence.peak_used_bytes != null)] | .[0].evidence.peak_used_bytes == 32700 * 2048"
    % finding("swiotlb-pressure"),
    "[%s[] | select(.evidence.log_lines != null)] | .[0].evidence.log_lines == 1" % finding("swiotlb-pressure"),
])
EVIDENCE_PINS.setdefault("arm64-pool-high-7.2", []).extend(POOL_HIGH_EVIDENCE)
# 6.12 on arm64: from 5.13 the block layer bounces only highmem, which arm64 has not
# (ERA_BLOCK_BOUNCE): dma-direct's swiotlb is the layer that bounces
DMA_DIRECT = "%s | .kernel_model == \"dma-direct\""
EVIDENCE_PINS.setdefault("arm64-imx8mp", []).append(DMA_DIRECT % dev("30b60000.mmc"))
EVIDENCE_PINS.setdefault("arm64-mt8183-32bit", []).extend(
    [DMA_DIRECT % dev("11200000.usb"), DMA_DIRECT % dev("11201000.usb")])
EVIDENCE_PINS.setdefault("arm64-mt8183-36bit", []).append(DMA_DIRECT % dev("11200000.usb"))
# 6 GiB at 0x40000000 and the mt7622 MMC's 32 bits: 0x100000000-0x1bfffffff out of reach
EVIDENCE_PINS.setdefault("arm64-dma32-zone-6g", []).append(DMA_DIRECT % dev("11230000.mmc"))
EVIDENCE_PINS.setdefault("arm64-no-dma-zones-6g", []).extend([
    DMA_DIRECT % dev("11230000.mmc"),
    "%s | .[0].evidence.limit == \"0xffffffff\"" % finding("bounce-impossible", "11230000.mmc"),
    "%s | .[0].evidence.ram_above_bytes == 3221225472 and .[0].evidence.boundary == \"0x100000000\""
    % finding("no-bounce-pool")])
# what limits each device (issue 38): the subject of its remedy, one pin per kind of limiter
EVIDENCE_PINS.setdefault("arm-2013-highmem", []).extend([
    "# the count reading bounces lowmem too: the release's block layer, not the mask, is to blame",
    "%s | .limiter == \"kernel-era\"" % dev("12200000.mmc"),
    "%s | .[0].evidence.limiter == \"kernel-era\" and (.[0].remedy | test(\"5.13\"))"
    % finding("bounce-needed", "12200000.mmc")])
EVIDENCE_PINS.setdefault("x86-amd-5.4-identity", []).extend([
    "# an identity (passthrough) domain: a translated one would reach all RAM",
    "%s | .limiter == \"iommu\" and .iommu_domain == \"identity\"" % dev("0000:00:1f.2"),
    "%s | .[0].evidence.limiter == \"iommu\" and (.[0].remedy | test(\"passthrough\"))"
    % finding("bounce-needed", "0000:00:1f.2")])
EVIDENCE_PINS.setdefault("arm64-acpi-iort-6.1", []).extend([
    "# mask and IORT limit both 0xffffffff: a wider mask alone cannot help, so the limit is named",
    "%s | .dma_mask == \"0xffffffff\" and .bus_limit == \"0xffffffff\" and .limiter == \"bus-window\""
    % dev("APMC0D0D:00"),
    "# the 64-bit root port: the IORT's 32-bit limit ends it",
    "%s | .limiter == \"bus-window\" and .cpu_reach_end == \"0xffffffff\"" % dev("0000:00:01.0")])
EVIDENCE_PINS.setdefault("x86-virtio", []).extend([
    "# no window: a 32-bit mask ends the reach, and a wider one would reach further",
    "[.findings[] | select(.id == \"bounce-needed\")] | length == 1 and .[0].evidence.limiter == \"mask\""])

for _name, _extra in EVIDENCE_PINS.items():
    FIXTURES[_name] = _with_evidence(FIXTURES[_name], _extra)

HEADER = "# generated by tests/machines/gen-fixtures.py: edit that, not this file\n"


# where a developer's regeneration puts the roots: outside the source tree
DEV_OUT = os.path.join(tempfile.gettempdir(), "dmamask-fixtures")


def build(name, out=None):
    """Build NAME's root under out/NAME/root (tests), or under
    $TMPDIR/dmamask-fixtures with its checks and args rewritten in the source
    tree (out None: a developer regenerating)."""
    d = os.path.join(HERE, name)
    root = os.path.join(out or DEV_OUT, name, "root")
    if os.path.lexists(root):
        shutil.rmtree(root)
    os.makedirs(root)
    t = Tree(root)
    res = FIXTURES[name](t)
    args, checks = res if isinstance(res, tuple) else (None, res)
    t.check_links()
    if out:
        return
    with open(os.path.join(d, "checks"), "w") as f:
        f.write(HEADER + "\n".join(checks) + "\n")
    args_path = os.path.join(d, "args")
    if args:
        with open(args_path, "w") as f:
            f.write(args + "\n")
    elif os.path.exists(args_path):
        os.unlink(args_path)


def main(argv):
    out = None
    if argv[:1] == ["--list"]:
        print("\n".join(sorted(FIXTURES)))
        return
    if argv[:1] == ["--out"]:
        if len(argv) < 2:
            sys.exit("gen-fixtures.py: --out needs a directory")
        out, argv = argv[1], argv[2:]
    names = argv or sorted(FIXTURES)
    for n in names:
        if n not in FIXTURES:
            sys.exit("gen-fixtures.py: unknown fixture %s (known: %s)" % (n, " ".join(sorted(FIXTURES))))
    for n in names:
        build(n, out)
        if not out:
            print("# built %s: checks and args in %s, root in %s" %
                  (n, os.path.join(HERE, n), os.path.join(DEV_OUT, n, "root")))


if __name__ == "__main__":
    main(sys.argv[1:])
