"""The machines of the real-kernel suite: what QEMU emulates and how the
guest kernel is booted. The judge (judge.py) holds no per-machine answer:
each machine is judged by the same rules against what its kernel did.

Fields:
  arch      amd64 | arm64 | armhf (kernels.py knows their kernel and QEMU)
  machine   QEMU -machine value
  mem       guest RAM (QEMU -m)
  devices   QEMU arguments for the devices; DISK(n) is a fresh 64 MiB image
  append    kernel command line words beyond the suite's own
  modules   drivers the guest loads, in order (their dependencies follow)
  disks     block devices to wait for before the audit
  dma_ranges  (arm) identity dma-ranges window (start, size) written into the
            PCIe host node of QEMU's own devicetree
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
# q35 with VT-d (interrupt remapping needs the split irqchip), a disk on its
# AHCI and a 32-bit one on EHCI.
Q35_IOMMU = (["-device", "intel-iommu,intremap=on", "-drive", "file=DISK(1),if=ide,format=raw"]
             + EHCI_DISK)

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
         append=["intel_iommu=on"],
         modules=["ahci", "sym53c8xx", "sd_mod", "pcnet32", "ehci_pci", "usb_storage"], disks=2,
         why="VT-d DMA domains: the 32-bit EHCI and NIC are translated (the 53c810 fails"
             " its own DMA self-test through VT-d and is left without a driver)"),
    dict(name="x86-q35-iommu-pt", arch="amd64", machine="q35,kernel-irqchip=split", mem="6G",
         devices=Q35_IOMMU + LSI_DISK + PC_32BIT,
         append=["intel_iommu=on", "iommu=pt"],
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
]
