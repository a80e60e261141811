#!/bin/bash
# Snapshots as one file (issue 13, item 6): --capture FILE.tar.gz and .tar
# write one archive, atomically, never over a file, and leave no private
# directory behind however the run ends; --sysroot FILE.tar.gz replays it
# to the same audit as the directory. A hostile archive (paths that leave it,
# links to write through, device nodes, hard links, sizes past the limits,
# truncated or not an archive at all) is refused with one line, exit 2,
# nothing written outside the private directory and that removed.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures
good=$(fixture_root x86-pc-4g) || exit 99
mkdir "$tmp/t" "$tmp/out"
export TMPDIR=$tmp/t # where --sysroot FILE.tar.gz unpacks

same_audit() { # A.json B.json
	diff <(jq -S '{memory, devices, block, findings, exit_status, swiotlb, inputs, host: (.host | del(.sysroot, .captured_at))}' "$1") \
	     <(jq -S '{memory, devices, block, findings, exit_status, swiotlb, inputs, host: (.host | del(.sysroot, .captured_at))}' "$2") | diag
	return "${PIPESTATUS[0]}"
}
nothing_left() { # DIR: no private directory of ours in it
	test -z "$(find "$1" -maxdepth 1 -name '*dmamask-audit-*' | head -1)"
}

# capture into a directory and into each kind of archive; all replay alike
timeout 60 "$TOOL" --sysroot "$good" --capture "$tmp/out/dir" --json > "$tmp/dir-live.json" 2> /dev/null
timeout 60 "$TOOL" --sysroot "$tmp/out/dir" --json > "$tmp/dir.json" 2> /dev/null
for kind in tar.gz tgz tar; do
	f=$tmp/out/snap.$kind
	timeout 60 "$TOOL" --sysroot "$good" --capture "$f" --json > "$tmp/live.json" 2> "$tmp/err"
	rc=$?
	check "capture .$kind: exit as the directory capture did ($rc)" test "$rc" -eq "$(jq .exit_status "$tmp/dir-live.json")"
	check "capture .$kind: the same report as capturing into a directory" same_report "$tmp/live.json" "$tmp/dir-live.json"
	check "capture .$kind: one archive, a regular file" test -f "$f" -a ! -L "$f"
	check "capture .$kind: no private directory left beside it" nothing_left "$tmp/out"
	topt=z; [ "$kind" = tar ] && topt=
	tar "-t${topt}f" "$f" > "$tmp/list" 2> "$tmp/tar-err"
	check "capture .$kind: tar lists it, silently" test "$?" -eq 0 -a ! -s "$tmp/tar-err"
	check "capture .$kind: everything under one directory named after it" \
		bash -c '! grep -qv "^snap/\|^snap/$" "$1" && grep -qx "snap/MANIFEST" "$1"' _ "$tmp/list"
	mkdir -p "$tmp/x-$kind" && tar "-x${topt}f" "$f" -C "$tmp/x-$kind"
	check "capture .$kind: MANIFEST ends with complete=1" test "$(tail -1 "$tmp/x-$kind/snap/MANIFEST")" = complete=1
	check "capture .$kind: holds what the directory capture holds" \
		bash -c 'diff <(cd "$1" && find . | sort) <(cd "$2" && find . | sort) | head -5 | sed "s/^/# /"; exit "${PIPESTATUS[0]}"' _ "$tmp/x-$kind/snap" "$tmp/out/dir"
	timeout 60 "$TOOL" --sysroot "$f" --json > "$tmp/replay.json" 2> /dev/null
	check "replay .$kind: the same audit as replaying the directory" same_audit "$tmp/replay.json" "$tmp/dir.json"
	check "replay .$kind: the report names the archive as its sysroot" jqe "$tmp/replay.json" ".host.sysroot == \"$f\""
	check "replay .$kind: the unpacked copy is removed" nothing_left "$TMPDIR"
