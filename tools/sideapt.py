"""apt-get and apt-cache on one Debian suite through a configuration of
their own (sources.list, package lists, apt's cache in a directory the
caller names): the system's sources and dpkg's database are never read or
changed. A mirror caught mid-sync is tried again after each of RETRY_WAITS;
then the call fails, naming the package or index and apt's own words.
Used by the real-kernel suite (tests/kernels/kernels.py) and by
tools/foreign-root (the cross builds' libraries).
"""
import os
import re
import subprocess
import sys
import time

MIRROR = os.environ.get("DMAMASK_KERNELS_MIRROR", "http://deb.debian.org/debian")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
# the generations, oldest first
SUITES = ("bullseye", "bookworm", "trixie", "sid")
# apt-get's waits between tries when a mirror is mid-sync (seconds)
RETRY_WAITS = [int(x) for x in os.environ.get("DMAMASK_KERNELS_RETRY", "10,30,60").split(",") if x]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, **kw).stdout


class Apt:
    """apt-get and apt-cache on one suite, with a configuration of its own."""

    def __init__(self, suite, cache, arches, native=None):
        """SUITE's lists and debs under CACHE (apt/SUITE/, debs/), for the
        architectures ARCHES; NATIVE (default: apt's own) is the one a bare
        package name or a dependency resolves to."""
        if suite not in SUITES:
            raise RuntimeError("unknown suite %s (known: %s)" % (suite, " ".join(SUITES)))
        self.suite = suite
        self.debs = os.path.join(cache, "debs")
        self.dir = os.path.join(cache, "apt", suite if native is None else suite + "-" + native)
        self.lists = os.path.join(self.dir, "lists")
        os.makedirs(os.path.join(self.lists, "partial"), exist_ok=True)
        os.makedirs(os.path.join(self.dir, "cache", "archives", "partial"), exist_ok=True)
        sources = os.path.join(self.dir, "sources.list")
        signed = " [signed-by=%s]" % KEYRING if os.path.exists(KEYRING) else ""
        with open(sources, "w") as f:
            f.write("deb%s %s %s main\n" % (signed, MIRROR, suite))
        self.opts = ["-o", "Dir::Etc::sourcelist=" + sources, "-o", "Dir::Etc::sourceparts=-",
                     "-o", "Dir::State::Lists=" + self.lists,
                     "-o", "Dir::Cache=" + os.path.join(self.dir, "cache"),
                     "-o", "Dir::State::status=/dev/null",
                     # apt's sandbox user cannot write into root's cache: fetch as we are
                     "-o", "APT::Sandbox::User=" + ("root" if os.geteuid() == 0 else
                                                    os.environ.get("USER", "nobody"))]
        if native is not None:
            self.opts += ["-o", "APT::Architecture=" + native]
        for a in arches:
            self.opts += ["-o", "APT::Architectures::=" + a]
        self.fresh = False

    def _try(self, what, cmd, **kw):
        """CMD, tried again after each of RETRY_WAITS when it fails; the last
        failure raised with apt's own words."""
        for wait in RETRY_WAITS + [None]:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
            bad = [l for l in (p.stdout + p.stderr).splitlines()
                   if l.startswith(("E:", "Err:", "W: Failed")) or "Mirror sync in progress" in l
                   or "Hash Sum mismatch" in l or "unexpected size" in l]
            if p.returncode == 0 and not [l for l in bad if not l.startswith("W:")]:
                return p.stdout
            if wait is None:
                raise RuntimeError("%s (%s, %s): %s" % (what, self.suite, MIRROR,
                                                        "; ".join(bad[-4:]) or p.stderr.strip()[-400:]))
            print("# %s failed (%s); trying again in %d s" % (what, "; ".join(bad[-2:]), wait),
                  file=sys.stderr)
            time.sleep(wait)

    def update(self):
        """The suite's package lists, fetched once a run at most."""
        if not self.fresh:
            self._try("apt-get update", ["apt-get", "update", "-q"] + self.opts)
            self.fresh = True

    def cache(self, *args):
        """apt-cache ARGS on the suite's lists, which are fetched when missing."""
        if not any(n.endswith("Packages") or ".Packages" in n or "Packages." in n
                   for n in os.listdir(self.lists)):
            self.update()
        return run(["apt-cache"] + self.opts + list(args), stderr=subprocess.PIPE)

    def again(self, fn, *args):
        """fn(*args), once more on fresh lists when the cached ones are stale."""
        try:
            return fn(*args)
        except (subprocess.CalledProcessError, RuntimeError, AttributeError):
            if self.fresh:
                raise
            self.update()
            return fn(*args)

    def depends_on_image(self, meta, arch):
        """The linux-image-<release>-<flavour> package META:ARCH depends on."""
        out = self.cache("depends", "--no-recommends", "--no-suggests", "%s:%s" % (meta, arch))
        for line in out.splitlines():
            mo = re.match(r"\s*Depends:\s*(linux-image-\S+?)(:\S+)?$", line)
            if mo:
                return mo.group(1)
        raise RuntimeError("%s:%s in %s depends on no linux-image package" % (meta, arch, self.suite))

    def image_parts(self, pkg, arch):
        """The packages of the same version that hold the kernel image and its
        modules when the suite splits them off (sid from 7.x: linux-binary-*,
        linux-modules-*, and linux-base-* with modules.builtin and modules.order)."""
        out = self.cache("show", "--no-all-versions", "%s:%s" % (pkg, arch))
        mo = re.search(r"^Depends: (.*)$", out, re.M)
        return re.findall(r"(linux-(?:binary|modules|base)-\S+) \(= ", mo.group(1) if mo else "")

    def version(self, pkg, arch):
        out = self.cache("show", "--no-all-versions", "%s:%s" % (pkg, arch))
        mo = re.search(r"^Version: (\S+)", out, re.M)
        if not mo:
            raise RuntimeError("%s:%s: no version in %s" % (pkg, arch, self.suite))
        return mo.group(1)

    def fetch(self, pkg, arch):
        """Path of PKG:ARCH's .deb (this suite's version) in the cache, downloaded if not there."""
        debs = self.debs
        os.makedirs(debs, exist_ok=True)
        ver = self.again(self.version, pkg, arch)
        path = os.path.join(debs, "%s_%s_%s.deb" % (pkg, ver.replace(":", "%3a"), arch))
        if not os.path.exists(path):
            def download():
                self._try("apt-get download %s:%s=%s" % (pkg, arch, ver),
                          ["apt-get", "download", "-q"] + self.opts
                          + ["%s:%s=%s" % (pkg, arch, ver)], cwd=debs)
            try:
                download()
            except RuntimeError:
                if self.fresh:
                    raise
                self.update()  # a version the mirror has dropped: the lists were stale
                return self.fetch(pkg, arch)
        if not os.path.exists(path):
            raise RuntimeError("apt-get download %s:%s=%s left no %s" % (pkg, arch, ver, path))
        return path



    def closure(self, pkgs):
        """[(package, version, arch)] that installing PKGS into an empty
        system would unpack (apt-get's simulation: no lock, no dpkg)."""
        def simulate():
            out = self._try("apt-get -s install " + " ".join(pkgs),
                            ["apt-get", "-s", "-q", "install", "--no-install-recommends"]
                            + self.opts + list(pkgs))
            found = re.findall(r"^Inst (\S+) \((\S+) .*\[(\S+)\]\)", out, re.M)
            if not found:
                raise RuntimeError("apt-get -s install %s (%s): nothing to install" %
                                   (" ".join(pkgs), self.suite))
            return [(n.split(":")[0], v, a) for n, v, a in found]
        if not any("Packages" in n for n in os.listdir(self.lists)):
            self.update()
        return self.again(simulate)

    def fetch_all(self, wanted):
        """Paths of the debs of WANTED [(package, version, arch)], the missing
        ones downloaded in one apt-get call."""
        os.makedirs(self.debs, exist_ok=True)
        paths = [os.path.join(self.debs, "%s_%s_%s.deb" % (n, v.replace(":", "%3a"), a))
                 for n, v, a in wanted]
        missing = ["%s:%s=%s" % (n, a, v) for (n, v, a), p in zip(wanted, paths)
                   if not os.path.exists(p)]
        if missing:
            self._try("apt-get download " + " ".join(missing),
                      ["apt-get", "download", "-q"] + self.opts + missing, cwd=self.debs)
        for p in paths:
            if not os.path.exists(p):
                raise RuntimeError("apt-get download left no " + p)
        return paths
