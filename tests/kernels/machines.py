"""The machines of the real-kernel suite: what QEMU emulates and how the
guest kernel is booted. The judge (judge.py) holds no per-machine answer:
each machine is judged by the same rules against what its kernel did.

Fields:
  arch      amd64 | i386 | arm64 | armhf | riscv64 (kernels.py knows their kernel and QEMU)
  suite     the Debian suite whose kernel it boots (kernels.SUITES; bookworm
            when not given): bullseye 5.10, bookworm 6.1, trixie 6.12, sid 7.x
  flavour   the kernel flavour where an architecture has several (armhf:
            armmp-lpae, the default, or armmp without LPAE)
  machine   QEMU -machine value
  mem       guest RAM (QEMU -m)
  devices   QEMU arguments for the devices; DISK(n) is a fresh 64 MiB image
  append    kernel command line words beyond the suite's own
  modules   drivers the guest loads, in order (their dependencies follow)
  disks     block devices to wait for before the audit
  smp, cpu  QEMU -smp and -cpu where the board fixes them (default 1 and the
            architecture's CPU, kernels.ARCHES)
  dtb       the kernel package's own devicetree for a board QEMU builds none
            for (broadcom/bcm2837-rpi-3-b.dtb), passed as -dtb
  soc_dma_ranges  (with dtb) the /soc node's dma-ranges written as (bus, CPU, size)
  dma_ranges  (arm, riscv64) identity dma-ranges window (start, size) written into
            the PCIe host node of QEMU's own devicetree
  why       what the machine shows
"""

# QEMU's PIIX IDE and PCnet do 32-bit DMA; ata_piix and pcnet32 set 32-bit masks.
PC_32BIT = ["-device", "pcnet,netdev=n0", "-netdev", "user,id=n0"]
PC_MODULES = ["ata_piix", "sd_mod", "pcnet32"]
# The 53c810 SCSI host (sym53c8xx: 32-bit DMA) with one disk, on PCI(e) of any machine.
LSI_DISK = ["-device", "lsi53c810,id=scsi0",
            "-drive", "file=DISK(0),if=none,id=sd0,format=raw",
            "-device", "scsi-hd,bus=scsi0.0,drive=sd0"]
# A USB stick on EHCI: the disk's DMA device is the (32-bit) host controller.
EHCI_DISK = ["-device", "usb-ehci,id=ehci",
             "-drive", "file=DISK(2),if=none,id=usbdisk,format=raw",
             "-device", "usb-storage,bus=ehci.0,drive=usbdisk"]
# With VT-d's interrupt remapping, check_timer() panics ("timer doesn't work through
# Interrupt-remapped IO-APIC", arch/x86/kernel/apic/io_apic.c) when a TCG guest on a busy
# host misses the ticks timer_irq_works() waits for; no_timer_check skips that wait
NO_TIMER_CHECK = ["no_timer_check"]
# q35 with VT-d (interrupt remapping needs the split irqchip), a disk on its
# AHCI and a 32-bit one on EHCI.
Q35_IOMMU = (["-device", "intel-iommu,intremap=on", "-drive", "file=DISK(1),if=ide,format=raw"]
             + EHCI_DISK)

# q35 with AMD-Vi (QEMU's amd-iommu, which makes the IVRS table), the same disks
Q35_AMD_IOMMU = (["-device", "amd-iommu", "-drive", "file=DISK(1),if=ide,format=raw"]
                 + EHCI_DISK)
Q35_MODULES = ["ahci", "sym53c8xx", "sd_mod", "pcnet32", "ehci_pci", "usb_storage"]