done
# what tar cJf, cjf and --zstd make replays too (libarchive's filters, in process)
for z in J:xz j:bz2 zstd:zst; do
	opt=${z%%:*} ext=${z#*:}
	if [ "$opt" = zstd ]; then
		command -v zstd > /dev/null || { check "zstd is installed (tools/setup)" false; continue; }
		(cd "$tmp/x-tar.gz" && tar --zstd -cf "$tmp/out/other.tar.$ext" snap)
	else
		(cd "$tmp/x-tar.gz" && tar "-c${opt}f" "$tmp/out/other.tar.$ext" snap)
	fi
	timeout 60 "$TOOL" --sysroot "$tmp/out/other.tar.$ext" --json > "$tmp/other.json" 2> "$tmp/other.err"
	check "replay a .tar.$ext made by tar: exit 0 or 1 ($(head -c 120 "$tmp/other.err"))" \
		test "$(jq .exit_status "$tmp/other.json" 2> /dev/null)" -le 1
	check "replay a .tar.$ext made by tar: the same audit as the directory" same_audit "$tmp/other.json" "$tmp/dir.json"
done
# a capture holds addresses and log records dmesg_restrict hides: its owner's only
check "capture modes: the directory and its subdirectories 0700" \
	test -z "$(find "$tmp/out/dir" -type d ! -perm 0700 | head -1)"
check "capture modes: every file 0600" test -z "$(find "$tmp/out/dir" -type f ! -perm 0600 | head -1)"
check "capture modes: the archive 0600" test "$(stat -c %a "$tmp/out/snap.tar.gz")" = 600
tar tvzf "$tmp/out/snap.tar.gz" > "$tmp/modes"
check "capture modes: the archive's entries drwx------ and -rw-------" \
	bash -c '! grep -v "^drwx------ \|^-rw------- \|^lrwxrwxrwx " "$1"' _ "$tmp/modes"
timeout 60 "$TOOL" --sysroot "$tmp/out/snap.tar" > "$tmp/replay.txt" 2> /dev/null
check "replay (text): the sysroot line names the archive" grep -q "^sysroot $tmp/out/snap.tar" "$tmp/replay.txt"
# a capture of a replayed archive into another archive: two private directories, both removed
timeout 60 "$TOOL" --sysroot "$tmp/out/snap.tar.gz" --capture "$tmp/out/again.tar.gz" --json > "$tmp/again.json" 2> /dev/null
check "archive to archive: written" test -f "$tmp/out/again.tar.gz"
check "archive to archive: nothing left in TMPDIR or beside it" bash -c 'nothing_left() { test -z "$(find "$1" -maxdepth 1 -name "*dmamask-audit-*" | head -1)"; }; nothing_left "$1" && nothing_left "$2"' _ "$TMPDIR" "$tmp/out"

# every fixture machine through a capture that keeps only the kernel log records parsed
# (the default): the replay judges as the fixture itself, and reads the log as it did
kfilter='{memory, devices, block, findings, exit_status, swiotlb, iommu, kernel, observation,
	kmsg: [.inputs[] | select(.path == "dev/kmsg") | del(.source)]}'
for name in $(fixtures); do
	root=$(fixture_root "$name") || continue
	[ -e "$root/dev/kmsg" ] || continue
	timeout 60 "$TOOL" --sysroot "$root" --json > "$tmp/f-orig.json" 2> /dev/null
	timeout 60 "$TOOL" --sysroot "$root" --capture "$tmp/out/f.tar.gz" --json > /dev/null 2>&1
	timeout 60 "$TOOL" --sysroot "$tmp/out/f.tar.gz" --json > "$tmp/f-replay.json" 2> /dev/null
	if jqe "$tmp/f-orig.json" '[.findings[] | select(.id == "snapshot-inconsistent")] | length > 0'; then
		# the capture's MANIFEST says the values the audit used (the kernel's files): the
		# contradiction of its source is not copied, the rest of the verdicts are
		check "$name: a capture does not carry its source's MANIFEST contradiction" jqe "$tmp/f-replay.json" \
			'[.findings[] | select(.id == "snapshot-inconsistent")] | length == 0'
		check "$name: the capture's replay judges as the source did" \
			bash -c 'diff <(jq -S "$1" "$2") <(jq -S "$1" "$3") | head -20 | sed "s/^/# /"; exit "${PIPESTATUS[0]}"' \
			_ '{devices, block, memory, kernel, host: (.host | {arch, kernel_release})}' "$tmp/f-orig.json" "$tmp/f-replay.json"
		rm -f "$tmp/out/f.tar.gz"
		continue
	fi
	check "$name: a capture of only the parsed log records replays alike" \
		bash -c 'diff <(jq -S "$1" "$2") <(jq -S "$1" "$3") | head -20 | sed "s/^/# /"; exit "${PIPESTATUS[0]}"' \
		_ "$kfilter" "$tmp/f-orig.json" "$tmp/f-replay.json"
	rm -f "$tmp/out/f.tar.gz"
