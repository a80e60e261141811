"""Debian's own kernels of several generations and a busybox initramfs for
each guest architecture.

A kernel is (architecture, suite, flavour): the package the suite's
metapackage (linux-image-FLAVOUR) depends on today, never a hard-coded
version. Each suite has a side apt configuration of its own in the cache
(sources.list, package lists, apt's cache): the system's sources are never
read or changed. Packages are fetched with apt-get download into the cache,
outside the checkout, and unpacked there once: a second run downloads
nothing. A mirror caught mid-sync is tried again; then the suite fails
loudly, naming the package or the index and apt's reason.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CACHE = os.environ.get("DMAMASK_KERNELS_CACHE",
                       os.path.join(os.environ.get("XDG_CACHE_HOME",
                                                   os.path.expanduser("~/.cache")),
                                    "dmamask-audit", "kernels"))
MIRROR = os.environ.get("DMAMASK_KERNELS_MIRROR", "http://deb.debian.org/debian")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
# the generations, oldest first, and the one a machine gets when it names none
SUITES = ("bullseye", "bookworm", "trixie", "sid")
DEFAULT_SUITE = "bookworm"
# apt-get's waits between tries when a mirror is mid-sync (seconds)
RETRY_WAITS = [int(x) for x in os.environ.get("DMAMASK_KERNELS_RETRY", "10,30,60").split(",") if x]

ARCHES = {
    "amd64": dict(flavours=("amd64",), triplet="x86_64-linux-gnu",
                  qemu="qemu-system-x86_64", cpu="qemu64", console="ttyS0"),
    # 686-pae: PAE page tables, so RAM above 4 GiB; bullseye is the last suite with it
    "i386": dict(flavours=("686-pae",), triplet="i386-linux-gnu",
                 qemu="qemu-system-i386", cpu="qemu32,+pae,+nx", console="ttyS0"),
    "arm64": dict(flavours=("arm64",), triplet="aarch64-linux-gnu",
                  qemu="qemu-system-aarch64", cpu="cortex-a57", console="ttyAMA0"),
    # armmp-lpae first: the default flavour; armmp is the 2-level (no LPAE) one
    "armhf": dict(flavours=("armmp-lpae", "armmp"), triplet="arm-linux-gnueabihf",
                  qemu="qemu-system-arm", cpu="cortex-a15", console="ttyAMA0"),
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, **kw).stdout


def sbin(tool):
    """A tool from /sbin or /usr/sbin, which a user's PATH may lack (depmod)."""
    return shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin") or tool


class Apt:
    """apt-get and apt-cache on one suite, with a configuration of its own."""

    def __init__(self, suite):
        if suite not in SUITES:
            raise RuntimeError("unknown suite %s (known: %s)" % (suite, " ".join(SUITES)))
        self.suite = suite
        self.dir = os.path.join(CACHE, "apt", suite)
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
        for a in ARCHES:
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
        debs = os.path.join(CACHE, "debs")
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


_APT = {}


def apt_for(suite):
    if suite not in _APT:
        _APT[suite] = Apt(suite)
    return _APT[suite]


def unpack(deb, *more):
    """The deb (and MORE debs beside it) unpacked (once) in the cache, named after the first."""
    dest = os.path.join(CACHE, "root", os.path.basename(deb)[:-4])
    if not os.path.isdir(dest):
        tmp = dest + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        for d in (deb,) + more:
            subprocess.run(["dpkg-deb", "-x", d, tmp], check=True)
        os.rename(tmp, dest)
    return dest


def kernel_key(m):
    """The (arch, suite, flavour) a machine boots."""
    a = ARCHES[m["arch"]]
    flavour = m.get("flavour", a["flavours"][0])
    if flavour not in a["flavours"]:
        raise RuntimeError("%s: no flavour %s for %s" % (m["name"], flavour, m["arch"]))
    return (m["arch"], m.get("suite", DEFAULT_SUITE), flavour)


