#!/usr/bin/env python3
"""The judge of the real-kernel suite must be able to say no: each case is a
guest's exported files, made up, with what the judge must conclude. TAP;
JUDGE_WHY=1 prints the failed checks of every case, so that a refusal can be
seen to fail for its own reason."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402

BOOT = """[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)
[    0.000000]   DMA      [mem 0x0000000000001000-0x0000000000ffffff]
[    0.000000]   DMA32    [mem 0x0000000001000000-0x00000000ffffffff]
[    0.000000]   Normal   [mem 0x0000000100000000-0x00000001bfffffff]
[    0.000000]   node   0: [mem 0x0000000000001000-0x000000000009efff]
[    0.000000]   node   0: [mem 0x0000000100000000-0x00000001bfffffff]
"""
POOL = "[    2.312025] software IO TLB: mapped [mem 0x00000000bb936000-0x00000000bf936000] (64MB)\n"
FORMAT = "name: swiotlb_bounced\nID: 349\n"
STATS = "cpu0\nentries: 3\noverrun: 0\n"
A = "0000:00:01.1"


def dev(id_, verdict, lowest="0x100000000", uncovered=0, unreachable=0xc0000000, mask="0xffffffff"):
    """A PCI device as the audit reports it; BOOT's RAM above 4 GiB (3 GiB) is
    what a 32-bit mask leaves out of reach."""
    return {"id": id_, "verdict": verdict, "driver": "drv", "reason": "r", "bus": "pci",
            "syspath": "sys/devices/pci0000:00/" + id_, "kernel_model": "dma-direct",
            "dma_mask": mask,
            "models": {"dma_direct": {"lowest_unreachable": lowest,
                                      "unreachable_ram_bytes": unreachable,
                                      "uncovered_ram_bytes": uncovered}}}


def audit(devices, active=True, start="0xbb936000", end="0xbf935fff", size=64 << 20,
          era="highmem-only-never-runs", block=(), findings=()):
    return {"devices": devices, "exit_status": 1,
            "host": {"arch": "x86_64", "arch_source": "proc/sys/kernel/arch"},
            "kernel": {"block_bounce": era},
            "inputs": [{"path": "proc/iomem", "status": "ok"}, {"path": "dev/kmsg", "status": "ok"}],
            "memory": {"source": "iomem", "page_size": 4096, "base_pfn": 1, "end_pfn": 0x1c0000,
                       "ram_ranges": [{"start": "0x1000", "end": "0x9efff"},
                                      {"start": "0x100000000", "end": "0x1bfffffff"}]},
            "swiotlb": {"active": active, "pool_start": start, "pool_end": end,
                        "size_bytes": size},
            "block": list(block) or [{"disk": "sda", "dma_device": A, "legacy_block": None}],
            "findings": list(findings)}


def event(dev_, addr, force=False, fmt="new"):
    if fmt == "old":
        return ("dd-1 [000] .... 1.0: swiotlb_bounced: dev_name=%s dma_mask=ffffffff "
                "dev_addr=%x size=4096 %s\n" % (dev_, addr, "FORCE" if force else "NO_FORCE"))
    return ("dd-1 [000] .... 1.0: swiotlb_bounced: dev_name: %s dma_mask=ffffffff "
            "dev_addr=%x size=4096 %s\n" % (dev_, addr, "FORCE" if force else "NORMAL"))


MARK = "dd-1 [000] .... 1.0: tracing_mark_write: dmt-observe-%s\n"
KILLED = "left: 1\nstatus=0\nafter: 0\n"
FIVE = "observed         5.0 s of swiotlb_bounced: 3 bounces (12 KiB) from 1 devices\nstatus=1\n"


def observed(a, trace, prediction=None, counts=None):
    """What --observe would print: the audit, each device with its window's bounces."""
    inside, n = False, {}
    for line in trace.splitlines():
        inside = ("dmt-observe-start" in line) or (inside and "dmt-observe-end" not in line)
        inside = inside and "dmt-observe-stop" not in line
        mo = judge.EVENT.search(line)
        if inside and mo:
            n[mo.group(1)] = n.get(mo.group(1), 0) + 1
    n.update(counts or {})
    o = dict(a, observation={"interrupted": True, "lost_events": 0, "unattributed": []})
    o["devices"] = [dict(d, observed={"bounces": n.get(d["id"], 0),
                                      "prediction": prediction or ("consistent" if n.get(d["id"])
                                                                   else "cannot-tell")})
                    for d in a["devices"]]
    return o


def run(a, trace="", dmesg=BOOT + POOL, io="", stats=STATS, m=None, skip=(), obs=None,
        obs_err="status=1\n", killed=KILLED, five=FIVE, user=None, user_err="status=1\n",
        more=(), probe=""):
    """The judge's result over a made-up guest's files; the run as nobody is
    root's own unless given (a dict is dumped, a string written as it is)."""
    user = a if user is None else user
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("audit.json", json.dumps(a)), ("trace", trace), ("dmesg", dmesg),
                           ("io.log", io), ("trace-format", FORMAT), ("trace-stats", stats),
                           ("swiotlb", "io_tlb_nslabs=32768\n"),
                           ("observe.json", json.dumps(obs or observed(a, trace))),
                           ("observe.err", obs_err), ("observe-kill.log", killed),
                           ("observe5.txt", five),
                           ("user.json", user if isinstance(user, str) else json.dumps(user)),
                           ("user.err", user_err), ("probe.log", probe)) + tuple(more):
            if name in skip:
                continue
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        return judge.judge(d, dict({"arch": "amd64"}, **(m or {"name": "test"})))


def failed(res):
    return [c["what"] for c in res["checks"] if not c["ok"]]


n = 0
bad = 0


def case(what, res, expect_ok):
    global n, bad
    n += 1
    f = failed(res)
    good = (not f) if expect_ok else bool(f)
    bad += not good
    print("%s %d - %s" % ("ok" if good else "not ok", n, what))
    if not good or os.environ.get("JUDGE_WHY"):
        print("# failed checks: %s" % f)


IO = ("dmt-disk sda /sys/devices/pci0000:00/%s/ata1/host0\n" % A + "dmt-diskdev sda 8:0\n"
      + "".join("dmt-io sda %s rc=0\n" % x for x in
                ("read buffered", "read iflag=direct", "write buffered", "write oflag=direct")))