done
# what is kept: a long log shrinks to the records that said something, and --capture-full-log keeps all
kroot=$(fixture_root kernel-x86-q35-iommu) || exit 99
timeout 60 "$TOOL" --sysroot "$kroot" --capture "$tmp/out/kept" > /dev/null 2>&1
timeout 60 "$TOOL" --sysroot "$kroot" --capture "$tmp/out/full" --capture-full-log > /dev/null 2>&1
check "kernel log: the kept records are a subset, in order" \
	bash -c 'diff "$1" "$2" | grep -q "^<" && ! diff "$1" "$2" | grep -q "^>"' _ "$tmp/out/full/dev/kmsg" "$tmp/out/kept/dev/kmsg"
check "kernel log: --capture-full-log keeps it whole" cmp -s "$kroot/dev/kmsg" "$tmp/out/full/dev/kmsg"
check "kernel log: MANIFEST says which (kernel_log=parsed-records, full)" \
	bash -c 'grep -qx kernel_log=parsed-records "$1/MANIFEST" && grep -qx kernel_log=full "$2/MANIFEST"' _ "$tmp/out/kept" "$tmp/out/full"
check "kernel log: --capture-full-log without --capture is a usage error" \
	bash -c '"$1" --capture-full-log > /dev/null 2>&1; [ $? -eq 2 ]' _ "$TOOL"

# the archives of real kernels' snapshots (tests/machines/*/root.tar.gz, made by GNU tar) are read as they are
for a in "$SRCDIR"/tests/machines/kernel-*/root.tar.gz; do
	name=$(basename "$(dirname "$a")")
	root=$(fixture_root "$name") || continue
	timeout 60 "$TOOL" --sysroot "$root" --json > "$tmp/k-dir.json" 2> /dev/null
	timeout 60 "$TOOL" --sysroot "$a" --json > "$tmp/k-tar.json" 2> /dev/null
	check "$name: root.tar.gz replays as its unpacked tree" same_audit "$tmp/k-tar.json" "$tmp/k-dir.json"
done
check "real kernels' archives: nothing left in TMPDIR" nothing_left "$TMPDIR"

# refusals: exit 2, one line, nothing written
refused() { # DESC WANT-IN-STDERR ARGS...
	local d=$1 want=$2; shift 2
	timeout 30 "$TOOL" "$@" > "$tmp/o" 2> "$tmp/e"
	local rc=$?
	check "$d: exit 2 ($rc)" test "$rc" -eq 2
	check "$d: one line naming the problem ($(head -c 160 "$tmp/e"))" \
		bash -c '[ "$(wc -l < "$1")" -eq 1 ] && grep -q -- "$2" "$1"' _ "$tmp/e" "$want"
	check "$d: nothing on stdout" test ! -s "$tmp/o"
	check "$d: no private directory left" bash -c 'test -z "$(find "$1" "$2" -maxdepth 1 -name "*dmamask-audit-*" | head -1)"' _ "$TMPDIR" "$tmp/out"
}
echo keep > "$tmp/out/exists.tar.gz"
refused "capture over an existing file" "exists: name a new file" --sysroot "$good" --capture "$tmp/out/exists.tar.gz"
check "capture over an existing file: the file is untouched" test "$(cat "$tmp/out/exists.tar.gz")" = keep
ln -s "$tmp/out/elsewhere.tar.gz" "$tmp/out/link.tar.gz"
refused "capture to a symlink" "is a symbolic link" --sysroot "$good" --capture "$tmp/out/link.tar.gz"
check "capture to a symlink: nothing written where it points" test ! -e "$tmp/out/elsewhere.tar.gz"
refused "capture into a missing directory" "No such file or directory" --sysroot "$good" --capture "$tmp/nowhere/x.tar.gz"
for ext in tar.xz tar.zst tar.bz2 zip; do
	refused "capture named .$ext" "names an archive this tool does not write" --sysroot "$good" \
		--capture "$tmp/out/x.$ext"
	check "capture named .$ext: nothing of that name made" test ! -e "$tmp/out/x.$ext"
done
# an empty name is a usage error, worded alike for each option (argp adds its --help hint)
for opt in --sysroot --capture --output-file; do
	timeout 10 "$TOOL" "$opt" "" > "$tmp/o" 2> "$tmp/e"
	rc=$?
	check "empty $opt: usage error, exit 2 ($rc)" test "$rc" -eq 2
	check "empty $opt: says \"$opt: empty name\" ($(head -1 "$tmp/e"))" \
		grep -qx -- "dmamask-audit: $opt: empty name" "$tmp/e"
done

