#!/bin/bash
# make check-valgrind: every fixture machine in json, text and prometheus
# under valgrind memcheck: no error, no definite, indirect or possible leak.
# Not in make check (about a minute per 30 runs); tools/setup check runs it.
set -u
. "$(dirname "$0")/lib.sh"
command -v valgrind > /dev/null || { echo "Bail out! valgrind is not installed"; exit 99; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
FIXTURE_TMP=$tmp/fixtures
vg=(valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99
    --track-fds=no --num-callers=30)
# memcheck FIXTURE: its three formats under valgrind, as TAP lines (numbered
# by the stream's own count; the parent renumbers them)
memcheck() {
	local name=$1 args=() root fmt log rc procs bad w=$tmp/$1
	mkdir -p "$w" || return 1
	[ -f "$SRCDIR/tests/machines/$name/args" ] && read -r -a args < "$SRCDIR/tests/machines/$name/args"
	root=$(fixture_root "$name") || { not_ok "$name: fixture builds"; return; }
	for fmt in json text prometheus; do
		log="$w/$fmt.log"
		# The log goes through a FIFO: the libkmod child (a fork, checked too)
		# runs under RLIMIT_FSIZE 0, which kills a writer of a regular file.
		rm -f "$w/fifo" && mkfifo "$w/fifo" || return 1
		cat "$w/fifo" > "$log" &
		reader=$!
		"${vg[@]}" --log-file="$w/fifo" "$TOOL" --sysroot "$root" --format "$fmt" "${args[@]}" \
			> "$w/out" 2> "$w/err"
		rc=$?
		wait "$reader"
		"$TOOL" --sysroot "$root" --format "$fmt" "${args[@]}" > "$w/plain" 2> /dev/null
		# the tool's own statuses are 0-2; 99 is valgrind's. Each process ends
		# with its summary of errors and leaks; the rest of the log is valgrind's
		# notes (3.19 does not know openat2: the tool takes its own resolver).
		procs=$(grep -c 'ERROR SUMMARY:' "$log")
		bad=$(grep 'ERROR SUMMARY:' "$log" | grep -vc 'ERROR SUMMARY: 0 errors')
		if [ "$rc" -le 2 ] && [ "$procs" -ge 1 ] && [ "$bad" -eq 0 ]; then
			ok "$name --format $fmt: memcheck clean in $procs process(es) (exit $rc)"
		else
			not_ok "$name --format $fmt: memcheck (exit $rc, $bad of $procs process(es) with errors)"
			grep -v '^--[0-9]*--' "$log" | head -80 | diag
		fi
		check "$name --format $fmt: the same report as without valgrind" same_report "$w/out" "$w/plain"
	done
}

# Two streams, every other fixture each: valgrind runs one process on one
# core, and CI's machine has two
list=($(fixtures))
for s in 0 1; do
	(
		for ((i = s; i < ${#list[@]}; i += 2)); do memcheck "${list[i]}"; done
	) > "$tmp/stream$s" 2>&1 &
done
wait
runs=0 errors=0
while IFS= read -r line; do
	case "$line" in
	"not ok "*) not_ok "${line#not ok * - }" ;;
	"ok "*) ok "${line#ok * - }" ;;
	*) echo "$line"; continue ;;
	esac
	case "$line" in *": memcheck "*) runs=$((runs + 1)) ;; esac
	case "$line" in "not ok "*": memcheck "*) errors=$((errors + 1)) ;; esac
done < <(cat "$tmp/stream0" "$tmp/stream1")
echo "# $runs valgrind runs, $errors with errors or leaks"
tap_done