# QEMU's Raspberry Pi 3B (hw/arm/raspi.c): 4 Cortex-A53, 1 GiB fixed, no devicetree of
# its own: Debian's. /soc's dma-ranges puts RAM at bus 0xc0000000 (the VideoCore's
# alias); the SD card sits on sdhost (the DT's pinctrl routes GPIO 48-53 to it), the
# USB disk and NIC on the DWC2. bcm2835_wdt: poweroff (bcm2835_power_off) ends QEMU
RASPI3B = dict(name="arm64-raspi3b", arch="arm64", machine="raspi3b", mem="1G", smp=4,
               cpu="cortex-a53", dtb="broadcom/bcm2837-rpi-3-b.dtb",
               devices=["-drive", "file=DISK(0),if=sd,format=raw",
                        "-drive", "file=DISK(1),if=none,id=usbdisk,format=raw",
                        "-device", "usb-storage,drive=usbdisk",
                        "-device", "usb-net,netdev=n0", "-netdev", "user,id=n0"],
               modules=["bcm2835_wdt", "bcm2835", "sdhci_iproc", "phy_generic", "dwc2",
                        "usb_storage", "sd_mod", "cdc_ether"], disks=2,
               why="bus addresses 0xc0000000 above RAM (dma-ranges offset), all 1 GiB in"
                   " ZONE_DMA: no swiotlb pool, non-coherent platform DMA")

MACHINES = [
    dict(name="x86-pc-6g", arch="amd64", machine="pc", mem="6G",
         devices=["-drive", "file=DISK(0),if=ide,format=raw"] + EHCI_DISK + PC_32BIT,
         modules=PC_MODULES + ["ehci_pci", "usb_storage"], disks=2,
         why="RAM above 4 GiB, swiotlb pool: the 32-bit IDE, NIC and EHCI bounce"),
    dict(name="x86-pc-6g-noforce", arch="amd64", machine="pc", mem="6G",
         devices=["-drive", "file=DISK(0),if=ide,format=raw"] + PC_32BIT,
         append=["swiotlb=noforce"], modules=PC_MODULES, disks=1,
         why="swiotlb=noforce: no pool, the 32-bit devices' mappings fail"),
    dict(name="x86-pc-6g-iommu-off", arch="amd64", machine="pc", mem="6G",
         devices=["-drive", "file=DISK(0),if=ide,format=raw"] + PC_32BIT,
         append=["iommu=off"], modules=PC_MODULES, disks=1,
         why="iommu=off: pci_swiotlb_detect allocates no pool"),
    dict(name="x86-pc-3g", arch="amd64", machine="pc", mem="3G",
         devices=["-drive", "file=DISK(0),if=ide,format=raw"] + PC_32BIT,
         modules=PC_MODULES, disks=1,
         why="all RAM below 4 GiB: nothing bounces, no pool"),
    dict(name="x86-q35-iommu", arch="amd64", machine="q35,kernel-irqchip=split", mem="6G",
         devices=Q35_IOMMU + LSI_DISK + PC_32BIT,
         append=["intel_iommu=on"] + NO_TIMER_CHECK,
         modules=["ahci", "sym53c8xx", "sd_mod", "pcnet32", "ehci_pci", "usb_storage"], disks=2,
         why="VT-d DMA domains: the 32-bit EHCI and NIC are translated (the 53c810 fails"
             " its own DMA self-test through VT-d and is left without a driver)"),
    dict(name="x86-q35-iommu-pt", arch="amd64", machine="q35,kernel-irqchip=split", mem="6G",
         devices=Q35_IOMMU + LSI_DISK + PC_32BIT,
         append=["intel_iommu=on", "iommu=pt"] + NO_TIMER_CHECK,
         modules=["ahci", "sym53c8xx", "sd_mod", "pcnet32", "ehci_pci", "usb_storage"], disks=3,
         why="passthrough (identity) domains behave as dma-direct: the 32-bit devices bounce"),
    dict(name="x86-pc-force-virtio", arch="amd64", machine="pc", mem="6G",
         devices=["-drive", "file=DISK(0),if=ide,format=raw",
                  "-drive", "file=DISK(1),if=none,id=v0,format=raw",
                  "-device", "virtio-blk-pci,drive=v0",
                  "-drive", "file=DISK(2),if=none,id=v1,format=raw",
                  "-device", "virtio-blk-pci,drive=v1,disable-legacy=on,iommu_platform=on"],
         append=["swiotlb=force"],
         modules=["ata_piix", "sd_mod", "virtio_pci", "virtio_blk"], disks=3,
         why="swiotlb=force: the legacy virtio-blk bypasses the DMA API, the modern one bounces"),
    dict(name="arm64-virt-6g", arch="arm64", machine="virt", mem="6G",
         devices=LSI_DISK + ["-drive", "file=DISK(1),if=none,id=vm0,format=raw",
                             "-device", "virtio-blk-device,drive=vm0"],
         modules=["sym53c8xx", "sd_mod", "virtio_mmio", "virtio_blk", "qemu_fw_cfg"], disks=2,
         why="RAM at 0x40000000 to 7 GiB: the 32-bit SCSI bounces what lies above 4 GiB;"
             " a legacy virtio-mmio disk and fw-cfg (dma-coherent) bypass the DMA API"),
    dict(name="arm64-virt-window", arch="arm64", machine="virt", mem="6G",
         devices=LSI_DISK,
         dma_ranges=(0x40000000, 0x20000000),
         modules=["sym53c8xx", "sd_mod"], disks=0,
         why="PCIe dma-ranges window of 512 MiB that leaves out the swiotlb pool: every"
             " bounce fails, the disk never appears"),
    dict(name="armhf-virt-highmem", arch="armhf", machine="virt,highmem=on", mem="3G",
         devices=LSI_DISK,
         dma_ranges=(0x40000000, 0x40000000),
         modules=["sym53c8xx", "sd_mod"], disks=1,
         why="LPAE with highmem, RAM at 0x40000000, a 1 GiB dma-ranges window"),
    # /soc's window cut to 512 MiB (bus 0xc0000000 = CPU 0): RAM past CPU 0x20000000 has
    # no bus address; ZONE_DMA (of_dma_get_max_cpu_address) ends there, a pool below it
    dict(RASPI3B, name="arm64-raspi3b-window", soc_dma_ranges=(0xc0000000, 0x0, 0x20000000),
         why="a 512 MiB /soc window at bus 0xc0000000: what lies above CPU 0x20000000 is"
             " uncovered and bounces, through the DWC2 and the DMA engine sdhost maps on"),
    # bookworm is the last suite with an i386 kernel
    dict(name="i386-pc-6g", arch="i386", machine="pc", mem="6G",
         devices=["-drive", "file=DISK(0),if=ide,format=raw"] + PC_32BIT,
         modules=PC_MODULES, disks=1,
         why="6.1 686-pae with RAM above 4 GiB and highmem: swiotlb, no block bouncing"),

]

