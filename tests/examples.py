#!/usr/bin/python3
"""Every example a reader can copy runs, and every sample output is what the
tool prints today.

README.md: each output block (a bare ``` fence) follows a marker line,
  <!-- example: FIXTURE [ARGS...] -->  run with --sysroot on tests/machines/
      FIXTURE (generated), at 80 columns, and compared line by line; the
      generated root is written /tmp/fx/FIXTURE/root, as the README's command
      to generate it says; a word @NAME in ARGS is fixture NAME's root;
  <!-- example: live -->  this machine's output: not compared, said so;
  <!-- example: measured -->  a measurement (a real kernel's run, a benchmark,
      coverage): not compared; <!-- example: text --> not output at all.
  An output block without a marker fails: a sample nobody can reproduce.
dmamask-audit(8) EXAMPLES: each dmamask-audit command (prompt, pipe and line
  continuations taken away) runs on the fixture a preceding
  "; example-sysroot: FIXTURE" comment names, else on this machine, and
  exits 0 or 1; a usage error (2) fails. What it would write goes into a
  scratch directory. "; example-reports: DIR/ FIXTURE=HOST@DATE..." makes DIR
  a directory of those fixtures' JSON reports, as HOST at DATE."""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

src = os.environ.get("SRCDIR", os.path.join(os.path.dirname(__file__), ".."))
tool = os.environ.get("TOOL") or os.path.join(src, "build", "dmamask-audit")
tmp = tempfile.mkdtemp(prefix="dmamask-examples.")
roots = {}
n = 0


def tap(ok, what, diag=()):
    global n
    n += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, what))
    for d in diag:
        print("# " + d)


def root(name):
    if name not in roots:
        out = os.path.join(tmp, "fx")
        subprocess.run([sys.executable, os.path.join(src, "tests", "machines", "gen-fixtures.py"),
                        "--out", out, name], check=True, stdout=subprocess.DEVNULL)
        roots[name] = os.path.join(out, name, "root")
    return roots[name]


def run(argv):
    env = dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")
    env.pop("DMAMASK_DEBUG", None)
    return subprocess.run([tool] + argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          env=env, text=True, timeout=120)


def readme_samples():
    lines = open(os.path.join(src, "README.md")).read().split("\n")
    marker, fence = None, None
    for i, line in enumerate(lines):
        if fence is not None:
            if line == "```":
                yield fence_start, marker_of_block, block
                fence = None
            else:
                block.append(line)
            continue
        if line.startswith("```"):
            if line == "```":  # an output block; ```sh and the like hold commands
                fence, fence_start, block, marker_of_block = True, i + 1, [], marker
            else:
                fence = None
                skip_to = next(j for j in range(i + 1, len(lines)) if lines[j] == "```")
                lines[i + 1:skip_to + 1] = [""] * (skip_to - i)
            marker = None
            continue
        m = re.match(r"^<!-- example: (.*) -->$", line)
        if m:
            marker = m.group(1)
        elif line.strip():
            marker = None


for start, marker, block in readme_samples():
    where = "README.md:%d" % start
    if marker is None:
        tap(False, "%s: an output block with no <!-- example: ... --> marker" % where)
        continue
    if marker in ("live", "measured", "text"):
        tap(True, "%s: %s (not compared)" % (where, {"live": "this machine's output",
            "measured": "a measurement", "text": "not output"}[marker]))
        continue
    words = marker.split()
    argv, shown = [], {}
    if not words[0].startswith("@") and not words[0].startswith("-"):
        r = root(words[0])
        shown[r] = "/tmp/fx/%s/root" % words[0]
        argv += ["--sysroot", r]
        words = words[1:]
    for w in words:
        if w.startswith("@"):
            r = root(w[1:])
            shown[r] = "/tmp/fx/%s/root" % w[1:]
            argv.append(r)
        else:
            argv.append(w)
    p = run(argv)
    out = p.stdout
    for r, s in shown.items():
        out = out.replace(r, s)
    got = [l.rstrip() for l in out.rstrip("\n").split("\n")]
    want = [l.rstrip() for l in block]
    diff = []
    if got != want:
        for k in range(max(len(got), len(want))):
            g = got[k] if k < len(got) else "<none>"
            w = want[k] if k < len(want) else "<none>"
            if g != w:
                diff += ["line %d: README: %s" % (k + 1, w), "line %d: tool:   %s" % (k + 1, g)]
            if len(diff) >= 8:
                break
    tap(got == want, "%s: the sample is what the tool prints (%s)" % (where, marker), diff)


