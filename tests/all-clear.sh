#!/bin/bash
# The all-clear is earned: "No device needs action" (summary.all_clear, exit 0)
# only when the tool saw enough to say it. Runs out of file descriptors (live
# and through a capture, at several ulimit -n values), a masked /sys, a bus
# directory that could not be listed, MANIFEST error lines of every form, an
# unknown verdict, and the machine with no DMA device at all, which is fine.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures

# --- descriptors run short: exit 2 and one line, or the whole answer ---------
timeout 30 "$TOOL" --json > "$tmp/full.json" 2> /dev/null
full_rc=$?
full_n=$(jq '.devices | length' "$tmp/full.json" 2> /dev/null || echo -1)
full_v=$(jq -c '[.devices[] | [.id, .verdict]]' "$tmp/full.json" 2> /dev/null || echo null)
check "live, no limit: a report ($full_rc, $full_n devices)" test "$full_rc" -le 1 -a "$full_n" -ge 0
for n in 4 6 7 8 9 12 16 24; do
	# ulimit -n sets the hard limit too: the tool cannot raise it back
	(ulimit -n "$n" && exec timeout 30 "$TOOL" --json) > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ]; then
		check "live, ulimit -n $n: exit 2, nothing on stdout" test ! -s "$tmp/out"
		check "live, ulimit -n $n: one line naming the errno" \
			bash -c '[ "$(wc -l < "$1")" -eq 1 ] && grep -q "^dmamask-audit: reading .*: E[MN]FILE: .*no report" "$1"' _ "$tmp/err"
	else
		check "live, ulimit -n $n: the unlimited run's exit ($rc) and verdicts" \
			jqe "$tmp/out" '[.devices[] | [.id, .verdict]] == $v and .exit_status == $rc' \
			--argjson v "$full_v" --argjson rc "$full_rc"
	fi
done
for n in 8 12 16 24 64; do
	rm -rf "$tmp/cap"
	(ulimit -n "$n" && exec timeout 60 "$TOOL" --capture "$tmp/cap") > /dev/null 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ]; then
		check "capture, ulimit -n $n: exit 2 says the capture is incomplete" \
			grep -q "the capture is incomplete\|--capture .*incomplete" "$tmp/err"
		check "capture, ulimit -n $n: MANIFEST complete=0 with the errno" \
			bash -c 'grep -qx "complete=0" "$1" && grep -q "^incomplete_reason=.*E[MN]FILE" "$1"' _ "$tmp/cap/MANIFEST"
		timeout 30 "$TOOL" --sysroot "$tmp/cap" --json > "$tmp/replay.json" 2> /dev/null
		check "capture, ulimit -n $n: its replay exits 2 ($?)" test "$?" -eq 2
	else
		timeout 30 "$TOOL" --sysroot "$tmp/cap" --json > "$tmp/replay.json" 2> /dev/null
		check "capture, ulimit -n $n: complete, and its replay judges every device as live" \
			jqe "$tmp/replay.json" '[.devices[] | [.id, .verdict]] == $v' --argjson v "$full_v"
	fi
done
(ulimit -n 6 && exec timeout 30 "$TOOL" --format prometheus) > "$tmp/out" 2> /dev/null
check "live, ulimit -n 6, Prometheus: the failure's reason is out-of-file-descriptors" \
	grep -q '^dmamask_last_run_failure_info{reason="out-of-file-descriptors"} 1' "$tmp/out"
rm -rf "$tmp/cap"
(ulimit -n 5 && exec timeout 30 "$TOOL" --capture "$tmp/cap") > /dev/null 2> "$tmp/err"
check "capture, ulimit -n 5: exit 2, not blamed on a directory it made itself" \
	bash -c '! grep -q "not empty" "$1" && grep -q "Too many open files\|EMFILE" "$1"' _ "$tmp/err"
# a soft limit alone is the caller's, not ours: raised to the hard one, the whole answer
(ulimit -Sn 6 && exec timeout 30 "$TOOL" --json) > "$tmp/out" 2> /dev/null
check "live, soft ulimit -n 6: raised, the whole answer" \
	jqe "$tmp/out" '[.devices[] | [.id, .verdict]] == $v' --argjson v "$full_v"

