#!/bin/bash
# The real server: Debian's prometheus on 127.0.0.1 scrapes three
# prometheus-node-exporter instances (one textfile directory each, holding a
# fixture machine's --format prometheus output: three hosts), loads
# contrib/prometheus/dmamask-audit.rules.yml, and must fire the expected
# alerts within a bounded wait while the healthy host fires none:
#   fails   kernel-x86-pc-6g-noforce  DmamaskDeviceDmaFails for both devices,
#                                     DmamaskErrorFinding (dma-overflow-logged)
#   bounce  x86-observed              DmamaskPredictionContradicted (the NVMe),
#                                     DmamaskErrorFinding (swiotlb-no-slot, machine-wide:
#                                     a "buffer is full" record in the window)
#   healthy kernel-x86-q35-iommu      nothing
# Then the fails host's next run fails (--sysroot that does not exist, into the
# same textfile): its alerts must keep firing, DmamaskLastRunFailed join them,
# with the failure's reason (dmamask_last_run_failure_info) in its description.
# The rules' `for:` durations (minutes) are set to 0s here: what they hold
# is tested by promtool over time (tests/prometheus/*.test.yml); here the
# expressions meet the metrics as a real scrape shapes them (instance, job,
# file labels). Everything started is stopped by PID on any exit.
set -u
. "$(dirname "$0")/lib.sh"

exporter=prometheus-node-exporter
command -v "$exporter" > /dev/null 2>&1 || exporter=node_exporter
missing=()
for t in prometheus "$exporter" promtool curl jq; do
	command -v "$t" > /dev/null 2>&1 || missing+=("$t")
