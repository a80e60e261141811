"""faketree: the one builder of fake sysroot trees in Python.

gen-fixtures.py (the fixture machines), tools/gen-big-machine.py (the
benchmarks' and capture tests' big machines) and tests/scale.sh build their
trees with it, so a tree is made one way: files with exact bytes, sysfs's
relative symlinks, devicetree cells. Python 3 standard library only.
"""

import os
import shutil
import struct


class Tree:
    def __init__(self, root):
        self.root = root
        self.links = []
        self._made = set()  # directories known to exist: 200,000 links need no makedirs each

    def _parent(self, p):
        d = os.path.dirname(p)
        if d not in self._made:
            os.makedirs(d, exist_ok=True)
            self._made.add(d)

    def _abs(self, path):
        assert not path.startswith("/") and ".." not in path.split("/"), path
        return os.path.join(self.root, path)

    def file(self, path, content=""):
        p = self._abs(path)
        self._parent(p)
        data = content.encode() if isinstance(content, str) else content
        with open(p, "wb") as f:
            f.write(data)

    def link(self, path, target):
        """A relative symlink at path to the root-relative target, as sysfs makes them."""
        p = self._abs(path)
        self._parent(p)
        rel = os.path.relpath(target, os.path.dirname(path) or ".")
        if os.path.lexists(p):
            assert os.readlink(p) == rel, (path, rel)
            return
        os.symlink(rel, p)
        self.links.append(path)

    def unlink(self, path):
        """Remove a file or a whole directory (a node another fixture made)."""
        p = self._abs(path)
        shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
        self._made = {d for d in self._made if d != p and not d.startswith(p + "/")}

    def check_links(self):
        for path in self.links:
            p = self._abs(path)
            assert os.path.exists(p), "dangling link %s -> %s" % (path, os.readlink(p))

    def dir(self, path):
        """An empty directory (mkdir -p)."""
        os.makedirs(self._abs(path), exist_ok=True)


def cells(*values):
    return struct.pack(">%dI" % len(values), *values)


def strings(*values):
    return b"".join(v.encode() + b"\0" for v in values)