# --- a /sys that shows no bus: no all-clear ---------------------------------
good=$(fixture_root x86-pc-4g) || exit 99
mkdir -p "$tmp/masked"
cp -r "$good/proc" "$good/MANIFEST" "$tmp/masked/"
mkdir -p "$tmp/masked/sys" # a container's empty tmpfs over /sys
timeout 30 "$TOOL" --sysroot "$tmp/masked" --json > "$tmp/out" 2> /dev/null
rc=$?
check "masked /sys: exit 1 ($rc)" test "$rc" -eq 1
check "masked /sys: devices-not-visible, an error, no all-clear" \
	jqe "$tmp/out" '.summary.all_clear == false and ([.findings[] | select(.id == "devices-not-visible" and .severity == "error")] | length) == 1'
timeout 30 "$TOOL" --sysroot "$tmp/masked" > "$tmp/out" 2> /dev/null
check "masked /sys: the text withholds \"No device needs action\"" \
	bash -c '! grep -q "^No device needs action" "$1" && grep -q "not all-clear: devices-not-visible" "$1"' _ "$tmp/out"
timeout 30 "$TOOL" --sysroot "$tmp/masked" --format prometheus > "$tmp/out" 2> /dev/null
check "masked /sys: Prometheus carries the machine-wide error" \
	grep -q '^dmamask_machine_finding{id="devices-not-visible",severity="error"} 1' "$tmp/out"

# --- a bus directory that could not be listed (a MANIFEST's recorded error) ---
for e in EACCES EMFILE EIO E200; do
	rm -rf "$tmp/denied"
	cp -r "$good" "$tmp/denied"
	chmod -R u+w "$tmp/denied"
	rm -rf "$tmp/denied/sys/bus/pci/devices"
	printf 'error.sys/bus/pci/devices=%s\n' "$e" >> "$tmp/denied/MANIFEST"
	timeout 30 "$TOOL" --sysroot "$tmp/denied" --json > "$tmp/out" 2> /dev/null
	rc=$?
	check "sys/bus/pci/devices $e: exit 1 ($rc)" test "$rc" -eq 1
	check "sys/bus/pci/devices $e: valid JSON" valid_json "$tmp/out"
	check "sys/bus/pci/devices $e: devices-not-visible names the path and the errno" \
		jqe "$tmp/out" '[.findings[] | select(.id == "devices-not-visible")] | length == 1 and .[0].evidence.path == "sys/bus/pci/devices" and .[0].evidence.errno == $e' --arg e "$e"
	check "sys/bus/pci/devices $e: the input keeps its errno" \
		jqe "$tmp/out" '[.inputs[] | select(.path == "sys/bus/pci/devices")][0].errno == $e' --arg e "$e"
done

# --- a listing denied to the capture stays denied in its replay -------------
# (the capture makes the directory; its MANIFEST's EACCES must win over the empty copy)
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	pub=$(mktemp -d /tmp/dmamask-deny.XXXXXX) && chmod 755 "$pub"
	cp -r "$good" "$pub/tree" && chmod -R a+rX "$pub/tree" && chmod 000 "$pub/tree/sys/bus/pci/devices"
	mkdir "$pub/cap" && chown 65534:65534 "$pub/cap"
	setpriv --reuid 65534 --regid 65534 --clear-groups \
		timeout 60 "$TOOL" --sysroot "$pub/tree" --capture "$pub/cap" > /dev/null 2>&1
	check "capture as nobody of a denied bus: the MANIFEST records EACCES" \
		grep -qx 'error.sys/bus/pci/devices=EACCES' "$pub/cap/MANIFEST"
	timeout 30 "$TOOL" --sysroot "$pub/cap" --json > "$tmp/out" 2> /dev/null
	check "its replay: the listing denied, devices-not-visible, as live" \
		jqe "$tmp/out" '([.inputs[] | select(.path == "sys/bus/pci/devices")][0].errno == "EACCES") and ([.findings[] | select(.id == "devices-not-visible")] | length) == 1'
	chmod 755 "$pub/tree/sys/bus/pci/devices"; rm -rf "$pub"
