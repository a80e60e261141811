#!/usr/bin/env python3
"""--what-if against what real kernels did, without QEMU: the saved guest
fixtures tests/machines/kernel-NAME (root.tar.gz the guest's capture,
expected.json the verdicts its kernel confirmed) of every pair of
tests/kernels/machines.py WHAT_IF_PAIRS that has both: A's capture re-judged
with the pair's change must give B's verdicts, device by device, or name the
difference as an assumption (tests/kernels/whatif.py)."""
import os
import sys

SRCDIR = os.environ.get("SRCDIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRCDIR, "tests", "kernels"))
import machines  # noqa: E402
import whatif  # noqa: E402


def main():
    tool = os.environ.get("TOOL")
    if not tool:
        print("1..0 # SKIP TOOL not set")
        return 0
    fixtures = os.path.join(SRCDIR, "tests", "machines")
    lines, pairs = [], 0
    for a, b, args in machines.WHAT_IF_PAIRS:
        fa, fb = (os.path.join(fixtures, "kernel-" + n) for n in (a, b))
        if not (os.path.isdir(fa) and os.path.isdir(fb)):
            lines.append("# %s -> %s: no fixture of both (run by make check-kernels)" % (a, b))
            continue
        pairs += 1
        b_audit = whatif.load(os.path.join(fb, "expected.json"))
        args = [whatif.kernel_arg(b_audit) if x == "kernel=B" else x for x in args]
        res = whatif.compare(tool, os.path.join(fa, "root.tar.gz"), args,
                             whatif.verdicts_of(b_audit), whatif.idents_of(b_audit),
                             whatif.pool_of(b_audit))
        lines += whatif.tap_lines("what-if %s -> %s %s" % (a, b, " ".join(args)), res,
                                  1 + sum(x.startswith(("ok", "not ok")) for x in lines))
    n = sum(x.startswith(("ok", "not ok")) for x in lines)
    lines.append("%s %d - fixture pairs compared: %d" % ("ok" if pairs else "not ok", n + 1, pairs))
    print("1..%d" % (n + 1))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
