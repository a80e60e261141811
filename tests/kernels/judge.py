"""The judge of the real-kernel suite: what the kernel did, against what
dmamask-audit said. It shares no code with the tool: it reads the tool's JSON
only for its claims, and the kernel's own records (the swiotlb_bounced and
block_bio_bounce traces, the kernel log, the I/O results, the boot lines) for
the facts.

What lies out of a device's reach is the judge's own: the RAM of the boot
memory map (the kernel's "node N: [mem ...]" lines) outside what the device
reaches, which is the mask the kernel printed in its bounce events (else the
mask the audit read from sysfs), clipped to the dma-ranges window the suite
wrote into the machine's devicetree (identity, devices behind the PCIe host).
The tool's own out-of-reach figure is a claim held against it.

Rules, for every device the tool judged:
  direct, iommu, idle  no bounce event (swiotlb or block) and no mapping
            failure; with no traffic the device is "unexercised": no check
            passes for it (the table and a count say so), and it fails if the
            machine's "driven" list names its driver or id
  partial   at least one bounce (swiotlb or block layer): without traffic
            nothing shows the prediction, and it fails;
            every swiotlb bounce of a buffer out of reach (an unmappable,
            all-ones address only where RAM lies outside the window); no
            mapping failure; the tool's out-of-reach bytes are the judge's
  forced    traffic, at least one bounce, and every one forced; no failure
  fails     with the bounce-missed finding (nothing checks the reach, QEMU
            enforces no window): traffic that succeeded with no bounce and
            no failure, and RAM out of reach by the judge's own reckoning;
            otherwise a logged mapping failure (DMA or swiotlb addr overflow,
            I/O errors) and no bounce that could succeed: an attempted bounce
            (the event fires before the pool's own reach is checked) only
            when the log shows that pool out of the device's reach, or no
            pool at all ("swiotlb buffer is full ... total 0 (slots)", 5.0-5.18:
            then each attempt is itself the failure)
  unknown   only for a device the kernel shows no traffic of
On arm64 from 6.5 the kernel also bounces small unaligned kmalloc buffers of a
device that is not dma-coherent, in reach or not (dma_kmalloc_needs_bounce):
for a direct or partial device those bounces (the guest's devicetree, its
dt-coherent record, says which devices lack dma-coherent) are excused, counted
in the table and named in the check; they still carry the device's mask.
Every bounce's dev_addr is a bus address: inside the dma-ranges regions the
tool read it must translate (bus - dma_start + cpu_start) into the kernel's
RAM, outside them (the kernel's no-translation value) RAM must lie uncovered.
Block-layer bouncing (block_bio_bounce, the kernel's MAJ:MIN mapped to the
guest's disks): where the tool's legacy-block model (pre-5.13) predicts bounce
bytes, the disk bounced during the traffic; where it predicts none, or the
kernel's era cannot bounce (5.13+), not one event. The run as user nobody
(user.json) gives every device root's verdict, or unknown where an input
root read was denied to it; it did not crash.
And the memory layout against the kernel's boot lines, which must be there
(the guest boots with a log buffer large enough to keep them).
"""
import json
import os
import re

# run.py prints each row after (machine, boot); "block" is block_bio_bounce
# events ("-" where the kernel was not traced for them), "judged" the judge's
# conclusion for the device and what --observe said of it
TABLE_HEAD = ("machine", "boot", "device", "driver", "verdict", "bounces", "forced",
              "failures", "block", "traffic", "judged")

ALL_ONES = (1 << 64) - 1

# include/trace/events/swiotlb.h: "dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s"
# with NORMAL/FORCE/NO_FORCE (an enum before about 5.18, then a bool printed the
# same way in 6.1) or force=0/1; older kernels wrote dev_name=.
EVENT = re.compile(r"swiotlb_bounced:\s*dev_name[:=]\s*(\S+)\s+dma_mask=(?:0x)?([0-9a-f]+)\s+"
                   r"dev_addr=(?:0x)?([0-9a-f]+)\s+size=(\d+)\s*(\S*)")

# kernel/dma/direct.h, kernel/dma/swiotlb.c, drivers/iommu/dma-iommu.c: dev_err
# and dev_warn put "<driver> <device>: " in front. Mapping failures:
MAP_FAILURES = [
    re.compile(r"\]\s+\S+ (\S+): DMA addr (0x[0-9a-f]+)\+(\d+) overflow"),
    re.compile(r"\]\s+\S+ (\S+): DMA bounce buffers are inactive"),
]
# ...the swiotlb pool itself out of the device's reach (swiotlb_map):
POOL_OUT_OF_REACH = re.compile(r"\]\s+\S+ (\S+): swiotlb addr (0x[0-9a-f]+)\+(\d+) overflow")
# ...and a pool that exists but is full: trouble, though not "fails"
POOL_FULL = re.compile(r"\]\s+\S+ (\S+): swiotlb buffer is full")
# swiotlb_tbl_map_single(): "swiotlb buffer is full (sz: %zd bytes), total %lu (slots),
# used %lu (slots)"; 7.2 logs it, with room left, for a pool outside the device's
# dma-ranges window (no "swiotlb addr ... overflow" line)
POOL_FULL_COUNTS = re.compile(r"buffer is full \(sz: (\d+) bytes\), total (\d+) \(slots\), "
                              r"used (\d+) \(slots\)")
SLOT_BYTES = 2048  # include/linux/swiotlb.h IO_TLB_SHIFT 11
# "DMA addr ... overflow" in a kernel log as dmesg prints it or as /dev/kmsg
# records it ("4,375,7105505,-;ata_piix 0000:00:01.1: DMA addr ..."): a snapshot's log
LOGGED_OVERFLOW = re.compile(r"(?:\]\s+|;)\S+ (\S+): DMA addr 0x[0-9a-f]+\+\d+ overflow")
# include/trace/events/block.h, DECLARE_EVENT_CLASS(block_bio) (block_bio_bounce,
# until 6.16): "%d,%d %s %llu + %u [%s]", MAJOR, MINOR, rwbs, sector, nr_sector, comm
BLOCK_EVENT = re.compile(r"block_bio_bounce:\s+(\d+),(\d+)\s+(\S+)\s+(\d+)\s+\+\s+(\d+)\s+\[")
# Debian architecture -> what its kernels' utsname machine may be (arch/*/Makefile UTS_MACHINE)
UNAME_MACHINES = {"amd64": ("x86_64",), "i386": ("i686", "i586", "i386"), "arm64": ("aarch64",),
                  "armhf": ("armv7l",), "riscv64": ("riscv64",)}

EXPORTED = ("audit.json", "io.log", "trace", "trace-format", "trace-stats", "swiotlb", "dmesg",
            "observe.json", "observe.err", "observe-kill.log", "observe5.txt",
            "user.json", "user.err", "probe.log")
# what a crashed or sanitised run leaves on its standard error
CRASH = re.compile(r"Segmentation fault|Aborted|core dumped|Bus error|Illegal instruction|"
                   r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|"
                   r"Assertion .* failed|Killed")
IO_ERROR = re.compile(r"I/O error, dev (\w+), sector")
DISK_FAIL = re.compile(r"dmt-io (\w+) (read|write) \S+ rc=([1-9]\d*)")


def exists(work, name):
    return os.path.exists(os.path.join(work, name))


