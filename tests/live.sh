#!/bin/bash
# A live run on the machine the tests run on.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

timeout 30 "$TOOL" --json > "$tmp/live.json" 2> "$tmp/err"
rc=$?
check "live: exits 0 or 1 ($rc)" test "$rc" -le 1
check "live: JSON matches the schema" valid_json "$tmp/live.json"
check "live: host is live" jqe "$tmp/live.json" '.host.live == true and .host.sysroot == "/"'
check "live: page size is this process's ($(getconf PAGESIZE))" \
	jqe "$tmp/live.json" '.host.page_size == $p' --argjson p "$(getconf PAGESIZE)"
check "live: arch is uname -m" jqe "$tmp/live.json" '.host.arch == $a' --arg a "$(uname -m)"
check "live: release is uname -r" jqe "$tmp/live.json" '.host.kernel_release == $r' --arg r "$(uname -r)"
check "live: a memory layout was found" jqe "$tmp/live.json" '.memory.source != "none"'

# Outermost "System RAM" resources of /proc/iomem, summed independently of the tool.
iomem_ram_bytes() {
	local line indent depth range name start end sum=0 d inside
	local -a open=()
	while IFS= read -r line; do
		indent=${line%%[! ]*}; depth=$(( ${#indent} / 2 ))
		line=${line#"$indent"}; range=${line%% : *}; name=${line#* : }
		open=("${open[@]:0:$depth}")
		inside=0
		for d in "${open[@]}"; do [ "$d" = 1 ] && inside=1; done
		case "$name" in "System RAM"|"System RAM "*) open[$depth]=1 ;; *) open[$depth]=0 ;; esac
		if [ "${open[$depth]}" = 1 ] && [ $inside = 0 ]; then
			start=$((16#${range%-*})); end=$((16#${range#*-}))
			sum=$((sum + end - start + 1))
		fi
	done < /proc/iomem
	echo "$sum"
}

if [ "$(id -u)" = 0 ] && ! head -1 /proc/iomem | grep -q '^00000000-00000000'; then
	want=$(iomem_ram_bytes)
	got=$(jq .memory.ram_bytes "$tmp/live.json")
	check "live as root: source is iomem" jqe "$tmp/live.json" '.memory.source == "iomem"'
	check "live as root: ram_bytes $got equals the System RAM sum of /proc/iomem $want" test "$got" = "$want"
else
	skip "live as root: ram_bytes equals /proc/iomem (not root)"
fi

# Every PCI function of this machine is judged.
npci=$(ls /sys/bus/pci/devices 2>/dev/null | wc -l)
check "live: all $npci PCI functions are in devices[]" \
	test "$(jq '[.devices[] | select(.bus == "pci")] | length' "$tmp/live.json")" -eq "$npci"
for dev in $(ls /sys/bus/pci/devices 2>/dev/null); do
	check "live: $dev has a verdict and a reason" jqe "$tmp/live.json" \
		'[.devices[] | select(.id == $d)][0] | (.verdict | type == "string") and (.reason | length > 0)' \
		--arg d "$dev"
	if [ -e "/sys/bus/pci/devices/$dev/driver" ]; then
		drv=$(basename "$(readlink "/sys/bus/pci/devices/$dev/driver")")
		check "live: $dev driver is $drv" jqe "$tmp/live.json" \
			'[.devices[] | select(.id == $d)][0].driver == $v' --arg d "$dev" --arg v "$drv"
	else
		check "live: unbound $dev is idle" jqe "$tmp/live.json" \
			'[.devices[] | select(.id == $d)][0].verdict == "idle"' --arg d "$dev"
	fi
	bits=$(cat "/sys/bus/pci/devices/$dev/dma_mask_bits" 2>/dev/null)
	[ -n "$bits" ] && check "live: $dev dma_mask_bits is $bits" jqe "$tmp/live.json" \
		'[.devices[] | select(.id == $d)][0].dma_mask_bits == ($b | tonumber)' --arg d "$dev" --arg b "$bits"
done

# The fallback resolver must see exactly what openat2 sees.
timeout 30 "$TOOL" --json --resolver walk > "$tmp/walk.json" 2>&1
check "live: the walk resolver gives the same report" cmp -s <(normalise "$tmp/live.json") <(normalise "$tmp/walk.json")

timeout 30 "$TOOL" > "$tmp/live.txt" 2>&1
check "live: text output exits like JSON" test $? -eq "$rc"
if [ "$(getconf PAGESIZE)" = 4096 ]; then
	check "live: text output leaves the usual page size and the live sysroot to -v" \
		bash -c '! grep -q "page size\|^sysroot " "$1"' _ "$tmp/live.txt"
else
	check "live: text output names an unusual page size" grep -q "page size $(getconf PAGESIZE)" "$tmp/live.txt"
fi
timeout 30 "$TOOL" -v > "$tmp/live-v.txt" 2>&1
check "live: -v names the page size and its source" \
	grep -q "page size $(getconf PAGESIZE) (sysconf(_SC_PAGESIZE))" "$tmp/live-v.txt"
check "live: -v names the live sysroot" grep -qx "sysroot / (live)" "$tmp/live-v.txt"

# Unprivileged: /proc/iomem reads as zeros, the tool must fall back to zoneinfo.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups "$TOOL" --json > "$tmp/nobody.json" 2>&1
	nrc=$?
	check "live as nobody: exits 0 or 1 ($nrc)" test "$nrc" -le 1
	check "live as nobody: valid JSON" valid_json "$tmp/nobody.json"
	check "live as nobody: iomem-hidden reported, zoneinfo used" jqe "$tmp/nobody.json" '.memory.source == "zoneinfo" and ([.findings[].id] | index("iomem-hidden") != null)'
	check "live as nobody: same end_pfn as root" test \
		"$(jq .memory.end_pfn "$tmp/nobody.json")" = "$(jq .memory.end_pfn "$tmp/live.json")"
	timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups "$TOOL" --observe=1 \
		> /dev/null 2> "$tmp/nobody-observe.err"
	check "--observe as nobody: exit 2" test $? -eq 2
	check "--observe as nobody: one line that says root is needed" bash -c \
		'[ "$(wc -l < "$1")" = 1 ] && grep -q "needs root" "$1"' _ "$tmp/nobody-observe.err"
else
	skip "live as nobody (needs root and setpriv)"
fi

# --observe: a window where tracefs is mounted, else one line naming what is missing
timeout 60 "$TOOL" --observe=1 --json > "$tmp/observe.json" 2> "$tmp/observe.err"
orc=$?
if [ "$orc" -le 1 ]; then
	check "--observe: valid JSON with an observation" jqe "$tmp/observe.json" \
		'.observation.window_seconds >= 1 and .observation.interrupted == false'
	check "--observe: every device has an observed block" jqe "$tmp/observe.json" \
		'[.devices[] | .observed.prediction] | all(. != null)'
	check "--observe: its instance is gone" bash -c \
		'! ls /sys/kernel/tracing/instances /sys/kernel/debug/tracing/instances 2>/dev/null | grep -q "dmamask-audit-"'
	check "--observe: the disks' and interfaces' traffic was counted" jqe "$tmp/observe.json" \
		'.observation.traffic | type == "array" and length > 0'
	# with no pool, one line before the window says nothing can bounce; with one, none
	if jqe "$tmp/observe.json" '.swiotlb.active == false'; then
		check "--observe with no pool: one line says nothing can bounce" bash -c \
			'[ "$(wc -l < "$1")" = 1 ] && grep -q "no swiotlb pool on this system: nothing can bounce" "$1"' \
			_ "$tmp/observe.err"
	else
		check "--observe with a pool (or maybe one): no line on stderr" test ! -s "$tmp/observe.err"
	fi
	# I/O in the window: the disk under $tmp read with O_DIRECT (the page cache would hide it)
	src=$(findmnt -no SOURCE -T "$tmp" 2> /dev/null)
	disk=$(lsblk -no PKNAME "$src" 2> /dev/null | head -1)
	[ -n "$disk" ] || disk=$(lsblk -dno NAME "$src" 2> /dev/null | head -1)
	dev=$(jq -r --arg d "$disk" '[.block[] | select(.disk == $d) | .dma_device][0] // empty' "$tmp/observe.json")
	if [ -n "$dev" ] && dd if=/dev/zero of="$tmp/io" bs=1M count=16 oflag=direct 2> /dev/null; then
		( sleep 0.5; dd if="$tmp/io" of=/dev/null bs=64k iflag=direct 2> /dev/null ) &
		timeout 60 "$TOOL" --observe=2 --json > "$tmp/observe-io.json" 2> /dev/null
		wait
		check "--observe during I/O: $disk's device $dev counted it" jqe "$tmp/observe-io.json" \
			'(.devices[] | select(.id == $d)).observed | .io_operations >= 256 and
			 (.prediction | IN("no-traffic", "cannot-tell") | not)' --arg d "$dev"
	else
		skip "--observe during I/O: no DMA device under $tmp's disk (${disk:-none})"
	fi
	# the systemd drop-in's sandbox (contrib/systemd/dmamask-audit.service.d/observe.conf):
	# tracefs read-only as ProtectKernelTunables= makes it, instances/ alone writable
	t=/sys/kernel/tracing
	if [ -d "$t/instances" ] && command -v unshare > /dev/null; then
		unshare -m --propagation private sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
			timeout 30 "$2" --observe=1 --json > /dev/null' _ "$t" "$TOOL" 2> "$tmp/ro.err"
		check "--observe under a read-only tracefs: exit 2, and says it is read-only" \
			grep -q "Read-only file system" "$tmp/ro.err"
		unshare -m --propagation private sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
			mount --bind "$1/instances" "$1/instances" && mount -o remount,bind,rw "$1/instances" &&
			timeout 30 "$2" --observe=1 --json' _ "$t" "$TOOL" > "$tmp/rw.json" 2> /dev/null
		check "--observe with tracefs read-only but instances/ writable (observe.conf) observes" \
			jqe "$tmp/rw.json" '.observation.window_seconds >= 1'
	else
		skip "--observe under observe.conf's sandbox: needs $t and unshare"
	fi
else
	check "--observe unavailable: exit 2 ($orc)" test "$orc" -eq 2
	check "--observe unavailable: one line saying why" bash -c \
		'[ "$(wc -l < "$1")" = 1 ] && grep -q -e "needs root" -e "tracefs" -e "swiotlb_bounced" "$1"' \
		_ "$tmp/observe.err"
fi

# optional libraries are loaded only when needed (shared/dlopen-lib.h): ld.so says which it maps
loaded() { # ARGS...: the optional libraries a run maps, sorted, one line
	LD_DEBUG=files "$TOOL" "$@" 2>&1 > /dev/null |
		grep -oE 'file=lib(kmod|udev|archive)\.so\.[0-9]+' | sort -u | tr '\n' ' '
}
check "--version maps no optional library ($(loaded --version))" test -z "$(loaded --version)"
FIXTURE_TMP=$tmp/fixtures
snap=$(fixture_root x86-pc-4g) || exit 99
check "a snapshot's JSON maps no libudev or libarchive ($(loaded --sysroot "$snap" --json))" \
	bash -c '! grep -qE "udev|archive" <<< "$1"' _ "$(loaded --sysroot "$snap" --json)"
tar czf "$tmp/snap.tar.gz" -C "$snap" .
check "an archive maps libarchive ($(loaded --sysroot "$tmp/snap.tar.gz" --json))" \
	bash -c 'grep -q "libarchive" <<< "$1"' _ "$(loaded --sysroot "$tmp/snap.tar.gz" --json)"
# live sysfs has no device nodes whatever its mount flags (a machine may mount it without nodev):
# every attribute is read with one openat2, never checked first with fstatat (sysroot-dir.c mount_traits)
if command -v strace > /dev/null && [ "$(stat -f -c %T /sys)" = sysfs ]; then
	strace -f -e trace=newfstatat,openat2,openat -o "$tmp/live.st" "$TOOL" --json > /dev/null 2>&1
	n_attr=$(grep -cE 'openat2\([0-9]+, "(dma_mask_bits|numa_node|uevent)"' "$tmp/live.st")
	n_stat=$(grep -cE '(newfstatat|openat)\([0-9]+, "(dma_mask_bits|numa_node|uevent)"' "$tmp/live.st")
	check "live sysfs ($(findmnt -no OPTIONS /sys)): attributes read with one openat2 ($n_attr), none stat()ed first ($n_stat)" \
		test "$n_attr" -gt 0 -a "$n_stat" = 0
else
	skip "live sysfs: needs strace and sysfs on /sys"
fi
tap_done
