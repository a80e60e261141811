"""The judge of the real-kernel suite: what the kernel did, against what
dmamask-audit said. It shares no code with the tool: it reads the tool's JSON
only for its claims, and the kernel's own records (the swiotlb_bounced trace,
the kernel log, the I/O results, the boot lines) for the facts.

Rules, for every device the tool judged:
  direct, iommu, idle  no bounce event and no mapping failure
  partial   bounce events only for buffers that lie (at least in part) in RAM
            the tool reports out of the device's reach; no mapping failure
  forced    at least one bounce when it had traffic, and every one forced
  fails     a logged mapping failure (DMA or swiotlb addr overflow, I/O
            errors) when it had traffic, and no bounce that could succeed: an
            attempted bounce (the event fires before the pool's own reach is
            checked) only when the log shows that pool out of the device's reach
  unknown   only for a device the kernel shows no traffic of
and the memory layout against the kernel's boot lines, which must be there
(the guest boots with a log buffer large enough to keep them).
"""
import json
import os
import re

TABLE_HEAD = ("machine", "boot", "device", "driver", "verdict", "bounces", "forced",
              "failures", "traffic", "observed", "check")

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
EXPORTED = ("audit.json", "io.log", "trace", "trace-format", "trace-stats", "swiotlb", "dmesg",
            "observe.json", "observe.err", "observe-kill.log", "observe5.txt")
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


def window_events(trace, until="end"):
    """The events between the guest's dmt-observe-start trace marker and its
    dmt-observe-stop (sent just before SIGINT: --observe saw all of these) or
    -end (after it exited: --observe can have seen no more) marker."""
    inside, lines = False, []
    for line in trace.splitlines():
        if "tracing_mark_write: dmt-observe-start" in line:
            inside = True
        elif "tracing_mark_write: dmt-observe-" + until in line:
            inside = False
        elif inside and "tracing_mark_write:" not in line:
            lines.append(line)
    return events("\n".join(lines))


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
              "%s: --observe counted %s bounces, the suite's trace %d to %d" % (dev, n, lo, hi))
        check(o.get("prediction") != "contradicted",
              "%s (%s): the kernel does not contradict the prediction" % (dev, d.get("verdict")),
              o.get("why"))
        if d.get("verdict") in ("partial", "forced") and mine.get(dev):
            check(o.get("prediction") == "consistent",
                  "%s: %s with %d bounces observed is consistent" % (dev, d.get("verdict"), n))
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
    f["pool"] = (int(mo.group(1), 16), int(mo.group(2), 16), int(mo.group(3)) << 20) if mo else None
    return f


def device_of(path, devices):
    """The judged device a sysfs path lies under (the deepest one)."""
    best = None
    for d in devices:
        sp = "/" + (d.get("syspath") or "")
        if sp != "/" and (path == sp or path.startswith(sp + "/")):
            if best is None or len(sp) > len("/" + best["syspath"]):
                best = d
    return best


