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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tools"))
import sideapt  # noqa: E402
from sideapt import SUITES, run  # noqa: E402,F401

CACHE = os.environ.get("DMAMASK_KERNELS_CACHE",
                       os.path.join(os.environ.get("XDG_CACHE_HOME",
                                                   os.path.expanduser("~/.cache")),
                                    "dmamask-audit", "kernels"))
# the suite a machine boots when it names none
DEFAULT_SUITE = "bookworm"

ARCHES = {
    "amd64": dict(flavours=("amd64",), triplet="x86_64-linux-gnu",
                  qemu="qemu-system-x86_64", cpu="qemu64", console="ttyS0"),
    # 686-pae: PAE page tables, so RAM above 4 GiB; bookworm is the last suite with
    # an i386 kernel (trixie and sid build none).
    # qemu-system-x86_64: under qemu-system-i386 (qemu32 +pae +nx +pse36, or
    # qemu64) a page table past 4 GiB had reserved bits set and 5.10 686-pae
    # oopsed ("Bad pagetable: 000a" in clear_user, kernel_init_free_pages)
    "i386": dict(flavours=("686-pae",), triplet="i386-linux-gnu",
                 qemu="qemu-system-x86_64", cpu="qemu64", console="ttyS0"),
    "arm64": dict(flavours=("arm64",), triplet="aarch64-linux-gnu",
                  qemu="qemu-system-aarch64", cpu="cortex-a57", console="ttyAMA0"),
    # armmp-lpae first: the default flavour; armmp is the 2-level (no LPAE) one
    "armhf": dict(flavours=("armmp-lpae", "armmp"), triplet="arm-linux-gnueabihf",
                  qemu="qemu-system-arm", cpu="cortex-a15", console="ttyAMA0"),
    # riscv64 is in Debian's main archive from trixie (bookworm's is on debian-ports):
    # its busybox and the tool's libraries come from there. -bios default: QEMU's
    # OpenSBI (qemu-system-data), which starts the kernel in S-mode at 0x80200000
    "riscv64": dict(flavours=("riscv64",), triplet="riscv64-linux-gnu",
                    qemu="qemu-system-riscv64", cpu="rv64", console="ttyS0",
                    first_suite="trixie", qemu_extra=["-bios", "default"]),
}


def sbin(tool):
    """A tool from /sbin or /usr/sbin, which a user's PATH may lack (depmod)."""
    return shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin") or tool


_APT = {}


def apt_for(suite):
    if suite not in _APT:
        _APT[suite] = sideapt.Apt(suite, CACHE, ARCHES)
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
        # /boot/vmlinuz-RELEASE, vmlinux-RELEASE (riscv64: an uncompressed Image), or
        # beside the modules (sid from 7.x)
        self.vmlinuz = next((p for p in (os.path.join(self.root, "boot", "vmlinuz-" + self.release),
                                         os.path.join(self.root, "boot", "vmlinux-" + self.release),
                                         os.path.join(self.moddir, "vmlinuz"),
                                         os.path.join(self.moddir, "vmlinux"))
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

    def dtb(self, name):
        """The package's own devicetree NAME (broadcom/bcm2837-rpi-3-b.dtb):
        usr/lib/linux-image-RELEASE/ (bookworm, trixie), lib/ before merged
        /usr (bullseye), or dtb/ beside the modules (sid from 7.x)."""
        for d in (os.path.join(self.root, "usr", "lib", "linux-image-" + self.release),
                  os.path.join(self.root, "lib", "linux-image-" + self.release),
                  os.path.join(self.moddir, "dtb")):
            if os.path.exists(os.path.join(d, name)):
                return os.path.join(d, name)
        raise RuntimeError("%s: no devicetree %s in %s" % (self.package, name, self.root))

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


# What the tool dlopen()s in a guest: libkmod names the module of an unbound
# device (src/readers/modules.c), and --what-if's "its driver may bind" needs it
DLOPENED = ["libkmod.so.2"]


def shared_libs(binary, triplet, root="/"):
    """BINARY's loader and shared libraries, recursively, as [(path in the
    guest, path on the host)]: the host's own, or those under ROOT (a foreign
    build's libraries, tools/foreign-root)."""
    libdirs = ["/lib/" + triplet, "/usr/lib/" + triplet, "/lib", "/usr/lib"]
    seen, todo, out = set(), [binary], []
    dlopened = list(DLOPENED)
    interp = re.search(r"Requesting program interpreter: (\S+)\]",
                       run(["readelf", "-l", binary]))
    if interp:
        out.append((interp.group(1), os.path.join(root, interp.group(1).lstrip("/"))))
    while todo:
        f = todo.pop()
        needed = re.findall(r"\(NEEDED\).*\[(.+)\]", run(["readelf", "-d", f]))
        for lib in needed + (dlopened if f == binary else []):
            if lib in seen:
                continue
            seen.add(lib)
            for d in libdirs:
                p = os.path.join(root, d.lstrip("/"), lib)
                if os.path.exists(p):
                    out.append((os.path.join(d, lib), p))
                    todo.append(p)
                    break
            else:
                raise RuntimeError("%s: %s not found for %s in %s" % (binary, lib, triplet, root))
    return out


def initramfs(kernel, modules, tool, init, out):
    """Write a gzip'd cpio to OUT: busybox, the modules (depmod'ed), the tool
    with its libraries and loader, and INIT as /init. Returns OUT."""
    arch = kernel.arch
    bb = unpack(apt_for(ARCHES[arch].get("first_suite", DEFAULT_SUITE)).fetch("busybox-static",
                                                                              arch))
    with tempfile.TemporaryDirectory() as stage:
        os.makedirs(os.path.join(stage, "bin"))
        # bookworm's in /bin, trixie's in /usr/bin (merged /usr)
        shutil.copy(next(p for p in (os.path.join(bb, "bin", "busybox"),
                                     os.path.join(bb, "usr", "bin", "busybox"))
                         if os.path.exists(p)), os.path.join(stage, "bin", "busybox"))
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
        # a foreign build names the root of its libraries (tools/cross)
        root = os.path.join(os.path.dirname(os.path.abspath(tool)), "foreign-root")
        for lib, host in shared_libs(tool, ARCHES[arch]["triplet"],
                                     root if os.path.isdir(root) else "/"):
            dst = stage + lib
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(host, dst)  # follows the soname link: the file itself
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

