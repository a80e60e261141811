#!/usr/bin/env python3
"""The real-kernel suite: boot Debian's kernels under QEMU, run dmamask-audit
in the guest, drive DMA through its devices and judge every verdict against
the bounces and failures the kernel itself recorded. TAP on stdout.

  run.py [--tool ARCH=PATH]... [--out DIR] [--jobs N] [--log FILE]
         [--save-fixtures DIR] [NAME...]

A tool not given for an architecture is built with tools/cross --build-only ARCH.
DMAMASK_KERNELS_KVM=1 uses KVM for amd64 guests (it hangs on some hosts).
"""
import argparse
import base64
import concurrent.futures
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import judge  # noqa: E402
import kernels  # noqa: E402
import whatif  # noqa: E402
from machines import MACHINES, OPTIONAL, STALLED, WHAT_IF_PAIRS  # noqa: E402

SRCDIR = os.path.dirname(os.path.dirname(HERE))
BOOT_TIMEOUT = int(os.environ.get("DMAMASK_KERNELS_TIMEOUT", "300"))
DISK_BYTES = 64 << 20


class Tap:
    """TAP on stdout, and the same lines in a log file when asked."""

    def __init__(self, log=None):
        self.n = 0
        self.failed = 0
        self.log = open(log, "w") if log else None

    def out(self, line):
        print(line)
        sys.stdout.flush()
        if self.log:
            self.log.write(line + "\n")
            self.log.flush()

    def ok(self, cond, what, diag=None):
        self.n += 1
        if not cond:
            self.failed += 1
        self.out("%s %d - %s" % ("ok" if cond else "not ok", self.n, what))
        if diag and not cond:
            for line in str(diag).splitlines():
                self.out("# " + line)

    def note(self, text):
        for line in text.splitlines():
            self.out("# " + line)


def qemu_base(m, kernel, initrd, work):
    a = kernels.ARCHES[m["arch"]]
    kvm = m["arch"] == "amd64" and os.environ.get("DMAMASK_KERNELS_KVM") == "1"
    # a board (raspi3b) fixes its CPU count and core: the machine says so
    cmd = [a["qemu"], "-machine", m["machine"], "-m", m["mem"], "-smp", str(m.get("smp", 1)),
           "-accel", "kvm" if kvm else "tcg", "-cpu", "host" if kvm else m.get("cpu", a["cpu"]),
           "-display", "none", "-monitor", "none", "-no-reboot", "-nodefaults",
           "-kernel", kernel.vmlinuz, "-initrd", initrd] + a.get("qemu_extra", [])
    devices = []
    for d in m["devices"]:
        def disk(mo):
            p = os.path.join(work, "disk%s.img" % mo.group(1))
            with open(p, "wb") as f:
                f.truncate(DISK_BYTES)
            return p
        devices.append(re.sub(r"DISK\((\d+)\)", disk, d))
    return cmd + devices


def edit_dtb(m, base, work):
    """QEMU's own devicetree for this machine, with an identity dma-ranges
    window (start, size) in the PCIe host bridge node."""
    raw = os.path.join(work, "virt.dtb")
    subprocess.run([x if x != m["machine"] else m["machine"] + ",dumpdtb=" + raw for x in base],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", raw], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    start, size = m["dma_ranges"]
    cells = "0x2000000 0x%x 0x%x 0x%x 0x%x 0x%x 0x%x" % (
        start >> 32, start & 0xffffffff, start >> 32, start & 0xffffffff,
        size >> 32, size & 0xffffffff)
    # arm's virt names the node pcie@, riscv's pci@ (hw/riscv/virt.c create_fdt_pcie)
    dts, n = re.subn(r"(\n(\s*)pcie?@[0-9a-f]+ \{\n)",
                     lambda mo: mo.group(1) + mo.group(2) + "\tdma-ranges = <" + cells + ">;\n",
                     dts, count=1)
    if n != 1:
        raise RuntimeError("no pcie node in QEMU's devicetree")
    return write_dtb(dts, work, "virt-dma-ranges")


def write_dtb(dts, work, name):
    """dts compiled to WORK/NAME.dtb (its path returned), the source kept beside it."""
    out = os.path.join(work, name + ".dtb")
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", out], input=dts, text=True,
                   check=True)
    with open(os.path.join(work, name + ".dts"), "w") as f:
        f.write(dts)
    return out


