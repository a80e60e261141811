#!/bin/bash
# The Prometheus textfile output and what ships around it:
#  - every fixture machine's --format prometheus passes `promtool check metrics`
#    and our own lint (HELP and TYPE, dmamask_ names, samples together, one
#    label set per metric, no duplicate series, valid UTF-8);
#  - a made-up machine whose device names need escaping, and one that knows
#    no memory layout (a machine-wide finding in its own family);
#  - the --observe window from the replayed snapshot that holds one;
#  - --output-file: atomic, mode from the umask, no temporary file left, exit 2
#    on error (tests/output.sh has the rest: refusals, write errors, signals);
#  - a failed run keeps the last report's metrics and says why, from a fixed
#    set of reasons (dmamask_last_run_failure_info);
#  - a real node_exporter on 127.0.0.1 reads the file without a scrape error;
#  - contrib/: the systemd units pass `systemd-analyze verify`, with and
#    without the observing drop-in (observe.conf), the Ansible
#    fact prints JSON whatever happens.
# promtool, node_exporter, curl and systemd-analyze are needed: without them
# the checks are skipped, or fail when CI=true.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d) || exit 99
exporter_pid=
cleanup() {
	if [ -n "$exporter_pid" ]; then
		kill "$exporter_pid" 2> /dev/null
		wait "$exporter_pid" 2> /dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# need DESCRIPTION COMMAND...: true when every command is installed; else one
# TAP line: not ok under CI=true (CI must install them), skipped elsewhere
need() {
	local d="$1" c missing=()
	shift
	for c in "$@"; do
		command -v "$c" > /dev/null 2>&1 || missing+=("$c")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "${CI:-}" = true ]; then
		not_ok "$d: ${missing[*]} not installed (CI=true: required)"
	else
		skip "$d: ${missing[*]} not installed"
	fi
	return 1
}

# absent PATTERN FILE: no line of FILE matches
absent() {
	! grep -q "$1" "$2"
}

# lint FILE: the exposition format's rules, checked without promtool
lint() {
	LC_ALL=C awk '
	function bad(msg) { printf "line %d: %s\n", NR, msg; failed = 1 }
	/^# HELP / {
		if ($3 !~ /^dmamask_[a-z0-9_]*$/) bad($3 ": name not dmamask_[a-z0-9_]*")
		if ($3 in help) bad($3 ": second HELP")
		if (NF < 4) bad($3 ": empty HELP")
		help[$3] = 1
		next
	}
	/^# TYPE / {
		if (!($3 in help)) bad($3 ": TYPE without HELP before it")
		if ($3 in type) bad($3 ": second TYPE")
		if ($4 != "gauge") bad($3 ": type " $4 ", not gauge")
		type[$3] = $4
		next
	}
	/^#/ { bad("comment that is neither HELP nor TYPE"); next }
	{
		if (!match($0, /^[a-zA-Z_:][a-zA-Z0-9_:]*/)) { bad("not a sample: " $0); next }
		name = substr($0, 1, RLENGTH)
		rest = substr($0, RLENGTH + 1)
		if (name !~ /^dmamask_/) bad(name ": name not dmamask_")
		if (!(name in help) || !(name in type)) bad(name ": no HELP and TYPE before it")
		if (name != cur) {
			if (name in seen) bad(name ": samples not together")
			seen[name] = 1
			cur = name
		}
		labels = ""
		series = name
		if (substr(rest, 1, 1) == "{") {
			state = "name"; lname = ""; closed = 0
			for (i = 2; i <= length(rest) && !closed; i++) {
				c = substr(rest, i, 1)
				if (state == "name") {
					if (c == "=") {
						if (lname !~ /^[a-zA-Z_][a-zA-Z0-9_]*$/) bad(name ": label name \"" lname "\"")
						labels = labels "," lname; lname = ""; state = "eq"
					} else if (c == "}" && lname == "") closed = 1
					else lname = lname c
				} else if (state == "eq") {
					if (c != "\"") { bad(name ": label value not quoted"); break }
					state = "value"
				} else if (state == "value") {
					if (c == "\\") {
						e = substr(rest, ++i, 1)
						if (e != "\\" && e != "\"" && e != "n") bad(name ": escape \\" e)
					} else if (c == "\"") state = "after"
				} else if (c == ",") state = "name"
				else if (c == "}") closed = 1
				else { bad(name ": junk after a label value"); break }
			}
			if (!closed) bad(name ": labels not closed")
			series = name substr(rest, 1, i - 1)
			rest = substr(rest, i)
		}
		if (!(name in sig)) sig[name] = labels
		else if (sig[name] != labels) bad(name ": label names " labels " differ from " sig[name])
		if (series in all) bad("duplicate series " series)
		all[series] = 1
		if (rest !~ /^ -?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) bad(name ": value \"" rest "\"")
	}
	END {
		for (n in help) if (!(n in seen)) bad(n ": HELP without samples")
		exit failed
	}' "$1" 2>&1 | diag
	[ "${PIPESTATUS[0]}" -eq 0 ] || return 1
	# label values hold device names: any byte; the output must be UTF-8
	iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1
}