class Kernel:
    def __init__(self, arch, suite=DEFAULT_SUITE, flavour=None):
        self.arch, self.suite = arch, suite
        self.flavour = flavour or ARCHES[arch]["flavours"][0]
        apt = apt_for(suite)
        self.package = apt.again(apt.depends_on_image, "linux-image-" + self.flavour, arch)
        parts = apt.again(apt.image_parts, self.package, arch)
        self.root = unpack(apt.fetch(self.package, arch), *[apt.fetch(p, arch) for p in parts])
        # trixie on ship modules in /usr/lib/modules (merged /usr)
        mods = next((d for d in (os.path.join(self.root, "lib", "modules"),
                                 os.path.join(self.root, "usr", "lib", "modules"))
                     if os.path.isdir(d)), None)
        if mods is None:
            raise RuntimeError("%s: no lib/modules or usr/lib/modules in %s" % (self.package,
                                                                             self.root))
        self.release = os.listdir(mods)[0]
        self.moddir = os.path.join(mods, self.release)
        # /boot/vmlinuz-RELEASE, or beside the modules (sid from 7.x)
        self.vmlinuz = next((p for p in (os.path.join(self.root, "boot", "vmlinuz-" + self.release),
                                         os.path.join(self.moddir, "vmlinuz"))
                             if os.path.exists(p)), None)
        if not self.vmlinuz:
            raise RuntimeError("%s: no vmlinuz in %s" % (self.package, self.root))
        self.version = "%s %s (%s)" % (self.package, os.path.basename(self.root).split("_")[1],
                                       suite)
        if not os.path.exists(os.path.join(self.moddir, "modules.dep")):
            subprocess.run([sbin("depmod"), "-b", os.path.dirname(os.path.dirname(mods)),
                            self.release], check=True)
        self.deps = {}
        with open(os.path.join(self.moddir, "modules.dep")) as f:
            for line in f:
                path, _, rest = line.partition(":")
                name = os.path.basename(path).split(".ko")[0].replace("-", "_")
                self.deps[name] = (path, rest.split())
        self.builtin = set()
        with open(os.path.join(self.moddir, "modules.builtin")) as f:
            for line in f:
                self.builtin.add(os.path.basename(line.strip()).split(".ko")[0].replace("-", "_"))

    def module_files(self, names):
        """The .ko files of NAMES and of everything they depend on (none for a
        driver this kernel has built in)."""
        files = set()
        for n in names:
            n = n.replace("-", "_")
            if n not in self.deps:
                if n in self.builtin:
                    continue
                raise RuntimeError("%s: no module %s" % (self.release, n))
            path, deps = self.deps[n]
            files.add(path)
            files.update(deps)
        return sorted(files)


def shared_libs(binary, triplet):
    """BINARY's loader and shared libraries, recursively, as host paths."""
    libdirs = ["/lib/" + triplet, "/usr/lib/" + triplet, "/lib", "/usr/lib"]
    seen, todo, out = set(), [binary], []
    interp = re.search(r"Requesting program interpreter: (\S+)\]",
                       run(["readelf", "-l", binary]))
    if interp:
        out.append(interp.group(1))
    while todo:
        f = todo.pop()
        for lib in re.findall(r"\(NEEDED\).*\[(.+)\]", run(["readelf", "-d", f])):
            if lib in seen:
                continue
            seen.add(lib)
            for d in libdirs:
                p = os.path.join(d, lib)
                if os.path.exists(p):
                    out.append(p)
                    todo.append(p)
                    break
            else:
                raise RuntimeError("%s: %s not found for %s" % (binary, lib, triplet))
    return out


def initramfs(kernel, modules, tool, init, out):
    """Write a gzip'd cpio to OUT: busybox, the modules (depmod'ed), the tool
    with its libraries and loader, and INIT as /init. Returns OUT."""
    arch = kernel.arch
    bb = unpack(apt_for(DEFAULT_SUITE).fetch("busybox-static", arch))
    with tempfile.TemporaryDirectory() as stage:
        os.makedirs(os.path.join(stage, "bin"))
        shutil.copy(os.path.join(bb, "bin", "busybox"), os.path.join(stage, "bin", "busybox"))
        shutil.copy(init, os.path.join(stage, "init"))
        os.chmod(os.path.join(stage, "init"), 0o755)
        md = os.path.join(stage, "lib", "modules", kernel.release)
        for f in kernel.module_files(modules):
            # decompressed: busybox's modprobe need not know xz or zstd
            dst = os.path.join(md, re.sub(r"\.(xz|zst|gz)$", "", f))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            src = os.path.join(kernel.moddir, f)
            unz = {"xz": ["xz", "-dc"], "zst": ["zstd", "-dcq"], "gz": ["gzip", "-dc"]}.get(
                f.rsplit(".", 1)[-1])
            if unz:
                with open(dst, "wb") as o:
                    subprocess.run(unz + [src], check=True, stdout=o)
            else:
                shutil.copy(src, dst)
        for f in ("modules.order", "modules.builtin", "modules.builtin.modinfo"):
            if os.path.exists(os.path.join(kernel.moddir, f)):
                shutil.copy(os.path.join(kernel.moddir, f), md)
        subprocess.run([sbin("depmod"), "-b", stage, kernel.release], check=True)
        os.makedirs(os.path.join(stage, "usr", "bin"))
        shutil.copy(tool, os.path.join(stage, "usr", "bin", "dmamask-audit"))
        for lib in shared_libs(tool, ARCHES[arch]["triplet"]):
            dst = stage + lib
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(lib, dst)  # follows the soname link: the file itself
        # no pci.ids: names are not judged, and the snapshots stay small
        files = run(["find", ".", "-mindepth", "1"], cwd=stage)
        with open(out, "wb") as o:
            cpio = subprocess.Popen(["cpio", "--quiet", "-o", "-H", "newc", "-R", "0:0"],
                                    cwd=stage, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            gz = subprocess.Popen(["gzip", "-1"], stdin=cpio.stdout, stdout=o)
            cpio.stdin.write(files.encode())
            cpio.stdin.close()
            cpio.stdout.close()
            if cpio.wait() or gz.wait():
                raise RuntimeError("cpio | gzip failed for " + out)
    return out