done
if [ ${#missing[@]} -gt 0 ]; then
	# CI installs them all (tools/setup): there a missing one is a failure, not a skip
	if [ "${CI:-}" = true ]; then
		echo "Bail out! ${missing[*]} not installed, and CI must run this test"
		exit 1
	fi
	echo "1..0 # SKIP ${missing[*]} not installed"
	exit 0
fi

tmp=$(mktemp -d) || exit 99
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
FIXTURE_TMP=$tmp/fixtures

# free_port: a TCP port on 127.0.0.1 nobody listens on now
free_port() {
	"$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL PID: the URL answers (up to ~10 s) while PID lives
wait_http() {
	local _
	for _ in $(seq 100); do
		curl -fsS --max-time 2 "$1" > /dev/null 2>&1 && return 0
		kill -0 "$2" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}

hosts=(fails bounce healthy)
declare -A machine=([fails]=kernel-x86-pc-6g-noforce [bounce]=x86-observed [healthy]=kernel-x86-q35-iommu)
declare -A port
targets=""
for h in "${hosts[@]}"; do
	root=$(fixture_root "${machine[$h]}") || exit 99
	mkdir -p "$tmp/text-$h"
	"$TOOL" --sysroot "$root" --format prometheus --output-file "$tmp/text-$h/dmamask.prom" \
		> /dev/null 2>&1
	check "$h: the textfile is written (${machine[$h]})" test -s "$tmp/text-$h/dmamask.prom"
	port[$h]=$(free_port)
	"$exporter" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$tmp/text-$h" \
		--web.listen-address="127.0.0.1:${port[$h]}" > "$tmp/exporter-$h.log" 2>&1 &
	pids+=($!)
	check "$h: node_exporter answers on 127.0.0.1:${port[$h]}" \
		wait_http "http://127.0.0.1:${port[$h]}/metrics" "${pids[-1]}"
	targets+="      - targets: ['127.0.0.1:${port[$h]}']
        labels: {host: $h}
"
done

sed 's/^\( *for:\).*/\1 0s/' "$SRCDIR/contrib/prometheus/dmamask-audit.rules.yml" > "$tmp/rules.yml"
cat > "$tmp/prometheus.yml" << EOF2
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: ['$tmp/rules.yml']
scrape_configs:
  - job_name: node
    static_configs:
$targets
EOF2
check "promtool accepts the configuration and the rules" \
	promtool check config "$tmp/prometheus.yml"
pport=$(free_port)
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" > "$tmp/prometheus.log" 2>&1 &
pids+=($!)
api="http://127.0.0.1:$pport/api/v1"
check "prometheus answers on 127.0.0.1:$pport" wait_http "$api/status/buildinfo" "${pids[-1]}"

# settle SECONDS WANT CMD...: run CMD once a second until it prints WANT or
# SECONDS pass (scrapes and rule evaluations each tick on their own 1 s
# clocks); leaves its last output in $got
settle() {
	local n=$1 want=$2
	shift 2
	for _ in $(seq "$n"); do
		got=$("$@" 2> /dev/null)
		[ "$got" = "$want" ] && return 0
		sleep 1
	done
}
# firing: "host alertname device" lines of the firing alerts, sorted
firing() {
	curl -fsS --max-time 5 "$api/alerts" |
		jq -r '.data.alerts[] | select(.state == "firing") | "\(.labels.host) \(.labels.alertname) \(.labels.device // "-")"' |
		sort
}
# query EXPR: "host value" of each series, sorted, on one line
query() {
	curl -fsS --max-time 5 "$api/query" --data-urlencode "query=$1" |
		jq -r '.data.result[] | "\(.metric.host // "-") \(.value[1])"' | sort | tr '\n' ' '
}
want="bounce DmamaskErrorFinding -
bounce DmamaskPredictionContradicted 0000:01:00.0
fails DmamaskDeviceDmaFails 0000:00:01.1
fails DmamaskDeviceDmaFails 0000:00:02.0
fails DmamaskErrorFinding 0000:00:01.1"
settle 60 "$want" firing
printf '%s\n' "$got" | sed 's/^/firing: /' | diag
check "the expected alerts fire, and only they" test "$got" = "$want"
check "the healthy host fires nothing" bash -c '! grep -q "^healthy " <<< "$1"' _ "$got"
settle 30 "- 3 " query 'count(up == 1)'
check "all three node_exporters are up ($got)" test "$got" = "- 3 "
want="bounce 0 fails 2 healthy 0 "
settle 30 "$want" query instance:dmamask_devices_failing:count
check "the recording rule counts failing devices by host ($got)" test "$got" = "$want"
# the fails host's next run fails: the textfile keeps its last report, says the run failed
"$TOOL" --sysroot "$tmp/does-not-exist" --format prometheus --output-file "$tmp/text-fails/dmamask.prom" \
	> /dev/null 2>&1
check "a failed run keeps the last report's devices in the textfile" \
	grep -q '^dmamask_device_verdict{device="0000:00:01.1",driver="ata_piix",pci_id="8086:7010",verdict="fails"} 1$' \
	"$tmp/text-fails/dmamask.prom"
check "a failed run says why in the textfile" \
	grep -qx 'dmamask_last_run_failure_info{reason="sysroot"} 1' "$tmp/text-fails/dmamask.prom"
settle 30 "fails 0 " query 'dmamask_last_run_success{host="fails"}'
check "prometheus sees the failed run ($got)" test "$got" = "fails 0 "
want="bounce DmamaskErrorFinding -
bounce DmamaskPredictionContradicted 0000:01:00.0
fails DmamaskDeviceDmaFails 0000:00:01.1
fails DmamaskDeviceDmaFails 0000:00:02.0
fails DmamaskErrorFinding 0000:00:01.1
fails DmamaskLastRunFailed -"
settle 30 "$want" firing
printf '%s\n' "$got" | sed 's/^/firing after the failed run: /' | diag
check "after a failed run the alerts still fire, and the failure's joins them" test "$got" = "$want"
# failed: "reason description" of the firing DmamaskLastRunFailed alerts
failed() {
	curl -fsS --max-time 5 "$api/alerts" |
		jq -r '.data.alerts[] | select(.state == "firing" and .labels.alertname == "DmamaskLastRunFailed") |
			"\(.labels.reason // "-") \(.annotations.description)"'
}
want="sysroot The last run exited 2 (reason: sysroot); journalctl -u dmamask-audit says why."
settle 10 "$want" failed
check "DmamaskLastRunFailed carries the reason, in its description too ($got)" test "$got" = "$want"
grep -i 'level=error' "$tmp/prometheus.log" | diag
tap_done
