"""Debian's own kernels and a busybox initramfs for each guest architecture.

Kernels are the packages Debian's metapackages depend on today (never a
hard-coded version), fetched with apt-get download into a cache outside the
checkout and unpacked there once: a second run downloads nothing.
"""
import os
import re
import shutil
import subprocess
import tempfile

CACHE = os.environ.get("DMAMASK_KERNELS_CACHE",
                       os.path.join(os.environ.get("XDG_CACHE_HOME",
                                                   os.path.expanduser("~/.cache")),
                                    "dmamask-audit", "kernels"))

ARCHES = {
    "amd64": dict(meta="linux-image-amd64", triplet="x86_64-linux-gnu",
                  qemu="qemu-system-x86_64", cpu="qemu64", console="ttyS0"),
    "arm64": dict(meta="linux-image-arm64", triplet="aarch64-linux-gnu",
                  qemu="qemu-system-aarch64", cpu="cortex-a57", console="ttyAMA0"),
    "armhf": dict(meta="linux-image-armmp-lpae", triplet="arm-linux-gnueabihf",
                  qemu="qemu-system-arm", cpu="cortex-a15", console="ttyAMA0"),
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, **kw).stdout


def sbin(tool):
    """A tool from /sbin or /usr/sbin, which a user's PATH may lack (depmod)."""
    return shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin") or tool


def apt_update():
    """Fresh package lists: the metapackage may point at a kernel the cached lists do not know."""
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["apt-get", "update", "-q"], check=True, stdout=subprocess.DEVNULL)


def apt(fn, *args):
    """fn(*args), once more after apt-get update when the lists are missing or stale."""
    try:
        return fn(*args)
    except (subprocess.CalledProcessError, RuntimeError, AttributeError):
        apt_update()
        return fn(*args)


def kernel_package(arch):
    """The linux-image-<release>-<flavour> package the metapackage depends on."""
    out = run(["apt-cache", "depends", "--no-recommends", "--no-suggests",
               "%s:%s" % (ARCHES[arch]["meta"], arch)])
    for line in out.splitlines():
        m = re.match(r"\s*Depends:\s*(linux-image-\S+?)(:\S+)?$", line)
        if m:
            return m.group(1)
    raise RuntimeError("%s:%s depends on no linux-image package" % (ARCHES[arch]["meta"], arch))


def fetch(pkg, arch):
    """Path of PKG:ARCH's .deb in the cache, downloaded if not there."""
    debs = os.path.join(CACHE, "debs")
    os.makedirs(debs, exist_ok=True)
    ver = run(["apt-cache", "show", "--no-all-versions", "%s:%s" % (pkg, arch)])
    ver = re.search(r"^Version: (\S+)", ver, re.M).group(1)
    name = "%s_%s_%s.deb" % (pkg, ver.replace(":", "%3a"), arch)
    path = os.path.join(debs, name)
    if not os.path.exists(path):
        # apt's sandbox user cannot write into root's cache: download as we are
        subprocess.run(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root",
                        "%s:%s=%s" % (pkg, arch, ver)], cwd=debs, check=True,
                       stdout=subprocess.DEVNULL)
    return path


def unpack(deb):
    """The deb unpacked (once) in the cache."""
    dest = os.path.join(CACHE, "root", os.path.basename(deb)[:-4])
    if not os.path.isdir(dest):
        tmp = dest + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
        os.rename(tmp, dest)
    return dest


class Kernel:
    def __init__(self, arch):
        self.arch = arch
        self.package = apt(kernel_package, arch)
        self.root = unpack(apt(fetch, self.package, arch))
        mods = os.path.join(self.root, "lib", "modules")
        self.release = os.listdir(mods)[0]
        self.moddir = os.path.join(mods, self.release)
        self.vmlinuz = os.path.join(self.root, "boot", "vmlinuz-" + self.release)
        self.version = self.package + " " + os.path.basename(self.root).split("_")[1]
        if not os.path.exists(os.path.join(self.moddir, "modules.dep")):
            subprocess.run([sbin("depmod"), "-b", self.root, self.release], check=True)
        self.deps = {}
        with open(os.path.join(self.moddir, "modules.dep")) as f:
            for line in f:
                path, _, rest = line.partition(":")
                name = os.path.basename(path).split(".ko")[0].replace("-", "_")
                self.deps[name] = (path, rest.split())

    def module_files(self, names):
        """The .ko files of NAMES and of everything they depend on."""
        files = set()
        for n in names:
            n = n.replace("-", "_")
            if n not in self.deps:
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
    bb = unpack(apt(fetch, "busybox-static", arch))
    with tempfile.TemporaryDirectory() as stage:
        os.makedirs(os.path.join(stage, "bin"))
        shutil.copy(os.path.join(bb, "bin", "busybox"), os.path.join(stage, "bin", "busybox"))
        shutil.copy(init, os.path.join(stage, "init"))
        os.chmod(os.path.join(stage, "init"), 0o755)
        md = os.path.join(stage, "lib", "modules", kernel.release)
        for f in kernel.module_files(modules):
            dst = os.path.join(md, f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(os.path.join(kernel.moddir, f), dst)
        for f in ("modules.order", "modules.builtin", "modules.builtin.modinfo"):
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