case("partial: bounces above 4 GiB agree", run(audit([dev(A, "partial")]),
     event(A, 0x13ef22000) + event(A, 0x1bffff000), io=IO), True)
case("partial: a bounce of a buffer the tool calls reachable disagrees",
     run(audit([dev(A, "partial")]), event(A, 0x13ef22000) + event(A, 0x7000000)), False)
case("partial: a buffer that crosses into unreachable RAM agrees",
     run(audit([dev(A, "partial")]), event(A, 0xfffff800)), True)
case("partial: an unmappable address (all ones) needs uncovered RAM",
     run(audit([dev(A, "partial")]), event(A, (1 << 64) - 1)), False)
case("partial: all ones with uncovered RAM (the tool's claim alone) disagrees",
     run(audit([dev(A, "partial", uncovered=4096)]), event(A, (1 << 64) - 1)), False)
case("direct: any bounce disagrees", run(audit([dev(A, "direct")]), event(A, 0x13ef22000)), False)
case("idle: a mapping failure disagrees",
     run(audit([dev(A, "idle")]), dmesg=BOOT + POOL +
         "[ 21.2] ata_piix %s: DMA addr 0x0000000101e87880+1544 overflow (mask ffffffff, bus limit 0).\n" % A),
     False)
case("iommu: a failed read on its disk disagrees",
     run(audit([dev(A, "iommu")]), io=IO.replace("buffered rc=0", "buffered rc=1", 1)), False)
case("forced: one bounce not forced disagrees",
     run(audit([dev(A, "forced")]), event(A, 0x1000, True) + event(A, 0x2000, False), io=IO), False)
case("forced: every bounce forced agrees (old event format too)",
     run(audit([dev(A, "forced")]), event(A, 0x1000, True, "old") + event(A, 0x2000, True), io=IO),
     True)
case("forced: traffic and no bounce disagrees", run(audit([dev(A, "forced")]), io=IO), False)
case("fails: a successful bounce disagrees",
     run(audit([dev(A, "fails")], active=False), event(A, 0x13ef22000), io=IO,
         dmesg=BOOT + "[ 5.0] I/O error, dev sda, sector 0\n"), False)
case("fails: traffic without a failure disagrees",
     run(audit([dev(A, "fails")], active=False), io=IO, dmesg=BOOT), False)
case("fails: I/O errors and no bounce agree",
     run(audit([dev(A, "fails")], active=False), io=IO,
         dmesg=BOOT + "[ 5.0] I/O error, dev sda, sector 0 op 0x0:(READ)\n"), True)
case("a device that bounced but is not in the report disagrees",
     run(audit([dev(A, "partial")]), event("0000:00:09.0", 0x13ef22000)), False)
case("lost trace events fail the run", run(audit([]), stats="cpu0\noverrun: 12\n"), False)
case("the pool: another address than the kernel's disagrees",
     run(audit([], start="0xbb000000")), False)
SMALL = "[    1.89] software IO TLB: mapped [mem 0x00000000bfc04000-0x00000000bfc04800] (0MB)\n"
case("the pool: a 2 KiB pool (swiotlb=noforce, printed 0MB) is its range's size",
     run(audit([], start="0xbfc04000", end="0xbfc047ff", size=2048), dmesg=BOOT + SMALL), True)
case("the pool: a size read off the MB figure (0) disagrees",
     run(audit([], start="0xbfc04000", end="0xbfc047ff", size=0), dmesg=BOOT + SMALL), False)
case("no pool line in a boot-long log: the tool must say none",
     run(audit([]), dmesg=BOOT), False)
case("no pool line and the tool says none: agree", run(audit([], active=False), dmesg=BOOT), True)
OVERFLOW = ("[ 9.1] sym53c8xx %s: swiotlb addr 0xffffffffffffffff+36 overflow "
            "(mask ffffffff, bus limit 5fffffff).\n" % A)
case("fails: attempted bounces with the pool out of reach agree",
     run(audit([dev(A, "fails")]), event(A, (1 << 64) - 1), io=IO, dmesg=BOOT + POOL + OVERFLOW), True)
case("fails: 'swiotlb buffer is full' is a pool that exists, not a failure of reach",
     run(audit([dev(A, "fails")]), io=IO, dmesg=BOOT + POOL +
         "[ 9.1] ata_piix %s: swiotlb buffer is full (sz: 524288 bytes)\n" % A), False)
NOPOOL = ("[ 9.2] ata_piix %s: swiotlb buffer is full (sz: 4096 bytes), total 0 (slots), "
          "used 0 (slots)\n" % A)
case("fails: attempts where the log shows no pool (total 0 slots) agree, as each one failed",
     run(audit([dev(A, "fails")], active=False), event(A, 0x13ef22000), io=IO,
         dmesg=BOOT + NOPOOL), True)
case("fails: attempts where the pool has slots (it exists) disagree",
     run(audit([dev(A, "fails")], active=False), event(A, 0x13ef22000), io=IO,
         dmesg=BOOT + NOPOOL.replace("total 0", "total 32768")), False)
case("fails: no pool and not one attempt or logged failure disagrees",
     run(audit([dev(A, "fails")], active=False), io=IO, dmesg=BOOT + NOPOOL.replace(A, "0000:00:09.0")),
     False)
case("fails: a failed dd alone is not a logged failure",
     run(audit([dev(A, "fails")], active=False), io=IO.replace("buffered rc=0", "buffered rc=1", 1),
         dmesg=BOOT), False)
case("unknown: a device with traffic disagrees", run(audit([dev(A, "unknown")]), io=IO), False)
case("unknown: a device without traffic is not asserted", run(audit([dev(A, "unknown")])), True)
case("a missing export fails", run(audit([]), skip=("trace",)), False)
W = (MARK % "start" + event(A, 0x13ef22000) + event(A, 0x1bffff000) + MARK % "stop"
     + event(A, 0x1bfffe000) + MARK % "end")
case("observe: the window's count agrees with the trace between the markers",
     run(audit([dev(A, "partial")]), event(A, 0x140000000) + W, io=IO), True)