# swiotlb= words by era (ERA_SWIOTLB_PARAM): 5.10 keeps the last word, and reads
# "65536,4,force" as slabs and no word (no <areas> field before 6.0): forced;
# 6.1 lets noforce win wherever it stands: no pool, the 32-bit devices fail.
FORCE_WORDS = dict(name="x86-pc-6g-force-words", arch="amd64", machine="pc", mem="6G",
                   devices=["-drive", "file=DISK(0),if=ide,format=raw"] + PC_32BIT,
                   append=["swiotlb=noforce", "swiotlb=65536,4,force", "swiotlb=force"],
                   modules=PC_MODULES, disks=1,
                   why="swiotlb=noforce then force: 6.1's noforce wins (no pool, failures)")
MACHINES.append(FORCE_WORDS)

# The same shapes on other kernel generations: NAME-SUITE boots that suite's
# kernel with everything else as NAME has it (or as the overrides say).
# Shapes with no bookworm machine of their own are named here, without a suite.
BY_NAME = {m["name"]: m for m in MACHINES + [RASPI3B] + [
    dict(name="x86-q35-amd-iommu", arch="amd64", machine="q35", mem="6G",
         devices=Q35_AMD_IOMMU + LSI_DISK + PC_32BIT, modules=Q35_MODULES, disks=2,
         why="AMD-Vi DMA domains; before 5.19 amd_iommu_init_dma_ops() clears swiotlb"),
    dict(name="x86-q35-amd-iommu-pt", arch="amd64", machine="q35", mem="6G",
         devices=Q35_AMD_IOMMU + LSI_DISK + PC_32BIT, append=["iommu=pt"],
         modules=Q35_MODULES, disks=3,
         why="AMD-Vi passthrough: identity domains behave as dma-direct, the 32-bit devices bounce"),
    # riscv64 (trixie on: bookworm's main archive has none). virt's RAM starts at
    # 0x80000000 (hw/riscv/virt.c virt_memmap), so 4G ends at 6 GiB
    dict(name="riscv64-virt-4g", arch="riscv64", machine="virt", mem="4G",
         devices=LSI_DISK, modules=["sym53c8xx", "sd_mod"], disks=1,
         why="RAM from 2 GiB to 6 GiB, a pool: the 32-bit SCSI bounces what lies above 4 GiB"),
    dict(name="riscv64-virt-4g-noforce", arch="riscv64", machine="virt", mem="4G",
         devices=LSI_DISK, append=["swiotlb=noforce"], modules=["sym53c8xx", "sd_mod"], disks=0,
         why="swiotlb=noforce: no pool, the 32-bit SCSI's mappings above 4 GiB fail"),
    # the driver's coherent memory comes from the bottom of ZONE_DMA32 (boot frees
    # RAM to the tail of the free lists, 5.10+), inside the window; the pool
    # (memblock_alloc_low: top-down below 4 GiB) is not
    dict(name="riscv64-virt-window", arch="riscv64", machine="virt", mem="4G",
         devices=LSI_DISK, dma_ranges=(0x80000000, 0x40000000),
         modules=["sym53c8xx", "sd_mod"], disks=0,
         why="a 1 GiB dma-ranges window at RAM's start that leaves out the pool: every"
             " bounce fails, the disk never appears"),
]}