# a signal halfway through: no archive, no private directory, the shell sees the signal
timeout 60 "$TOOL" --sysroot "$good" --capture "$tmp/out/int.tar.gz" --test-interrupt 5 > /dev/null 2> "$tmp/e"
rc=$?
check "interrupted capture: dies of SIGINT ($rc)" test "$rc" -eq 130
check "interrupted capture: says nothing was written" grep -q "interrupted by SIGINT; nothing written" "$tmp/e"
check "interrupted capture: no archive" test ! -e "$tmp/out/int.tar.gz"
check "interrupted capture: no private directory left" nothing_left "$tmp/out"
# SIGKILL of the run (the OOM killer's way): its parent still removes both private directories
timeout 60 "$TOOL" --sysroot "$tmp/out/snap.tar.gz" --capture "$tmp/out/killed.tar.gz" --test-interrupt 3:KILL > /dev/null 2> "$tmp/e"
rc=$?
check "killed capture of an archive: dies of SIGKILL ($rc)" test "$rc" -eq 137
check "killed capture of an archive: no archive" test ! -e "$tmp/out/killed.tar.gz"
check "killed capture of an archive: the unpacked copy and the capture are removed" \
	bash -c 'test -z "$(find "$1" "$2" -maxdepth 1 -name "*dmamask-audit-*" | head -1)"' _ "$TMPDIR" "$tmp/out"

# hostile archives, made by Python's tarfile
"$PYTHON" - "$tmp/h" <<'PY' || exit 99
import io, os, sys, tarfile, gzip
out = sys.argv[1]
os.makedirs(out)
def mk(name, entries, gz=True):
    with tarfile.open(os.path.join(out, name), "w:gz" if gz else "w") as t:
        for e in entries:
            kind, path = e[0], e[1]
            ti = tarfile.TarInfo(path)
            data = b""
            if kind == "file":
                data = e[2]
                ti.size = len(data)
            elif kind == "dir":
                ti.type = tarfile.DIRTYPE
            elif kind == "link":
                ti.type, ti.linkname = tarfile.SYMTYPE, e[2]
            elif kind == "hard":
                ti.type, ti.linkname = tarfile.LNKTYPE, e[2]
            elif kind == "chr":
                ti.type, ti.devmajor, ti.devminor = tarfile.CHRTYPE, 1, 3
            elif kind == "fifo":
                ti.type = tarfile.FIFOTYPE
            t.addfile(ti, io.BytesIO(data) if data else None)
base = [("dir", "s"), ("file", "s/MANIFEST", b"manifest_version=2\ncomplete=1\n"), ("dir", "s/proc")]
mk("abs.tar.gz", base + [("file", "/tmp/evil", b"x")])
mk("dotdot.tar.gz", base + [("file", "s/../../evil", b"x")])
mk("hard.tar.gz", base + [("hard", "s/proc/iomem", "s/MANIFEST")])
mk("chr.tar.gz", base + [("chr", "s/dev/kmsg")])
mk("fifo.tar.gz", base + [("fifo", "s/proc/iomem")])
mk("through.tar.gz", base + [("link", "s/sys", "../../canary"), ("file", "s/sys/evil", b"x")])
mk("over-link.tar.gz", base + [("link", "s/proc/iomem", "/etc/passwd"), ("file", "s/proc/iomem", b"x")])
mk("notsnap.tar.gz", [("dir", "etc"), ("file", "etc/hosts", b"127.0.0.1 localhost\n")])
mk("empty.tar", [], gz=False)
# a header that says 100 MiB, and no data: refused on the size, before any read
hdr = tarfile.TarInfo("s/proc/iomem"); hdr.size = 100 << 20
raw = io.BytesIO()
for e in base: # no end-of-archive blocks before the lying header
    ti = tarfile.TarInfo(e[1])
    if e[0] == "dir":
        ti.type = tarfile.DIRTYPE; raw.write(ti.tobuf(format=tarfile.GNU_FORMAT))
    else:
        ti.size = len(e[2]); raw.write(ti.tobuf(format=tarfile.GNU_FORMAT))
        raw.write(e[2] + b"\0" * (-len(e[2]) % 512))
raw.write(hdr.tobuf(format=tarfile.GNU_FORMAT))
raw.write(b"x" * 4096)
with gzip.open(os.path.join(out, "huge.tar.gz"), "wb") as f: f.write(raw.getvalue())
# a good archive cut in half
good = io.BytesIO()
with tarfile.open(fileobj=good, mode="w:gz") as t:
    for i in range(200):
        b = os.urandom(2048)
        ti = tarfile.TarInfo("s/sys/f%03d" % i); ti.size = len(b); t.addfile(ti, io.BytesIO(b))