def edit_soc_dtb(m, dtb, work):
    """The kernel package's devicetree with the /soc node's dma-ranges written
    as the machine's soc_dma_ranges (bus, CPU, size): one cell each, as the
    Raspberry Pi's /soc has them (#address-cells and #size-cells 1)."""
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", dtb], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    bus, cpu, size = m["soc_dma_ranges"]
    dts, n = re.subn(r"(\n\tsoc \{\n(?:\t\t[^\n]*\n)*?\t\tdma-ranges = )<0x[0-9a-f]+ 0x[0-9a-f]+ "
                     r"0x[0-9a-f]+>;",
                     lambda mo: mo.group(1) + "<0x%x 0x%x 0x%x>;" % (bus, cpu, size), dts, count=1)
    if n != 1:
        raise RuntimeError("no /soc dma-ranges of three cells in " + dtb)
    return write_dtb(dts, work, "soc-dma-ranges")


def parse_console(text):
    """The files the guest emitted between its markers, decoded."""
    files = {}
    for mo in re.finditer(r"==dmt-begin (\S+)==\r?\n(.*?)==dmt-end \1==", text, re.S):
        data = "".join(mo.group(2).split())
        try:
            files[mo.group(1)] = gzip.decompress(base64.b64decode(data))
        except (ValueError, OSError, EOFError) as e:
            files[mo.group(1)] = None
            files.setdefault("_errors", []).append("%s: %s" % (mo.group(1), e))
    return files