case("observe: an event after the stop marker may be counted too",
     run(audit([dev(A, "partial")]), W, io=IO, obs=observed(audit([dev(A, "partial")]), W,
                                                            counts={A: 3})), True)
case("observe: a count that differs disagrees",
     run(audit([dev(A, "partial")]), W, io=IO, obs=observed(audit([dev(A, "partial")]), W,
                                                            counts={A: 1})), False)
case("observe: a contradicted prediction fails",
     run(audit([dev(A, "partial")]), W, io=IO,
         obs=observed(audit([dev(A, "partial")]), W, prediction="contradicted")), False)
case("observe: a partial device with bounces must be consistent",
     run(audit([dev(A, "partial")]), W, io=IO,
         obs=observed(audit([dev(A, "partial")]), W, prediction="unjudged")), False)
case("observe: a failed run fails", run(audit([]), obs_err="status=2\n"), False)

def probe_log(disk, verdict, status=0, err="", bounces=0, obytes=0, ops=100, pbytes=8 << 20,
              above=None, prediction="consistent", why="x", engine_bytes=None):
    """probe.log of one disk whose DMA device A has verdict, as guest-init writes it;
    engine_bytes: a DMA engine beside it that bounced that much."""
    devs = [dev(A, verdict)] + ([dev("3f007000.dma", "partial")] if engine_bytes is not None else [])
    rep = dict(audit(devs), block=[{"disk": disk, "dma_device": A}])
    rep["devices"][0]["observed"] = {"bounces": bounces, "bytes": obytes, "io_operations": ops,
                                     "prediction": prediction, "why": why}
    if engine_bytes is not None:
        rep["devices"][1]["dma_signs"] = ["dma-engine"]
        rep["devices"][1]["observed"] = {"bounces": 34, "bytes": engine_bytes, "io_operations": None,
                                         "prediction": "consistent", "why": "x"}
    rep["observation"] = {"probe": {"disk": disk, "bytes": pbytes, "reach_end": "0xffffffff",
                                    "above_reach_bytes": pbytes if above is None else above}}
    body = "" if status == 2 else json.dumps(rep, indent=1) + "\n"
    return "==dmt-probe %s==\n%s==dmt-probe-status %d %s==\n" % (disk, body, status, err)


def pcase(what, log, expect_ok):
    """The probe's checks alone (the made-up guest's other records are not the point)."""
    res = run(audit([]), probe=log)
    probe = [c for c in res["checks"] if "observe-probe" in c["what"]]
    check_ok = bool(probe) and all(c["ok"] for c in probe)
    case(what, dict(res, checks=probe if check_ok or not expect_ok else
                    probe + [dict(ok=False, what="no probe check", diag=None)]), expect_ok)


pcase("probe: partial, 8 MiB above its reach bounced: agrees",
      probe_log("sda", "partial", bounces=2048, obytes=8 << 20), True)
pcase("probe: partial, nothing bounced: disagrees",
      probe_log("sda", "partial", prediction="no-bounce"), False)
pcase("probe: partial, read below its reach: disagrees",
      probe_log("sda", "partial", bounces=2048, obytes=8 << 20, above=0), False)
pcase("probe: partial, read nothing: disagrees",
      probe_log("sda", "partial", pbytes=0, above=0), False)
pcase("probe: direct, data moved, no bounce: agrees",
      probe_log("vda", "direct", prediction="no-bounce"), True)
pcase("probe: direct, a bounce: disagrees",
      probe_log("vda", "direct", bounces=1, obytes=4096, prediction="contradicted"), False)
pcase("probe: two disks, the second's bounce disagrees (each section judged)",
      probe_log("vda", "direct", prediction="no-bounce") +
      probe_log("vdb", "direct", bounces=1, obytes=4096, prediction="contradicted"), False)
# bcm2835-sdhost maps its data on bcm2835-dma's device (arm64-raspi3b-window)
pcase("probe: partial, bounced through its DMA engine: agrees",
      probe_log("mmcblk0", "partial", prediction="no-bounce", engine_bytes=8388224), True)
pcase("probe: partial, its DMA engine bounced too little: disagrees",
      probe_log("mmcblk0", "partial", prediction="no-bounce", engine_bytes=4096), False)
# arm64 6.5+: a non-coherent dwc2's small kmalloc buffers bounce in reach (arm64-raspi3b-trixie)
pcase("probe: direct, only small kmalloc buffers bounced, as the tool says: agrees",
      probe_log("sda", "direct", bounces=1294, obytes=20704,
                why="only small unaligned kmalloc buffers bounced (arm64 6.5+, riscv 6.6+)"), True)
pcase("probe: direct, 'kmalloc' bounces as large as the read: disagrees",
      probe_log("sda", "direct", bounces=2048, obytes=8 << 20,
                why="only small unaligned kmalloc buffers bounced (arm64 6.5+, riscv 6.6+)"), False)
pcase("probe: fails, refused: agrees",
      probe_log("sda", "fails", status=2,
                err="dmamask-audit: --observe-probe sda: its device's verdict is fails: ..."), True)
pcase("probe: refused for another reason: disagrees",
      probe_log("sda", "fails", status=2, err="dmamask-audit: --observe: needs root"), False)

def quiet(prediction, ops):
    """A device that bounced nothing in the window, its traffic counted as ops (None: not)."""
    o = observed(audit([dev(A, "direct")]), "", prediction=prediction)
    o["devices"][0]["observed"]["io_operations"] = ops
    return run(audit([dev(A, "direct")]), "", io=IO, obs=o)


case("observe: no bounce, 650 I/Os counted: no-bounce", quiet("no-bounce", 650), True)
case("observe: no bounce, 650 I/Os counted, said cannot-tell, disagrees", quiet("cannot-tell", 650), False)
case("observe: no bounce, 650 I/Os counted, said no-traffic, disagrees", quiet("no-traffic", 650), False)
case("observe: no bounce, none counted: no-traffic", quiet("no-traffic", 0), True)
case("observe: no bounce, nothing to count by: cannot-tell", quiet("cannot-tell", None), True)
case("observe: no bounce, nothing to count by, said no-bounce, disagrees", quiet("no-bounce", None), False)

