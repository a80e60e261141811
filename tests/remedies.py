#!/usr/bin/python3
"""Every bounce-needed, bounce-impossible and bounce-missed finding in the
fixtures' expected reports names what limits its device (evidence
"limiter", the device's own "limiter") and gives a remedy that speaks of
that limiter: a wider mask, the firmware's window, the pool, the IOMMU, or a
kernel release. And each limiter is met at least once, so a rule that stops
choosing one shows here."""
import glob
import json
import os
import re

src = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), ".."))
IDS = ("bounce-needed", "bounce-impossible", "bounce-missed")
# what a remedy must speak of, per limiter (model.h enum reach_limiter)
WORDS = {
    "mask": r"DMA mask",
    "bus-window": r"window",
    "pool": r"pool",
    "iommu": r"IOMMU|passthrough",
    "kernel-era": r"\b\d+\.\d+\+? kernel|kernel[^;]*\bfrom \d+\.\d+",
}

n, bad, seen = 0, [], {}
for path in sorted(glob.glob(os.path.join(src, "tests", "machines", "*", "expected.json"))):
    name = os.path.basename(os.path.dirname(path))
    with open(path) as f:
        doc = json.load(f)
    limiter_of = {d["id"]: d.get("limiter") for d in doc.get("devices", [])}
    for x in doc.get("findings", []):
        if x["id"] not in IDS:
            continue
        n += 1
        where = "%s: %s %s" % (name, x["id"], x.get("device"))
        lim = (x.get("evidence") or {}).get("limiter")
        if lim not in WORDS:
            bad.append("%s: limiter %r is none of %s" % (where, lim, ", ".join(WORDS)))
            continue
        seen[(x["id"], lim)] = seen.get((x["id"], lim), 0) + 1
        if x.get("device") in limiter_of and limiter_of[x["device"]] != lim:
            bad.append("%s: evidence says %s, the device %s" % (where, lim, limiter_of[x["device"]]))
        if not re.search(WORDS[lim], x.get("remedy") or ""):
            bad.append("%s: remedy does not speak of the %s: %r" % (where, lim, x.get("remedy")))

missing = [l for l in WORDS if not any(k[1] == l for k in seen)]
print("1..2")
print("%s 1 - %d bounce findings in the fixtures name their limiter in the remedy"
      % ("ok" if n and not bad else "not ok", n))
for b in bad[:20]:
    print("# " + b)
print("%s 2 - every limiter is met in the fixtures" % ("not ok" if missing else "ok"))
for k in sorted(seen):
    print("# %s limited by %s: %d" % (k[0], k[1], seen[k]))
if missing:
    print("# never met: " + ", ".join(missing))