def on(name, suite, why=None, **kw):
    m = dict(BY_NAME[name], name="%s-%s" % (kw.pop("rename", name), suite), suite=suite, **kw)
    if why:
        m["why"] = why
    return m


MACHINES += [
    # bullseye, 5.10: block bounce_pfn (before 5.13), swiotlb=noforce keeps one
    # slab (before 5.18), AMD-Vi frees the pool unless passthrough (before 5.19),
    # 32-bit ARM through arm_dma_ops unless LPAE (before 6.0)
    on("x86-pc-6g", "bullseye"),
    on("x86-pc-6g-noforce", "bullseye"),
    on("x86-pc-6g-iommu-off", "bullseye"),
    on("x86-pc-6g-force-words", "bullseye",
       why="5.10: the last word wins, \"65536,4,force\" is no word: every bounce forced"),
    on("x86-q35-iommu", "bullseye"),
    on("x86-q35-amd-iommu", "bullseye"),
    on("x86-q35-amd-iommu-pt", "bullseye"),
    on("i386-pc-6g", "bullseye",
       why="686-pae with RAM above 4 GiB and highmem: block bounce_pfn and swiotlb"),
    # vmalloc=512M: 5.10 ioremaps QEMU's 256 MiB high ECAM whole, which the default
    # 240 MiB vmalloc area cannot hold ("ECAM ioremap failed", probe error -12)
    dict(BY_NAME["armhf-virt-highmem"], name="armhf-virt-window-lpae-bullseye", suite="bullseye",
         append=["vmalloc=512M"],
         why="5.10 LPAE: dma-direct with swiotlb bounces what lies past the 1 GiB window"),
    # 2-level page tables: the boot log's cr= lacks AFE (bit 29); all 1 GiB of RAM
    # inside the window, so arm_dma_ops has nothing to misdirect (see STALLED)
    dict(BY_NAME["armhf-virt-highmem"], name="armhf-virt-armmp-bullseye", suite="bullseye",
         flavour="armmp", machine="virt,highmem=off", mem="1G",
         why="5.10 without LPAE: not LPAE by the boot log, arm_dma_ops, all RAM in reach"),
    on("arm64-virt-6g", "bullseye"),
    on("arm64-virt-window", "bullseye"),
    # trixie, 6.12: dynamic swiotlb, arm64 kmalloc bouncing (6.5) and its pool size (6.7)
    on("x86-pc-6g", "trixie"),
    on("armhf-virt-highmem", "trixie"),
    on("riscv64-virt-4g", "trixie"),
    on("riscv64-virt-4g-noforce", "trixie"),
    on("x86-q35-amd-iommu", "trixie", why="AMD-Vi DMA domains keep the pool from 5.19"),
    on("x86-q35-amd-iommu-pt", "trixie"),
    # 6.12 bounces small unaligned kmalloc buffers of devices not dma-coherent (6.5+)
    # and keeps a RAM / 1024 pool for it (6.7+), all RAM in ZONE_DMA or not
    on("arm64-raspi3b", "trixie",
       why="bus offset 0xc0000000, all RAM in ZONE_DMA: a 1 MiB pool (RAM / 1024) for the"
           " small unaligned kmalloc buffers the non-coherent DWC2 maps, which bounce in reach"),
    dict(name="arm64-virt-smmuv3-trixie", arch="arm64", suite="trixie", machine="virt,iommu=smmuv3",
         # a USB disk: the LSI's self-test DMAs to its own BAR, which the SMMU faults
         # (event 0x10, "CACHE TEST FAILED", no disk)
         mem="6G", devices=[d.replace("DISK(2)", "DISK(0)") for d in EHCI_DISK],
         modules=["ehci_pci", "usb_storage", "sd_mod"], disks=1,
         why="SMMUv3 DMA domain: the 32-bit EHCI is translated, nothing bounces"),
    # sid, 7.x: what rolling distributions run now
    on("x86-pc-6g", "sid"),
    on("arm64-virt-6g", "sid"),
    on("arm64-virt-window", "sid"),
    on("riscv64-virt-window", "sid"),
]