case("observe: a 5 s window that did not finish fails",
     run(audit([]), five="dmamask-audit: --observe: needs root\nstatus=2\n"), False)
case("observe: an instance left by SIGKILL and not removed fails",
     run(audit([]), killed="left: 1\nstatus=0\nafter: 1\n"), False)
case("an architecture the tool did not read fails",
     run(dict(audit([]), host={"arch": None, "arch_source": None})), False)
case("another architecture than the guest's fails",
     run(audit([]), m={"name": "t", "arch": "i386"}), False)
case("an i386 guest's i686 (uname(2) before kernel.arch) agrees",
     run(dict(audit([]), host={"arch": "i686", "arch_source": "uname(2)"}), m={"name": "t", "arch": "i386"}),
     True)
BULLSEYE = ("[    0.000000] Linux version 5.10.0-32-amd64 (debian-kernel@lists.debian.org) (gcc-10 "
            "(Debian 10.2.1-6) 10.2.1 20210110, GNU ld (GNU Binutils for Debian) 2.35.2) #1 SMP "
            "Debian 5.10.223-1 (2024-08-10)\n")
case("5.10.0-32-amd64 read as its stable release 5.10.223 agrees",
     run(dict(audit([]), kernel={"stable_release": "5.10.223"}), dmesg=BULLSEYE + BOOT + POOL), True)
case("5.10.0-32-amd64 read without its stable release fails",
     run(dict(audit([]), kernel={"stable_release": None}), dmesg=BULLSEYE + BOOT + POOL), False)
case("gcc's Debian 10.2.1 taken for the stable release fails",
     run(dict(audit([]), kernel={"stable_release": "10.2.1"}), dmesg=BULLSEYE + BOOT + POOL), False)
TRIXIE = ("[    0.000000] Linux version 6.12.117+deb13-amd64 (debian-kernel@lists.debian.org) (gcc) "
          "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1 (2026-11-12)\n")
case("6.12.117+deb13 names its release itself: no stable release read agrees",
     run(dict(audit([]), kernel={"stable_release": None}), dmesg=TRIXIE + BOOT + POOL), True)
ARM = {"arch": "armv7l", "arch_source": "uname(2)"}
case("armmp read as not LPAE agrees",
     run(dict(audit([]), host=ARM, kernel={"arm_lpae": False}), m={"name": "t", "arch": "armhf", "flavour": "armmp"}),
     True)
case("armmp read as LPAE fails",
     run(dict(audit([]), host=ARM, kernel={"arm_lpae": True}), m={"name": "t", "arch": "armhf", "flavour": "armmp"}),
     False)
case("armmp-lpae (the default flavour) with LPAE unknown fails",
     run(dict(audit([]), host=ARM, kernel={"arm_lpae": None}), m={"name": "t", "arch": "armhf"}), False)
case("fewer disks than the machine has fail", run(audit([]), m={"name": "t", "disks": 2}), False)
case("a disk without its four transfers fails",
     run(audit([dev(A, "partial")]), io="\n".join(IO.splitlines()[:3]) + "\n"), False)
case("a log that lost its boot lines fails", run(audit([]), dmesg="[ 6.79] ata1: EH complete\n"),
     False)
W = {"name": "w", "dma_ranges": (0x1000, 0x10000000)}
w = dev(A, "partial")
w.update(bus="pci", bus_limit="0x10000fff")
w["models"]["dma_direct"]["uncovered_ram_bytes"] = 0x9e000 + 0xc0000000 - (0x9e000)
case("window: uncovered RAM and bus limit as the suite wrote them agree",
     run(audit([w]), event(A, (1 << 64) - 1), io=IO, m=W), True)
w["kernel_model"] = "legacy-block"
w["models"]["legacy_block"] = {"known": True, "missed_bytes": 0xc0000000}
case("window: a legacy-block device is held to dma-direct's window figures below it",
     run(audit([w], era="pfn-arithmetic"), event(A, (1 << 64) - 1), io=IO, m=W), True)
w["kernel_model"] = "dma-direct"
del w["models"]["legacy_block"]
w["models"]["dma_direct"]["uncovered_ram_bytes"] = 0
case("window: no uncovered RAM disagrees", run(audit([w]), event(A, (1 << 64) - 1), io=IO, m=W),
     False)
a = audit([])
a["memory"]["end_pfn"] = 0x1bffff
case("end PFN off by one page disagrees", run(a), False)
a = audit([])
a["memory"]["ram_ranges"][1]["end"] = "0x1bfffefff"
case("RAM ranges a page short of the kernel's disagree", run(a), False)
a = audit([])
a["memory"]["ram_ranges"][0]["end"] = "0x9fbff"
case("a byte-exact end inside the last page agrees", run(a), True)
a = audit([])
a["memory"]["zones"] = [{"name": "DMA32", "node": 0, "start_pfn": 0x1000, "spanned": 0xff000}]
case("a zone as the kernel's Zone ranges line says agrees", run(a), True)
a["memory"]["zones"][0]["spanned"] = 0xfe000
case("a zone that ends elsewhere disagrees", run(a), False)
a = audit([])
a["memory"]["base_pfn"] = 0
case("base PFN disagrees with the first RAM page", run(a), False)


def row(res, id_=A):
    return [r for r in res["table"] if r[0] == id_][0]


# Vacuous passes refused (issue 28): a verdict that predicts something needs traffic
# that shows it, and what is out of reach is the judge's own reckoning.
case("partial: traffic and not one bounce disagrees", run(audit([dev(A, "partial")]), io=IO), False)
case("partial: no traffic and no bounce disagrees (nothing shows the prediction)",
     run(audit([dev(A, "partial")])), False)
case("partial: the tool's out-of-reach claim (all RAM) against the boot map disagrees",
     run(audit([dev(A, "partial", unreachable=0xc009e000)]), event(A, 0x13ef22000), io=IO), False)
case("partial: a bounce within the kernel's mask, though the tool calls it out of reach, disagrees",
     run(audit([dev(A, "partial", lowest="0x1000")]), event(A, 0x7000000) + event(A, 0x13ef22000),
         io=IO), False)
case("partial: a bounce whose mask is not the one the audit read disagrees",
     run(audit([dev(A, "partial", mask="0xffffffffff")]), event(A, 0x13ef22000), io=IO), False)