have_promtool=false
need "promtool check metrics" promtool && have_promtool=true

# promtool_ok NAME FILE: `promtool check metrics` accepts FILE with no lint problem
promtool_ok() {
	local out rc
	out=$(promtool check metrics < "$2" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ -z "$out" ]; then
		ok "$1: promtool check metrics"
	else
		not_ok "$1: promtool check metrics (exit $rc)"
		printf '%s\n' "$out" | diag
	fi
}

# check_output NAME FILE RC: every check of one --format prometheus output
check_output() {
	local name="$1" f="$2" rc="$3"
	check "$name: exits 0 or 1 ($rc)" test "$rc" -le 1
	check "$name: output is not empty" test -s "$f"
	if lint "$f" > "$tmp/lint" 2>&1; then
		ok "$name: HELP, TYPE, dmamask_ names, one label set per metric, UTF-8"
	else
		not_ok "$name: HELP, TYPE, dmamask_ names, one label set per metric, UTF-8"
		diag < "$tmp/lint"
	fi
	$have_promtool && promtool_ok "$name" "$f"
	check "$name: dmamask_exit_status is the exit status $rc" \
		grep -qx "dmamask_exit_status $rc" "$f"
	# a machine-wide finding is dmamask_machine_finding, and every device has a name
	check "$name: no device=\"\" label" absent 'device=""' "$f"
}