def judge(work, m):
    checks, jq, table = [], [], []

    def check(ok, what, diag=None):
        checks.append(dict(ok=bool(ok), what=what, diag=diag))

    missing = [f for f in EXPORTED if not exists(work, f)]
    check(not missing, "the guest exported every record", "missing: %s" % " ".join(missing))
    try:
        audit = json.loads(read(work, "audit.json"))
    except ValueError as e:
        check(False, "the audit is JSON", str(e))
        return dict(checks=checks, jq=jq, table=table)
    dmesg, io = read(work, "dmesg"), read(work, "io.log")
    evs = events(read(work, "trace"))
    devices = audit.get("devices", [])
    by_id = {d["id"]: d for d in devices}

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
    for name, _ in disks:
        n = len(re.findall(r"^dmt-io %s (?:read|write) \S+ rc=\d+$" % re.escape(name), io, re.M))
        check(n == 4, "%s: read and written, buffered and O_DIRECT (%d of 4)" % (name, n))

    # mapping failures (logged, and of the guest's own I/O), per device
    logged, pool_out, other = {}, {}, {}
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
            other.setdefault(mo.group(1), []).append(line.strip())
    traffic = {}
    for kind, name, path in re.findall(r"^dmt-(disk|net) (\S+) (\S+)$", io, re.M):
        d = device_of(path, devices)
        if d is None:
            check(False, "%s %s has a judged DMA device" % (kind, name), path)
            continue
        traffic.setdefault(d["id"], []).append(name)
        for mo in DISK_FAIL.finditer(io):
            if mo.group(1) == name:
                other.setdefault(d["id"], []).append(mo.group(0))
        for mo in IO_ERROR.finditer(dmesg):
            if mo.group(1) == name:
                logged.setdefault(d["id"], []).append("I/O error on " + name)

    for d in devices:
        dev, v = d["id"], d.get("verdict")
        mine = [e for e in evs if e["dev"] == dev]
        forced = [e for e in mine if e["force"]]
        failed = logged.get(dev, []) + other.get(dev, [])
        had = bool(traffic.get(dev)) or bool(mine) or bool(failed)
        table.append((dev, d.get("driver") or "-", v, len(mine), len(forced),
                      len(failed), ",".join(traffic.get(dev, [])) or "-"))
        ev_diag = "\n".join("%s addr=%#x size=%d%s" % (e["dev"], e["addr"], e["size"],
                                                     " FORCE" if e["force"] else "")
                            for e in mine[:5])
        fail_diag = "\n".join(failed[:5])
        what = "%s is %s" % (dev, v)
        if v in ("direct", "iommu", "idle"):
            check(not mine and not failed,
                  "%s: the kernel neither bounced (%d) nor failed (%d)" % (what, len(mine), len(failed)),
                  "reason: %s\n%s\n%s" % (d.get("reason"), ev_diag, fail_diag))
        elif v == "partial":
            model = (d.get("models") or {}).get((d.get("kernel_model") or "").replace("-", "_")) or {}
            out = unreachable_set(d, audit)
            bad = [e for e in mine if not (
                (e["addr"] == ALL_ONES and model.get("uncovered_ram_bytes"))
                or any(e["addr"] <= hi and e["addr"] + max(e["size"], 1) - 1 >= lo
                       for lo, hi in out))]
            check(not bad and not failed,
                  "%s: %d bounces, all of buffers the tool says are out of reach; no failure"
                  % (what, len(mine)),
                  "unreachable per the tool: %s\nbounced elsewhere:\n%s\nfailures:\n%s" % (
                      ", ".join("%#x-%#x" % r for r in out),
                      "\n".join("addr=%#x size=%d" % (e["addr"], e["size"]) for e in bad[:5]),
                      fail_diag))
        elif v == "forced":
            check((mine or not had) and len(forced) == len(mine) and not failed,
                  "%s: %d bounces, every one forced (%d)" % (what, len(mine), len(forced)),
                  "traffic: %s\n%s\n%s" % (traffic.get(dev), ev_diag, fail_diag))
        elif v == "fails":
            mine_ok = not mine or pool_out.get(dev)
            check((logged.get(dev) or not had) and mine_ok,
                  "%s: mapping failures logged (%d) and no bounce that could succeed (%d attempted)"
                  % (what, len(logged.get(dev, [])), len(mine)),
                  "traffic: %s\n%s\nlogged: %s\nother: %s" % (
                      traffic.get(dev), ev_diag, logged.get(dev), other.get(dev)))
        else:
            check(not had, "%s: the kernel shows no traffic of it (%s)" % (what, d.get("reason")),
                  "traffic: %s, %d bounces, failures: %s" % (traffic.get(dev), len(mine), fail_diag))
            continue
        if had:
            jq.append('(.devices[] | select(.id == "%s")) | .verdict == "%s"' % (dev, v))

    seen = observe_checks(check, work, table)
    table[:] = [row + ((seen.get(row[0]) or (None, None))[:2]) for row in table]
    layout_checks(check, jq, m, audit, dmesg)
    return dict(checks=checks, jq=jq, table=table)


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
              "swiotlb pool %#x-%#x (%d MiB) as the kernel mapped it" % (s, e - 1, size >> 20),
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
    RAM for every device behind the PCIe host, and reach ends at its end."""
    if not m.get("dma_ranges"):
        return
    start, size = m["dma_ranges"]
    end = start + size - 1
    outside = sum(e + 1 - s for s, e in b["ram"]) - sum(
        max(0, min(e, end) + 1 - max(s, start)) for s, e in b["ram"])
    behind = [d for d in audit.get("devices", [])
              if d.get("bus") == "pci" and d.get("driver") and d.get("verdict") != "idle"]
    check(behind, "a judged PCI device lies behind the dma-ranges window")
    for d in behind:
        model = (d.get("models") or {}).get((d.get("kernel_model") or "").replace("-", "_")) or {}
        check(model.get("uncovered_ram_bytes") == outside
              and d.get("bus_limit") == "%#x" % end,
              "%s: %d bytes of RAM outside the window %#x-%#x, bus limit %#x (tool: %s, %s)" % (
                  d["id"], outside, start, end, end, model.get("uncovered_ram_bytes"),
                  d.get("bus_limit")))