def boot(m, kernel, initrd, outdir):
    work = os.path.join(outdir, m["name"])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base = qemu_base(m, kernel, initrd, work)
    if m.get("dma_ranges"):
        base += ["-dtb", edit_dtb(m, base, work)]
    elif m.get("dtb") and m.get("soc_dma_ranges"):
        base += ["-dtb", edit_soc_dtb(m, kernel.dtb(m["dtb"]), work)]
    elif m.get("dtb"):
        base += ["-dtb", kernel.dtb(m["dtb"])]
    a = kernels.ARCHES[m["arch"]]
    # log_buf_len: I/O errors must not push the boot lines the judge reads out of the log
    append = ["console=" + a["console"], "loglevel=1", "log_buf_len=8M", "panic=-1", "rdinit=/init",
              "dmt.modules=" + ",".join(m["modules"]), "dmt.disks=%d" % m["disks"]]
    append += m.get("append", [])
    console = os.path.join(work, "console.log")
    cmd = base + ["-serial", "file:" + console, "-append", " ".join(append)]
    with open(os.path.join(work, "qemu.cmd"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=BOOT_TIMEOUT, text=True)
        qemu_out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        qemu_out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
    secs = time.monotonic() - t0
    try:
        with open(console, errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    files = parse_console(text)
    for name, data in files.items():
        if name != "_errors" and data is not None:
            with open(os.path.join(work, name), "wb") as f:
                f.write(data)
    return dict(machine=m, secs=secs, rc=rc, qemu_out=qemu_out, console=text,
                files=files, done="==dmt-done==" in text, work=work)


def replay_check(tap, res, tool):
    """The guest's --capture, replayed here with --sysroot, must give the
    verdicts the guest's live run gave; its --capture --observe, the same
    observed results."""
    replay_one(tap, res, tool, "capture.tgz", "audit.json", "capture.log", "verdicts",
               lambda d: (d["verdict"], d["reason"]))
    replay_one(tap, res, tool, "observe-capture.tgz", "observe.json", "observe.err",
               "observed results", lambda d: (d["verdict"], d.get("observed")))


def replay_one(tap, res, tool, tgz, live_json, log, what, key):
    name, work = res["machine"]["name"], res["work"]
    cap = os.path.join(work, tgz)
    if not tool or not os.path.exists(cap):
        tap.ok(os.path.exists(cap), "%s: the guest captured a snapshot (%s)" % (name, tgz),
               read_text(os.path.join(work, log)))
        return
    root = os.path.join(work, "replay-" + tgz.split(".")[0])
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    subprocess.run(["tar", "xzf", cap, "-C", root], check=True)
    p = subprocess.run([tool, "--sysroot", os.path.join(root, tgz[:-len(".tgz")]), "--json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        live = json.loads(read_text(os.path.join(work, live_json)))
        replay = json.loads(p.stdout)
    except ValueError as e:
        tap.ok(False, "%s: the snapshot replays (%s)" % (name, tgz), "%s\n%s" % (e, p.stderr))
        return
    def keyed(a):
        return {d["id"]: key(d) for d in a.get("devices", [])}
    lv, rv = keyed(live), keyed(replay)
    diff = ["%s: live %s, replayed %s" % (k, lv.get(k), rv.get(k))
            for k in sorted(set(lv) | set(rv)) if lv.get(k) != rv.get(k)]
    tap.ok(not diff and live.get("exit_status") == replay.get("exit_status"),
           "%s: the snapshot replays with the live %s (%d devices)" % (name, what, len(lv)),
           "\n".join(diff) + "\nexit %s vs %s" % (live.get("exit_status"), replay.get("exit_status")))


def what_if_checks(tap, results, tool):
    """--what-if against real kernels: each pair of WHAT_IF_PAIRS whose two
    guests both ran and captured, A's capture re-judged on the host for B's
    kernel or command line, one check per device both have (whatif.py)."""
    ran = {r["machine"]["name"]: r for r in results
           if r["done"] and os.path.exists(os.path.join(r["work"], "capture.tgz"))
           and os.path.exists(os.path.join(r["work"], "audit.json"))}
    t0, pairs = time.monotonic(), 0
    for a, b, args in WHAT_IF_PAIRS:
        if a not in ran or b not in ran:
            continue
        label = "what-if %s -> %s" % (a, b)
        try:
            b_audit = whatif.load(os.path.join(ran[b]["work"], "audit.json"))
            args = [whatif.kernel_arg(b_audit) if x == "kernel=B" else x for x in args]
        except ValueError as e:
            tap.ok(False, "%s: B's audit reads" % label, str(e))
            continue
        if not tool:
            tap.ok(False, "%s: a host tool to re-judge A's capture" % label)
            continue
        pairs += 1
        label += " " + " ".join(args)
        res = whatif.compare(tool, os.path.join(ran[a]["work"], "capture.tgz"), args,
                             whatif.verdicts_of(b_audit), whatif.idents_of(b_audit),
                             whatif.pool_of(b_audit))
        for dev, after, want, note in res["rows"]:
            tap.ok(after == want or note is not None,
                   "%s: %s after %s, B's kernel: %s%s" % (
                       label, dev, after, want,
                       " # assumed: " + note if after != want and note else ""),
                   "no assumption of the what-if names %s (applied: %s)" % (
                       dev, "; ".join(res["applied"])))
        rows = {r[0] for r in res["rows"]}
        other = [f for f in res["failures"] if f.split(":")[0] not in rows]
        tap.ok(not other, "%s: %d devices compared, %d on one side only" % (
            label, res["compared"], len(res["left_out"])), "\n".join(other))
    if pairs:
        tap.note("what-if pairs: %d, %.1f s" % (pairs, time.monotonic() - t0))


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def save_fixture(res, kernel, dest):
    """Commit-ready fixture: the captured tree as root.tar.gz, the judged
    facts as checks, and the tool's output as expected.json (normalised by
    tests/machines.sh --regen later)."""
    name = "kernel-" + res["machine"]["name"]
    d = os.path.join(dest, name)
    os.makedirs(d, exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        subprocess.run(["tar", "xzf", os.path.join(res["work"], "capture.tgz"), "-C", t],
                       check=True)
        os.rename(os.path.join(t, "capture"), os.path.join(t, "root"))
        captured_log = read_text(os.path.join(t, "root", "dev", "kmsg"))
        subprocess.run(["tar", "czf", os.path.join(d, "root.tar.gz"), "--owner=0", "--group=0",
                        "--numeric-owner", "--sort=name", "--mtime=@0", "-C", t, "root"],
                       check=True)
    write_checks(os.path.join(d, "checks"), res["machine"], kernel.version, res["verdicts"],
                 captured_log)
    return d


def write_checks(path, m, version, verdicts, captured_log=""):
    """jq checks of what the judge confirmed, and what the kernel did as comments;
    then the findings that evidence supports (judge.finding_checks)."""
    with open(path, "w") as f:
        f.write("# written by tests/kernels/run.py --save-fixtures from what %s did\n" % version)
        f.write("# under QEMU (%s): %s\n" % (
            " ".join(["-machine", m["machine"], "-m", m["mem"]] + m.get("append", [])), m["why"]))
        for dev, driver, v, bounces, forced, failures, _block, traffic, *_ in verdicts["table"]:
            if v != "idle" or bounces or failures:
                f.write("# kernel: %s (%s, %s): %d bounces%s, %d forced, %d mapping failures\n"
                        % (dev, driver, traffic, bounces,
                           " attempted" if v == "fails" and bounces else "", forced, failures))
        for line in verdicts["jq"] + judge.finding_checks(m, verdicts, captured_log):
            f.write(line + "\n")


def prepare(machines, tools, outdir, kern, initrd, tap):
    """Each kernel generation (fetched once), each architecture's tool, and
    an initramfs per kernel. A kernel that cannot be had fails its machines,
    by name and with apt's reason; the others still boot."""
    broken = {}
    built = {}
    for key in sorted({kernels.kernel_key(m) for m in machines}, key=str):
        arch, suite, flavour = key
        try:
            k = kernels.Kernel(arch, suite, flavour)
            tool = tools.get(arch) or built.get(arch)
            if not tool:
                subprocess.run([os.path.join(SRCDIR, "tools", "cross"), "--build-only", arch],
                               check=True, stdout=sys.stderr)
                tool = built[arch] = os.path.join(SRCDIR, "build-" + arch, "dmamask-audit")
            for m in machines:
                if kernels.kernel_key(m) == key and m.get("dtb") and not m.get("dma_ranges"):
                    k.dtb(m["dtb"])  # now, not in a boot thread: a missing one fails its machines
            mods = sorted({x for m in machines if kernels.kernel_key(m) == key for x in m["modules"]})
            initrd[key] = kernels.initramfs(k, mods, tool, os.path.join(HERE, "guest-init"),
                                            os.path.join(outdir, "initrd-%s-%s-%s.gz" % key))
            kern[key] = k
            tap.note("%s %s %s: %s, %s, tool %s" % (arch, suite, flavour, k.version, k.release, tool))
        except (OSError, RuntimeError, subprocess.CalledProcessError) as e:
            broken[key] = str(e)
    return broken


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", action="append", default=[], help="ARCH=PATH")
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--save-fixtures", default=None)
    ap.add_argument("--log", default=None, help="also write the TAP lines here")
    ap.add_argument("names", nargs="*")
    o = ap.parse_args()

    machines = [m for m in MACHINES if not o.names or m["name"] in o.names] + \
        [m for m in STALLED + OPTIONAL if m["name"] in (o.names or [])]
    if o.names and len(machines) != len(o.names):
        sys.exit("unknown machine in: %s" % " ".join(o.names))
    tools = dict(t.split("=", 1) for t in o.tool)
    outdir = o.out or tempfile.mkdtemp(prefix="dmamask-kernels-")
    os.makedirs(outdir, exist_ok=True)
    tap = Tap(o.log)
    tap.note("guests under %s" % outdir)

    kern, initrd = {}, {}
    try:
        broken = prepare(machines, tools, outdir, kern, initrd, tap)
    except RuntimeError as e:  # a machine naming a flavour its architecture lacks
        tap.ok(False, "the machines name known kernels", str(e))
        tap.out("1..%d" % tap.n)
        return 1
    for m in machines:
        key = kernels.kernel_key(m)
        if key in broken:
            tap.ok(False, "%s: its kernel (%s %s %s) and initramfs are ready" % ((m["name"],) + key),
                   broken[key])
    machines = [m for m in machines if kernels.kernel_key(m) in kern]

    native = subprocess.run(["dpkg", "--print-architecture"], stdout=subprocess.PIPE,
                            text=True).stdout.strip()
    host_tool = tools.get(native) or (os.path.join(SRCDIR, "build", "dmamask-audit")
                                      if os.path.exists(os.path.join(SRCDIR, "build",
                                                                     "dmamask-audit")) else None)
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=o.jobs) as ex:
        futs = [ex.submit(boot, m, kern[kernels.kernel_key(m)], initrd[kernels.kernel_key(m)], outdir)
                for m in machines]
        results = [f.result() for f in futs]
    table = []
    for res in results:
        m = res["machine"]
        name = m["name"]
        tap.ok(res["done"], "%s: booted, ran and exported (%.1f s)" % (name, res["secs"]),
               "qemu rc %s\n%s\n--- console tail ---\n%s" % (
                   res["rc"], res["qemu_out"][-2000:], res["console"][-3000:]))
        if not res["done"]:
            continue
        tap.ok(not res["files"].get("_errors"), "%s: every exported file decodes" % name,
               "\n".join(res["files"].get("_errors", [])))
        replay_check(tap, res, host_tool)
        try:
            verdicts = judge.judge(res["work"], m)
        except (KeyError, TypeError, ValueError) as e:
            tap.ok(False, "%s: the judge read the guest's records" % name, repr(e))
            continue
        for v in verdicts["checks"]:
            tap.ok(v["ok"], "%s: %s" % (name, v["what"]), v.get("diag"))
        res["verdicts"] = verdicts
        # the table shows the judged devices; idle ones are counted (the judge checked them all)
        rows = [r for r in verdicts["table"] if r[2] != "idle" or r[3] or r[5]]
        idle = len(verdicts["table"]) - len(rows)
        table += [(name, "%.0f s" % res["secs"]) + row for row in rows]
        table.append((name, "", "(%d idle)" % idle, "", "", 0, 0, 0, "-", "", ""))
        if verdicts["unexercised"]:
            tap.note("%s: %d of %d devices unexercised (no traffic, nothing asserted): %s"
                     % (name, len(verdicts["unexercised"]), len(verdicts["table"]),
                        " ".join(verdicts["unexercised"])))
        # a fixture records what the kernel confirmed: never a disagreement
        agreed = all(v["ok"] for v in verdicts["checks"])
        if o.save_fixtures and agreed and os.path.exists(os.path.join(res["work"], "capture.tgz")):
            save_fixture(res, kern[kernels.kernel_key(m)], o.save_fixtures)
    tap.note("all boots: %.0f s wall" % (time.monotonic() - t0))
    what_if_checks(tap, results, host_tool)
    if table:
        w = [max(len(str(r[i])) for r in table + [judge.TABLE_HEAD]) for i in range(len(table[0]))]
        for r in [judge.TABLE_HEAD] + table:
            tap.note("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip())
    tap.out("1..%d" % tap.n)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