else
	skip "capture as nobody of a denied bus: needs root and setpriv"
fi

# --- a listed device that cannot be read is hidden, not absent -------------
for e in EIO EACCES; do
	rm -rf "$tmp/dev"
	cp -r "$good" "$tmp/dev"
	chmod -R u+w "$tmp/dev"
	rm -rf "$tmp/dev/sys/devices/pci0000:00/0000:00:1f.2"
	printf 'error.sys/bus/pci/devices/0000:00:1f.2=%s\n' "$e" >> "$tmp/dev/MANIFEST"
	timeout 30 "$TOOL" --sysroot "$tmp/dev" --json > "$tmp/out" 2> /dev/null
	rc=$?
	check "the AHCI's entry $e: exit 1 ($rc), no all-clear" test "$rc" -eq 1
	check "the AHCI's entry $e: devices-not-visible names it" \
		jqe "$tmp/out" '.summary.all_clear == false and ([.findings[] | select(.id == "devices-not-visible")][0].evidence | .path == "sys/bus/pci/devices/0000:00:1f.2" and .errno == $e)' --arg e "$e"
done
# a PCI bus listed empty (a tmpfs over it) while proc/iomem names its functions
rm -rf "$tmp/empty"
mkdir -p "$tmp/empty/sys/bus/pci/devices" "$tmp/empty/sys/bus/platform/devices"
cp -r "$good/proc" "$good/MANIFEST" "$tmp/empty/"
timeout 30 "$TOOL" --sysroot "$tmp/empty" --json > "$tmp/out" 2> /dev/null
check "PCI listed empty, iomem names functions: devices-not-visible, no all-clear" \
	jqe "$tmp/out" '.summary.all_clear == false and ([.findings[] | select(.id == "devices-not-visible") | .message | test("proc/iomem names PCI functions")] | any)'

# --- MANIFEST error lines: a number is an errno, anything else is damage ----
for v in 13 garbage "" E0; do
	rm -rf "$tmp/bad"
	cp -r "$good" "$tmp/bad"
	chmod -R u+w "$tmp/bad"
	printf 'error.sys/bus/pci/devices=%s\n' "$v" >> "$tmp/bad/MANIFEST"
	rm -rf "$tmp/bad/sys/bus/pci/devices"
	timeout 30 "$TOOL" --sysroot "$tmp/bad" --json > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$v" = 13 ]; then
		check "MANIFEST error value 13: read as EACCES" \
			jqe "$tmp/out" '[.inputs[] | select(.path == "sys/bus/pci/devices")][0].errno == "EACCES"'
	else
		check "MANIFEST error value \"$v\": the snapshot is incomplete, exit 2 ($rc)" \
			bash -c '[ "$1" -eq 2 ] && grep -q "holds no errno" "$2"' _ "$rc" "$tmp/err"
	fi
done
rm -rf "$tmp/link"
cp -r "$good" "$tmp/link"
chmod -R u+w "$tmp/link"
rm -f "$tmp/link/MANIFEST"
ln -s /nonexistent/MANIFEST "$tmp/link/MANIFEST"
timeout 30 "$TOOL" --sysroot "$tmp/link" > /dev/null 2>&1
check "a MANIFEST that is a link to nothing: incomplete, exit 2 ($?)" test "$?" -eq 2

# --- an error about a device no bus lists withholds the all-clear too -------
kio=$(fixture_root kernel-x86-pc-6g-noforce) || exit 99
rm -rf "$tmp/gone"
cp -r "$kio" "$tmp/gone"
chmod -R u+w "$tmp/gone"
rm -f "$tmp/gone/sys/bus/pci/devices/0000:00:01.1" "$tmp/gone/sys/bus/pci/devices/0000:00:02.0"
timeout 30 "$TOOL" --sysroot "$tmp/gone" > "$tmp/out" 2> /dev/null
check "dma-overflow-logged of a device no bus lists: no \"No device needs action\"" \
	bash -c '! grep -q "^No device needs action" "$1" && grep -q "dma-overflow-logged (error, a device no bus lists)" "$1"' _ "$tmp/out"