# Declared, not booted by default (run.py NAME boots one): 5.10 armmp (2-level
# page tables) boots under TCG (40 s with 1G), but with RAM past the window its
# disk I/O never ends: arm_dma_map_page() gives uncovered RAM the bus address
# 0xfffff000 + offset (arch/arm/include/asm/dma-direct.h pfn_to_dma():
# PFN_DOWN(translate_phys_to_dma()), whose DMA_MAPPING_ERROR nothing checks),
# QEMU's DMA there fails and sym53c8xx stalls (soft lockups with 3G, no progress
# in 300 s with 2G or with 1G and a 512 MiB window). The judge needs traffic
# that finishes; the rule (arm_dma_ops, no reach check before 6.0) stands on
# the source citation in src/analysis/eras.c.
STALLED = [
    # 2G: with 3G RAM would end at 4 GiB, one past what a 32-bit phys_addr_t holds
    dict(BY_NAME["armhf-virt-highmem"], name="armhf-virt-window-armmp-bullseye", suite="bullseye",
         flavour="armmp", machine="virt,highmem=off", mem="2G",
         why="5.10 without LPAE: arm_dma_ops maps past the 1 GiB window unchecked"
             " (QEMU does not enforce it: no bounce, no failure, bounce-missed)"),
]

# Declared, booted only when named (run.py NAME): each raspi3b guest costs about
# 20 s of the suite's wall time (4 vCPUs, 40 s boots); arm64-raspi3b-window boots
# the same 6.1 board and shows what this one does (the 0xc0000000 offset read, no
# false bounce) and more, so this one stays out of the default list.
OPTIONAL = [RASPI3B]

