#!/usr/bin/env python3
"""The era table of tests/kernels/README: every row of src/analysis/eras.c
(as tests/kernels/era-rows prints it), the real-kernel guests that prove it
(tests/kernels/eras.py, checked against tests/kernels/machines.py) or why
none can, and the row's citation.

  era-table.py [--era-rows PATH] [--readme PATH]          check (TAP): make check
  era-table.py [--era-rows PATH] [--readme PATH] --write  write the table into README

It fails when README's table is not what it would write, when a row of eras.c
has no entry in eras.py or an entry names no row, and when a guest listed is
not a machine of the suite or does not boot a kernel that lands on the row on
its architecture (both the release the tool reads and the kernel's own).
--era-rows defaults to $ERA_ROWS, else tests/kernels/era-rows under the
current directory (the build tree, where make check runs); $QEMU_USER, when
set, runs it (a cross build).
"""
import argparse
import ast
import difflib
import os
import re
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True  # the source tree stays clean (and may be read-only)
HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import eras  # noqa: E402
import kernels  # noqa: E402
from machines import MACHINES  # noqa: E402

BEGIN = "<!-- era-table: written by tests/kernels/era-table.py --write (make era-table); do not edit -->"
END = "<!-- era-table end -->"


def run_rows(cmd, *args):
    """era-rows' lines as (key, fields) in table order."""
    out = subprocess.run(cmd + list(args), check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) != 6:
            raise ValueError("era-rows printed %r: not 6 tab-separated fields" % line)
        rows.append((key_of(f), dict(zip(("rule", "since", "until", "arch", "value", "source"), f))))
    return rows


def key_of(f):
    return "%s %s..%s %s" % (f[0], f[1], "" if f[2] == "0" else f[2], f[3])


def kernels_of(r):
    since, until = r["since"], r["until"]
    if since == "0" and until == "0":
        return "all"
    if since == "0":
        return "< " + until
    if until == "0":
        return ">= " + since
    return "[%s, %s)" % (since, until)


def md(s):
    return s.replace("|", "\\|")


def duplicate_keys():
    """Keys ROWS holds twice: a dict literal keeps the last silently."""
    with open(eras.__file__) as f:
        tree = ast.parse(f.read())
    seen, dup = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ROWS" for t in node.targets):
            for k in node.value.keys:
                v = ast.literal_eval(k)
                if v in seen:
                    dup.append(v)
                seen.add(v)
    return dup


def landing(cmd, machines):
    """For each guest, the keys of the rows its kernel lands on: the upstream
    release, which the tool reads from /proc/version behind Debian's ABI name
    (identity.c read_stable_release); and the guests no kernel is known for."""
    picked, cache, unknown = {}, {}, []
    for m in machines:
        suite = m.get("suite", kernels.DEFAULT_SUITE)
        if suite not in eras.SUITE_KERNELS or m["arch"] not in eras.UNAME_MACHINE:
            unknown.append("%s (suite %s, arch %s)" % (m["name"], suite, m["arch"]))
            continue
        at = (eras.SUITE_KERNELS[suite][1], eras.UNAME_MACHINE[m["arch"]])
        if at not in cache:
            cache[at] = {k for k, _ in run_rows(cmd, "--at", *at)}
        picked[m["name"]] = cache[at]
    return picked, unknown


def table(rows):
    proven = sum(1 for k, _ in rows if isinstance(eras.ROWS.get(k), dict))
    out = [BEGIN, "",
           "%d rows: %d exercised by a guest, %d on their citation alone." % (
               len(rows), proven, len(rows) - proven), "",
           "| rule | kernels | arch | value | proven by | citation (eras.c) |",
           "|---|---|---|---|---|---|"]
    for k, r in rows:
        e = eras.ROWS.get(k)
        if isinstance(e, dict):
            proof = "%s: %s" % (", ".join("`%s`" % g for g in e["guests"]), e["how"])
        else:
            proof = "none: %s" % e
        out.append("| %s | %s | %s | %s | %s | %s |" % (
            r["rule"], kernels_of(r), r["arch"], r["value"], md(proof), md(r["source"])))
    out += ["", END]
    return out


def splice(text, block):
    """README's text with the lines between the markers replaced; None when the
    markers are missing."""
    lines = text.split("\n")
    try:
        b, e = lines.index(BEGIN), lines.index(END)
    except ValueError:
        return None
    if e < b:
        return None
    return "\n".join(lines[:b] + block + lines[e + 1:])


