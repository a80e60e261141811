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
# the libkmod child is a fork of the tool: valgrind follows it (--child-silent-after-fork=no)
vg=(valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99
    --track-fds=no --num-callers=30)
runs=0 errors=0
for name in $(fixtures); do
	args=()
	[ -f "$SRCDIR/tests/machines/$name/args" ] && read -r -a args < "$SRCDIR/tests/machines/$name/args"
	root=$(fixture_root "$name") || { not_ok "$name: fixture builds"; continue; }
	for fmt in json text prometheus; do
		log="$tmp/$name.$fmt.log"
		"${vg[@]}" --log-file="$log" "$TOOL" --sysroot "$root" --format "$fmt" "${args[@]}" \
			> "$tmp/out" 2> "$tmp/err"
		rc=$?
		runs=$((runs + 1))
		# the tool's own statuses are 0-2; 99 is valgrind's. Errors and leaks
		# are "==PID==" lines; "--PID--" ones are valgrind's own notes (3.19
		# does not know openat2, so the tool takes its hand-written resolver)
		if [ "$rc" -le 2 ] && ! grep -q '^==[0-9]*==' "$log"; then
			ok "$name --format $fmt: memcheck clean (exit $rc)"
		else
			errors=$((errors + 1))
			not_ok "$name --format $fmt: memcheck (exit $rc)"
			grep -v '^--[0-9]*--' "$log" | head -60 | diag
		fi
	done
done
echo "# $runs valgrind runs, $errors with errors or leaks"
tap_done