WM = {"name": "w", "dma_ranges": (0x1000, 0x10000000)}


def wdev(verdict, mask="0xffffffff", out=0xc0000000, limit="0x10000fff"):
    w = dev(A, verdict, uncovered=out, unreachable=out, mask=mask)
    w["bus_limit"] = limit
    return w


case("partial: all ones where the window leaves RAM uncovered agrees",
     run(audit([wdev("partial")]), event(A, (1 << 64) - 1), io=IO, m=WM), True)
case("forced: no traffic and no bounce disagrees (was passed vacuously)",
     run(audit([dev(A, "forced")])), False)
# 7.2 (riscv64-virt-window-sid): a pool outside the window fails every mapping
# with "buffer is full" and room left, and no "swiotlb addr ... overflow" line
ROOM = ("[ 8.1] sym53c8xx %s: swiotlb buffer is full (sz: 36 bytes), total 32768 (slots), "
        "used 0 (slots)\n" % A)
case("fails: 'full' with room left, the pool outside the window, agrees (7.2's out of reach)",
     run(audit([wdev("fails")]), event(A, (1 << 64) - 1), io=IO, m=WM,
         dmesg=BOOT + POOL + ROOM), True)
case("fails: 'full' with no room left is pressure, not reach, though the pool is outside",
     run(audit([wdev("fails")]), event(A, (1 << 64) - 1), io=IO, m=WM,
         dmesg=BOOT + POOL + ROOM.replace("used 0", "used 32768")), False)
case("fails: 'full' with room left and the pool inside the window disagrees",
     run(audit([wdev("fails", limit="0xc0000fff")]), event(A, (1 << 64) - 1), io=IO,
         m={"name": "w", "dma_ranges": (0x1000, 0xc0000000)}, dmesg=BOOT + POOL + ROOM), False)
case("fails: no traffic and no failure disagrees (was passed vacuously)",
     run(audit([dev(A, "fails")], active=False), dmesg=BOOT), False)
case("fails: a logged failure with an out-of-reach claim the boot map denies disagrees",
     run(audit([dev(A, "fails", unreachable=0)], active=False), io=IO,
         dmesg=BOOT + "[ 5.0] I/O error, dev sda, sector 0 op 0x0:(READ)\n"), False)

# bounce-missed: the kernel hands out addresses past the window unchecked
MISSED = [{"id": "bounce-missed", "device": A}]


def missed(verdict="fails", **kw):
    return audit([wdev(verdict, **kw)], active=False, findings=MISSED)


case("bounce-missed: traffic, no bounce, no failure, RAM outside the window agree",
     run(missed(), io=IO, m=WM, dmesg=BOOT), True)
case("bounce-missed: a bounce disagrees",
     run(missed(), event(A, 0x13ef22000), io=IO, m=WM, dmesg=BOOT), False)
case("bounce-missed: a logged I/O error disagrees",
     run(missed(), io=IO, m=WM, dmesg=BOOT + "[ 5.0] I/O error, dev sda, sector 0\n"), False)
case("bounce-missed: a failed transfer disagrees",
     run(missed(), io=IO.replace("write buffered rc=0", "write buffered rc=1"), m=WM,
         dmesg=BOOT), False)
case("bounce-missed: no traffic disagrees", run(missed(), m=WM, dmesg=BOOT), False)
case("bounce-missed: a window that holds all RAM disagrees (nothing is out of reach)",
     run(missed(mask="0xffffffffffffffff", out=0, limit="0x1c0000fff"), io=IO,
         m={"name": "w", "dma_ranges": (0x1000, 0x1c0000000)}, dmesg=BOOT), False)
case("bounce-missed: the tool's out-of-reach claim is not the window's",
     run(audit([dict(wdev("fails"), models={"dma_direct": {
         "unreachable_ram_bytes": 0x1000, "uncovered_ram_bytes": 0xc0000000}})],
         active=False, findings=MISSED), io=IO, m=WM, dmesg=BOOT), False)

# unexercised: reported, not asserted, unless the machine drives the device
res = run(audit([dev(A, "direct")]))
case("direct without traffic agrees, counted unexercised",
     res if res["unexercised"] == [A] and row(res)[-1].startswith("unexercised") else
     {"checks": [dict(ok=False, what="unexercised: %s %s" % (res["unexercised"], row(res)))]}, True)
# ...and not one passing check names it: a check that cannot fail is no evidence
def of_verdict(res, v):
    """The checks that speak for device A's verdict v (--observe's count is its own)."""
    return [dict(ok=False, what=c["what"]) for c in res["checks"]
            if "%s is %s" % (A, v) in c["what"] or "%s (%s)" % (A, v) in c["what"]]
for v in ("direct", "iommu", "idle"):
    r = run(audit([dev(A, v)]))
    case("%s without traffic: unexercised, and no check passes for its verdict" % v,
         {"checks": of_verdict(r, v)
          + ([] if r["unexercised"] == [A] else [dict(ok=False, what="not unexercised")])}, True)
case("--observe judging a device the trace shows no bounce of disagrees",
     run(audit([dev(A, "direct")]), obs=observed(audit([dev(A, "direct")]), "", "consistent")), False)
res = run(audit([dev(A, "direct", unreachable=0)]), io=IO)
case("direct with traffic is not unexercised",
     res if not res["unexercised"] and row(res)[-1].startswith("agrees") else
     {"checks": [dict(ok=False, what="unexercised: %s %s" % (res["unexercised"], row(res)))]}, True)
case("direct without traffic on a machine that drives its driver disagrees",
     run(audit([dev(A, "direct")]), m={"name": "t", "driven": ["drv"]}), False)

# the block layer's own bouncing (pre-5.13: block_bio_bounce per MAJ:MIN)
def bev(majmin="8,0"):
    return "dd-1 [000] .... 1.0: block_bio_bounce: %s R 1234 + 8 [dd]\n" % majmin


def lb(bounce_bytes, known=True, early=False):
    if not known:
        return {"known": False, "why_not": "architecture unknown: BITS_PER_LONG unknown"}
    one = {"bounce_pfn": 0xfffff, "bounce_bytes": bounce_bytes, "early_return": early}
    return {"known": True, "why_not": None, "kernel_reading": "pfn", "as_pfn": one,
            "as_count": dict(one, bounce_bytes=0)}


