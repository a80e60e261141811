"""--what-if held against a real kernel: machine A's snapshot re-judged for a
change (another kernel generation, a command line word) must give, device by
device, the verdicts machine B (A's QEMU shape booted that way) got from its
own audit. Plain python, nothing shared with the tool.

  compare(tool, snapshot_a, args, b_verdicts, b_idents=None, b_pool=None) -> dict
    rows      [(device, after, want, assumed)]: every device both sides have;
              assumed is the text of a what_if.assumptions entry naming the
              device, or None; and, when B's audit knew it (b_pool: its
              swiotlb.active), the row "swiotlb.active": whether a pool
              exists after the change, which no assumption excuses
    compared  len(rows)
    left_out  devices on one side only (or another device at the same
              address: pci vendor:device differs), by id
    failures  the rows whose after and want differ with no assumption, and
              anything else wrong (the tool's errors, A's verdicts that the
              what-if's "old" side does not repeat, nothing compared)
    applied   the what-if's applied words

Run as a script: whatif.py TOOL A-SNAPSHOT B-AUDIT.json ARG... prints TAP.
"""

import json
import subprocess
import sys


def verdicts_of(audit):
    """id -> verdict of an audit's JSON (a dict, or a path to one)."""
    return {d["id"]: d["verdict"] for d in load(audit).get("devices", [])}


def idents_of(audit):
    """id -> "vendor:device" of the PCI functions of an audit's JSON, None
    for the others: an address that holds another device on the other side
    is not the same device."""
    out = {}
    for d in load(audit).get("devices", []):
        p = d.get("pci_ids") or {}
        out[d["id"]] = "%s:%s" % (p["vendor"], p["device"]) if p.get("vendor") else None
    return out


def kernel_arg(audit):
    """kernel=RELEASE of a guest as it reports itself: its stable release
    (5.10.223) when the audit read one, else its release (6.1.0-57-amd64)."""
    k = load(audit).get("kernel") or {}
    rel = k.get("stable_release") or k.get("release")
    if not rel:
        raise ValueError("the audit read no kernel release")
    return "kernel=" + rel


def pool_of(audit):
    """An audit's swiotlb.active: True, False, or None when it did not know."""
    return (load(audit).get("swiotlb") or {}).get("active")


def load(audit):
    if isinstance(audit, dict):
        return audit
    with open(audit) as f:
        return json.load(f)


def run_json(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        raise RuntimeError("%s: no JSON (%s): %s" % (" ".join(cmd), e, p.stderr.strip()))


def compare(tool, snapshot_a, args, b_verdicts, b_idents=None, b_pool=None):
    res = dict(rows=[], compared=0, left_out=[], failures=[], applied=[])
    try:
        today = run_json([tool, "--sysroot", snapshot_a, "-J", "--allow-incomplete"])
        cmd = [tool, "--sysroot", snapshot_a, "-J"]
        for a in args:
            cmd += ["--what-if", a]
        after_json = run_json(cmd)
    except RuntimeError as e:
        res["failures"].append(str(e))
        return res
    wi = after_json.get("what_if") or {}
    res["applied"] = wi.get("applied", [])
    assumed = {}
    for a in wi.get("assumptions", []):
        if a.get("device"):
            assumed.setdefault(a["device"], []).append(a["text"])
    a_verdicts, a_idents = verdicts_of(today), idents_of(today)
    after = dict(a_verdicts)
    for d in after_json.get("devices", []):
        # the what-if's today must be A's plain audit
        if d["id"] in a_verdicts and d.get("old_verdict") != a_verdicts[d["id"]]:
            res["failures"].append("%s: the what-if's today is %s, A's audit says %s"
                                   % (d["id"], d.get("old_verdict"), a_verdicts[d["id"]]))
        after[d["id"]] = d.get("new_verdict")
    for dev in sorted(set(after) | set(b_verdicts)):
        same = (dev in b_verdicts and after.get(dev) is not None and
                (b_idents is None or dev not in a_idents or b_idents.get(dev) == a_idents[dev]))
        if not same:
            res["left_out"].append(dev)
            continue
        note = "; ".join(assumed.get(dev, [])) or None
        row = (dev, after[dev], b_verdicts[dev], note)
        res["rows"].append(row)
        if after[dev] != b_verdicts[dev] and not note:
            res["failures"].append("%s: after %s, B's kernel %s (no assumption names it)"
                                   % (dev, after[dev], b_verdicts[dev]))
    # the pool as the kernel of B had it: today's, as the what-if's machine fields move it
    pool = pool_of(today)
    for f in after_json.get("machine", []):
        if f.get("field") == "swiotlb.active":
            pool = f.get("new")
    if b_pool is not None and pool is not None:
        res["rows"].append(("swiotlb.active", pool, b_pool, None))
        if pool != b_pool:
            res["failures"].append("swiotlb.active: after %s, B's kernel %s" % (pool, b_pool))
    res["compared"] = len(res["rows"])
    if not res["rows"]:
        res["failures"].append("no device compared (%d left out)" % len(res["left_out"]))
    return res


def tap_lines(label, res, start=1):
    """TAP lines of one comparison: one per device compared, one for the
    comparison as a whole (the tool ran, something compared, A's today held)."""
    out, n = [], start
    for dev, after, want, note in res["rows"]:
        ok = after == want or note is not None
        line = "%s %d - %s: %s after %s, B's kernel: %s" % ("ok" if ok else "not ok", n, label,
                                                           dev, after, want)
        if after != want and note:
            line += " # assumed: " + note
        out.append(line)
        n += 1
    row_fail = {r[0] for r in res["rows"] if r[1] != r[2] and r[3] is None}
    other = [f for f in res["failures"] if f.split(":")[0] not in row_fail]
    out.append("%s %d - %s: %d devices compared, %d on one side only%s" % (
        "not ok" if other else "ok", n, label, res["compared"], len(res["left_out"]),
        "".join("\n# " + f for f in other)))
    return out


def main(argv):
    if len(argv) < 4:
        sys.stderr.write("usage: whatif.py TOOL A-SNAPSHOT B-AUDIT.json ARG...\n")
        return 2
    tool, a, b, args = argv[0], argv[1], argv[2], argv[3:]
    b_audit = load(b)
    args = [kernel_arg(b_audit) if x == "kernel=B" else x for x in args]
    res = compare(tool, a, args, verdicts_of(b_audit), idents_of(b_audit), pool_of(b_audit))
    lines = tap_lines("what-if %s" % " ".join(args), res)
    print("1..%d" % len(lines))
    print("\n".join(lines))
    return 1 if any(x.startswith("not ok") for x in lines) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
