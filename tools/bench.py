#!/usr/bin/python3
"""bench.py [--tool PATH] [--work DIR] [--runs N]

Times the full audit (JSON to /dev/null) and measures its peak memory:
  1. on generated machines of 1250, 2500, 5000 and 10000 PCI functions (with
     4096 disks at the largest; proportionally fewer below), to show how time
     grows with devices, side by side with `lspci -A linux-sysfs -O
     sysfs.path=TREE/sys/bus/pci` on the same tree;
  2. on the live machine, side by side with `lspci -vvv`.
Each figure is the median of --runs runs; memory is ru_maxrss of the child.
Targets (issue 3): under 1 s and 64 MiB at 10,000 functions, linear growth.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# Runs one command and prints its wall time and peak RSS: a fresh process per
# measurement, since RUSAGE_CHILDREN's ru_maxrss is a maximum over all children.
# GNU time (Debian package "time") reports the peak RSS of the command alone:
# anything spawned from this Python would start from a copy of its 13 MiB.
TIME = shutil.which("time", path="/usr/bin:/bin")


def run(cmd, runs):
    """Median wall seconds and peak RSS (KiB) of cmd over runs."""
    if not TIME:
        sys.exit("bench.py needs GNU time: apt-get install time")
    times, rss = [], 0
    for _ in range(runs):
        out = subprocess.run([TIME, "-f", "%e %M %x"] + cmd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        last = out.stderr.strip().splitlines()[-1].split()
        if int(last[2]) not in (0, 1):
            sys.exit(f"{' '.join(cmd)}: exit {last[2]}: {out.stderr[:500]}")
        times.append(float(last[0]))
        rss = max(rss, int(last[1]))
    return statistics.median(times), rss


def fmt(t, rss):
    return f"{t * 1000:8.1f} ms {rss / 1024:7.1f} MiB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default=os.path.join(HERE, "..", "build", "dmamask-audit"))
    ap.add_argument("--work", default="/tmp/dmamask-bench")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    if not os.access(tool, os.X_OK):
        sys.exit(f"no tool at {tool}: build first (tools/setup audit) or pass --tool")
    lspci = shutil.which("lspci")

    print(f"{'machine':28} {'dmamask-audit --json':>24} {'lspci':>24}  per device")
    for n in (1250, 2500, 5000, 10000):
        disks = 4096 * n // 10000
        root = os.path.join(a.work, f"pci{n}")
        if not os.path.exists(os.path.join(root, "MANIFEST")):
            subprocess.run([sys.executable, os.path.join(HERE, "gen-big-machine.py"), root,
                            "--pci", str(n), "--disks", str(disks)], check=True)
        run([tool, "--sysroot", root, "--json"], 1)  # warm the page cache
        t, rss = run([tool, "--sysroot", root, "--json"], a.runs)
        line = f"{n:6} PCI + {disks:4} disks       {fmt(t, rss)}"
        if lspci:
            lt, lrss = run([lspci, "-A", "linux-sysfs", "-O", f"sysfs.path={root}/sys/bus/pci"], a.runs)
            line += f" {fmt(lt, lrss)}"
        else:
            line += f" {'(no lspci)':>24}"
        print(f"{line}  {t / n * 1e6:6.1f} us")
    t, rss = run([tool, "--json"], a.runs)
    line = f"{'live machine':28} {fmt(t, rss)}"
    if lspci:
        lt, lrss = run([lspci, "-vvv"], a.runs)
        line += f" {fmt(lt, lrss)}  (lspci -vvv)"
    print(line)


if __name__ == "__main__":
    main()