def blk(verdict, bounce_bytes, known=True, early=False, era="pfn-arithmetic", dma=A, **kw):
    d = dev(A, verdict, **kw)
    d["kernel_model"] = "legacy-block"
    d["models"]["legacy_block"] = lb(bounce_bytes, known, early)
    return audit([d], era=era, block=[{"disk": "sda", "dma_device": dma,
                                       "legacy_block": lb(bounce_bytes, known, early)}])


DURING = MARK % "start" + bev() + bev() + MARK % "stop" + MARK % "end"
res = run(blk("partial", 0xc0000000), DURING, io=IO)
case("block: bounces predicted and seen during the traffic agree (2 in the table)",
     res if row(res)[6] == 2 else {"checks": [dict(ok=False, what="row %s" % (row(res),))]}, True)
case("block: bounces predicted and none seen disagree",
     run(blk("partial", 0xc0000000), MARK % "start" + MARK % "stop" + MARK % "end", io=IO), False)
case("block: bounces predicted and seen only before the traffic disagree",
     run(blk("partial", 0xc0000000), bev() + MARK % "start" + MARK % "stop" + MARK % "end",
         io=IO), False)
case("block: none predicted (early return) and one seen disagrees",
     run(blk("partial", 0xc0000000, early=True), DURING + event(A, 0x13ef22000), io=IO), False)
case("block: none predicted (no bounce bytes), none seen agree",
     run(blk("direct", 0, unreachable=0), io=IO), True)
case("block: a 5.13+ kernel (highmem only, never runs) that bounces disagrees",
     run(blk("partial", 0xc0000000, era="highmem-only-never-runs"), DURING + event(A, 0x13ef22000),
         io=IO), False)
case("block: a direct device whose disk bounced disagrees, whatever the model",
     run(blk("direct", 0, known=False, unreachable=0), DURING, io=IO), False)
res = run(blk("partial", 0xc0000000, known=False), DURING + event(A, 0x13ef22000), io=IO)
case("block: no model (unknown) is not asserted, its figure reported",
     res if row(res)[6] == 2 else {"checks": [dict(ok=False, what="row %s" % (row(res),))]}, True)
a = blk("partial", 0xc0000000)
for x in (a["block"][0]["legacy_block"], a["devices"][0]["models"]["legacy_block"]):
    x["kernel_reading"] = "count"
case("block: the kernel's reading decides (as a count: none) and a bounce disagrees",
     run(a, DURING + event(A, 0x13ef22000), io=IO), False)
a = blk("partial", 0xc0000000)
a["block"][0]["disk"] = "sdz"
case("block: a disk the tool's block[] does not report disagrees", run(a, DURING, io=IO), False)
case("block: a bounce of a MAJ:MIN the guest did not list disagrees",
     run(blk("partial", 0xc0000000), DURING + bev("8,16"), io=IO), False)
case("block: a disk without its dmt-diskdev line disagrees",
     run(blk("partial", 0xc0000000), DURING, io=IO.replace("dmt-diskdev sda 8:0\n", "")), False)
case("block: block[] naming another DMA device than the disk lies under disagrees",
     run(blk("partial", 0xc0000000, dma="0000:00:09.0"), DURING, io=IO), False)

# the audit as user nobody
P = audit([dev(A, "partial")])
TR = event(A, 0x13ef22000)


def as_user(verdict=None, lost=False, devices=None, **kw):
    u = json.loads(json.dumps(P))
    if verdict:
        u["devices"][0]["verdict"] = verdict
    if lost:
        u["inputs"][1] = {"path": "dev/kmsg", "status": "denied", "errno": "EPERM",
                          "detail": "dmesg_restrict"}
    if devices is not None:
        u["devices"] = devices
    u.update(kw)
    return u


case("user: root's verdicts agree", run(P, TR, io=IO, user=as_user()), True)
case("user: no user.json fails", run(P, TR, io=IO, skip=("user.json",)), False)
case("user: user.json that is not JSON fails", run(P, TR, io=IO, user="{\"devices\": ["), False)
case("user: killed by a signal fails",
     run(P, TR, io=IO, user_err="Segmentation fault (core dumped)\nstatus=139\n"), False)
case("user: a sanitizer's report fails, whatever the status",
     run(P, TR, io=IO, user_err="==61==ERROR: AddressSanitizer: heap-buffer-overflow\nstatus=1\n"),
     False)
case("user: exit status 2 fails", run(P, TR, io=IO, user_err="status=2\n"), False)
case("user: an exit status the JSON does not say fails",
     run(P, TR, io=IO, user=as_user(exit_status=0)), False)
case("user: another verdict than root's disagrees",
     run(P, TR, io=IO, user=as_user("direct", lost=True)), False)
case("user: unknown where root read an input it could not agrees",
     run(P, TR, io=IO, user=as_user("unknown", lost=True)), True)
case("user: unknown with every input root had disagrees",
     run(P, TR, io=IO, user=as_user("unknown")), False)
case("user: a device root reports and nobody does not disagrees",
     run(P, TR, io=IO, user=as_user(devices=[])), False)


# What run.py --save-fixtures writes after the verdicts (judge.finding_checks, issue 28):
# the findings the kernel's evidence supports, and unpinned verdicts said so.
def fsel(what, id_=A, anywhere=False):
    sel = ('.device == null or .device == "%s"' % id_) if anywhere else '.device == "%s"' % id_
    return '[.findings[] | select(.id == "%s" and (%s))] | length == 1' % (what, sel)


def fcase(what, res, want=(), unwanted=(), m=None, log=""):
    global n, bad
    n += 1
    lines = judge.finding_checks(m or {"name": "test"}, res, log)
    jq = [x for x in lines if not x.startswith("#")]
    # each check after the comment that says why
    why = all(i > 0 and lines[i - 1].startswith("# ") and not lines[i - 1].startswith("# unpinned:")
              for i, x in enumerate(lines) if not x.startswith("#"))
    good = not failed(res) and why and all(w in lines for w in want) and \
        not [u for u in unwanted if any(u in x for x in jq)]
    bad += not good
    print("%s %d - finding checks: %s" % ("ok" if good else "not ok", n, what))
    if not good:
        print("# failed checks: %s\n# lines: %s" % (failed(res), lines))


