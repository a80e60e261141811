#!/usr/bin/env python3
"""Every path a traced program touched, from `strace -ff -y -o PREFIX` files.

Usage: strace-paths.py CWD PREFIX.*

Prints one line per path syscall: "ok" or "fail", the syscall, and the path
as the host sees it: a path relative to a directory fd (-y shows its path) or
to the working directory is made absolute, an absolute one taken by a process
that chroot()ed is put under the directory it chrooted into, and an opened
file is named by the path of the fd it returned. Calls on an fd alone
(fstat with AT_EMPTY_PATH) are left out: the fd's opening is listed. A
process's own /proc/PID/ is shown as /proc/self/.
"""
import os
import re
import sys

LINE = re.compile(r'^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(?:<(.*?)>)?(.*)$')
FD = re.compile(r'^(?:AT_FDCWD|\d+)<(.*?)>, ')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
# syscalls whose second string is a path too
TWO_PATHS = {"rename", "renameat", "renameat2", "link", "linkat"}
# the first string is not a path the call touches
NOT_PATHS = {"memfd_create"}


def unescape(s):
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape")


def trace_file(path, cwd):
    root = None  # where the process chroot()ed, as the host sees it
    # -ff names each file PREFIX.PID: the process's own /proc/PID is /proc/self
    own = "/proc/%s/" % path.rsplit(".", 1)[-1]
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(line.strip())
        if not m:
            continue
        call, args, ret, ret_path, _ = m.groups()
        ok = ret != "?" and int(ret) >= 0
        if call == "fchdir" and ok:
            d = re.match(r'^\d+<(.*?)>', args)
            if d:
                cwd = d.group(1)
            continue
        if call in NOT_PATHS:
            continue
        base = cwd
        fd = FD.match(args)
        if fd:
            base = fd.group(1)
            args = args[fd.end():]
        strings = [unescape(s) for s in STRING.findall(args)]
        if not strings:
            continue
        paths = strings[:2] if call in TWO_PATHS else strings[:1]
        for p in paths:
            if p.startswith("/"):
                full = os.path.normpath(root + p) if root else p
            elif p == "":
                continue  # AT_EMPTY_PATH: an fd already open, its opening is listed
            else:
                full = os.path.normpath(os.path.join(base, p))
            if ok and ret_path and ret_path.startswith("/"):
                full = ret_path  # the file opened, links resolved
            if full.startswith(own):
                full = "/proc/self/" + full[len(own):]
            yield ("ok" if ok else "fail", call, full)
        if call == "chroot" and ok:
            root = base if strings[0] in (".", "") else os.path.join(base, strings[0])
        if call == "chdir" and ok:
            cwd = full


def main():
    cwd = sys.argv[1]
    for f in sys.argv[2:]:
        for status, call, p in trace_file(f, cwd):
            print(status, call, p)


if __name__ == "__main__":
    main()