# --what-if against real kernels (whatif.py): A's capture re-judged with ARGS
# must give, device by device, the verdicts B's own audit gave, B being A's
# QEMU shape booted the way ARGS say. "kernel=B" stands for B's release as its
# guest reports it (its audit's kernel.stable_release, else kernel.release).
# A difference the what-if marks as an assumption on that device passes, said;
# any other fails. run.py checks every pair whose two guests ran and captured;
# tests/what-if-kernels.py every pair with both fixtures (tests/machines/kernel-A, -B).
WHAT_IF_PAIRS = [
    # generations of one shape, both ways
    # 5.10 <-> 6.12: the 32-bit IDE, EHCI and NIC bounce on both (pool below 4 GiB)
    ("x86-pc-6g-bullseye", "x86-pc-6g-trixie", ["kernel=B"]),
    ("x86-pc-6g-trixie", "x86-pc-6g-bullseye", ["kernel=B"]),
    # 5.10 <-> 6.1 arm64: the 32-bit SCSI bounces; the legacy virtio-mmio disk and
    # fw-cfg bypass the DMA API on both
    ("arm64-virt-6g-bullseye", "arm64-virt-6g", ["kernel=B"]),
    ("arm64-virt-6g", "arm64-virt-6g-bullseye", ["kernel=B"]),
    # an era difference: 5.10's AMD-Vi frees the pool unless passthrough
    # (amd_iommu_init_dma_ops, before 5.19), 6.12 keeps it
    ("x86-q35-amd-iommu-bullseye", "x86-q35-amd-iommu-trixie", ["kernel=B"]),
    ("x86-q35-amd-iommu-trixie", "x86-q35-amd-iommu-bullseye", ["kernel=B"]),
    ("x86-q35-amd-iommu-pt-bullseye", "x86-q35-amd-iommu-pt-trixie", ["kernel=B"]),
    ("x86-q35-amd-iommu-pt-trixie", "x86-q35-amd-iommu-pt-bullseye", ["kernel=B"]),
    # 32-bit ARM LPAE, 3 GiB from 0x40000000, one LSI behind a 1 GiB window: 5.10
    # (with vmalloc=512M for its ECAM, no DMA matter) <-> 6.12
    ("armhf-virt-window-lpae-bullseye", "armhf-virt-highmem-trixie", ["kernel=B"]),
    ("armhf-virt-highmem-trixie", "armhf-virt-window-lpae-bullseye", ["kernel=B"]),
    # swiotlb= words by era: 5.10 forces every bounce, 6.1's noforce wins (failures)
    ("x86-pc-6g-force-words-bullseye", "x86-pc-6g-force-words", ["kernel=B"]),
    ("x86-pc-6g-force-words", "x86-pc-6g-force-words-bullseye", ["kernel=B"]),
    # command lines on one kernel, both ways
    # swiotlb=noforce: no pool on 6.1, the 32-bit devices fail; 5.10 keeps one slab
    ("x86-pc-6g", "x86-pc-6g-noforce", ["cmdline=swiotlb=noforce"]),
    ("x86-pc-6g-noforce", "x86-pc-6g", ["cmdline=-swiotlb=noforce"]),
    ("x86-pc-6g-bullseye", "x86-pc-6g-noforce-bullseye", ["cmdline=swiotlb=noforce"]),
    ("x86-pc-6g-noforce-bullseye", "x86-pc-6g-bullseye", ["cmdline=-swiotlb=noforce"]),
    # iommu=off: pci_swiotlb_detect allocates no pool
    ("x86-pc-6g", "x86-pc-6g-iommu-off", ["cmdline=iommu=off"]),
    ("x86-pc-6g-iommu-off", "x86-pc-6g", ["cmdline=-iommu"]),
    ("x86-pc-6g-bullseye", "x86-pc-6g-iommu-off-bullseye", ["cmdline=iommu=off"]),
    ("x86-pc-6g-iommu-off-bullseye", "x86-pc-6g-bullseye", ["cmdline=-iommu"]),
    # iommu=pt under VT-d: identity domains behave as dma-direct, the 32-bit bounce
    ("x86-q35-iommu", "x86-q35-iommu-pt", ["cmdline=iommu=pt"]),
    ("x86-q35-iommu-pt", "x86-q35-iommu", ["cmdline=-iommu=pt"]),
    # iommu=pt under AMD-Vi: on 5.10 it also keeps the pool the DMA domains free
    ("x86-q35-amd-iommu-bullseye", "x86-q35-amd-iommu-pt-bullseye", ["cmdline=iommu=pt"]),
    ("x86-q35-amd-iommu-pt-bullseye", "x86-q35-amd-iommu-bullseye", ["cmdline=-iommu=pt"]),
    ("x86-q35-amd-iommu-trixie", "x86-q35-amd-iommu-pt-trixie", ["cmdline=iommu=pt"]),
    ("x86-q35-amd-iommu-pt-trixie", "x86-q35-amd-iommu-trixie", ["cmdline=-iommu=pt"]),
    # riscv64 6.12 from 0x80000000: swiotlb=noforce leaves the 32-bit SCSI failing
    ("riscv64-virt-4g-trixie", "riscv64-virt-4g-noforce-trixie", ["cmdline=swiotlb=noforce"]),
]