# --- the latent risk: bridges alone, or a pool placed out of reach -----------
nf=$(fixture_root x86-noforce) || exit 99
rm -rf "$tmp/nf"
cp -r "$nf" "$tmp/nf"
chmod -R u+w "$tmp/nf"
rm -f "$tmp/nf/sys/bus/pci/devices/0000:00:1f.2" "$tmp/nf/sys/bus/pci/devices/0000:01:00.0"
timeout 30 "$TOOL" --sysroot "$tmp/nf" --json > "$tmp/out" 2> /dev/null
check "no pool, bridges alone: no-bounce-pool (the next device is still to come)" \
	jqe "$tmp/out" '[.findings[] | select(.id == "no-bounce-pool")] | length == 1'
rm -rf "$tmp/high"
cp -r "$good" "$tmp/high"
chmod -R u+w "$tmp/high"
sed -i 's/0x00000000bbfe8000-0x00000000bffe8000/0x00000005bbfe8000-0x00000005bffe8000/' "$tmp/high/dev/kmsg"
rm -f "$tmp/high/sys/bus/pci/devices/0000:00:1f.2"
timeout 30 "$TOOL" --sysroot "$tmp/high" --json > "$tmp/out" 2> /dev/null
check "a pool above 4 GiB, RAM above it: no-bounce-pool names the pool" \
	jqe "$tmp/out" '[.findings[] | select(.id == "no-bounce-pool")] | length == 1 and .[0].evidence.pool_start == "0x5bbfe8000"'

# --- no DMA device at all, and the tool could tell: the all-clear stands -----
mkdir -p "$tmp/nodma/sys/bus/platform/devices" "$tmp/nodma/sys/bus/pci/devices"
cp -r "$good/proc" "$good/MANIFEST" "$tmp/nodma/"
# its own iomem names no PCI function: the bus really is empty
sed -i '/: [0-9a-f]\{4\}:[0-9a-f]\{2\}:[0-9a-f]\{2\}\.[0-7]$/d' "$tmp/nodma/proc/iomem"
sed -i 's/ swiotlb=noforce//' "$tmp/nodma/proc/cmdline"
timeout 30 "$TOOL" --sysroot "$tmp/nodma" --json > "$tmp/out" 2> /dev/null
rc=$?
check "no DMA device, buses listed: exit 0 ($rc)" test "$rc" -eq 0
check "no DMA device, buses listed: the all-clear, no devices-not-visible" \
	jqe "$tmp/out" '.summary.all_clear and ([.findings[] | select(.id == "devices-not-visible")] | length) == 0 and (.devices | length) == 0'

# --- an unknown verdict needs action ----------------------------------------
unk=$(fixture_root x86-pt-vendor-unknown) || exit 99
timeout 30 "$TOOL" --sysroot "$unk" > "$tmp/out" 2> /dev/null
check "unknown verdict: listed under Needs action, with how to know" \
	bash -c 'grep -q "^Needs action:" "$1" && grep -q "0000:00:1f.2 ahci .*unknown: .*(to know: " "$1"' _ "$tmp/out"
timeout 30 "$TOOL" --sysroot "$unk" --fail-on warning > /dev/null 2>&1
check "unknown verdict: --fail-on warning exits 1 ($?)" test "$?" -eq 1
timeout 30 "$TOOL" --sysroot "$unk" --fail-on info > /dev/null 2>&1
check "unknown verdict: --fail-on info exits 1 ($?)" test "$?" -eq 1
timeout 30 "$TOOL" --sysroot "$unk" --json > "$tmp/out" 2> /dev/null
check "unknown verdict: summary lists it, all_clear false" \
	jqe "$tmp/out" '.summary.all_clear == false and ([.summary.needs_action[] | select(.device == "0000:00:1f.2" and .verdict == "unknown")] | length) == 1'
tap_done