open(os.path.join(out, "truncated.tar.gz"), "wb").write(good.getvalue()[: len(good.getvalue()) // 2])
open(os.path.join(out, "random.tar.gz"), "wb").write(os.urandom(4096))
open(os.path.join(out, "zero.tar.gz"), "wb").close()
PY
mkdir "$tmp/canary"
for c in "abs|an absolute path" "dotdot|an absolute path, '..'" "hard|a hard link" "chr|a device node" \
	 "fifo|a device node, FIFO" "through|a symbolic link is in its way" "over-link|a symbolic link is in its way" \
	 "huge|larger than any file" "truncated|truncated" "random|not a tar" "zero|not a tar" \
	 "empty|an empty archive" "notsnap|not a snapshot"; do
	n=${c%%|*} want=${c#*|}
	f=$tmp/h/$n.tar.gz; [ -f "$f" ] || f=$tmp/h/$n.tar
	refused "hostile archive $n" "$want" --sysroot "$f" --json
done
check "hostile archives: nothing written outside (/tmp/evil, canary/)" \
	bash -c '[ ! -e /tmp/evil ] && [ -z "$(ls -A "$1")" ] && [ ! -e "$2/evil" ]' _ "$tmp/canary" "$tmp"
# an absolute link inside the archive is read inside the snapshot, not on this machine
"$PYTHON" - "$tmp/h/abslink.tar.gz" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    ti = tarfile.TarInfo("s/MANIFEST"); b = b"manifest_version=2\ncomplete=1\n"; ti.size = len(b); t.addfile(ti, io.BytesIO(b))
    ti = tarfile.TarInfo("s/proc"); ti.type, ti.linkname = tarfile.SYMTYPE, "/proc"; t.addfile(ti)
PY
timeout 30 "$TOOL" --sysroot "$tmp/h/abslink.tar.gz" --json > "$tmp/abs.json" 2> /dev/null
check "absolute link in an archive: valid JSON" valid_json "$tmp/abs.json"
check "absolute link in an archive: this machine's /proc/iomem is not read" \
	jqe "$tmp/abs.json" '[.inputs[] | select(.path == "proc/iomem")][0].status != "ok"'
check "absolute link in an archive: nothing left in TMPDIR" nothing_left "$TMPDIR"

# a 2,000-deep chain of directories inside a real snapshot: each entry is
# made in the directory the entry before it made, not walked to from the top
"$PYTHON" - "$tmp/out/dir" "$tmp/h/deep.tar.gz" <<'PY' || exit 99
import sys, tarfile
with tarfile.open(sys.argv[2], "w:gz", format=tarfile.PAX_FORMAT) as t:
    t.add(sys.argv[1], arcname="s")
    p = "s/deep"
    for i in range(2000):
        ti = tarfile.TarInfo(p); ti.type = tarfile.DIRTYPE; ti.mode = 0o700; t.addfile(ti)
        p += "/d"
PY
timeout 120 "$TOOL" --sysroot "$tmp/h/deep.tar.gz" --json > "$tmp/deep.json" 2> "$tmp/e"
rc=$?
check "a 2,000-deep chain in a snapshot: audited, exit 0 or 1 ($rc: $(head -c 120 "$tmp/e"))" test "$rc" -le 1
check "a 2,000-deep chain in a snapshot: the same audit as the snapshot without it" \
	same_audit "$tmp/deep.json" "$tmp/dir.json"
if command -v strace > /dev/null; then
	strace -f -c -o "$tmp/deep.sc" "$TOOL" --sysroot "$tmp/h/deep.tar.gz" --json > /dev/null 2>&1
	n_open=$(awk '$NF == "openat2" || $NF == "openat" { n += $4 } END { print n + 0 }' "$tmp/deep.sc")
	# the walk from the top cost depth opens an entry: 2,007,010 openat2 for this archive
	check "a 2,000-deep chain: opens linear in the entries ($n_open, under 20,000)" test "$n_open" -lt 20000
else
	skip "a 2,000-deep chain: opens counted (needs strace)"
fi
refused "an archive that takes longer than the time limit to unpack" \
	"unpacking took longer than the limit (0.001 s) after [0-9]* entries: refused" \
	--sysroot "$tmp/h/deep.tar.gz" --test-unpack-ms 1 --json
tap_done