# ---- the man page's EXAMPLES ----
man = open(os.path.join(src, "man", "dmamask-audit.8.scd")).read().split("\n")
sect = man[man.index("# EXAMPLES") + 1:]
sect = sect[:next((i for i, l in enumerate(sect) if l.startswith("# ")), len(sect))]
fixture, inblock, cmds, captures = None, False, [], {}
for i, line in enumerate(sect):
    m = re.match(r"^; example-sysroot: (\S+)$", line)
    if m:
        fixture = m.group(1)
        continue
    m = re.match(r"^; example-reports: (\S+) (.*)$", line)
    if m:
        d = os.path.join(tmp, "reports-%d" % i)
        os.makedirs(d)
        for spec in m.group(2).split():
            name, host_at = spec.split("=")
            host, at = host_at.split("@")
            doc = json.loads(run(["--sysroot", root(name), "--json"]).stdout)
            doc["host"]["hostname"] = host
            doc["generated_at"] = at + "T00:00:00Z"
            with open(os.path.join(d, "%s-%s.json" % (host, at)), "w") as f:
                json.dump(doc, f)
        captures[m.group(1).rstrip("/")] = d
        continue
    if line.startswith("```"):
        inblock = not inblock
        if not inblock:
            fixture = None if not cmds or cmds[-1][2] != "keep" else fixture
        continue
    if inblock:
        cmds.append((i, line, fixture))

# join continuations (an escaped backslash in scdoc), one command a line
joined, acc, acc_fixture = [], "", None
for i, line, fx in cmds:
    if line.endswith("\\\\"):
        acc += line[:-2] + " "
        acc_fixture = fx
        continue
    joined.append((acc + line, fx if not acc else acc_fixture))
    acc = ""

for text, fx in joined:
    m = re.search(r"(?:^|\s)(dmamask-audit)(?=\s|$)", text)
    if not m:
        continue
    k = m.start(1)
    cmd = text[k:].split(" |")[0]
    try:
        words = shlex.split(cmd)[1:]
    except ValueError as e:
        tap(False, "man EXAMPLES: %s: %s" % (cmd, e))
        continue
    argv, j = [], 0
    while j < len(words):
        w = words[j]
        nxt = words[j + 1] if j + 1 < len(words) else None
        if w == "--output-file" and nxt:
            argv += [w, os.path.join(tmp, "out-" + os.path.basename(nxt))]
            j += 2
            continue
        if w == "--capture" and nxt:
            d = os.path.join(tmp, "cap-" + os.path.basename(nxt))
            captures[os.path.basename(nxt)] = d
            argv += [w, d]
            j += 2
            continue
        if w in ("--sysroot", "-s") and nxt:
            name = os.path.basename(nxt.rstrip("/"))
            argv += [w, captures.get(name, nxt)]
            j += 2
            continue
        argv.append(captures.get(w.rstrip("/"), w) if not w.startswith("-") else w)
        j += 1
    if fx and "--sysroot" not in argv and "-s" not in argv:
        argv = ["--sysroot", root(fx)] + argv
    p = run(argv)
    tap(p.returncode in (0, 1), "man EXAMPLES: %s (exit %d%s)" % (cmd, p.returncode,
        ", on " + fx if fx else ""), [] if p.returncode in (0, 1) else p.stdout.strip().split("\n")[-3:])

print("1..%d" % n)
subprocess.run(["rm", "-rf", tmp])