OVERFLOW = "ata_piix %s: DMA addr 0x0000000103387000+4096 overflow (mask ffffffff, bus limit 0)." % A
fcase("a device that bounced: bounce-needed",
      run(P, TR + event(A, 0x1bffff000), io=IO), [fsel("bounce-needed")], ["forced-bounce"])
fcase("every bounce forced: forced-bounce, the machine's or the device's",
      run(audit([dev(A, "forced")]), event(A, 0x1000, True) + event(A, 0x2000, True), io=IO),
      [fsel("forced-bounce", anywhere=True)], ["bounce-needed"])
fcase("mapping failures: bounce-impossible; the snapshot's overflow: dma-overflow-logged",
      run(audit([dev(A, "fails")], active=False), io=IO, dmesg=BOOT + "[    5.0] " + OVERFLOW + "\n"),
      [fsel("bounce-impossible"), fsel("dma-overflow-logged")], ["bounce-missed"],
      log="4,375,7105505,-;" + OVERFLOW + "\n")
NO_POOL = ('[.findings[] | select(.id == "no-bounce-pool" and .device == null)] | length == 1 and '
           '.[0].evidence.ram_above_bytes == %d' % 0xc0000000)
fcase("no pool in the boot log, 3 GiB above 4 GiB, mapping failures: no-bounce-pool",
      run(audit([dev(A, "fails")], active=False), io=IO, dmesg=BOOT + "[    5.0] " + OVERFLOW + "\n"),
      [NO_POOL])
fcase("a pool in the boot log: no no-bounce-pool",
      run(P, TR + event(A, 0x1bffff000), io=IO), [], ["no-bounce-pool"])
fcase("no pool, but no mapping failed: no-bounce-pool not pinned",
      run(audit([dev(A, "direct", unreachable=0, lowest=None)], active=False), io=IO, dmesg=BOOT),
      [], ["no-bounce-pool"])
fcase("an overflow logged after the snapshot: no dma-overflow-logged",
      run(audit([dev(A, "fails")], active=False), io=IO, dmesg=BOOT + "[    5.0] " + OVERFLOW + "\n"),
      [fsel("bounce-impossible")], ["dma-overflow-logged"])
fcase("traffic, no bounce, RAM past the window: bounce-missed and mask-limited-by-bus",
      run(missed(), io=IO, m=WM, dmesg=BOOT), [fsel("bounce-missed"), fsel("mask-limited-by-bus")],
      ["bounce-impossible"], m=WM)
fcase("a pool out of reach logged: swiotlb-out-of-reach; mapped past the window: no-bounce-pool",
      run(audit([wdev("fails")]), event(A, (1 << 64) - 1),
          io=IO, m=WM, dmesg=BOOT + POOL + "[    5.0] sym53c8xx %s: swiotlb addr "
          "0xffffffffffffffff+36 overflow (mask ffffffff, bus limit 10000fff).\n" % A),
      [fsel("swiotlb-out-of-reach"), fsel("bounce-impossible"),
       '[.findings[] | select(.id == "no-bounce-pool" and .device == null)] | length == 1 and '
       '.[0].evidence.pool_start == "0xbb936000"'], m=WM)
NOPRESSURE = '[.findings[] | select(.id == "swiotlb-pressure")] | length == 0'
fcase("'full' with the pool unused (7.2, pool outside the window): swiotlb-no-slot, no pressure",
      run(audit([wdev("fails")]), event(A, (1 << 64) - 1), io=IO, m=WM,
          dmesg=BOOT + POOL + ROOM), [fsel("swiotlb-no-slot"), NOPRESSURE], m=WM)
fcase("'full' with the pool more than half used: neither pinned",
      run(audit([wdev("fails")]), event(A, (1 << 64) - 1), io=IO, m=WM,
          dmesg=BOOT + POOL + ROOM.replace("used 0", "used 16385")),
      [fsel("bounce-impossible")], ["swiotlb-no-slot", "swiotlb-pressure"], m=WM)
fcase("a mask within the window: no mask-limited-by-bus",
      run(audit([wdev("direct", mask="0xfffffff")]), io=IO, m=WM), [],
      ["mask-limited-by-bus", "bounce-needed"], m=WM)
fcase("direct with traffic: no finding, no unpinned line",
      run(audit([dev(A, "direct", unreachable=0, lowest=None)], active=False), io=IO, dmesg=BOOT),
      [], ["findings", "unpinned"])
fcase("unexercised: the verdict said unpinned, no finding",
      run(audit([dev(A, "direct", unreachable=0, lowest=None)], active=False), dmesg=BOOT),
      ['# unpinned: "%s" .verdict (direct): the kernel showed no traffic of it, the judge '
       "asserts nothing" % A], ["findings"])

# arm64 6.5+ bounces small unaligned kmalloc buffers of a device that is not
# dma-coherent, in reach (dma_kmalloc_needs_bounce): a direct verdict stands
# only for those, read from the guest's own devicetree (dt-coherent)
P = "3f980000.usb"
PSYS = "/sys/devices/platform/soc/" + P
DT = "node %s /soc/usb@7e980000\n" % PSYS


def pdev(verdict, mask="0xffffffff"):
    return {"id": P, "verdict": verdict, "driver": "dwc2", "reason": "r", "bus": "platform",
            "syspath": PSYS[1:], "kernel_model": "dma-direct", "dma_mask": mask,
            "models": {"dma_direct": {"lowest_unreachable": None, "unreachable_ram_bytes": 0,
                                      "uncovered_ram_bytes": 0}}}


def small(size, addr=0xc5b48000):
    return event(P, addr).replace("size=4096", "size=%d" % size)


def kcase(what, sizes, expect_ok, release="6.12.117+deb13-arm64", dt=DT, verdict="direct",
          mask="0xffffffff"):
    a = audit([pdev(verdict, mask)], active=True)
    a["host"]["arch"] = "aarch64"
    more = () if dt is None else (("dt-coherent", dt),)
    case(what, run(a, "".join(small(z) for z in sizes), m={"name": "test", "arch": "arm64"},
                   dmesg=BOOT.replace("6.1.0-57-amd64", release) + POOL, more=more), expect_ok)