class Tap:
    def __init__(self):
        self.n, self.failed = 0, 0

    def check(self, ok, what, diag=()):
        self.n += 1
        self.failed += not ok
        print("%s %d - %s" % ("ok" if ok else "not ok", self.n, what))
        if not ok:
            for line in diag:
                print("# " + line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--era-rows", default=os.environ.get("ERA_ROWS", os.path.join("tests", "kernels", "era-rows")))
    ap.add_argument("--readme", default=os.path.join(HERE, "README"))
    ap.add_argument("--write", action="store_true", help="write the table into README")
    a = ap.parse_args()
    cmd = shlex.split(os.environ.get("QEMU_USER", "")) + [a.era_rows]

    tap = Tap()
    try:
        rows = run_rows(cmd)
    except OSError as e:
        if a.write:
            sys.exit("era-table.py: cannot run %s: %s (build it: make tests/kernels/era-rows)"
                     % (" ".join(cmd), e))
        print("1..0 # SKIP cannot run %s: %s" % (" ".join(cmd), e))
        return 0
    tap.check(rows, "era-rows prints the table of eras.c (%d rows)" % len(rows))
    keys = [k for k, _ in rows]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    tap.check(not twice, "no two rows of eras.c share rule, range and arch", twice)
    missing = [k for k in keys if k not in eras.ROWS]
    tap.check(not missing, "every row of eras.c has an entry in eras.py",
              ["no entry: %r" % k for k in missing])
    stale = [k for k in eras.ROWS if k not in keys]
    tap.check(not stale, "every entry of eras.py names a row of eras.c",
              ["no such row: %r" % k for k in stale])
    dup = duplicate_keys()
    tap.check(not dup, "eras.py names each row once", ["twice: %r" % k for k in dup])
    bad = [k for k, e in eras.ROWS.items()
           if not (isinstance(e, str) and e) and not (
               isinstance(e, dict) and set(e) == {"guests", "how"} and e["guests"]
               and isinstance(e["guests"], list) and all(isinstance(g, str) for g in e["guests"])
               and isinstance(e["how"], str) and e["how"])]
    tap.check(not bad, "every entry is a reason or dict(guests=[...], how=...)",
              ["malformed: %r" % k for k in bad])

    texts = [e if isinstance(e, str) else str(e.get("how")) for e in eras.ROWS.values()
             if isinstance(e, (str, dict))]
    fixtures = sorted({f for t in texts for f in re.findall(r"tests/machines/[\w.+-]*\w", t)})
    gone = [f for f in fixtures if not os.path.isdir(os.path.join(SRCDIR, f))]
    tap.check(not gone, "every fixture eras.py names exists (%d)" % len(fixtures), gone)

    by_name = {m["name"]: m for m in MACHINES}
    listed = sorted({g for e in eras.ROWS.values() if isinstance(e, dict) and isinstance(e.get("guests"), list)
                     for g in e["guests"]})
    suites = set(eras.SUITE_KERNELS)
    tap.check(suites == set(kernels.SUITES),
              "eras.py SUITE_KERNELS has a kernel for each suite kernels.py knows",
              ["kernels.py: %s; eras.py: %s" % (" ".join(kernels.SUITES), " ".join(sorted(suites)))])
    unknown_guests = [g for g in listed if g not in by_name]
    tap.check(not unknown_guests, "every guest eras.py lists is a machine of machines.MACHINES",
              ["not a machine (or not booted by default): %s" % g for g in unknown_guests])
    picked, unknown = landing(cmd, [by_name[g] for g in listed if g in by_name])
    tap.check(not unknown, "every guest listed boots a kernel eras.py knows", unknown)
    off = []
    for k, e in eras.ROWS.items():
        if k not in keys or not isinstance(e, dict) or not isinstance(e.get("guests"), list):
            continue
        for g in e["guests"]:
            if g in picked and k not in picked[g]:
                m = by_name[g]
                suite = m.get("suite", kernels.DEFAULT_SUITE)
                off.append("%s: %s (%s, kernel %s) does not land on it" % (
                    k, g, m["arch"], " / ".join(eras.SUITE_KERNELS[suite])))
    tap.check(not off, "every guest listed lands on its row: kernel in range, on the row's arch", off)

    block = table(rows)
    try:
        with open(a.readme) as f:
            text = f.read()
    except OSError as e:
        text = None
        err = str(e)
    new = splice(text, block) if text is not None else None
    if a.write:
        if tap.failed:
            sys.exit("era-table.py: not written, %d check(s) failed" % tap.failed)
        if new is None:
            sys.exit("era-table.py: %s has no %r ... %r lines to write between" % (a.readme, BEGIN, END))
        if new != text:
            with open(a.readme + ".tmp", "w") as f:
                f.write(new)
            os.replace(a.readme + ".tmp", a.readme)
            print("era-table.py: wrote %s" % a.readme)
        return 0
    if new is None:
        tap.check(False, "tests/kernels/README holds the era table",
                  [err if text is None else "no %r ... %r lines" % (BEGIN, END)])
    else:
        diff = list(difflib.unified_diff(text.split("\n"), new.split("\n"), "README", "README (generated)",
                                         lineterm="", n=0))
        tap.check(not diff, "tests/kernels/README's era table is current",
                  diff + ["write it again: make era-table (or era-table.py --write --era-rows PATH)"])
    print("1..%d" % tap.n)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