# ---- the alert and recording rules: promtool's own unit tests over time ----
if $have_promtool; then
	check "rules: promtool check rules" promtool check rules "$SRCDIR/contrib/prometheus/dmamask-audit.rules.yml"
	out=$(cd "$SRCDIR/tests/prometheus" && promtool test rules ./*.test.yml 2>&1)
	rc=$?
	printf '%s\n' "$out" | diag
	check "rules: promtool test rules (tests/prometheus/*.test.yml)" test "$rc" -eq 0
fi

# ---- (a) every fixture machine ----
FIXTURE_TMP=$tmp/fixtures
first_fixture=
for name in $(fixtures); do
	d="$SRCDIR/tests/machines/$name"
	root=$(fixture_root "$name") || { not_ok "$name: fixture builds"; continue; }
	[ -n "$first_fixture" ] || first_fixture=$root
	args=()
	[ -f "$d/args" ] && read -r -a args < "$d/args"
	# --format last: it wins over any in args
	"$TOOL" --sysroot "$root" "${args[@]}" --format prometheus \
		> "$tmp/$name.prom" 2> "$tmp/$name.err"
	check_output "$name" "$tmp/$name.prom" $?
done

# ---- a made-up machine: devices, one of them named to need escaping ----
odd="$tmp/odd-root"
mkdir -p "$odd/proc" "$odd/sys/bus/pci/devices" "$odd/sys/bus/platform/devices" \
	"$odd/sys/firmware/devicetree/base/soc/odd" || exit 99
printf 'arch=x86_64\npage_size=4096\nkernel_release=6.1.0-odd\n' > "$odd/MANIFEST"
cat > "$odd/proc/iomem" << 'EOF'
00001000-0009fbff : System RAM
00100000-bfffffff : System RAM
100000000-23fffffff : System RAM
EOF
# pci_fn ADDRESS MASK_BITS [DRIVER]
pci_fn() {
	local p="$odd/sys/devices/pci0000:00/$1"
	mkdir -p "$p"
	echo 0x8086 > "$p/vendor"
	echo 0x10d3 > "$p/device"
	echo 0x8086 > "$p/subsystem_vendor"
	echo 0x0000 > "$p/subsystem_device"
	echo 0x020000 > "$p/class"
	echo "$2" > "$p/dma_mask_bits"
	echo "$2" > "$p/consistent_dma_mask_bits"
	echo -1 > "$p/numa_node"
	ln -s "../../../devices/pci0000:00/$1" "$odd/sys/bus/pci/devices/$1"
	if [ -n "${3:-}" ]; then
		mkdir -p "$odd/sys/bus/pci/drivers/$3"
		ln -s "../../../bus/pci/drivers/$3" "$p/driver"
	fi
}
pci_fn 0000:00:02.0 64 e1000e
pci_fn 0000:00:03.0 32 snd_hda_intel
pci_fn 0000:00:04.0 32
# a platform device name with " \ newline, a lone 0xff, a truncated sequence,
# and controls a terminal obeys (ESC, BEL, DEL, the C1 CSI) beside a tab
odd_name=$(printf 'we"ird\\dev\nnl\377\303(.x\033[31m\007\177\302\233\t.y')
mkdir "$odd/sys/bus/platform/devices/$odd_name" &&
	ln -s ../../../../firmware/devicetree/base/soc/odd "$odd/sys/bus/platform/devices/$odd_name/of_node" ||
	exit 99
odd_label=$(printf 'device="we\\"ird\\\\dev\\nnl\357\277\275\357\277\275(.x\357\277\275[31m\357\277\275\357\277\275\357\277\275\t.y"')

"$TOOL" --sysroot "$odd" --format prometheus > "$tmp/odd.prom" 2> "$tmp/odd.err"
odd_rc=$?
check_output odd "$tmp/odd.prom" "$odd_rc"
check "odd: the device name is escaped and made UTF-8, each control U+FFFD" grep -qF "$odd_label" "$tmp/odd.prom"
check "odd: no control byte but tab and newline anywhere in the file" \
	bash -c '! LC_ALL=C grep -qE "$1" "$2"' _ $'[\x01-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$tmp/odd.prom"
check "odd: four devices by verdict" \
	test "$(awk '/^dmamask_devices\{/ { n += $2 } END { print n + 0 }' "$tmp/odd.prom")" -eq 4
check "odd: a 32-bit device misses the RAM above 4 GiB" \
	grep -q '^dmamask_device_unreachable_ram_bytes{device="0000:00:03.0",driver="snd_hda_intel"} 5368709120$' \
	"$tmp/odd.prom"
check "odd: an unbound device has driver=\"\" and its verdict" \
	grep -q '^dmamask_device_verdict{device="0000:00:04.0",driver="",pci_id="8086:10d3",verdict="idle"} 1$' "$tmp/odd.prom"
check "odd: a platform device's verdict series has pci_id=\"\" (one label set a family)" \
	bash -c 'grep "^dmamask_device_verdict{" "$1" | grep -v "pci_id=\"8086:10d3\"" | grep -q "pci_id=\"\",verdict="' _ "$tmp/odd.prom"
check "odd: one verdict series a device" \
	test "$(grep -c '^dmamask_device_verdict{' "$tmp/odd.prom")" -eq 4
check "odd: an idle device has no numeric gauges" \
	absent '^dmamask_device_[a-z_]*{device="0000:00:04.0"' <(grep -v '^dmamask_device_verdict' "$tmp/odd.prom")
check "odd: each finding is a series naming its device" \
	grep -q '^dmamask_finding{id="bounce-needed",severity="warning",device="0000:00:03.0"} 1$' "$tmp/odd.prom"
check "odd: the run succeeded, and says when" \
	bash -c 'grep -qx "dmamask_last_run_success 1" "$1" && grep -Eq "^dmamask_last_run_timestamp_seconds [0-9]{10}$" "$1"' _ "$tmp/odd.prom"
check "odd: every verdict counted, zeros included" \
	test "$(grep -c '^dmamask_devices{verdict=' "$tmp/odd.prom")" -eq 7
check "odd: one finding family: no per-id or per-severity counts beside it" \
	absent '^dmamask_findings' "$tmp/odd.prom"
check "odd: the mask's bit width" \
	grep -qx 'dmamask_device_dma_mask_bit_width{device="0000:00:03.0",driver="snd_hda_intel"} 32' "$tmp/odd.prom"
check "odd: not observed: no window" absent '^dmamask_observe_window_seconds' "$tmp/odd.prom"
check "odd: no fake 0 for the unknown swiotlb use" \
	absent '^dmamask_swiotlb_used_bytes' "$tmp/odd.prom"

# ---- a machine that knows no memory layout: a machine-wide error finding ----
nomem="$tmp/nomem-root"
mkdir -p "$nomem/proc" "$nomem/sys" || exit 99
printf 'arch=x86_64\npage_size=4096\nkernel_release=6.1.0-nomem\n' > "$nomem/MANIFEST"
"$TOOL" --sysroot "$nomem" --format prometheus > "$tmp/nomem.prom" 2> "$tmp/nomem.err"
check_output nomem "$tmp/nomem.prom" $?
check "nomem: the machine-wide finding in its own family, without a device label" \
	grep -qx 'dmamask_machine_finding{id="memory-layout-unknown",severity="error"} 1' "$tmp/nomem.prom"
check "nomem: no device finding" absent '^dmamask_finding{' "$tmp/nomem.prom"

# ---- the snapshot that holds an --observe window: its length ----
if [ -f "$tmp/x86-observed.prom" ]; then
	check "x86-observed: dmamask_observe_window_seconds is the window (5.000 s)" \
		grep -qx 'dmamask_observe_window_seconds 5' "$tmp/x86-observed.prom"
	check "x86-observed: one window sample" \
		test "$(grep -c '^dmamask_observe_window_seconds' "$tmp/x86-observed.prom")" -eq 1
else
	not_ok "x86-observed: the fixture with an --observe window ran"
fi

# ---- (b) --output-file ----
fx=$first_fixture
"$TOOL" --sysroot "$fx" --format prometheus > "$tmp/stdout.prom" 2> /dev/null
rc0=$?
od="$tmp/out"
mkdir "$od" || exit 99
(umask 077 && exec "$TOOL" --sysroot "$fx" --format prometheus --output-file "$od/dmamask.prom" \
	> "$tmp/of.stdout" 2> "$tmp/of.err")
rc=$?
check "--output-file: exits like the stdout run ($rc, $rc0)" test "$rc" -eq "$rc0"
check "--output-file: the file exists" test -f "$od/dmamask.prom"
check "--output-file: mode 0666 minus the umask (077)" test "$(stat -c %a "$od/dmamask.prom" 2> /dev/null)" = 600
check "--output-file: nothing on stdout or stderr" test ! -s "$tmp/of.stdout" -a ! -s "$tmp/of.err"
check "--output-file: no temporary file left" test "$(ls -A "$od")" = dmamask.prom
check "--output-file: the same bytes as stdout" same_report "$tmp/stdout.prom" "$od/dmamask.prom"
ino=$(stat -c %i "$od/dmamask.prom" 2> /dev/null)
"$TOOL" --sysroot "$odd" --format prometheus --output-file "$od/dmamask.prom" > /dev/null 2>&1
check "--output-file: a second run renames a new file over the old one" \
	test "$(stat -c %i "$od/dmamask.prom" 2> /dev/null)" != "$ino"
check "--output-file: ... with the second report in it" same_report "$tmp/odd.prom" "$od/dmamask.prom"

"$TOOL" --sysroot "$fx" --format prometheus --output-file "$tmp/no-such-dir/dmamask.prom" \
	> "$tmp/nodir.out" 2> "$tmp/nodir.err"
rc=$?
check "--output-file in a missing directory: exit 2 ($rc)" test "$rc" -eq 2
check "--output-file in a missing directory: one line on stderr" \
	test "$(wc -l < "$tmp/nodir.err")" -eq 1
check "--output-file in a missing directory: nothing created" test ! -e "$tmp/no-such-dir"
check "--output-file in a missing directory: nothing on stdout" test ! -s "$tmp/nodir.out"
diag < "$tmp/nodir.err"

# a directory as the target: refused before any temporary file is written
mkdir -p "$tmp/isdir/dmamask.prom" || exit 99
"$TOOL" --sysroot "$fx" --format prometheus --output-file "$tmp/isdir/dmamask.prom" > /dev/null 2>&1
rc=$?
check "--output-file over a directory: exit 2 ($rc)" test "$rc" -eq 2
check "--output-file over a directory: the temporary file removed" \
	test "$(ls -A "$tmp/isdir")" = dmamask.prom

# ---- a fatal run still replaces the textfile: success 0, the last report kept and dated ----
# kept_as_good: fail.prom holds good.prom's report metrics, as they were
kept_as_good() {
	local own='^dmamask_\(exit_status\|last_run\|report_timestamp\)\|^# [A-Z]* dmamask_\(exit_status\|last_run\|report_timestamp\)'
	diff <(grep -v "$own" "$od/good.prom") <(grep -v "$own" "$od/fail.prom")
}
"$TOOL" --sysroot "$odd" --format prometheus --output-file "$od/fail.prom" > /dev/null 2>&1
cp "$od/fail.prom" "$od/good.prom"
"$TOOL" --sysroot "$tmp/no-such-root" --format prometheus --output-file "$od/fail.prom" \
	> "$tmp/fail.out" 2> "$tmp/fail.err"
rc=$?
check "a fatal run: exit 2 ($rc)" test "$rc" -eq 2
check "a fatal run: says why on stderr" grep -q 'no-such-root' "$tmp/fail.err"
check "a fatal run: the textfile says dmamask_last_run_success 0" grep -qx 'dmamask_last_run_success 0' "$od/fail.prom"
check "a fatal run: ... and exit status 2" grep -qx "dmamask_exit_status 2" "$od/fail.prom"
check "a fatal run: the last report's metrics kept, as they were" kept_as_good
check "a fatal run: says why: dmamask_last_run_failure_info{reason=\"sysroot\"}" \
	grep -qx 'dmamask_last_run_failure_info{reason="sysroot"} 1' "$od/fail.prom"
check "a fatal run: dated by the last report's time" \
	test "$(grep "^dmamask_report_timestamp_seconds " "$od/fail.prom")" = \
	"$(grep "^dmamask_report_timestamp_seconds " "$od/good.prom")"
check "a fatal run: no temporary file left" test -z "$(ls -A "$od" | grep -v '^dmamask.prom$\|^fail.prom$\|^good.prom$')"
$have_promtool && promtool_ok "a fatal run" "$od/fail.prom"
lint "$od/fail.prom" > /dev/null 2>&1
check "a fatal run: HELP, TYPE and names as every run" test $? -eq 0

# each failure says its own reason, one word of a fixed set, replacing the last failure's
mkdir -p "$tmp/empty-root" "$tmp/full-dir" && touch "$tmp/full-dir/x" || exit 99
for c in "not-a-snapshot --sysroot $tmp/empty-root" \
	"selection --sysroot $odd 0000:99:99.9" \
	"assume-mask --sysroot $odd --assume-mask 0000:99:99.9=32" \
	"capture --sysroot $odd --capture $tmp/full-dir"; do
	read -r -a a <<< "$c"
	"$TOOL" "${a[@]:1}" --format prometheus --output-file "$od/fail.prom" > /dev/null 2>&1
	rc=$?
	check "a fatal run (${a[0]}): exit 2 ($rc)" test "$rc" -eq 2
	check "a fatal run (${a[0]}): the one reason is ${a[0]}" \
		test "$(grep '^dmamask_last_run_failure_info' "$od/fail.prom")" = \
		"dmamask_last_run_failure_info{reason=\"${a[0]}\"} 1"
	check "a fatal run (${a[0]}): the last report's metrics still kept" kept_as_good
done
$have_promtool && promtool_ok "fatal runs in a row" "$od/fail.prom"
"$TOOL" --sysroot "$odd" --format prometheus --output-file "$od/fail.prom" > /dev/null 2>&1
check "a good run after fatal ones: no failure reason" absent 'failure_info' "$od/fail.prom"
check "a good run after fatal ones: success" grep -qx 'dmamask_last_run_success 1' "$od/fail.prom"

# ---- (c) a real node_exporter reads the textfile ----
exporter=prometheus-node-exporter # Debian's name; upstream's is node_exporter
if ! command -v "$exporter" > /dev/null 2>&1 && command -v node_exporter > /dev/null 2>&1; then
	exporter=node_exporter
fi

# scrape URL: the page, once node_exporter answers (up to ~5 s)
scrape() {
	local _
	for _ in $(seq 50); do
		curl -fsS --max-time 2 "$1" 2> /dev/null && return 0
		kill -0 "$exporter_pid" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}

if need "node_exporter textfile collector" "$exporter" curl; then
	txt="$tmp/textfile"
	mkdir "$txt" || exit 99
	"$TOOL" --sysroot "$fx" --format prometheus --output-file "$txt/dmamask.prom" > /dev/null 2>&1
	started=false
	for try in 0 1 2 3 4; do
		port=$((19100 + ($$ + try * 97) % 500))
		"$exporter" --collector.disable-defaults --collector.textfile \
			--collector.textfile.directory="$txt" \
			--web.listen-address="127.0.0.1:$port" > "$tmp/exporter.log" 2>&1 &
		exporter_pid=$!
		url="http://127.0.0.1:$port/metrics"
		# answered, and still ours: not another service on a busy port
		if scrape "$url" > "$tmp/scrape1" && sleep 0.2 && kill -0 "$exporter_pid" 2> /dev/null &&
			grep -q '^node_textfile_scrape_error' "$tmp/scrape1"; then
			started=true
			break
		fi
		kill "$exporter_pid" 2> /dev/null
		wait "$exporter_pid" 2> /dev/null
		exporter_pid=
	done
	if $started; then
		ok "node_exporter: started on 127.0.0.1:$port"
		check "node_exporter: dmamask_info is exported" grep -q '^dmamask_info{' "$tmp/scrape1"
		check "node_exporter: dmamask_ram_bytes is exported" grep -q '^dmamask_ram_bytes' "$tmp/scrape1"
		check "node_exporter: no textfile scrape error" \
			absent '^node_textfile_scrape_error 1' "$tmp/scrape1"
		# the escaped device names and devices' label sets, through the Go parser
		"$TOOL" --sysroot "$odd" --format prometheus --output-file "$txt/dmamask.prom" > /dev/null 2>&1
		scrape "$url" > "$tmp/scrape2"
		check "node_exporter: the odd machine: no textfile scrape error" \
			grep -q '^node_textfile_scrape_error 0' "$tmp/scrape2"
		check "node_exporter: the odd machine: the escaped device name" \
			grep -qF "$odd_label" "$tmp/scrape2"
		check "node_exporter: the odd machine: per-device reach" \
			grep -q '^dmamask_device_unreachable_ram_bytes{' "$tmp/scrape2"
		grep -i 'level=error\|level=warn' "$tmp/exporter.log" | diag
	else
		not_ok "node_exporter: started on 127.0.0.1 (5 ports tried)"
		diag < "$tmp/exporter.log"
	fi
fi

# ---- (d) contrib/systemd ----
if need "systemd units" systemd-analyze; then
	units="$tmp/units"
	mkdir "$units" || exit 99
	sed "s|@bindir@|$(cd "$(dirname "$TOOL")" && pwd)|g" \
		"$SRCDIR/contrib/systemd/dmamask-audit.service.in" > "$units/dmamask-audit.service"
	cp "$SRCDIR/contrib/systemd/dmamask-audit.timer" "$units/"
	check "systemd: the service template is fully substituted" \
		absent "@[a-z_]*@" "$units/dmamask-audit.service"
	# least privilege, as systemd scores it (0 best, 10 worst): below 3.0
	score=$(cd "$units" && systemd-analyze security --offline=true dmamask-audit.service 2> /dev/null |
		sed -n 's/.*Overall exposure level for dmamask-audit.service: \([0-9.]*\).*/\1/p')
	check "systemd: systemd-analyze security exposure ${score:-?} is below 3.0" \
		awk -v s="${score:-99}" 'BEGIN { exit !(s + 0 < 3.0) }'
	check "systemd: the timer runs on a calendar, so Persistent= catches up" \
		bash -c 'grep -q "^OnCalendar=" "$1" && grep -q "^Persistent=true" "$1"' _ "$units/dmamask-audit.timer"
	out=$(cd "$units" && systemd-analyze verify --man=no dmamask-audit.service dmamask-audit.timer 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ -z "$out" ]; then
		ok "systemd: systemd-analyze verify"
	else
		not_ok "systemd: systemd-analyze verify (exit $rc)"
		printf '%s\n' "$out" | diag
	fi
	# the observing drop-in, beside the unit as systemd reads it from /etc
	mkdir "$units/dmamask-audit.service.d" || exit 99
	cp "$SRCDIR/contrib/systemd/dmamask-audit.service.d/observe.conf" "$units/dmamask-audit.service.d/"
	d="$units/dmamask-audit.service.d/observe.conf"
	check "systemd: observe.conf adds --observe through the service's \$DMAMASK_AUDIT_OPTIONS" \
		bash -c 'grep -q "^Environment=DMAMASK_AUDIT_OPTIONS=--observe=" "$1" &&
			grep -q "^ExecStart=.*/dmamask-audit \$DMAMASK_AUDIT_OPTIONS " "$2"' _ "$d" "$units/dmamask-audit.service"
	check "systemd: observe.conf makes tracefs instances/ writable, and nothing more" \
		bash -c '[ "$(grep -c "^ReadWritePaths=" "$1")" = 1 ] &&
			grep -qx "ReadWritePaths=-/sys/kernel/tracing/instances" "$1" &&
			! grep -qE "^(ProtectKernelTunables|ProtectSystem|CapabilityBoundingSet|SystemCallFilter)=" "$1"' _ "$d"
	score=$(cd "$units" && systemd-analyze security --offline=true dmamask-audit.service 2> /dev/null |
		sed -n 's/.*Overall exposure level for dmamask-audit.service: \([0-9.]*\).*/\1/p')
	check "systemd: with observe.conf, systemd-analyze security exposure ${score:-?} is below 3.0" \
		awk -v s="${score:-99}" 'BEGIN { exit !(s + 0 < 3.0) }'
	out=$(cd "$units" && systemd-analyze verify --man=no dmamask-audit.service 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ -z "$out" ]; then
		ok "systemd: systemd-analyze verify with observe.conf"
	else
		not_ok "systemd: systemd-analyze verify with observe.conf (exit $rc)"
		printf '%s\n' "$out" | diag
	fi
fi

# ---- (e) contrib/ansible: a facts.d script prints JSON, whatever happens ----
fact="$SRCDIR/contrib/ansible/dmamask_audit.fact"
check "ansible: the fact is executable" test -x "$fact"
tooldir=$(cd "$(dirname "$TOOL")" && pwd)
PATH="$tooldir:$PATH" sh "$fact" > "$tmp/fact.json" 2> "$tmp/fact.err"
check "ansible: exits 0 ($?)" test $? -eq 0
check "ansible: the report, with .schema_version" jqe "$tmp/fact.json" '.schema_version == 2'
check "ansible: nothing on stderr" test ! -s "$tmp/fact.err"

# a tool that fails: exit 2, a message that needs escaping
mkdir -p "$tmp/fake" || exit 99
cat > "$tmp/fake/dmamask-audit" << 'EOF'
#!/bin/sh
echo half a report
printf 'dmamask-audit: "x\\y" \377\n second line\n' >&2
exit 2
EOF
chmod +x "$tmp/fake/dmamask-audit"
PATH="$tmp/fake:$PATH" sh "$fact" > "$tmp/fact2.json" 2> /dev/null
check "ansible: a failing tool: exits 0 ($?)" test $? -eq 0
check "ansible: a failing tool: {\"error\": ...}" \
	jqe "$tmp/fact2.json" '. == {"error": "dmamask-audit exited 2: dmamask-audit: \"x\\y\" "}'
diag < "$tmp/fact2.json"

# no tool at all (the script also searches the usual bin directories)
if PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin command -v dmamask-audit > /dev/null 2>&1; then
	skip "ansible: no tool: dmamask-audit is installed on this machine"
else
	PATH=/usr/bin:/bin sh "$fact" > "$tmp/fact3.json" 2> /dev/null
	check "ansible: no tool: exits 0 ($?)" test $? -eq 0
	check "ansible: no tool: {\"error\": ...}" jqe "$tmp/fact3.json" '.error | test("not found")'
fi

tap_done