KSIZES = (2, 16, 25, 32, 67, 96)  # kmalloc-8, -16, -32, -96: not a multiple of 64
kcase("arm64 6.12: small unaligned kmalloc bounces of a non-coherent direct device agree",
      KSIZES, True)
kcase("arm64 6.12: the same device dma-coherent (its parent's node) disagrees", KSIZES, False,
      dt=DT + "coherent /soc\n")
kcase("arm64 6.1: small bounces of a direct device disagree (no kmalloc bouncing)", KSIZES, False,
      release="6.1.0-50-arm64")
kcase("arm64 6.12: a 64-byte bounce (kmalloc-64, cache-aligned) disagrees", (16, 64), False)
kcase("arm64 6.12: a 200-byte bounce (kmalloc-256) disagrees", (200,), False)
kcase("arm64 6.12: no dt-coherent record: coherence unknown, a bounce disagrees", KSIZES, False,
      dt=None)
kcase("arm64 6.12: an idle device's small bounces disagree", KSIZES, False, verdict="idle")
kcase("arm64 6.12: excused bounces still carry the kernel's mask: another than the audit's"
      " disagrees", KSIZES, False, mask="0xfffffff")

# a bounce's dev_addr is a bus address: through the dma-ranges the tool read
# (the raspi's /soc: bus 0xc0000000 = CPU 0) it must land in the kernel's RAM
RPI_BOOT = """[    0.000000] Linux version 6.12.117+deb13-arm64 (debian-kernel@lists.debian.org)
[    0.000000]   DMA      [mem 0x0000000000000000-0x000000003bffffff]
[    0.000000]   node   0: [mem 0x0000000000000000-0x000000003bffffff]
"""
RPI_POOL = "[    0.000000] software IO TLB: mapped [mem 0x0000000034680000-0x0000000034780000] (1MB)\n"


def rcase(what, addrs, expect_ok, cpu="0x0", dma="0xc0000000", size=0x3f000000, only=False):
    d = pdev("direct")
    d["dma_ranges"] = {"state": "ranges", "node": "soc",
                       "regions": [{"cpu_start": cpu, "dma_start": dma, "size": size}]}
    a = audit([d], active=True, start="0x34680000", end="0x3477ffff", size=1 << 20)
    a["host"]["arch"] = "aarch64"
    a["memory"] = {"source": "iomem", "page_size": 4096, "base_pfn": 0, "end_pfn": 0x3c000,
                   "ram_ranges": [{"start": "0x0", "end": "0x3bffffff"}]}
    res = run(a, "".join(small(16, x) for x in addrs), m={"name": "test", "arch": "arm64"},
              dmesg=RPI_BOOT + RPI_POOL, more=(("dt-coherent", DT),))
    if only:  # the translation check alone (and it must be there)
        mine = [c for c in res["checks"] if "bounced bus addresses" in c["what"]]
        res = dict(res, checks=mine or [dict(ok=False, what="no translation check")])
    case(what, res, expect_ok)


rcase("bus 0xc0000000 = CPU 0: bounced bus addresses in RAM through the offset agree",
      (0xc5b48000, 0xfbfff000), True)
rcase("the tool's identity reading (bus 0 = CPU 0) leaves 0xc5b48000 nowhere: disagrees",
      (0xc5b48000,), False, dma="0x0")
rcase("bus 0xfc000000 translates to CPU 0x3c000000, past the kernel's RAM: disagrees",
      (0xfc000000,), False)
rcase("outside the tool's dma-ranges with uncovered RAM (a 512 MiB window): explained",
      (0xfffffffff000,), True, size=0x20000000, only=True)
rcase("outside the tool's dma-ranges with all RAM covered: disagrees",
      (0xfffffffff000,), False, only=True)

# /soc's window cut to 512 MiB at bus 0xc0000000 (arm64-raspi3b-window): the
# RAM above CPU 0x20000000 is uncovered, the reach ends at bus 0xdfffffff
SOCW = {"name": "test", "arch": "arm64", "soc_dma_ranges": (0xc0000000, 0x0, 0x20000000)}
OUT = 0x3c000000 - 0x20000000


def wcase(what, expect_ok, uncovered=OUT, unreachable=OUT, limit="0xdfffffff",
          addrs=((1 << 64) - 1,)):
    d = pdev("partial")
    d["bus_limit"] = limit
    d["dma_ranges"] = {"state": "ranges", "node": "soc",
                       "regions": [{"cpu_start": "0x0", "dma_start": "0xc0000000",
                                    "size": 0x20000000}]}
    d["models"]["dma_direct"].update(uncovered_ram_bytes=uncovered,
                                     unreachable_ram_bytes=unreachable,
                                     lowest_unreachable="0x20000000")
    a = audit([d], active=True, start="0x1bfff000", end="0x1fffefff", size=64 << 20)
    a["host"]["arch"] = "aarch64"
    a["memory"] = {"source": "iomem", "page_size": 4096, "base_pfn": 0, "end_pfn": 0x3c000,
                   "ram_ranges": [{"start": "0x0", "end": "0x3bffffff"}]}
    boot = RPI_BOOT.replace("6.12.117+deb13", "6.1.0-50")
    pool = "[    0.000000] software IO TLB: mapped [mem 0x000000001bfff000-0x000000001ffff000] (64MB)\n"
    case(what, run(a, "".join(event(P, x) for x in addrs), m=SOCW, dmesg=boot + pool,
                   more=(("dt-coherent", DT),)), expect_ok)


wcase("a /soc window at bus 0xc0000000: 448 MiB uncovered, limit 0xdfffffff, all-ones bounces agree",
      True)
wcase("the same read as one pfn offset for all RAM (before 5.10: nothing uncovered) disagrees",
      False, uncovered=0)
wcase("the window's limit taken as a CPU address (0x1fffffff) disagrees", False, limit="0x1fffffff")
wcase("a bounce at bus 0xc0001000 (CPU 0x1000, in reach) disagrees", False, addrs=(0xc0001000,))
print("1..%d" % n)
sys.exit(1 if bad else 0)
