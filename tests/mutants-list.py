#!/usr/bin/python3
"""tests/mutants.list stays true to the sources it mutates: every mutant's
snippet occurs exactly once in its file (tools/mutate --dry-run), so an edit
that moves a rule cannot leave `make mutate` broken until someone runs it."""
import os
import subprocess
import sys

src = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), ".."))
p = subprocess.run([sys.executable, os.path.join(src, "tools", "mutate"), "--srcdir", src,
                    "--builddir", ".", "--dry-run"], stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT, text=True)
lines = p.stdout.strip().splitlines()
print("1..1")
print("%s 1 - tests/mutants.list against the sources: %s"
      % ("ok" if p.returncode == 0 else "not ok", lines[-1] if lines else "no output"))
if p.returncode != 0:
    for line in lines[-5:]:
        print("# " + line)