def read(work, name):
    try:
        with open(os.path.join(work, name), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def events(trace):
    out = []
    for line in trace.splitlines():
        mo = EVENT.search(line)
        if mo:
            force = mo.group(5) in ("FORCE", "force=1")
            out.append(dict(dev=mo.group(1), mask=int(mo.group(2), 16),
                            addr=int(mo.group(3), 16), size=int(mo.group(4)), force=force))
    return out


def window_lines(trace, until="end"):
    """The trace lines between the guest's dmt-observe-start trace marker and
    its dmt-observe-stop (sent just before SIGINT: --observe saw all of these)
    or -end (after it exited: --observe can have seen no more) marker. The
    guest's traffic runs between start and stop."""
    inside, lines = False, []
    for line in trace.splitlines():
        if "tracing_mark_write: dmt-observe-start" in line:
            inside = True
        elif "tracing_mark_write: dmt-observe-" + until in line:
            inside = False
        elif inside and "tracing_mark_write:" not in line:
            lines.append(line)
    return "\n".join(lines)


def window_events(trace, until="end"):
    return events(window_lines(trace, until))


def block_events(trace):
    """block_bio_bounce events per MAJ:MIN."""
    n = {}
    for line in trace.splitlines():
        mo = BLOCK_EVENT.search(line)
        if mo:
            k = "%s:%s" % (mo.group(1), mo.group(2))
            n[k] = n.get(k, 0) + 1
    return n


def per_device(evs):
    n = {}
    for e in evs:
        n[e["dev"]] = n.get(e["dev"], 0) + 1
    return n


def observe_checks(check, work, table):
    """--observe ran over the traffic: per device, its count agrees with the
    suite's own trace between the markers, and no prediction is contradicted."""
    err = read(work, "observe.err")
    try:
        obs = json.loads(read(work, "observe.json"))
    except ValueError as e:
        check(False, "--observe printed JSON", "%s\n%s" % (e, err[-1000:]))
        return {}
    status = re.findall(r"^status=(\d+)$", err, re.M)
    check(status and int(status[-1]) <= 1, "--observe exited 0 or 1 after SIGINT", err[-1000:])
    window = obs.get("observation") or {}
    check(window.get("interrupted") is True, "SIGINT ended the --observe window early", str(window))
    check(window.get("lost_events") == 0, "--observe lost no event (%s)" % window.get("lost_events"))
    trace = read(work, "trace")
    least, most = per_device(window_events(trace, "stop")), per_device(window_events(trace, "end"))
    mine = most
    seen = {}
    for d in obs.get("devices", []):
        o = d.get("observed") or {}
        dev, n = d["id"], o.get("bounces")
        seen[dev] = (n, o.get("prediction"), o.get("why"))
        lo, hi = least.get(dev, 0), most.get(dev, 0)
        check(isinstance(n, int) and lo <= n <= hi,
              "%s: --observe counted %s bounces, the suite's trace %d to %d" % (dev, n, lo, hi),
              dev=dev)
        if hi or o.get("overflow_messages"):
            check(o.get("prediction") != "contradicted",
                  "%s (%s): the kernel does not contradict the prediction" % (dev, d.get("verdict")),
                  o.get("why"), dev=dev)
        else:
            # no bounce and no overflow in the window: --observe must say it saw none, and
            # which of the three: data moved (no-bounce), counted and idle (no-traffic), or
            # nothing to count by (cannot-tell)
            ops = o.get("io_operations")
            want = ("cannot-tell",) if ops is None else ("no-traffic",) if ops == 0 else ("no-bounce",)
            check(o.get("prediction") in want,
                  "%s: --observe says %s (%s I/Os), as the trace shows no bounce in the window"
                  % (dev, o.get("prediction"), ops), o.get("why"), dev=dev)
        if d.get("verdict") in ("partial", "forced") and mine.get(dev):
            check(o.get("prediction") == "consistent",
                  "%s: %s with %d bounces observed is consistent" % (dev, d.get("verdict"), n),
                  dev=dev)
    unattributed = {u["device"]: u["bounces"] for u in window.get("unattributed") or []}
    check(set(unattributed) <= set(mine), "unattributed bounces are in the trace too",
          str(unattributed))
    five = read(work, "observe5.txt")
    check(re.search(r"^observed +5\.0 s of swiotlb_bounced", five, re.M) and
          re.search(r"^status=[01]$", five, re.M),
          "a second --observe=5 beside it ran its whole window", five[-1500:])
    kill = read(work, "observe-kill.log")
    check("left: 1" in kill and "after: 0" in kill and "status=" in kill,
          "an instance left by SIGKILL is removed by the next --observe", kill)
    return seen


def probe_checks(check, work):
    """--observe-probe on each disk (guest-init, after the suite's trace): a partial
    device is seen bouncing what the probe read into pages above its reach; a device
    that reaches all RAM is seen moving data with no bounce; a fails device's disk is
    refused. From the tool's own window: the judge's trace is taken before."""
    log = read(work, "probe.log")
    for mo in re.finditer(r"^==dmt-probe (\S+)==\n(.*?)^==dmt-probe-status (\d+) ?([^\n]*)==$",
                          log, re.M | re.S):
        disk, body, status, err = mo.group(1), mo.group(2), int(mo.group(3)), mo.group(4)
        try:
            rep = json.loads(body) if body.strip() else {}
        except ValueError:
            rep = {}
        if status == 2:
            # refused before the window: a fails or unknown device, or a disk with no DMA device
            check(re.search(r"verdict is fails|reach is not known|not a disk with a DMA device", err),
                  "--observe-probe %s: refused for what its device is (%s)" % (disk, err))
            continue
        dev_id = next((q.get("dma_device") for q in rep.get("block", []) if q.get("disk") == disk), None)
        d = next((x for x in rep.get("devices", []) if x["id"] == dev_id), None)
        probe = (rep.get("observation") or {}).get("probe") or {}
        if not d:
            check(False, "--observe-probe %s: its DMA device is in the report" % disk, body[-500:])
            continue
        o, v = d.get("observed") or {}, d.get("verdict")
        what = "--observe-probe %s (%s, %s)" % (disk, dev_id, v)
        check(status <= 1 and probe.get("bytes", 0) >= 1 << 20,
              "%s: read at least 1 MiB (%s, why: %s)" % (what, probe.get("bytes"), probe.get("why")))
        if v == "partial":
            # a controller that moves its data through a DMA engine (bcm2835-sdhost through
            # bcm2835-dma: dma_map_sg() on the engine's device) bounces there, not on itself
            engines = [x for x in rep.get("devices", []) if "dma-engine" in (x.get("dma_signs") or [])]
            eng = sum((x.get("observed") or {}).get("bytes") or 0 for x in engines
                      if (x.get("observed") or {}).get("prediction") == "consistent")
            mine = o.get("bytes") or 0
            own = mine >= probe.get("bytes", 1) and o.get("prediction") == "consistent"
            via_engine = mine == 0 and eng >= probe.get("bytes", 1) * 15 // 16
            check(probe.get("above_reach_bytes") == probe.get("bytes") and (own or via_engine),
                  "%s: bounced what it read above its reach (%s of %s bytes above %s: %s bounces, "
                  "%s bytes, %s; %s bytes through its DMA engine)" % (
                      what, probe.get("above_reach_bytes"), probe.get("bytes"), probe.get("reach_end"),
                      o.get("bounces"), o.get("bytes"), o.get("prediction"), eng), o.get("why"), dev=dev_id)
        elif v in ("direct", "iommu"):
            # arm64 6.5+ bounces a non-coherent device's small unaligned kmalloc buffers (a
            # usb-storage command block) in reach: the tool says so; the probe's pages stay put
            kmalloc = (o.get("prediction") == "consistent" and "kmalloc" in (o.get("why") or "") and
                       (o.get("bytes") or 0) < probe.get("bytes", 0) // 16)
            check((o.get("bounces") == 0 and o.get("prediction") == "no-bounce" or kmalloc) and
                  (o.get("io_operations") or 0) > 0,
                  "%s: moved data with no bounce (%s bounces, %s I/Os, %s)" % (
                      what, o.get("bounces"), o.get("io_operations"), o.get("prediction")),
                  o.get("why"), dev=dev_id)
        elif v == "forced":
            check(o.get("bounces", 0) > 0 and o.get("prediction") == "consistent",
                  "%s: every mapping bounced (%s bounces, %s)" % (what, o.get("bounces"),
                                                                  o.get("prediction")),
                  o.get("why"), dev=dev_id)


def lost_events(stats):
    return sum(int(x) for x in re.findall(r"^overrun: (\d+)", stats, re.M))


def hex_range(r):
    return int(r["start"], 16), int(r["end"], 16)


def unreachable_set(dev, audit):
    """RAM ranges the tool says are out of the device's reach (kernel model),
    as inclusive (start, end) pairs."""
    model = (dev.get("models") or {}).get((dev.get("kernel_model") or "").replace("-", "_")) or {}
    if "unreachable_ranges" in model:
        return [hex_range(r) for r in model["unreachable_ranges"]]
    low = model.get("lowest_unreachable")
    if not low:
        return []
    low = int(low, 16)
    out = []
    for r in audit["memory"]["ram_ranges"]:
        s, e = hex_range(r)
        if e >= low:
            out.append((max(s, low), e))
    return out


def boot_lines(dmesg):
    """Facts from the kernel's own boot messages."""
    f = {}
    zones = re.findall(r"^\[[^]]*\]\s+(DMA32|DMA|Normal|HighMem)\s+\[mem (0x[0-9a-f]+)-(0x[0-9a-f]+)\]",
                       dmesg, re.M)
    f["zones"] = {z: (int(a, 16), int(b, 16)) for z, a, b in zones}
    nodes = re.findall(r"node\s+\d+: \[mem (0x[0-9a-f]+)-(0x[0-9a-f]+)\]", dmesg)
    f["ram"] = [(int(a, 16), int(b, 16)) for a, b in nodes]
    mo = re.search(r"software IO TLB: mapped \[mem (0x[0-9a-f]+)-(0x[0-9a-f]+)\] \((\d+)MB\)", dmesg)
    # swiotlb_print_info(): the end is start + bytes, the MB figure bytes >> 20
    # (a 2 KiB swiotlb=noforce pool prints 0MB): the size is the range's
    f["pool"] = None
    if mo:
        s, e = int(mo.group(1), 16), int(mo.group(2), 16)
        f["pool"] = (s, e, e - s) if (e - s) >> 20 == int(mo.group(3)) else (s, e, None)
    return f


def kmalloc_bounces(dmesg, m):
    """Whether the kernel bounces small unaligned kmalloc buffers of a device
    that is not dma-coherent, reach or not: arm64 from 6.5 (arch/arm64/Kconfig
    select DMA_BOUNCE_UNALIGNED_KMALLOC; include/linux/dma-map-ops.h
    dma_kmalloc_needs_bounce, kernel/dma/direct.h dma_direct_map_page). The
    banner's release decides; riscv's guests have no Zicbom: coherent."""
    mo = re.search(r"Linux version (\d+)\.(\d+)", dmesg)
    return bool(mo) and m.get("arch") == "arm64" and (int(mo.group(1)), int(mo.group(2))) >= (6, 5)


# QEMU's Cortex-A53 and -A57 have CTR_EL0.CWG 4 (64 bytes): arm64's
# dma_get_cache_alignment() is cache_line_size() (arch/arm64/include/asm/cache.h)
CACHE_LINE = 64


def kmalloc_unaligned(size):
    """dma_kmalloc_size_aligned() false: under 2 * ARCH_DMA_MINALIGN (arm64: 128)
    and kmalloc_size_roundup() (the kmalloc-8 ... -192 caches, mm/slab_common.c
    kmalloc_info) not a multiple of the cache line."""
    if size >= 2 * 128:
        return False
    cache = next(c for c in (8, 16, 32, 64, 96, 128, 192, 256) if size <= c)
    return cache % CACHE_LINE != 0


def noncoherent_of(text):
    """From the guest's dt-coherent: the sysfs paths of devices whose
    devicetree node and every parent lack dma-coherent (of_dma_is_coherent)."""
    coherent, nodes = set(), {}
    for line in text.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "coherent":
            coherent.add(rest.strip())
        elif kind == "node" and " " in rest:
            path, node = rest.rsplit(" ", 1)
            nodes[path] = node
    out = set()
    for path, node in nodes.items():
        parts = node.strip("/").split("/")
        chain = ["/" + "/".join(parts[:i]) if i else "" for i in range(len(parts) + 1)]
        if node and not coherent.intersection(chain):
            out.add(path)
    return out


def dma_engines_of(text):
    """From the guest's dt-coherent: client sysfs path -> the sysfs path of the
    DMA engine its first "dmas" names. A dmaengine client's buffers are mapped
    on the channel's device (drivers/mmc/host/bcm2835.c bcm2835_prepare_dma:
    dma_map_sg(dma_chan->device->dev, ...)): its bounces carry that name."""
    by_node, dmas = {}, []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] == "node":
            if f[2] not in by_node or len(f[1]) < len(by_node[f[2]]):
                by_node[f[2]] = f[1]
        elif len(f) == 3 and f[0] == "dmas":
            dmas.append((f[1], f[2]))
    return {by_node[c]: by_node[p] for c, p in dmas if c in by_node and p in by_node}


def device_of(path, devices):
    """The judged device a sysfs path lies under (the deepest one)."""
    best = None
    for d in devices:
        sp = "/" + (d.get("syspath") or "")
        if sp != "/" and (path == sp or path.startswith(sp + "/")):
            if best is None or len(sp) > len("/" + best["syspath"]):
                best = d
    return best


def window_of(d, m):
    """The dma-ranges window the suite wrote in front of the device, as (bus
    start, CPU start, size), or None: identity for a PCI device behind the
    PCIe host (dma_ranges), bus to CPU for a device under /soc (soc_dma_ranges)."""
    if m.get("dma_ranges") and d.get("bus") == "pci":
        start, size = m["dma_ranges"]
        return start, start, size
    if m.get("soc_dma_ranges") and (d.get("syspath") or "").startswith("sys/devices/platform/soc/"):
        return m["soc_dma_ranges"]
    return None


def reach_of(d, mine, m):
    """What the device reaches by the kernel's own facts, as an inclusive
    (low, high) DMA-address pair, or None when no mask is known: the mask the
    kernel printed in its bounce events (else the audit's sysfs reading),
    within the dma-ranges window the suite wrote."""
    masks = {e["mask"] for e in mine}
    if masks:
        mask = min(masks)
    elif d.get("dma_mask"):
        mask = int(d["dma_mask"], 16)
    else:
        return None
    lo, hi = 0, mask
    w = window_of(d, m)
    if w:
        bus, _, size = w
        lo, hi = bus, min(hi, bus + size - 1)
    return lo, hi


def cpu_reach(reach, d, m):
    """The CPU addresses of a reach (bus addresses): the window's offset taken off."""
    w = window_of(d, m)
    if not reach or not w:
        return reach
    return reach[0] - w[0] + w[1], reach[1] - w[0] + w[1]


def outside(ram, lo, hi):
    """The parts of the RAM ranges (inclusive pairs) outside [lo, hi]."""
    out = []
    for s, e in ram:
        if s < lo:
            out.append((s, min(e, lo - 1)))
        if e > hi:
            out.append((max(s, hi + 1), e))
    return out


def window_outside(ram, d, m):
    """RAM outside the dma-ranges window: no translation, DMA_MAPPING_ERROR."""
    w = window_of(d, m)
    if not w:
        return []
    _, cpu, size = w
    return outside(ram, cpu, cpu + size - 1)


def nbytes(ranges):
    return sum(e + 1 - s for s, e in ranges)


def model_of(d):
    return (d.get("models") or {}).get((d.get("kernel_model") or "").replace("-", "_")) or {}


def legacy_prediction(entry, era):
    """What the tool predicts of the block layer's bouncing for one block[]
    entry: True (bounce bytes), False (none) or None (no prediction), and why."""
    if era in ("highmem-only-never-runs", "removed"):
        return False, "kernel era %s: the block layer bounces nothing" % era
    if era != "pfn-arithmetic":
        return None, "block-bounce era %s" % era
    lb = (entry or {}).get("legacy_block") or {}
    if not lb.get("known"):
        return None, "legacy-block model unknown (%s)" % lb.get("why_not")
    k = lb.get("as_" + (lb.get("kernel_reading") or "")) or {}
    if "bounce_bytes" not in k:
        return None, "legacy-block model without the kernel's reading"
    bounces = bool(k["bounce_bytes"]) and not k.get("early_return")
    return bounces, "legacy-block, max_low_pfn as a %s: bounce_pfn %s, %d bytes above it%s" % (
        lb["kernel_reading"], k.get("bounce_pfn"), k["bounce_bytes"],
        ", early return" if k.get("early_return") else "")


def judge(work, m):
    checks, jq, table = [], [], []
    verdicts_of = {}  # device -> its checks' results

    def check(ok, what, diag=None, dev=None):
        checks.append(dict(ok=bool(ok), what=what, diag=diag))
        if dev is not None:
            verdicts_of.setdefault(dev, []).append(bool(ok))

    missing = [f for f in EXPORTED if not exists(work, f)]
    check(not missing, "the guest exported every record", "missing: %s" % " ".join(missing))
    try:
        audit = json.loads(read(work, "audit.json"))
    except ValueError as e:
        check(False, "the audit is JSON", str(e))
        return dict(checks=checks, jq=jq, table=table, unexercised=[], evidence={})
    dmesg, io, trace = read(work, "dmesg"), read(work, "io.log"), read(work, "trace")
    evs = events(trace)
    devices = audit.get("devices", [])
    by_id = {d["id"]: d for d in devices}
    b = boot_lines(dmesg)
    findings = audit.get("findings") or []

    # the architecture QEMU booted, as the kernel's utsname names it: every
    # era rule that is per-architecture hangs on it (kernel.arch is 6.1+)
    host = audit.get("host") or {}
    arch_ok = host.get("arch") in UNAME_MACHINES.get(m.get("arch"), ())
    check(arch_ok, "the tool knows the kernel's architecture (%s, from %s)" % (host.get("arch"), host.get("arch_source")),
          "expected one of %s" % (UNAME_MACHINES.get(m.get("arch")),))
    if arch_ok:
        jq.append('.host.arch == "%s"' % host["arch"])
    # the stable release Debian's ABI name hides: the kernel's own banner says it
    # ("Linux version 5.10.0-32-amd64 ... SMP Debian 5.10.223-1 (2024-08-10)")
    banner = re.search(r"^(?:\[[^]]*\] )?Linux version (\S+) .* Debian (\d+\.\d+\.\d+)[-+~ ]", dmesg, re.M)
    if banner:
        kern = audit.get("kernel") or {}
        want = banner.group(2) if re.match(r"^\d+\.\d+\.0-\d", banner.group(1)) else None
        check(kern.get("stable_release") == want,
              "the tool reads the stable release behind %s (%s, from %s)" % (
                  banner.group(1), kern.get("stable_release"), kern.get("stable_release_source")),
              "the banner says %s" % want)
        if kern.get("stable_release") == want and want:
            jq.append('.kernel.stable_release == "%s"' % want)
    if m.get("arch") == "armhf":
        # the flavour QEMU booted: armmp has 2-level page tables, armmp-lpae 3-level
        lpae = m.get("flavour", "armmp-lpae") == "armmp-lpae"
        kern = audit.get("kernel") or {}
        check(kern.get("arm_lpae") is lpae,
              "the tool reads LPAE as the %s kernel has it (%s: %s)" % (
                  m.get("flavour", "armmp-lpae"), kern.get("arm_lpae"), kern.get("arm_lpae_why")))
        if kern.get("arm_lpae") is lpae:
            jq.append(".kernel.arm_lpae == %s" % ("true" if lpae else "false"))
    check(read(work, "trace-format").startswith("name: swiotlb_bounced"),
          "the swiotlb_bounced event exists", read(work, "trace-format")[:500])
    lost = lost_events(read(work, "trace-stats"))
    check(lost == 0, "no trace event was lost (%d overrun)" % lost)
    unknown_devs = sorted({e["dev"] for e in evs} - set(by_id))
    check(not unknown_devs, "every device that bounced is in the report",
          "bounced but not reported: %s" % " ".join(unknown_devs))
    bad_mods = re.findall(r"^dmt: modprobe (\S+) failed", io + read(work, "console.log"), re.M)
    check(not bad_mods, "every driver loaded", " ".join(bad_mods))

    # the traffic the guest drove: every disk it waited for, four transfers each
    disks = re.findall(r"^dmt-disk (\S+) (\S+)$", io, re.M)
    check(len(disks) >= m.get("disks", 0), "%d of the %d disks appeared" % (len(disks), m.get("disks", 0)),
          io[-2000:])
    moved = {}
    for name, _ in disks:
        n = len(re.findall(r"^dmt-io %s (?:read|write) \S+ rc=\d+$" % re.escape(name), io, re.M))
        moved[name] = n == 4
        check(n == 4, "%s: read and written, buffered and O_DIRECT (%d of 4)" % (name, n))

    # mapping failures (logged, and of the guest's own I/O), per device
    logged, pool_out, other, poolless = {}, {}, {}, False
    # "buffer is full" with at most half the pool used: the pool did not run out
    half_empty, full_lines = {}, 0
    # the pool (the kernel's own line) outside the window the suite wrote: no
    # device behind that window can use it, whatever the log calls the failure
    pool = b["pool"] and (b["pool"][0], b["pool"][1] - 1)  # the line's end is exclusive
    unusable = bool(m.get("dma_ranges") and pool and outside(
        [pool], m["dma_ranges"][0], m["dma_ranges"][0] + m["dma_ranges"][1] - 1) == [pool])
    for line in dmesg.splitlines():
        for rx in MAP_FAILURES:
            mo = rx.search(line)
            if mo:
                logged.setdefault(mo.group(1), []).append(line.strip())
        mo = POOL_OUT_OF_REACH.search(line)
        if mo:
            logged.setdefault(mo.group(1), []).append(line.strip())
            pool_out.setdefault(mo.group(1), []).append(line.strip())
        mo = POOL_FULL.search(line)
        if mo:
            counts = POOL_FULL_COUNTS.search(line)
            room = counts and int(counts.group(2)) - int(counts.group(3)) >= \
                -(-int(counts.group(1)) // SLOT_BYTES) > 0
            if room and int(counts.group(3)) * 2 <= int(counts.group(2)):
                half_empty.setdefault(mo.group(1), []).append(line.strip())
            full_lines += "total 0 (slots)" not in line
            if room and unusable:
                # no pressure (used far below total): the pool is out of reach
                logged.setdefault(mo.group(1), []).append(line.strip())
                pool_out.setdefault(mo.group(1), []).append(line.strip())
            else:
                other.setdefault(mo.group(1), []).append(line.strip())
            poolless = poolless or "total 0 (slots)" in line
    traffic, disk_dev = {}, {}
    for kind, name, path in re.findall(r"^dmt-(disk|net) (\S+) (\S+)$", io, re.M):
        d = device_of(path, devices)
        if d is None:
            check(False, "%s %s has a judged DMA device" % (kind, name), path)
            continue
        traffic.setdefault(d["id"], []).append(name)
        if kind == "disk":
            disk_dev[name] = d["id"]
        for mo in DISK_FAIL.finditer(io):
            if mo.group(1) == name:
                other.setdefault(d["id"], []).append(mo.group(0))
        for mo in IO_ERROR.finditer(dmesg):
            if mo.group(1) == name:
                logged.setdefault(d["id"], []).append("I/O error on " + name)

    blocks = block_checks(check, audit, io, trace, disk_dev, moved)

    # small unaligned kmalloc buffers of a device not dma-coherent bounce in reach
    kmalloc_era = kmalloc_bounces(dmesg, m)
    noncoherent = noncoherent_of(read(work, "dt-coherent"))
    engines = dma_engines_of(read(work, "dt-coherent"))
    by_sys = {"/" + (x.get("syspath") or ""): x["id"] for x in devices}
    driven = set(m.get("driven") or ())
    unexercised = []
    evidence = {}  # device -> what finding_checks() may hold the tool to
    for d in devices:
        dev, v = d["id"], d.get("verdict")
        mine = [e for e in evs if e["dev"] == dev]
        # a dmaengine client the guest drove (a disk on it) bounces as its engine:
        # counted for both; an engine serves clients idle here too (hdmi, i2s)
        engine = by_sys.get(engines.get("/" + (d.get("syspath") or "")))
        if engine and engine != dev and traffic.get(dev):
            mine += [e for e in evs if e["dev"] == engine]
        masks = {e["mask"] for e in mine}
        evidence[dev] = dict(pci=d.get("bus") == "pci", pool_overflows=len(pool_out.get(dev, [])),
                             half_empty=len(half_empty.get(dev, [])),
                             mask=min(masks) if masks else
                             int(d["dma_mask"], 16) if d.get("dma_mask") else None,
                             mask_from="the kernel's bounces" if masks else "sysfs")
        forced = [e for e in mine if e["force"]]
        failed = logged.get(dev, []) + other.get(dev, [])
        blk = blocks.get(dev)
        nblk = sum(blk.values()) if blk else 0
        drove = bool(traffic.get(dev))
        had = drove or bool(mine) or bool(failed) or bool(nblk)
        reach = reach_of(d, mine, m)
        far = outside(b["ram"], *cpu_reach(reach, d, m)) if reach else None
        # what dma_kmalloc_needs_bounce() bounced, not the reach: excused from the verdict
        small = []
        if (kmalloc_era and reach and v in ("direct", "partial")
                and "/" + (d.get("syspath") or "") in noncoherent):
            split = ([], [])
            for e in mine:
                split[kmalloc_unaligned(e["size"]) and reach[0] <= e["addr"]
                      and e["addr"] + max(e["size"], 1) - 1 <= reach[1]].append(e)
            mine, small = split
        excused = (" (%d small unaligned kmalloc bounces in reach excused: not dma-coherent, arm64"
                   " 6.5+)" % len(small)) if small else ""
        row = [dev, d.get("driver") or "-", v, len(mine) + len(small), len(forced), len(failed),
               "-" if blk is None else nblk, ",".join(traffic.get(dev, [])) or "-"]
        table.append(row)
        ev_diag = "\n".join("%s addr=%#x size=%d%s" % (e["dev"], e["addr"], e["size"],
                                                     " FORCE" if e["force"] else "")
                            for e in mine[:5])
        fail_diag = "\n".join(failed[:5])
        what = "%s is %s" % (dev, v)
        odd = [e for e in mine + small if d.get("dma_mask") and e["mask"] != int(d["dma_mask"], 16)]
        if (mine or small) and d.get("dma_mask"):
            check(not odd, "%s: the kernel's bounces carry the mask the audit read (%s)"
                  % (dev, d.get("dma_mask")), "\n".join("mask=%#x" % e["mask"] for e in odd[:5]),
                  dev=dev)
        # a bounce's dev_addr is the buffer's bus address (phys_to_dma): through the
        # dma-ranges the tool read it must land in RAM the kernel listed; one outside
        # every region is the kernel's "no translation" (all ones, or 5.10 ARM's
        # pfn_to_dma() of it, 0xffffffff000), which only uncovered RAM explains
        regions = [(int(r["cpu_start"], 16), int(r["dma_start"], 16), r["size"])
                   for r in ((d.get("dma_ranges") or {}).get("regions") or [])]
        mapped = [e for e in mine + small if e["addr"] != ALL_ONES]
        if regions and mapped and b["ram"]:
            uncovered = b["ram"]
            for cpu, _, size in regions:
                uncovered = [p for lo, hi in uncovered for p in outside([(lo, hi)], cpu, cpu + size - 1)]

            def to_ram(e):
                for cpu, dma, size in regions:
                    if dma <= e["addr"] and e["addr"] + max(e["size"], 1) - 1 < dma + size:
                        c = e["addr"] - dma + cpu
                        return any(lo <= c and c + max(e["size"], 1) - 1 <= hi
                                   for lo, hi in b["ram"])
                return bool(uncovered)
            stray = [e for e in mapped if not to_ram(e)]
            inside = [e for e in mapped if any(dma <= e["addr"] < dma + size
                                               for _, dma, size in regions)]
            check(not stray, "%s: the kernel's %d bounced bus addresses land in RAM: %d inside"
                  " the tool's dma-ranges (%s) translate into it, %d outside them need RAM"
                  " they leave uncovered" % (dev, len(mapped), len(inside), ", ".join(
                      "bus %#x = CPU %#x" % (dma, cpu) for cpu, dma, _ in regions),
                      len(mapped) - len(inside)),
                  "\n".join("addr=%#x size=%d" % (e["addr"], e["size"]) for e in stray[:5]),
                  dev=dev)
        if v in ("direct", "iommu", "idle"):
            if not had:
                # nothing the kernel did shows the prediction: no check passes for it
                # (it had been one that could not fail); the table says "unexercised"
                unexercised.append(dev)
                if d.get("driver") in driven or dev in driven:
                    check(False, "%s: the machine drives it, yet the kernel shows no traffic" % what,
                          "driven: %s" % " ".join(sorted(driven)), dev=dev)
                continue
            check(not mine and not failed and not nblk,
                  "%s: the kernel neither bounced (%d, block %d) nor failed (%d)%s"
                  % (what, len(mine), nblk, len(failed), excused),
                  "reason: %s\n%s\n%s" % (d.get("reason"), ev_diag, fail_diag), dev=dev)
        elif v == "partial":
            if reach is None:
                check(False, "%s: a mask (the kernel's or the audit's) to reckon its reach" % what,
                      dev=dev)
                continue
            wout = window_outside(b["ram"], d, m)
            def within(e):  # a bounce the device did not need (all ones: no translation)
                if e["addr"] == ALL_ONES:
                    return not wout
                return reach[0] <= e["addr"] and e["addr"] + max(e["size"], 1) - 1 <= reach[1]
            bad = [e for e in mine if within(e)]
            check(not bad and not failed,
                  "%s: %d bounces, all of buffers out of its reach %#x-%#x; no failure%s"
                  % (what, len(mine), reach[0], reach[1], excused),
                  "RAM outside the reach: %s\nthe tool's out-of-reach RAM: %s\n"
                  "bounced within reach:\n%s\nfailures:\n%s" % (
                      ", ".join("%#x-%#x" % r for r in far) or "none",
                      ", ".join("%#x-%#x" % r for r in unreachable_set(d, audit)) or "none",
                      "\n".join("addr=%#x size=%d" % (e["addr"], e["size"]) for e in bad[:5]),
                      fail_diag), dev=dev)
            check(mine or nblk,
                  "%s: %s bounced (%d swiotlb, %d block)"
                  % (what, "its traffic" if drove else "with no traffic, nothing", len(mine), nblk),
                  "traffic: %s, nothing bounced: partial passes only on bounces" % traffic.get(dev),
                  dev=dev)
            claim_check(check, d, far, b, what)
        elif v == "forced":
            check(had and mine and len(forced) == len(mine) and not failed,
                  "%s: traffic, and %d bounces, every one forced (%d)" % (what, len(mine), len(forced)),
                  "traffic: %s\n%s\n%s" % (traffic.get(dev), ev_diag, fail_diag), dev=dev)
        elif v == "fails" and any(f.get("id") == "bounce-missed" and f.get("device") == dev
                                  for f in findings):
            wout = window_outside(b["ram"], d, m)
            ran = {n: re.findall(r"^dmt-io %s \S+(?: \S+)? rc=(\d+)$" % re.escape(n), io, re.M)
                   for n in traffic.get(dev, [])}
            ok_io = drove and all(rc and not any(int(x) for x in rc) and moved.get(n, True)
                                  for n, rc in ran.items())
            check(ok_io and not mine and not failed and far,
                  "%s, bounce-missed: traffic (%s) with no bounce (%d) and no failure (%d), and "
                  "%d bytes of RAM out of its reach (%d outside the window)" % (
                      what, ",".join(traffic.get(dev, [])) or "none", len(mine), len(failed),
                      nbytes(far or []), nbytes(wout)),
                  "I/O results: %s\nreach: %s\nRAM outside it: %s\n%s\n%s" % (
                      ran, "%#x-%#x" % reach if reach else "unknown (no mask)",
                      ", ".join("%#x-%#x" % r for r in far or []) or "none", ev_diag, fail_diag),
                  dev=dev)
            claim_check(check, d, far, b, what)
        elif v == "fails":
            # "swiotlb buffer is full ... total 0 (slots)": the kernel has no pool, and
            # 5.0-5.18 still try swiotlb_map() (the event fires first): every attempt
            # fails, a ratelimited log line or not
            mine_ok = not mine or pool_out.get(dev) or poolless
            check((logged.get(dev) or (poolless and mine)) and mine_ok,
                  "%s: mapping failures logged (%d) and no bounce that could succeed (%d attempted)"
                  % (what, len(logged.get(dev, [])), len(mine)),
                  "traffic: %s\n%s\nlogged: %s\nother: %s" % (
                      traffic.get(dev), ev_diag, logged.get(dev), other.get(dev)), dev=dev)
            if reach is None:
                check(False, "%s: a mask (the kernel's or the audit's) to reckon its reach" % what,
                      dev=dev)
            else:
                claim_check(check, d, far, b, what)
        else:
            check(not had, "%s: the kernel shows no traffic of it (%s)" % (what, d.get("reason")),
                  "traffic: %s, %d bounces, failures: %s" % (traffic.get(dev), len(mine), fail_diag),
                  dev=dev)
            continue
        if had:
            jq.append('(.devices[] | select(.id == "%s")) | .verdict == "%s"' % (dev, v))

    seen = observe_checks(check, work, table)
    probe_checks(check, work)
    user_checks(check, work, audit)
    for row in table:
        dev = row[0]
        oks = verdicts_of.get(dev, [])
        word = ("disagrees" if not all(oks) else "unexercised" if dev in unexercised
                else "agrees" if row[2] != "unknown" else "not asserted")
        n, pred = (seen.get(dev) or (None, None))[:2]
        row.append(word if n is None else "%s; observed %s %s" % (word, n, pred))
    table[:] = [tuple(r) for r in table]
    layout_checks(check, jq, m, audit, dmesg)
    # no pool in the boot log, RAM the kernel mapped above 4 GiB: what no-bounce-pool warns of
    above = sum(e + 1 - max(s, 1 << 32) for s, e in b["ram"] if e >= 1 << 32)
    # the pool the boot log maps entirely past the window the suite wrote, and RAM there too
    pool_past = None
    if b["pool"] and m.get("dma_ranges"):
        end = m["dma_ranges"][0] + m["dma_ranges"][1]
        if b["pool"][0] >= end and any(e >= end for _, e in b["ram"]):
            pool_past = b["pool"][0]
    return dict(checks=checks, jq=jq, table=table, unexercised=unexercised, evidence=evidence,
                full_lines=full_lines, half_empty_lines=sum(len(v) for v in half_empty.values()),
                no_pool_above_4g=above if b["pool"] is None else 0, pool_past_window=pool_past)


def finding_checks(m, res, captured_log=""):
    """The checks of findings (and "# unpinned:" lines for verdicts) that what
    the kernel did supports, each after a comment saying why, for a fixture
    whose judged checks all agreed: a device that bounced is partial, so
    bounce-needed; one whose every bounce was forced, forced-bounce (the
    machine's or its own); a failing one with mapping failures,
    bounce-impossible, and with none (traffic, no bounce, RAM out of reach),
    bounce-missed; "swiotlb addr ... overflow" logged, swiotlb-out-of-reach;
    "DMA addr ... overflow" in the snapshot's own log (captured_log: it was
    taken before the traffic), dma-overflow-logged; a mask beyond the
    dma-ranges window the suite wrote, mask-limited-by-bus. A non-idle device
    the kernel showed no traffic of gets no verdict check (the judge asserts
    nothing of it) and says so. Findings the kernel cannot show (the
    readings of max_low_pfn) are left to whoever saves the fixture."""
    out = []

    def f(what, dev, why, n="length == 1", anywhere=False):
        sel = ('.device == null or .device == "%s"' % dev) if anywhere else '.device == "%s"' % dev
        out.append("# %s" % why)
        out.append('[.findings[] | select(.id == "%s" and (%s))] | %s' % (what, sel, n))

    evidence = res.get("evidence") or {}
    for row in res.get("table") or []:
        dev, _, v, bounces, forced, failures, block, _, judged = row[:9]
        ev = evidence.get(dev) or {}
        nblk = block if isinstance(block, int) else 0
        if judged.startswith("unexercised") or (v == "unknown" and judged.startswith("not asserted")):
            out.append('# unpinned: "%s" .verdict (%s): the kernel showed no traffic of it, '
                       "the judge asserts nothing" % (dev, v))
        elif judged.startswith("agrees") and v == "partial":
            f("bounce-needed", dev, "%s bounced (%d swiotlb, %d block): partial, so bounce-needed"
              % (dev, bounces, nblk))
        elif judged.startswith("agrees") and v == "forced":
            f("forced-bounce", dev, "every bounce of %s was forced (%d): forced-bounce, the "
              "machine's or its own" % (dev, forced), anywhere=True)
        elif judged.startswith("agrees") and v == "fails" and failures:
            f("bounce-impossible", dev, "%s: %d mapping failures and no bounce that succeeded: "
              "bounce-impossible" % (dev, failures))
        elif judged.startswith("agrees") and v == "fails":
            f("bounce-missed", dev, "%s moved its data with no bounce and no failure, RAM out of "
              "its reach: nothing checked it, bounce-missed" % dev)
        if ev.get("pool_overflows"):
            f("swiotlb-out-of-reach", dev, '%s: the kernel logged "swiotlb addr ... overflow", or '
              '"buffer is full" with room and the pool outside the window (%d): the pool is out '
              "of its reach" % (dev, ev["pool_overflows"]))
        if ev.get("half_empty"):
            f("swiotlb-no-slot", dev, '%s: "swiotlb buffer is full" %d times with at most half the '
              "pool used: no slot suited it, the pool did not run out" % (dev, ev["half_empty"]))
        if m.get("dma_ranges") and ev.get("pci") and v != "idle" and ev.get("mask") is not None:
            start, size = m["dma_ranges"]
            if start + size - 1 < ev["mask"]:
                f("mask-limited-by-bus", dev, "the dma-ranges window the suite wrote ends at %#x, "
                  "below %s's mask %#x (%s)" % (start + size - 1, dev, ev["mask"], ev["mask_from"]))
    # the kernel made no pool and failed mappings of a device out of reach: the next such
    # device fails too, what no-bounce-pool says (the window guests' boundary is their window)
    # every "buffer is full" line of a pool at most half used: none is pressure
    if res.get("full_lines") and res.get("half_empty_lines") == res.get("full_lines"):
        out.append('# "swiotlb buffer is full" %d times, each with at most half the pool used: '
                   "not pressure" % res["full_lines"])
        out.append('[.findings[] | select(.id == "swiotlb-pressure")] | length == 0')
    failed = any(row[5] for row in res.get("table") or [])
    if res.get("no_pool_above_4g") and failed and not m.get("dma_ranges"):
        out.append("# no 'software IO TLB: mapped' in the boot log, %d bytes of RAM above 4 GiB, and "
                   "the kernel failed mappings out of reach: no-bounce-pool" % res["no_pool_above_4g"])
        out.append('[.findings[] | select(.id == "no-bounce-pool" and .device == null)] | '
                   'length == 1 and .[0].evidence.ram_above_bytes == %d' % res["no_pool_above_4g"])
    if res.get("pool_past_window") is not None:
        out.append("# the boot log maps the pool at %#x, past the dma-ranges window the suite wrote,"
                   " and RAM lies there too: a device behind it bound later has no pool:"
                   " no-bounce-pool" % res["pool_past_window"])
        out.append('[.findings[] | select(.id == "no-bounce-pool" and .device == null)] | '
                   'length == 1 and .[0].evidence.pool_start == "%#x"' % res["pool_past_window"])
    logged = {}
    for mo in LOGGED_OVERFLOW.finditer(captured_log):
        logged[mo.group(1)] = logged.get(mo.group(1), 0) + 1
    for dev in sorted(logged):
        f("dma-overflow-logged", dev, 'the snapshot\'s kernel log holds "DMA addr ... overflow" '
          "for %s (%d)" % (dev, logged[dev]))
    return out


def claim_check(check, d, far, b, what):
    """The tool's out-of-reach RAM against the judge's own reckoning (in pages:
    the boot map is page-aligned, the tool reads byte-exact iomem)."""
    if far is None:
        return
    claim = ((d.get("models") or {}).get("dma_direct") or {}).get("unreachable_ram_bytes")
    if claim is None:
        if d.get("kernel_model") == "legacy-block":
            return  # no mask: the block layer's BLK_BOUNCE_HIGH alone decides
        check(False, "%s: the tool says how much RAM is out of its reach" % what, dev=d["id"])
        return
    mine = nbytes(far)
    check(abs(claim - mine) < 4096 * max(1, len(b["ram"])),
          "%s: %d bytes of RAM out of its reach, as the boot memory map and its reach say (%d)"
          % (what, claim, mine),
          "RAM out of reach by the kernel's facts: %s" % (
              ", ".join("%#x-%#x" % r for r in far) or "none"), dev=d["id"])


def block_checks(check, audit, io, trace, disk_dev, moved):
    """block_bio_bounce per disk against the tool's block[] prediction;
    returns per device {disk: events}: no entry for a device where the kernel
    has no such event (6.16+, or an era the tool does not know) and none fired."""
    devs = dict(re.findall(r"^dmt-diskdev (\S+) (\d+:\d+)$", io, re.M))
    total = block_events(trace)
    during = block_events(window_lines(trace, "stop"))
    era = (audit.get("kernel") or {}).get("block_bounce")
    names = {v: k for k, v in devs.items()}
    stray = sorted(set(total) - set(names))
    check(not stray, "every block_bio_bounce is of a disk the guest listed",
          "bounced: %s; disks: %s" % (" ".join("%s (%d)" % (k, total[k]) for k in stray),
                                      " ".join("%s=%s" % kv for kv in sorted(devs.items()))))
    # guest-init enables the event where the kernel has it: every era the tool
    # names but the one after its removal (6.16)
    traced = bool(total) or era in ("pfn-arithmetic", "highmem-only-never-runs")
    entries = {e.get("disk"): e for e in audit.get("block") or []}
    out = {}
    for name, dev in sorted(disk_dev.items()):
        if name not in devs:
            check(False, "%s: the guest listed its MAJ:MIN (dmt-diskdev)" % name, dev=dev)
            continue
        n, k = total.get(devs[name], 0), during.get(devs[name], 0)
        if traced:
            out.setdefault(dev, {})[name] = n
        entry = entries.get(name)
        check(entry, "%s: the tool's block[] reports the disk" % name,
              "block[]: %s" % " ".join(sorted(str(k) for k in entries)), dev=dev)
        predicted, why = legacy_prediction(entry, era)
        if entry and entry.get("dma_device") not in (None, dev):
            check(False, "%s: the tool's block[] names its DMA device %s (it lies under %s)"
                  % (name, entry.get("dma_device"), dev), dev=dev)
        if predicted is True and moved.get(name):
            check(k > 0, "%s (%s): block bounces predicted, %d during its traffic (%d in all)"
                  % (name, dev, k, n), why, dev=dev)
        elif predicted is False:
            check(n == 0, "%s (%s): no block bounce predicted, %d seen" % (name, dev, n), why,
                  dev=dev)
    return out


def user_checks(check, work, root):
    """The audit as user nobody (dmesg_restrict=1, no debugfs, iomem zeroed):
    JSON, no crash, and each device's verdict root's or unknown for an input
    root read and it could not."""
    err = read(work, "user.err")
    status = re.findall(r"^status=(\d+)$", err, re.M)
    crash = CRASH.search(err)
    check(status and int(status[-1]) in (0, 1) and not crash,
          "the audit as nobody exited 0 or 1 and did not crash (%s)"
          % (status[-1] if status else "no status"), err[-1500:])
    try:
        user = json.loads(read(work, "user.json"))
    except ValueError as e:
        check(False, "the audit as nobody printed JSON", "%s\n%s" % (e, err[-1000:]))
        return
    if status:
        check(user.get("exit_status") == int(status[-1]),
              "the audit as nobody says the exit status it had (%s)" % user.get("exit_status"))
    had = {i.get("path"): i.get("status") for i in root.get("inputs") or []}
    lost = ["%s: %s (%s)" % (i.get("path"), i.get("status"), i.get("detail") or i.get("errno"))
            for i in user.get("inputs") or []
            if i.get("status") != "ok" and had.get(i.get("path")) == "ok"]
    if (user.get("memory") or {}).get("source") != (root.get("memory") or {}).get("source"):
        lost.append("memory layout from %s, not %s" % ((user.get("memory") or {}).get("source"),
                                                      (root.get("memory") or {}).get("source")))
    mine = {d["id"]: d for d in user.get("devices") or []}
    theirs = {d["id"]: d for d in root.get("devices") or []}
    check(set(mine) == set(theirs), "the audit as nobody reports root's %d devices (%d)"
          % (len(theirs), len(mine)),
          "only root: %s\nonly nobody: %s" % (" ".join(sorted(set(theirs) - set(mine))),
                                              " ".join(sorted(set(mine) - set(theirs)))))
    for dev in sorted(set(mine) & set(theirs)):
        u, r = mine[dev].get("verdict"), theirs[dev].get("verdict")
        if u == r:
            continue
        check(u == "unknown" and lost,
              "%s: as nobody %s where root says %s, for inputs it could not read" % (dev, u, r),
              "nobody's reason: %s\ninputs root read and nobody could not:\n%s" % (
                  mine[dev].get("reason"), "\n".join(lost) or "none"), dev=dev)


def layout_checks(check, jq, m, audit, dmesg):
    """The memory layout and the swiotlb pool against the kernel's boot lines."""
    b = boot_lines(dmesg)
    mem = audit.get("memory") or {}
    ps = mem.get("page_size") or 4096
    from_boot = bool(re.search(r"^\[\s*0\.000000\] Linux version", dmesg, re.M))
    check(from_boot and b["ram"] and b["zones"],
          "the kernel log holds the boot lines (Linux version, zones, memory nodes)",
          dmesg[:1500])
    if not (from_boot and b["ram"] and b["zones"]):
        return
    first = min(s for s, _ in b["ram"])
    last = max(e for _, e in b["zones"].values())
    check(mem.get("base_pfn") == first // ps,
          "base PFN %s is the first RAM page the kernel lists (%#x)" % (mem.get("base_pfn"), first // ps))
    check(mem.get("end_pfn") == (last + 1) // ps,
          "end PFN %s is where the kernel's last zone ends (%#x)" % (mem.get("end_pfn"), (last + 1) // ps))
    # the RAM ranges, in whole pages (iomem is byte-exact, memblock page-aligned)
    kpages = merge([(s // ps, (e + 1) // ps) for s, e in b["ram"]])
    tpages = merge([(-(-int(r["start"], 16) // ps), (int(r["end"], 16) + 1) // ps)
                    for r in mem.get("ram_ranges") or []])
    check(kpages == tpages,
          "RAM ranges (in pages) are the kernel's memory nodes: %s" % fmt_pages(kpages),
          "tool: %s" % fmt_pages(tpages))
    # one node: each populated zone spans what the kernel's "Zone ranges" say
    zones = [z for z in mem.get("zones") or [] if z.get("start_pfn") is not None and z.get("spanned")]
    if zones and len({z.get("node") for z in zones}) == 1:
        for z in zones:
            k = b["zones"].get(z["name"])
            if not k:
                continue
            check(z["start_pfn"] == k[0] // ps and z["start_pfn"] + z["spanned"] == (k[1] + 1) // ps,
                  "zone %s spans %#x-%#x as the kernel's Zone ranges line says" % (
                      z["name"], k[0] // ps, (k[1] + 1) // ps - 1),
                  "tool: start_pfn %#x spanned %d" % (z["start_pfn"], z["spanned"]))
    if "HighMem" in b["zones"]:
        hs = b["zones"]["HighMem"][0]
        check(mem.get("lowmem_end_pfn") == hs // ps,
              "lowmem end PFN %s is where the kernel's HighMem zone starts (%#x)" % (
                  mem.get("lowmem_end_pfn"), hs // ps))
        jq.append(".memory.lowmem_end_pfn == %d" % (hs // ps))
    sw = audit.get("swiotlb") or {}
    if b["pool"]:
        s, e, size = b["pool"]
        check(sw.get("active") is True and sw.get("pool_start") == "%#x" % s
              and sw.get("pool_end") == "%#x" % (e - 1) and sw.get("size_bytes") == size,
              "swiotlb pool %#x-%#x (%s) as the kernel mapped it" % (
                  s, e - 1, "%d MiB" % (size >> 20) if size and size >= 1 << 20 else
                  "%s bytes" % size),
              "tool: %s" % json.dumps(sw))
        jq.append('.swiotlb.active == true and .swiotlb.pool_start == "%#x"' % s)
    else:
        check(sw.get("active") is False,
              "no swiotlb pool: the boot log has no 'software IO TLB: mapped' (tool: %s)"
              % sw.get("active"), "tool: %s" % json.dumps(sw))
        jq.append('.swiotlb.active == false')
    jq.append(".memory.base_pfn == %d and .memory.end_pfn == %d" % (first // ps, (last + 1) // ps))
    window_checks(check, m, audit, b)


def merge(ranges):
    """Page ranges [start, end) sorted, empty ones dropped, touching ones joined."""
    out = []
    for s, e in sorted(r for r in ranges if r[1] > r[0]):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def fmt_pages(ranges):
    return ", ".join("%#x-%#x" % (s, e - 1) for s, e in ranges) or "none"


def window_checks(check, m, audit, b):
    """A dma-ranges window the suite wrote: what lies outside it is uncovered
    RAM for every device behind it (the PCIe host, or /soc), and reach ends at
    its bus end."""
    if not (m.get("dma_ranges") or m.get("soc_dma_ranges")):
        return
    behind = [d for d in audit.get("devices", [])
              if window_of(d, m) and d.get("driver") and d.get("verdict") != "idle"]
    check(behind, "a judged %s device lies behind the dma-ranges window"
          % ("PCI" if m.get("dma_ranges") else "/soc"))
    for d in behind:
        bus, start, size = window_of(d, m)
        end = start + size - 1
        outside = sum(e + 1 - s for s, e in b["ram"]) - sum(
            max(0, min(e, end) + 1 - max(s, start)) for s, e in b["ram"])
        # dma-direct's figures whatever decides the verdict: below a legacy block
        # layer (before 5.13) it is dma-direct that checks the window
        model = (d.get("models") or {}).get("dma_direct") or {}
        check(model.get("uncovered_ram_bytes") == outside
              and d.get("bus_limit") == "%#x" % (bus + size - 1),
              "%s: %d bytes of RAM outside the window %#x-%#x, bus limit %#x (tool: %s, %s)" % (
                  d["id"], outside, start, end, bus + size - 1, model.get("uncovered_ram_bytes"),
                  d.get("bus_limit")))
